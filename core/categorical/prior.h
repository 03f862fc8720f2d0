// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/util/eigen_types.h"
#include "core/util/result.h"

// The prior π of the categorical process (docs/categorical.md#prior): a probability vector over K
// classes.
namespace core::categorical {

// Tolerance on Σπ − 1 below which a prior is renormalised silently; beyond it is an error.
constexpr double kPriorSumTolerance = 1e-9;

// Validates and renormalises: every entry finite and ≥ 0 (error "field[i] = v"), at least
// 2 classes, |Σ − 1| ≤ 1e−9 (else an error naming the sum and the entry that ends the list).
Result<Vector> validatePrior(const std::vector<double>& entries, const std::string& field = "pi");

// Parses "uniform:K", "absorbing:K" (all mass on the last class, the mask) or a comma list.
Result<Vector> parsePrior(const std::string& spec, const std::string& field = "pi");

}  // namespace core::categorical
