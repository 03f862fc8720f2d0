// SPDX-License-Identifier: MIT
// Tests of core/data/categorical_rows: a user's CSV of categorical examples for training, with
// an optional label column, and every bad file refused with file:line and column.
#include <QTest>

#include "core/data/categorical_rows.h"
#include "tests/support/test_support.h"

class tst_CategoricalRows : public QObject {
    Q_OBJECT

private slots:
    void readsRowsWithoutHeader();
    void headerWithLabelColumn();
    void givenClassCount();
    void badFiles_data();
    void badFiles();
    void heldOutSplit();
};

void tst_CategoricalRows::readsRowsWithoutHeader() {
    auto rows = core::data::parseCategoricalRows("0,1,2\n2,2,0\n# a comment\n1,0,0\n", "a.csv");
    DS_VERIFY_OK(rows);
    QCOMPARE(rows->numPositions, 3);
    QCOMPARE(rows->numClasses, 3);  // inferred: largest class 2, plus one
    QCOMPARE(rows->numConditions, 0);
    QCOMPARE(rows->size(), 3);
    QCOMPARE(rows->rows, (std::vector<int>{0, 1, 2, 2, 2, 0, 1, 0, 0}));
    QVERIFY(rows->labels.empty());
}

void tst_CategoricalRows::headerWithLabelColumn() {
    auto rows = core::data::parseCategoricalRows("x1,label,x2\n0,3,1\n1,0,1\n", "b.csv");
    DS_VERIFY_OK(rows);
    QCOMPARE(rows->numPositions, 2);
    QCOMPARE(rows->numConditions, 4);
    QCOMPARE(rows->rows, (std::vector<int>{0, 1, 1, 1}));
    QCOMPARE(rows->labels, (std::vector<int>{3, 0}));
    QCOMPARE(rows->numClasses, 2);  // at least two classes even when only 0 and 1 occur
}

void tst_CategoricalRows::givenClassCount() {
    auto rows = core::data::parseCategoricalRows("0,1\n1,1\n", "c.csv", 5);
    DS_VERIFY_OK(rows);
    QCOMPARE(rows->numClasses, 5);
}

void tst_CategoricalRows::badFiles_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("classes");
    QTest::addColumn<QString>("expected");  // a part of the message
    QTest::newRow("empty") << "" << 0 << "no data rows";
    QTest::newRow("header only") << "x1,x2\n" << 0 << "no data rows";
    QTest::newRow("ragged") << "0,1\n1\n" << 0 << ":2";
    QTest::newRow("NaN") << "0,1\nnan,1\n" << 0 << "not a whole number";
    QTest::newRow("fraction") << "0,1\n0.5,1\n" << 0 << "a.csv:2";
    QTest::newRow("negative") << "0,-1\n" << 0 << "a class must lie in";
    QTest::newRow("class >= K") << "0,1\n0,3\n" << 3 << "a.csv:2 column 2";
    QTest::newRow("label out of range") << "x,label\n0,1000\n" << 0 << "a label must lie";
    QTest::newRow("only a label") << "label\n1\n" << 0 << "no position columns";
    QTest::newRow("K too large") << "0,1\n" << 300 << "2..256";
}

void tst_CategoricalRows::badFiles() {
    QFETCH(QString, text);
    QFETCH(int, classes);
    QFETCH(QString, expected);
    auto rows = core::data::parseCategoricalRows(text.toStdString(), "a.csv", classes);
    QVERIFY(!rows);
    const QString message = QString::fromStdString(rows.error().toString());
    QVERIFY2(message.contains(expected), qPrintable(message));
}

void tst_CategoricalRows::heldOutSplit() {
    std::string text = "x1,x2,label\n";
    for (int i = 0; i < 25; ++i) {
        text += std::to_string(i % 2) + "," + std::to_string((i / 2) % 2) + "," + std::to_string(i % 3) + "\n";
    }
    auto rows = core::data::parseCategoricalRows(text, "d.csv");
    DS_VERIFY_OK(rows);
    core::data::CategoricalRows train, heldOut;
    core::data::splitHeldOut(*rows, train, heldOut);
    QCOMPARE(train.size(), 23);  // 25/10 = 2 held out
    QCOMPARE(heldOut.size(), 2);
    QCOMPARE(heldOut.labels, (std::vector<int>{23 % 3, 24 % 3}));
    QCOMPARE(heldOut.rows, (std::vector<int>{1, 1, 0, 0}));  // rows 23 and 24
    QCOMPARE(train.labels.size(), size_t(23));
}

QTEST_GUILESS_MAIN(tst_CategoricalRows)
#include "tst_categorical_rows.moc"
