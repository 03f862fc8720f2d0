// SPDX-License-Identifier: MIT
// libFuzzer target for the CSV readers: core::io::parseCsv (with and without a header) and the
// two categorical data readers built on it (the table x1..xD,p[,c] and the training rows). Any
// text must give a value or a one-line error, never a crash, a sanitizer report or a hang.
#include <cstdint>
#include <string>

#include "core/data/categorical_rows.h"
#include "core/data/categorical_table.h"
#include "core/io/csv.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (const bool hasHeader : {true, false}) {
        core::Result<core::io::CsvTable> csv = core::io::parseCsv(text, "fuzz.csv", hasHeader);
        fuzz::check(csv);
        if (csv.ok()) {
            if (csv->rows.size() != csv->lineNumbers.size()) {
                std::abort();
            }
            for (size_t r = 0; r < csv->rows.size(); ++r) {
                for (size_t c = 0; c < csv->rows[r].size(); ++c) {
                    fuzz::check(core::io::fieldAsDouble(*csv, r, c));
                    fuzz::check(core::io::fieldAsInt(*csv, r, c));
                }
            }
            if (hasHeader) {
                fuzz::check(core::io::findColumn(*csv, "p"));
            }
        }
    }
    core::Result<core::data::CategoricalTable> table =
        core::data::parseCategoricalTable(text, "fuzz.csv", 4);
    fuzz::check(table);
    if (table.ok()) {
        if (table->numConditions() < 1 || table->classes.size() !=
            static_cast<size_t>(table->numRows()) * static_cast<size_t>(table->numPositions)) {
            std::abort();
        }
        for (int c = 0; c < table->numConditions(); ++c) {
            core::Result<int> index = table->conditionIndex(table->conditionNames[c]);
            if (!index.ok() || *index != c) {
                std::abort();
            }
            (void)table->marginal(c, 0);
            (void)table->entropy(c);
        }
    }
    for (const int classes : {0, 3}) {
        core::Result<core::data::CategoricalRows> rows =
            core::data::parseCategoricalRows(text, "fuzz.csv", classes);
        fuzz::check(rows);
        if (rows.ok() && (rows->numPositions < 1 ||
                          rows->rows.size() % static_cast<size_t>(rows->numPositions) != 0 ||
                          (!rows->labels.empty() &&
                           rows->labels.size() != static_cast<size_t>(rows->size())))) {
            std::abort();
        }
    }
    return 0;
}
