// SPDX-License-Identifier: MIT
// Tests of the inline 2-D mixture spec `mixture:w,mx,my,s;…` (core/data/gaussian_data): it
// round-trips exactly through formatMixtureSpec, every malformed input is an error naming the
// component and the field, and the oracle's ε and log density equal the closed form of the
// noisy mixture written out directly here.
#include <QTest>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "core/data/gaussian_data.h"
#include "core/model/oracle_specs.h"
#include "tests/support/test_support.h"

using core::data::MixtureComponent2d;
using Components = std::vector<MixtureComponent2d>;

Q_DECLARE_METATYPE(Components)

class tst_MixtureSpec : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void parsesBlanksAndUnnormalisedWeights();
    void errors_data();
    void errors();
    void scoreEqualsClosedForm_data();
    void scoreEqualsClosedForm();
};

void tst_MixtureSpec::roundTrip_data() {
    QTest::addColumn<Components>("components");
    QTest::newRow("one component") << Components{{1.0, 0.0, 0.0, 1.0}};
    QTest::newRow("awkward digits") << Components{{0.1, 0.1 + 0.2, -1.0 / 3.0, std::sqrt(2.0)},
                                                  {2.0 / 3.0, -0.0, 1e-7, std::numbers::pi},
                                                  {1.0 / 7.0, 123456.789, -2.5e-5, 0.45}};
    QTest::newRow("extremes") << Components{
        {std::numeric_limits<double>::denorm_min(), -1.7976931348623157e308,
         2.2250738585072014e-308, 1e150},
        {1e300, 0.0, 0.0, 1e-150}};
    Components sixteen;
    for (int k = 0; k < core::data::kMaxMixtureComponents; ++k) {
        sixteen.push_back({1.0 / (k + 1), std::sin(k) * 2.0, std::cos(k * 0.7), 0.1 + k / 9.0});
    }
    QTest::newRow("sixteen components") << sixteen;
}

// The same doubles back, bit for bit, and the canonical text is a fixed point.
void tst_MixtureSpec::roundTrip() {
    QFETCH(Components, components);
    const std::string spec = core::data::formatMixtureSpec(components);
    QVERIFY(core::data::isMixtureSpec(spec));
    const auto back = core::data::parseMixtureSpec(spec);
    DS_VERIFY_OK(back);
    QCOMPARE(back->size(), components.size());
    for (size_t k = 0; k < components.size(); ++k) {
        const MixtureComponent2d& a = (*back)[k];
        const MixtureComponent2d& e = components[k];
        QVERIFY2(a == e && std::signbit(a.meanX) == std::signbit(e.meanX),
                 qPrintable(QString("component %1 of %2").arg(k).arg(spec.c_str())));
    }
    QCOMPARE(core::data::formatMixtureSpec(*back), spec);
    // Shortest digits: 0.1 is written as 0.1, not 0.10000000000000001.
    if (components.front().weight == 0.1) {
        QVERIFY2(spec.starts_with("mixture:0.1,0.30000000000000004,"), spec.c_str());
    }
}

void tst_MixtureSpec::parsesBlanksAndUnnormalisedWeights() {
    const auto parsed = core::data::parseMixtureSpec("mixture: 2 , 1,0 ,0.3 ;\t2,-1,0,0.3");
    DS_VERIFY_OK(parsed);
    QVERIFY((*parsed == Components{{2.0, 1.0, 0.0, 0.3}, {2.0, -1.0, 0.0, 0.3}}));
    QCOMPARE(core::data::formatMixtureSpec(*parsed), std::string("mixture:2,1,0,0.3;2,-1,0,0.3"));
    const auto oracle = core::model::gaussianOracleFromSpec("mixture:1,0,0,0.5;3,1,1,0.5");
    DS_VERIFY_OK(oracle);
    const core::model::GaussianEpsModel& model = **oracle;
    QCOMPARE(model.dimension(), 2);
    // Weights 1 : 3 are normalised to 1/4, 3/4: the mean is (3/4, 3/4), the variance per
    // dimension s² + Var of the means = 0.25 + (1/4)(3/4) = 0.4375.
    DS_COMPARE_REL((*oracle)->variancePerDimension(), 0.4375, 1e-14);
}

void tst_MixtureSpec::errors_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::newRow("empty") << "mixture:"
                           << "data"
                           << "mixture:";
    QTest::newRow("blank") << "mixture:  "
                           << "data"
                           << "mixture:  ";
    QTest::newRow("empty component") << "mixture:1,0,0,1;;1,0,0,1"
                                     << "data mixture[1]"
                                     << "";
    QTest::newRow("trailing ;") << "mixture:1,0,0,1;"
                                << "data mixture[1]"
                                << "";
    QTest::newRow("three fields") << "mixture:1,0,0"
                                  << "data mixture[0]"
                                  << "1,0,0";
    QTest::newRow("five fields") << "mixture:1,0,0,1;1,0,0,1,1"
                                 << "data mixture[1]"
                                 << "1,0,0,1,1";
    QTest::newRow("NaN weight") << "mixture:nan,0,0,1"
                                << "data mixture[0].weight"
                                << "nan";
    QTest::newRow("zero weight") << "mixture:1,0,0,1;0,1,1,1"
                                 << "data mixture[1].weight"
                                 << "0";
    QTest::newRow("negative weight") << "mixture:-0.5,0,0,1"
                                     << "data mixture[0].weight"
                                     << "-0.5";
    QTest::newRow("NaN mx") << "mixture:1,NaN,0,1"
                            << "data mixture[0].mx"
                            << "NaN";
    QTest::newRow("empty mx") << "mixture:1,,0,1"
                              << "data mixture[0].mx"
                              << "";
    QTest::newRow("infinite my") << "mixture:1,0,inf,1"
                                 << "data mixture[0].my"
                                 << "inf";
    QTest::newRow("overflowing my") << "mixture:1,0,1e999,1"
                                    << "data mixture[0].my"
                                    << "1e999";
    QTest::newRow("text s") << "mixture:1,0,0,wide"
                            << "data mixture[0].s"
                            << "wide";
    QTest::newRow("number then text") << "mixture:1,0,0,1x"
                                      << "data mixture[0].s"
                                      << "1x";
    QTest::newRow("zero s") << "mixture:1,0,0,0"
                            << "data mixture[0].s"
                            << "0";
    QTest::newRow("negative s") << "mixture:1,0,0,1;1,0,0,-0.3"
                                << "data mixture[1].s"
                                << "-0.3";
    QTest::newRow("NaN s") << "mixture:1,0,0,nan"
                           << "data mixture[0].s"
                           << "nan";
    QTest::newRow("s² underflows") << "mixture:1,0,0,1e-200"
                                   << "data mixture[0].s"
                                   << "1e-200";
    QTest::newRow("s² overflows") << "mixture:1,0,0,1e200"
                                  << "data mixture[0].s"
                                  << "1e200";
    QTest::newRow("weights overflow") << "mixture:1e308,0,0,1;1e308,0,0,1"
                                      << "data mixture weights"
                                      << "inf";
    // Control characters are shown escaped: the message stays one line (found by fuzz_specs).
    QTest::newRow("a line break in a spec") << "x,y\n0.1,0.2\n"
                                             << "data"
                                             << "x,y\\n0.1,0.2\\n";
    QTest::newRow("a line break in a field") << "mixture:1,0,0,1\n2"
                                              << "data mixture[0].s"
                                              << "1\\n2";
    QString seventeen = "mixture:1,0,0,1";
    for (int k = 1; k < 17; ++k) seventeen += ";1,0,0,1";
    QTest::newRow("seventeen components") << seventeen << "data"
                                          << "17 components";
}

// Each malformed spec is refused with the component and field named, by the parser and by the
// data-spec entry point the CLI and the UI use.
void tst_MixtureSpec::errors() {
    QFETCH(QString, spec);
    QFETCH(QString, field);
    QFETCH(QString, value);
    const auto parsed = core::data::parseMixtureSpec(spec.toStdString());
    QVERIFY(!parsed);
    const core::Error& e = parsed.error();
    QCOMPARE(e.code, core::ErrorCode::InvalidArgument);
    QCOMPARE(QString::fromStdString(e.field), field);
    QCOMPARE(QString::fromStdString(e.value), value);
    QVERIFY(!e.message.empty());
    const auto oracle = core::model::gaussianOracleFromSpec(spec.toStdString());
    QVERIFY(!oracle);
    QCOMPARE(QString::fromStdString(oracle.error().field), field);
}

void tst_MixtureSpec::scoreEqualsClosedForm_data() {
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("y");
    QTest::addColumn<double>("alphaBar");
    QTest::newRow("near a mean, little noise") << -1.02 << 0.05 << 0.9999;
    QTest::newRow("near another mean, small noise") << 1.1 << 0.9 << 0.99;
    QTest::newRow("between components, mid noise") << 0.3 << -0.2 << 0.5;
    QTest::newRow("far out, large noise") << 2.5 << 2.0 << 0.05;
}

// q_n = Σ π_k N(√ᾱ m_k, c_k I) with c_k = ᾱ s_k² + β̄ (docs/gaussian.md#exact-oracles), so
// score = Σ π_k N_k · (−(x − √ᾱ m_k)/c_k) / Σ π_k N_k and ε = −√β̄ · score.
void tst_MixtureSpec::scoreEqualsClosedForm() {
    QFETCH(double, x);
    QFETCH(double, y);
    QFETCH(double, alphaBar);
    const Components normalised{{0.5, -1.0, 0.0, 0.3}, {0.3, 1.0, 1.0, 0.5}, {0.2, 0.5, -1.5, 0.8}};
    const double betaBar = 1.0 - alphaBar;
    double density = 0.0;
    double scoreX = 0.0;
    double scoreY = 0.0;
    for (const MixtureComponent2d& c : normalised) {
        const double variance = alphaBar * c.stddev * c.stddev + betaBar;
        const double dx = x - std::sqrt(alphaBar) * c.meanX;
        const double dy = y - std::sqrt(alphaBar) * c.meanY;
        const double n = c.weight * std::exp(-(dx * dx + dy * dy) / (2.0 * variance)) /
                         (2.0 * std::numbers::pi * variance);
        density += n;
        scoreX -= n * dx / variance;
        scoreY -= n * dy / variance;
    }
    scoreX /= density;
    scoreY /= density;
    const double epsX = -std::sqrt(betaBar) * scoreX;
    const double epsY = -std::sqrt(betaBar) * scoreY;
    // The same mixture with weights ×10 is the same distribution (weights are normalised).
    for (const char* spec : {"mixture:0.5,-1,0,0.3;0.3,1,1,0.5;0.2,0.5,-1.5,0.8",
                             "mixture:5,-1,0,0.3;3,1,1,0.5;2,0.5,-1.5,0.8"}) {
        const auto components = core::data::parseMixtureSpec(spec);
        DS_VERIFY_OK(components);
        const auto oracle = core::model::mixtureOracle(*components);
        DS_VERIFY_OK(oracle);
        QCOMPARE((*oracle)->numComponents(), 3);
        const core::model::NoiseLevel level{
            .timestep = 1, .alphaBar = alphaBar, .betaBar = betaBar};
        core::Matrix point(2, 1);
        point << x, y;
        core::Matrix eps(2, 1);
        (*oracle)->predictEps(point, level, eps);
        DS_COMPARE_REL(eps(0, 0), epsX, 1e-12);
        DS_COMPARE_REL(eps(1, 0), epsY, 1e-12);
        DS_COMPARE_REL((*oracle)->logDensity(point.col(0), level), std::log(density), 1e-12);
    }
}

QTEST_GUILESS_MAIN(tst_MixtureSpec)
#include "tst_mixture_spec.moc"
