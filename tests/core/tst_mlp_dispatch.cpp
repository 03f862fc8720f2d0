// SPDX-License-Identifier: MIT
// The MLP's kernels chosen by the CPU (mlp.h, mlpKernelName) against the portable ones: the same
// outputs and gradients up to rounding, on small networks of every kind; forcing the portable
// kernels (setMlpCpuDispatch, DIFFUSCOPE_NO_CPU_DISPATCH); training through either.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/model/mlp.h"
#include "core/model/mlp_kernels.h"
#include "core/model/trainer.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

using namespace core;
using namespace core::model;

Q_DECLARE_METATYPE(core::model::Activation)

namespace {

// The most a portable and a dispatched result may differ, relative to the largest entry: float
// sums of ≤ 64 terms rounded in another order and with FMA (a few ulps of the sum each).
constexpr double kRelativeTolerance = 2e-5;

double maxAbs(const float* a, size_t n) {
    double m = 0.0;
    for (size_t i = 0; i < n; ++i) {
        m = std::max(m, std::abs(static_cast<double>(a[i])));
    }
    return m;
}

double maxDifference(const float* a, const float* b, size_t n) {
    double m = 0.0;
    for (size_t i = 0; i < n; ++i) {
        m = std::max(m, std::abs(static_cast<double>(a[i]) - b[i]));
    }
    return m;
}

struct Pass {
    MatrixF out;
    std::vector<float> grad;
};

// One forward and backward of `net` on a fixed batch, with dOut = out − 0.1 (any smooth loss).
Pass run(const Mlp& net, int batch) {
    const MlpConfig& c = net.config();
    MatrixF x(c.inputs, batch);
    std::vector<double> t(static_cast<size_t>(batch));
    std::vector<int> conditions(static_cast<size_t>(c.numConditions > 0 ? batch : 0));
    CounterRng rng(9, 0, 0);
    for (int b = 0; b < batch; ++b) {
        for (int i = 0; i < c.inputs; ++i) {
            x(i, b) = static_cast<float>(rng.normal());
        }
        t[static_cast<size_t>(b)] = rng.uniform();
        if (!conditions.empty()) {
            conditions[static_cast<size_t>(b)] = b % (c.numConditions + 1);
        }
    }
    Mlp::Workspace ws;
    Pass pass{MatrixF(c.outputs, batch), std::vector<float>(static_cast<size_t>(net.numParameters()), 0.0f)};
    net.forward(x, t, conditions, ws, pass.out);
    const MatrixF dOut = (pass.out.array() - 0.1f).matrix();
    net.backward(ws, dOut, pass.grad);
    return pass;
}

}  // namespace

class tst_MlpDispatch : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void kernelsFollowTheCpu();
    void dispatchedKernelsAgreeWithPortable_data();
    void dispatchedKernelsAgreeWithPortable();
    void resultsDoNotDependOnWhereArraysLie();
    void environmentForcesPortable();
    void trainingAgreesAndIsThreadCountIndependent();
};

// The test is about dispatch: it runs without the user's DIFFUSCOPE_NO_CPU_DISPATCH.
void tst_MlpDispatch::initTestCase() { cleanup(); }

void tst_MlpDispatch::cleanup() {
    qunsetenv("DIFFUSCOPE_NO_CPU_DISPATCH");
    setMlpCpuDispatch(true);
}

void tst_MlpDispatch::kernelsFollowTheCpu() {
    setMlpCpuDispatch(true);
    const std::string best = mlpKernelName();
    qInfo("kernels chosen for this CPU: %s", best.c_str());
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        QVERIFY2(best == "avx2" || best == "avx512", best.c_str());
    }
    if (!__builtin_cpu_supports("avx2")) {
        QCOMPARE(best, std::string("portable"));
    }
#endif
    setMlpCpuDispatch(false);
    QCOMPARE(std::string(mlpKernelName()), std::string("portable"));
    setMlpCpuDispatch(true);
    QCOMPARE(std::string(mlpKernelName()), best);
}

void tst_MlpDispatch::dispatchedKernelsAgreeWithPortable_data() {
    QTest::addColumn<QString>("kernels");
    QTest::addColumn<Activation>("activation");
    QTest::addColumn<bool>("layerNorm");
    QTest::addColumn<bool>("conditional");
    QTest::addColumn<int>("batch");
    // Every kernel set this CPU runs (the best is the default; the others are checked too).
    for (const char* kernels : {"avx512", "avx2"}) {
        if (!detail::selectMlpKernels(kernels)) {
            continue;
        }
        auto row = [&](const char* name) { return &QTest::newRow(qPrintable(QString("%1 %2").arg(kernels, name))); };
        *row("silu") << QString(kernels) << Activation::SiLU << false << false << 16;
        *row("silu conditional") << QString(kernels) << Activation::SiLU << false << true << 16;
        *row("gelu layer norm") << QString(kernels) << Activation::GELU << true << false << 16;
        *row("silu layer norm conditional, odd batch") << QString(kernels) << Activation::SiLU << true << true << 13;
        *row("gelu conditional, one column") << QString(kernels) << Activation::GELU << false << true << 1;
    }
    setMlpCpuDispatch(true);  // (a CPU without AVX2 has no rows: nothing to compare)
}

void tst_MlpDispatch::dispatchedKernelsAgreeWithPortable() {
    QFETCH(QString, kernels);
    QFETCH(Activation, activation);
    QFETCH(bool, layerNorm);
    QFETCH(bool, conditional);
    QFETCH(int, batch);
    const MlpConfig config{.inputs = 5, .outputs = 7, .width = 40, .depth = 2, .activation = activation,
                           .layerNorm = layerNorm, .timeEmbedding = 8, .timeScale = 100.0,
                           .numConditions = conditional ? 3 : 0, .conditionEmbedding = 4};
    Result<Mlp> net = Mlp::create(config, 11);
    DS_VERIFY_OK(net);
    setMlpCpuDispatch(false);
    const Pass portable = run(*net, batch);
    const Pass again = run(*net, batch);
    QVERIFY(portable.out == again.out && portable.grad == again.grad);  // deterministic
    QVERIFY(detail::selectMlpKernels(qPrintable(kernels)));
    const Pass dispatched = run(*net, batch);
    const Pass dispatchedAgain = run(*net, batch);
    QVERIFY(dispatched.out == dispatchedAgain.out && dispatched.grad == dispatchedAgain.grad);

    const double outScale = std::max(1.0, maxAbs(portable.out.data(), portable.out.size()));
    const double outDiff = maxDifference(portable.out.data(), dispatched.out.data(), portable.out.size());
    QVERIFY2(outDiff <= kRelativeTolerance * outScale,
             qPrintable(QString("%1: output differs by %2").arg(mlpKernelName()).arg(outDiff)));
    // Each tensor's gradient against its own scale: a small bias gradient beside large weight
    // gradients must still agree.
    for (const TensorSpec& spec : net->layout()) {
        const float* a = portable.grad.data() + spec.offset;
        const float* b = dispatched.grad.data() + spec.offset;
        const size_t n = static_cast<size_t>(spec.size);
        const double scale = maxAbs(a, n);
        QVERIFY2(scale > 0.0, spec.name.c_str());
        const double diff = maxDifference(a, b, n);
        QVERIFY2(diff <= kRelativeTolerance * scale,
                 qPrintable(QString("%1, %2: gradient differs by %3 (scale %4)")
                                .arg(mlpKernelName(), spec.name.c_str()).arg(diff).arg(scale)));
    }
}

// Eigen handles the elements before the first aligned address apart (mlp_kernels_impl.h): the
// bits must not depend on where the caller's input, output and gradient arrays lie, anywhere for
// the AVX kernels (whose packets are wider than malloc's alignment), at malloc's 16 bytes for the
// portable ones (the code as it was before dispatch, whose packets are 16 bytes).
void tst_MlpDispatch::resultsDoNotDependOnWhereArraysLie() {
    const MlpConfig config{.inputs = 5, .outputs = 7, .width = 40, .depth = 2, .layerNorm = true,
                           .timeEmbedding = 8, .numConditions = 3, .conditionEmbedding = 4};
    Result<Mlp> net = Mlp::create(config, 12);
    DS_VERIFY_OK(net);
    const int batch = 13;
    for (const char* kernels : {"portable", "avx2", "avx512"}) {
        if (!detail::selectMlpKernels(kernels)) {
            continue;
        }
        MatrixF x(config.inputs, batch);
        for (int b = 0; b < batch; ++b) {
            for (int i = 0; i < config.inputs; ++i) {
                x(i, b) = static_cast<float>(std::sin(1.0 + i + 7.0 * b));
            }
        }
        const std::vector<double> t(static_cast<size_t>(batch), 0.3);
        std::vector<int> conditions(static_cast<size_t>(batch));
        for (int b = 0; b < batch; ++b) {
            conditions[static_cast<size_t>(b)] = b % 4;
        }
        Pass first;
        const size_t n = static_cast<size_t>(net->numParameters());
        const int step = std::string(kernels) == "portable" ? 4 : 1;
        for (int shift = 0; shift < 16; shift += step) {
            // Every array of the pass starts `shift` floats into a buffer of its own.
            std::vector<float> xBuffer(x.size() + 16), outBuffer(config.outputs * batch + 16),
                dOutBuffer(config.outputs * batch + 16), gradBuffer(n + 16, 0.0f);
            Eigen::Map<MatrixF> xs(xBuffer.data() + shift, x.rows(), x.cols());
            xs = x;
            Eigen::Map<MatrixF> out(outBuffer.data() + shift, config.outputs, batch);
            Mlp::Workspace ws;
            net->forward(xs, t, conditions, ws, out);
            Eigen::Map<MatrixF> dOut(dOutBuffer.data() + shift, config.outputs, batch);
            dOut = (out.array() - 0.1f).matrix();
            net->backward(ws, dOut, std::span<float>(gradBuffer.data() + shift, n));
            Pass pass{out, std::vector<float>(gradBuffer.begin() + shift, gradBuffer.begin() + shift + n)};
            if (shift == 0) {
                first = pass;
            } else {
                QVERIFY2(pass.out == first.out && pass.grad == first.grad,
                         qPrintable(QString("%1 kernels, arrays shifted by %2 floats").arg(kernels).arg(shift)));
            }
        }
    }
}

void tst_MlpDispatch::environmentForcesPortable() {
    qputenv("DIFFUSCOPE_NO_CPU_DISPATCH", "1");
    setMlpCpuDispatch(true);  // re-reads the environment, as at start-up
    QCOMPARE(std::string(mlpKernelName()), std::string("portable"));
    qputenv("DIFFUSCOPE_NO_CPU_DISPATCH", "0");
    setMlpCpuDispatch(true);
    const std::string withZero = mlpKernelName();
    qunsetenv("DIFFUSCOPE_NO_CPU_DISPATCH");
    setMlpCpuDispatch(true);
    QCOMPARE(withZero, std::string(mlpKernelName()));
}

void tst_MlpDispatch::trainingAgreesAndIsThreadCountIndependent() {
    Matrix data(2, 200);
    for (int m = 0; m < 200; ++m) {
        data(0, m) = std::sin(0.1 * m);
        data(1, m) = std::cos(0.37 * m);
    }
    const schedule::GaussianSchedule schedule = *schedule::linearSchedule(100);
    const MlpConfig architecture{.width = 32, .depth = 2, .timeEmbedding = 8};
    auto train = [&](bool dispatch, int threads) {
        setMlpCpuDispatch(dispatch);
        const TrainParams params{.steps = 20, .batch = 48, .evalEvery = 0, .seed = 3,
                                 .parallel = {threads}};
        Result<GaussianTrainResult> r = trainGaussian(schedule, data, Matrix(), architecture, params);
        return std::move(r).value();
    };
    const GaussianTrainResult portable = train(false, 1);
    const GaussianTrainResult one = train(true, 1);
    const GaussianTrainResult two = train(true, 2);
    QVERIFY(one.summary.trainLoss == two.summary.trainLoss);
    QVERIFY(one.state.online == two.state.online);
    QCOMPARE(portable.summary.trainLoss.size(), one.summary.trainLoss.size());
    for (size_t s = 0; s < portable.summary.trainLoss.size(); ++s) {
        // Rounding differences grow through 20 AdamW steps, but stay far below the loss.
        QVERIFY2(std::abs(portable.summary.trainLoss[s] - one.summary.trainLoss[s]) <=
                     1e-3 * portable.summary.trainLoss[s],
                 qPrintable(QString("step %1: %2 against %3")
                                .arg(s + 1)
                                .arg(portable.summary.trainLoss[s])
                                .arg(one.summary.trainLoss[s])));
    }
}

QTEST_GUILESS_MAIN(tst_MlpDispatch)
#include "tst_mlp_dispatch.moc"
