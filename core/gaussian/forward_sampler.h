// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/gaussian_eps_model.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/eigen_types.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// The forward process as particles (docs/gaussian.md#forward-process): data points x_0 carried
// along a trajectory 0 < τ_1 < … < τ_K, for the Particles view's forward frames.
namespace core::gaussian {

struct ForwardSampleParams {
    int count = 500;            // B, number of particles
    uint64_t seed = 0;          // x_0 keyed (seed, Data + b, 0), noise (seed, ForwardNoise + b, t)
    ParallelOptions parallel;   // results do not depend on it
};

struct ForwardFrames {
    std::vector<int> frameSteps;   // 0, τ_1, …, τ_K: the timestep each frame shows
    std::vector<Matrix> frames;    // d×B per entry of frameSteps; frames[0] is x_0
};

// One Markov chain per particle: x_t = √α_{t|s}·x_s + √β_{t|s}·ε between consecutive nodes, so
// each frame's marginal is exactly q(x_t|x_0) = N(√ᾱ_t x_0, β̄_t I) (B.2) and particles move
// continuously instead of being redrawn per frame. Deterministic per seed whatever the threads;
// fails with ErrorCode::Cancelled when the progress token is cancelled. The trajectory starts
// at τ_1 = 1; for one that starts later, walk through 1 and drop that frame.
Result<ForwardFrames> sampleForward(const model::GaussianDataSampler& data,
                                    const schedule::GaussianSchedule& schedule,
                                    const std::vector<int>& trajectory,
                                    const ForwardSampleParams& params,
                                    Progress* progress = nullptr);

}  // namespace core::gaussian
