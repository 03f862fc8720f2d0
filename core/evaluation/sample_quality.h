// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/util/eigen_types.h"
#include "core/util/parallel.h"
#include "core/util/result.h"

// Sample quality of Gaussian samplers next to their likelihood: a kernel two-sample distance
// (unbiased MMD²) for low-dimensional data, the Fréchet distance of Gaussian fits for the digits,
// both against held-out points of the data spec. Points are columns (d × count), like
// core::gaussian::SampleResult::samples. The formulas are in docs/gaussian.md, "Sample quality".
namespace core::evaluation {

// Unbiased MMD² (U-statistic) with k = mean of Gaussian kernels exp(−‖x−y‖²/(2h²)) over fixed bandwidths h.
struct Mmd2 {
    double value = 0.0;          // MMD²_u; may be slightly negative when the sets agree
    double standardError = 0.0;  // sqrt(4ζ̂₁/m + 4ζ̂₁'/n), first-order U-statistic variance
};
// samples d×m, reference d×n (m, n ≥ 2, same d, finite), bandwidths > 0. The m×n kernel
// matrix is never formed: rows are summed in blocks, so memory stays O(m + n). Deterministic
// whatever the thread count.
Result<Mmd2> mmd2Unbiased(const Matrix& samples, const Matrix& reference,
                          const std::vector<double>& bandwidths, const ParallelOptions& parallel = {});

// ‖μ₁−μ₂‖² + tr(Σ₁ + Σ₂ − 2(Σ₁^{1/2} Σ₂ Σ₁^{1/2})^{1/2}) of Gaussian fits (unbiased covariances).
// d ≤ 64 (kMaxFrechetDimension), at least 2 points each, finite values.
Result<double> frechetDistance(const Matrix& samples, const Matrix& reference);
inline constexpr int kMaxFrechetDimension = 64;

// Bandwidths for data in about [−1, 1]²: from the width of a moon's arm (0.05) to the extent
// of the whole set (1); docs/gaussian.md says why.
inline const std::vector<double> kMmdBandwidths = {0.05, 0.1, 0.2, 0.5, 1.0};

// Reference size for the drawn (non-digits) data sets, and the most samples sampleQuality
// compares (the first ones; MMD² costs O((m + n)²) kernel evaluations).
inline constexpr int kQualityReferenceCount = 2000;
inline constexpr int kMaxQualitySamples = 10000;

struct SampleQuality {
    std::string measure;          // "mmd2" (2-D data) or "frechet" (more dimensions)
    double value = 0.0;
    double standardError = 0.0;   // NaN when the measure has none (frechet)
    int numSamples = 0, numReference = 0;
    std::string reference;        // what the samples were compared with, e.g. "digits:test" or "toy:moons,n=2000,seed=…"
    std::vector<double> bandwidths;  // mmd2 only
};

}  // namespace core::evaluation
