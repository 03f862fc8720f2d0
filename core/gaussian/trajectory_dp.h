// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/gaussian/variance.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/eigen_types.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// Trajectories of the Gaussian process (docs/gaussian.md#trajectories): the least-cost DP over the
// analytic cost J(s, t) = log(σ²_{s|t}/λ²_{s|t}) with λ² = β̃ (DDPM forward), plus a resolver for
// the even / quadratic / dp / list specs used by the CLI and projects.
namespace core::gaussian {

// Timesteps n with β̄_n Γ_n > 1 (`ms_eps` > 1): Γ exceeds its bound there, clipping makes every
// edge into n free, and the DP may route through badly estimated steps. Shown as a warning.
std::vector<int> gammaOverBound(const schedule::GaussianSchedule& schedule,
                                const std::vector<double>& gamma);

// The N×N cost matrix over nodes n − 1 (timestep n): entry (s − 1, t − 1) = J(s, t) for
// 1 ≤ s < t ≤ N, computed from the clipped σ² as log1p((ᾱ_s − ᾱ_t)·v_t/(β̄_s β̄_t)), which is
// B.5's log1p(c·v_t/λ²) simplified for λ² = β̃; finite and ≥ 0 always. Other entries are +inf.
Result<Matrix> dpCostMatrix(const schedule::GaussianSchedule& schedule,
                            const std::vector<double>& gamma,
                            const DataRange& range = {},
                            const ParallelOptions& parallel = {});

enum class DpVariant {
    Clipped,    // the DP over the clipped cost on 1..N (default)
    Segmented,  // the paper code's remedy for Γ over its bound (`_dp_seg`), see dpTrajectory
};

struct DpOptions {
    DpVariant variant = DpVariant::Clipped;  // how to treat Γ over its bound
    DataRange range;                         // for the clip of v_t
    ParallelOptions parallel;                // threads of the cost matrix and the DP
};

struct DpTrajectory {
    std::vector<int> timesteps;       // τ_1 = 1 < … < τ_K = N
    double cost = 0.0;                // Σ J(τ_{k−1}, τ_k) along the whole path
    std::vector<int> gammaOverBound;  // see gammaOverBound()
    int dpEnd = 0;                    // Segmented: N₁, the last DP node (N when not split)
    int numBad = 0;                   // Segmented: the trailing steps set aside, 2(N − n + 1)
};

// The optimal K-node trajectory. Segmented: the first n with β̄_nΓ_n > 1 marks
// n_bad = 2(N − n + 1) trailing steps; the DP runs on 1..N₁ = N − n_bad with
// K₁ = ⌈(1 − 0.8·n_bad/N)·K⌉ nodes and the other K₂ = K − K₁ are placed evenly up to N,
// with the paper code's adjustments of K₁, K₂; n ≤ N/2 (nothing left for the DP) is an error.
Result<DpTrajectory> dpTrajectory(const schedule::GaussianSchedule& schedule,
                                  const std::vector<double>& gamma,
                                  int numNodes,
                                  const DpOptions& options = {},
                                  Progress* progress = nullptr);

// Optimal trajectories for every K = 2..maxNodes from one O(N³) sweep (entry K − 2 holds K).
Result<std::vector<DpTrajectory>> dpTrajectoriesUpTo(const schedule::GaussianSchedule& schedule,
                                                     const std::vector<double>& gamma,
                                                     int maxNodes,
                                                     const DpOptions& options = {},
                                                     Progress* progress = nullptr);

// Σ J along a trajectory, read from a dpCostMatrix.
double trajectoryCost(const Matrix& cost, const std::vector<int>& trajectory);

// A trajectory from its spec: even:K, quadratic:K (deduplicated; `note` says how many were
// dropped), list:1,10,…,N, dp:K (needs a Γ table; otherwise an error), or one of the spacings
// of spacing.h (linspace:K, leading:K[,offset=O], trailing:K, each [,class=C], logsnr:K,
// karras:K[,rho=ρ]).
struct ResolvedTrajectory {
    std::vector<int> timesteps;  // τ_1 < … < τ_K, increasing; τ_1 = 1 and τ_K = N except for
                                 // quadratic (ends at ⌊0.8N⌋ + 1) and the spacings
    std::string kind;            // even, quadratic, dp, list, linspace, leading, …
    std::string note;            // e.g. "3 duplicate timesteps removed"
    bool hasCost = false;        // dp only
    double cost = 0.0;           // dp only
    std::vector<int> gammaOverBound;  // dp only
    std::string endsNote;        // what missing ends cost ("" for 1..N; trajectoryEndsNote)
};
Result<ResolvedTrajectory> resolveTrajectory(const std::string& spec,
                                             const schedule::GaussianSchedule& schedule,
                                             const std::vector<double>* gamma,
                                             const DpOptions& options = {},
                                             Progress* progress = nullptr);

}  // namespace core::gaussian
