// SPDX-License-Identifier: MIT
// β(t) curves of docs/categorical.md#schedules: values, invariants, Fritsch–Carlson monotonicity,
// validation.
#include <QTest>

#include <cmath>
#include <fstream>

#include "core/schedule/beta_curve.h"
#include "tests/support/test_support.h"

using namespace core::schedule;

class tst_BetaCurve : public QObject {
    Q_OBJECT

private slots:
    void invariants_data();
    void invariants();
    void knownValues_data();
    void knownValues();
    void customInterpolates();
    void customStaysMonotone();
    void badCustomPoints_data();
    void badCustomPoints();
    void badSpecs_data();
    void badSpecs();
    void customFromFile();
    void informationLinear();
};

void tst_BetaCurve::invariants_data() {
    QTest::addColumn<QString>("spec");
    QTest::newRow("linear") << "linear";
    QTest::newRow("cosine") << "cosine";
    QTest::newRow("power:2") << "power:2.0";
    QTest::newRow("power:0.3") << "power:0.3";
}

// β(0) = 0 and β(1) = 1 exactly, nondecreasing and inside [0, 1] on a fine grid.
void tst_BetaCurve::invariants() {
    QFETCH(QString, spec);
    core::Result<BetaCurve> curve = parseBetaCurve(spec.toStdString());
    DS_VERIFY_OK(curve);
    QCOMPARE((*curve)(0.0), 0.0);
    QCOMPARE((*curve)(1.0), 1.0);
    double previous = 0.0;
    for (int i = 0; i <= 1000; ++i) {
        const double beta = (*curve)(i / 1000.0);
        QVERIFY(beta >= previous && beta <= 1.0);
        previous = beta;
    }
}

void tst_BetaCurve::knownValues_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<double>("t");
    QTest::addColumn<double>("expected");
    QTest::newRow("linear") << "linear" << 0.3 << 0.3;
    QTest::newRow("power:2") << "power:2.0" << 0.3 << 0.09;
    // cos²((0.5+0.008)/1.008·π/2)/cos²(0.008/1.008·π/2), computed in float64 by hand.
    const double s = 0.008;
    const double f0 = std::pow(std::cos(s / (1 + s) * M_PI / 2), 2);
    const double fHalf = std::pow(std::cos((0.5 + s) / (1 + s) * M_PI / 2), 2);
    QTest::newRow("cosine half") << "cosine" << 0.5 << 1.0 - fHalf / f0;
}

void tst_BetaCurve::knownValues() {
    QFETCH(QString, spec);
    QFETCH(double, t);
    QFETCH(double, expected);
    core::Result<BetaCurve> curve = parseBetaCurve(spec.toStdString());
    DS_VERIFY_OK(curve);
    DS_COMPARE_ABS((*curve)(t), expected, 1e-15);
}

void tst_BetaCurve::customInterpolates() {
    core::Result<BetaCurve> curve = customCurve({{0.0, 0.0}, {0.25, 0.1}, {0.5, 0.5}, {1.0, 1.0}});
    DS_VERIFY_OK(curve);
    DS_COMPARE_ABS((*curve)(0.25), 0.1, 1e-15);
    DS_COMPARE_ABS((*curve)(0.5), 0.5, 1e-15);
    // (0,0) and (1,1) are added when missing.
    core::Result<BetaCurve> inner = customCurve({{0.5, 0.2}});
    DS_VERIFY_OK(inner);
    DS_COMPARE_ABS((*inner)(0.5), 0.2, 1e-15);
    QCOMPARE((*inner)(1.0), 1.0);
}

// Data with a flat stretch and a jump: a plain cubic spline overshoots, Fritsch–Carlson not.
void tst_BetaCurve::customStaysMonotone() {
    core::Result<BetaCurve> curve =
        customCurve({{0.0, 0.0}, {0.2, 0.3}, {0.4, 0.3}, {0.45, 0.95}, {1.0, 1.0}});
    DS_VERIFY_OK(curve);
    double previous = 0.0;
    for (int i = 0; i <= 10000; ++i) {
        const double beta = (*curve)(i / 10000.0);
        QVERIFY2(beta >= previous, qPrintable(QString("t = %1").arg(i / 10000.0)));
        previous = beta;
    }
    DS_COMPARE_ABS((*curve)(0.3), 0.3, 1e-15);  // flat between equal control values
}

void tst_BetaCurve::badCustomPoints_data() {
    QTest::addColumn<QList<double>>("ts");
    QTest::addColumn<QList<double>>("betas");
    QTest::addColumn<QString>("field");
    QTest::newRow("non-monotone") << QList<double>{0.0, 0.3, 0.6, 1.0} << QList<double>{0.0, 0.5, 0.4, 1.0} << "points[2].beta";
    QTest::newRow("out of order") << QList<double>{0.0, 0.6, 0.3, 1.0} << QList<double>{0.0, 0.2, 0.5, 1.0} << "points[2].t";
    QTest::newRow("beta(0) != 0") << QList<double>{0.0, 1.0} << QList<double>{0.1, 1.0} << "points[0].beta";
    QTest::newRow("beta(1) != 1") << QList<double>{0.0, 1.0} << QList<double>{0.0, 0.9} << "points[1].beta";
    QTest::newRow("NaN") << QList<double>{0.0, std::nan(""), 1.0} << QList<double>{0.0, 0.5, 1.0} << "points[1]";
    QTest::newRow("t outside") << QList<double>{0.0, 1.5} << QList<double>{0.0, 1.0} << "points[1].t";
}

void tst_BetaCurve::badCustomPoints() {
    QFETCH(QList<double>, ts);
    QFETCH(QList<double>, betas);
    QFETCH(QString, field);
    std::vector<ControlPoint> points;
    for (int i = 0; i < ts.size(); ++i) {
        points.push_back({ts[i], betas[i]});
    }
    core::Result<BetaCurve> curve = customCurve(points);
    QVERIFY(!curve.ok());
    QCOMPARE(QString::fromStdString(curve.error().field), field);
}

void tst_BetaCurve::badSpecs_data() {
    QTest::addColumn<QString>("spec");
    QTest::newRow("unknown") << "quadratic";
    QTest::newRow("power negative") << "power:-1";
    QTest::newRow("power text") << "power:abc";
    QTest::newRow("power nan") << "power:nan";
    QTest::newRow("custom missing file") << "custom:/nonexistent/beta.csv";
    QTest::newRow("info-linear without data") << "info-linear";
}

void tst_BetaCurve::badSpecs() {
    QFETCH(QString, spec);
    core::Result<BetaCurve> curve = parseBetaCurve(spec.toStdString());
    QVERIFY(!curve.ok());
    QVERIFY(!curve.error().message.empty());
}

void tst_BetaCurve::customFromFile() {
    core::Result<BetaCurve> curve = readCustomCurve(test_support::dataPathStd("categorical_custom_beta.csv"));
    DS_VERIFY_OK(curve);
    DS_COMPARE_ABS((*curve)(0.5), 0.25, 1e-15);
    core::Result<BetaCurve> bad = readCustomCurve(test_support::dataPathStd("categorical_custom_beta_bad.csv"));
    QVERIFY(!bad.ok());
    // The error names the file line of the offending control point.
    QVERIFY2(QString::fromStdString(bad.error().field).endsWith("categorical_custom_beta_bad.csv:5 column 'beta'"),
             qPrintable(QString::fromStdString(bad.error().toString())));
}

// I(β) for a known closed form: absorbing diffusion of a fair bit keeps (1 − β)·ln 2 nats,
// so the information-linear schedule must be β(t) = t exactly.
void tst_BetaCurve::informationLinear() {
    core::Result<BetaCurve> curve =
        informationLinearCurve([](double beta) { return (1.0 - beta) * std::log(2.0); });
    DS_VERIFY_OK(curve);
    for (double t : {0.0, 0.1, 0.5, 0.77, 1.0}) {
        DS_COMPARE_ABS((*curve)(t), t, 1e-14);
    }
    QVERIFY(!informationLinearCurve([](double) { return 0.0; }).ok());
}

QTEST_GUILESS_MAIN(tst_BetaCurve)
#include "tst_beta_curve.moc"
