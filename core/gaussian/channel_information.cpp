// SPDX-License-Identifier: MIT
#include "core/gaussian/channel_information.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace core::gaussian {

std::vector<double> gaussianChannelInformation(const schedule::GaussianSchedule& schedule,
                                               const std::vector<double>& variances) {
    const int numSteps = schedule.numSteps();
    std::vector<double> information(static_cast<size_t>(numSteps) + 1, 0.0);
    information[0] = std::numeric_limits<double>::infinity();
    for (int n = 1; n <= numSteps; ++n) {
        const double snr = schedule.alphaBar(n) / schedule.betaBar(n);
        double sum = 0.0;
        for (double v : variances) {
            // log1p: near t = 1 the ratio is ~1e−5 and log(1 + x) would lose digits.
            sum += v > 0.0 ? 0.5 * std::log1p(snr * v) : 0.0;
        }
        information[static_cast<size_t>(n)] = sum;
    }
    return information;
}

std::vector<double> gaussianInformationFraction(const schedule::GaussianSchedule& schedule,
                                                const std::vector<double>& variances,
                                                const std::vector<double>& entropies) {
    const int numSteps = schedule.numSteps();
    std::vector<double> fraction(static_cast<size_t>(numSteps) + 1, 0.0);
    double total = 0.0;
    for (double h : entropies) {
        total += std::max(0.0, h);
    }
    if (!(total > 0.0)) {
        return fraction;
    }
    fraction[0] = 1.0;
    const size_t d = std::min(variances.size(), entropies.size());
    for (int n = 1; n <= numSteps; ++n) {
        const double snr = schedule.alphaBar(n) / schedule.betaBar(n);
        double sum = 0.0;
        for (size_t i = 0; i < d; ++i) {
            const double channel = variances[i] > 0.0 ? 0.5 * std::log1p(snr * variances[i]) : 0.0;
            sum += std::min(channel, std::max(0.0, entropies[i]));
        }
        fraction[static_cast<size_t>(n)] = sum / total;
    }
    return fraction;
}

std::vector<double> signalToNoise(const schedule::GaussianSchedule& schedule) {
    const int numSteps = schedule.numSteps();
    std::vector<double> snr(static_cast<size_t>(numSteps) + 1);
    snr[0] = std::numeric_limits<double>::infinity();
    for (int n = 1; n <= numSteps; ++n) {
        snr[static_cast<size_t>(n)] = schedule.alphaBar(n) / schedule.betaBar(n);
    }
    return snr;
}

}  // namespace core::gaussian
