// SPDX-License-Identifier: MIT
#include "core/gaussian/variance.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/trajectory/least_cost_path.h"

namespace core::gaussian {

Status ForwardProcess::validate() const {
    if (!(eta >= 0.0 && eta <= 1.0)) {
        return invalidArgument("eta", std::to_string(eta), "η must lie in [0, 1]");
    }
    return {};
}

Status DataRange::validate() const {
    if (!(std::isfinite(low) && std::isfinite(high) && low < high)) {
        return invalidArgument("data-range", std::to_string(low) + "," + std::to_string(high),
                               "needs a < b, both finite");
    }
    return {};
}

Status validateGammaTable(const schedule::GaussianSchedule& schedule,
                          const std::vector<double>& gamma) {
    const int numSteps = schedule.numSteps();
    if (static_cast<int>(gamma.size()) != numSteps + 1) {
        return invalidArgument("Γ", std::to_string(gamma.size() == 0 ? 0 : gamma.size() - 1) +
                                        " timesteps",
                               "the Γ table must have N = " + std::to_string(numSteps) +
                                   " entries");
    }
    for (int n = 1; n <= numSteps; ++n) {
        if (!(std::isfinite(gamma[n]) && gamma[n] >= 0.0)) {
            return makeError(ErrorCode::NumericalError, "Γ_" + std::to_string(n),
                             std::to_string(gamma[n]), "Γ must be finite and non-negative");
        }
    }
    return {};
}

Status validateGaussianTrajectory(const std::vector<int>& trajectory, int numSteps) {
    if (!trajectory.empty() && trajectory.back() > numSteps) {
        return invalidArgument("trajectory", std::to_string(trajectory.back()),
                               "timesteps must not exceed N = " + std::to_string(numSteps));
    }
    if (!trajectory.empty() && trajectory.front() < 1) {
        return invalidArgument("trajectory", std::to_string(trajectory.front()),
                               "timesteps must be at least 1");
    }
    // One timestep is one step to x_0, as diffusers' schedulers take K = 1.
    if (trajectory.size() == 1) return {};
    return trajectory::validateTrajectory(trajectory, trajectory.empty() ? 1 : trajectory.front(),
                                          trajectory.empty() ? numSteps : trajectory.back(),
                                          "trajectory");
}

double posteriorVarianceEstimate(const schedule::GaussianSchedule& schedule,
                                 const std::vector<double>& gamma,
                                 int t,
                                 const DataRange& range) {
    if (schedule.alphaBar(t) == 0.0) {
        return range.halfWidthSquared();
    }
    const double betaBar = schedule.betaBar(t);
    return betaBar / schedule.alphaBar(t) * (1.0 - betaBar * gamma[t]);
}

double posteriorVarianceCap(const schedule::GaussianSchedule& schedule, int t,
                            const DataRange& range) {
    if (schedule.alphaBar(t) == 0.0) {
        return range.halfWidthSquared();
    }
    return std::min(schedule.betaBar(t) / schedule.alphaBar(t), range.halfWidthSquared());
}

double varianceCoefficient(const schedule::GaussianSchedule& schedule,
                           int s,
                           int t,
                           double lambda2) {
    // 1 − √r = (1 − r)/(1 + √r) and 1 − r = (β_{t|s} + α_{t|s}λ²)/β̄_t exactly (B.4 rewritten).
    const double alphaTS = schedule.alphaTS(s, t);
    const double betaTS = schedule.betaTS(s, t);
    const double betaBarT = schedule.betaBar(t);
    const double r = std::max(0.0, (schedule.betaBar(s) - lambda2) * alphaTS / betaBarT);
    const double oneMinusSqrtR = (betaTS + alphaTS * lambda2) / (betaBarT * (1.0 + std::sqrt(r)));
    return schedule.alphaBar(s) * oneMinusSqrtR * oneMinusSqrtR;
}

Result<PairVariance> pairVariance(const schedule::GaussianSchedule& schedule,
                                  const std::vector<double>& gamma,
                                  int s,
                                  int t,
                                  const ForwardProcess& forward,
                                  const DataRange& range) {
    const int numSteps = schedule.numSteps();
    if (s < 1 || t <= s || t > numSteps) {
        return invalidArgument("pair", std::to_string(s) + "," + std::to_string(t),
                               "needs 1 ≤ s < t ≤ N = " + std::to_string(numSteps));
    }
    if (static_cast<int>(gamma.size()) <= t || !std::isfinite(gamma[t])) {
        return makeError(ErrorCode::NumericalError, "Γ_" + std::to_string(t),
                         gamma.size() > static_cast<size_t>(t) ? std::to_string(gamma[t]) : "",
                         "Γ is missing or not finite");
    }
    PairVariance p;
    p.s = s;
    p.t = t;
    p.lambda2 = forward.lambda2(schedule, s, t);
    p.coefficient = varianceCoefficient(schedule, s, t, p.lambda2);
    p.v = posteriorVarianceEstimate(schedule, gamma, t, range);
    const bool zeroSnr = schedule.alphaBar(t) == 0.0;  // β̄_t/ᾱ_t = ∞: only Eq. 12 bounds v
    const double vMax = posteriorVarianceCap(schedule, t, range);
    p.sigma2Unclipped = p.lambda2 + p.coefficient * p.v;
    p.lower = p.lambda2;
    p.upperBounded = p.lambda2 + p.coefficient * range.halfWidthSquared();
    p.upper = zeroSnr ? p.upperBounded
                      : p.lambda2 + p.coefficient * schedule.betaBar(t) / schedule.alphaBar(t);
    p.sigma2 = p.lambda2 + p.coefficient * std::clamp(p.v, 0.0, vMax);
    if (!std::isfinite(p.sigma2) || !std::isfinite(p.sigma2Unclipped) ||
        !std::isfinite(p.upper)) {
        return makeError(ErrorCode::NumericalError,
                         "σ²(" + std::to_string(s) + "|" + std::to_string(t) + ")",
                         std::to_string(p.sigma2), "the variance is not finite");
    }
    return p;
}

Result<std::vector<PairVariance>> trajectoryVariances(const schedule::GaussianSchedule& schedule,
                                                      const std::vector<double>& gamma,
                                                      const std::vector<int>& trajectory,
                                                      const ForwardProcess& forward,
                                                      const DataRange& range) {
    if (Status s = forward.validate(); !s) {
        return s.error();
    }
    if (Status s = range.validate(); !s) {
        return s.error();
    }
    if (Status s = validateGaussianTrajectory(trajectory, schedule.numSteps()); !s) {
        return s.error();
    }
    std::vector<PairVariance> pairs;
    pairs.reserve(trajectory.size() - 1);
    for (size_t k = trajectory.size() - 1; k >= 1; --k) {
        Result<PairVariance> p =
            pairVariance(schedule, gamma, trajectory[k - 1], trajectory[k], forward, range);
        if (!p) {
            return p.error();
        }
        pairs.push_back(*p);
    }
    return pairs;
}

double baselineSigma2(const schedule::GaussianSchedule& schedule,
                      int s,
                      int t,
                      BaselineVariance baseline) {
    switch (baseline) {
        case BaselineVariance::Small: return schedule.betaTildeST(s, t);
        case BaselineVariance::Large: return schedule.betaTS(s, t);
        case BaselineVariance::Zero: return 0.0;
    }
    return 0.0;
}

double firstPairClipThreshold(double y) {
    const double scale = y * (2.0 / 255.0) * std::sqrt(std::numbers::pi / 2.0);
    return scale * scale;
}

std::vector<double> expectedPosteriorVariances(const schedule::GaussianSchedule& schedule,
                                               const std::vector<double>& gamma,
                                               const DataRange& range) {
    std::vector<double> v(static_cast<size_t>(schedule.numSteps()) + 1, 0.0);
    for (int n = 1; n <= schedule.numSteps() && n < static_cast<int>(gamma.size()); ++n) {
        v[n] = posteriorVarianceEstimate(schedule, gamma, n, range);
    }
    return v;
}

}  // namespace core::gaussian
