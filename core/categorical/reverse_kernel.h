// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "core/util/eigen_types.h"
#include "core/util/result.h"

// The reverse kernel q_j[k] = P(X_s = k | X_t = j) given a denoiser prediction F_j =
// F(· | j, C, t) (docs/categorical.md#reverse-kernel).
namespace core::categorical {

enum class KernelForm {
    Closed,  // the closed form, O(K): what the engine uses
    Direct,  // the direct sum over x_0, O(K²): the reference for tests
    D3pm,    // Austin et al. 2021 / Hoogeboom et al. 2021, for comparison only
};

// "closed", "direct", "d3pm".
Result<KernelForm> parseKernelForm(const std::string& text, const std::string& field = "form");
const char* kernelFormName(KernelForm form);

// Writes q_j (size K) for class j. `f` is F_j and must sum to 1 (normalise model outputs first);
// 0 ≤ β_s ≤ β_t ≤ 1. The result is clamped at 0 and renormalised, so it is always a probability
// vector. Every limit case of docs/categorical.md#reverse-kernel has its own branch: β_t = β_s →
// δ_j; β_s = 0 → F_j; β_t = 1 → (1−β_s)F_j + β_s π; d_j = 1 − β_t + β_t π_j = 0 → δ_j. out must not
// alias f or pi.
void reverseKernel(KernelForm form,
                   const ConstVectorRef& f,
                   Eigen::Index j,
                   const ConstVectorRef& pi,
                   double betaS,
                   double betaT,
                   VectorRef out);

// The three forms, callable directly.
void reverseKernelClosed(const ConstVectorRef& f,
                         Eigen::Index j,
                         const ConstVectorRef& pi,
                         double betaS,
                         double betaT,
                         VectorRef out);
void reverseKernelDirect(const ConstVectorRef& f,
                         Eigen::Index j,
                         const ConstVectorRef& pi,
                         double betaS,
                         double betaT,
                         VectorRef out);
void reverseKernelD3pm(const ConstVectorRef& f,
                       Eigen::Index j,
                       const ConstVectorRef& pi,
                       double betaS,
                       double betaT,
                       VectorRef out);

// The K×K kernel: row j = q_j for denoiser rows denoiser.row(j) = F_j.
Matrix reverseKernelMatrix(KernelForm form,
                           const ConstMatrixRef& denoiser,
                           const ConstVectorRef& pi,
                           double betaS,
                           double betaT);

}  // namespace core::categorical
