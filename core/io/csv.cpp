// SPDX-License-Identifier: MIT
#include "core/io/csv.h"

#include <optional>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include <unistd.h>

#include "core/io/reader_text.h"
#include "core/util/limits.h"

namespace core::io {
namespace {

std::string_view trim(std::string_view s) {
    const size_t begin = s.find_first_not_of(" \t\r");
    if (begin == std::string_view::npos) {
        return {};
    }
    const size_t end = s.find_last_not_of(" \t\r");
    return s.substr(begin, end - begin + 1);
}

// The cells of one line, RFC 4180's quoting included (what our own writer produces for a cell
// with a comma, a quote or a leading '#'): "a,b" is one cell a,b and "" inside quotes is a
// quote. Empty when a quoted cell is not closed on its line.
std::optional<std::vector<std::string>> splitFields(std::string_view line, size_t count) {
    std::vector<std::string> fields;
    fields.reserve(count);
    size_t start = 0;
    while (true) {
        // Blanks before an opening quote are skipped, as trim() skips them around bare cells.
        size_t first = start;
        while (first < line.size() && (line[first] == ' ' || line[first] == '\t')) ++first;
        if (first < line.size() && line[first] == '"') {
            std::string cell;
            size_t at = first + 1;
            bool closed = false;
            while (at < line.size()) {
                if (line[at] == '"') {
                    if (at + 1 < line.size() && line[at + 1] == '"') {
                        cell += '"';
                        at += 2;
                        continue;
                    }
                    closed = true;
                    ++at;
                    break;
                }
                cell += line[at++];
            }
            if (!closed) return std::nullopt;
            const size_t comma = line.find(',', at);
            // Only blanks may follow the closing quote.
            if (!trim(line.substr(at, comma == std::string_view::npos ? std::string_view::npos
                                                                       : comma - at))
                     .empty()) {
                return std::nullopt;
            }
            fields.push_back(std::move(cell));
            if (comma == std::string_view::npos) break;
            start = comma + 1;
            continue;
        }
        const size_t comma = line.find(',', start);
        fields.emplace_back(trim(line.substr(start, comma == std::string_view::npos
                                                        ? std::string_view::npos
                                                        : comma - start)));
        if (comma == std::string_view::npos) {
            break;
        }
        start = comma + 1;
    }
    return fields;
}

std::string where(const CsvTable& table, size_t row, size_t column) {
    std::string s = table.path + ":" + std::to_string(table.lineNumbers[row]);
    if (column < table.header.size()) {
        s += " column '" + printable(table.header[column]) + "'";
    } else {
        s += " column " + std::to_string(column + 1);
    }
    return s;
}

}  // namespace

Result<std::string> readTextFile(const std::string& path) { return readRegularFile(path); }

Result<CsvTable> parseCsv(const std::string& text, const std::string& path, bool hasHeader) {
    CsvTable table;
    table.path = path;
    const std::string_view all = withoutBom(text);
    // Each cell becomes a string of its own (32 bytes and up): a file of nothing but commas
    // would need 30 times its size. Counted before anything is split.
    const size_t cells = static_cast<size_t>(std::count(all.begin(), all.end(), ',')) +
                         static_cast<size_t>(std::count(all.begin(), all.end(), '\n')) + 1;
    if (cells > static_cast<size_t>(limits::kCsvCells.max)) {
        return makeError(ErrorCode::InvalidArgument, path, std::to_string(cells) + " cells",
                         "more than " + std::to_string(limits::kCsvCells.max) +
                             " cells, the limit of a CSV file");
    }
    int lineNumber = 0;
    bool headerRead = !hasHeader;
    size_t width = 0;
    for (size_t start = 0; start < all.size();) {
        const size_t newline = all.find('\n', start);
        const size_t end = newline == std::string_view::npos ? all.size() : newline;
        const std::string_view line = all.substr(start, end - start);
        start = end + 1;
        ++lineNumber;
        const std::string_view trimmed = trim(line);
        if (trimmed.empty() || trimmed[0] == '#') {
            continue;
        }
        // Counted before splitting, so a huge line is refused before it is allocated.
        const size_t count =
            static_cast<size_t>(std::count(trimmed.begin(), trimmed.end(), ',')) + 1;
        if (count > static_cast<size_t>(limits::kCsvColumns.max)) {
            return makeError(ErrorCode::ParseError, path + ":" + std::to_string(lineNumber),
                             std::to_string(count) + " fields",
                             "more than " + std::to_string(limits::kCsvColumns.max) +
                                 " columns, the limit of a CSV file");
        }
        std::optional<std::vector<std::string>> split = splitFields(trimmed, count);
        if (!split) {
            return makeError(ErrorCode::ParseError, path + ":" + std::to_string(lineNumber),
                             printable(std::string(trimmed.substr(0, 60))),
                             "a quoted cell is not closed on its line (a quote inside quotes is "
                             "written \"\")");
        }
        std::vector<std::string> fields = std::move(*split);
        if (!headerRead) {
            const std::string where = path + ":" + std::to_string(lineNumber);
            if (Status distinct = checkDistinctColumns(fields, where); !distinct) {
                return distinct.error();
            }
            table.header = std::move(fields);
            table.headerLine = lineNumber;
            width = table.header.size();
            headerRead = true;
            continue;
        }
        if (width == 0) {
            width = fields.size();
        }
        if (fields.size() != width) {
            return makeError(ErrorCode::ParseError, path + ":" + std::to_string(lineNumber),
                             std::to_string(fields.size()) + " fields",
                             "a row has a different number of fields than " +
                                 std::string(hasHeader ? "the header" : "the first row") + " (" +
                                 std::to_string(width) + ")");
        }
        table.rows.push_back(std::move(fields));
        table.lineNumbers.push_back(lineNumber);
    }
    if (hasHeader && !headerRead) {
        return makeError(ErrorCode::ParseError, path, "", "the file is empty (no header line)");
    }
    if (table.rows.empty()) {
        return makeError(ErrorCode::ParseError, path, "", "the file has no data rows");
    }
    return table;
}

Status checkDistinctColumns(const std::vector<std::string>& names, const std::string& where) {
    std::unordered_map<std::string_view, size_t> first;
    first.reserve(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        if (names[i].empty()) {
            continue;  // cannot be looked up by name, so it is never ambiguous
        }
        const auto [at, inserted] = first.emplace(names[i], i);
        if (!inserted) {
            return makeError(ErrorCode::ParseError,
                             where + " column '" + printable(names[i]) + "'", "",
                             "the column name appears twice, at positions " +
                                 std::to_string(at->second + 1) + " and " + std::to_string(i + 1));
        }
    }
    return {};
}

Result<CsvTable> readCsv(const std::string& path, bool hasHeader) {
    Result<std::string> text = readTextFile(path);
    if (!text) {
        return text.error();
    }
    return parseCsv(*text, path, hasHeader);
}

Result<int> findColumn(const CsvTable& table, const std::string& name) {
    for (size_t i = 0; i < table.header.size(); ++i) {
        if (table.header[i] == name) {
            return static_cast<int>(i);
        }
    }
    return makeError(ErrorCode::ParseError, table.path, printable(name),
                     "the header has no column named '" + printable(name) + "'");
}

Result<double> fieldAsDouble(const CsvTable& table, size_t row, size_t column) {
    const std::string& text = table.rows[row][column];
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    // An underflow (ERANGE with a denormal or zero result) is a number like any other; an
    // overflow is caught as not finite below.
    if (text.empty() || end != text.c_str() + text.size()) {
        return makeError(ErrorCode::ParseError, where(table, row, column), printable(text),
                         "not a number");
    }
    if (!std::isfinite(value)) {
        return makeError(ErrorCode::ParseError, where(table, row, column), printable(text),
                         "the number must be finite");
    }
    return value;
}

Result<long long> fieldAsInt(const CsvTable& table, size_t row, size_t column) {
    const std::string& text = table.rows[row][column];
    errno = 0;
    char* end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE) {
        return makeError(ErrorCode::ParseError, where(table, row, column), printable(text),
                         "not a whole number");
    }
    return value;
}

}  // namespace core::io

namespace core::io {

std::string formatCsv(const std::vector<std::string>& header,
                      const std::vector<std::vector<double>>& columns) {
    std::string out;
    for (size_t c = 0; c < header.size(); ++c) {
        out += (c == 0 ? "" : ",") + header[c];
    }
    out += '\n';
    size_t rows = 0;
    for (const auto& column : columns) {
        rows = std::max(rows, column.size());
    }
    char buffer[32];
    for (size_t r = 0; r < rows; ++r) {
        for (size_t c = 0; c < columns.size(); ++c) {
            if (c > 0) {
                out += ',';
            }
            // A value that is not finite (the SNR at n = 0, say) is an empty cell: "inf" and
            // "nan" are not numbers to most readers of CSV.
            if (r < columns[c].size() && std::isfinite(columns[c][r])) {
                std::snprintf(buffer, sizeof buffer, "%.17g", columns[c][r]);
                out += buffer;
            }
        }
        out += '\n';
    }
    return out;
}

namespace {
// `rowStart`: the row's first cell, which is quoted when it starts with '#' (after blanks): the
// row would be a comment to the readers that skip them (ours, pandas' comment='#'); quoted, the
// line starts with '"' instead.
std::string quotedCell(const std::string& cell, bool rowStart) {
    const size_t first = cell.find_first_not_of(" \t");
    const bool looksLikeComment = rowStart && first != std::string::npos && cell[first] == '#';
    if (!looksLikeComment && cell.find_first_of(",\"\r\n") == std::string::npos) {
        return cell;
    }
    std::string out = "\"";
    for (char c : cell) {
        out += c;
        if (c == '"') out += '"';
    }
    return out + '"';
}
}  // namespace

Result<std::string> formatCsvTable(const CsvOutput& table) {
    if (table.textHeader.size() != table.text.size() || table.header.size() != table.columns.size()) {
        return invalidArgument("header", std::to_string(table.textHeader.size() + table.header.size()),
                               "the header must name every column");
    }
    const size_t rows = !table.text.empty() ? table.text.front().size()
                        : !table.columns.empty() ? table.columns.front().size() : 0;
    for (size_t c = 0; c < table.text.size(); ++c) {
        if (table.text[c].size() != rows) {
            return invalidArgument(table.textHeader[c], std::to_string(table.text[c].size()) + " rows",
                                   "every column of a table must have " + std::to_string(rows));
        }
    }
    for (size_t c = 0; c < table.columns.size(); ++c) {
        if (table.columns[c].size() != rows) {
            return invalidArgument(table.header[c], std::to_string(table.columns[c].size()) + " rows",
                                   "every column of a table must have " + std::to_string(rows));
        }
    }
    std::string out;
    for (const std::string& line : table.comments) {
        out += "# " + line + '\n';
    }
    bool first = true;
    for (const auto* names : {&table.textHeader, &table.header}) {
        for (const std::string& name : *names) {
            out += (first ? "" : ",") + quotedCell(name, first);
            first = false;
        }
    }
    out += '\n';
    char buffer[32];
    for (size_t r = 0; r < rows; ++r) {
        first = true;
        for (const auto& column : table.text) {
            out += (first ? "" : ",") + quotedCell(column[r], first);
            first = false;
        }
        for (const auto& column : table.columns) {
            if (!first) out += ',';
            first = false;
            if (std::isfinite(column[r])) {
                std::snprintf(buffer, sizeof buffer, "%.17g", column[r]);
                out += buffer;
            }
        }
        out += '\n';
    }
    return out;
}

}  // namespace core::io
