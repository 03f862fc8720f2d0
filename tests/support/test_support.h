// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QTest>

#include <cmath>
#include <string>
#include <vector>

// Shared helpers for the Qt Test executables: tolerance checks that print the expected and the
// actual value and the error (Ceres dense_cholesky_test style), and paths to test data.
namespace test_support {

inline QString describe(double actual, double expected, double error, double tolerance) {
    return QString("actual %1, expected %2, error %3 > tolerance %4")
        .arg(actual, 0, 'g', 17)
        .arg(expected, 0, 'g', 17)
        .arg(error, 0, 'g', 3)
        .arg(tolerance, 0, 'g', 3);
}

inline QString dataPath(const char* name) {
    return QString(DIFFUSCOPE_TEST_DATA_DIR) + "/" + name;
}

inline std::string dataPathStd(const char* name) { return dataPath(name).toStdString(); }

// A CSV file as the views write it, read independently of core::io: the "# " header block,
// then records split by RFC 4180 (quoted cells may hold commas and doubled quotes).
struct CsvRecords {
    std::vector<std::string> comments;
    std::vector<std::vector<std::string>> records;  // the header first
};
inline CsvRecords readCsvRecords(const std::string& text) {
    CsvRecords out;
    size_t at = 0;
    while (at < text.size() && text[at] == '#') {
        const size_t end = text.find('\n', at);
        out.comments.push_back(text.substr(at + 2, end - at - 2));
        at = end + 1;
    }
    std::vector<std::string> record(1);
    bool quoted = false;
    for (; at < text.size(); ++at) {
        const char c = text[at];
        if (quoted) {
            if (c == '"' && at + 1 < text.size() && text[at + 1] == '"') {
                record.back() += '"';
                ++at;
            } else if (c == '"') {
                quoted = false;
            } else {
                record.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            record.emplace_back();
        } else if (c == '\n') {
            out.records.push_back(std::move(record));
            record.assign(1, {});
        } else {
            record.back() += c;
        }
    }
    return out;
}

}  // namespace test_support

// |actual − expected| ≤ tol, with both values printed on failure. NaN never passes.
#define DS_COMPARE_ABS(actual, expected, tol)                                                  \
    do {                                                                                       \
        const double dsActual_ = (actual);                                                     \
        const double dsExpected_ = (expected);                                                 \
        const double dsError_ = std::abs(dsActual_ - dsExpected_);                             \
        QVERIFY2(dsError_ <= (tol),                                                            \
                 qPrintable(test_support::describe(dsActual_, dsExpected_, dsError_, (tol)))); \
    } while (false)

// |actual − expected| ≤ tol·max(1, |expected|): relative for large values, absolute near 0.
#define DS_COMPARE_REL(actual, expected, tol)                                             \
    do {                                                                                  \
        const double dsActual_ = (actual);                                                \
        const double dsExpected_ = (expected);                                            \
        const double dsScale_ = std::max(1.0, std::abs(dsExpected_));                     \
        const double dsError_ = std::abs(dsActual_ - dsExpected_) / dsScale_;             \
        QVERIFY2(dsError_ <= (tol), qPrintable(test_support::describe(                    \
                                        dsActual_, dsExpected_, dsError_, (tol))));       \
    } while (false)

// Verifies a core::Result is ok, printing its error otherwise.
#define DS_VERIFY_OK(result) \
    QVERIFY2((result).ok(), (result).ok() ? "" : qPrintable(QString::fromStdString((result).error().toString())))
