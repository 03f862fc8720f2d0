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

// Parses "uniform:K", "absorbing:K" (all mass on the last class, the mask), "masked:K" (K data
// classes and a mask state of their own: K + 1 entries, all mass on the last) or a comma list.
Result<Vector> parsePrior(const std::string& spec, const std::string& field = "pi");

// The data classes K of a valid "masked:K" spec (π then has K + 1 entries), else 0.
int maskedPriorClasses(const std::string& spec);

}  // namespace core::categorical
