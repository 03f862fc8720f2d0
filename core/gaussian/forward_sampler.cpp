// SPDX-License-Identifier: MIT
#include "core/gaussian/forward_sampler.h"

#include <atomic>
#include <cmath>
#include <string>

#include "core/gaussian/rng_streams.h"
#include "core/gaussian/variance.h"

namespace core::gaussian {

Result<ForwardFrames> sampleForward(const model::GaussianDataSampler& data,
                                    const schedule::GaussianSchedule& schedule,
                                    const std::vector<int>& trajectory,
                                    const ForwardSampleParams& params,
                                    Progress* progress) {
    if (params.count < 1) {
        return invalidArgument("count", std::to_string(params.count), "needs at least 1 particle");
    }
    if (Status s = validateGaussianTrajectory(trajectory, schedule.numSteps()); !s) {
        return s.error();
    }
    if (trajectory.front() != 1) {  // the walk from x_0 goes through x_1
        return invalidArgument("trajectory", std::to_string(trajectory.front()),
                               "the forward walk starts at n = 1");
    }
    const int d = data.dimension();
    ForwardFrames result;
    result.frameSteps.push_back(0);
    result.frameSteps.insert(result.frameSteps.end(), trajectory.begin(), trajectory.end());
    result.frames.assign(result.frameSteps.size(), Matrix(d, params.count));
    // Per step, √α_{t|s} and √β_{t|s} (s = 0 gives ᾱ_t, β̄_t).
    std::vector<double> keep(result.frameSteps.size(), 1.0), noise(result.frameSteps.size(), 0.0);
    for (size_t k = 1; k < result.frameSteps.size(); ++k) {
        const int s = result.frameSteps[k - 1];
        const int t = result.frameSteps[k];
        keep[k] = s == 0 ? std::sqrt(schedule.alphaBar(t)) : std::sqrt(schedule.alphaTS(s, t));
        noise[k] = s == 0 ? std::sqrt(schedule.betaBar(t)) : std::sqrt(schedule.betaTS(s, t));
    }
    constexpr int64_t kBlock = 256;
    if (progress != nullptr) {
        progress->setTotal(numBlocks(params.count, kBlock));
    }
    parallelForBlocks(params.count, kBlock, params.parallel, [&](int64_t, int64_t begin,
                                                                  int64_t end) {
        Vector x(d);
        for (int64_t b = begin; b < end; ++b) {
            CounterRng dataRng(params.seed, rngStream(RngPurpose::Data, b), 0);
            data.sampleData(static_cast<uint64_t>(b), dataRng, x);
            result.frames[0].col(b) = x;
            for (size_t k = 1; k < result.frameSteps.size(); ++k) {
                CounterRng rng(params.seed, rngStream(RngPurpose::ForwardNoise, b),
                               static_cast<uint64_t>(result.frameSteps[k]));
                for (int i = 0; i < d; ++i) {
                    x[i] = keep[k] * x[i] + noise[k] * rng.normal();
                }
                result.frames[k].col(b) = x;
            }
        }
        if (progress != nullptr) {
            progress->advance();
        }
    }, progress);
    if (progress != nullptr && progress->cancelled()) {
        return makeError(ErrorCode::Cancelled, "", "", "the forward sampling was cancelled");
    }
    return result;
}

}  // namespace core::gaussian
