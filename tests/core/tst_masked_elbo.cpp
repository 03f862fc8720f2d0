// SPDX-License-Identifier: MIT
// Tests of core/categorical/masked_elbo: the continuous-time negative ELBO of masked diffusion.
// With the exact oracle it equals H(X_0 | C), computed here as −Σ p log p over the table's rows,
// for every schedule, for D = 1 and D = 2; with denoisers whose predictions are written here it
// equals the cross-entropy integral computed here by a composite Simpson rule in t. The N-step
// ELBO of the existing step costs approaches it from above as N grows.
#include <QTest>

#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

#include "core/categorical/information.h"
#include "core/categorical/masked_elbo.h"
#include "core/categorical/prior.h"
#include "core/categorical/time_grid.h"
#include "core/model/categorical_oracles.h"
#include "core/model/trainer.h"
#include "tests/support/test_support.h"

using core::Vector;
using core::categorical::continuousElbo;
using core::data::CategoricalTable;

namespace {

// K = 3 data classes and the mask state 3 (K = 4 classes in all), two conditions, D = 1.
CategoricalTable tableD1() {
    auto t = core::data::makeCategoricalTable(1, 4, {0, 1, 2, 0, 2}, {0.2, 0.5, 0.3, 0.9, 0.1},
                                              {"a", "a", "a", "b", "b"});
    if (!t) qFatal("%s", t.error().toString().c_str());
    return *t;
}

// D = 2, correlated positions, classes 0..2 and the mask state 3.
CategoricalTable tableD2() {
    auto t = core::data::makeCategoricalTable(2, 4, {0, 0, 1, 1, 0, 2, 2, 1, 1, 0},
                                              {0.35, 0.25, 0.2, 0.15, 0.05});
    if (!t) qFatal("%s", t.error().toString().c_str());
    return *t;
}

// Σ_d H(X_0,d) of the positions' marginals under condition 0, summed here.
double marginalEntropies(const CategoricalTable& table) {
    double h = 0.0;
    for (int d = 0; d < table.numPositions; ++d) {
        const Vector p = table.marginal(0, d);
        for (int k = 0; k < p.size(); ++k) {
            if (p[k] > 0.0) h -= p[k] * std::log(p[k]);
        }
    }
    return h;
}

Vector maskedPi() { return *core::categorical::parsePrior("masked:3"); }

// H(X_0 | C = c) = −Σ p log p over the rows of c (the rows here are distinct).
double directEntropy(const CategoricalTable& table, int condition) {
    double h = 0.0;
    for (int r = 0; r < table.numRows(); ++r) {
        const double p = table.probability[r];
        if (table.condition[r] == condition && p > 0.0) h -= p * std::log(p);
    }
    return h;
}

core::schedule::BetaCurve schedule(const QString& name) {
    if (name == "linear") return core::schedule::linearCurve();
    if (name == "cosine") return core::schedule::cosineCurve();
    return *core::schedule::powerCurve(3.0);
}

// A denoiser written here: a masked position predicts q(t) (the same for every position and
// condition), an unmasked one is certain of its class.
class FixedDenoiser final : public core::model::CategoricalDenoiser {
public:
    FixedDenoiser(int d, std::function<Vector(double)> q) : m_d(d), m_q(std::move(q)) {}
    int numClasses() const override { return 4; }
    int numPositions() const override { return m_d; }
    int numConditions() const override { return 1; }
    void predict(std::span<const int> xt, int, const core::model::DenoiserTime& time,
                 std::span<double> out) const override {
        const Vector q = m_q(time.t);
        for (int d = 0; d < m_d; ++d) {
            for (int k = 0; k < 4; ++k) {
                out[d * 4 + k] = xt[d] == 3 ? q[k] : (k == xt[d] ? 1.0 : 0.0);
            }
        }
    }

private:
    int m_d;
    std::function<Vector(double)> m_q;
};

// q(t): the data marginal mixed with the uniform over the data classes, more so as t grows.
Vector blurred(const Vector& p0, double t) {
    Vector q = (1.0 - t) * p0;
    for (int k = 0; k < 3; ++k) q[k] += t / 3.0;
    q[3] = 0.0;
    return q;
}

double crossEntropy(const Vector& p, const Vector& q) {
    double ce = 0.0;
    for (int k = 0; k < p.size(); ++k) {
        if (p[k] > 0.0) ce -= p[k] * std::log(q[k]);
    }
    return ce;
}

// ∫₀¹ f by the composite Simpson rule with n (even) intervals.
double simpson(const std::function<double(double)>& f, int n) {
    double sum = f(0.0) + f(1.0);
    for (int i = 1; i < n; ++i) sum += (i % 2 ? 4.0 : 2.0) * f(static_cast<double>(i) / n);
    return sum / (3.0 * n);
}

double nStepElbo(const CategoricalTable& table, const Vector& pi,
                 const core::schedule::BetaCurve& curve, int n) {
    const core::model::TableOracle oracle(table, pi);
    auto costs = core::categorical::computeStepCosts(
        table, oracle, pi, core::categorical::evenTimeGrid(curve, n),
        core::categorical::CostPairs::Consecutive, {.parallel = {2}});
    if (!costs) qFatal("%s", costs.error().toString().c_str());
    double elbo = 0.0;
    for (int k = 1; k <= n; ++k) elbo += costs->cost(k - 1, k);
    return elbo;
}

}  // namespace

class tst_MaskedElbo : public QObject {
    Q_OBJECT

private slots:
    void gaussLegendreIntegratesPolynomials();
    void inverseBetaInvertsTheSchedules();
    void maskClassOfThePriors();
    void exactOracleGivesTheEntropy_data();
    void exactOracleGivesTheEntropy();
    void fixedDenoiserGivesItsCrossEntropy_data();
    void fixedDenoiserGivesItsCrossEntropy();
    void independentPositionsGiveTheMarginalEntropies();
    void nStepElboApproachesItFromAbove_data();
    void nStepElboApproachesItFromAbove();
    void monteCarloAgreesWithTheQuadrature();
    void trainedNetworkIsAboveTheEntropy();
    void refusals();
};

// ∫₀¹ u^m du = 1/(m + 1) for m ≤ 2n − 1; weights sum to 1 and nodes lie inside (0, 1).
void tst_MaskedElbo::gaussLegendreIntegratesPolynomials() {
    for (int n : {1, 2, 5, 32, 64}) {
        const auto rule = core::categorical::gaussLegendre01(n);
        QCOMPARE(static_cast<int>(rule.nodes.size()), n);
        for (int m = 0; m <= 2 * n - 1; ++m) {
            double sum = 0.0;
            for (int q = 0; q < n; ++q) {
                QVERIFY(rule.nodes[q] > 0.0 && rule.nodes[q] < 1.0);
                sum += rule.weights[q] * std::pow(rule.nodes[q], m);
            }
            DS_COMPARE_ABS(sum, 1.0 / (m + 1), 1e-14);
        }
    }
}

void tst_MaskedElbo::inverseBetaInvertsTheSchedules() {
    for (double beta : {1e-9, 0.1, 0.5, 0.9, 1.0 - 1e-9}) {
        DS_COMPARE_ABS(core::categorical::inverseBeta(core::schedule::linearCurve(), beta), beta, 1e-15);
        DS_COMPARE_ABS(core::categorical::inverseBeta(*core::schedule::powerCurve(3.0), beta),
                       std::cbrt(beta), 1e-14);
        // cosine: 1 − β = cos²(((t + s)/(1 + s))π/2)/cos²((s/(1 + s))π/2), solved for t.
        const double s = 0.008;
        const double f0 = std::cos(s / (1 + s) * std::numbers::pi / 2);
        const double t = std::acos(std::sqrt(1.0 - beta) * f0) * 2 / std::numbers::pi * (1 + s) - s;
        DS_COMPARE_ABS(core::categorical::inverseBeta(core::schedule::cosineCurve(), beta), t, 1e-9);
    }
    QCOMPARE(core::categorical::inverseBeta(core::schedule::cosineCurve(), 0.0), 0.0);
    QCOMPARE(core::categorical::inverseBeta(core::schedule::cosineCurve(), 1.0), 1.0);
}

void tst_MaskedElbo::maskClassOfThePriors() {
    using core::categorical::absorbingMaskClass;
    using core::categorical::parsePrior;
    QCOMPARE(absorbingMaskClass(*parsePrior("absorbing:4")), 3);
    QCOMPARE(absorbingMaskClass(*parsePrior("masked:4")), 4);
    QCOMPARE(static_cast<int>(parsePrior("masked:4")->size()), 5);
    QCOMPARE(core::categorical::maskedPriorClasses("masked:4"), 4);
    QCOMPARE(core::categorical::maskedPriorClasses("absorbing:4"), 0);
    QCOMPARE(absorbingMaskClass(*parsePrior("uniform:4")), -1);
    QCOMPARE(absorbingMaskClass(*parsePrior("0,0,1,0")), -1);
    auto tooMany = parsePrior("masked:256", "--pi");
    QVERIFY(!tooMany);
    QCOMPARE(tooMany.error().field, std::string("--pi"));
    QCOMPARE(tooMany.error().value, std::string("masked:256"));
}

void tst_MaskedElbo::exactOracleGivesTheEntropy_data() {
    QTest::addColumn<QString>("curve");
    QTest::addColumn<int>("positions");
    for (const char* curve : {"linear", "cosine", "power3"}) {
        QTest::newRow((std::string(curve) + " D=1").c_str()) << curve << 1;
        QTest::newRow((std::string(curve) + " D=2").c_str()) << curve << 2;
    }
}

// −ELBO_∞ = H(X_0 | C) for every schedule; without a condition, the conditions' average.
void tst_MaskedElbo::exactOracleGivesTheEntropy() {
    QFETCH(QString, curve);
    QFETCH(int, positions);
    const CategoricalTable table = positions == 1 ? tableD1() : tableD2();
    const core::model::TableOracle oracle(table, maskedPi());
    double average = 0.0;
    for (int c = 0; c < table.numConditions(); ++c) {
        auto elbo = continuousElbo(table, oracle, maskedPi(), schedule(curve), {.condition = c});
        DS_VERIFY_OK(elbo);
        DS_COMPARE_ABS(elbo->value, directEntropy(table, c), 1e-13);
        QVERIFY(elbo->quadratureError < 1e-13);
        QCOMPARE(elbo->nodes, 64);
        average += directEntropy(table, c) / table.numConditions();
    }
    auto all = continuousElbo(table, oracle, maskedPi(), schedule(curve));
    DS_VERIFY_OK(all);
    DS_COMPARE_ABS(all->value, average, 1e-13);
    // One node is exact already: h(u) is a polynomial of degree D − 1 ≤ 1.
    auto one = continuousElbo(table, oracle, maskedPi(), schedule(curve), {.nodes = 1});
    DS_VERIFY_OK(one);
    DS_COMPARE_ABS(one->value, average, 1e-13);
}

void tst_MaskedElbo::fixedDenoiserGivesItsCrossEntropy_data() {
    QTest::addColumn<QString>("curve");
    QTest::newRow("linear") << "linear";
    QTest::newRow("power3") << "power3";
}

// A masked position predicts q(t): −ELBO_∞ = ∫₀¹ −α′(t) Σ_d CE(p_0,d, q(t)) dt (the masked
// fraction 1 − α cancels the weight's denominator), computed here in t with Simpson's rule.
void tst_MaskedElbo::fixedDenoiserGivesItsCrossEntropy() {
    QFETCH(QString, curve);
    const CategoricalTable table = tableD2();
    const Vector p1 = table.marginal(0, 0), p2 = table.marginal(0, 1);
    const Vector p0 = 0.5 * (p1 + p2);
    const FixedDenoiser model(2, [p0](double t) { return blurred(p0, t); });
    // −α′(t) = β′(t): 1 (linear) or 3t² (power 3).
    const bool linear = curve == "linear";
    const double expected = simpson(
        [&](double t) {
            const Vector q = blurred(p0, t);
            return (linear ? 1.0 : 3.0 * t * t) * (crossEntropy(p1, q) + crossEntropy(p2, q));
        },
        20000);
    auto elbo = continuousElbo(table, model, maskedPi(), schedule(curve), {.nodes = 32});
    DS_VERIFY_OK(elbo);
    // The 64-node value is within the estimate |Q_64 − Q_32| of the 32-node rule's error.
    QVERIFY2(std::abs(elbo->value - expected) <= elbo->quadratureError + 1e-10,
             qPrintable(QString("%1 vs %2, estimate %3").arg(elbo->value, 0, 'g', 17)
                            .arg(expected, 0, 'g', 17).arg(elbo->quadratureError)));
    QVERIFY(elbo->quadratureError < 1e-4);
    qInfo("%s: 64 nodes %.17g, Simpson %.17g, deviation %.3g, estimate |Q64 - Q32| %.3g",
          qPrintable(curve), elbo->value, expected, std::abs(elbo->value - expected),
          elbo->quadratureError);
    // A t-independent prediction q: Σ_d CE(p_0,d, q) exactly.
    const Vector q = blurred(p0, 0.3);
    const FixedDenoiser constant(2, [q](double) { return q; });
    auto flat = continuousElbo(table, constant, maskedPi(), schedule("cosine"));
    DS_VERIFY_OK(flat);
    DS_COMPARE_ABS(flat->value, crossEntropy(p1, q) + crossEntropy(p2, q), 1e-13);
}

// The independent-positions oracle ignores the other positions: a masked position gets its
// marginal, and −ELBO_∞ = Σ_d H(X_0,d) ≥ H(X_0).
void tst_MaskedElbo::independentPositionsGiveTheMarginalEntropies() {
    const CategoricalTable table = tableD2();
    const core::model::TableOracle oracle(table, maskedPi(),
                                          core::model::TableOracleMode::IndependentPositions);
    const double marginals = marginalEntropies(table);
    auto elbo = continuousElbo(table, oracle, maskedPi(), schedule("cosine"));
    DS_VERIFY_OK(elbo);
    DS_COMPARE_ABS(elbo->value, marginals, 1e-12);
    QVERIFY(elbo->value > directEntropy(table, 0) + 0.1);
}

void tst_MaskedElbo::nStepElboApproachesItFromAbove_data() {
    QTest::addColumn<QString>("curve");
    QTest::newRow("linear") << "linear";
    QTest::newRow("cosine") << "cosine";
    QTest::newRow("power3") << "power3";
}

// D = 1: every N-step ELBO is H(X_0) already. D = 2: the positions are unmasked independently
// within a step, which the product of per-position kernels gets wrong only when two positions
// unmask in the same step; the N-step ELBO decreases towards H(X_0) with the gap
// I(X_1; X_2) Σ_n (β_n − β_{n−1})², which shrinks like 1/N.
void tst_MaskedElbo::nStepElboApproachesItFromAbove() {
    QFETCH(QString, curve);
    const auto beta = schedule(curve);
    const CategoricalTable one = tableD1();
    for (int n : {10, 100}) {
        DS_COMPARE_ABS(nStepElbo(one, maskedPi(), beta, n), 0.5 * (directEntropy(one, 0) + directEntropy(one, 1)),
                       1e-12);
    }
    const CategoricalTable two = tableD2();
    const double h = directEntropy(two, 0);
    const core::model::TableOracle oracle(two, maskedPi());
    DS_COMPARE_ABS(continuousElbo(two, oracle, maskedPi(), beta)->value, h, 1e-13);
    // I(X_1; X_2) = H(X_1) + H(X_2) − H(X_1, X_2) from the table's marginals.
    const double information = marginalEntropies(two) - h;
    double previousGap = 1e300;
    for (int n : {10, 100, 1000}) {
        const double gap = nStepElbo(two, maskedPi(), beta, n) - h;
        // Closed form: only a step that unmasks both positions at once loses anything (the
        // product of the marginals instead of the joint, I(X_1; X_2) in expectation), and it
        // does so with probability (β_n − β_{n−1})².
        const auto grid = core::categorical::evenTimeGrid(beta, n);
        double both = 0.0;
        for (int k = 1; k <= n; ++k) both += std::pow(grid.beta[k] - grid.beta[k - 1], 2);
        DS_COMPARE_ABS(gap, information * both, 1e-12);
        QVERIFY2(gap > 0.0, qPrintable(QString("N = %1: gap %2").arg(n).arg(gap)));
        QVERIFY2(gap < 0.2 * previousGap, qPrintable(QString("N = %1: gap %2 after %3").arg(n).arg(gap).arg(previousGap)));
        previousGap = gap;
    }
    QVERIFY(previousGap < 1e-2);
}

// The Monte Carlo estimate of the exact oracle: within 4 standard errors of H(X_0), the same
// for any number of threads, another for another seed.
void tst_MaskedElbo::monteCarloAgreesWithTheQuadrature() {
    const CategoricalTable table = tableD2();
    const core::model::TableOracle oracle(table, maskedPi());
    const auto curve = schedule("cosine");
    auto one = continuousElbo(table, oracle, maskedPi(), curve,
                              {.samples = 20000, .seed = 7, .parallel = {1}});
    auto two = continuousElbo(table, oracle, maskedPi(), curve,
                              {.samples = 20000, .seed = 7, .parallel = {2}});
    auto other = continuousElbo(table, oracle, maskedPi(), curve,
                                {.samples = 20000, .seed = 8, .parallel = {2}});
    DS_VERIFY_OK(one);
    DS_VERIFY_OK(two);
    DS_VERIFY_OK(other);
    QVERIFY(one->monteCarlo);
    QCOMPARE(one->value, two->value);
    QCOMPARE(one->standardError, two->standardError);
    QVERIFY(one->value != other->value);
    QVERIFY(one->standardError > 0.0 && one->standardError < 0.05);
    QVERIFY2(std::abs(one->value - directEntropy(table, 0)) < 4.0 * one->standardError,
             qPrintable(QString("%1 ± %2 vs %3").arg(one->value).arg(one->standardError)
                            .arg(directEntropy(table, 0))));
    auto few = continuousElbo(table, oracle, maskedPi(), curve, {.samples = 1});
    QVERIFY(!few);
    QCOMPARE(few.error().field, std::string("samples"));
    QCOMPARE(few.error().value, std::string("1"));
}

// A small network trained here on the D = 2 table under the masked process: its continuous ELBO
// (quadrature over enumerated masks) is ≥ H(X_0), and its Monte Carlo estimate agrees with it
// within 4 standard errors.
void tst_MaskedElbo::trainedNetworkIsAboveTheEntropy() {
    const CategoricalTable table = tableD2();
    core::model::CategoricalDataset data;
    for (int r = 0; r < table.numRows(); ++r) {
        for (int copy = 0; copy < std::lround(table.probability[r] * 400); ++copy) {
            data.rows.insert(data.rows.end(), table.row(r), table.row(r) + 2);
        }
    }
    const auto curve = schedule("linear");
    const core::model::CategoricalProcess process{
        .numClasses = 4, .numPositions = 2, .numConditions = 0, .pi = maskedPi(), .beta = curve};
    const core::model::MlpConfig architecture{.width = 24, .depth = 1, .timeEmbedding = 8,
                                              .timeScale = 20.0};
    const core::model::TrainParams params{.steps = 400, .batch = 64, .learningRate = 3e-3,
                                          .emaDecay = 0.99, .evalEvery = 0, .seed = 3,
                                          .parallel = {2}};
    auto trained = core::model::trainCategorical(process, data, data, architecture, params);
    DS_VERIFY_OK(trained);
    const double h = directEntropy(table, 0);
    auto quadrature = continuousElbo(table, trained->model, maskedPi(), curve);
    DS_VERIFY_OK(quadrature);
    QVERIFY(quadrature->quadratureError < 1e-4);
    QVERIFY2(quadrature->value >= h, qPrintable(QString("%1 < %2").arg(quadrature->value).arg(h)));
    auto estimate = continuousElbo(table, trained->model, maskedPi(), curve,
                                   {.samples = 20000, .seed = 1, .parallel = {2}});
    DS_VERIFY_OK(estimate);
    QVERIFY2(std::abs(estimate->value - quadrature->value) < 4.0 * estimate->standardError,
             qPrintable(QString("%1 ± %2 vs %3").arg(estimate->value).arg(estimate->standardError)
                            .arg(quadrature->value)));
    QVERIFY(estimate->value > h - 3.0 * estimate->standardError);
    qInfo("network: H = %.6f, quadrature %.6f (error estimate %.2g), Monte Carlo %.6f ± %.6f", h,
          quadrature->value, quadrature->quadratureError, estimate->value, estimate->standardError);
}

void tst_MaskedElbo::refusals() {
    const core::model::TableOracle oracleD1(tableD1(), maskedPi());
    // π not absorbing.
    const Vector uniform = *core::categorical::parsePrior("uniform:4");
    const core::model::TableOracle uniformOracle(tableD1(), uniform);
    auto notAbsorbing = continuousElbo(tableD1(), uniformOracle, uniform, schedule("linear"));
    QVERIFY(!notAbsorbing);
    QCOMPARE(notAbsorbing.error().field, std::string("pi"));
    // absorbing:3 on data that use class 2: the mask carries data mass.
    auto shared = core::data::makeCategoricalTable(1, 3, {0, 2}, {0.75, 0.25});
    const Vector absorbing = *core::categorical::parsePrior("absorbing:3");
    const core::model::TableOracle sharedOracle(*shared, absorbing);
    auto onMask = continuousElbo(*shared, sharedOracle, absorbing, schedule("linear"));
    QVERIFY(!onMask);
    QCOMPARE(onMask.error().field, std::string("table"));
    QCOMPARE(onMask.error().value, std::string("p(x1 = 2) ≥ 0.25"));
    QVERIFY(onMask.error().toString().find("mask class 2") != std::string::npos);
    // Without data on the last class, absorbing:K is a proper masked process.
    auto clean = core::data::makeCategoricalTable(1, 3, {0, 1}, {0.75, 0.25});
    const core::model::TableOracle cleanOracle(*clean, absorbing);
    auto fine = continuousElbo(*clean, cleanOracle, absorbing, schedule("cosine"));
    DS_VERIFY_OK(fine);
    DS_COMPARE_ABS(fine->value, -(0.75 * std::log(0.75) + 0.25 * std::log(0.25)), 1e-13);
    // Too many mask patterns: 2^20 × 1 row > 1000.
    auto wide = core::data::makeCategoricalTable(20, 4, std::vector<int>(20, 0), {1.0});
    const core::model::TableOracle wideOracle(*wide, maskedPi());
    auto tooWide = continuousElbo(*wide, wideOracle, maskedPi(), schedule("linear"),
                                  {.maxEnumeration = 1000});
    QVERIFY(!tooWide);
    QCOMPARE(tooWide.error().field, std::string("D"));
    QCOMPARE(tooWide.error().value, std::string("20"));
    auto badNodes = continuousElbo(tableD1(), oracleD1, maskedPi(), schedule("linear"), {.nodes = 0});
    QVERIFY(!badNodes);
    QCOMPARE(badNodes.error().field, std::string("nodes"));
    QCOMPARE(badNodes.error().value, std::string("0"));
}

QTEST_GUILESS_MAIN(tst_MaskedElbo)
#include "tst_masked_elbo.moc"
