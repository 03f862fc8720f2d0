// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/io/file_io.h"
#include "core/util/result.h"

// Plain CSV files: a header line, then rows of comma-separated fields. Lines starting with '#'
// and blank lines are skipped, as is a UTF-8 byte order mark. Errors name the file, the line and
// the column. At most limits::kCsvColumns columns; header names must be distinct.
namespace core::io {

struct CsvTable {
    std::string path;                           // where it was read from (for messages)
    std::vector<std::string> header;            // column names, trimmed
    std::vector<std::vector<std::string>> rows; // fields, trimmed; every row has header.size()
    std::vector<int> lineNumbers;               // 1-based line of each row in the file
    int headerLine = 0;                         // 1-based line of the header (0: none)
};

// Reads `path`. `hasHeader` false treats every line as data (header stays empty, and rows must
// still have equal lengths). A ragged row is an error naming its line; so is a line of more
// than limits::kCsvColumns fields, and a header that repeats a column name.
Result<CsvTable> readCsv(const std::string& path, bool hasHeader = true);
Result<CsvTable> parseCsv(const std::string& text, const std::string& path, bool hasHeader = true);

// Refuses a repeated non-empty name among `names` (a header): the error names `where` (e.g.
// "file.csv:1"), the column and both 1-based positions. Linear in the number of names.
Status checkDistinctColumns(const std::vector<std::string>& names, const std::string& where);

// The column index of `name` in the header, or an error naming the file and the column.
Result<int> findColumn(const CsvTable& table, const std::string& name);

// The field at (row, column) as a finite double / integer; the error names file:line and column.
Result<double> fieldAsDouble(const CsvTable& table, size_t row, size_t column);
Result<long long> fieldAsInt(const CsvTable& table, size_t row, size_t column);

// Reads a regular file of at most kMaxInputFileBytes into memory (readRegularFile).
Result<std::string> readTextFile(const std::string& path);

}  // namespace core::io

namespace core::io {

// One table for a CSV file: comment lines first ("# " + each), then the header, then one row
// per entry: the text columns (RFC 4180 quoting where a cell holds a comma, a quote or a line
// break), then the numeric ones (17 significant digits; a value that is not finite is an empty
// cell). Every column has the same length.
struct CsvOutput {
    std::vector<std::string> comments;
    std::vector<std::string> textHeader;
    std::vector<std::vector<std::string>> text;
    std::vector<std::string> header;
    std::vector<std::vector<double>> columns;
};
// Refuses a table whose columns differ in length or whose header does not match its columns,
// naming the column.
Result<std::string> formatCsvTable(const CsvOutput& table);

// Formats named numeric columns as CSV (header line, 17 significant digits). A shorter column,
// and a value that is not finite, leave an empty cell.
std::string formatCsv(const std::vector<std::string>& header,
                      const std::vector<std::vector<double>>& columns);

}  // namespace core::io
