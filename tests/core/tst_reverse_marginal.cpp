// SPDX-License-Identifier: MIT
// Exact reverse marginals (core/categorical/reverse_marginal.h): the closed-form kernel with the
// exact F reproduces the forward marginals at every node; the D3PM-style kernel does not.
#include <QTest>

#include "core/categorical/information.h"
#include "core/categorical/reverse_marginal.h"
#include "core/model/categorical_oracles.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

using namespace core;

namespace {

struct Fixture {
    data::CategoricalTable table;
    Vector pi;
};

// A random K-class table with one condition and a random prior (seeded).
Fixture makeFixture(int k, uint64_t seed, bool uniformPi) {
    std::vector<int> classes;
    std::vector<double> p;
    CounterRng rng(seed, 0, 0);
    double total = 0.0;
    for (int i = 0; i < k; ++i) {
        classes.push_back(i);
        p.push_back(0.05 + rng.uniform());
        total += p.back();
    }
    for (double& v : p) {
        v /= total;
    }
    Fixture f{*data::makeCategoricalTable(1, k, classes, p), Vector(k)};
    double piTotal = 0.0;
    for (int i = 0; i < k; ++i) {
        f.pi[i] = uniformPi ? 1.0 : 0.1 + rng.uniform();
        piTotal += f.pi[i];
    }
    f.pi /= piTotal;
    return f;
}

}  // namespace

class tst_ReverseMarginal : public QObject {
    Q_OBJECT

private slots:
    void closedFormReproducesForwardMarginals_data();
    void closedFormReproducesForwardMarginals();
    void d3pmMissesTheDataForUniformPi();
    void klDivergence();
};

void tst_ReverseMarginal::closedFormReproducesForwardMarginals_data() {
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("steps");
    QTest::addColumn<QString>("schedule");
    QTest::newRow("K=2 N=1 linear") << 2 << 1 << "linear";
    QTest::newRow("K=4 N=10 cosine") << 4 << 10 << "cosine";
    QTest::newRow("K=7 N=50 power") << 7 << 50 << "power:3";
    QTest::newRow("K=16 N=200 linear") << 16 << 200 << "linear";
}

void tst_ReverseMarginal::closedFormReproducesForwardMarginals() {
    QFETCH(int, k);
    QFETCH(int, steps);
    QFETCH(QString, schedule);
    const Fixture f = makeFixture(k, 100 + k, false);
    const auto curve = schedule::parseBetaCurve(schedule.toStdString());
    DS_VERIFY_OK(curve);
    const auto grid = categorical::evenTimeGrid(*curve, steps);
    const model::TableOracle oracle(f.table, f.pi);
    const auto marginals = categorical::reverseMarginals(oracle, 0, 0, f.pi, grid,
                                                         categorical::KernelForm::Closed);
    DS_VERIFY_OK(marginals);
    const Vector p0 = f.table.marginal(0, 0);
    for (int n = 0; n <= steps; ++n) {
        const Vector expected = categorical::marginalAt(p0, f.pi, grid.beta[n]);
        for (int i = 0; i < k; ++i) {
            DS_COMPARE_ABS((*marginals)[n][i], expected[i], 1e-12);
        }
    }
}

// docs/categorical.md#reverse-kernel: given the exact F the D3PM-style kernel misses the data by
// about 0.1 per class at N ≥ 5 for non-absorbing π; a miss of more than 0.01 somewhere is a safe
// margin.
void tst_ReverseMarginal::d3pmMissesTheDataForUniformPi() {
    const int k = 4;
    const Fixture f = makeFixture(k, 7, true);
    const auto grid = categorical::evenTimeGrid(schedule::linearCurve(), 20);
    const model::TableOracle oracle(f.table, f.pi);
    const auto marginals = categorical::reverseMarginals(oracle, 0, 0, f.pi, grid,
                                                         categorical::KernelForm::D3pm);
    DS_VERIFY_OK(marginals);
    const Vector p0 = f.table.marginal(0, 0);
    const double worst = ((*marginals)[0] - p0).cwiseAbs().maxCoeff();
    QVERIFY2(worst > 0.01, qPrintable(QString("largest error %1").arg(worst)));
    QVERIFY(categorical::klDivergence(p0, (*marginals)[0]) > 1e-3);
}

void tst_ReverseMarginal::klDivergence() {
    Vector p(3), q(3);
    p << 0.5, 0.5, 0.0;
    q << 0.25, 0.25, 0.5;
    DS_COMPARE_ABS(categorical::klDivergence(p, q), std::log(2.0), 1e-15);
    DS_COMPARE_ABS(categorical::klDivergence(p, p), 0.0, 0.0);
    QVERIFY(std::isinf(categorical::klDivergence(q, p)));
}

QTEST_GUILESS_MAIN(tst_ReverseMarginal)
#include "tst_reverse_marginal.moc"
