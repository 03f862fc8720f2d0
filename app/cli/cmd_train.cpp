// SPDX-License-Identifier: MIT
// `diffuscope train`: trains an MLP denoiser and saves it as a safetensors checkpoint.
#include <atomic>
#include <csignal>
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/terminal_progress.h"
#include "core/categorical/prior.h"
#include "core/data/bundled_files.h"
#include "core/data/categorical_rows.h"
#include "core/data/digits.h"
#include "core/data/gaussian_data.h"
#include "core/model/oracle_specs.h"
#include "core/data/toys.h"
#include "core/io/file_io.h"
#include "core/model/checkpoint.h"
#include "core/model/trainer.h"
#include "core/schedule/beta_curve.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/parallel.h"

namespace app::cli {
namespace {

using core::Result;

constexpr core::limits::IntRange kNormFlag{"norm (0 or 1)", 0, 1};

// "mlp:width=512,depth=3[,activation=gelu][,norm=1]" → the architecture fields it sets.
Result<core::model::MlpConfig> parseArchitecture(const std::string& spec) {
    core::model::MlpConfig config;
    config.width = 256;
    config.depth = 3;
    if (spec.rfind("mlp", 0) != 0) {
        return core::invalidArgument("--arch", spec, "expected mlp:width=W,depth=D");
    }
    std::string rest = spec.size() > 4 ? spec.substr(4) : std::string();
    size_t start = 0;
    while (start < rest.size()) {
        const size_t comma = rest.find(',', start);
        const std::string part = rest.substr(start, comma == std::string::npos ? std::string::npos
                                                                                 : comma - start);
        start = comma == std::string::npos ? rest.size() : comma + 1;
        const size_t eq = part.find('=');
        const std::string key = part.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : part.substr(eq + 1);
        if (key == "activation") {
            auto activation = core::model::parseActivation(value, "--arch activation");
            if (!activation) return activation.error();
            config.activation = *activation;
            continue;
        }
        const core::limits::IntRange* range = key == "width"   ? &core::limits::kWidth
                                              : key == "depth" ? &core::limits::kDepth
                                              : key == "temb"  ? &core::limits::kEmbedding
                                              : key == "norm"  ? &kNormFlag
                                                               : nullptr;
        if (range == nullptr) {
            return core::invalidArgument("--arch", part,
                                         "takes width=, depth=, activation=, norm=, temb=");
        }
        auto number = parseBounded(value, "--arch " + key, *range);
        if (!number) return number.error();
        if (key == "width") config.width = *number;
        else if (key == "depth") config.depth = *number;
        else if (key == "norm") config.layerNorm = *number != 0;
        else config.timeEmbedding = *number;
    }
    return config;
}

Result<core::model::TrainParams> parseTrainParams(const Args& args) {
    core::model::TrainParams params;
    auto steps = args.getBounded("steps", core::limits::kTrainingSteps);
    auto batch = args.getBounded("batch", core::limits::kBatch);
    auto lr = args.getDouble("lr");
    auto seed = args.getInt64("seed");
    auto threads = args.getBounded("threads", core::limits::kThreads, core::hardwareThreads());
    auto warmup = args.getBounded("warmup", core::limits::kTrainingInterval);
    auto every = args.getBounded("eval-every", core::limits::kTrainingInterval);
    auto decay = args.getDouble("weight-decay");
    auto dropout = args.getDouble("condition-dropout");
    for (const core::Error* e : {decay ? nullptr : &decay.error(), dropout ? nullptr : &dropout.error(),
                                 steps ? nullptr : &steps.error(), batch ? nullptr : &batch.error(),
                                 lr ? nullptr : &lr.error(), seed ? nullptr : &seed.error(),
                                 threads ? nullptr : &threads.error(),
                                 warmup ? nullptr : &warmup.error(),
                                 every ? nullptr : &every.error()}) {
        if (e != nullptr) return *e;
    }
    params.steps = *steps;
    params.batch = *batch;
    params.learningRate = *lr;
    params.seed = static_cast<uint64_t>(*seed);
    params.parallel.numThreads = *threads;
    params.warmupSteps = std::min(*warmup, std::max(0, *steps / 10));
    params.evalEvery = *every;
    params.weightDecay = *decay;
    params.conditionDropout = *dropout;
    if (auto valid = params.validate(); !valid) return valid.error();
    return params;
}

// Refuses a network and batch whose training would not fit in memory, before any data is drawn:
// weights, AdamW moments, online and EMA copies (5 float copies of width²·depth), and the
// activations and their gradients of one batch (about 4·depth + 4 vectors of width floats).
core::Status checkTrainingMemory(const core::model::MlpConfig& config, int batch, int inputs) {
    const double width = config.width;
    const double parameters = width * (width * 2.0 * config.depth + inputs + 2.0 * width);
    const double bytes = 4.0 * (5.0 * parameters + batch * width * (4.0 * config.depth + 4.0));
    return core::limits::checkMemory(
        "--batch", std::to_string(batch),
        "4 bytes × (5 × " + std::to_string(static_cast<long long>(parameters)) +
            " parameters + batch × width × (4·depth + 4) activations)",
        bytes);
}

void printSummary(const core::model::TrainSummary& summary, const std::string& out) {
    for (const auto& point : summary.heldOut) {
        std::cout << "step " << point.step << ": held-out loss " << point.loss << '\n';
    }
    std::cout << (summary.cancelled ? "stopped after " : "trained ") << summary.stepsDone
              << " steps in " << summary.elapsedSeconds << " s; final train loss "
              << summary.finalTrainLoss << "; wrote " << out << '\n';
    if (summary.cancelled) {
        std::cout << "to continue, run the same command with --resume " << out << '\n';
    }
}

// Ctrl+C during training stops at the next step and saves a checkpoint that can be resumed.
std::atomic<bool> g_interrupted{false};

class InterruptGuard {
public:
    // The first Ctrl+C asks for a stop after the current step; a second one ends the program
    // at once (the default action), so a stuck save can still be interrupted.
    InterruptGuard() {
        m_previous = std::signal(SIGINT, [](int) {
            g_interrupted.store(true);
            std::signal(SIGINT, SIG_DFL);
        });
    }
    ~InterruptGuard() { std::signal(SIGINT, m_previous); }

private:
    void (*m_previous)(int);
};

// Said once the Ctrl+C handler is in place (scripts and tests wait for this line).
void announce(const core::model::TrainParams& params) {
    std::cout << "training " << params.steps << " steps"
              << (params.resume ? " from step " + std::to_string(params.resume->stepsDone) : "")
              << "; Ctrl+C stops and saves a checkpoint that --resume continues" << std::endl;
}

// --resume FILE: the training state saved by a stopped run of the same process, data and
// schedule (null without --resume). The training parameters are checked by the trainer.
Result<std::shared_ptr<const core::model::TrainState>> loadResume(const Args& args,
                                                                  const std::string& process,
                                                                  const std::string& data,
                                                                  const std::string& schedule) {
    if (!args.has("resume")) return std::shared_ptr<const core::model::TrainState>();
    const std::string path = args.get("resume");
    auto loaded = core::model::loadMlpCheckpoint(path);
    if (!loaded) return loaded.error();
    if (loaded->trainState == nullptr) {
        return core::invalidArgument("--resume", path,
                                     "the checkpoint holds no training state (only a stopped run's, "
                                     "or one saved with --save-state, does)");
    }
    if (core::Status same = core::model::sameRun(*loaded->trainState, process, data, schedule);
        !same) {
        return core::invalidArgument("--resume", path, same.error().message);
    }
    return loaded->trainState;
}

// The categorical training data: digits:levels=L (D = 64, the label as condition, the fixed
// test split held out) or csv:FILE (core/data/categorical_rows.h; the last tenth held out).
struct CategoricalData {
    core::model::CategoricalDataset train, heldOut;
    int numClasses = 0, numPositions = 0, numConditions = 0;
};

Result<CategoricalData> loadCategoricalData(const Args& args, const std::string& data) {
    CategoricalData out;
    if (data.rfind("csv:", 0) == 0) {
        int classes = 0;
        if (args.has("classes")) {
            auto k = args.getBounded("classes", core::limits::kClasses);
            if (!k) return k.error();
            classes = *k;
        }
        auto rows = core::data::readCategoricalRows(data.substr(4), classes);
        if (!rows) return rows.error();
        if (rows->size() < 2) {
            return core::invalidArgument("--data", data, "training needs at least 2 rows");
        }
        core::data::CategoricalRows train, heldOut;
        core::data::splitHeldOut(*rows, train, heldOut);
        out.train = {train.rows, train.labels};
        out.heldOut = {heldOut.rows, heldOut.labels};
        out.numClasses = rows->numClasses;
        out.numPositions = rows->numPositions;
        out.numConditions = rows->numConditions;
        return out;
    }
    if (data.rfind("digits", 0) != 0) {
        return core::invalidArgument("--data", data,
                                     "categorical training reads digits:levels=L or csv:FILE");
    }
    int levels = 4;
    if (const size_t at = data.find("levels="); at != std::string::npos) {
        auto parsed = parseBounded(data.substr(at + 7), "--data levels", core::limits::kClasses);
        if (!parsed) return parsed.error();
        levels = *parsed;
    }
    auto digits = core::data::readDigitsOrBundled(args.get("digits"));
    if (!digits) return digits.error();
    auto train = core::data::quantisedSplit(*digits, levels, true);
    if (!train) return train.error();
    auto heldOut = core::data::quantisedSplit(*digits, levels, false);
    if (!heldOut) return heldOut.error();
    out.train = {train->rows, train->labels};
    out.heldOut = {heldOut->rows, heldOut->labels};
    out.numClasses = levels;
    out.numPositions = core::data::kDigitsPixels;
    out.numConditions = 10;
    return out;
}

int trainCategorical(const Args& args, const std::string& data, const std::string& out) {
    auto loaded = loadCategoricalData(args, data);
    if (!loaded) return fail(loaded.error());
    const int levels = loaded->numClasses;
    const int d = loaded->numPositions;
    const core::model::CategoricalDataset& train = loaded->train;
    const core::model::CategoricalDataset& heldOut = loaded->heldOut;

    auto pi = core::categorical::parsePrior(args.getOr("pi", "uniform:" + std::to_string(levels)),
                                            "--pi");
    if (!pi) return fail(pi.error());
    if (pi->size() != levels) {
        return fail(core::invalidArgument("--pi", args.get("pi"), "π needs K = levels entries"));
    }
    const std::string scheduleSpec = args.getOr("schedule", "cosine");
    auto beta = core::schedule::parseBetaCurve(scheduleSpec, {}, "--schedule");
    if (!beta) return fail(beta.error());
    auto architecture = parseArchitecture(args.getOr("arch", "mlp:width=256,depth=3"));
    if (!architecture) return fail(architecture.error());
    auto params = parseTrainParams(args);
    if (!params) return fail(params.error());
    if (auto fits = checkTrainingMemory(*architecture, params->batch, levels * d); !fits) {
        return fail(fits.error());
    }

    auto resume = loadResume(args, "categorical", data, scheduleSpec);
    if (!resume) return fail(resume.error());
    params->resume = resume->get();

    core::model::CategoricalProcess process{levels, d, loaded->numConditions, *pi, *beta};
    InterruptGuard interrupt;
    announce(*params);
    TerminalProgress observer(&g_interrupted);
    core::Progress progress(&observer, "train");
    auto result = core::model::trainCategorical(process, train, heldOut, *architecture, *params,
                                                &progress);
    if (!result) return fail(result.error());
    core::io::CheckpointInfo info;
    info.process = "categorical";
    info.numClasses = levels;
    info.numPositions = d;
    info.numConditions = loaded->numConditions;
    info.pi.assign(pi->data(), pi->data() + pi->size());
    info.schedule = scheduleSpec;
    info.dataSet = data;
    info.trainingSteps = result->summary.stepsDone;
    info.trainLoss = result->summary.finalTrainLoss;
    info.heldOutLoss = result->summary.heldOut.empty() ? std::nan("") : result->summary.heldOut.back().loss;
    info.seed = params->seed;
    info.trainParams = core::model::trainParamsToJson(*params);
    const bool keepState = result->summary.cancelled || args.flag("save-state");
    if (auto saved = core::model::saveMlpCheckpoint(out, result->model.mlp(), info,
                                                    keepState ? &result->state : nullptr);
        !saved) {
        return fail(saved.error());
    }
    printSummary(result->summary, out);
    // A Ctrl+C that came after the last step (during the save, say) still says "interrupted".
    return result->summary.cancelled || g_interrupted.load() ? kExitInterrupted : 0;
}

int trainGaussian(const Args& args, const std::string& data, const std::string& out) {
    auto numSteps = args.getBounded("num-steps", core::limits::kSteps);
    if (!numSteps) return fail(numSteps.error());
    const std::string scheduleSpec = args.getOr("schedule", "linear");
    auto schedule = core::schedule::gaussianScheduleFromSpec(scheduleSpec, *numSteps);
    if (!schedule) return fail(schedule.error());
    auto count = args.getBounded("points", core::limits::kSamples);
    if (!count) return fail(count.error());
    Result<core::data::Digits> digits = core::data::Digits{};
    if (core::data::isDigitsSpec(data)) {
        digits = core::data::readDigitsOrBundled(args.get("digits"));
        if (!digits) return fail(digits.error());
    }
    auto points = core::model::gaussianTrainingData(data, *count, &*digits);
    if (!points) return fail(points.error());
    const core::Matrix& train = points->train;
    const core::Matrix& heldOut = points->heldOut;
    auto architecture = parseArchitecture(args.getOr("arch", "mlp:width=128,depth=3"));
    if (!architecture) return fail(architecture.error());
    auto params = parseTrainParams(args);
    if (!params) return fail(params.error());
    if (auto fits = checkTrainingMemory(*architecture, params->batch,
                                        static_cast<int>(train.rows()));
        !fits) {
        return fail(fits.error());
    }
    const std::string scheduleName = scheduleSpec + ",N=" + std::to_string(*numSteps);
    auto resume = loadResume(args, "gaussian", data, scheduleName);
    if (!resume) return fail(resume.error());
    params->resume = resume->get();
    InterruptGuard interrupt;
    announce(*params);
    TerminalProgress observer(&g_interrupted);
    core::Progress progress(&observer, "train");
    auto result = core::model::trainGaussian(*schedule, train, heldOut, *architecture, *params,
                                             &progress);
    if (!result) return fail(result.error());
    core::io::CheckpointInfo info;
    info.process = "gaussian";
    info.numPositions = static_cast<int>(train.rows());
    info.schedule = scheduleName;
    info.dataSet = data;
    info.trainingSteps = result->summary.stepsDone;
    info.trainLoss = result->summary.finalTrainLoss;
    info.heldOutLoss = result->summary.heldOut.empty() ? std::nan("") : result->summary.heldOut.back().loss;
    info.seed = params->seed;
    info.trainParams = core::model::trainParamsToJson(*params);
    const bool keepState = result->summary.cancelled || args.flag("save-state");
    if (auto saved = core::model::saveMlpCheckpoint(out, result->model.mlp(), info,
                                                    keepState ? &result->state : nullptr);
        !saved) {
        return fail(saved.error());
    }
    printSummary(result->summary, out);
    // A Ctrl+C that came after the last step (during the save, say) still says "interrupted".
    return result->summary.cancelled || g_interrupted.load() ? kExitInterrupted : 0;
}

}  // namespace

const CommandSpec& trainSpec() {
    static const CommandSpec spec{
        "train",
        "train an MLP denoiser and save it as a safetensors checkpoint",
        "",
        {required("process", "categorical|gaussian", "the diffusion process"),
         required("data", "D",
                  "categorical: digits:levels=L or csv:FILE; gaussian: a data spec (see below)"),
         valued("arch", "mlp:width=W,depth=D", "",
                "the network, also activation=, norm=0|1, temb= (default: width=256 categorical, "
                "128 gaussian; depth=3)"),
         valued("steps", "S", "2000", "training steps"),
         valued("batch", "B", "128", "the batch size"),
         valued("lr", "X", "1e-3", "the learning rate"),
         valued("seed", "N", "0", "the seed"),
         required("out", "MODEL", "the checkpoint to write (.safetensors)"),
         valued("threads", "T", "", "worker threads (default: all cores)"),
         valued("schedule", "S", "", "the schedule (default: cosine categorical, linear gaussian)"),
         valued("pi", "P", "", "categorical: the prior π (default: uniform over the levels)"),
         valued("num-steps", "N", "1000", "gaussian: the number of timesteps N"),
         valued("points", "N", "4000", "gaussian: the number of training points drawn from D"),
         valued("warmup", "S", "100", "learning-rate warm-up steps (at most a tenth of --steps)"),
         valued("eval-every", "S", "500", "steps between held-out evaluations"),
         valued("digits", "FILE", "",
                "the digits file for digits data (default: the bundled copy)"),
         valued("classes", "K", "",
                "categorical csv: the number of classes (default: from the data)"),
         valued("resume", "STOPPED", "", "continue a stopped run from its checkpoint"),
         flag("save-state",
              "keep the training state in the checkpoint, so --resume can continue it"),
         valued("weight-decay", "X", "0", "AdamW's weight decay"),
         valued("condition-dropout", "P", "0",
                "the probability of dropping the condition (label)")},
        "Gaussian data: toy:moons|checkerboard|swissroll|ring[,n=,seed=], gaussian:d=D,s=S,\n"
        "gmm:FILE.json, mixture:w,mx,my,s;…, csv:FILE or digits. Ctrl+C stops after the current\n"
        "step and saves a checkpoint that --resume continues (exit code 130).\n"};
    return spec;
}

int runTrain(const Args& args) {
    auto process = args.require("process");
    auto data = args.require("data");
    auto out = args.require("out");
    if (!process) return fail(process.error());
    if (!data) return fail(data.error());
    if (!out) return fail(out.error());
    // Minutes of training must not end in "cannot write": check the output first.
    if (auto writable = core::io::checkWritablePath(*out); !writable) {
        return fail(writable.error());
    }
    if (*process == "categorical") return trainCategorical(args, *data, *out);
    if (*process == "gaussian") return trainGaussian(args, *data, *out);
    return fail(core::invalidArgument("--process", *process, "expected categorical or gaussian"));
}

}  // namespace app::cli
