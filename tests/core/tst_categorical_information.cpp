// SPDX-License-Identifier: MIT
// Information curves, step costs, negative ELBO and the trajectory DP of
// docs/categorical.md.
#include <QTest>

#include <cmath>
#include <functional>

#include "core/categorical/information.h"
#include "core/categorical/prior.h"
#include "core/data/categorical_table.h"
#include "core/model/categorical_oracles.h"
#include "core/trajectory/least_cost_path.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

// The reference figures of an earlier draft of the specification are matched to these
// tolerances only (see categorical_a5_joint.csv).
#define A5_TOLERANCE_NLL 2e-4
#define A5_TOLERANCE 5e-3

using namespace core;
using namespace core::categorical;

namespace {

data::CategoricalTable readTable(const char* name, int numClasses) {
    Result<data::CategoricalTable> table = data::readCategoricalTable(test_support::dataPathStd(name), numClasses);
    if (!table.ok()) {
        qFatal("%s", table.error().toString().c_str());
    }
    return *table;
}

std::vector<int> allNodes(int numSteps) {
    std::vector<int> nodes(static_cast<size_t>(numSteps) + 1);
    for (int n = 0; n <= numSteps; ++n) {
        nodes[n] = n;
    }
    return nodes;
}

}  // namespace

class tst_CategoricalInformation : public QObject {
    Q_OBJECT

private slots:
    void cancelStopsWithinAColumn();
    void handComputed_data();
    void handComputed();
    void curveEnds();
    void jointEntropyOfAHandMadeTable();
    void informationFractionLimits_data();
    void informationFractionLimits();
    void informationLinearSchedule();
    void degenerateD1();
    void exactMatchesMonteCarlo();
    void enumerationLimit();
    void referenceFiguresA5();
    void dpMatchesBruteForce_data();
    void dpMatchesBruteForce();
    void costsThreadIndependent();
};

void tst_CategoricalInformation::handComputed_data() {
    QTest::addColumn<QList<double>>("p0");
    QTest::addColumn<QString>("priorSpec");
    QTest::addColumn<double>("beta");
    QTest::addColumn<double>("information");
    QTest::addColumn<double>("impurityValue");
    // K = 2, p0 = (½, ½), uniform π, β = ½: P₀,ₜ = [[¾, ¼], [¼, ¾]], p_t = (½, ½);
    // I = ln 2 + ¾ ln ¾ + ¼ ln ¼; F(·|j) = (¾, ¼) so G = 1 − (9/16 + 1/16) = 3/8.
    QTest::newRow("fair bit, uniform") << QList<double>{0.5, 0.5} << "uniform:2" << 0.5
                                       << std::log(2.0) + 0.75 * std::log(0.75) + 0.25 * std::log(0.25) << 0.375;
    // Absorbing K = 3 with data (½, ½, 0): masking keeps I = (1 − β) ln 2; G = β (1 − Σp²) = β/2.
    QTest::newRow("fair bit, absorbing") << QList<double>{0.5, 0.5, 0.0} << "absorbing:3" << 0.3
                                         << 0.7 * std::log(2.0) << 0.15;
    // β = 0: I = H(p0), G = 0; β = 1: I = 0, G = 1 − Σp².
    QTest::newRow("beta 0") << QList<double>{0.2, 0.3, 0.5} << "0.2,0.2,0.6" << 0.0
                            << -(0.2 * std::log(0.2) + 0.3 * std::log(0.3) + 0.5 * std::log(0.5)) << 0.0;
    QTest::newRow("beta 1") << QList<double>{0.2, 0.3, 0.5} << "0.2,0.2,0.6" << 1.0 << 0.0 << 1.0 - 0.38;
}

void tst_CategoricalInformation::handComputed() {
    QFETCH(QList<double>, p0);
    QFETCH(QString, priorSpec);
    QFETCH(double, beta);
    QFETCH(double, information);
    QFETCH(double, impurityValue);
    const Vector pi = *parsePrior(priorSpec.toStdString());
    Vector p(p0.size());
    for (int i = 0; i < p0.size(); ++i) {
        p[i] = p0[i];
    }
    DS_COMPARE_ABS(mutualInformation(p, pi, beta), information, 1e-15);
    DS_COMPARE_ABS(impurity(p, pi, beta), impurityValue, 1e-15);
}

// H(X_0) of a two-position table written out by hand, with a repeated row (merged before the
// logarithm) and two conditions (averaged), against the direct sum −Σ p log p; the positions'
// entropies, summed, bound it from above and equal it only for independent positions.
void tst_CategoricalInformation::jointEntropyOfAHandMadeTable() {
    // Condition a: p(0,0) = 0.5 (given as 0.2 + 0.3), p(1,1) = 0.25, p(0,1) = 0.25.
    // Condition b: independent fair bits, p = 0.25 each.
    Result<data::CategoricalTable> table = data::makeCategoricalTable(
        2, 2, {0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1},
        {0.2, 0.3, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25}, {"a", "a", "a", "a", "b", "b", "b", "b"});
    QVERIFY2(table.ok(), table.ok() ? "" : table.error().toString().c_str());
    const double ha = -(0.5 * std::log(0.5) + 2 * 0.25 * std::log(0.25));  // 1.5 log 2
    const double hb = std::log(4.0);
    // Marginals under a: X1 = (0.75, 0.25), X2 = (0.5, 0.5).
    const double positionsA = -(0.75 * std::log(0.75) + 0.25 * std::log(0.25)) + std::log(2.0);
    const double positionsB = 2 * std::log(2.0);
    DataEntropy a = dataEntropy(*table, 0);
    DS_COMPARE_ABS(a.joint, ha, 1e-12);
    DS_COMPARE_ABS(a.positions, positionsA, 1e-12);
    QVERIFY(a.joint < a.positions);  // dependent positions: the sum overstates H
    DataEntropy b = dataEntropy(*table, 1);
    DS_COMPARE_ABS(b.joint, hb, 1e-12);
    DS_COMPARE_ABS(b.positions, positionsB, 1e-12);  // independent: equal
    DataEntropy both = dataEntropy(*table, -1);
    DS_COMPARE_ABS(both.joint, (ha + hb) / 2, 1e-12);
    DS_COMPARE_ABS(both.positions, (positionsA + positionsB) / 2, 1e-12);
    // The curves start at the positions' sum, not at the joint entropy.
    const InformationCurves curves =
        informationCurves(*table, *parsePrior("uniform:2"), evenTimeGrid(schedule::linearCurve(), 4), 0);
    DS_COMPARE_ABS(curves.mutualInformation.front(), a.positions, 1e-14);
}

// The curves start at H(X_0) (summed marginal entropies) and end at 0.
void tst_CategoricalInformation::curveEnds() {
    const data::CategoricalTable table = readTable("categorical_a5_joint.csv", 3);
    const Vector pi = *parsePrior("uniform:3");
    const InformationCurves curves = informationCurves(table, pi, evenTimeGrid(schedule::linearCurve(), 10));
    const double h = entropy(table.marginal(0, 0)) + entropy(table.marginal(0, 1));
    DS_COMPARE_ABS(curves.mutualInformation.front(), h, 1e-14);
    DS_COMPARE_ABS(curves.mutualInformation.back(), 0.0, 1e-15);
    for (size_t n = 1; n < curves.t.size(); ++n) {
        QVERIFY(curves.mutualInformation[n] <= curves.mutualInformation[n - 1]);
        QVERIFY(curves.impurity[n] >= curves.impurity[n - 1] - 1e-15);
    }
}

// docs/categorical.md#schedules: information-linear β(t) gives I(X_0;X_t) = (1 − t) I(X_0;X_0) on
// the grid.
void tst_CategoricalInformation::informationFractionLimits_data() {
    QTest::addColumn<double>("beta");
    QTest::addColumn<double>("expected");  // < 0: strictly between 0 and 1
    QTest::newRow("beta 0 keeps everything") << 0.0 << 1.0;
    QTest::newRow("beta 1 keeps nothing") << 1.0 << 0.0;
    QTest::newRow("beta 1e-9") << 1e-9 << -1.0;
    QTest::newRow("beta 0.5") << 0.5 << -1.0;
    QTest::newRow("beta 1 - 1e-9") << 1.0 - 1e-9 << -1.0;
}

// Σ_d I_d / Σ_d H_d over positions: the ends of the schedule, a constant position that adds
// nothing to either sum, and counts turned into marginals.
void tst_CategoricalInformation::informationFractionLimits() {
    QFETCH(double, beta);
    QFETCH(double, expected);
    // Three positions, K = 3, four examples; position 2 is constant (H = 0).
    const std::vector<int> classes = {0, 1, 2,  //
                                      1, 1, 2,  //
                                      2, 0, 2,  //
                                      0, 0, 2};
    const auto marginals = positionMarginals(classes, 3, 3);
    QCOMPARE(marginals.size(), size_t{3});
    DS_COMPARE_ABS(marginals[0][0], 0.5, 1e-15);
    DS_COMPARE_ABS(marginals[0][2], 0.25, 1e-15);
    DS_COMPARE_ABS(marginals[1][1], 0.5, 1e-15);
    DS_COMPARE_ABS(marginals[2][2], 1.0, 1e-15);
    Vector pi(3);
    pi << 0.2, 0.3, 0.5;
    const double fraction = informationFraction(marginals, pi, beta);
    if (expected >= 0.0) {
        DS_COMPARE_ABS(fraction, expected, 1e-12);
    } else {
        QVERIFY2(fraction > 0.0 && fraction < 1.0, qPrintable(QString::number(fraction, 'g', 17)));
        // The constant position changes nothing.
        const std::vector<Vector> varying = {marginals[0], marginals[1]};
        DS_COMPARE_ABS(informationFraction(varying, pi, beta), fraction, 1e-15);
    }
    // Only constant positions: no information to lose, and no division by zero.
    QCOMPARE(informationFraction({marginals[2]}, pi, beta), 0.0);
}

void tst_CategoricalInformation::informationLinearSchedule() {
    const data::CategoricalTable table = readTable("categorical_a5_joint.csv", 3);
    const Vector pi = *parsePrior("0.2,0.3,0.5");
    Result<schedule::BetaCurve> curve = schedule::parseBetaCurve(
        "info-linear", [&](double beta) { return tableMutualInformation(table, pi, beta); });
    DS_VERIFY_OK(curve);
    const TimeGrid grid = evenTimeGrid(*curve, 8);
    DS_VERIFY_OK(validateTimeGrid(grid));
    const double total = tableMutualInformation(table, pi, 0.0);
    for (int n = 0; n <= 8; ++n) {
        DS_COMPARE_ABS(tableMutualInformation(table, pi, grid.beta[n]), (1.0 - grid.t[n]) * total, 1e-12);
    }
}

// docs/categorical.md#degenerate-case: D = 1 with the exact F gives J(a, b) = I_a − I_b and the
// same cost H(X_0) for every trajectory.
void tst_CategoricalInformation::degenerateD1() {
    const data::CategoricalTable table = *data::makeCategoricalTable(1, 4, {0, 1, 2, 3}, {0.1, 0.2, 0.3, 0.4});
    const Vector pi = *parsePrior("0.1,0.1,0.1,0.7");
    model::TableOracle oracle(table, pi);
    const TimeGrid grid = evenTimeGrid(schedule::cosineCurve(), 12);
    Result<StepCosts> costs = computeStepCosts(table, oracle, pi, grid, CostPairs::All, {});
    DS_VERIFY_OK(costs);
    for (int b = 1; b <= 12; ++b) {
        for (int a = 0; a < b; ++a) {
            const double expected = tableMutualInformation(table, pi, grid.beta[a]) -
                                    tableMutualInformation(table, pi, grid.beta[b]);
            DS_COMPARE_ABS(costs->cost(a, b), expected, 1e-12);
        }
    }
    DS_COMPARE_ABS(negativeElbo(costs->cost, allNodes(12)), table.entropy(0), 1e-12);
    DS_COMPARE_ABS(negativeElbo(costs->cost, {0, 5, 12}), table.entropy(0), 1e-12);
}

// The Monte Carlo estimate agrees with the exact enumeration within 4 standard errors, for the
// joint (non-factorised) oracle on D = 2.
void tst_CategoricalInformation::exactMatchesMonteCarlo() {
    const data::CategoricalTable table = readTable("categorical_a5_joint.csv", 3);
    const Vector pi = *parsePrior("uniform:3");
    model::TableOracle oracle(table, pi);
    const TimeGrid grid = evenTimeGrid(schedule::linearCurve(), 6);
    Result<StepCosts> exact = computeStepCosts(table, oracle, pi, grid, CostPairs::Consecutive, {});
    Result<StepCosts> estimate = computeStepCosts(table, oracle, pi, grid, CostPairs::Consecutive,
                                                  {.samples = 4000, .seed = 5});
    DS_VERIFY_OK(exact);
    DS_VERIFY_OK(estimate);
    QVERIFY(estimate->monteCarlo);
    for (int b = 1; b <= 6; ++b) {
        const double se = estimate->standardError(b - 1, b);
        QVERIFY(se > 0.0);
        DS_COMPARE_ABS(estimate->cost(b - 1, b), exact->cost(b - 1, b), 4.0 * se);
    }
}

// A cancel is seen inside a column, before any column is finished (one column can take seconds
// on a large grid, K = 30 and N = 400); the result is the Cancelled error.
void tst_CategoricalInformation::cancelStopsWithinAColumn() {
    const data::CategoricalTable table =
        *data::makeCategoricalTable(1, 4, {0, 1, 2, 3}, {0.1, 0.2, 0.3, 0.4});
    const Vector pi = *parsePrior("0.1,0.1,0.1,0.7");
    model::TableOracle oracle(table, pi);
    QVERIFY(oracle.factorised());
    struct AbortAtOnce : ProgressObserver {
        std::vector<double> fractions;
        Control onProgress(double fraction, const std::string&) override {
            fractions.push_back(fraction);
            return Control::Abort;
        }
    } observer;
    Progress progress(&observer);
    StepCostOptions options;
    options.parallel.numThreads = 1;
    options.progress = &progress;
    Result<StepCosts> costs = computeStepCosts(
        table, oracle, pi, evenTimeGrid(schedule::cosineCurve(), 50), CostPairs::All, options);
    QVERIFY(!costs.ok());
    QVERIFY(costs.error().code == ErrorCode::Cancelled);
    QCOMPARE(observer.fractions.size(), size_t{1});
    QCOMPARE(observer.fractions[0], 0.0);  // consulted before the first column was done
}

// A joint model over K^D > maxEnumeration states needs samples.
void tst_CategoricalInformation::enumerationLimit() {
    const data::CategoricalTable table = readTable("categorical_a5_joint.csv", 3);
    const Vector pi = *parsePrior("uniform:3");
    model::TableOracle oracle(table, pi);
    Result<StepCosts> costs = computeStepCosts(table, oracle, pi, evenTimeGrid(schedule::linearCurve(), 3),
                                               CostPairs::Consecutive, {.maxEnumeration = 8});
    QVERIFY(!costs.ok());
    QCOMPARE(QString::fromStdString(costs.error().field), QString("samples"));
}

// The earlier reference figures; see tests/data/categorical_a5_joint.csv for the table used
// and why the figures are matched only to the stated tolerances.
void tst_CategoricalInformation::referenceFiguresA5() {
    const data::CategoricalTable table = readTable("categorical_a5_joint.csv", 3);
    const Vector pi = *parsePrior("uniform:3");
    model::TableOracle oracle(table, pi);  // each position's exact marginal posterior given x_t
    const TimeGrid grid = evenTimeGrid(schedule::linearCurve(), 20);
    Result<StepCosts> costs = computeStepCosts(table, oracle, pi, grid, CostPairs::All, {});
    DS_VERIFY_OK(costs);
    const double nll = table.entropy(0);
    const double elbo20 = negativeElbo(costs->cost, allNodes(20));
    Result<trajectory::LeastCostPath> best = trajectory::leastCostPath(costs->cost, 5);
    DS_VERIFY_OK(best);
    const double even5 = negativeElbo(costs->cost, *trajectory::categoricalEvenTrajectory(20, 5));
    qInfo("A.5: NLL %.5f, 20-step ELBO %.5f, best 5-step %.5f, even 5-step %.5f", nll, elbo20, best->cost, even5);
    // The optimal 5-step path is t = 0, .1, .2, .35, .55, 1 as the reference figures state.
    QVERIFY(best->nodes == (std::vector<int>{0, 2, 4, 7, 11, 20}));
    DS_COMPARE_ABS(nll, 1.6095, A5_TOLERANCE_NLL);
    DS_COMPARE_ABS(elbo20, 1.6472, A5_TOLERANCE);
    DS_COMPARE_ABS(best->cost, 1.7286, A5_TOLERANCE);
    DS_COMPARE_ABS(even5, 1.7699, A5_TOLERANCE);
    QVERIFY(nll < elbo20 && elbo20 < best->cost && best->cost < even5);
}

void tst_CategoricalInformation::dpMatchesBruteForce_data() {
    QTest::addColumn<int>("numSteps");
    QTest::addColumn<uint64_t>("seed");
    QTest::newRow("N=6") << 6 << uint64_t{1};
    QTest::newRow("N=9") << 9 << uint64_t{2};
    QTest::newRow("N=9 ties") << 9 << uint64_t{0};
}

// The least-cost path for every K equals the minimum over all C(N−1, K−1) paths.
void tst_CategoricalInformation::dpMatchesBruteForce() {
    QFETCH(int, numSteps);
    QFETCH(uint64_t, seed);
    const int m = numSteps + 1;
    Matrix cost = Matrix::Constant(m, m, 0.0);
    CounterRng rng(seed, 0, 0);
    for (int b = 1; b < m; ++b) {
        for (int a = 0; a < b; ++a) {
            // seed 0: integer costs, so many ties.
            cost(a, b) = seed == 0 ? std::floor(3.0 * rng.uniform()) : rng.uniform() * (b - a + 0.5);
        }
    }
    Result<std::vector<trajectory::LeastCostPath>> paths = trajectory::leastCostPathsUpTo(cost, numSteps);
    DS_VERIFY_OK(paths);
    for (int k = 1; k <= numSteps; ++k) {
        double bestCost = std::numeric_limits<double>::infinity();
        for (int mask = 0; mask < (1 << (numSteps - 1)); ++mask) {
            if (__builtin_popcount(mask) != k - 1) {
                continue;
            }
            std::vector<int> nodes{0};
            for (int n = 1; n < numSteps; ++n) {
                if (mask & (1 << (n - 1))) {
                    nodes.push_back(n);
                }
            }
            nodes.push_back(numSteps);
            bestCost = std::min(bestCost, negativeElbo(cost, nodes));
        }
        const trajectory::LeastCostPath& path = (*paths)[k - 1];
        QCOMPARE(int(path.nodes.size()), k + 1);
        DS_COMPARE_ABS(path.cost, bestCost, 1e-12);
        DS_COMPARE_ABS(negativeElbo(cost, path.nodes), path.cost, 1e-12);
        Result<trajectory::LeastCostPath> single = trajectory::leastCostPath(cost, k);
        DS_VERIFY_OK(single);
        QVERIFY(single->nodes == path.nodes);
    }
}

void tst_CategoricalInformation::costsThreadIndependent() {
    const data::CategoricalTable table = readTable("categorical_a5_joint.csv", 3);
    const Vector pi = *parsePrior("uniform:3");
    model::TableOracle oracle(table, pi);
    const TimeGrid grid = evenTimeGrid(schedule::linearCurve(), 8);
    Matrix results[2];
    for (int threads : {1, 2}) {
        Result<StepCosts> costs = computeStepCosts(table, oracle, pi, grid, CostPairs::All,
                                                   {.samples = 200, .seed = 3, .parallel = {threads}});
        DS_VERIFY_OK(costs);
        results[threads - 1] = costs->cost;
    }
    QVERIFY(results[0] == results[1]);
}

QTEST_GUILESS_MAIN(tst_CategoricalInformation)
#include "tst_categorical_information.moc"
