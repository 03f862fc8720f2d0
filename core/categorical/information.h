// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "core/categorical/reverse_kernel.h"
#include "core/categorical/time_grid.h"
#include "core/data/categorical_table.h"
#include "core/model/categorical_denoiser.h"
#include "core/util/eigen_types.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// Information and likelihood of the categorical process for table data
// (docs/categorical.md#information). All quantities are in nats. With a table that has conditions,
// `condition` selects one; −1 averages over the conditions with equal weights (the conditional
// versions, e.g. I(X_0;X_t|C)).
namespace core::categorical {

// Shannon entropy of a probability vector (0 log 0 = 0).
double entropy(const ConstVectorRef& p);
// p_t = p_0 P₀,ₜ = (1 − β_t) p_0 + β_t π, O(K).
Vector marginalAt(const ConstVectorRef& p0, const ConstVectorRef& pi, double betaT);
// I(X_0;X_t) = H(p_t) − Σ_i p_0[i] H(P₀,ₜ[i,·]), O(K).
double mutualInformation(const ConstVectorRef& p0, const ConstVectorRef& pi, double betaT);
// G_t = 1 − Σ_j p_t[j] Σ_i F(i|j)² with the exact F of p_0, O(K²).
double impurity(const ConstVectorRef& p0, const ConstVectorRef& pi, double betaT);

// Σ over positions of I(X_0,d;X_t,d) for the table (per condition or averaged).
double tableMutualInformation(const data::CategoricalTable& table,
                              const Vector& pi,
                              double betaT,
                              int condition = -1);
// Σ over positions of G_t for the table.
double tableImpurity(const data::CategoricalTable& table, const Vector& pi, double betaT, int condition = -1);

// The data's entropy, in nats, per condition or averaged over the conditions like the curves.
// `joint` is H(X_0 | C) of the whole sequence, exact from the table's rows (duplicates merged);
// `positions` is Σ_d H(X_0,d | C), the sum of the positions' own entropies, which equals it only
// when the positions are independent and otherwise bounds it from above. The information curves
// start at `positions` (they are sums over positions); the negative ELBO of an exact denoiser
// is bounded below by `joint`.
struct DataEntropy {
    double joint = 0.0;
    double positions = 0.0;
};
DataEntropy dataEntropy(const data::CategoricalTable& table, int condition = -1);

// Per-position class frequencies of a data set: `classes` holds numExamples × numPositions
// classes in 0..K−1, row-major (out-of-range classes are ignored). One p_0 of length K per
// position; a position with no valid example gets the uniform distribution.
std::vector<Vector> positionMarginals(const std::vector<int>& classes,
                                      int numPositions,
                                      int numClasses);
// The fraction of information left at β_t with every position treated as its own channel
// (A.5 per position, correlations between positions ignored):
// Σ_d I(X_0,d;X_t,d) / Σ_d H(X_0,d). 1 at β_t = 0 and 0 at β_t = 1; 0 if no position varies.
double informationFraction(const std::vector<Vector>& marginals, const Vector& pi, double betaT);

struct InformationCurves {
    std::vector<double> t;                  // grid times
    std::vector<double> beta;               // β at the grid times
    std::vector<double> mutualInformation;  // I(X_0;X_t), summed over positions
    std::vector<double> impurity;           // G_t, summed over positions
};
InformationCurves informationCurves(const data::CategoricalTable& table,
                                    const Vector& pi,
                                    const TimeGrid& grid,
                                    int condition = -1);

// Which step costs J(a, b) to compute.
enum class CostPairs {
    Consecutive,  // J(n − 1, n) only
    All,          // every a < b (the DP's cost matrix)
};

struct StepCostOptions {
    int condition = -1;                    // condition index, −1: average over conditions
    KernelForm form = KernelForm::Closed;  // the model's reverse kernel
    int64_t samples = 0;                   // > 0: Monte Carlo with this many samples per column
    uint64_t seed = 0;                     // Monte Carlo RNG key
    int64_t maxEnumeration = 1000000;      // exact enumeration of x_t up to K^D states
    ParallelOptions parallel;              // threads (over columns b)
    Progress* progress = nullptr;          // progress and cancel, may be null
};

struct StepCosts {
    Matrix cost;           // (N+1)×(N+1); cost(a, b) = J(a, b) for the requested pairs, +inf elsewhere
    Matrix standardError;  // same shape; 0 for exact values
    bool monteCarlo = false;  // true if the values are estimates
};

// Step costs of docs/categorical.md#step-costs on the grid for the data `table` and the model
// `denoiser`: J(a, b) = E KL(q(x_a | x_b, x_0) ‖ q_F(x_a | x_b)) for a ≥ 1 and J(0, b) = E[−log
// q_F(x_0|x_b)] (= E[−log F] for the closed form), summed over positions. Exact when
// options.samples = 0: a factorised denoiser is reduced to per-position sums (O(D K³) per pair, any
// K^D); a joint denoiser enumerates x_b when K^D ≤ maxEnumeration, else it is an error asking for
// samples. With samples > 0, Monte Carlo over (x_0, x_b), keyed by (seed, sample, b), with standard
// errors.
Result<StepCosts> computeStepCosts(const data::CategoricalTable& table,
                                   const model::CategoricalDenoiser& denoiser,
                                   const Vector& pi,
                                   const TimeGrid& grid,
                                   CostPairs pairs,
                                   const StepCostOptions& options);

// Negative ELBO L(τ) = Σ_k J(τ_{k−1}, τ_k) of a path of grid nodes
// (docs/categorical.md#negative-elbo).
double negativeElbo(const Matrix& cost, const std::vector<int>& nodes);

}  // namespace core::categorical
