// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/util/eigen_types.h"
#include "core/util/result.h"

// A categorical data distribution given as a table: a CSV with a header, columns
// x1..xD (class indices 0..K−1), p, and optionally c (a condition label). The probabilities of
// each condition sum to 1.
namespace core::data {

struct CategoricalTable {
    int numPositions = 1;                 // D
    int numClasses = 2;                   // K
    std::vector<int> classes;             // rows × D, row-major: classes[row·D + d]
    std::vector<double> probability;      // p(x | c) per row, ≥ 0, summing to 1 per condition
    std::vector<int> condition;           // per row: index into conditionNames
    std::vector<std::string> conditionNames;  // distinct labels in order of appearance ("" if none)

    int numRows() const { return static_cast<int>(probability.size()); }
    int numConditions() const { return static_cast<int>(conditionNames.size()); }
    const int* row(int r) const { return classes.data() + static_cast<size_t>(r) * numPositions; }
    // The index of a condition label, or an error naming `field` and the label.
    Result<int> conditionIndex(const std::string& label, const std::string& field = "condition") const;
    // Marginal p_0 of position d under condition c (size K).
    Vector marginal(int condition, int position) const;
    // H(X_0 | C = c) of the joint table, in nats.
    double entropy(int condition) const;
};

// Tolerance on Σp − 1 per condition; within it the probabilities are renormalised.
constexpr double kTableSumTolerance = 1e-9;

// Parses CSV text. numClasses K bounds the class indices (from π). Errors name "path:line column
// 'name' = value". Rows with p = 0 are kept (they do not change any result).
Result<CategoricalTable> parseCategoricalTable(const std::string& text,
                                               const std::string& path,
                                               int numClasses);
Result<CategoricalTable> readCategoricalTable(const std::string& path, int numClasses);

// Why a condition label was not found, for a refusal: "no such condition in <where> (known:
// a, b)", or that <where> has no conditions at all (only the unnamed one of an unconditional
// table).
std::string noSuchCondition(const std::vector<std::string>& names, const std::string& where);

// Builds a table from rows in memory (for tests and the UI); same validation.
Result<CategoricalTable> makeCategoricalTable(int numPositions,
                                              int numClasses,
                                              std::vector<int> classes,
                                              std::vector<double> probability,
                                              std::vector<std::string> conditions = {});

}  // namespace core::data
