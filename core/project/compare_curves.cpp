// SPDX-License-Identifier: MIT
#include "core/project/compare_curves.h"

#include "core/categorical/information.h"
#include "core/data/digits.h"
#include "core/gaussian/channel_information.h"
#include "core/schedule/gaussian_schedule.h"

namespace core::project {

Result<CompareCurves> computeCompareCurves(const CategoricalParams& categorical,
                                                 const GaussianParams& gaussian,
                                                 const data::Digits& digits) {
    if (digits.numImages() == 0) {
        return invalidArgument("digits", "", "the digits data set is empty");
    }
    CompareCurves curves;
    curves.numImages = digits.numImages();
    // Categorical side: L levels, π from the project when it describes the digits.
    const bool onDigits = categorical.dataSource == CategoricalData::Digits;
    curves.levels = onDigits ? categorical.digitLevels : 4;
    curves.categoricalSchedule = categorical.scheduleSpec();
    curves.gaussianSchedule = gaussian.schedule;
    curves.gaussianSteps = gaussian.numSteps;
    auto classes = data::quantiseDigits(digits.pixels, curves.levels);
    if (!classes) {
        return classes.error();
    }
    Vector pi = Vector::Constant(curves.levels, 1.0 / curves.levels);
    if (onDigits && static_cast<int>(categorical.pi.size()) == curves.levels) {
        pi = Eigen::Map<const Vector>(categorical.pi.data(), curves.levels);
        if (!(pi.minCoeff() >= 0.0) || !(pi.sum() > 0.0)) {
            return invalidArgument("pi", "", "π must be a probability vector");
        }
        pi /= pi.sum();
        curves.documentPrior = true;
    }
    const std::vector<Vector> marginals =
        categorical::positionMarginals(*classes, data::kDigitsPixels, curves.levels);
    // info-linear is solved on these same pixels, so that curve reads 1 − t by construction.
    auto beta = categorical.betaCurve([&marginals, &pi](double betaT) {
        double sum = 0.0;
        for (const Vector& p0 : marginals) {
            sum += categorical::mutualInformation(p0, pi, betaT);
        }
        return sum;
    });
    if (!beta) {
        return beta.error();
    }
    for (int k = 0; k <= kCategoricalPoints; ++k) {
        const double t = static_cast<double>(k) / kCategoricalPoints;
        curves.categoricalT.push_back(t);
        curves.categorical.push_back(
            categorical::informationFraction(marginals, pi, (*beta)(t)));
    }

    // Gaussian side: per-pixel variances of the scaled digits (over all images).
    auto schedule = schedule::gaussianScheduleFromSpec(gaussian.schedule,
                                                             gaussian.numSteps);
    if (!schedule) {
        return schedule.error();
    }
    const std::vector<double> scaled = data::scaleDigits(digits.pixels);
    std::vector<double> mean(data::kDigitsPixels, 0.0);
    std::vector<double> variance(data::kDigitsPixels, 0.0);
    const double count = digits.numImages();
    for (size_t i = 0; i < scaled.size(); ++i) {
        mean[i % data::kDigitsPixels] += scaled[i] / count;
    }
    for (size_t i = 0; i < scaled.size(); ++i) {
        const double delta = scaled[i] - mean[i % data::kDigitsPixels];
        variance[i % data::kDigitsPixels] += delta * delta / count;
    }
    // The 17-level entropy of each pixel: the digits are discrete, so no channel can carry more.
    std::vector<double> entropies;
    for (const Vector& p0 : categorical::positionMarginals(
             digits.pixels, data::kDigitsPixels, data::kDigitsMaxIntensity + 1)) {
        entropies.push_back(categorical::entropy(p0));
    }
    // Normalisation: Σ_i min(I_i(n), H_i)/Σ_i H_i. Dividing by I(1) instead would make the curve
    // depend on N (β_1 sets the first SNR) and measure resolution below the 17 grey levels that
    // the data does not have; capping at H_i reads as "fraction of the pixels' entropy left", the
    // categorical curve's own measure, is exactly 1 at t = 0 (infinite SNR) and ≈ 0 at t = 1.
    const std::vector<double> fraction =
        gaussian::gaussianInformationFraction(*schedule, variance, entropies);
    const std::vector<double> information =
        gaussian::gaussianChannelInformation(*schedule, variance);
    const std::vector<double> snr = gaussian::signalToNoise(*schedule);
    for (double h : entropies) {
        curves.entropyNats += h;
    }
    if (!(curves.entropyNats > 0.0)) {
        return invalidArgument("digits", "", "every pixel is constant");
    }
    for (int n = 0; n < static_cast<int>(fraction.size()); ++n) {
        curves.gaussianT.push_back(static_cast<double>(n) / gaussian.numSteps);
        curves.gaussian.push_back(fraction[n]);
        curves.gaussianNats.push_back(information[n]);
        curves.snr.push_back(snr[n]);
    }
    return curves;
}

std::string compareCurvesKey(const CategoricalParams& categorical, const GaussianParams& gaussian) {
    // Only these fields change the curves.
    std::string key = categorical.scheduleSpec() + "|";
    for (const schedule::ControlPoint& point : categorical.controlPoints) {
        key += shortestText(point.t) + ":" + shortestText(point.beta) + ",";
    }
    key += "|" + std::to_string(static_cast<int>(categorical.dataSource)) + "|" +
           std::to_string(categorical.digitLevels) + "|" + std::to_string(categorical.numClasses) +
           "|" + (categorical.maskState ? "mask" : "") + "|";
    for (double p : categorical.pi) key += shortestText(p) + ",";
    return key + "|" + gaussian.schedule + "|" + std::to_string(gaussian.numSteps);
}

std::vector<std::string> compareCurvesProvenance(const CategoricalParams& categorical,
                                                 const GaussianParams& gaussian) {
    return {"data: the 8x8 digits", "categorical schedule: " + categorical.scheduleSpec(),
            "categorical N: " + std::to_string(categorical.numSteps),
            "gaussian schedule: " + gaussian.schedule,
            "gaussian N: " + std::to_string(gaussian.numSteps)};
}

}  // namespace core::project
