// SPDX-License-Identifier: MIT
// Tests of core/project/categorical_runs: the step costs' DP path is the cheapest of every
// path (enumerated here), the ELBOs are plain sums of the returned costs, and the sampled chains
// are deterministic for a seed and follow their exact marginals (computed here from
// P_{0,t} = (1 − β(t))I + β(t)1πᵀ, and, for the closed-form kernel, the data at t = 0).
#include <QTest>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "core/project/categorical_runs.h"
#include "core/project/categorical_setup.h"
#include "tests/support/test_support.h"

using core::project::CategoricalParams;

namespace {

std::shared_ptr<const core::project::CategoricalSetup> buildSetup(const CategoricalParams& p) {
    auto setup = core::project::CategoricalSetup::build(p, core::project::SetupSources{});
    if (!setup) qFatal("%s", setup.error().toString().c_str());
    return *setup;
}

double pathCost(const core::Matrix& cost, const std::vector<int>& nodes) {
    double sum = 0.0;
    for (size_t i = 1; i < nodes.size(); ++i) sum += cost(nodes[i - 1], nodes[i]);
    return sum;
}

// Every path 0 = n_0 < n_1 < … < n_k = N, by recursion over the next node.
void enumeratePaths(int numSteps, int k, std::vector<int>& path,
                    const std::function<void(const std::vector<int>&)>& visit) {
    const int left = k - (static_cast<int>(path.size()) - 1);
    if (left == 0) {
        if (path.back() == numSteps) visit(path);
        return;
    }
    for (int next = path.back() + 1; next <= numSteps - (left - 1); ++next) {
        path.push_back(next);
        enumeratePaths(numSteps, k, path, visit);
        path.pop_back();
    }
}

}  // namespace

class tst_CategoricalRuns : public QObject {
    Q_OBJECT

private slots:
    void dpPathIsTheCheapestOfAllPaths_data();
    void dpPathIsTheCheapestOfAllPaths();
    void chainsFollowTheirExactMarginals();
    void maskedCostsCarryTheContinuousElbo();
    void allConditionsAverageTheConditions();
};

void tst_CategoricalRuns::dpPathIsTheCheapestOfAllPaths_data() {
    QTest::addColumn<int>("kernel");
    QTest::addColumn<int>("numSteps");
    QTest::addColumn<int>("pathSteps");
    QTest::newRow("closed form, N = 10, K = 3") << 0 << 10 << 3;
    QTest::newRow("D3PM-style, N = 12, K = 4") << 1 << 12 << 4;
    QTest::newRow("D3PM-style, N = 9, K = 9 (the full grid)") << 1 << 9 << 9;
}

void tst_CategoricalRuns::dpPathIsTheCheapestOfAllPaths() {
    QFETCH(int, kernel);
    QFETCH(int, numSteps);
    QFETCH(int, pathSteps);
    CategoricalParams p = CategoricalParams::example();
    p.kernel = kernel == 0 ? core::categorical::KernelForm::Closed
                           : core::categorical::KernelForm::D3pm;
    p.numSteps = numSteps;
    p.pathSteps = pathSteps;
    p.trajectory = core::project::CategoricalTrajectory::Dp;
    const auto setup = buildSetup(p);
    core::Progress progress;
    auto costs = core::project::computeCategoricalCosts(*setup, progress, 2);
    DS_VERIFY_OK(costs);
    QVERIFY(costs->dpAvailable);
    const core::Matrix& j = costs->costs.cost;

    double best = std::numeric_limits<double>::infinity();
    int paths = 0;
    std::vector<int> path{0};
    enumeratePaths(numSteps, pathSteps, path, [&](const std::vector<int>& nodes) {
        best = std::min(best, pathCost(j, nodes));
        ++paths;
    });
    QVERIFY(paths > 0);
    QCOMPARE(static_cast<int>(costs->dpNodes.size()), pathSteps + 1);
    QCOMPARE(costs->dpNodes.front(), 0);
    QCOMPARE(costs->dpNodes.back(), numSteps);
    DS_COMPARE_REL(pathCost(j, costs->dpNodes), best, 1e-12);
    DS_COMPARE_REL(costs->elboDp, best, 1e-12);
    DS_COMPARE_REL(costs->elboEven, pathCost(j, costs->evenNodes), 1e-15);
    std::vector<int> full(numSteps + 1);
    for (int n = 0; n <= numSteps; ++n) full[n] = n;
    DS_COMPARE_REL(costs->elboFull, pathCost(j, full), 1e-15);
    QVERIFY(costs->elboDp <= costs->elboEven * (1 + 1e-12));
}

void tst_CategoricalRuns::chainsFollowTheirExactMarginals() {
    CategoricalParams p = CategoricalParams::example();
    p.numSteps = 20;
    p.pathSteps = 5;
    p.numChains = 4000;
    p.seed = 7;
    const auto setup = buildSetup(p);
    const std::vector<int> nodes = setup->nominalTrajectory();
    core::Progress progress;
    auto chains = core::project::sampleCategoricalChains(*setup, nodes, progress);
    DS_VERIFY_OK(chains);
    core::Progress again;
    auto repeat = core::project::sampleCategoricalChains(*setup, nodes, again);
    DS_VERIFY_OK(repeat);
    QVERIFY(chains->forward == repeat->forward);
    QVERIFY(chains->reverse == repeat->reverse);

    const int k = p.numClasses;
    std::vector<double> p0(k, 0.0);
    for (int c = 0; c < k; ++c) p0[c] = p.table[p.condition][c];
    for (size_t i = 0; i < nodes.size(); ++i) {
        const double t = chains->times[i];
        DS_COMPARE_ABS(t, static_cast<double>(nodes[i]) / p.numSteps, 1e-15);
        const double beta = setup->curve(t);
        std::vector<double> forwardCounts(k, 0.0), reverseCounts(k, 0.0);
        for (int s : chains->forward[i]) forwardCounts[s] += 1.0 / p.numChains;
        for (int s : chains->reverse[i]) reverseCounts[s] += 1.0 / p.numChains;
        for (int c = 0; c < k; ++c) {
            // p_t(c) = (1 − β)p_0(c) + β π_c, the forward marginal at every node.
            const double exact = (1.0 - beta) * p0[c] + beta * p.pi[c];
            DS_COMPARE_ABS(chains->forwardMarginals[i][c], exact, 1e-12);
            // The closed-form kernel with the exact denoiser reverses the forward process: the
            // same marginal at every node.
            DS_COMPARE_ABS(chains->reverseMarginals[i][c], exact, 1e-12);
            // 4000 chains: a standard error of at most √(0.25/4000) = 0.0079; 5 of them.
            DS_COMPARE_ABS(forwardCounts[c], exact, 0.04);
            DS_COMPARE_ABS(reverseCounts[c], exact, 0.04);
        }
    }
}

// With the mask state the costs carry the continuous-time negative ELBO, H(X_0 | C) summed here
// directly, and the N-step ELBOs at N = 1 … 1000: all equal to it for D = 1, above it and falling
// for the correlated D = 2 table. With absorbing π on data that use the mask: the reason.
void tst_CategoricalRuns::maskedCostsCarryTheContinuousElbo() {
    CategoricalParams p = CategoricalParams::example();
    p.numSteps = 20;
    p.maskState = true;
    core::Progress progress;
    auto one = core::project::computeCategoricalCosts(*buildSetup(p), progress, 2);
    DS_VERIFY_OK(one);
    double h = 0.0;
    for (double q : p.table[0]) h -= q * std::log(q);
    QVERIFY(one->continuousElbo.has_value());
    DS_COMPARE_ABS(one->continuousElbo->value, h, 1e-13);
    QCOMPARE(one->elboByN.size(), size_t{10});
    QCOMPARE(one->elboByN.front().first, 1);
    QCOMPARE(one->elboByN.back().first, 1000);
    for (const auto& [n, elbo] : one->elboByN) DS_COMPARE_ABS(elbo, h, 1e-12);

    CategoricalParams joint = p;
    joint.dataSource = core::project::CategoricalData::CsvFile;
    joint.csvPath = test_support::dataPathStd("categorical_a5_joint.csv");
    joint = joint.withNumClasses(3);
    joint.conditionNames = {""};
    joint.table = {{1.0 / 3, 1.0 / 3, 1.0 / 3}};
    auto two = core::project::computeCategoricalCosts(*buildSetup(joint), progress, 2);
    DS_VERIFY_OK(two);
    const double hJoint = -3 * 0.2855 * std::log(0.2855) -
                          (1 - 3 * 0.2855) * std::log((1 - 3 * 0.2855) / 6);
    DS_COMPARE_ABS(two->continuousElbo->value, hJoint, 1e-13);
    QVERIFY(two->elboByN.size() >= 4);
    double previous = std::numeric_limits<double>::infinity();
    for (const auto& [n, elbo] : two->elboByN) {
        QVERIFY2(elbo > hJoint && elbo < previous, qPrintable(QString("N = %1: %2").arg(n).arg(elbo)));
        previous = elbo;
    }
    QVERIFY(previous - hJoint < 1e-3);

    CategoricalParams plain = CategoricalParams::example();
    plain.numSteps = 20;
    auto none = core::project::computeCategoricalCosts(*buildSetup(plain), progress, 2);
    DS_VERIFY_OK(none);
    QVERIFY(!none->continuousElbo && none->elboByN.empty() && none->maskedNote.empty());
    plain.pi = {0.0, 0.0, 0.0, 1.0};  // the last class is the mask, and condition 0 has 0.5 on it
    auto shared = core::project::computeCategoricalCosts(*buildSetup(plain), progress, 2);
    DS_VERIFY_OK(shared);
    QVERIFY(!shared->continuousElbo);
    QVERIFY2(shared->maskedNote.rfind("table = p(x1 = 3 | c = 0) ≥ 0.5: ", 0) == 0,
             shared->maskedNote.c_str());
}

// kAllConditions: every step cost, the ELBOs, the continuous ELBO of the mask state and the data
// marginal are the plain means of the two conditions' runs; the chains are refused.
void tst_CategoricalRuns::allConditionsAverageTheConditions() {
    CategoricalParams p = CategoricalParams::example();
    p.numSteps = 12;
    p.pathSteps = 4;
    for (bool mask : {false, true}) {
        p.maskState = mask;
        core::Progress progress;
        std::vector<core::project::CategoricalCosts> each;
        std::vector<core::Vector> marginals;
        for (int c : {0, 1}) {
            CategoricalParams one = p;
            one.condition = c;
            auto setup = buildSetup(one);
            marginals.push_back(setup->dataMarginal);
            auto costs = core::project::computeCategoricalCosts(*setup, progress, 2);
            DS_VERIFY_OK(costs);
            each.push_back(*costs);
        }
        CategoricalParams all = p;
        all.condition = core::project::kAllConditions;
        DS_VERIFY_OK(all.validate());
        auto setup = buildSetup(all);
        auto costs = core::project::computeCategoricalCosts(*setup, progress, 2);
        DS_VERIFY_OK(costs);
        for (int b = 1; b <= p.numSteps; ++b) {
            for (int a = 0; a < b; ++a) {
                const double mean = (each[0].costs.cost(a, b) + each[1].costs.cost(a, b)) / 2.0;
                DS_COMPARE_ABS(costs->costs.cost(a, b), mean, 1e-14);
            }
        }
        double elbo = 0.0;
        for (int b = 1; b <= p.numSteps; ++b) {
            elbo += (each[0].costs.cost(b - 1, b) + each[1].costs.cost(b - 1, b)) / 2.0;
        }
        DS_COMPARE_ABS(costs->elboFull, elbo, 1e-13);
        DS_COMPARE_ABS(costs->elboFull, (each[0].elboFull + each[1].elboFull) / 2.0, 1e-13);
        for (int k = 0; k < p.numClasses; ++k) {
            DS_COMPARE_ABS(setup->dataMarginal[k], (p.table[0][k] + p.table[1][k]) / 2.0, 1e-15);
        }
        QCOMPARE(mask, costs->continuousElbo.has_value());
        if (mask) {
            // H(X_0 | C) of each condition, averaged.
            double h = 0.0;
            for (const auto& column : p.table) {
                for (double q : column) h -= q * std::log(q) / 2.0;
            }
            DS_COMPARE_ABS(costs->continuousElbo->value, h, 1e-13);
            DS_COMPARE_ABS(costs->continuousElbo->value,
                           (each[0].continuousElbo->value + each[1].continuousElbo->value) / 2.0,
                           1e-13);
        }
        auto chains = core::project::sampleCategoricalChains(*setup, {0, 6, 12}, progress);
        QVERIFY(!chains);
        QCOMPARE(chains.error().field, std::string("condition"));
    }
}

QTEST_MAIN(tst_CategoricalRuns)
#include "tst_categorical_runs.moc"
