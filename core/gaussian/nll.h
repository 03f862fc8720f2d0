// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "core/gaussian/variance.h"
#include "core/model/gaussian_eps_model.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// The negative ELBO in bits per dimension (docs/gaussian.md#nll) of the DDPM forward process
// (λ² = β̃) on a trajectory, for data on an L-level grid in [a, b].
namespace core::gaussian {

struct NllParams {
    ReverseVariance variance = ReverseVariance::Analytic;  // every pair's (analytic: no F.2 clip)
    int levels = 256;                              // L: data lie on a + k(b − a)/(L − 1)
    DataRange range;                               // [a, b]
    int numSamples = 1000;                         // data points drawn (one fresh ε per term)
    uint64_t seed = 0;                             // draws keyed (seed, point, timestep)
    int batchSize = 64;                            // points per model call
    ParallelOptions parallel;                      // results do not depend on it

    Status validate() const;
};

struct NllTerm {
    int s = 0;                  // earlier timestep (0 for the decoder, −1 for the prior)
    int t = 0;                  // later timestep (τ_K for the prior)
    double nats = 0.0;          // mean over data points, nats (summed over dimensions)
    double bitsPerDim = 0.0;    // nats/(d·ln 2)
};

struct NllResult {
    double bitsPerDim = 0.0;         // the negative ELBO, bits/dim
    double standardError = 0.0;      // its Monte Carlo standard error
    NllTerm prior;                   // KL(q(x_{τ_K}|x_0) ‖ N(0, I))
    std::vector<NllTerm> pairs;      // (τ_{K−1}, τ_K) … (τ_1, τ_2), in sampling order
    NllTerm decoder;                 // −log p(x_0|x_{τ_1}), discretised
    std::vector<double> perPoint;    // each data point's total, bits/dim (for paired tests)
};

// Data points are drawn from `data` (keyed by (seed, m)) and snapped to the grid, clamped to
// [a, b]. The decoder is a discretised Gaussian with mean x̂_0(x_{τ_1}) and variance
// decoderVariance(), bins of half-width (b − a)/(2(L − 1)), open edge bins, each probability
// floored at 1e−12 (Ho et al. 2020). The prior term is at τ_K, whether or not τ_K = N. `gamma` (table, entry 0 unused) is read only for the analytic variance.
Result<NllResult> negativeElbo(const model::GaussianEpsModel& model,
                               const model::GaussianDataSampler& data,
                               const schedule::GaussianSchedule& schedule,
                               const std::vector<double>& gamma,
                               const std::vector<int>& trajectory,
                               const NllParams& params,
                               Progress* progress = nullptr);

// negativeElbo for many trajectories and reverse variances at once (the NLL-against-K sweep):
// results[k][v] equals negativeElbo(..., trajectories[k], params with variances[v]) (params.
// variance is ignored), but each distinct timestep costs one model call per point instead of one
// per trajectory and variance. That holds because the noise of the term at t is keyed by
// (seed, point, t) whatever the trajectory, and a pair term depends on x̂_0(x_t) only through
// ‖x_0 − x̂_0‖². Memory: two doubles per (distinct timestep, point). Cancellable via progress.
Result<std::vector<std::vector<NllResult>>> negativeElboSweep(
    const model::GaussianEpsModel& model,
    const model::GaussianDataSampler& data,
    const schedule::GaussianSchedule& schedule,
    const std::vector<double>& gamma,
    const std::vector<std::vector<int>>& trajectories,
    const std::vector<ReverseVariance>& variances,
    const NllParams& params,
    Progress* progress = nullptr);

// The decoder's variance: β̃_{1|2} when τ_1 = 1 (the full chain's first step); β̃_{τ_1|τ_2} when
// τ_1 > 1, the posterior variance of the first step of the respaced chain (what guided-diffusion's
// respacing uses for its decoder); with one timestep τ_1 > 1, β̃_{τ_1|τ_1+1} (β̃_{N−1|N} at
// τ_1 = N). Needs N ≥ 2.
double decoderVariance(const schedule::GaussianSchedule& schedule,
                       const std::vector<int>& trajectory);

// log of the discretised Gaussian probability of grid value x with the given mean and
// standard deviation (B.6); exposed for tests.
double logDiscretizedGaussian(double x, double mean, double stddev, double halfWidth,
                              const DataRange& range);

}  // namespace core::gaussian
