// SPDX-License-Identifier: MIT
// Tests of the shared least-cost-path DP (docs/conventions.md#dp-cost) against brute-force
// enumeration.
#include <QTest>

#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "core/trajectory/least_cost_path.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

using core::Matrix;
using core::trajectory::LeastCostPath;

namespace {

// Random non-negative costs; with `integerCosts` many paths tie, which exercises tie-breaking.
Matrix randomCosts(int m, uint64_t seed, bool integerCosts) {
    Matrix cost = Matrix::Constant(m, m, std::numeric_limits<double>::quiet_NaN());
    for (int s = 0; s < m; ++s) {
        for (int t = s + 1; t < m; ++t) {
            core::CounterRng rng(seed, static_cast<uint64_t>(s), static_cast<uint64_t>(t));
            cost(s, t) = integerCosts ? std::floor(rng.uniform() * 3.0) : rng.uniform();
        }
    }
    return cost;  // the lower triangle stays NaN: the DP must never read it
}

// Enumerates every increasing path 0 → m−1 with `edges` edges; ties go to the path whose node
// list is lexicographically smallest when read from the end backwards (smallest predecessor).
LeastCostPath bruteForce(const Matrix& cost, int edges) {
    const int m = static_cast<int>(cost.rows());
    LeastCostPath best;
    best.cost = std::numeric_limits<double>::infinity();
    std::vector<int> nodes(static_cast<size_t>(edges) + 1);
    nodes[0] = 0;
    nodes[edges] = m - 1;
    auto reversedLess = [](const std::vector<int>& a, const std::vector<int>& b) {
        for (size_t i = a.size(); i-- > 0;) {
            if (a[i] != b[i]) {
                return a[i] < b[i];
            }
        }
        return false;
    };
    std::function<void(int, int)> recurse = [&](int position, int from) {
        if (position == edges) {
            double total = 0.0;
            for (int k = 1; k <= edges; ++k) {
                total += cost(nodes[k - 1], nodes[k]);
            }
            if (total < best.cost || (total == best.cost && reversedLess(nodes, best.nodes))) {
                best.cost = total;
                best.nodes = nodes;
            }
            return;
        }
        for (int n = from + 1; n <= m - 1 - (edges - position); ++n) {
            nodes[position] = n;
            recurse(position + 1, n);
        }
    };
    if (edges == 1) {
        best.nodes = {0, m - 1};
        best.cost = cost(0, m - 1);
        return best;
    }
    recurse(1, 0);
    return best;
}

}  // namespace

class tst_LeastCostPath : public QObject {
    Q_OBJECT

private slots:
    void matchesBruteForce_data();
    void matchesBruteForce();
    void allCountsMatchOneCount();
    void sameForOneAndTwoThreads();
    void forbiddenEdgesAreAvoided();
    void rejectsBadInput();
    void categoricalEvenTrajectory_data();
    void categoricalEvenTrajectory();
    void validatesUserLists();
};

void tst_LeastCostPath::matchesBruteForce_data() {
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("edges");
    QTest::addColumn<bool>("integerCosts");
    for (int m : {2, 3, 5, 8, 11}) {
        for (int e = 1; e <= m - 1; ++e) {
            for (bool integer : {false, true}) {
                QTest::addRow("M=%d E=%d %s", m, e, integer ? "ties" : "real")
                    << m << e << integer;
            }
        }
    }
}

// The DP's cost equals the minimum over all C(M−2, E−1) paths; with tied integer costs the
// chosen path is the one the smallest-predecessor rule picks.
void tst_LeastCostPath::matchesBruteForce() {
    QFETCH(int, nodes);
    QFETCH(int, edges);
    QFETCH(bool, integerCosts);
    const Matrix cost = randomCosts(nodes, 17 + nodes * 31 + edges, integerCosts);
    const auto dp = core::trajectory::leastCostPath(cost, edges);
    DS_VERIFY_OK(dp);
    const LeastCostPath expected = bruteForce(cost, edges);
    DS_COMPARE_ABS(dp->cost, expected.cost, 1e-12);
    QCOMPARE(dp->nodes, expected.nodes);
}

void tst_LeastCostPath::allCountsMatchOneCount() {
    const int m = 40;
    const Matrix cost = randomCosts(m, 3, false);
    const auto all = core::trajectory::leastCostPathsUpTo(cost, m - 1);
    DS_VERIFY_OK(all);
    QCOMPARE(static_cast<int>(all->size()), m - 1);
    for (int e = 1; e <= m - 1; ++e) {
        const auto one = core::trajectory::leastCostPath(cost, e);
        DS_VERIFY_OK(one);
        QCOMPARE((*all)[e - 1].nodes, one->nodes);
        QCOMPARE((*all)[e - 1].cost, one->cost);
    }
    // With every node visited there is one path only.
    QCOMPARE(static_cast<int>(all->back().nodes.size()), m);
}

void tst_LeastCostPath::sameForOneAndTwoThreads() {
    const Matrix cost = randomCosts(300, 11, true);
    const auto one = core::trajectory::leastCostPath(cost, 25, {.numThreads = 1});
    const auto two = core::trajectory::leastCostPath(cost, 25, {.numThreads = 2});
    DS_VERIFY_OK(one);
    DS_VERIFY_OK(two);
    QCOMPARE(one->nodes, two->nodes);
    QCOMPARE(one->cost, two->cost);
}

void tst_LeastCostPath::forbiddenEdgesAreAvoided() {
    Matrix cost = Matrix::Ones(4, 4);
    cost(0, 1) = std::numeric_limits<double>::infinity();
    const auto path = core::trajectory::leastCostPath(cost, 2);
    DS_VERIFY_OK(path);
    QCOMPARE(path->nodes, (std::vector<int>{0, 2, 3}));
    // Every edge forbidden: no finite path, a clear error rather than an infinite cost.
    const Matrix none = Matrix::Constant(4, 4, std::numeric_limits<double>::infinity());
    QVERIFY(!core::trajectory::leastCostPath(none, 2).ok());
}

void tst_LeastCostPath::rejectsBadInput() {
    Matrix cost = Matrix::Ones(5, 5);
    QVERIFY(!core::trajectory::leastCostPath(cost, 0).ok());
    QVERIFY(!core::trajectory::leastCostPath(cost, 5).ok());
    QVERIFY(!core::trajectory::leastCostPath(Matrix::Ones(3, 4), 1).ok());
    cost(1, 3) = std::numeric_limits<double>::quiet_NaN();
    const auto nan = core::trajectory::leastCostPath(cost, 2);
    QVERIFY(!nan.ok());
    QCOMPARE(QString::fromStdString(nan.error().field), QString("cost(1, 3)"));
}

void tst_LeastCostPath::categoricalEvenTrajectory_data() {
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("pathSteps");
    QTest::addColumn<QList<int>>("expected");
    QTest::newRow("N=20 K=5") << 20 << 5 << QList<int>{0, 4, 8, 12, 16, 20};
    QTest::newRow("N=10 K=4 halves round up") << 10 << 4 << QList<int>{0, 3, 5, 8, 10};
    QTest::newRow("N=K") << 3 << 3 << QList<int>{0, 1, 2, 3};
    QTest::newRow("K=1") << 7 << 1 << QList<int>{0, 7};
}

void tst_LeastCostPath::categoricalEvenTrajectory() {
    QFETCH(int, steps);
    QFETCH(int, pathSteps);
    QFETCH(QList<int>, expected);
    const auto nodes = core::trajectory::categoricalEvenTrajectory(steps, pathSteps);
    DS_VERIFY_OK(nodes);
    QCOMPARE(QList<int>(nodes->begin(), nodes->end()), expected);
    QVERIFY(!core::trajectory::categoricalEvenTrajectory(steps, steps + 1).ok());
}

void tst_LeastCostPath::validatesUserLists() {
    using core::trajectory::validateTrajectory;
    QVERIFY(validateTrajectory({0, 3, 10}, 0, 10, "list").ok());
    const auto repeated = validateTrajectory({0, 3, 3, 10}, 0, 10, "list");
    QVERIFY(!repeated.ok());
    QCOMPARE(QString::fromStdString(repeated.error().field), QString("list[2]"));
    QVERIFY(!validateTrajectory({1, 3, 10}, 0, 10, "list").ok());
    QVERIFY(!validateTrajectory({0, 3, 9}, 0, 10, "list").ok());
    QVERIFY(!validateTrajectory({0}, 0, 0, "list").ok());
}

QTEST_GUILESS_MAIN(tst_LeastCostPath)
#include "tst_least_cost_path.moc"
