// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/data/digits.h"
#include "core/project/categorical_params.h"
#include "core/project/gaussian_params.h"
#include "core/util/result.h"

// How fast each process destroys the same data, the 8×8 digits, on one time axis t ∈ [0, 1]
// (the GUI's Compare view). Categorical: the project's β(t) on the digits quantised to L levels,
// the fraction of information left Σ_d I(X_0,d;X_t,d)/Σ_d H(X_0,d) (docs/categorical.md,
// information; each pixel on its own). Gaussian: the project's schedule at N on the digits
// scaled to [−1, 1], the Gaussian-channel information ½ log(1 + ᾱ_n v_i/β̄_n) per pixel capped
// at the pixel's entropy H_i, Σ_i min(·, H_i)/Σ_i H_i, at t = n/N; and the SNR ᾱ_n/β̄_n.
namespace core::project {

struct CompareCurves {
    int levels = 4;                    // L, the categorical quantisation of the digits
    bool documentPrior = false;        // π from the project (digits data), else uniform over L
    int numImages = 0;                 // digits used (all of them)
    std::vector<double> categoricalT;  // t = k/kCategoricalPoints, k = 0..kCategoricalPoints
    std::vector<double> categorical;   // fraction of information left, 1 → 0
    std::vector<double> gaussianT;     // t = n/N, n = 0..N
    std::vector<double> gaussian;      // Σ_i min(I_i(n), H_i)/Σ_i H_i, 1 → ≈0
    std::vector<double> gaussianNats;  // Σ_i I_i(n) uncapped, nats (+inf at n = 0)
    std::vector<double> snr;           // ᾱ_n/β̄_n (+inf at n = 0)
    double entropyNats = 0.0;          // Σ_i H_i, the pixels' 17-level entropies
    std::string categoricalSchedule;   // the schedules the curves are of (their specs)
    std::string gaussianSchedule;
    int gaussianSteps = 0;             // N
};

constexpr int kCategoricalPoints = 200;

// The curves for these parameters on `digits`. Fails with the parameter's error when a
// schedule is invalid.
Result<CompareCurves> computeCompareCurves(const CategoricalParams& categorical,
                                           const GaussianParams& gaussian,
                                           const data::Digits& digits);

// What the curves depend on, as a key: equal keys give the same curves (a new seed or chain
// count does not change them).
std::string compareCurvesKey(const CategoricalParams& categorical, const GaussianParams& gaussian);
// The lines an export of the curves carries about where they come from.
std::vector<std::string> compareCurvesProvenance(const CategoricalParams& categorical,
                                                 const GaussianParams& gaussian);

}  // namespace core::project
