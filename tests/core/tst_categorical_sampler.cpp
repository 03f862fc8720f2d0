// SPDX-License-Identifier: MIT
// Samplers of docs/categorical.md (forward process, reverse sampling): exact ancestral reproduction
// by marginal propagation, the D3PM-style kernel's failure, chi-square checks of the samplers,
// 1-vs-2-thread identity, frames and cancellation; the alias tables and the thinned reverse steps
// against the kernel.
#include <QTest>

#include <cmath>

#include "core/categorical/prior.h"
#include "core/categorical/reverse_kernel.h"
#include "core/categorical/sampler.h"
#include "core/data/categorical_table.h"
#include "core/model/categorical_oracles.h"
#include "core/util/alias_table.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

using namespace core;
using namespace core::categorical;

namespace {

data::CategoricalTable tableD1() {
    return *data::makeCategoricalTable(1, 4, {0, 1, 2, 3}, {0.1, 0.2, 0.3, 0.4});
}

// Two positions, 3 classes, correlated; used for the joint-posterior paths.
data::CategoricalTable tableD2() {
    return *data::makeCategoricalTable(2, 3, {0, 0, 1, 1, 2, 2, 0, 1, 2, 0},
                                       {0.3, 0.25, 0.2, 0.15, 0.1});
}

// p_{s} = p_t Q(s,t) from p_M = π down to p_0, with exact kernels from the table oracle.
Vector propagate(const data::CategoricalTable& table, const Vector& pi, const TimeGrid& grid, KernelForm form) {
    const int numClasses = static_cast<int>(pi.size());
    model::TableOracle oracle(table, pi);
    Vector p = pi;
    Matrix f(numClasses, numClasses);
    for (int n = grid.numSteps(); n >= 1; --n) {
        for (int j = 0; j < numClasses; ++j) {
            Vector row(numClasses);
            oracle.predictPosition(0, j, 0, {grid.t[n], grid.beta[n]}, std::span<double>(row.data(), numClasses));
            f.row(j) = row.transpose();
        }
        const Matrix q = reverseKernelMatrix(form, f, pi, grid.beta[n - 1], grid.beta[n]);
        p = (p.transpose() * q).transpose();
    }
    return p;
}

// Pearson's chi-square statistic of counts against probabilities (cells with p > 0).
double chiSquare(const std::vector<int64_t>& counts, const Vector& p, int64_t total) {
    double chi = 0.0;
    for (size_t k = 0; k < counts.size(); ++k) {
        if (p[k] > 0.0) {
            const double expected = p[k] * total;
            chi += (counts[k] - expected) * (counts[k] - expected) / expected;
        } else if (counts[k] > 0) {
            return 1e300;  // a class of probability 0 was drawn
        }
    }
    return chi;
}

// D = 1, not factorised (so the sampler tabulates it through predict): the table oracle's F
// scaled by `scale`. Rows that do not sum to 1 break the contract, but the kernel normalises its
// rows; with scale 20 the closed form's stay probability falls below the thinning floor
// g_{n−1}/g_n, which exercises the sampler's draws outside events.
class ScaledDenoiser final : public model::CategoricalDenoiser {
public:
    ScaledDenoiser(const model::TableOracle& oracle, double scale) : m_oracle(oracle), m_scale(scale) {}
    int numClasses() const override { return m_oracle.numClasses(); }
    int numPositions() const override { return 1; }
    int numConditions() const override { return m_oracle.numConditions(); }
    void predict(std::span<const int> xt, int condition, const model::DenoiserTime& time,
                 std::span<double> out) const override {
        m_oracle.predict(xt, condition, time, out);
        for (double& v : out) {
            v *= m_scale;
        }
    }

private:
    const model::TableOracle& m_oracle;
    double m_scale;
};

// The 99.9% quantile of χ² with `dof` degrees of freedom by the Wilson–Hilferty cube
// approximation (within 1% of the exact quantile from 3 degrees of freedom up).
double chiSquareQuantile999(int dof) {
    const double z = 3.090232;  // the standard normal's 99.9% quantile
    const double v = 2.0 / (9.0 * dof);
    return dof * std::pow(1.0 - v + z * std::sqrt(v), 3);
}

// Stops after `limit` frames.
class StopAfter final : public ChainObserver {
public:
    explicit StopAfter(int limit) : m_limit(limit) {}
    Control onFrame(const ChainFrame&) override { return ++m_seen >= m_limit ? Control::Abort : Control::Continue; }

private:
    int m_limit;
    int m_seen = 0;
};

}  // namespace

class tst_CategoricalSampler : public QObject {
    Q_OBJECT

private slots:
    void ancestralReproduction_data();
    void ancestralReproduction();
    void d3pmDoesNotReproduce();
    void reverseChiSquare_data();
    void reverseChiSquare();
    void forwardChiSquare();
    void aliasTableProbabilities();
    void reverseStepsFollowKernel_data();
    void reverseStepsFollowKernel();
    void threadsGiveIdenticalSamples_data();
    void threadsGiveIdenticalSamples();
    void framesAndCancel();
    void oracleTableErrors_data();
    void oracleTableErrors();
};

void tst_CategoricalSampler::ancestralReproduction_data() {
    QTest::addColumn<QString>("priorSpec");
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<int>("numSteps");
    QTest::newRow("uniform linear N=1") << "uniform:4" << "linear" << 1;
    QTest::newRow("uniform linear N=10") << "uniform:4" << "linear" << 10;
    QTest::newRow("custom cosine N=50") << "0.4,0.3,0.2,0.1" << "cosine" << 50;
    QTest::newRow("tiny prior power N=7") << "0.000000001,0.333333333,0.333333333,0.333333333" << "power:3" << 7;
    QTest::newRow("absorbing-like N=20") << "0.000000001,0.000000001,0.000000001,0.999999997" << "linear" << 20;
}

// docs/categorical.md#reverse-kernel: with the exact F the closed-form chain reproduces p_0
// exactly.
void tst_CategoricalSampler::ancestralReproduction() {
    QFETCH(QString, priorSpec);
    QFETCH(QString, schedule);
    QFETCH(int, numSteps);
    const Vector pi = *parsePrior(priorSpec.toStdString());
    const TimeGrid grid = evenTimeGrid(*schedule::parseBetaCurve(schedule.toStdString()), numSteps);
    const data::CategoricalTable table = tableD1();
    const Vector p0 = propagate(table, pi, grid, KernelForm::Closed);
    for (int k = 0; k < 4; ++k) {
        DS_COMPARE_ABS(p0[k], table.probability[k], 1e-12);
    }
}

// docs/categorical.md#reverse-kernel: the D3PM-style kernel does not reproduce the data for uniform
// π (it misses by about 0.1 per class at N ≥ 5; the exact propagation here measures the error).
void tst_CategoricalSampler::d3pmDoesNotReproduce() {
    const Vector pi = *parsePrior("uniform:4");
    const data::CategoricalTable table = tableD1();
    for (int numSteps : {5, 20}) {
        const Vector p0 = propagate(table, pi, evenTimeGrid(schedule::linearCurve(), numSteps), KernelForm::D3pm);
        double maxError = 0.0;
        for (int k = 0; k < 4; ++k) {
            maxError = std::max(maxError, std::abs(p0[k] - table.probability[k]));
        }
        qInfo("D3PM N=%d: max |p0 - data| = %.4f", numSteps, maxError);
        QVERIFY2(maxError > 0.02, qPrintable(QString("max error %1").arg(maxError)));
    }
}

void tst_CategoricalSampler::reverseChiSquare_data() {
    QTest::addColumn<QString>("priorSpec");
    QTest::addColumn<int>("numSteps");
    QTest::newRow("uniform N=10") << "uniform:4" << 10;
    QTest::newRow("absorbing N=5") << "absorbing:5" << 5;
}

// Reverse sampling with the table oracle draws from p_0. Tolerance: Pearson's statistic over the
// 4 data classes has 3 degrees of freedom; 16.27 is its 99.9% quantile, so a correct sampler
// fails for one seed in a thousand (the fixed seed makes the test deterministic), while a kernel
// off by 0.01 in one class already gives a statistic near 2e4·0.01²/0.1 ≈ 20 on average.
// A draw of a class with probability 0 (the mask) fails outright.
void tst_CategoricalSampler::reverseChiSquare() {
    QFETCH(QString, priorSpec);
    QFETCH(int, numSteps);
    const Vector pi = *parsePrior(priorSpec.toStdString());
    const int numClasses = static_cast<int>(pi.size());
    const data::CategoricalTable table = *data::makeCategoricalTable(1, numClasses, {0, 1, 2, 3}, {0.1, 0.2, 0.3, 0.4});
    model::TableOracle oracle(table, pi);
    const int64_t chains = 20000;
    SamplerOptions options{.seed = 42};
    Result<SampleResult> result = sampleReverse(oracle, chains, pi, evenTimeGrid(schedule::linearCurve(), numSteps), options);
    DS_VERIFY_OK(result);
    QCOMPARE(result->nodesDone, numSteps);
    std::vector<int64_t> counts(static_cast<size_t>(numClasses), 0);
    for (int x : result->states) {
        ++counts[x];
    }
    Vector p = Vector::Zero(numClasses);
    p.head(4) << 0.1, 0.2, 0.3, 0.4;
    const double chi = chiSquare(counts, p, chains);
    QVERIFY2(chi < 16.27, qPrintable(QString("chi-square %1").arg(chi)));
}

// Forward chains from x_0 = 0: at a node with β the class law is (1 − β)δ_0 + βπ
// (docs/categorical.md#forward-process). Same tolerance argument as above: 3 dof, 99.9% quantile
// 16.27.
void tst_CategoricalSampler::forwardChiSquare() {
    const Vector pi = *parsePrior("0.1,0.2,0.3,0.4");
    const TimeGrid grid = evenTimeGrid(schedule::linearCurve(), 10);
    const int64_t chains = 20000;
    std::vector<int> x0(static_cast<size_t>(chains), 0);
    FrameRecorder recorder;
    SamplerOptions options{.seed = 7, .observer = &recorder};
    Result<SampleResult> result = sampleForward(x0, 1, pi, grid, options);
    DS_VERIFY_OK(result);
    QCOMPARE(int(recorder.frames.size()), 11);
    for (int node : {3, 6, 10}) {
        std::vector<int64_t> counts(4, 0);
        for (int x : recorder.frames[node].states) {
            ++counts[x];
        }
        Vector expected = grid.beta[node] * pi;
        expected[0] += 1.0 - grid.beta[node];
        const double chi = chiSquare(counts, expected, chains);
        QVERIFY2(chi < 16.27, qPrintable(QString("node %1 chi-square %2").arg(node).arg(chi)));
    }
}

// core/util/alias_table.h: the probabilities the table draws with, rebuilt from its columns,
// equal the normalised input to 1e-15 (the construction is exact in integers; only the rounding
// of each p_k to a multiple of 2⁻⁶⁴ and one division by the sum remain), and a class of
// probability 0 is never an alias and never kept. Inputs: random vectors for K = 1..40 with
// zeros, tiny and equal entries, a point mass, and every row of the reverse kernels of a
// 12-step cosine grid.
void tst_CategoricalSampler::aliasTableProbabilities() {
    std::vector<std::vector<double>> inputs;
    CounterRng rng(11, 0, 0);
    for (int k = 1; k <= 40; ++k) {
        std::vector<double> p(static_cast<size_t>(k));
        for (double& v : p) {
            const double u = rng.uniform();
            v = u < 0.2 ? 0.0 : u < 0.3 ? 1e-300 * u : u < 0.4 ? 0.25 : u;
        }
        p[k / 2] += 0.5;  // at least one positive entry
        inputs.push_back(p);
    }
    inputs.push_back({0.0, 0.0, 1.0, 0.0});
    inputs.push_back({1.0, 1.0, 1.0});
    inputs.push_back({1.0 - 1e-15, 1e-15});
    const Vector pi = *parsePrior("0.4,0.3,0.2,0.1");
    const TimeGrid grid = evenTimeGrid(schedule::cosineCurve(), 12);
    model::TableOracle oracle(tableD1(), pi);
    for (KernelForm form : {KernelForm::Closed, KernelForm::D3pm}) {
        for (int n = 1; n <= grid.numSteps(); ++n) {
            for (int j = 0; j < 4; ++j) {
                Vector f(4);
                Vector q(4);
                oracle.predictPosition(0, j, 0, {grid.t[n], grid.beta[n]}, std::span<double>(f.data(), 4));
                reverseKernel(form, f, j, pi, grid.beta[n - 1], grid.beta[n], q);
                inputs.emplace_back(q.data(), q.data() + 4);
            }
        }
    }
    for (const std::vector<double>& p : inputs) {
        std::vector<AliasEntry> table(p.size());
        buildAliasTable(p, table);
        const std::vector<double> rebuilt = aliasProbabilities(table);
        double total = 0.0;
        for (double v : p) {
            total += v;
        }
        for (size_t k = 0; k < p.size(); ++k) {
            DS_COMPARE_ABS(rebuilt[k], p[k] / total, 1e-15);
            if (p[k] == 0.0) {
                QCOMPARE(rebuilt[k], 0.0);
            }
        }
    }
    // No mass: the fallback class always.
    std::vector<AliasEntry> table(3);
    buildAliasTable(std::vector<double>{0.0, 0.0, 0.0}, table, 2);
    for (uint64_t w : {uint64_t{0}, uint64_t{1} << 63, ~uint64_t{0}}) {
        QCOMPARE(drawAlias(table.data(), 3, w), 2);
    }
}

void tst_CategoricalSampler::reverseStepsFollowKernel_data() {
    QTest::addColumn<QString>("which");
    QTest::newRow("closed, uniform π") << "closed";
    QTest::newRow("closed, absorbing π") << "absorbing";
    QTest::newRow("D3PM form") << "d3pm";
    QTest::newRow("two independent positions") << "d2";
    QTest::newRow("stay below the floor") << "scaled";
}

// docs/categorical.md#reverse-sampling: with a tabulated kernel a chain draws only at events
// (probability 1 − g_{n−1}/g_n per step, one uniform fixing the next) and then from the alias
// table of q_j minus its floor; the one-step law must still be q_j exactly. Recording every
// frame of 40000 chains on a 10-step cosine grid, the transitions x_n = j → x_{n−1} = k at every
// step (n = 10, t = 1, and n = 1, s = 0, where every chain draws, and the thinned steps between)
// are counted per (position, j) and compared with n_j q_j[k]: given the states at node n these
// rows are independent multinomials, so Pearson's statistic summed over rows and steps is χ²
// with Σ (positive cells − 1) degrees of freedom (39 to 120 here). The tolerance is its 99.9%
// quantile: a correct sampler fails for one seed in a thousand (the seed is fixed). Power,
// checked by breaking the sampler on purpose: a floor 5% too high gives 163–428 against limits
// of 72–174 in every case, and skipping the draws outside events for rows below the floor
// gives 2642 in the last case. A draw into a cell of probability 0 fails outright.
void tst_CategoricalSampler::reverseStepsFollowKernel() {
    QFETCH(QString, which);
    const TimeGrid grid = evenTimeGrid(schedule::cosineCurve(), 10);
    const Vector pi = *parsePrior(which == "absorbing" ? "absorbing:5"
                                  : which == "d2"      ? "uniform:3"
                                                       : "0.4,0.3,0.2,0.1");
    const int numClasses = static_cast<int>(pi.size());
    const data::CategoricalTable table =
        which == "d2" ? tableD2()
                      : *data::makeCategoricalTable(1, numClasses, {0, 1, 2, 3}, {0.1, 0.2, 0.3, 0.4});
    model::TableOracle oracle(table, pi, which == "d2" ? model::TableOracleMode::IndependentPositions
                                                       : model::TableOracleMode::JointPosterior);
    const ScaledDenoiser scaled(oracle, 20.0);
    const model::CategoricalDenoiser& denoiser =
        which == "scaled" ? static_cast<const model::CategoricalDenoiser&>(scaled) : oracle;
    const KernelForm form = which == "d3pm" ? KernelForm::D3pm : KernelForm::Closed;
    const int numPositions = denoiser.numPositions();
    const int chains = 40000;
    FrameRecorder recorder;
    Result<SampleResult> result =
        sampleReverse(denoiser, chains, pi, grid, {.seed = 2024, .form = form, .observer = &recorder});
    DS_VERIFY_OK(result);
    QCOMPARE(int(recorder.frames.size()), grid.numSteps() + 1);
    double chi = 0.0;
    int dof = 0;
    int shortRows = 0;
    double maxShortfall = 0.0;
    for (int n = grid.numSteps(); n >= 1; --n) {
        const std::vector<int>& from = recorder.frames[grid.numSteps() - n].states;
        const std::vector<int>& to = recorder.frames[grid.numSteps() - n + 1].states;
        QCOMPARE(recorder.frames[grid.numSteps() - n].node, n);
        const double floor = grid.beta[n - 1] * (1.0 - grid.beta[n]) / (grid.beta[n] * (1.0 - grid.beta[n - 1]));
        for (int d = 0; d < numPositions; ++d) {
            std::vector<int64_t> counts(static_cast<size_t>(numClasses) * numClasses, 0);
            for (int c = 0; c < chains; ++c) {
                ++counts[from[c * numPositions + d] * numClasses + to[c * numPositions + d]];
            }
            for (int j = 0; j < numClasses; ++j) {
                Vector f(numClasses);
                Vector q(numClasses);
                const model::DenoiserTime time{grid.t[n], grid.beta[n]};
                if (which == "scaled") {
                    const int xt[1] = {j};
                    denoiser.predict(xt, 0, time, std::span<double>(f.data(), numClasses));
                } else {
                    denoiser.predictPosition(d, j, 0, time, std::span<double>(f.data(), numClasses));
                }
                reverseKernel(form, f, j, pi, grid.beta[n - 1], grid.beta[n], q);
                shortRows += q[j] < floor - 0.01 ? 1 : 0;
                maxShortfall = std::max(maxShortfall, floor - q[j]);
                int64_t rowTotal = 0;
                for (int k = 0; k < numClasses; ++k) {
                    rowTotal += counts[j * numClasses + k];
                }
                if (rowTotal == 0) {
                    continue;
                }
                std::vector<int64_t> row(counts.begin() + j * numClasses, counts.begin() + (j + 1) * numClasses);
                chi += chiSquare(row, q, rowTotal);
                dof += static_cast<int>((q.array() > 0.0).count()) - 1;
            }
        }
    }
    if (which == "scaled") {
        QVERIFY2(shortRows > 0, "the scaled denoiser no longer tests rows below the floor");
    }
    QVERIFY(dof >= 10);
    const double limit = chiSquareQuantile999(dof);
    qInfo("%s: chi-square %.2f with %d degrees of freedom (limit %.2f); %d rows short of the floor by > 0.01, at most %.3g",
          qPrintable(which), chi, dof, limit, shortRows, maxShortfall);
    QVERIFY2(chi < limit, qPrintable(QString("chi-square %1 ≥ %2 (%3 dof)").arg(chi).arg(limit).arg(dof)));
}

void tst_CategoricalSampler::threadsGiveIdenticalSamples_data() {
    QTest::addColumn<QString>("which");
    QTest::newRow("forward D=3") << "forward";
    QTest::newRow("reverse D=1 tabulated") << "reverse1";
    QTest::newRow("reverse D=2 joint oracle") << "reverse2";
    QTest::newRow("reverse D=2 independent") << "reverse2i";
}

// Determinism: the same seed gives the same samples for 1 and 2 threads.
void tst_CategoricalSampler::threadsGiveIdenticalSamples() {
    QFETCH(QString, which);
    const TimeGrid grid = evenTimeGrid(schedule::cosineCurve(), 12);
    const int chains = 5000;  // more than two blocks of 2048
    std::vector<int> samples[2];
    for (int threads : {1, 2}) {
        SamplerOptions options{.seed = 99, .parallel = {threads}};
        Result<SampleResult> result = makeError(ErrorCode::InvalidArgument, "", "", "unset");
        if (which == "forward") {
            const Vector pi = *parsePrior("uniform:5");
            std::vector<int> x0(static_cast<size_t>(chains) * 3);
            for (size_t i = 0; i < x0.size(); ++i) {
                x0[i] = static_cast<int>(i % 5);
            }
            result = sampleForward(x0, 3, pi, grid, options);
        } else if (which == "reverse1") {
            const Vector pi = *parsePrior("uniform:4");
            result = sampleReverse(model::TableOracle(tableD1(), pi), chains, pi, grid, options);
        } else {
            const Vector pi = *parsePrior("uniform:3");
            const auto mode = which == "reverse2" ? model::TableOracleMode::JointPosterior
                                                  : model::TableOracleMode::IndependentPositions;
            result = sampleReverse(model::TableOracle(tableD2(), pi, mode), chains, pi, grid, options);
        }
        DS_VERIFY_OK(result);
        samples[threads - 1] = result->states;
    }
    QVERIFY(samples[0] == samples[1]);
}

void tst_CategoricalSampler::framesAndCancel() {
    const Vector pi = *parsePrior("uniform:4");
    model::TableOracle oracle(tableD1(), pi);
    const TimeGrid grid = evenTimeGrid(schedule::linearCurve(), 10);
    FrameRecorder recorder(5);
    Result<SampleResult> full = sampleReverse(oracle, 10, pi, grid, {.seed = 1, .observer = &recorder});
    DS_VERIFY_OK(full);
    QCOMPARE(recorder.frames.front().node, 10);
    QCOMPARE(recorder.frames.back().node, 0);
    QVERIFY(recorder.frames.back().states == full->states);
    StopAfter stop(3);
    Result<SampleResult> cancelled = sampleReverse(oracle, 10, pi, grid, {.seed = 1, .observer = &stop});
    DS_VERIFY_OK(cancelled);
    QVERIFY(cancelled->cancelled);
    QCOMPARE(cancelled->nodesDone, 2);
    Progress progress;
    progress.cancel();
    Result<SampleResult> viaToken = sampleForward(std::vector<int>(10, 0), 1, pi, grid, {.progress = &progress});
    DS_VERIFY_OK(viaToken);
    QVERIFY(viaToken->cancelled);
}

void tst_CategoricalSampler::oracleTableErrors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("not a number") << "x1,p\n0,0.5\n1,abc\n" << "T.csv:3 column 'p' = abc: not a number";
    QTest::newRow("class range") << "x1,p\n0,0.5\n3,0.5\n" << "T.csv:3 column 'x1' = 3: a class index must lie in 0..2 (K = 3 from π)";
    QTest::newRow("negative") << "x1,p\n0,1.5\n1,-0.5\n" << "T.csv:3 column 'p' = -0.5: a probability must be ≥ 0";
    QTest::newRow("sum") << "x1,p,c\n0,0.5,a\n1,0.5,a\n2,0.7,b\n" << "T.csv column 'p' = 0.69999999999999996: the probabilities of condition 'b' sum to this value, not 1 (tolerance 1e-9)";
    QTest::newRow("no x1") << "y,p\n0,1\n" << "T.csv = x1: the table has no column 'x1' (expected columns x1..xD, p[, c])";
}

void tst_CategoricalSampler::oracleTableErrors() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    Result<data::CategoricalTable> table = data::parseCategoricalTable(text.toStdString(), "T.csv", 3);
    QVERIFY(!table.ok());
    QCOMPARE(QString::fromStdString(table.error().toString()), message);
}

QTEST_GUILESS_MAIN(tst_CategoricalSampler)
#include "tst_categorical_sampler.moc"
