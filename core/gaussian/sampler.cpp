// SPDX-License-Identifier: MIT
#include "core/gaussian/sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <utility>

#include "core/gaussian/reverse_step.h"
#include "core/gaussian/rng_streams.h"

namespace core::gaussian {

Result<SamplerKind> parseSamplerKind(const std::string& name) {
    static const std::pair<const char*, SamplerKind> kNames[] = {
        {"ddpm", SamplerKind::Ddpm},
        {"ddim", SamplerKind::Ddim},
        {"analytic-ddpm", SamplerKind::AnalyticDdpm},
        {"analytic-ddim", SamplerKind::AnalyticDdim},
        {"dpm-solver-1", SamplerKind::DpmSolver1},
        {"dpm-solver++2m", SamplerKind::DpmSolverPp2M},
        {"dpm-solver++3m", SamplerKind::DpmSolverPp3M},
    };
    for (const auto& [text, kind] : kNames) {
        if (name == text) {
            return kind;
        }
    }
    return invalidArgument("sampler", name,
                           "expected ddpm, ddim, analytic-ddpm, analytic-ddim, dpm-solver-1, "
                           "dpm-solver++2m or dpm-solver++3m");
}

bool isDpmSolver(SamplerKind kind) {
    return kind == SamplerKind::DpmSolver1 || kind == SamplerKind::DpmSolverPp2M ||
           kind == SamplerKind::DpmSolverPp3M;
}

namespace {

// λ_n = log(α_n/σ_n) = ½(log ᾱ_n − log β̄_n); −∞ at ᾱ_n = 0.
double logSnr(const schedule::GaussianSchedule& schedule, int n) {
    return 0.5 * (schedule.logAlphaBar(n) - std::log(schedule.betaBar(n)));
}

// The data predictions D = x̂_0 of the last timesteps visited, newest first, for the multistep
// DPM-Solvers: d[0] at t (the current timestep), d[1] at the one before it, d[2] before that.
struct SolverHistory {
    Matrix d[3];
    double lambda[3] = {0.0, 0.0, 0.0};
    int count = 0;  // how many entries hold a value

    void push(const Matrix& x0, double lambdaT) {
        d[2].swap(d[1]);
        d[1].swap(d[0]);
        d[0] = x0;
        lambda[2] = lambda[1];
        lambda[1] = lambda[0];
        lambda[0] = lambdaT;
        count = std::min(count + 1, 3);
    }
};

// One DPM-Solver step from t to s < t (docs/gaussian.md#reverse-samplers). `x` holds x_t and
// receives x_s; history.d[0] = x̂_0(x_t) and eps = ε_θ(x_t, t). With h = λ_s − λ_t and
// φ = e^{−h} − 1, the data-prediction updates (DPM-Solver++, Algorithm 2 and the third-order
// multistep update of the official code) are
//   x_s = (σ_s/σ_t) x_t − α_s φ D_0 + α_s (φ/h + 1) D_1 − α_s ((φ + h)/h² − ½) D_2,
// with D_1, D_2 the divided differences of the earlier predictions (zero at first order; the
// second-order D_1 enters as −α_s φ ½ D_1, the midpoint form). Ratios are written h/h_k, which is
// 0 where an earlier step came from ᾱ = 0 (h_k = ∞), so no ∞/∞ arises.
void dpmSolverStep(const schedule::GaussianSchedule& schedule, int s, int t, int order,
                   const SolverHistory& history, const Matrix& eps, Matrix& x) {
    const double alphaS = std::sqrt(schedule.alphaBar(s));
    const double sigmaS = std::sqrt(schedule.betaBar(s));
    if (order == 0) {
        // DPM-Solver-1: (α_s/α_t) x_t − σ_s(e^{h} − 1) ε with x_t = α_t x̂_0 + σ_t ε, i.e.
        // α_s x̂_0 + σ_s ε: DDIM with η = 0, term for term, and finite at ᾱ_t = 0.
        x = alphaS * history.d[0] + sigmaS * eps;
        return;
    }
    const double h = logSnr(schedule, s) - history.lambda[0];
    const double phi = std::expm1(-h);
    const double keep = std::sqrt(schedule.betaBar(s) / schedule.betaBar(t));
    const Matrix& m0 = history.d[0];
    if (order == 1 || history.count == 1) {
        x = keep * x - (alphaS * phi) * m0;
        return;
    }
    const double h0 = history.lambda[0] - history.lambda[1];
    const Matrix& m1 = history.d[1];
    if (order == 2 || history.count == 2) {
        // D_i = (1 + 1/(2r)) D_t − (1/(2r)) D_prev with r = h0/h.
        x = keep * x - (alphaS * phi) * (m0 + (0.5 * h / h0) * (m0 - m1));
        return;
    }
    const double h1 = history.lambda[1] - history.lambda[2];
    const Matrix& m2 = history.d[2];
    const Matrix d10 = (h / h0) * (m0 - m1);
    const Matrix d11 = (h / h1) * (m1 - m2);
    const Matrix d1 = d10 + (h0 / (h0 + h1)) * (d10 - d11);  // r0/(r0 + r1) = h0/(h0 + h1)
    const Matrix d2 = (h / (h0 + h1)) * (d10 - d11);         // 1/(r0 + r1) = h/(h0 + h1)
    x = keep * x - (alphaS * phi) * m0 + (alphaS * (phi / h + 1.0)) * d1 -
        (alphaS * ((phi + h) / (h * h) - 0.5)) * d2;
}

int solverOrder(SamplerKind kind) {
    switch (kind) {
        case SamplerKind::DpmSolverPp2M: return 2;
        case SamplerKind::DpmSolverPp3M: return 3;
        default: return 0;  // DPM-Solver-1's noise-prediction form
    }
}

}  // namespace

Status SamplerParams::validate() const {
    if (!(eta >= 0.0 && eta <= 1.0)) {
        return invalidArgument("eta", std::to_string(eta), "η must lie in [0, 1]");
    }
    if (!(clipFirst >= 0.0 && std::isfinite(clipFirst))) {
        return invalidArgument("clip-first", std::to_string(clipFirst), "y must be ≥ 0");
    }
    if (count < 1) {
        return invalidArgument("count", std::to_string(count), "needs at least 1 sample");
    }
    if (batchSize < 1) {
        return invalidArgument("batch", std::to_string(batchSize), "must be at least 1");
    }
    return range.validate();
}

Result<std::vector<PlanStep>> samplingPlan(const schedule::GaussianSchedule& schedule,
                                           const std::vector<double>& gamma,
                                           const std::vector<int>& trajectory,
                                           const SamplerParams& params) {
    if (Status s = params.validate(); !s) {
        return s.error();
    }
    if (Status s = validateGaussianTrajectory(trajectory, schedule.numSteps()); !s) {
        return s.error();
    }
    const bool ddpmMean =
        params.kind == SamplerKind::Ddpm || params.kind == SamplerKind::AnalyticDdpm;
    const ForwardProcess forward{ddpmMean ? 1.0 : params.eta};
    const size_t numPairs = trajectory.size() - 1;
    std::vector<PlanStep> plan(numPairs + 1);
    for (size_t j = 0; j < numPairs; ++j) {
        PlanStep& step = plan[j];
        step.s = trajectory[numPairs - 1 - j];
        step.t = trajectory[numPairs - j];
        const int s = step.s;
        const int t = step.t;
        switch (params.kind) {
            case SamplerKind::Ddpm:
                step.variance = baselineSigma2(schedule, s, t, params.ddpmVariance);
                break;
            case SamplerKind::Ddim: step.variance = forward.lambda2(schedule, s, t); break;
            case SamplerKind::DpmSolver1:
            case SamplerKind::DpmSolverPp2M:
            case SamplerKind::DpmSolverPp3M:
                step.variance = 0.0;
                step.linear = false;
                step.x0 = 0.0;
                break;
            case SamplerKind::AnalyticDdpm:
            case SamplerKind::AnalyticDdim: {
                Result<PairVariance> p = pairVariance(schedule, gamma, s, t, forward, params.range);
                if (!p) {
                    return p.error();
                }
                step.variance = p->sigma2;
                break;
            }
        }
        if (j + 1 == numPairs && params.clipFirst > 0.0) {
            step.variance = std::min(step.variance, firstPairClipThreshold(params.clipFirst));
        }
        if (!step.linear) {
            continue;
        }
        if (ddpmMean) {
            const DdpmMeanCoefficients c = ddpmMeanCoefficients(schedule, s, t);
            step.x0 = c.c0;
            step.xt = c.ct;
        } else {
            const double lambda2 = forward.lambda2(schedule, s, t);
            step.x0 = std::sqrt(schedule.alphaBar(s));
            step.eps = std::sqrt(std::max(0.0, schedule.betaBar(s) - lambda2));
        }
    }
    plan.back().t = trajectory.front();  // the decoder: x̂_0 at τ_1
    return plan;
}

Result<SampleResult> sampleReverse(const model::GaussianEpsModel& model,
                                   const schedule::GaussianSchedule& schedule,
                                   const std::vector<double>& gamma,
                                   const std::vector<int>& trajectory,
                                   const SamplerParams& params,
                                   Progress* progress) {
    // The plan validates the parameters and the trajectory.
    Result<std::vector<PlanStep>> plan = samplingPlan(schedule, gamma, trajectory, params);
    if (!plan) {
        return plan.error();
    }
    const bool ddpmMean =
        params.kind == SamplerKind::Ddpm || params.kind == SamplerKind::AnalyticDdpm;
    const size_t numPairs = trajectory.size() - 1;
    SampleResult result;
    result.plan = std::move(plan).value();
    result.sigma2.resize(numPairs);
    for (size_t j = 0; j < numPairs; ++j) {
        result.sigma2[j] = result.plan[j].variance;
    }
    const Result<Vector> meanAtZeroSnr = zeroSnrMean(model, schedule, trajectory);
    if (!meanAtZeroSnr) {
        return meanAtZeroSnr.error();
    }
    const bool solver = isDpmSolver(params.kind);
    const int order = solverOrder(params.kind);
    const int d = model.dimension();
    result.frameSteps.assign(trajectory.rbegin(), trajectory.rend());
    result.frameSteps.push_back(0);
    result.samples.resize(d, params.count);
    if (params.recordFrames) {
        result.frames.assign(result.frameSteps.size(), Matrix(d, params.count));
    }
    const int64_t numItems = numBlocks(params.count, params.batchSize);
    if (progress != nullptr) {
        progress->setTotal(numItems * static_cast<int64_t>(trajectory.size()));
    }
    // Each block of samples runs the whole chain: no state is shared between blocks.
    parallelForBlocks(numItems, 1, params.parallel, [&](int64_t item, int64_t, int64_t) {
        const int64_t begin = item * params.batchSize;
        const int64_t end = std::min<int64_t>(params.count, begin + params.batchSize);
        const Eigen::Index batch = end - begin;
        Matrix x(d, batch);
        for (Eigen::Index b = 0; b < batch; ++b) {
            CounterRng rng(params.seed, rngStream(RngPurpose::SamplerInit, begin + b), 0);
            for (int i = 0; i < d; ++i) {
                x(i, b) = rng.normal();
            }
        }
        Matrix eps(d, batch);
        Matrix x0(d, batch);
        SolverHistory history;  // the DPM-Solvers' earlier x̂_0
        if (params.recordFrames) {
            result.frames[0].middleCols(begin, batch) = x;
        }
        for (size_t j = 0; j <= numPairs; ++j) {
            if (progress != nullptr && progress->cancelled()) {
                return;
            }
            const bool decoder = j == numPairs;
            const int t = trajectory[numPairs - j];
            const int s = decoder ? 0 : trajectory[numPairs - 1 - j];
            model.predictEps(x, model::NoiseLevel{t, schedule.alphaBar(t), schedule.betaBar(t)},
                             eps);
            predictX0(schedule, t, x, eps, params.range, x0, *meanAtZeroSnr);
            if (!decoder && !ddpmMean && order == 0) {
                // The ε the DDIM kinds and DPM-Solver-1 step with is the one consistent with the
                // clipped x̂_0, (x_t − √ᾱ_t x̂_0)/√β̄_t (as guided-diffusion does): pairing a clipped
                // x̂_0 with the network's raw ε leaves the ODE's path, and on the digits network
                // made DDIM worse with every step added (Fréchet 2.3 at K = 10, 32 at K = 50).
                eps = (x - std::sqrt(schedule.alphaBar(t)) * x0) / std::sqrt(schedule.betaBar(t));
            }
            if (decoder) {
                x = x0;  // the decoder outputs its mean x̂_0, no noise (B.4)
            } else if (solver) {
                history.push(x0, logSnr(schedule, t));
                dpmSolverStep(schedule, s, t, order, history, eps, x);
            } else {
                const PlanStep& step = result.plan[j];
                if (ddpmMean) {
                    x = step.x0 * x0 + step.xt * x;
                } else {
                    x = step.x0 * x0 + step.eps * eps;
                }
                const double sigma = std::sqrt(step.variance);
                if (sigma > 0.0) {
                    for (Eigen::Index b = 0; b < batch; ++b) {
                        CounterRng rng(params.seed, rngStream(RngPurpose::SamplerNoise, begin + b),
                                       static_cast<uint64_t>(s));
                        for (int i = 0; i < d; ++i) {
                            x(i, b) += sigma * rng.normal();
                        }
                    }
                }
            }
            if (params.recordFrames) {
                result.frames[j + 1].middleCols(begin, batch) = x;
            }
            if (progress != nullptr && !progress->advance()) {
                return;
            }
        }
        result.samples.middleCols(begin, batch) = x;
    }, progress);
    if (progress != nullptr && progress->cancelled()) {
        return makeError(ErrorCode::Cancelled, "", "", "the sampling was cancelled");
    }
    if (!result.samples.allFinite()) {
        return makeError(ErrorCode::NumericalError, "samples", "", "a sample is not finite");
    }
    return result;
}

}  // namespace core::gaussian
