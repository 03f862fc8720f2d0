// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/categorical/reverse_kernel.h"
#include "core/categorical/time_grid.h"
#include "core/model/categorical_denoiser.h"
#include "core/util/eigen_types.h"
#include "core/util/result.h"

// The exact distribution of reverse sampling at every node, by propagating distributions
// instead of chains (docs/categorical.md#reverse-sampling): p_M = π, then p_{k−1} = p_k Q_k with
// Q_k[j, ·] = q_j for the pair (t_{k−1}, t_k). With the exact F and the closed form, p_k equals the
// forward marginal p_0 P₀,ₜ at every node; with the D3PM-style kernel it does not (the Kernel
// comparison view).
namespace core::categorical {

// Marginals of one position of a factorised denoiser (D = 1 for a table oracle). Entry n is
// the distribution at grid node n (entry M is π, entry 0 what sampling ends with). O(M K²).
Result<std::vector<Vector>> reverseMarginals(const model::CategoricalDenoiser& denoiser,
                                             int position,
                                             int condition,
                                             const Vector& pi,
                                             const TimeGrid& grid,
                                             KernelForm form);

// The same for several kernel forms at once, sharing the denoiser's predictions (the costly
// part): entry f holds the marginals for forms[f].
Result<std::vector<std::vector<Vector>>> reverseMarginals(const model::CategoricalDenoiser& denoiser,
                                                          int position,
                                                          int condition,
                                                          const Vector& pi,
                                                          const TimeGrid& grid,
                                                          const std::vector<KernelForm>& forms);

// KL(p ‖ q) in nats, +inf where p has mass that q does not.
double klDivergence(const ConstVectorRef& p, const ConstVectorRef& q);

}  // namespace core::categorical
