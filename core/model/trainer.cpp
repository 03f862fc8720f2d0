// SPDX-License-Identifier: MIT
#include "core/model/trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <functional>
#include <numbers>

#include "core/io/json.h"
#include "core/model/train_resume.h"
#include "core/util/rng.h"

namespace core::model {

namespace {

// Salts that separate the random streams of training draws and held-out draws from the
// parameter initialisation (which uses the plain seed).
constexpr uint64_t kTrainSalt = 0x7472'6169'6e00'0001ull;
constexpr uint64_t kEvalSalt = 0x6576'616c'0000'0002ull;
constexpr int64_t kEvalBlock = 64;            // held-out examples per parallel block
constexpr int64_t kUpdateBlock = 1 << 15;     // parameters per block of the optimiser update
constexpr int64_t kMinParallelUpdate = 1 << 18;  // fewer parameters: the update on one thread
constexpr int kFinalLossWindow = 50;          // steps averaged into finalTrainLoss

enum class LossKind { CrossEntropy, MeanSquared };

// One training or held-out example written into column `col` of the block buffers.
using SampleFn = std::function<void(CounterRng& rng, int64_t index, bool heldOut, float* x,
                                    double& t, int& condition, float* target)>;

struct Problem {
    LossKind loss = LossKind::CrossEntropy;
    int numClasses = 1;        // K (cross-entropy: outputs = D·K)
    int excludedClass = -1;    // cross-entropy: a class the softmax leaves out (a mask state)
    int64_t numTrain = 0;
    int64_t numHeldOut = 0;
    SampleFn sample;
};

// Loss of each column and dOut = scale·∂loss/∂out. Cross-entropy per position over K logits
// (docs/categorical.md#training, summed over positions); mean squared error ‖out − target‖²/d
// (docs/gaussian.md#training).
double lossAndGradient(const Problem& problem, const MatrixF& out, const MatrixF& target,
                       double scale, MatrixF* dOut) {
    double total = 0.0;
    const Eigen::Index rows = out.rows();
    if (dOut != nullptr) {
        dOut->resize(rows, out.cols());
    }
    for (Eigen::Index b = 0; b < out.cols(); ++b) {
        if (problem.loss == LossKind::CrossEntropy) {
            const int k = problem.numClasses;
            for (Eigen::Index d = 0; d < rows / k; ++d) {
                const float* logit = out.col(b).data() + d * k;
                const float* onehot = target.col(b).data() + d * k;
                const int excluded = problem.excludedClass;
                double shift = -std::numeric_limits<double>::infinity();
                for (int i = 0; i < k; ++i) {
                    if (i != excluded) shift = std::max(shift, static_cast<double>(logit[i]));
                }
                double z = 0.0;
                for (int i = 0; i < k; ++i) {
                    if (i != excluded) z += std::exp(static_cast<double>(logit[i]) - shift);
                }
                const double logZ = std::log(z) + shift;
                for (int i = 0; i < k; ++i) {
                    if (i == excluded) {
                        if (dOut != nullptr) (*dOut)(d * k + i, b) = 0.0f;
                        continue;
                    }
                    const double logP = static_cast<double>(logit[i]) - logZ;
                    total -= onehot[i] * logP;
                    if (dOut != nullptr) {
                        (*dOut)(d * k + i, b) = static_cast<float>(scale * (std::exp(logP) - onehot[i]));
                    }
                }
            }
        } else {
            const double invD = 1.0 / static_cast<double>(rows);
            for (Eigen::Index r = 0; r < rows; ++r) {
                const double diff = static_cast<double>(out(r, b)) - target(r, b);
                total += diff * diff * invD;
                if (dOut != nullptr) {
                    (*dOut)(r, b) = static_cast<float>(scale * 2.0 * diff * invD);
                }
            }
        }
    }
    return total;
}

struct BlockBuffers {
    MatrixF x, target, out, dOut;
    std::vector<double> t;
    std::vector<int> conditions;
    Mlp::Workspace ws;
};

void fillBlock(const Problem& problem, const MlpConfig& config, uint64_t seed, int64_t step,
               int64_t begin, int64_t end, bool heldOut, BlockBuffers& buf) {
    const int64_t n = end - begin;
    buf.x.resize(config.inputs, n);
    buf.target.resize(config.outputs, n);
    buf.out.resize(config.outputs, n);
    buf.t.assign(static_cast<size_t>(n), 0.0);
    buf.conditions.assign(static_cast<size_t>(n), 0);
    for (int64_t i = 0; i < n; ++i) {
        // Keyed by (seed, slot, step) or (seed, example): never by thread or block.
        CounterRng rng = heldOut ? CounterRng(seed ^ kEvalSalt, static_cast<uint64_t>(begin + i), 0)
                                 : CounterRng(seed ^ kTrainSalt, static_cast<uint64_t>(begin + i),
                                              static_cast<uint64_t>(step));
        problem.sample(rng, begin + i, heldOut, buf.x.col(i).data(), buf.t[static_cast<size_t>(i)],
                       buf.conditions[static_cast<size_t>(i)], buf.target.col(i).data());
    }
}

// Mean held-out loss of `net` over the first `count` held-out examples.
double evaluate(const Problem& problem, const Mlp& net, const TrainParams& params, int64_t count) {
    const double total = parallelSum(count, kEvalBlock, params.parallel, [&](int64_t begin, int64_t end) {
        BlockBuffers buf;
        fillBlock(problem, net.config(), params.seed, 0, begin, end, true, buf);
        net.forward(buf.x, buf.t, buf.conditions, buf.ws, buf.out);
        return lossAndGradient(problem, buf.out, buf.target, 1.0, nullptr);
    });
    return total / static_cast<double>(count);
}

struct Trained {
    Mlp net;  // EMA weights
    TrainSummary summary;
    TrainState state;
};

// The parameters that decide a run's trajectory, as a checkpoint stores them.
io::Json trainParamsJson(const TrainParams& p) {
    io::Json json = io::Json::object();
    json["steps"] = p.steps;
    json["batch"] = p.batch;
    json["learning_rate"] = p.learningRate;
    json["lr_schedule"] = p.schedule == LrSchedule::Cosine ? "cosine" : "constant";
    json["warmup"] = p.warmupSteps;
    json["adam_beta1"] = p.adamBeta1;
    json["adam_beta2"] = p.adamBeta2;
    json["adam_epsilon"] = p.adamEpsilon;
    json["weight_decay"] = p.weightDecay;
    json["ema_decay"] = p.emaDecay;
    json["condition_dropout"] = p.conditionDropout;
    json["seed"] = p.seed;
    return json;
}

}  // namespace

Status checkResume(const TrainState& state, const TrainParams& params, int64_t numParams) {
    const auto n = static_cast<size_t>(numParams);
    if (state.online.size() != n || state.ema.size() != n || state.moment1.size() != n ||
        state.moment2.size() != n) {
        return invalidArgument("resume", std::to_string(state.online.size()) + " parameters",
                               "the saved state is for another network (this one has " +
                                   std::to_string(numParams) + " parameters)");
    }
    // Compared as JSON values, not as text: a checkpoint written by an earlier build spells the
    // same numbers differently ("1" for 1.0, "3e-04" for 0.0003).
    const Result<io::Json> saved = io::parseJsonStrict(state.trainParams, "train_params");
    if (!saved || *saved != trainParamsJson(params)) {
        // Both sets in the message: front ends that name their own option and file keep it whole.
        return invalidArgument(
            "resume", "",
            "the run was started with other training parameters (" + state.trainParams +
                "); resume with the same ones (these: " + trainParamsToJson(params) + ")");
    }
    if (state.stepsDone < 0 || state.stepsDone >= params.steps ||
        state.trainLoss.size() != static_cast<size_t>(state.stepsDone)) {
        return invalidArgument("resume", std::to_string(state.stepsDone) + " steps done",
                               "nothing is left to train (or the loss history is incomplete) for " +
                                   std::to_string(params.steps) + " steps");
    }
    return {};
}

namespace {

Result<Trained> runTraining(const Problem& problem, const MlpConfig& config,
                            const TrainParams& params, Progress* progress) {
    const auto start = std::chrono::steady_clock::now();
    Result<Mlp> created = Mlp::create(config, params.seed);
    if (!created) {
        return created.error();
    }
    Mlp net = std::move(created).value();
    const int64_t numParams = net.numParameters();
    std::vector<float> ema(net.flat().begin(), net.flat().end());
    std::vector<float> moment1(static_cast<size_t>(numParams), 0.0f);
    std::vector<float> moment2(static_cast<size_t>(numParams), 0.0f);
    int firstStep = 0;
    TrainSummary summary;
    if (params.resume != nullptr) {
        const TrainState& state = *params.resume;
        if (Status s = checkResume(state, params, numParams); !s) {
            return s.error();
        }
        std::copy(state.online.begin(), state.online.end(), net.flat().begin());
        ema = state.ema;
        moment1 = state.moment1;
        moment2 = state.moment2;
        firstStep = state.stepsDone;
        summary.trainLoss = state.trainLoss;
        summary.stepsDone = firstStep;
    }
    const int64_t batch = params.batch;
    const int64_t blocks = numBlocks(batch, kTrainBlock);
    std::vector<std::vector<float>> blockGrad(static_cast<size_t>(blocks),
                                              std::vector<float>(static_cast<size_t>(numParams)));
    std::vector<double> blockLoss(static_cast<size_t>(blocks), 0.0);
    std::vector<BlockBuffers> buffers(static_cast<size_t>(blocks));
    const int64_t evalCount = params.evalExamples > 0
                                  ? std::min<int64_t>(params.evalExamples, problem.numHeldOut)
                                  : problem.numHeldOut;

    summary.trainLoss.reserve(static_cast<size_t>(params.steps));
    if (progress != nullptr) {
        progress->setTotal(params.steps);
        progress->advance(firstStep);
    }
    auto emaNet = [&] {
        Mlp copy = net;
        std::copy(ema.begin(), ema.end(), copy.flat().begin());
        return copy;
    };
    auto recordHeldOut = [&](int step) {
        if (evalCount > 0) {
            summary.heldOut.push_back({step, evaluate(problem, emaNet(), params, evalCount)});
            if (params.onLoss) params.onLoss(summary.heldOut.back(), true);
        }
    };

    for (int step = firstStep; step < params.steps; ++step) {
        if (progress != nullptr && !progress->poll()) {
            summary.cancelled = true;
            break;
        }
        parallelForBlocks(batch, kTrainBlock, params.parallel, [&](int64_t b, int64_t begin, int64_t end) {
            BlockBuffers& buf = buffers[static_cast<size_t>(b)];
            fillBlock(problem, config, params.seed, step, begin, end, false, buf);
            net.forward(buf.x, buf.t, buf.conditions, buf.ws, buf.out);
            blockLoss[static_cast<size_t>(b)] =
                lossAndGradient(problem, buf.out, buf.target, 1.0 / static_cast<double>(batch), &buf.dOut);
            std::vector<float>& grad = blockGrad[static_cast<size_t>(b)];
            std::fill(grad.begin(), grad.end(), 0.0f);
            net.backward(buf.ws, buf.dOut, grad);
        });
        double loss = 0.0;
        for (double l : blockLoss) {
            loss += l;
        }
        loss /= static_cast<double>(batch);
        if (!std::isfinite(loss)) {
            return makeError(ErrorCode::NumericalError, "learningRate", formatValue(params.learningRate),
                             "the training loss became non-finite at step " + std::to_string(step + 1) +
                                 "; try a smaller learning rate");
        }
        summary.trainLoss.push_back(loss);
        if (params.onLoss) params.onLoss({step + 1, loss}, false);

        // AdamW (Loshchilov & Hutter 2019, PyTorch's torch.optim.AdamW) and the EMA, per
        // parameter; the block gradients are summed in block order, so any thread count agrees.
        const double lr = learningRateAt(params, step);
        const double correction1 = 1.0 - std::pow(params.adamBeta1, step + 1);
        const double correction2 = 1.0 - std::pow(params.adamBeta2, step + 1);
        const double emaDecay = std::min(params.emaDecay, (1.0 + step) / (10.0 + step));
        const float b1 = static_cast<float>(params.adamBeta1);
        const float b2 = static_cast<float>(params.adamBeta2);
        const float stepSize = static_cast<float>(lr / correction1);
        const float invSqrtCorrection2 = static_cast<float>(1.0 / std::sqrt(correction2));
        const float eps = static_cast<float>(params.adamEpsilon);
        const float decay = static_cast<float>(1.0 - lr * params.weightDecay);
        const float emaKeep = static_cast<float>(emaDecay);
        std::span<float> theta = net.flat();
        // A small network's update takes microseconds, less than waking a second thread: beside
        // a busy process every parallel loop can wait a time slice for its last thread.
        const ParallelOptions update =
            numParams >= kMinParallelUpdate ? params.parallel : ParallelOptions{};
        parallelForBlocks(numParams, kUpdateBlock, update, [&](int64_t, int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) {
                const size_t j = static_cast<size_t>(i);
                float g = 0.0f;
                for (const std::vector<float>& bg : blockGrad) {
                    g += bg[j];
                }
                moment1[j] = b1 * moment1[j] + (1.0f - b1) * g;
                moment2[j] = b2 * moment2[j] + (1.0f - b2) * g * g;
                theta[j] = theta[j] * decay -
                           stepSize * moment1[j] / (std::sqrt(moment2[j]) * invSqrtCorrection2 + eps);
                ema[j] = emaKeep * ema[j] + (1.0f - emaKeep) * theta[j];
            }
        });
        summary.stepsDone = step + 1;
        if (params.evalEvery > 0 && (step + 1) % params.evalEvery == 0) {
            recordHeldOut(step + 1);
        }
        if (progress != nullptr && !progress->advance()) {
            summary.cancelled = true;
            break;
        }
    }
    if (!summary.cancelled && (summary.heldOut.empty() || summary.heldOut.back().step != summary.stepsDone)) {
        recordHeldOut(summary.stepsDone);
    }
    const size_t window = std::min<size_t>(kFinalLossWindow, summary.trainLoss.size());
    double tail = 0.0;
    for (size_t i = summary.trainLoss.size() - window; i < summary.trainLoss.size(); ++i) {
        tail += summary.trainLoss[i];
    }
    summary.finalTrainLoss = window > 0 ? tail / static_cast<double>(window) : 0.0;
    summary.elapsedSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    TrainState state{.stepsDone = summary.stepsDone,
                     .online = std::vector<float>(net.flat().begin(), net.flat().end()),
                     .ema = std::move(ema),
                     .moment1 = std::move(moment1),
                     .moment2 = std::move(moment2),
                     .trainLoss = summary.trainLoss,
                     .trainParams = trainParamsToJson(params)};
    Mlp emaWeights = net;
    std::copy(state.ema.begin(), state.ema.end(), emaWeights.flat().begin());
    return Trained{std::move(emaWeights), std::move(summary), std::move(state)};
}

Status validateArchitecture(const MlpConfig& architecture) {
    MlpConfig probe = architecture;
    probe.inputs = probe.outputs = 1;
    probe.numConditions = 0;
    return probe.validate();
}

}  // namespace

Status TrainParams::validate() const {
    if (steps < 1) {
        return invalidArgument("steps", std::to_string(steps), "at least one training step is needed");
    }
    if (batch < 1) {
        return invalidArgument("batch", std::to_string(batch), "the batch size must be at least 1");
    }
    if (!std::isfinite(learningRate) || learningRate <= 0.0) {
        return invalidArgument("learningRate", formatValue(learningRate), "the learning rate must be finite and > 0");
    }
    if (!(adamBeta1 >= 0.0 && adamBeta1 < 1.0)) {
        return invalidArgument("adamBeta1", formatValue(adamBeta1), "β1 must lie in [0, 1)");
    }
    if (!(adamBeta2 >= 0.0 && adamBeta2 < 1.0)) {
        return invalidArgument("adamBeta2", formatValue(adamBeta2), "β2 must lie in [0, 1)");
    }
    if (!std::isfinite(adamEpsilon) || adamEpsilon <= 0.0) {
        return invalidArgument("adamEpsilon", formatValue(adamEpsilon), "ε must be finite and > 0");
    }
    if (!std::isfinite(weightDecay) || weightDecay < 0.0 || weightDecay * learningRate >= 1.0) {
        return invalidArgument("weightDecay", formatValue(weightDecay),
                               "the weight decay must be finite, ≥ 0 and below 1/learningRate");
    }
    if (warmupSteps < 0) {
        return invalidArgument("warmupSteps", std::to_string(warmupSteps), "the warm-up must be ≥ 0 steps");
    }
    if (!(emaDecay >= 0.0 && emaDecay <= 1.0)) {
        return invalidArgument("emaDecay", formatValue(emaDecay), "the EMA decay must lie in [0, 1]");
    }
    if (!(conditionDropout >= 0.0 && conditionDropout <= 1.0)) {
        return invalidArgument("conditionDropout", formatValue(conditionDropout),
                               "the condition dropout must lie in [0, 1]");
    }
    if (evalEvery < 0) {
        return invalidArgument("evalEvery", std::to_string(evalEvery), "the evaluation interval must be ≥ 0");
    }
    if (evalExamples < 0) {
        return invalidArgument("evalExamples", std::to_string(evalExamples), "must be ≥ 0 (0: all)");
    }
    if (parallel.numThreads < 1) {
        return invalidArgument("parallel.numThreads", std::to_string(parallel.numThreads),
                               "at least one thread is needed");
    }
    return {};
}

std::string trainParamsToJson(const TrainParams& params) { return trainParamsJson(params).dump(); }

double learningRateAt(const TrainParams& params, int step) {
    if (step < params.warmupSteps) {
        return params.learningRate * static_cast<double>(step + 1) / static_cast<double>(params.warmupSteps);
    }
    if (params.schedule == LrSchedule::Constant) {
        return params.learningRate;
    }
    // Cosine decay from the peak to 0 over the steps after warm-up (Loshchilov & Hutter 2017).
    const double span = std::max(1, params.steps - params.warmupSteps);
    const double progress = std::min(1.0, static_cast<double>(step - params.warmupSteps) / span);
    return params.learningRate * 0.5 * (1.0 + std::cos(std::numbers::pi * progress));
}

Result<CategoricalTrainResult> trainCategorical(const CategoricalProcess& process,
                                                const CategoricalDataset& train,
                                                const CategoricalDataset& heldOut,
                                                const MlpConfig& architecture,
                                                const TrainParams& params,
                                                Progress* progress) {
    if (Status s = params.validate(); !s) {
        return s.error();
    }
    if (Status s = validateArchitecture(architecture); !s) {
        return s.error();
    }
    const int k = process.numClasses;
    const int d = process.numPositions;
    if (k < 2) {
        return invalidArgument("numClasses", std::to_string(k), "K must be at least 2");
    }
    if (d < 1) {
        return invalidArgument("numPositions", std::to_string(d), "D must be at least 1");
    }
    if (process.numConditions < 0) {
        return invalidArgument("numConditions", std::to_string(process.numConditions), "must be ≥ 0");
    }
    if (process.pi.size() != k || !process.pi.allFinite() || (process.pi.array() < 0.0).any() ||
        std::abs(process.pi.sum() - 1.0) > 1e-9) {
        return invalidArgument("pi", "", "π must have K nonnegative entries summing to 1");
    }
    if (process.maskState && process.pi[k - 1] != 1.0) {
        return invalidArgument("pi", std::to_string(process.pi[k - 1]),
                               "a mask state needs all of π on the last class");
    }
    // With a mask state the data classes are 0..K−2.
    const int dataClasses = process.maskState ? k - 1 : k;
    // Data checks, one field per set.
    auto check = [&](const CategoricalDataset& set, const char* field, bool needRows) -> Status {
        if (set.rows.size() % static_cast<size_t>(d) != 0) {
            return invalidArgument(field, std::to_string(set.rows.size()), "the class count is not a multiple of D");
        }
        const size_t m = set.rows.size() / static_cast<size_t>(d);
        if (needRows && m == 0) {
            return invalidArgument(field, "0", "no training rows");
        }
        for (size_t i = 0; i < set.rows.size(); ++i) {
            if (set.rows[i] < 0 || set.rows[i] >= dataClasses) {
                return invalidArgument(std::string(field) + ".rows[" + std::to_string(i / d) + "]",
                                       std::to_string(set.rows[i]),
                                       process.maskState ? "class outside 0..K−2 (K − 1 is the mask state)"
                                                         : "class outside 0..K−1");
            }
        }
        if (process.numConditions > 0) {
            if (set.labels.size() != m) {
                return invalidArgument(std::string(field) + ".labels", std::to_string(set.labels.size()),
                                       "one label per row is needed (" + std::to_string(m) + ")");
            }
            for (size_t i = 0; i < m; ++i) {
                if (set.labels[i] < 0 || set.labels[i] >= process.numConditions) {
                    return invalidArgument(std::string(field) + ".labels[" + std::to_string(i) + "]",
                                           std::to_string(set.labels[i]), "label outside 0..numConditions−1");
                }
            }
        }
        return {};
    };
    if (Status s = check(train, "train", true); !s) {
        return s.error();
    }
    if (Status s = check(heldOut, "heldOut", false); !s) {
        return s.error();
    }

    const MlpConfig config = categoricalNetworkConfig(process, architecture);
    const std::vector<double> pi(process.pi.data(), process.pi.data() + k);
    Problem problem;
    problem.loss = LossKind::CrossEntropy;
    problem.numClasses = k;
    problem.excludedClass = process.maskState ? k - 1 : -1;
    problem.numTrain = train.size(d);
    problem.numHeldOut = heldOut.size(d);
    const int noCondition = config.noCondition();
    problem.sample = [&](CounterRng& rng, int64_t index, bool isHeldOut, float* x, double& t,
                         int& condition, float* target) {
        const CategoricalDataset& set = isHeldOut ? heldOut : train;
        // Training slots draw their example; held-out example `index` is itself.
        const int64_t m = isHeldOut ? index
                                    : std::min<int64_t>(problem.numTrain - 1,
                                                        static_cast<int64_t>(rng.uniform() * problem.numTrain));
        const int* x0 = set.rows.data() + m * d;
        condition = 0;
        if (process.numConditions > 0) {
            condition = set.labels[static_cast<size_t>(m)];
            if (!isHeldOut && params.conditionDropout > 0.0 && rng.uniform() < params.conditionDropout) {
                condition = noCondition;
            }
        }
        t = rng.uniform();
        const double betaT = process.beta(t);
        std::fill(x, x + d * k, 0.0f);
        std::fill(target, target + d * k, 0.0f);
        for (int p = 0; p < d; ++p) {
            // x_t,p ~ P₀,ₜ[x_0,p, ·]: keep with probability 1 − β_t, else draw from π (A.1).
            const int xt = rng.uniform() < betaT ? rng.categorical(pi) : x0[p];
            x[p * k + xt] = 1.0f;
            target[p * k + x0[p]] = 1.0f;
        }
    };
    Result<Trained> trained = runTraining(problem, config, params, progress);
    if (!trained) {
        return trained.error();
    }
    Result<CategoricalMlpDenoiser> model = CategoricalMlpDenoiser::create(std::move(trained->net), k, d);
    if (!model) {
        return model.error();
    }
    if (process.maskState) model->setMaskClass(k - 1);
    return CategoricalTrainResult{std::move(model).value(), std::move(trained->summary),
                                  std::move(trained->state)};
}

Result<GaussianTrainResult> trainGaussian(const schedule::GaussianSchedule& schedule,
                                          const Matrix& train,
                                          const Matrix& heldOut,
                                          const MlpConfig& architecture,
                                          const TrainParams& params,
                                          Progress* progress) {
    if (Status s = params.validate(); !s) {
        return s.error();
    }
    if (Status s = validateArchitecture(architecture); !s) {
        return s.error();
    }
    const int numSteps = schedule.numSteps();
    if (numSteps < 1) {
        return invalidArgument("schedule", std::to_string(numSteps), "the schedule has no steps");
    }
    if (train.rows() < 1 || train.cols() < 1) {
        return invalidArgument("train", std::to_string(train.cols()), "no training points");
    }
    if (!train.allFinite()) {
        return invalidArgument("train", "", "the training points contain a non-finite value");
    }
    if (heldOut.cols() > 0 && (heldOut.rows() != train.rows() || !heldOut.allFinite())) {
        return invalidArgument("heldOut", std::to_string(heldOut.rows()),
                               "held-out points must be finite and have the training data's dimension");
    }
    const int d = static_cast<int>(train.rows());
    const MlpConfig config = gaussianNetworkConfig(d, architecture);
    Problem problem;
    problem.loss = LossKind::MeanSquared;
    problem.numTrain = train.cols();
    problem.numHeldOut = heldOut.cols();
    problem.sample = [&](CounterRng& rng, int64_t index, bool isHeldOut, float* x, double& t,
                         int& condition, float* target) {
        const Matrix& set = isHeldOut ? heldOut : train;
        const int64_t m = isHeldOut ? index
                                    : std::min<int64_t>(problem.numTrain - 1,
                                                        static_cast<int64_t>(rng.uniform() * problem.numTrain));
        const int n = std::min(numSteps, 1 + static_cast<int>(rng.uniform() * numSteps));
        const double a = std::sqrt(schedule.alphaBar(n));
        const double s = std::sqrt(schedule.betaBar(n));
        condition = 0;
        t = GaussianMlpEpsModel::networkTime(n, numSteps);
        for (int i = 0; i < d; ++i) {
            // x_n = √ᾱ_n x_0 + √β̄_n ε (docs/gaussian.md#forward-process); the target is ε.
            const double eps = rng.normal();
            x[i] = static_cast<float>(a * set(i, m) + s * eps);
            target[i] = static_cast<float>(eps);
        }
    };
    Result<Trained> trained = runTraining(problem, config, params, progress);
    if (!trained) {
        return trained.error();
    }
    Result<GaussianMlpEpsModel> model = GaussianMlpEpsModel::create(std::move(trained->net), numSteps);
    if (!model) {
        return model.error();
    }
    return GaussianTrainResult{std::move(model).value(), std::move(trained->summary),
                               std::move(trained->state)};
}

MlpConfig categoricalNetworkConfig(const CategoricalProcess& process,
                                   const MlpConfig& architecture) {
    MlpConfig config = architecture;
    config.inputs = config.outputs = process.numPositions * process.numClasses;
    config.numConditions = process.numConditions;
    return config;
}

MlpConfig gaussianNetworkConfig(int dimension, const MlpConfig& architecture) {
    MlpConfig config = architecture;
    config.inputs = config.outputs = dimension;
    config.numConditions = 0;
    return config;
}

}  // namespace core::model
