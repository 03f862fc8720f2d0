// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/eigen_types.h"

// The forward transition algebra of the categorical process (docs/categorical.md#forward-process),
// in O(K) form: P₀,ₜ = (1−β_t) I + β_t 1πᵀ and P_{s,t} = (1−β_{s,t}) I + β_{s,t} 1πᵀ. Dense
// matrices are provided only to be drawn and to cross-check in tests.
namespace core::categorical {

// Probability that a step s → t keeps its class as a pure "no resample" event:
// 1 − β_{s,t} = (1 − β_t)/(1 − β_s), computed as one quotient (docs/categorical.md#reverse-kernel,
// precision). β_s = 1 (then β_t = 1) gives 1: the state is already π-distributed and nothing
// changes.
double keepProbability(double betaS, double betaT);

// β_{s,t} = (β_t − β_s)/(1 − β_s), the resample probability of a step, as one quotient so that
// it keeps full relative precision when it is tiny (1 − keep would not). β_s = 1 gives 0.
double noiseProbability(double betaS, double betaT);

// out = p P_{s,t} = keep·p + (1 − keep)·π for a row distribution p
// (docs/categorical.md#forward-process, O(K)). out may alias p.
void applyTransition(const ConstVectorRef& p,
                     const ConstVectorRef& pi,
                     double betaS,
                     double betaT,
                     VectorRef out);

// P₀,ₜ[i, j] = (1 − β_t) δ_ij + β_t π_j, one entry, O(1).
inline double forwardEntry(const ConstVectorRef& pi, double betaT, Eigen::Index i, Eigen::Index j) {
    return (i == j ? 1.0 - betaT : 0.0) + betaT * pi[j];
}

// P_{s,t}[k, j] = keep δ_kj + β_{s,t} π_j, one entry, O(1).
inline double stepEntry(const ConstVectorRef& pi, double keep, double noise, Eigen::Index k, Eigen::Index j) {
    return (k == j ? keep : 0.0) + noise * pi[j];
}

// Dense P₀,ₜ (K×K), for drawing and tests.
Matrix denseForward(const ConstVectorRef& pi, double betaT);
// Dense P_{s,t} (K×K), for drawing and tests.
Matrix denseStep(const ConstVectorRef& pi, double betaS, double betaT);
// Dense P₀,ₛ⁻¹ = (I − β_s 1πᵀ)/(1 − β_s), for tests; requires β_s < 1.
Matrix denseForwardInverse(const ConstVectorRef& pi, double betaS);

// Posterior q(x_s = · | x_t = j, x_0 = i) = P₀,ₛ[i,·] P_{s,t}[·,j] / P₀,ₜ[i,j]
// (docs/categorical.md#posterior), written to out (size K). If P₀,ₜ[i,j] = 0 the pair is impossible
// and out = δ_j.
void forwardPosterior(const ConstVectorRef& pi,
                      double betaS,
                      double betaT,
                      Eigen::Index i,
                      Eigen::Index j,
                      VectorRef out);

}  // namespace core::categorical
