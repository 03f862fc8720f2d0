// SPDX-License-Identifier: MIT
// Strictness of the file readers shared by the CLI, the GUI and the projects: ambiguous files
// (repeated JSON members, repeated CSV columns, a Γ file with both kinds of column) are refused
// with one line naming the file, the place and the value; a leading UTF-8 BOM is skipped; every
// message stays on one line whatever bytes the file holds; and hostile sizes (10⁶ columns,
// 3·10⁵ condition labels) are refused or read in linear time. Also the regressions that the
// fuzzers in tests/fuzz found.
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/data/categorical_rows.h"
#include "core/data/categorical_table.h"
#include "core/io/csv.h"
#include "core/io/gamma_file.h"
#include "core/io/json.h"
#include "core/io/reader_text.h"
#include "core/model/gaussian_oracles.h"
#include "tests/support/test_support.h"

class tst_Readers : public QObject {
    Q_OBJECT

private slots:
    void labelColumnBeforeC();
    void csvTableQuotesTextAndRefusesRaggedColumns();
    void quotedCellsReadBack();
    void aFileOfCommasIsRefusedBeforeSplitting();
    void jsonDuplicateMemberRefused();
    void mixtureJsonDuplicateMemberRefused();
    void jsonStrings();
    void byteOrderMarkSkipped();
    void gammaCsvWithBothColumnsRefused();
    void duplicateColumnsRefused_data();
    void duplicateColumnsRefused();
    void messagesStayOnOneLine_data();
    void messagesStayOnOneLine();
    void printableEscapesWhatIsNotText_data();
    void printableEscapesWhatIsNotText();
    void millionColumnHeaderRefusedQuickly();
    void widestHeaderReadInLinearTime();
    void manyConditionLabelsRefusedQuickly();
    void thousandConditionLabelsRead();

private:
    QTemporaryDir m_dir;
};

namespace {

// Whether a reader's time grows linearly with its input: the best of three timings at n against
// the best of three at n/8. A quadratic reader takes 64 times as long for 8 times the input, a
// linear one about 8 times; the limit, 24 times, lies between them with room for the noise of a
// sanitizer build beside other tests (one run measured 9.5 times for 4 times the input). Two
// timings of the same run do not depend on the machine's speed, as an absolute limit did (4.6 s
// for a linear reader under ASan on a slow machine). Within 200 ms at n is always quick enough.
template <typename Work>
QString linearGrowth(int n, Work work) {
    const auto best = [&](int size) {
        qint64 ms = std::numeric_limits<qint64>::max();
        for (int run = 0; run < 3; ++run) {
            QElapsedTimer timer;
            timer.start();
            work(size);
            ms = std::min(ms, timer.elapsed());
        }
        return ms;
    };
    const qint64 eighth = best(n / 8);
    const qint64 full = best(n);
    if (full < 200 || full < 24 * std::max<qint64>(eighth, 1)) {
        return {};
    }
    return QString("%1 ms at n = %2 against %3 ms at n/8").arg(full).arg(n).arg(eighth);
}

QString messageOf(const core::Error& error) { return QString::fromStdString(error.toString()); }

// An NPY v1 file with `header` (the dict text, padded by us) and `payload` after it.
std::string npyBytes(const std::string& header, const std::string& payload = {}) {
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xFF);
    out += static_cast<char>((header.size() >> 8) & 0xFF);
    return out + header + payload;
}

}  // namespace

// 33 MB of commas would be 33 million strings (about 1 GB): refused from a count, at once.
void tst_Readers::aFileOfCommasIsRefusedBeforeSplitting() {
    const std::string commas(33'000'000, ',');
    QElapsedTimer timer;
    timer.start();
    auto table = core::io::parseCsv(commas, "commas.csv");
    QVERIFY(!table.ok());
    const QString message = QString::fromStdString(table.error().toString());
    QVERIFY2(message.startsWith("commas.csv = 33000001 cells: more than 32000000 cells"),
             qPrintable(message));
    QVERIFY(timer.elapsed() < 2000);
}

// With both a "label" and a "c" column, "label" holds the labels and "c" is a position.
void tst_Readers::labelColumnBeforeC() {
    auto both = core::data::parseCategoricalRows("a,c,label\n0,1,1\n1,0,0\n", "r.csv");
    DS_VERIFY_OK(both);
    QCOMPARE(both->numPositions, 2);
    QCOMPARE(both->rows, (std::vector<int>{0, 1, 1, 0}));
    QCOMPARE(both->labels, (std::vector<int>{1, 0}));
    auto onlyC = core::data::parseCategoricalRows("a,c\n0,1\n1,0\n", "r.csv");
    DS_VERIFY_OK(onlyC);
    QCOMPARE(onlyC->numPositions, 1);
    QCOMPARE(onlyC->labels, (std::vector<int>{1, 0}));
}

void tst_Readers::jsonDuplicateMemberRefused() {
    const auto json = core::io::parseJsonStrict("{\n  \"a\": 1,\n  \"b\": {\"c\": 2},\n  \"a\": 3\n}",
                                          "spec.json");
    QVERIFY(!json.ok());
    const QString message = messageOf(json.error());
    // The second "a" is on line 4, column 3; the first on line 2, column 3.
    QVERIFY2(message.startsWith("spec.json:4:3 = \"a\": "), qPrintable(message));
    QVERIFY2(message.contains("twice") && message.contains("2:3"), qPrintable(message));
    // The same name in different objects is fine.
    DS_VERIFY_OK(core::io::parseJsonStrict("{\"a\": {\"a\": 1}, \"b\": [{\"a\": 2}, {\"a\": 3}]}", "x"));
}

void tst_Readers::mixtureJsonDuplicateMemberRefused() {
    // gmm:FILE.json would otherwise take one of the two weights silently.
    const std::string path = (m_dir.path() + "/mix.json").toStdString();
    DS_VERIFY_OK(core::io::writeFileAtomically(
        path, "{\"components\": [\n"
              "  {\"weight\": 1, \"mean\": [0, 0], \"variance\": 1},\n"
              "  {\"weight\": 1, \"mean\": [1, 0], \"weight\": 3, \"variance\": 1}\n"
              "]}\n"));
    const auto oracle = core::model::GaussianMixtureOracle::fromJsonFile(path);
    QVERIFY(!oracle.ok());
    const QString message = messageOf(oracle.error());
    QVERIFY2(message.startsWith(QString::fromStdString(path) + ":3:33 = \"weight\": ") &&
                 message.contains("first at 3:4"),
             qPrintable(message));
}

void tst_Readers::jsonStrings() {
    auto json = core::io::parseJsonStrict(R"(["\u00e9", "\ud83d\ude00", "a\/b"])", "s.json");
    DS_VERIFY_OK(json);
    QCOMPARE((*json)[0].get<std::string>(), std::string("\xC3\xA9"));
    QCOMPARE((*json)[1].get<std::string>(), std::string("\xF0\x9F\x98\x80"));
    QCOMPARE((*json)[2].get<std::string>(), std::string("a/b"));
    for (const char* bad : {R"(["\u12zz"])", R"(["\ud83d"])", R"(["\ude00"])", "[\"a\nb\"]"}) {
        json = core::io::parseJsonStrict(bad, "s.json");
        QVERIFY2(!json.ok(), bad);
        QVERIFY2(messageOf(json.error()).startsWith("s.json:"), bad);
    }
}

void tst_Readers::byteOrderMarkSkipped() {
    const std::string bom = "\xEF\xBB\xBF";
    auto csv = core::io::parseCsv(bom + "n,gamma\n1,2\n", "g.csv");
    DS_VERIFY_OK(csv);
    QCOMPARE(csv->header.front(), std::string("n"));
    auto gamma = core::io::parseGammaCsv(bom + "n,gamma\n1,2\n", "g.csv", 1);
    DS_VERIFY_OK(gamma);
    QCOMPARE(gamma->values[1], 2.0);
    auto table = core::data::parseCategoricalTable(bom + "x1,p\n0,0.5\n1,0.5\n", "t.csv", 2);
    DS_VERIFY_OK(table);
    auto rows = core::data::parseCategoricalRows(bom + "x,label\n0,1\n", "r.csv");
    DS_VERIFY_OK(rows);
    QCOMPARE(rows->numConditions, 2);
    auto json = core::io::parseJsonStrict(bom + "{\"a\": 1}", "a.json");
    DS_VERIFY_OK(json);
    QVERIFY(json->contains("a"));
    // Only at the start: elsewhere it is an ordinary (bad) character.
    QVERIFY(!core::io::parseJsonStrict("{\"a\": " + bom + "1}", "a.json").ok());
}

void tst_Readers::gammaCsvWithBothColumnsRefused() {
    const auto gamma = core::io::parseGammaCsv("# Γ\nn,gamma,ms_eps\n1,2,3\n", "g.csv", 1);
    QVERIFY(!gamma.ok());
    const QString message = messageOf(gamma.error());
    QVERIFY2(message.startsWith("g.csv:2 = gamma, ms_eps: "), qPrintable(message));
    QVERIFY2(message.contains("position 2") && message.contains("position 3"),
             qPrintable(message));
}

void tst_Readers::duplicateColumnsRefused_data() {
    QTest::addColumn<int>("reader");  // 0 parseCsv, 1 table, 2 rows, 3 Γ CSV
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");  // the start of the one-line message
    QTest::addColumn<QString>("positions");
    QTest::newRow("csv") << 0 << "a,b,a\n1,2,3\n" << "f.csv:1 column 'a': " << "1 and 3";
    QTest::newRow("table-x1") << 1 << "# t\nx1,x2,p,x1\n0,0,1,0\n" << "f.csv:2 column 'x1': "
                              << "1 and 4";
    QTest::newRow("table-p") << 1 << "x1,p,p\n0,1,1\n" << "f.csv:1 column 'p': " << "2 and 3";
    QTest::newRow("rows") << 2 << "x,y,x\n0,1,0\n" << "f.csv:1 column 'x': " << "1 and 3";
    QTest::newRow("gamma-n") << 3 << "n,gamma,n\n1,2,1\n" << "f.csv:1 column 'n': " << "1 and 3";
}

void tst_Readers::duplicateColumnsRefused() {
    QFETCH(int, reader);
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QFETCH(QString, positions);
    const std::string t = text.toStdString();
    core::Error error;
    if (reader == 0) {
        auto r = core::io::parseCsv(t, "f.csv");
        QVERIFY(!r.ok());
        error = r.error();
    } else if (reader == 1) {
        auto r = core::data::parseCategoricalTable(t, "f.csv", 4);
        QVERIFY(!r.ok());
        error = r.error();
    } else if (reader == 2) {
        auto r = core::data::parseCategoricalRows(t, "f.csv");
        QVERIFY(!r.ok());
        error = r.error();
    } else {
        auto r = core::io::parseGammaCsv(t, "f.csv", 1);
        QVERIFY(!r.ok());
        error = r.error();
    }
    const QString message = messageOf(error);
    QVERIFY2(message.startsWith(expected), qPrintable(message));
    QVERIFY2(message.contains(positions), qPrintable(message));
}

void tst_Readers::messagesStayOnOneLine_data() {
    QTest::addColumn<int>("reader");  // 0 NPY Γ, 1 CSV Γ, 2 table, 3 JSON
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");  // a part of the message
    // The shape has no ')': the message used to quote the rest of the header, newline included.
    QTest::newRow("npy-shape-unclosed")
        << 0 << QByteArray::fromStdString(npyBytes(
                    "{'descr': '<f8', 'fortran_order': False, 'shape': (3,\n"))
        << "closing ')'";
    QTest::newRow("npy-shape-control")
        << 0 << QByteArray::fromStdString(npyBytes(
                    "{'descr': '<f8', 'fortran_order': False, 'shape': (3,\r\x1b[2J4), }\n"))
        << "shape (3,\\r\\x1b[2J4)";
    QTest::newRow("csv-field") << 1 << QByteArray("n,gamma\n1,2\x07\x1b\n") << "2\\x07\\x1b";
    QTest::newRow("csv-header") << 1 << QByteArray("n,gamma,a\rb,a\rb\n1,2,3,4\n")
                               << "'a\\rb'";
    QTest::newRow("table-label")
        << 2 << QByteArray("x1,p,c\n0,0.5,a\x0b\n1,0.25,a\x0b\n") << "condition 'a\\x0b'";
    QTest::newRow("json-key") << 3 << QByteArray(R"({"a\nb": 1, "a\nb": 2})") << "\"a\\nb\"";
    // Bytes that are not UTF-8: the lexer's "last read" and a CSV cell quote them.
    QTest::newRow("json-invalid-utf8") << 3 << QByteArray("{\"a\": \"b\xff\xfe\"}") << "\\xff";
    QTest::newRow("csv-field-invalid-utf8") << 1 << QByteArray("n,gamma\n1,2\xff\xc3(\n")
                                            << "2\\xff\\xc3(";
}

void tst_Readers::messagesStayOnOneLine() {
    QFETCH(int, reader);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const std::string b = bytes.toStdString();
    core::Error error;
    if (reader == 0) {
        auto r = core::io::parseGammaNpy(b, "g.npy", 3, core::io::GammaKind::MsEps);
        QVERIFY(!r.ok());
        error = r.error();
    } else if (reader == 1) {
        auto r = core::io::parseGammaCsv(b, "g.csv", 1);
        QVERIFY(!r.ok());
        error = r.error();
    } else if (reader == 2) {
        auto r = core::data::parseCategoricalTable(b, "t.csv", 2);
        QVERIFY(!r.ok());
        error = r.error();
    } else {
        auto r = core::io::parseJsonStrict(b, "a.json");
        QVERIFY(!r.ok());
        error = r.error();
    }
    const std::string message = error.toString();
    for (const char c : message) {
        QVERIFY2(static_cast<unsigned char>(c) >= 0x20 && c != 0x7F, message.c_str());
    }
    QVERIFY2(QString::fromStdString(message).contains(expected), message.c_str());
    QVERIFY2(QString::fromUtf8(message).toStdString() == message, "not valid UTF-8");
}

void tst_Readers::printableEscapesWhatIsNotText_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("maxBytes");
    QTest::addColumn<QByteArray>("expected");
    const auto row = [](const char* name, QByteArray text, int maxBytes, QByteArray expected) {
        QTest::newRow(name) << text << maxBytes << expected;
    };
    row("plain", "a b", 80, "a b");
    row("controls", "a\nb\rc\td\x01\x7f", 80, "a\\nb\\rc\\td\\x01\\x7f");
    row("valid utf-8", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 80,
        "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    row("lone bytes", "\xff\xfe\x80", 80, "\\xff\\xfe\\x80");
    row("overlong /", "\xc0\xaf", 80, "\\xc0\\xaf");
    row("overlong 3 bytes", "\xe0\x80\xaf", 80, "\\xe0\\x80\\xaf");
    row("surrogate", "\xed\xa0\x80", 80, "\\xed\\xa0\\x80");
    row("beyond U+10FFFF", "\xf4\x90\x80\x80", 80, "\\xf4\\x90\\x80\\x80");
    row("cut short", "a\xe2\x82", 80, "a\\xe2\\x82");
    row("then valid", "\xc3(\xc3\xa9", 80, "\\xc3(\xc3\xa9");
    row("C1 control", "a\xc2\x9b[2J", 80, "a\\u009b[2J");
    row("line separator", "a\xe2\x80\xa8" "b\xe2\x80\xa9", 80, "a\\u2028b\\u2029");
    row("cut at a character", "\xc3\xa9\xc3\xa9\xc3\xa9", 5, "\xc3\xa9\xc3\xa9\xe2\x80\xa6");
    row("cut fits", "abc", 3, "abc");
    row("cut bytes", "\xff\xff\xff", 2, "\\xff\\xff\xe2\x80\xa6");
}

void tst_Readers::printableEscapesWhatIsNotText() {
    QFETCH(QByteArray, text);
    QFETCH(int, maxBytes);
    QFETCH(QByteArray, expected);
    const std::string got = core::io::printable(text.toStdString(), static_cast<size_t>(maxBytes));
    QCOMPARE(QByteArray::fromStdString(got), expected);
}

void tst_Readers::millionColumnHeaderRefusedQuickly() {
    const auto columns = [](int n) {
        std::string text;
        for (int i = 0; i < n; ++i) {
            text += (i == 0 ? "x" : ",x") + std::to_string(i + 1);
        }
        return text + "\n";
    };
    const std::string text = columns(1'000'000);
    auto csv = core::io::parseCsv(text, "wide.csv");
    auto table = core::data::parseCategoricalTable(text, "wide.csv", 2);
    auto rows = core::data::parseCategoricalRows(text, "wide.csv");
    QVERIFY(!csv.ok() && !table.ok() && !rows.ok());
    for (const core::Error& error : {csv.error(), table.error(), rows.error()}) {
        const QString message = messageOf(error);
        QVERIFY2(message.startsWith("wide.csv:1 = 1000000 fields: ") &&
                     message.contains("65536"),
                 qPrintable(message));
    }
    const std::string eighth = columns(125'000);
    const QString slow = linearGrowth(1'000'000, [&](int n) {
        const std::string& input = n == 1'000'000 ? text : eighth;
        (void)core::io::parseCsv(input, "wide.csv");
        (void)core::data::parseCategoricalTable(input, "wide.csv", 2);
        (void)core::data::parseCategoricalRows(input, "wide.csv");
    });
    QVERIFY2(slow.isEmpty(), qPrintable(slow));
}

void tst_Readers::widestHeaderReadInLinearTime() {
    // 65 536 distinct columns x1..x65536: the table reader looked each xd up by a scan of the
    // header (4·10⁹ comparisons); now it is refused by the positions limit after a linear pass.
    const auto wide = [](int n) {
        std::string header;
        std::string row;
        for (int i = 0; i < n; ++i) {
            header += (i == 0 ? "x" : ",x") + std::to_string(i + 1);
            row += i == 0 ? "0" : ",0";
        }
        std::string withP = header;
        withP.replace(withP.rfind(','), std::string::npos, ",p");
        return std::pair{header + "\n" + row + "\n", withP + "\n" + row + "\n"};
    };
    // Named references, not a structured binding: clang 14 (the sanitizer build's) does not let
    // the timing lambda below capture bindings.
    const auto widest = wide(65'536);
    const std::string& plain = widest.first;
    const std::string& withP = widest.second;
    auto csv = core::io::parseCsv(plain, "w.csv");
    DS_VERIFY_OK(csv);
    QCOMPARE(csv->header.size(), size_t(65'536));
    auto table = core::data::parseCategoricalTable(withP, "w.csv", 2);
    QVERIFY(!table.ok());
    const QString message = messageOf(table.error());
    QVERIFY2(message.startsWith("w.csv:1 columns x1..xD = 65535: ") && message.contains("4096"),
             qPrintable(message));
    const auto eighth = wide(65'536 / 8);
    const QString slow = linearGrowth(65'536, [&](int n) {
        const auto& input = n == 65'536 ? withP : eighth.second;
        (void)core::io::parseCsv(n == 65'536 ? plain : eighth.first, "w.csv");
        (void)core::data::parseCategoricalTable(input, "w.csv", 2);
    });
    QVERIFY2(slow.isEmpty(), qPrintable(slow));
}

void tst_Readers::manyConditionLabelsRefusedQuickly() {
    // 3·10⁵ distinct labels: each one was searched for among all before it.
    const auto labelled = [](int n) {
        std::pair<std::string, std::vector<std::string>> made{"x1,p,c\n", {}};
        for (int i = 0; i < n; ++i) {
            made.second.push_back("L" + std::to_string(i));
            made.first += "0,1," + made.second.back() + "\n";
        }
        return made;
    };
    const auto most = labelled(300'000);  // not a structured binding: captured below (clang 14)
    const auto& text = most.first;
    const auto& labels = most.second;
    const auto make = [](const std::vector<std::string>& names) {
        return core::data::makeCategoricalTable(1, 2, std::vector<int>(names.size(), 0),
                                                std::vector<double>(names.size(), 1.0), names);
    };
    auto table = core::data::parseCategoricalTable(text, "c.csv", 2);
    QVERIFY(!table.ok());
    QString message = messageOf(table.error());
    // The 1001st label, on line 1002.
    QVERIFY2(message.startsWith("c.csv:1002 column 'c' = L1000: ") && message.contains("1000"),
             qPrintable(message));
    auto made = make(labels);
    QVERIFY(!made.ok());
    message = messageOf(made.error());
    QVERIFY2(message.startsWith("row 1000 c = L1000: ") && message.contains("1000"),
             qPrintable(message));
    const auto eighth = labelled(300'000 / 8);
    const QString slow = linearGrowth(300'000, [&](int n) {
        const auto& input = n == 300'000 ? text : eighth.first;
        (void)core::data::parseCategoricalTable(input, "c.csv", 2);
        (void)make(n == 300'000 ? labels : eighth.second);
    });
    QVERIFY2(slow.isEmpty(), qPrintable(slow));
}

void tst_Readers::thousandConditionLabelsRead() {
    std::string text = "x1,p,c\n";
    for (int i = 0; i < 1000; ++i) {
        text += "0,0.5,L" + std::to_string(i) + "\n1,0.5,L" + std::to_string(i) + "\n";
    }
    auto table = core::data::parseCategoricalTable(text, "c.csv", 2);
    DS_VERIFY_OK(table);
    QCOMPARE(table->numConditions(), 1000);
    QCOMPARE(table->condition.back(), 999);
    auto index = table->conditionIndex("L500");
    DS_VERIFY_OK(index);
    QCOMPARE(*index, 500);
}

// The views' CSV writer: the header block, text before numbers, RFC 4180 quoting of a cell
// with a comma or a quote, empty cells for non-finite values; a ragged table is refused
// naming the column.
void tst_Readers::csvTableQuotesTextAndRefusesRaggedColumns() {
    core::io::CsvOutput table{.comments = {"view: T", "schedule: linear"},
                              .textHeader = {"name"},
                              .text = {{"leading:6,offset=1", "say \"hi\""}},
                              .header = {"x", "y"},
                              .columns = {{1.0, 0.1}, {std::nan(""), 2.5}}};
    auto text = core::io::formatCsvTable(table);
    DS_VERIFY_OK(text);
    QCOMPARE(*text, std::string("# view: T\n# schedule: linear\nname,x,y\n"
                                "\"leading:6,offset=1\",1,\n"
                                "\"say \"\"hi\"\"\",0.10000000000000001,2.5\n"));
    table.columns[1].pop_back();
    auto ragged = core::io::formatCsvTable(table);
    QVERIFY(!ragged.ok());
    QVERIFY2(ragged.error().toString().find("y = 1 rows") != std::string::npos,
             ragged.error().toString().c_str());
}

// What the program's own CSV writer quotes (RFC 4180) is read back as written, by the one
// reader every CSV input goes through; a quote left open is refused naming the line.
void tst_Readers::quotedCellsReadBack() {
    core::io::CsvOutput table{.textHeader = {"name"},
                              .text = {{"leading:6,offset=1", "say \"hi\"", "#1"}},
                              .header = {"x"},
                              .columns = {{1.0, 2.0, 3.0}}};
    auto text = core::io::formatCsvTable(table);
    DS_VERIFY_OK(text);
    auto read = core::io::parseCsv(*text, "t.csv");
    DS_VERIFY_OK(read);
    QCOMPARE(read->header, (std::vector<std::string>{"name", "x"}));
    QCOMPARE(read->rows.size(), size_t{3});
    QCOMPARE(read->rows[0][0], std::string("leading:6,offset=1"));
    QCOMPARE(read->rows[1][0], std::string("say \"hi\""));
    QCOMPARE(read->rows[2][0], std::string("#1"));
    QCOMPARE(read->rows[2][1], std::string("3"));
    // A table of classes with quoted numbers, as a spreadsheet writes it.
    auto classes = core::data::parseCategoricalTable("\"x1\",\"p\"\n\"0\",\"0.25\"\n1,\"0.75\"\n", "q.csv", 2);
    DS_VERIFY_OK(classes);
    QCOMPARE(classes->numPositions, 1);
    auto open = core::io::parseCsv("a,b\n\"1,2\n", "o.csv");
    QVERIFY(!open.ok());
    QVERIFY2(open.error().toString().find("o.csv:2") != std::string::npos &&
                 open.error().toString().find("quoted cell is not closed") != std::string::npos,
             open.error().toString().c_str());
}

QTEST_GUILESS_MAIN(tst_Readers)
#include "tst_readers.moc"
