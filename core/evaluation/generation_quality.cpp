// SPDX-License-Identifier: MIT
#include "core/evaluation/generation_quality.h"

#include <limits>

#include "core/categorical/sampler.h"

namespace core::evaluation {

constexpr int kLabels = 10;

NearestClassMean::NearestClassMean(const std::vector<int>& rows, const std::vector<int>& labels)
    : m_means(kLabels, std::vector<double>(data::kDigitsPixels, 0.0)) {
    std::vector<int> counts(kLabels, 0);
    for (size_t i = 0; i < labels.size(); ++i) {
        ++counts[labels[i]];
        for (int p = 0; p < data::kDigitsPixels; ++p) {
            m_means[labels[i]][p] += rows[i * data::kDigitsPixels + p];
        }
    }
    for (int c = 0; c < kLabels; ++c) {
        for (double& v : m_means[c]) v /= std::max(1, counts[c]);
    }
}

int NearestClassMean::classify(const int* image) const {
    int best = 0;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (int c = 0; c < kLabels; ++c) {
        double distance = 0.0;
        for (int p = 0; p < data::kDigitsPixels; ++p) {
            const double diff = image[p] - m_means[c][p];
            distance += diff * diff;
        }
        if (distance < bestDistance) {
            bestDistance = distance;
            best = c;
        }
    }
    return best;
}

double NearestClassMean::accuracy(const std::vector<int>& rows, const std::vector<int>& labels) const {
    int right = 0;
    for (size_t i = 0; i < labels.size(); ++i) {
        right += classify(rows.data() + i * data::kDigitsPixels) == labels[i] ? 1 : 0;
    }
    return labels.empty() ? 0.0 : static_cast<double>(right) / static_cast<double>(labels.size());
}

Result<GenerationQuality> digitsGenerationQuality(const CategoricalDenoiser& denoiser,
                                                  const data::Digits& digits,
                                                  int levels,
                                                  const Vector& pi,
                                                  const categorical::TimeGrid& grid,
                                                  int perClass,
                                                  uint64_t seed,
                                                  const ParallelOptions& parallel) {
    // A network with a mask state has one class beyond the levels, which π puts all its mass on.
    const bool maskState = denoiser.numClasses() == levels + 1 && pi.size() == levels + 1 && pi[levels] == 1.0;
    if ((denoiser.numClasses() != levels && !maskState) || denoiser.numPositions() != data::kDigitsPixels) {
        return invalidArgument("model", "", "the denoiser must have K = levels (or levels + 1 with the mask state) and D = 64");
    }
    if (denoiser.numConditions() < kLabels) {
        return invalidArgument("model", "", "the denoiser must be conditional on the 10 labels");
    }
    if (perClass < 1) {
        return invalidArgument("perClass", std::to_string(perClass), "at least one sample per class");
    }
    auto train = data::quantisedSplit(digits, levels, true);
    auto test = data::quantisedSplit(digits, levels, false);
    if (!train) return train.error();
    if (!test) return test.error();
    const NearestClassMean classifier(train->rows, train->labels);
    GenerationQuality quality;
    quality.classifierTestAccuracy = classifier.accuracy(test->rows, test->labels);
    int right = 0;
    for (int label = 0; label < kLabels; ++label) {
        categorical::SamplerOptions options;
        options.seed = seed + static_cast<uint64_t>(label);  // a key per label
        options.condition = label;
        options.parallel = parallel;
        auto result = categorical::sampleReverse(denoiser, perClass, pi, grid, options);
        if (!result) return result.error();
        int correct = 0;
        for (int b = 0; b < perClass; ++b) {
            correct += classifier.classify(result->states.data() + b * data::kDigitsPixels) == label;
        }
        right += correct;
        quality.perClassAccuracy.push_back(static_cast<double>(correct) / perClass);
        quality.samples.insert(quality.samples.end(), result->states.begin(), result->states.end());
    }
    quality.accuracy = static_cast<double>(right) / (kLabels * perClass);
    return quality;
}

}  // namespace core::evaluation
