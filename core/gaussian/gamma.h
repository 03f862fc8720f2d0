// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/gaussian_eps_model.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// Γ, the mean squared score (docs/gaussian.md#gamma), by Monte Carlo: Γ_n = (1/M) Σ_m
// ‖s_n(x_{n,m})‖²/d with x_{n,m} = √ᾱ_n x_0⁽ᵐ⁾ + √β̄_n ε. Computed once per model and data set,
// reused for every trajectory and forward process.
namespace core::gaussian {

// How each Monte Carlo term is formed (both estimate the same Γ_n for an exact oracle).
enum class GammaEstimator {
    Score,      // Γ as the paper defines it: ‖ε_θ(x_n)‖²/d, valid for any model
    Denoising,  // exact oracles only: per timestep, whichever of ‖ε_θ‖²/d and
                // 1 − ‖ε_θ(x_n) − ε‖²/d has the smaller sample variance (same draws). Tweedie:
                // E‖ε‖² = E‖ε_θ‖² + E‖ε − ε_θ‖² when ε_θ = E[ε|x_n], so both are unbiased;
                // the second's error shrinks with 1 − β̄_nΓ_n where the first's does not
                // (large n, small d), the first wins at small n.
    Error,      // any model: 1 − ‖ε_θ(x_n) − ε‖²/d always. For an exact oracle it is unbiased
                // for β̄_nΓ_n; for a network it puts the network's own error E‖ε − ε_θ‖²/d into
                // v = (β̄_n/ᾱ_n)(1 − β̄_nΓ_n), which is the optimal variance for an imperfect
                // mean (Bao et al. 2022, "Estimating the optimal covariance with imperfect
                // mean"), and it never exceeds its bound β̄_nΓ_n ≤ 1.
};

struct GammaParams {
    int numSamples = 100;         // M, Monte Carlo samples per timestep
    uint64_t seed = 0;            // the RNG key: draws are keyed (seed, m, n)
    std::vector<int> timesteps;   // which n to estimate, increasing; empty = all 1..N
    int batchSize = 64;           // points per model call (also the unit of parallel work)
    GammaEstimator estimator = GammaEstimator::Score;  // see GammaEstimator
    ParallelOptions parallel;     // thread count; results do not depend on it

    Status validate(int numSteps) const;
};

struct GammaEstimate {
    std::vector<int> timesteps;         // the estimated n, increasing
    std::vector<double> gamma;          // Γ_n per entry of `timesteps`
    std::vector<double> standardError;  // Monte Carlo standard error of Γ_n
    std::vector<double> msEps;          // β̄_n Γ_n = (1/M) Σ ‖ε_θ‖²/d, the paper code's `ms_eps`
    int numSamples = 0;                 // M
};

// Estimates Γ on params.timesteps. x_0⁽ᵐ⁾ is the same data point for every n, ε is fresh per
// (m, n). Deterministic per seed whatever the thread count. Fails with Cancelled when the
// progress token is cancelled and with NumericalError on a non-finite value.
Result<GammaEstimate> estimateGamma(const model::GaussianEpsModel& model,
                                    const model::GaussianDataSampler& data,
                                    const schedule::GaussianSchedule& schedule,
                                    const GammaParams& params,
                                    Progress* progress = nullptr);

// The full table Γ_0..Γ_N (entry 0 unused, 0) from an estimate on any subset of timesteps that
// contains 1 and N; the gaps are interpolated linearly in n (docs/gaussian.md#gamma-interpolation).
// Estimates Γ on every n = 1..N in chunks of `chunk` timesteps, continuing `partial` (the
// estimates of n = 1..k from an earlier call that was cancelled; empty to start afresh) and
// appending each finished chunk to it. On a cancel it returns Cancelled and `partial` keeps
// what was finished, so a later call resumes there; the finished estimate is exactly what
// estimateGamma gives in one call (draws are keyed by (seed, m, n)). params.timesteps must be
// empty.
Result<GammaEstimate> estimateGammaResumable(const model::GaussianEpsModel& model,
                                             const model::GaussianDataSampler& data,
                                             const schedule::GaussianSchedule& schedule,
                                             const GammaParams& params,
                                             GammaEstimate& partial,
                                             Progress* progress = nullptr,
                                             int chunk = 50);

Result<std::vector<double>> gammaTable(const GammaEstimate& estimate, int numSteps);

// The same from a full ms_eps table (entry 0 unused): Γ_n = ms_eps_n/β̄_n.
std::vector<double> gammaFromMsEps(const std::vector<double>& msEps,
                                   const schedule::GaussianSchedule& schedule);
std::vector<double> msEpsFromGamma(const std::vector<double>& gamma,
                                   const schedule::GaussianSchedule& schedule);

}  // namespace core::gaussian
