// SPDX-License-Identifier: MIT
#include <QTest>

#include <cmath>
#include <functional>
#include <limits>

#include "core/gaussian/trajectory_dp.h"
#include "core/model/gaussian_oracles.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/trajectory/least_cost_path.h"
#include "tests/support/test_support.h"

namespace {

// Exact Γ of N(0, s²I) data (docs/gaussian.md#exact-oracles) as a table with entry 0 unused.
std::vector<double> exactGaussianGamma(const core::schedule::GaussianSchedule& schedule, double s) {
    std::vector<double> gamma(static_cast<size_t>(schedule.numSteps()) + 1, 0.0);
    for (int n = 1; n <= schedule.numSteps(); ++n) {
        gamma[n] = 1.0 / (schedule.alphaBar(n) * s * s + schedule.betaBar(n));
    }
    return gamma;
}

// Least Σ cost over every path 1 = τ_1 < … < τ_K = N, by enumeration.
double bruteForce(const core::Matrix& cost, int numNodes, std::vector<int>& best) {
    const int n = static_cast<int>(cost.rows());
    double bestCost = std::numeric_limits<double>::infinity();
    std::vector<int> path{0};
    std::function<void(int)> extend = [&](int remaining) {
        if (remaining == 1) {
            path.push_back(n - 1);
            double total = 0.0;
            for (size_t k = 1; k < path.size(); ++k) {
                total += cost(path[k - 1], path[k]);
            }
            if (total < bestCost) {
                bestCost = total;
                best = path;
            }
            path.pop_back();
            return;
        }
        for (int next = path.back() + 1; next < n - 1; ++next) {
            path.push_back(next);
            extend(remaining - 1);
            path.pop_back();
        }
    };
    extend(numNodes - 1);
    for (int& node : best) {
        ++node;  // to timesteps
    }
    return bestCost;
}

}  // namespace

class tst_GaussianTrajectory : public QObject {
    Q_OBJECT

private slots:
    void evenTies();
    void quadratic();
    void dpAgainstBruteForce_data();
    void dpAgainstBruteForce();
    void dpOneKAgainstAllK();
    void costMatrixProperties();
    void segmented();
    void resolveSpecs();
};

// docs/gaussian.md#trajectories: N = 1000, K = 25 has exact ties 167.5 → 168, 500.5 → 500,
// 833.5 → 834.
void tst_GaussianTrajectory::evenTies() {
    auto even = core::trajectory::gaussianEvenTrajectory(1000, 25);
    DS_VERIFY_OK(even);
    QCOMPARE(static_cast<int>(even->size()), 25);
    QCOMPARE(even->front(), 1);
    QCOMPARE(even->back(), 1000);
    QCOMPARE((*even)[4], 168);
    QCOMPARE((*even)[12], 500);
    QCOMPARE((*even)[20], 834);
    QCOMPARE((*even)[1], 43);  // 1 + 41.625 = 42.625
}

void tst_GaussianTrajectory::quadratic() {
    auto quad = core::trajectory::gaussianQuadraticTrajectory(1000, 10);
    DS_VERIFY_OK(quad);
    QCOMPARE(quad->timesteps.front(), 1);
    QCOMPARE(quad->timesteps.back(), 801);
    QCOMPARE(quad->duplicatesRemoved, 0);
    auto dense = core::trajectory::gaussianQuadraticTrajectory(1000, 200);
    DS_VERIFY_OK(dense);
    QVERIFY(dense->duplicatesRemoved > 0);
    QCOMPARE(static_cast<int>(dense->timesteps.size()) + dense->duplicatesRemoved, 200);
}

void tst_GaussianTrajectory::dpAgainstBruteForce_data() {
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<double>("s");
    QTest::newRow("N8-K3") << 8 << 3 << 0.5;
    QTest::newRow("N10-K4") << 10 << 4 << 0.2;
    QTest::newRow("N12-K5") << 12 << 5 << 1.0;
    QTest::newRow("N12-K2") << 12 << 2 << 0.5;
    QTest::newRow("N9-K9") << 9 << 9 << 0.5;
}

void tst_GaussianTrajectory::dpAgainstBruteForce() {
    QFETCH(int, steps);
    QFETCH(int, nodes);
    QFETCH(double, s);
    // A short cosine schedule makes the costs vary strongly between edges.
    auto schedule = core::schedule::cosineSchedule(steps);
    DS_VERIFY_OK(schedule);
    const auto gamma = exactGaussianGamma(*schedule, s);
    auto cost = core::gaussian::dpCostMatrix(*schedule, gamma);
    DS_VERIFY_OK(cost);
    std::vector<int> expected;
    const double bestCost = bruteForce(*cost, nodes, expected);
    auto dp = core::gaussian::dpTrajectory(*schedule, gamma, nodes);
    DS_VERIFY_OK(dp);
    DS_COMPARE_REL(dp->cost, bestCost, 1e-12);
    DS_COMPARE_REL(core::gaussian::trajectoryCost(*cost, dp->timesteps), bestCost, 1e-12);
    QCOMPARE(dp->timesteps.front(), 1);
    QCOMPARE(dp->timesteps.back(), steps);
    QCOMPARE(static_cast<int>(dp->timesteps.size()), nodes);
}

void tst_GaussianTrajectory::dpOneKAgainstAllK() {
    auto schedule = core::schedule::linearSchedule(120);
    DS_VERIFY_OK(schedule);
    const auto gamma = exactGaussianGamma(*schedule, 0.3);
    auto all = core::gaussian::dpTrajectoriesUpTo(*schedule, gamma, 120,
                                                  {.parallel = {.numThreads = 2}});
    DS_VERIFY_OK(all);
    QCOMPARE(static_cast<int>(all->size()), 119);
    for (int k : {2, 3, 10, 25, 60, 119, 120}) {
        auto one = core::gaussian::dpTrajectory(*schedule, gamma, k);
        DS_VERIFY_OK(one);
        const auto& swept = (*all)[static_cast<size_t>(k - 2)];
        QCOMPARE(one->timesteps, swept.timesteps);
        DS_COMPARE_REL(one->cost, swept.cost, 1e-12);
    }
    // K = N visits every timestep.
    QCOMPARE(static_cast<int>((*all).back().timesteps.size()), 120);
}

void tst_GaussianTrajectory::costMatrixProperties() {
    auto schedule = core::schedule::linearSchedule(200);
    DS_VERIFY_OK(schedule);
    auto gamma = exactGaussianGamma(*schedule, 0.5);
    gamma[150] *= 5.0;  // over its bound: β̄Γ > 1
    auto cost = core::gaussian::dpCostMatrix(*schedule, gamma);
    DS_VERIFY_OK(cost);
    for (int t = 2; t <= 200; ++t) {
        for (int s = 1; s < t; ++s) {
            const double j = (*cost)(s - 1, t - 1);
            QVERIFY(std::isfinite(j) && j >= 0.0);
            // J = log(σ²/λ²) from the clipped σ² of B.4.
            auto p = core::gaussian::pairVariance(*schedule, gamma, s, t);
            DS_VERIFY_OK(p);
            DS_COMPARE_ABS(j, std::log(p->sigma2 / p->lambda2), 1e-10);
        }
    }
    QCOMPARE((*cost)(10, 149), 0.0);  // clipped: every edge into 150 is free
    const auto flagged = core::gaussian::gammaOverBound(*schedule, gamma);
    QCOMPARE(flagged, std::vector<int>{150});
    gamma[7] = std::nan("");
    QVERIFY(!core::gaussian::dpCostMatrix(*schedule, gamma).ok());
}

void tst_GaussianTrajectory::segmented() {
    auto schedule = core::schedule::linearSchedule(1000);
    DS_VERIFY_OK(schedule);
    auto gamma = exactGaussianGamma(*schedule, 0.5);
    // Over the bound from n = 951: n_bad = 2·50 = 100, N₁ = 900, K₁ = ⌈0.92·K⌉.
    for (int n = 951; n <= 1000; ++n) {
        gamma[n] = 1.2 / schedule->betaBar(n);
    }
    core::gaussian::DpOptions options{.variant = core::gaussian::DpVariant::Segmented};
    auto dp = core::gaussian::dpTrajectory(*schedule, gamma, 25, options);
    DS_VERIFY_OK(dp);
    QCOMPARE(dp->numBad, 100);
    QCOMPARE(dp->dpEnd, 900);
    QCOMPARE(static_cast<int>(dp->timesteps.size()), 25);
    // K₁ = ⌈23⌉ = 23 DP nodes end at 900; K₂ = 2 placed as round(1000 − 50k), k = 1, 0.
    QCOMPARE(dp->timesteps[22], 900);
    QCOMPARE(dp->timesteps[23], 950);
    QCOMPARE(dp->timesteps[24], 1000);
    QCOMPARE(static_cast<int>(dp->gammaOverBound.size()), 50);
    // The crash case of the paper code is an error here.
    for (int n = 400; n <= 1000; ++n) {
        gamma[n] = 1.2 / schedule->betaBar(n);
    }
    auto bad = core::gaussian::dpTrajectory(*schedule, gamma, 25, options);
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().message.find("segmented") != std::string::npos);
    // Clipped still answers, and flags the timesteps.
    auto clipped = core::gaussian::dpTrajectory(*schedule, gamma, 25);
    DS_VERIFY_OK(clipped);
    QCOMPARE(static_cast<int>(clipped->gammaOverBound.size()), 601);
}

void tst_GaussianTrajectory::resolveSpecs() {
    auto schedule = core::schedule::linearSchedule(1000);
    DS_VERIFY_OK(schedule);
    const auto gamma = exactGaussianGamma(*schedule, 0.5);
    auto even = core::gaussian::resolveTrajectory("even:25", *schedule, nullptr);
    DS_VERIFY_OK(even);
    QCOMPARE((*even).timesteps[4], 168);
    auto list = core::gaussian::resolveTrajectory("list:1,10,500,1000", *schedule, nullptr);
    DS_VERIFY_OK(list);
    QCOMPARE(list->timesteps, (std::vector<int>{1, 10, 500, 1000}));
    auto dp = core::gaussian::resolveTrajectory("dp:10", *schedule, &gamma);
    DS_VERIFY_OK(dp);
    QVERIFY(dp->hasCost);
    QVERIFY(!core::gaussian::resolveTrajectory("dp:10", *schedule, nullptr).ok());
    QVERIFY(!core::gaussian::resolveTrajectory("list:1,5,5,1000", *schedule, nullptr).ok());
    QVERIFY(!core::gaussian::resolveTrajectory("even:1", *schedule, nullptr).ok());
    QVERIFY(!core::gaussian::resolveTrajectory("even:x", *schedule, nullptr).ok());
    QVERIFY(!core::gaussian::resolveTrajectory("spiral:3", *schedule, nullptr).ok());
}

QTEST_GUILESS_MAIN(tst_GaussianTrajectory)
#include "tst_gaussian_trajectory.moc"
