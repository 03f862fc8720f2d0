// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>
#include <vector>

#include "core/gaussian/variance.h"
#include "core/model/gaussian_eps_model.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/eigen_types.h"

// Pieces of a reverse step shared by the NLL and the samplers (docs/gaussian.md#reverse-samplers).
namespace core::gaussian {

// x̂_0(x_t) = x_t/√ᾱ_t − √(1/ᾱ_t − 1)·ε_θ, clamped to [a, b] (B.2). Written into x0.
// At ᾱ_t = 0 (zero SNR) x̂_0 is E[x_0] = `zeroSnrMean` (see zeroSnrMean below), clamped.
inline void predictX0(const schedule::GaussianSchedule& schedule,
                      int t,
                      const ConstMatrixRef& xt,
                      const ConstMatrixRef& eps,
                      const DataRange& range,
                      MatrixRef x0,
                      const Vector& zeroSnrMean = {}) {
    const double alphaBar = schedule.alphaBar(t);
    if (alphaBar == 0.0) {
        x0 = zeroSnrMean.cwiseMax(range.low).cwiseMin(range.high).replicate(1, xt.cols());
        return;
    }
    const double a = 1.0 / std::sqrt(alphaBar);
    const double b = std::sqrt(schedule.betaBar(t) / alphaBar);
    x0 = (a * xt - b * eps).cwiseMax(range.low).cwiseMin(range.high);
}

// What predictX0 uses at ᾱ_τK = 0: E[x_0] from the model (an empty vector when the trajectory's
// top timestep has ᾱ > 0). An ε-network cannot give it: an error naming the schedule.
inline Result<Vector> zeroSnrMean(const model::GaussianEpsModel& model,
                                  const schedule::GaussianSchedule& schedule,
                                  const std::vector<int>& trajectory) {
    if (trajectory.empty() || schedule.alphaBar(trajectory.back()) != 0.0) {
        return Vector();
    }
    Vector mean(model.dimension());
    if (!model.dataMean(mean)) {
        return invalidArgument("schedule", "zero-snr",
                               "at ᾱ_N = 0 an ε-network says nothing about x_0; use the exact "
                               "oracle or a trajectory that ends before N");
    }
    return mean;
}

// DDPM posterior-mean coefficients (B.4): μ = c0·x̂_0 + ct·x_t with
// c0 = β_{t|s}·√ᾱ_s/β̄_t and ct = √α_{t|s}·β̄_s/β̄_t.
struct DdpmMeanCoefficients {
    double c0 = 0.0;
    double ct = 0.0;
};
inline DdpmMeanCoefficients ddpmMeanCoefficients(const schedule::GaussianSchedule& schedule,
                                                 int s,
                                                 int t) {
    const double betaBarT = schedule.betaBar(t);
    return {schedule.betaTS(s, t) * std::sqrt(schedule.alphaBar(s)) / betaBarT,
            std::sqrt(schedule.alphaTS(s, t)) * schedule.betaBar(s) / betaBarT};
}

}  // namespace core::gaussian
