// SPDX-License-Identifier: MIT
#include "core/data/categorical_rows.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "core/io/csv.h"
#include "core/util/limits.h"

namespace core::data {
namespace {

constexpr int kMaxLabels = 1000;
constexpr int kMaxClasses = 256;

bool isInteger(const std::string& text) {
    if (text.empty()) return false;
    errno = 0;
    char* end = nullptr;
    (void)std::strtoll(text.c_str(), &end, 10);
    return end == text.c_str() + text.size() && errno != ERANGE;
}

}  // namespace

Result<CategoricalRows> parseCategoricalRows(const std::string& text, const std::string& path,
                                             int numClasses) {
    Result<io::CsvTable> table = io::parseCsv(text, path, /*hasHeader=*/false);
    if (!table) return table.error();
    if (numClasses != 0 && (numClasses < 2 || numClasses > kMaxClasses)) {
        return invalidArgument("classes", std::to_string(numClasses), "K must lie in 2..256");
    }
    size_t first = 0;
    int labelColumn = -1;
    if (!table->rows.empty() &&
        !std::all_of(table->rows.front().begin(), table->rows.front().end(), isInteger)) {
        first = 1;  // a header
        const auto& header = table->rows.front();
        const std::string headerAt = path + ":" + std::to_string(table->lineNumbers.front());
        if (Status distinct = io::checkDistinctColumns(header, headerAt); !distinct) {
            return distinct.error();
        }
        // The labels are the column named "label", else the one named "c" (with both, "c" is
        // an ordinary position, as in a table with columns a, b, c and label). Names are
        // distinct (checked above), so there is at most one of each.
        for (const char* name : {"label", "c"}) {
            const auto it = std::find(header.begin(), header.end(), name);
            if (it != header.end()) {
                labelColumn = static_cast<int>(it - header.begin());
                break;
            }
        }
    }
    if (table->rows.size() <= first) {
        return makeError(ErrorCode::ParseError, path, "", "the file holds no data rows");
    }
    CategoricalRows out;
    const int columns = static_cast<int>(table->rows.front().size());
    out.numPositions = columns - (labelColumn >= 0 ? 1 : 0);
    if (out.numPositions < 1) {
        return makeError(ErrorCode::ParseError, path, "", "no position columns besides the label");
    }
    if (out.numPositions > limits::kPositions.max) {
        return invalidArgument(path + " positions", std::to_string(out.numPositions),
                               "more than " + std::to_string(limits::kPositions.max) +
                                   " positions, the limit");
    }
    int largest = 0;
    for (size_t r = first; r < table->rows.size(); ++r) {
        for (int c = 0; c < columns; ++c) {
            Result<long long> v = io::fieldAsInt(*table, r, static_cast<size_t>(c));
            if (!v) return v.error();
            const std::string where = path + ":" + std::to_string(table->lineNumbers[r]);
            if (c == labelColumn) {
                if (*v < 0 || *v >= kMaxLabels) {
                    return invalidArgument(where + " column " + std::to_string(c + 1),
                                           std::to_string(*v), "a label must lie in 0..999");
                }
                out.labels.push_back(static_cast<int>(*v));
                out.numConditions = std::max(out.numConditions, static_cast<int>(*v) + 1);
                continue;
            }
            const long long limit = numClasses > 0 ? numClasses : kMaxClasses;
            if (*v < 0 || *v >= limit) {
                return invalidArgument(where + " column " + std::to_string(c + 1),
                                       std::to_string(*v),
                                       "a class must lie in 0.." + std::to_string(limit - 1));
            }
            largest = std::max(largest, static_cast<int>(*v));
            out.rows.push_back(static_cast<int>(*v));
        }
    }
    out.numClasses = numClasses > 0 ? numClasses : std::max(2, largest + 1);
    return out;
}

Result<CategoricalRows> readCategoricalRows(const std::string& path, int numClasses) {
    Result<std::string> text = io::readTextFile(path);
    if (!text) return text.error();
    return parseCategoricalRows(*text, path, numClasses);
}

void splitHeldOut(const CategoricalRows& all, CategoricalRows& train, CategoricalRows& heldOut) {
    const int m = all.size();
    const int held = m >= 2 ? std::max(1, m / 10) : 0;
    const size_t cut = static_cast<size_t>(m - held) * all.numPositions;
    train = all;
    heldOut = all;
    train.rows.assign(all.rows.begin(), all.rows.begin() + cut);
    heldOut.rows.assign(all.rows.begin() + cut, all.rows.end());
    if (!all.labels.empty()) {
        train.labels.assign(all.labels.begin(), all.labels.begin() + (m - held));
        heldOut.labels.assign(all.labels.begin() + (m - held), all.labels.end());
    }
}

}  // namespace core::data
