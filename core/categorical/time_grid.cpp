// SPDX-License-Identifier: MIT
#include "core/categorical/time_grid.h"

#include <cmath>

namespace core::categorical {

TimeGrid evenTimeGrid(const schedule::BetaCurve& curve, int numSteps) {
    std::vector<double> times(static_cast<size_t>(numSteps) + 1);
    for (int n = 0; n <= numSteps; ++n) {
        times[n] = static_cast<double>(n) / numSteps;
    }
    times.back() = 1.0;
    return timeGridAt(curve, std::move(times));
}

TimeGrid timeGridAt(const schedule::BetaCurve& curve, std::vector<double> times) {
    TimeGrid grid;
    grid.beta = curve.evaluate(times);
    grid.t = std::move(times);
    return grid;
}

TimeGrid subGrid(const TimeGrid& grid, const std::vector<int>& nodes) {
    TimeGrid sub;
    for (int n : nodes) {
        sub.t.push_back(grid.t[n]);
        sub.beta.push_back(grid.beta[n]);
    }
    return sub;
}

Status validateTimeGrid(const TimeGrid& grid, const std::string& field) {
    if (grid.t.size() < 2 || grid.t.size() != grid.beta.size()) {
        return invalidArgument(field, std::to_string(grid.t.size()) + " nodes",
                               "a trajectory needs at least 2 nodes and one β per node");
    }
    for (size_t n = 0; n < grid.t.size(); ++n) {
        if (!std::isfinite(grid.t[n]) || (n > 0 && !(grid.t[n] > grid.t[n - 1]))) {
            return invalidArgument(field + ".t[" + std::to_string(n) + "]", std::to_string(grid.t[n]),
                                   "times must be finite and strictly increasing");
        }
    }
    if (grid.t.front() != 0.0 || grid.t.back() != 1.0) {
        return invalidArgument(field, "", "a trajectory must start at t = 0 and end at t = 1");
    }
    return schedule::validateBetaValues(grid.beta, field + ".beta");
}

}  // namespace core::categorical
