// SPDX-License-Identifier: MIT
#include "core/gaussian/sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "core/gaussian/reverse_step.h"
#include "core/gaussian/rng_streams.h"

namespace core::gaussian {

Result<SamplerKind> parseSamplerKind(const std::string& name) {
    if (name == "ddpm") {
        return SamplerKind::Ddpm;
    }
    if (name == "ddim") {
        return SamplerKind::Ddim;
    }
    if (name == "analytic-ddpm") {
        return SamplerKind::AnalyticDdpm;
    }
    if (name == "analytic-ddim") {
        return SamplerKind::AnalyticDdim;
    }
    return invalidArgument("sampler", name, "expected ddpm, ddim, analytic-ddpm or analytic-ddim");
}

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

Result<SampleResult> sampleReverse(const model::GaussianEpsModel& model,
                                   const schedule::GaussianSchedule& schedule,
                                   const std::vector<double>& gamma,
                                   const std::vector<int>& trajectory,
                                   const SamplerParams& params,
                                   Progress* progress) {
    if (Status s = params.validate(); !s) {
        return s.error();
    }
    if (Status s = validateGaussianTrajectory(trajectory, schedule.numSteps()); !s) {
        return s.error();
    }
    const bool ddpmMean =
        params.kind == SamplerKind::Ddpm || params.kind == SamplerKind::AnalyticDdpm;
    const ForwardProcess forward{ddpmMean ? 1.0 : params.eta};
    // σ² per pair in sampling order; the DDPM kinds use the DDPM mean, the DDIM kinds theirs.
    const size_t numPairs = trajectory.size() - 1;
    SampleResult result;
    result.sigma2.resize(numPairs);
    for (size_t j = 0; j < numPairs; ++j) {
        const int s = trajectory[numPairs - 1 - j];
        const int t = trajectory[numPairs - j];
        double sigma2 = 0.0;
        switch (params.kind) {
            case SamplerKind::Ddpm: sigma2 = baselineSigma2(schedule, s, t, params.ddpmVariance); break;
            case SamplerKind::Ddim: sigma2 = forward.lambda2(schedule, s, t); break;
            case SamplerKind::AnalyticDdpm:
            case SamplerKind::AnalyticDdim: {
                Result<PairVariance> p = pairVariance(schedule, gamma, s, t, forward, params.range);
                if (!p) {
                    return p.error();
                }
                sigma2 = p->sigma2;
                break;
            }
        }
        if (j + 1 == numPairs && params.clipFirst > 0.0) {
            sigma2 = std::min(sigma2, firstPairClipThreshold(params.clipFirst));  // App. F.2
        }
        result.sigma2[j] = sigma2;
    }
    const int d = model.dimension();
    result.frameSteps.assign(trajectory.rbegin(), trajectory.rend());
    result.frameSteps.push_back(0);
    result.samples.resize(d, params.count);
    if (params.recordFrames) {
        result.frames.assign(result.frameSteps.size(), Matrix(d, params.count));
    }
    const int64_t numItems = numBlocks(params.count, params.batchSize);
    std::atomic<bool> stop{false};
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
        if (params.recordFrames) {
            result.frames[0].middleCols(begin, batch) = x;
        }
        for (size_t j = 0; j <= numPairs; ++j) {
            if (stop.load(std::memory_order_relaxed)) {
                return;
            }
            const bool decoder = j == numPairs;
            const int t = trajectory[numPairs - j];
            const int s = decoder ? 0 : trajectory[numPairs - 1 - j];
            model.predictEps(x, model::NoiseLevel{t, schedule.alphaBar(t), schedule.betaBar(t)},
                             eps);
            predictX0(schedule, t, x, eps, params.range, x0);
            if (decoder) {
                x = x0;  // the decoder outputs its mean x̂_0, no noise (B.4)
            } else {
                if (ddpmMean) {
                    const DdpmMeanCoefficients c = ddpmMeanCoefficients(schedule, s, t);
                    x = c.c0 * x0 + c.ct * x;
                } else {
                    const double lambda2 = forward.lambda2(schedule, s, t);
                    const double epsScale = std::sqrt(std::max(0.0, schedule.betaBar(s) - lambda2));
                    x = std::sqrt(schedule.alphaBar(s)) * x0 + epsScale * eps;
                }
                const double sigma = std::sqrt(result.sigma2[j]);
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
                stop.store(true);
                return;
            }
        }
        result.samples.middleCols(begin, batch) = x;
    });
    if (stop.load() || (progress != nullptr && progress->cancelled())) {
        return makeError(ErrorCode::Cancelled, "", "", "the sampling was cancelled");
    }
    if (!result.samples.allFinite()) {
        return makeError(ErrorCode::NumericalError, "samples", "", "a sample is not finite");
    }
    return result;
}

}  // namespace core::gaussian
