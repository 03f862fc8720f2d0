// SPDX-License-Identifier: MIT
// The shared least-cost-path DP against a straightforward O(E·M²) reference: the same nodes and
// the same costs bit for bit, on random and structured matrices (ties, forbidden edges, Monge
// and not), for every edge count, one at a time and all at once, with 1 and 2 threads.
#include <QTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/gaussian/trajectory_dp.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/trajectory/least_cost_path.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

using core::Matrix;
using core::trajectory::LeastCostPath;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The DP as first written: layer by layer, every predecessor in increasing order, a strictly
// smaller sum replaces the best so far (so ties keep the smallest predecessor). An empty path
// stands for "no finite path".
LeastCostPath referencePath(const Matrix& cost, int edges) {
    const int m = static_cast<int>(cost.rows());
    std::vector<std::vector<double>> best(edges + 1, std::vector<double>(m, kInf));
    std::vector<std::vector<int>> from(edges + 1, std::vector<int>(m, -1));
    best[0][0] = 0.0;
    for (int k = 1; k <= edges; ++k) {
        for (int n = k; n < m; ++n) {
            for (int s = k - 1; s < n; ++s) {
                const double candidate = best[k - 1][s] + cost(s, n);
                if (candidate < best[k][n]) {
                    best[k][n] = candidate;
                    from[k][n] = s;
                }
            }
        }
    }
    LeastCostPath path;
    path.cost = best[edges][m - 1];
    if (!std::isfinite(path.cost)) {
        return path;
    }
    path.nodes.assign(edges + 1, 0);
    int node = m - 1;
    for (int k = edges; k >= 1; --k) {
        path.nodes[k] = node;
        node = from[k][node];
    }
    path.nodes[0] = node;
    return path;
}

enum class Kind { Real, Ties, Forbidden, Constant, Monge, NearMonge, BlockedNode };

// Costs of one kind; the lower triangle is NaN, which the DP must never read.
Matrix makeCosts(Kind kind, int m, uint64_t seed) {
    Matrix cost = Matrix::Constant(m, m, std::numeric_limits<double>::quiet_NaN());
    for (int s = 0; s < m; ++s) {
        for (int t = s + 1; t < m; ++t) {
            core::CounterRng rng(seed, static_cast<uint64_t>(s), static_cast<uint64_t>(t));
            const double u = rng.uniform();
            const double gap = t - s;
            switch (kind) {
            case Kind::Real: cost(s, t) = u; break;
            case Kind::Ties: cost(s, t) = std::floor(u * 3.0); break;
            case Kind::Forbidden: cost(s, t) = u < 0.3 ? kInf : std::floor(u * 4.0); break;
            case Kind::Constant: cost(s, t) = 1.0; break;
            // Convex in the step length: Monge, and many equal-cost paths of equal steps.
            case Kind::Monge: cost(s, t) = gap * gap / m; break;
            // The Gaussian cost's shape, log1p of a ratio, with a little noise that breaks
            // the quadrangle inequality here and there.
            case Kind::NearMonge:
                cost(s, t) = std::log1p(gap / (s + 1.0)) * (1.0 + 1e-3 * (u - 0.5));
                break;
            case Kind::BlockedNode:
                cost(s, t) = (s == m / 2 || t == m / 3) ? kInf : std::log1p(gap / (s + 1.0));
                break;
            }
        }
    }
    return cost;
}

const char* kindName(Kind kind) {
    static const char* names[] = {"real", "ties", "forbidden", "constant", "monge", "near-monge",
                                  "blocked-node"};
    return names[static_cast<int>(kind)];
}

// Same nodes, and the same cost to the last bit; or no finite path for both.
void compareWithReference(const core::Result<LeastCostPath>& actual,
                          const LeastCostPath& expected) {
    if (expected.nodes.empty()) {
        QVERIFY(!actual.ok());
        return;
    }
    DS_VERIFY_OK(actual);
    QCOMPARE(actual->nodes, expected.nodes);
    QCOMPARE(std::bit_cast<uint64_t>(actual->cost), std::bit_cast<uint64_t>(expected.cost));
}

}  // namespace

class tst_LeastCostPathReference : public QObject {
    Q_OBJECT

private slots:
    void everyEdgeCount_data();
    void everyEdgeCount();
    void largeMatrices_data();
    void largeMatrices();
    void gaussianCostMatrix_data();
    void gaussianCostMatrix();
};

void tst_LeastCostPathReference::everyEdgeCount_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("seed");
    for (Kind kind : {Kind::Real, Kind::Ties, Kind::Forbidden, Kind::Constant, Kind::Monge,
                      Kind::NearMonge, Kind::BlockedNode}) {
        for (int m : {2, 3, 4, 7, 16, 33, 70}) {
            for (int seed : {1, 2}) {
                QTest::addRow("%s M=%d seed=%d", kindName(kind), m, seed)
                    << static_cast<int>(kind) << m << seed;
            }
        }
    }
}

// Every E = 1..M − 1, one at a time and from the all-at-once sweep, 1 and 2 threads. The sweep
// fails as a whole when some count has no finite path, so it runs up to the last count before
// the first such one, and once over all counts to see it fail.
void tst_LeastCostPathReference::everyEdgeCount() {
    QFETCH(int, kind);
    QFETCH(int, nodes);
    QFETCH(int, seed);
    const Matrix cost = makeCosts(static_cast<Kind>(kind), nodes, 1000 * kind + seed);
    std::vector<LeastCostPath> expected;
    int feasible = 0;
    for (int e = 1; e <= nodes - 1; ++e) {
        expected.push_back(referencePath(cost, e));
        if (feasible == e - 1 && !expected.back().nodes.empty()) {
            feasible = e;
        }
    }
    for (int threads : {1, 2}) {
        const core::ParallelOptions parallel{.numThreads = threads};
        for (int e = 1; e <= nodes - 1; ++e) {
            compareWithReference(core::trajectory::leastCostPath(cost, e, parallel),
                                 expected[e - 1]);
        }
        if (feasible > 0) {
            const auto all = core::trajectory::leastCostPathsUpTo(cost, feasible, parallel);
            DS_VERIFY_OK(all);
            QCOMPARE(static_cast<int>(all->size()), feasible);
            for (int e = 1; e <= feasible; ++e) {
                compareWithReference((*all)[e - 1], expected[e - 1]);
            }
        }
        if (feasible < nodes - 1) {
            QVERIFY(!core::trajectory::leastCostPathsUpTo(cost, nodes - 1, parallel).ok());
        }
    }
}

void tst_LeastCostPathReference::largeMatrices_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("edges");
    for (Kind kind : {Kind::Real, Kind::Ties, Kind::Forbidden, Kind::Monge, Kind::NearMonge,
                      Kind::BlockedNode}) {
        // 700 nodes with 40 or more edges: enough work for the sweep to run as a pipeline.
        for (int m : {257, 700}) {
            for (int e : {1, 2, 9, 40, 131, 250}) {
                QTest::addRow("%s M=%d E=%d", kindName(kind), m, e)
                    << static_cast<int>(kind) << m << e;
            }
        }
    }
}

// Sizes that span many column steps and, with 2 threads, two pipeline stages.
void tst_LeastCostPathReference::largeMatrices() {
    QFETCH(int, kind);
    QFETCH(int, nodes);
    QFETCH(int, edges);
    const Matrix cost = makeCosts(static_cast<Kind>(kind), nodes, 77 + kind);
    const LeastCostPath expected = referencePath(cost, edges);
    for (int threads : {1, 2}) {
        compareWithReference(core::trajectory::leastCostPath(cost, edges, {.numThreads = threads}),
                             expected);
        const auto all =
            core::trajectory::leastCostPathsUpTo(cost, edges, {.numThreads = threads});
        if (all.ok()) {
            compareWithReference(all->back(), expected);
        }
    }
}

void tst_LeastCostPathReference::gaussianCostMatrix_data() {
    QTest::addColumn<bool>("cosine");
    QTest::addColumn<int>("edges");
    for (bool cosine : {false, true}) {
        for (int e : {9, 99}) {
            QTest::addRow("%s E=%d", cosine ? "cosine" : "linear", e) << cosine << e;
        }
    }
}

// The matrix the GUI's live path solves, at its size.
void tst_LeastCostPathReference::gaussianCostMatrix() {
    QFETCH(bool, cosine);
    QFETCH(int, edges);
    const auto schedule =
        cosine ? core::schedule::cosineSchedule(1000) : core::schedule::linearSchedule(1000);
    DS_VERIFY_OK(schedule);
    std::vector<double> gamma(1001, 0.0);
    for (int n = 1; n <= 1000; ++n) {
        gamma[n] = 1.0 / (schedule->alphaBar(n) * 0.25 + schedule->betaBar(n));
    }
    const auto cost = core::gaussian::dpCostMatrix(*schedule, gamma);
    DS_VERIFY_OK(cost);
    const LeastCostPath expected = referencePath(*cost, edges);
    for (int threads : {1, 2}) {
        compareWithReference(
            core::trajectory::leastCostPath(*cost, edges, {.numThreads = threads}), expected);
    }
}

QTEST_GUILESS_MAIN(tst_LeastCostPathReference)
#include "tst_least_cost_path_reference.moc"
