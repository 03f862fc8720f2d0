// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/categorical/time_grid.h"
#include "core/data/digits.h"
#include "core/model/categorical_denoiser.h"
#include "core/util/eigen_types.h"
#include "core/util/parallel.h"
#include "core/util/result.h"

// How well a conditional categorical denoiser generates the digits:
// reverse-sample `perClass` images for each label, and let a nearest-class-mean classifier
// fitted on the real training images say which digit each one shows.
namespace core::evaluation {

using model::CategoricalDenoiser;

// Nearest class mean on 64-pixel images of classes 0..L−1 (Euclidean distance).
class NearestClassMean {
public:
    // rows: M×64 classes, labels: M in 0..9.
    NearestClassMean(const std::vector<int>& rows, const std::vector<int>& labels);
    int classify(const int* image) const;
    // Fraction of rows classified as their label.
    double accuracy(const std::vector<int>& rows, const std::vector<int>& labels) const;

private:
    std::vector<std::vector<double>> m_means;  // [label] → 64 pixel means
};

struct GenerationQuality {
    std::vector<double> perClassAccuracy;  // [label] fraction labelled as that label
    double accuracy = 0.0;                 // over all samples
    double classifierTestAccuracy = 0.0;   // the classifier on the real test images
    std::vector<int> samples;              // 10·perClass × 64, label-major
};

// Samples with the closed-form kernel on `grid` (e.g. 50 even steps of the model's β curve),
// seed → deterministic whatever the thread count. The denoiser must know 10 conditions and
// have K = levels (or levels + 1 with a mask state: π all on class `levels`), D = 64.
Result<GenerationQuality> digitsGenerationQuality(const CategoricalDenoiser& denoiser,
                                                  const data::Digits& digits,
                                                  int levels,
                                                  const Vector& pi,
                                                  const categorical::TimeGrid& grid,
                                                  int perClass,
                                                  uint64_t seed,
                                                  const ParallelOptions& parallel = {});

}  // namespace core::evaluation
