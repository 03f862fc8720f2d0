// SPDX-License-Identifier: MIT
#include <QTest>

#include <cmath>

#include "core/schedule/gaussian_schedule.h"
#include "tests/support/test_support.h"

using core::schedule::GaussianSchedule;

class tst_GaussianSchedule : public QObject {
    Q_OBJECT

private slots:
    void linearEndpoints();
    void invariants_data();
    void invariants();
    void pairQuantities();
    void invalid_data();
    void invalid();
    void customCsv();
    void zeroTerminalSnr_data();
    void zeroTerminalSnr();
    void zeroTerminalSnrErrors();
};

// docs/gaussian.md#schedules: linear N = 1000 runs from 1e−4 to 0.02. ᾱ_N reference:
// Π_{n=1}^{1000}(1 − β_n) with β_n = 1e−4 + (n − 1)(0.02 − 1e−4)/999, evaluated in 50-digit decimal
// arithmetic (Python decimal): 4.0358297653756833148e−05; ᾱ_25 = 0.99155816287877310769.
void tst_GaussianSchedule::linearEndpoints() {
    auto schedule = core::schedule::linearSchedule(1000);
    DS_VERIFY_OK(schedule);
    QCOMPARE(schedule->numSteps(), 1000);
    DS_COMPARE_ABS(schedule->beta(1), 1e-4, 1e-18);
    DS_COMPARE_ABS(schedule->beta(1000), 0.02, 1e-18);
    DS_COMPARE_ABS(schedule->alphaBar(1000) / 4.0358297653756833148e-05, 1.0, 1e-12);
    DS_COMPARE_ABS(schedule->alphaBar(25), 0.99155816287877310769, 1e-15);
    DS_COMPARE_ABS(schedule->betaBar(1), 1e-4, 1e-18);
    // N = 500 doubles the scale c = 1000/N: β runs 2e−4 … 0.04.
    auto half = core::schedule::linearSchedule(500);
    DS_VERIFY_OK(half);
    DS_COMPARE_ABS(half->beta(1), 2e-4, 1e-18);
    DS_COMPARE_ABS(half->beta(500), 0.04, 1e-17);
}

void tst_GaussianSchedule::invariants_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("steps");
    QTest::newRow("linear-1000") << "linear" << 1000;
    QTest::newRow("cosine-1000") << "cosine" << 1000;
    QTest::newRow("cosine-50") << "cosine" << 50;
    QTest::newRow("scaled-linear-1000") << "scaled-linear" << 1000;
    QTest::newRow("sigmoid-1000") << "sigmoid" << 1000;
    QTest::newRow("linear-100") << "linear" << 100;
}

void tst_GaussianSchedule::invariants() {
    QFETCH(QString, kind);
    QFETCH(int, steps);
    auto schedule = core::schedule::gaussianScheduleFromSpec(kind.toStdString(), steps);
    DS_VERIFY_OK(schedule);
    QCOMPARE(schedule->numSteps(), steps);
    QCOMPARE(schedule->alphaBar(0), 1.0);
    for (int n = 1; n <= steps; ++n) {
        QVERIFY(schedule->beta(n) > 0.0 && schedule->beta(n) < 1.0);
        QVERIFY(schedule->alphaBar(n) < schedule->alphaBar(n - 1));
        DS_COMPARE_ABS(schedule->alphaBar(n) + schedule->betaBar(n), 1.0, 1e-15);
        if (kind != "cosine") {
            QVERIFY(n == 1 || schedule->beta(n) >= schedule->beta(n - 1));  // nondecreasing
        }
    }
}

void tst_GaussianSchedule::pairQuantities() {
    auto schedule = core::schedule::cosineSchedule(200);
    DS_VERIFY_OK(schedule);
    for (auto [s, t] : {std::pair{1, 2}, std::pair{3, 90}, std::pair{150, 200}, std::pair{0, 7}}) {
        // α_{t|s} = Π_{s<i≤t} α_i directly.
        double product = 1.0;
        for (int i = s + 1; i <= t; ++i) {
            product *= 1.0 - schedule->beta(i);
        }
        DS_COMPARE_ABS(schedule->alphaTS(s, t) / product, 1.0, 1e-13);
        DS_COMPARE_ABS(schedule->betaTS(s, t), 1.0 - product, 1e-14);
        const double tilde = (1.0 - product) * (1.0 - schedule->alphaBar(s)) /
                             (1.0 - schedule->alphaBar(t));
        DS_COMPARE_REL(schedule->betaTildeST(s, t), tilde, 1e-10);
    }
    QCOMPARE(schedule->betaTildeST(0, 5), 0.0);
}

void tst_GaussianSchedule::invalid_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<int>("steps");
    QTest::newRow("zero-steps") << "linear" << 0;
    QTest::newRow("linear-too-short") << "linear" << 10;  // c·0.02 = 2 ≥ 1
    QTest::newRow("unknown") << "quartic" << 100;
    QTest::newRow("missing-file") << "csv:/nonexistent/beta.csv" << 0;
}

void tst_GaussianSchedule::invalid() {
    QFETCH(QString, spec);
    QFETCH(int, steps);
    auto schedule = core::schedule::gaussianScheduleFromSpec(spec.toStdString(), steps);
    QVERIFY(!schedule.ok());
    QVERIFY(!schedule.error().message.empty());
    QVERIFY(!core::schedule::GaussianSchedule::fromBetas({0.1, std::nan("")}).ok());
    QVERIFY(!core::schedule::GaussianSchedule::fromBetas({0.1, 1.0}).ok());
    QVERIFY(!core::schedule::GaussianSchedule::fromBetas({}).ok());
}

void tst_GaussianSchedule::customCsv() {
    const std::string path = test_support::dataPathStd("gaussian_custom_beta.csv");
    auto schedule = core::schedule::customScheduleFromCsv(path);
    DS_VERIFY_OK(schedule);
    QCOMPARE(schedule->numSteps(), 4);
    DS_COMPARE_ABS(schedule->alphaBar(4), 0.9 * 0.8 * 0.7 * 0.6, 1e-15);
    auto mismatch = core::schedule::gaussianScheduleFromSpec("csv:" + path, 5);
    QVERIFY(!mismatch.ok());
}

void tst_GaussianSchedule::zeroTerminalSnr_data() {
    QTest::addColumn<QString>("base");
    QTest::addColumn<int>("steps");
    QTest::newRow("linear") << "linear" << 1000;
    QTest::newRow("cosine") << "cosine" << 1000;
    QTest::newRow("scaled-linear") << "scaled-linear" << 1000;
    QTest::newRow("sigmoid") << "sigmoid" << 200;
    QTest::newRow("sigmoid N=2") << "sigmoid" << 2;
    QTest::newRow("csv") << "csv:" + test_support::dataPath("gaussian_custom_beta.csv") << 0;
}

// The transform's two defining properties, s' = √ᾱ' affine in s = √ᾱ on every n, and the
// resulting β' in (0, 1], non-decreasing, with β'_N = 1.
void tst_GaussianSchedule::zeroTerminalSnr() {
    QFETCH(QString, base);
    QFETCH(int, steps);
    auto plain = core::schedule::gaussianScheduleFromSpec(base.toStdString(), steps);
    auto zero = core::schedule::gaussianScheduleFromSpec(base.toStdString() + ",zero-snr", steps);
    DS_VERIFY_OK(plain);
    DS_VERIFY_OK(zero);
    const int n = plain->numSteps();
    QCOMPARE(zero->numSteps(), n);
    QVERIFY(zero->zeroTerminalSnr());
    QVERIFY(!plain->zeroTerminalSnr());
    QCOMPARE(zero->alphaBar(n), 0.0);
    QCOMPARE(std::sqrt(zero->alphaBar(n)), 0.0);
    QCOMPARE(zero->betaBar(n), 1.0);
    QCOMPARE(zero->beta(n), 1.0);
    DS_COMPARE_ABS(std::sqrt(zero->alphaBar(1)), std::sqrt(plain->alphaBar(1)), 1e-15);
    // s'_n = (s_n − s_N)·s_1/(s_1 − s_N): with the affine map through (s_N, 0) and (s_1, s_1).
    const double s1 = std::sqrt(plain->alphaBar(1));
    const double sN = std::sqrt(plain->alphaBar(n));
    for (int k = 1; k <= n; ++k) {
        const double expected = (std::sqrt(plain->alphaBar(k)) - sN) * s1 / (s1 - sN);
        DS_COMPARE_ABS(std::sqrt(zero->alphaBar(k)), expected, 4e-15);
        QVERIFY(zero->beta(k) > 0.0 && zero->beta(k) <= 1.0);
        QVERIFY(std::isfinite(zero->betaBar(k)));
        if (k > 1) {
            QVERIFY2(zero->beta(k) >= zero->beta(k - 1), qPrintable(QString::number(k)));
            DS_COMPARE_REL(zero->beta(k), 1.0 - zero->alphaBar(k) / zero->alphaBar(k - 1),
                           1e-12);
        }
    }
    // Pair quantities stay finite up to N: α_{N|s} = 0, β̃_{s|N} = β̄_s.
    QCOMPARE(zero->alphaTS(1, n), 0.0);
    QCOMPARE(zero->betaTS(1, n), 1.0);
    DS_COMPARE_REL(zero->betaTildeST(1, n), zero->betaBar(1), 1e-15);
}

void tst_GaussianSchedule::zeroTerminalSnrErrors() {
    auto unknown = core::schedule::gaussianScheduleFromSpec("quartic,zero-snr", 100);
    QVERIFY(!unknown.ok());
    QCOMPARE(unknown.error().field, std::string("schedule"));
    QCOMPARE(unknown.error().value, std::string("quartic,zero-snr"));
    auto single = core::schedule::gaussianScheduleFromSpec("cosine,zero-snr", 1);
    QVERIFY(!single.ok());
    QCOMPARE(single.error().field, std::string("schedule"));
    QCOMPARE(single.error().value, std::string("cosine,zero-snr"));
    // Applied twice it changes nothing (s_N is already 0).
    auto once = core::schedule::gaussianScheduleFromSpec("linear,zero-snr", 100);
    auto twice = core::schedule::gaussianScheduleFromSpec("linear,zero-snr,zero-snr", 100);
    DS_VERIFY_OK(once);
    DS_VERIFY_OK(twice);
    for (int k = 1; k <= 100; ++k) {
        DS_COMPARE_REL(twice->alphaBar(k), once->alphaBar(k), 1e-13);
    }
}

QTEST_GUILESS_MAIN(tst_GaussianSchedule)
#include "tst_gaussian_schedule.moc"
