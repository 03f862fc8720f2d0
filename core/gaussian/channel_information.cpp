// SPDX-License-Identifier: MIT
#include "core/gaussian/channel_information.h"

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
