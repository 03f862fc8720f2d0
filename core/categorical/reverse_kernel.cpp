// SPDX-License-Identifier: MIT
#include "core/categorical/reverse_kernel.h"

#include <cassert>
#include <cmath>

#include "core/categorical/transition.h"

namespace core::categorical {
namespace {

void setDelta(Eigen::Index j, VectorRef out) {
    out.setZero();
    out[j] = 1.0;
}

// Clamp rounding negatives to 0 and renormalise; a vector with no mass falls back to δ_j.
void finish(Eigen::Index j, VectorRef out) {
    out = out.cwiseMax(0.0);
    const double sum = out.sum();
    if (!(sum > 0.0) || !std::isfinite(sum)) {
        setDelta(j, out);
        return;
    }
    out /= sum;
}

// 1 − F_j[j] as the sum of the off-diagonal entries (docs/categorical.md#reverse-kernel,
// precision).
double offDiagonalMass(const ConstVectorRef& f, Eigen::Index j) {
    double mass = 0.0;
    for (Eigen::Index i = 0; i < f.size(); ++i) {
        if (i != j) {
            mass += f[i];
        }
    }
    return mass;
}

}  // namespace

Result<KernelForm> parseKernelForm(const std::string& text, const std::string& field) {
    if (text == "closed") {
        return KernelForm::Closed;
    }
    if (text == "direct") {
        return KernelForm::Direct;
    }
    if (text == "d3pm") {
        return KernelForm::D3pm;
    }
    return makeError(ErrorCode::ParseError, field, text,
                     "unknown kernel form (expected closed, direct or d3pm)");
}

const char* kernelFormName(KernelForm form) {
    switch (form) {
        case KernelForm::Closed: return "closed";
        case KernelForm::Direct: return "direct";
        case KernelForm::D3pm: return "d3pm";
    }
    return "closed";
}

void reverseKernelClosed(const ConstVectorRef& f,
                         Eigen::Index j,
                         const ConstVectorRef& pi,
                         double betaS,
                         double betaT,
                         VectorRef out) {
    assert(f.size() == pi.size() && out.size() == pi.size());
    // Limit: no noise between s and t (including β_t = 0, and β_s = β_t = 1).
    if (!(betaT > betaS)) {
        setDelta(j, out);
        return;
    }
    const double dj = 1.0 - betaT + betaT * pi[j];
    // Limit: d_j = 0 (β_t = 1 and π_j = 0): state j is unreachable.
    if (!(dj > 0.0)) {
        setDelta(j, out);
        return;
    }
    // Limit: s = 0, the last reverse step draws from F directly.
    if (betaS <= 0.0) {
        out = f;
        finish(j, out);
        return;
    }
    // Limit: t = 1, the prior step: q_j = (1 − β_s) F_j + β_s π.
    if (betaT >= 1.0) {
        out = (1.0 - betaS) * f + betaS * pi;
        finish(j, out);
        return;
    }
    // docs/categorical.md#reverse-kernel, closed form; the keep ratio (1−β_t)/(1−β_s) is one
    // quotient.
    const double keep = (1.0 - betaT) / (1.0 - betaS);
    const double removed = (betaT - betaS) / betaT;
    const double fjj = f[j];
    const double offDiagonal = offDiagonalMass(f, j);
    const double coefPi = removed * (betaS / (1.0 - betaS)) *
                          (((1.0 - betaT) * offDiagonal + betaT * pi[j]) / dj);
    const double coefStay = (betaS / betaT) * keep * (1.0 + (betaT - betaS) * fjj / dj);
    out = removed * f + coefPi * pi;
    out[j] += coefStay;
    finish(j, out);
}

void reverseKernelDirect(const ConstVectorRef& f,
                         Eigen::Index j,
                         const ConstVectorRef& pi,
                         double betaS,
                         double betaT,
                         VectorRef out) {
    assert(f.size() == pi.size() && out.size() == pi.size());
    const Eigen::Index numClasses = pi.size();
    const double keep = keepProbability(betaS, betaT);
    const double noise = noiseProbability(betaS, betaT);
    out.setZero();
    for (Eigen::Index i = 0; i < numClasses; ++i) {
        const double denominator = forwardEntry(pi, betaT, i, j);
        // x_0 = i cannot reach j: its posterior weight F_j[i] is 0 for any consistent F.
        if (f[i] == 0.0 || !(denominator > 0.0)) {
            continue;
        }
        const double weight = f[i] / denominator;
        for (Eigen::Index k = 0; k < numClasses; ++k) {
            out[k] += weight * forwardEntry(pi, betaS, i, k) * stepEntry(pi, keep, noise, k, j);
        }
    }
    finish(j, out);
}

void reverseKernelD3pm(const ConstVectorRef& f,
                       Eigen::Index j,
                       const ConstVectorRef& pi,
                       double betaS,
                       double betaT,
                       VectorRef out) {
    assert(f.size() == pi.size() && out.size() == pi.size());
    if (!(betaT > betaS)) {
        setDelta(j, out);
        return;
    }
    // p(x_s = k | x_t = j) ∝ (F_j P₀,ₛ)[k] · P_{s,t}[k, j], O(K).
    const double keep = keepProbability(betaS, betaT);
    out = ((1.0 - betaS) * f + betaS * pi) * (noiseProbability(betaS, betaT) * pi[j]);
    out[j] += ((1.0 - betaS) * f[j] + betaS * pi[j]) * keep;
    finish(j, out);
}

void reverseKernel(KernelForm form,
                   const ConstVectorRef& f,
                   Eigen::Index j,
                   const ConstVectorRef& pi,
                   double betaS,
                   double betaT,
                   VectorRef out) {
    switch (form) {
        case KernelForm::Closed: reverseKernelClosed(f, j, pi, betaS, betaT, out); return;
        case KernelForm::Direct: reverseKernelDirect(f, j, pi, betaS, betaT, out); return;
        case KernelForm::D3pm: reverseKernelD3pm(f, j, pi, betaS, betaT, out); return;
    }
}

Matrix reverseKernelMatrix(KernelForm form,
                           const ConstMatrixRef& denoiser,
                           const ConstVectorRef& pi,
                           double betaS,
                           double betaT) {
    const Eigen::Index k = pi.size();
    Matrix kernel(k, k);
    Vector f(k);
    Vector row(k);
    for (Eigen::Index j = 0; j < k; ++j) {
        f = denoiser.row(j).transpose();
        reverseKernel(form, f, j, pi, betaS, betaT, row);
        kernel.row(j) = row.transpose();
    }
    return kernel;
}

}  // namespace core::categorical
