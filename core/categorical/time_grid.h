// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/schedule/beta_curve.h"
#include "core/util/result.h"

// A trajectory of the categorical process with its noise levels: nodes 0 = t_0 < … < t_M = 1
// and β at each node (docs/categorical.md#reverse-sampling).
namespace core::categorical {

struct TimeGrid {
    std::vector<double> t;     // M + 1 strictly increasing times, t_0 = 0, t_M = 1
    std::vector<double> beta;  // β(t_n), nondecreasing, β_0 = 0, β_M = 1

    int numSteps() const { return static_cast<int>(t.size()) - 1; }  // M
};

// The even grid t_n = n/N with β from the curve.
TimeGrid evenTimeGrid(const schedule::BetaCurve& curve, int numSteps);
// β from the curve at the given times.
TimeGrid timeGridAt(const schedule::BetaCurve& curve, std::vector<double> times);
// The sub-grid through the given node indices of a grid (a DP path).
TimeGrid subGrid(const TimeGrid& grid, const std::vector<int>& nodes);
// Checks sizes, order, ends, and β values; errors name `field`.
Status validateTimeGrid(const TimeGrid& grid, const std::string& field = "trajectory");

}  // namespace core::categorical
