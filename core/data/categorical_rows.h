// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

// Categorical training data from a user's CSV file: one example per row, D integer
// classes, optionally a label column. A first line that is not all integers is a header; a
// header column named "label" (or "c") is the condition, every other column is a position.
namespace core::data {

struct CategoricalRows {
    int numPositions = 0;       // D
    int numClasses = 0;         // K: the given one, or the largest class + 1
    int numConditions = 0;      // largest label + 1 (0: no label column)
    std::vector<int> rows;      // M×D row-major
    std::vector<int> labels;    // M labels (empty without a label column)
    int size() const { return numPositions == 0 ? 0 : static_cast<int>(rows.size()) / numPositions; }
};

// numClasses > 0 checks every class against it; 0 infers K (at least 2). Errors name file:line
// and the column: non-integer or negative fields (NaN included), classes ≥ K, labels outside
// 0..999, ragged rows, no data rows.
Result<CategoricalRows> parseCategoricalRows(const std::string& text, const std::string& path,
                                             int numClasses = 0);
Result<CategoricalRows> readCategoricalRows(const std::string& path, int numClasses = 0);

// The last max(1, M/10) rows held out (M ≥ 2), the rest for training; order kept.
void splitHeldOut(const CategoricalRows& all, CategoricalRows& train, CategoricalRows& heldOut);

}  // namespace core::data
