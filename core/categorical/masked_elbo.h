// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "core/data/categorical_table.h"
#include "core/model/categorical_denoiser.h"
#include "core/schedule/beta_curve.h"
#include "core/util/eigen_types.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// Masked (absorbing) diffusion in continuous time (docs/categorical.md#masked-diffusion): the
// N → ∞ limit of the negative ELBO, a weighted cross-entropy over the masked positions.
namespace core::categorical {

// The mask class of an absorbing π (every other entry exactly 0), or −1 when π is not absorbing.
int absorbingMaskClass(const Vector& pi);

// Checks that the data of `condition` (−1: every condition) never use class `mask`; the error
// names the field "table" and the first row and position that does, with its probability.
Status checkMaskUnused(const data::CategoricalTable& table, int mask, int condition = -1);

// The n-point Gauss–Legendre rule on [0, 1]: nodes increasing, weights summing to 1. Exact for
// polynomials of degree ≤ 2n − 1. n in 1..1000.
struct QuadratureRule {
    std::vector<double> nodes;
    std::vector<double> weights;
};
QuadratureRule gaussLegendre01(int n);

// The smallest t with β(t) ≥ beta (bisection to machine precision), the time at which the
// keep probability α_t = 1 − β(t) has fallen to 1 − beta.
double inverseBeta(const schedule::BetaCurve& curve, double beta);

struct ContinuousElboOptions {
    int condition = -1;                 // condition index, −1: average over conditions
    int nodes = 32;                     // n of the Gauss–Legendre rule in u = α_t (1..500)
    int64_t maxEnumeration = 1000000;   // 2^D mask patterns × rows of a condition, at most
    int64_t samples = 0;                // > 0: Monte Carlo with this many draws per condition
    uint64_t seed = 0;                  // Monte Carlo RNG key
    ParallelOptions parallel;           // threads (over mask patterns or samples)
    Progress* progress = nullptr;       // progress per node (or condition) and cancel, may be null
};

struct ContinuousElbo {
    double value = 0.0;            // −ELBO_∞ in nats, summed over positions
    // Quadrature: |Q_2n − Q_n|, an estimate of the error of Q_n (value, from Q_2n, errs less).
    double quadratureError = 0.0;
    int nodes = 0;                 // 2n, the rule that gave `value` (0 for Monte Carlo)
    bool monteCarlo = false;
    double standardError = 0.0;    // Monte Carlo only
};

// −ELBO_∞ = ∫₀¹ (−α′_t/(1 − α_t)) E[Σ_{d masked} −log F(x_0,d | x_t, C, t)] dt with α_t = 1 − β(t),
// computed as ∫₀¹ h(u) du after the change of variable u = α_t, where
//   h(u) = Σ_{M ≠ ∅} (1 − u)^{|M|−1} u^{D−|M|} Σ_rows p(x_0 | c) Σ_{d∈M} −log F_d(x_0,d | x_t(x_0, M), c, t(u)),
// x_t(x_0, M) being x_0 with the positions of M set to the mask class, and t(u) = inverseBeta(1 − u).
// The expectation over x_0 and the masks is enumerated exactly (2^D − 1 patterns × the rows of the
// condition); the integral over u by Gauss–Legendre with n and 2n nodes. For a denoiser that does
// not depend on t given x_t (the exact oracle), h is a polynomial of degree D − 1 and both rules
// are exact once 2n ≥ D. Errors: π not absorbing (field "pi"), data on the mask class (field
// "table"), too many patterns to enumerate (field "D"), a denoiser of another size.
//
// With options.samples = M > 0 it is a Monte Carlo estimate instead, for any D: per condition, M
// independent draws of x_0 ~ p(· | c), u ~ U(0, 1) and a mask M with each position masked with
// probability 1 − u, each scoring Σ_{d∈M} −log F_d(x_0,d | x_t, c, t(u)) / (1 − u), keyed by
// (seed, sample·C + condition); value ± standardError (conditions averaged, their variances
// added and divided by C²).
Result<ContinuousElbo> continuousElbo(const data::CategoricalTable& table,
                                      const model::CategoricalDenoiser& denoiser,
                                      const Vector& pi,
                                      const schedule::BetaCurve& curve,
                                      const ContinuousElboOptions& options = {});

}  // namespace core::categorical
