// SPDX-License-Identifier: MIT
#include "core/data/categorical_table.h"

#include <algorithm>

#include <cmath>
#include <map>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "core/io/csv.h"
#include "core/io/reader_text.h"
#include "core/util/limits.h"

namespace core::data {
namespace {

// Checks probabilities and normalises per condition. `where(row)` names a row in errors.
template <typename Where>
Status normalise(CategoricalTable& table, const Where& where) {
    std::vector<double> sums(table.conditionNames.size(), 0.0);
    for (int r = 0; r < table.numRows(); ++r) {
        const double p = table.probability[r];
        if (!std::isfinite(p) || p < 0.0) {
            return invalidArgument(where(r, "p"), formatValue(p),
                                   "a probability must be a finite number ≥ 0");
        }
        sums[table.condition[r]] += p;
        for (int d = 0; d < table.numPositions; ++d) {
            const int x = table.row(r)[d];
            if (x < 0 || x >= table.numClasses) {
                return invalidArgument(where(r, "x" + std::to_string(d + 1)), std::to_string(x),
                                       "a class index must lie in 0.." +
                                           std::to_string(table.numClasses - 1) +
                                           " (K = " + std::to_string(table.numClasses) + ")");
            }
        }
    }
    for (size_t c = 0; c < sums.size(); ++c) {
        if (std::abs(sums[c] - 1.0) > kTableSumTolerance) {
            const std::string label =
                table.conditionNames[c].empty()
                    ? std::string("the table")
                    : "condition '" + io::printable(table.conditionNames[c]) + "'";
            return invalidArgument(where(-1, "p"), formatValue(sums[c]),
                                   "the probabilities of " + label +
                                       " sum to this value, not 1 (tolerance 1e-9)");
        }
    }
    for (int r = 0; r < table.numRows(); ++r) {
        table.probability[r] /= sums[table.condition[r]];
    }
    return {};
}

std::string tooManyConditions() {
    return "more than " + std::to_string(limits::kConditions.max) +
           " distinct condition labels, the limit";
}

}  // namespace

Result<int> CategoricalTable::conditionIndex(const std::string& label, const std::string& field) const {
    for (int c = 0; c < numConditions(); ++c) {
        if (conditionNames[c] == label) {
            return c;
        }
    }
    return invalidArgument(field, io::printable(label), noSuchCondition(conditionNames, "the table"));
}

std::string noSuchCondition(const std::vector<std::string>& names, const std::string& where) {
    if (names.empty() || (names.size() == 1 && names[0].empty())) {
        return where + " has no conditions (no column 'c')";
    }
    std::string known;
    for (const std::string& name : names) {
        known += (known.empty() ? "" : ", ") + name;
    }
    return "no such condition in " + where + " (known: " + io::printable(known, 400) + ")";
}

Vector CategoricalTable::marginal(int c, int position) const {
    Vector p = Vector::Zero(numClasses);
    for (int r = 0; r < numRows(); ++r) {
        if (condition[r] == c) {
            p[row(r)[position]] += probability[r];
        }
    }
    return p;
}

double CategoricalTable::entropy(int c) const {
    // Rows are not required to be distinct: merge duplicates before taking logs.
    std::map<std::vector<int>, double> joint;
    for (int r = 0; r < numRows(); ++r) {
        if (condition[r] == c) {
            joint[std::vector<int>(row(r), row(r) + numPositions)] += probability[r];
        }
    }
    double h = 0.0;
    for (const auto& [x, p] : joint) {
        if (p > 0.0) {
            h -= p * std::log(p);
        }
    }
    return h;
}

Result<CategoricalTable> makeCategoricalTable(int numPositions,
                                              int numClasses,
                                              std::vector<int> classes,
                                              std::vector<double> probability,
                                              std::vector<std::string> conditions) {
    if (numPositions < 1 || numClasses < 2 || probability.empty() ||
        classes.size() != probability.size() * static_cast<size_t>(numPositions) ||
        (!conditions.empty() && conditions.size() != probability.size())) {
        return invalidArgument("table", "", "inconsistent table sizes");
    }
    CategoricalTable table;
    table.numPositions = numPositions;
    table.numClasses = numClasses;
    table.classes = std::move(classes);
    table.probability = std::move(probability);
    table.condition.assign(table.probability.size(), 0);
    if (conditions.empty()) {
        table.conditionNames = {""};
    } else {
        // A hash of the labels seen so far: linear in the rows however many labels there are.
        std::unordered_map<std::string, int> indexOf;
        for (size_t r = 0; r < conditions.size(); ++r) {
            const auto [at, inserted] =
                indexOf.emplace(conditions[r], static_cast<int>(table.conditionNames.size()));
            if (inserted) {
                if (static_cast<long long>(table.conditionNames.size()) >=
                    limits::kConditions.max) {
                    return invalidArgument("row " + std::to_string(r) + " c",
                                           io::printable(conditions[r]),
                                           tooManyConditions());
                }
                table.conditionNames.push_back(conditions[r]);
            }
            table.condition[r] = at->second;
        }
    }
    Status status = normalise(table, [](int r, const std::string& column) {
        return r < 0 ? column : "row " + std::to_string(r) + " " + column;
    });
    if (!status) {
        return status.error();
    }
    return table;
}

Result<CategoricalTable> parseCategoricalTable(const std::string& text,
                                               const std::string& path,
                                               int numClasses) {
    Result<io::CsvTable> csv = io::parseCsv(text, path);
    if (!csv) {
        return csv.error();
    }
    // Columns x1..xD must be consecutive names; D is how many exist. The names are distinct
    // (parseCsv checks), so one hash of them finds every column in linear time.
    std::unordered_map<std::string_view, int> columnOf;
    columnOf.reserve(csv->header.size());
    for (size_t i = 0; i < csv->header.size(); ++i) {
        columnOf.emplace(csv->header[i], static_cast<int>(i));
    }
    std::vector<int> xColumns;
    for (int d = 1;; ++d) {
        const auto found = columnOf.find("x" + std::to_string(d));
        if (found == columnOf.end()) {
            break;
        }
        xColumns.push_back(found->second);
    }
    if (xColumns.empty()) {
        return makeError(ErrorCode::ParseError, path, "x1",
                         "the table has no column 'x1' (expected columns x1..xD, p[, c])");
    }
    // A column x<d> past a gap (x1,x3,p) would be dropped without a word and D read too small.
    // Which columns are x1..xD, marked once: a search of xColumns per name was quadratic.
    std::vector<bool> isXColumn(csv->header.size(), false);
    for (const int column : xColumns) {
        isXColumn[column] = true;
    }
    for (size_t i = 0; i < csv->header.size(); ++i) {
        const std::string& name = csv->header[i];
        if (name.size() < 2 || name[0] != 'x' ||
            name.find_first_not_of("0123456789", 1) != std::string::npos) {
            continue;
        }
        if (!isXColumn[i]) {
            return makeError(ErrorCode::ParseError,
                             path + ":" + std::to_string(csv->headerLine) + " column '" + name + "'",
                             name,
                             "the columns x1..xD must have no gap: x" +
                                 std::to_string(xColumns.size() + 1) + " is missing");
        }
    }
    Result<int> pColumn = io::findColumn(*csv, "p");
    if (!pColumn) {
        return pColumn.error();
    }
    const auto cFound = columnOf.find("c");
    const int cColumn = cFound == columnOf.end() ? -1 : cFound->second;
    const int numPositions = static_cast<int>(xColumns.size());
    if (numPositions > limits::kPositions.max) {
        return invalidArgument(path + ":" + std::to_string(csv->headerLine) + " columns x1..xD",
                               std::to_string(numPositions),
                               "more than " + std::to_string(limits::kPositions.max) +
                                   " positions, the limit");
    }
    std::unordered_map<std::string_view, int> labels;
    std::vector<int> classes;
    std::vector<double> probability;
    std::vector<std::string> conditions;
    const auto where = [&](size_t row, const std::string& column) {
        return path + ":" + std::to_string(csv->lineNumbers[row]) + " column '" + column + "'";
    };
    for (size_t row = 0; row < csv->rows.size(); ++row) {
        for (int d = 0; d < numPositions; ++d) {
            Result<long long> x = io::fieldAsInt(*csv, row, xColumns[d]);
            if (!x) {
                return x.error();
            }
            if (*x < 0 || *x >= numClasses) {
                return invalidArgument(where(row, "x" + std::to_string(d + 1)), std::to_string(*x),
                                       "a class index must lie in 0.." +
                                           std::to_string(numClasses - 1) +
                                           " (K = " + std::to_string(numClasses) + " from π)");
            }
            classes.push_back(static_cast<int>(*x));
        }
        Result<double> p = io::fieldAsDouble(*csv, row, *pColumn);
        if (!p) {
            return p.error();
        }
        if (*p < 0.0) {
            return invalidArgument(where(row, "p"), io::printable(csv->rows[row][*pColumn]),
                                   "a probability must be ≥ 0");
        }
        probability.push_back(*p);
        if (cColumn >= 0) {
            const std::string& label = csv->rows[row][cColumn];
            // Refused here, where the line is known, rather than in makeCategoricalTable or
            // by the project's check of its condition names, which names no file.
            if (Status s = limits::checkText(limits::kNameText, where(row, "c"), label); !s) {
                return s.error();
            }
            if (labels.emplace(label, 0).second &&
                static_cast<long long>(labels.size()) > limits::kConditions.max) {
                return invalidArgument(where(row, "c"), io::printable(label), tooManyConditions());
            }
            conditions.push_back(label);
        }
    }
    Result<CategoricalTable> table = makeCategoricalTable(numPositions, numClasses, classes,
                                                          probability, conditions);
    if (!table) {
        Error error = table.error();
        error.field = path + (error.field == "p" ? " column 'p'" : "");
        return error;
    }
    return table;
}

Result<CategoricalTable> readCategoricalTable(const std::string& path, int numClasses) {
    Result<std::string> text = io::readTextFile(path);
    if (!text) {
        return text.error();
    }
    return parseCategoricalTable(*text, path, numClasses);
}

}  // namespace core::data
