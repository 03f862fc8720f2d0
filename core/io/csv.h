// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/io/file_io.h"
#include "core/util/result.h"

// Plain CSV files: a header line, then rows of comma-separated fields. Lines starting with '#'
// and blank lines are skipped. Errors name the file, the line and the column.
namespace core::io {

struct CsvTable {
    std::string path;                           // where it was read from (for messages)
    std::vector<std::string> header;            // column names, trimmed
    std::vector<std::vector<std::string>> rows; // fields, trimmed; every row has header.size()
    std::vector<int> lineNumbers;               // 1-based line of each row in the file
};

// Reads `path`. `hasHeader` false treats every line as data (header stays empty, and rows must
// still have equal lengths). A ragged row is an error naming its line.
Result<CsvTable> readCsv(const std::string& path, bool hasHeader = true);
Result<CsvTable> parseCsv(const std::string& text, const std::string& path, bool hasHeader = true);

// The column index of `name` in the header, or an error naming the file and the column.
Result<int> findColumn(const CsvTable& table, const std::string& name);

// The field at (row, column) as a finite double / integer; the error names file:line and column.
Result<double> fieldAsDouble(const CsvTable& table, size_t row, size_t column);
Result<long long> fieldAsInt(const CsvTable& table, size_t row, size_t column);

// Reads a regular file of at most kMaxInputFileBytes into memory (readRegularFile).
Result<std::string> readTextFile(const std::string& path);

}  // namespace core::io

namespace core::io {

// Formats named numeric columns of equal length as CSV (header line, 17 significant digits).
std::string formatCsv(const std::vector<std::string>& header,
                      const std::vector<std::vector<double>>& columns);

}  // namespace core::io
