// SPDX-License-Identifier: MIT
// Tests of the learned denoisers: the MLP's manual gradients against finite
// differences, its named tensors, the two model adapters, and the trainer (determinism, thread
// count, convergence to the exact oracles on tiny problems, cancel, parameter validation).
#include <QTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <vector>

#include "core/data/categorical_table.h"
#include "core/model/categorical_oracles.h"
#include "core/model/gaussian_oracles.h"
#include "core/model/mlp.h"
#include "core/model/mlp_denoisers.h"
#include "core/model/trainer.h"
#include "core/schedule/beta_curve.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

using namespace core;
using namespace core::model;

Q_DECLARE_METATYPE(core::model::Activation)

namespace {

MlpConfig smallConfig(Activation activation, bool layerNorm, bool conditional, int depth) {
    return MlpConfig{.inputs = 3,
                     .outputs = 4,
                     .width = 6,
                     .depth = depth,
                     .activation = activation,
                     .layerNorm = layerNorm,
                     .timeEmbedding = 4,
                     .timeScale = 10.0,
                     .numConditions = conditional ? 2 : 0,
                     .conditionEmbedding = 3};
}

// The tiny categorical table of the convergence test: K = 3, D = 1, two conditions.
const std::vector<double> kTableA = {0.7, 0.2, 0.1};
const std::vector<double> kTableB = {0.1, 0.3, 0.6};

// A data set whose empirical distribution is the table exactly: perCondition rows per label,
// class counts p·perCondition (the p are multiples of 0.1, perCondition a multiple of 10).
CategoricalDataset exactTableData(int perCondition) {
    CategoricalDataset set;
    const std::vector<double>* tables[2] = {&kTableA, &kTableB};
    for (int c = 0; c < 2; ++c) {
        for (int i = 0; i < 3; ++i) {
            const int count = static_cast<int>(std::lround((*tables[c])[i] * perCondition));
            for (int r = 0; r < count; ++r) {
                set.rows.push_back(i);
                set.labels.push_back(c);
            }
        }
    }
    // Interleave deterministically so that prefixes (evalExamples) stay balanced.
    CategoricalDataset shuffled = set;
    const size_t m = set.rows.size();
    for (size_t r = 0; r < m; ++r) {
        const size_t from = (r * 7919) % m;  // 7919 is prime and coprime to m
        shuffled.rows[r] = set.rows[from];
        shuffled.labels[r] = set.labels[from];
    }
    return shuffled;
}

// E_t E_{c, x_0, x_t}[−log F(x_0 | x_t, c, t)] for D = 1 with equal condition weights, exactly
// in (c, x_0, x_t) and by the midpoint rule with `nodes` points in t (β(t) = t, uniform π).
double crossEntropyOverTime(const CategoricalDenoiser& model, int nodes) {
    const Vector pi = Vector::Constant(3, 1.0 / 3.0);
    const std::vector<double>* tables[2] = {&kTableA, &kTableB};
    double total = 0.0;
    std::vector<double> f(3);
    for (int q = 0; q < nodes; ++q) {
        const double t = (q + 0.5) / nodes;
        for (int c = 0; c < 2; ++c) {
            for (int j = 0; j < 3; ++j) {
                const int xt[1] = {j};
                model.predict(xt, c, DenoiserTime{t, t}, f);
                for (int i = 0; i < 3; ++i) {
                    const double pij = (*tables[c])[i] * ((i == j ? 1.0 - t : 0.0) + t * pi[j]);
                    total -= 0.5 * pij * std::log(f[i]) / nodes;
                }
            }
        }
    }
    return total;
}

class AbortOnCall : public ProgressObserver {
public:
    explicit AbortOnCall(int call) : m_call(call) {}
    Control onProgress(double, const std::string&) override {
        return ++m_calls >= m_call ? Control::Abort : Control::Continue;
    }

private:
    int m_call;
    int m_calls = 0;
};

TrainParams quickParams(int threads) {
    return TrainParams{.steps = 12,
                       .batch = 40,
                       .learningRate = 3e-3,
                       .warmupSteps = 3,
                       .emaDecay = 0.9,
                       .conditionDropout = 0.1,
                       .evalEvery = 5,
                       .seed = 11,
                       .parallel = {threads}};
}

MlpConfig quickArchitecture() {
    return MlpConfig{.width = 24, .depth = 2, .layerNorm = true, .timeEmbedding = 8, .conditionEmbedding = 4};
}

Matrix isotropicPoints(int d, int count, double stddev, uint64_t seed) {
    Matrix points(d, count);
    for (int m = 0; m < count; ++m) {
        CounterRng rng(seed, static_cast<uint64_t>(m), 0);
        for (int i = 0; i < d; ++i) {
            points(i, m) = stddev * rng.normal();
        }
    }
    return points;
}

}  // namespace

class tst_Mlp : public QObject {
    Q_OBJECT

private slots:
    void gradientsMatchFiniteDifferences_data();
    void gradientsMatchFiniteDifferences();
    void namedTensorsFollowPyTorch();
    void setParametersRejectsMismatches_data();
    void setParametersRejectsMismatches();
    void denoisersOutputProbabilitiesAndAreThreadSafe();
    void sameSeedSameWeightsAndLosses();
    void threadCountDoesNotChangeTraining_data();
    void threadCountDoesNotChangeTraining();
    void learningRateSchedule();
    void categoricalTrainingApproachesTheOracle();
    void maskStateTrainingLeavesTheMaskOut();
    void gaussianTrainingApproachesTheOracle();
    void cancelReturnsPromptlyWithAUsableModel();
    void invalidParamsNameTheField_data();
    void invalidParamsNameTheField();
};

void tst_Mlp::gradientsMatchFiniteDifferences_data() {
    QTest::addColumn<Activation>("activation");
    QTest::addColumn<bool>("layerNorm");
    QTest::addColumn<bool>("conditional");
    QTest::addColumn<int>("depth");
    QTest::newRow("silu") << Activation::SiLU << false << true << 2;
    QTest::newRow("silu+norm") << Activation::SiLU << true << true << 2;
    QTest::newRow("gelu") << Activation::GELU << false << true << 2;
    QTest::newRow("gelu+norm") << Activation::GELU << true << true << 2;
    QTest::newRow("unconditional") << Activation::SiLU << true << false << 1;
    QTest::newRow("no blocks") << Activation::GELU << true << true << 0;
}

// Every parameter's gradient from backward against central differences of L = Σ W ⊙ out in
// double precision (h = 1e−6: truncation ~h² ≈ 1e−12, rounding ~1e−16·|L|/h ≈ 1e−10, so 1e−7
// relative is ample). The float network, evaluated with the same (rounded) weights, must agree
// with the double one to float accuracy (2e−3 relative to the largest gradient: six layers of
// float32 sums of ≲ 10 terms each).
void tst_Mlp::gradientsMatchFiniteDifferences() {
    QFETCH(Activation, activation);
    QFETCH(bool, layerNorm);
    QFETCH(bool, conditional);
    QFETCH(int, depth);
    const MlpConfig config = smallConfig(activation, layerNorm, conditional, depth);
    Result<MlpDouble> created = MlpDouble::create(config, 5);
    DS_VERIFY_OK(created);
    MlpDouble net = *created;
    // Move the LayerNorm affine parameters off 1 and 0 so their gradients are generic.
    for (const TensorSpec& spec : net.layout()) {
        if (spec.name.find("norm.") != std::string::npos) {
            CounterRng rng(9, static_cast<uint64_t>(spec.offset), 0);
            for (int64_t i = 0; i < spec.size; ++i) {
                net.flat()[static_cast<size_t>(spec.offset + i)] += 0.3 * rng.normal();
            }
        }
    }
    DS_VERIFY_OK(net.setParameters(net.parameters()));  // round to float for the float check

    const int batch = 4;
    CounterRng rng(17, 0, 0);
    MlpDouble::Mat x(config.inputs, batch);
    MlpDouble::Mat weights(config.outputs, batch);
    for (int b = 0; b < batch; ++b) {
        for (int i = 0; i < config.inputs; ++i) {
            x(i, b) = rng.normal();
        }
        for (int i = 0; i < config.outputs; ++i) {
            weights(i, b) = rng.normal();
        }
    }
    const std::vector<double> t = {0.05, 0.3, 0.71, 0.99};
    const std::vector<int> conditions = {0, 1, 2, 1};  // 2 = "no condition"
    MlpDouble::Workspace ws;
    MlpDouble::Mat out(config.outputs, batch);
    auto loss = [&](const MlpDouble& n) {
        n.forward(x, t, conditions, ws, out);
        return (weights.array() * out.array()).sum();
    };
    loss(net);
    std::vector<double> grad(static_cast<size_t>(net.numParameters()), 0.0);
    net.backward(ws, weights, grad);

    const double h = 1e-6;
    double maxGrad = 0.0;
    for (int64_t i = 0; i < net.numParameters(); ++i) {
        MlpDouble probe = net;
        probe.flat()[static_cast<size_t>(i)] += h;
        const double up = loss(probe);
        probe.flat()[static_cast<size_t>(i)] -= 2 * h;
        const double down = loss(probe);
        const double numeric = (up - down) / (2 * h);
        const double analytic = grad[static_cast<size_t>(i)];
        maxGrad = std::max(maxGrad, std::abs(analytic));
        if (std::abs(numeric - analytic) > 1e-7 * std::max(1.0, std::abs(numeric))) {
            std::string name;
            for (const TensorSpec& spec : net.layout()) {
                if (i >= spec.offset && i < spec.offset + spec.size) {
                    name = spec.name + "[" + std::to_string(i - spec.offset) + "]";
                }
            }
            QFAIL(qPrintable(QString::fromStdString(name) + ": " +
                             test_support::describe(analytic, numeric, std::abs(numeric - analytic), 1e-7)));
        }
    }
    // The gradient of every tensor is exercised (a nonzero entry per tensor).
    for (const TensorSpec& spec : net.layout()) {
        double norm = 0.0;
        for (int64_t i = 0; i < spec.size; ++i) {
            norm += std::abs(grad[static_cast<size_t>(spec.offset + i)]);
        }
        QVERIFY2(norm > 0.0, spec.name.c_str());
    }

    // The float network: same weights, same gradients up to float rounding.
    Result<Mlp> single = Mlp::create(config, 1);
    DS_VERIFY_OK(single);
    DS_VERIFY_OK(single->setParameters(net.parameters()));
    Mlp::Workspace wsF;
    MatrixF outF(config.outputs, batch);
    single->forward(x.cast<float>(), t, conditions, wsF, outF);
    std::vector<float> gradF(static_cast<size_t>(single->numParameters()), 0.0f);
    single->backward(wsF, weights.cast<float>(), gradF);
    loss(net);
    DS_COMPARE_ABS((outF.cast<double>() - out).cwiseAbs().maxCoeff(), 0.0, 1e-5 * std::max(1.0, out.cwiseAbs().maxCoeff()));
    for (size_t i = 0; i < gradF.size(); ++i) {
        DS_COMPARE_ABS(gradF[i], grad[i], 2e-3 * std::max(1.0, maxGrad));
    }
}

void tst_Mlp::namedTensorsFollowPyTorch() {
    MlpConfig config = smallConfig(Activation::SiLU, true, true, 2);
    Result<Mlp> net = Mlp::create(config, 3);
    DS_VERIFY_OK(net);
    const std::vector<NamedTensor> tensors = net->parameters();
    struct Expected {
        const char* name;
        std::vector<int64_t> shape;
    };
    const std::vector<Expected> expected = {
        {"condition_embedding.weight", {3, 3}},
        {"input.weight", {6, 3 + 4 + 3}},
        {"input.bias", {6}},
        {"blocks.0.norm.weight", {6}},
        {"blocks.0.norm.bias", {6}},
        {"blocks.0.linear1.weight", {6, 6}},
        {"blocks.0.linear1.bias", {6}},
        {"blocks.0.linear2.weight", {6, 6}},
        {"blocks.0.linear2.bias", {6}},
        {"blocks.1.norm.weight", {6}},
        {"blocks.1.norm.bias", {6}},
        {"blocks.1.linear1.weight", {6, 6}},
        {"blocks.1.linear1.bias", {6}},
        {"blocks.1.linear2.weight", {6, 6}},
        {"blocks.1.linear2.bias", {6}},
        {"output_norm.weight", {6}},
        {"output_norm.bias", {6}},
        {"output.weight", {4, 6}},
        {"output.bias", {4}},
    };
    QCOMPARE(tensors.size(), expected.size());
    int64_t total = 0;
    for (size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(QString::fromStdString(tensors[i].name), QString(expected[i].name));
        QVERIFY(tensors[i].shape == expected[i].shape);
        int64_t size = 1;
        for (int64_t e : expected[i].shape) {
            size *= e;
        }
        QCOMPARE(static_cast<int64_t>(tensors[i].data.size()), size);
        total += size;
    }
    QCOMPARE(total, net->numParameters());
    // Row-major like PyTorch: output.weight[o, j] multiplies hidden unit j into output o.
    Result<Mlp> other = Mlp::create(config, 4);
    DS_VERIFY_OK(other);
    DS_VERIFY_OK(other->setParameters(tensors));
    QVERIFY(std::equal(other->flat().begin(), other->flat().end(), net->flat().begin()));
    std::vector<NamedTensor> edited = tensors;
    NamedTensor& outW = edited[17];
    std::fill(outW.data.begin(), outW.data.end(), 0.0f);
    outW.data[1 * 6 + 2] = 1.0f;  // output 1 = hidden unit 2 of the last activation
    std::fill(edited[18].data.begin(), edited[18].data.end(), 0.0f);
    DS_VERIFY_OK(other->setParameters(edited));
    MatrixF x = MatrixF::Ones(3, 1);
    const double t = 0.4;
    const int c = 1;
    Mlp::Workspace ws;
    MatrixF out(4, 1);
    other->forward(x, std::span<const double>(&t, 1), std::span<const int>(&c, 1), ws, out);
    QCOMPARE(out(0, 0), 0.0f);
    QCOMPARE(out(1, 0), ws.act1.back()(2, 0));
}

void tst_Mlp::setParametersRejectsMismatches_data() {
    QTest::addColumn<QString>("edit");
    QTest::addColumn<QString>("field");
    QTest::newRow("wrong shape") << "shape" << "blocks.0.linear1.weight";
    QTest::newRow("missing") << "missing" << "output.bias";
    QTest::newRow("unknown") << "unknown" << "blocks.7.linear1.weight";
    QTest::newRow("NaN") << "nan" << "input.bias";
    QTest::newRow("short data") << "short" << "output.weight";
}

void tst_Mlp::setParametersRejectsMismatches() {
    QFETCH(QString, edit);
    QFETCH(QString, field);
    Result<Mlp> net = Mlp::create(smallConfig(Activation::GELU, false, false, 1), 3);
    DS_VERIFY_OK(net);
    std::vector<NamedTensor> tensors = net->parameters();
    auto find = [&](const char* name) -> NamedTensor& {
        return *std::find_if(tensors.begin(), tensors.end(), [&](const NamedTensor& t) { return t.name == name; });
    };
    if (edit == "shape") {
        find("blocks.0.linear1.weight").shape = {3, 12};
    } else if (edit == "missing") {
        tensors.pop_back();
    } else if (edit == "unknown") {
        tensors.push_back(NamedTensor{"blocks.7.linear1.weight", {1}, {0.0f}});
    } else if (edit == "nan") {
        find("input.bias").data[2] = std::nanf("");
    } else {
        find("output.weight").data.pop_back();
    }
    const std::vector<float> before(net->flat().begin(), net->flat().end());
    const Status s = net->setParameters(tensors);
    QVERIFY(!s.ok());
    QCOMPARE(QString::fromStdString(s.error().field), field);
    QVERIFY(std::equal(before.begin(), before.end(), net->flat().begin()));
}

void tst_Mlp::denoisersOutputProbabilitiesAndAreThreadSafe() {
    const int k = 4, d = 3;
    Result<Mlp> net = Mlp::create(MlpConfig{.inputs = d * k, .outputs = d * k, .width = 16, .depth = 2,
                                            .layerNorm = true, .timeEmbedding = 8, .numConditions = 2,
                                            .conditionEmbedding = 4},
                                  21);
    DS_VERIFY_OK(net);
    // Scale the output layer up so the softmax sees large logits.
    for (const TensorSpec& spec : net->layout()) {
        if (spec.name == "output.weight") {
            for (int64_t i = 0; i < spec.size; ++i) {
                net->flat()[static_cast<size_t>(spec.offset + i)] *= 40.0f;
            }
        }
    }
    Result<CategoricalMlpDenoiser> model = CategoricalMlpDenoiser::create(*net, k, d);
    DS_VERIFY_OK(model);
    QCOMPARE(model->numConditions(), 2);
    QVERIFY(!model->factorised());
    QVERIFY(!CategoricalMlpDenoiser::create(*net, 3, d).ok());

    const int cases = 64;
    std::vector<double> serial(static_cast<size_t>(cases * d * k));
    auto predictCase = [&](int64_t i, double* out) {
        const int xt[3] = {static_cast<int>(i % 4), static_cast<int>((i / 4) % 4), static_cast<int>((i / 16) % 4)};
        const double t = (static_cast<double>(i) + 0.5) / cases;
        model->predict(xt, static_cast<int>(i % 3), DenoiserTime{t, t}, std::span<double>(out, d * k));
    };
    for (int i = 0; i < cases; ++i) {
        double* f = serial.data() + static_cast<size_t>(i) * d * k;
        predictCase(i, f);
        for (int p = 0; p < d; ++p) {
            double sum = 0.0;
            for (int c = 0; c < k; ++c) {
                QVERIFY(f[p * k + c] >= 0.0 && f[p * k + c] <= 1.0);
                sum += f[p * k + c];
            }
            DS_COMPARE_ABS(sum, 1.0, 1e-12);
        }
    }
    std::vector<double> parallel(serial.size());
    parallelFor(cases, ParallelOptions{2}, [&](int64_t i) {
        predictCase(i, parallel.data() + static_cast<size_t>(i) * d * k);
    }, 4);
    QVERIFY(serial == parallel);

    // The Gaussian adapter equals the float network at t = n/N, chunked or not.
    Result<Mlp> epsNet = Mlp::create(MlpConfig{.inputs = 2, .outputs = 2, .width = 16, .depth = 1, .timeEmbedding = 8}, 4);
    DS_VERIFY_OK(epsNet);
    Result<GaussianMlpEpsModel> epsModel = GaussianMlpEpsModel::create(*epsNet, 100);
    DS_VERIFY_OK(epsModel);
    Matrix x(2, 600);
    for (int m = 0; m < 600; ++m) {
        x(0, m) = std::sin(m);
        x(1, m) = std::cos(0.3 * m);
    }
    Matrix eps(2, 600);
    epsModel->predictEps(x, NoiseLevel{37, 0.5, 0.5}, eps);
    QVERIFY(eps.allFinite());
    Mlp::Workspace ws;
    MatrixF direct(2, 600);
    const std::vector<double> times(600, 0.37);
    epsNet->forward(x.cast<float>(), times, {}, ws, direct);
    QCOMPARE((direct.cast<double>() - eps).cwiseAbs().maxCoeff(), 0.0);
}

void tst_Mlp::sameSeedSameWeightsAndLosses() {
    const MlpConfig config = smallConfig(Activation::SiLU, true, true, 2);
    Result<Mlp> a = Mlp::create(config, 42);
    Result<Mlp> b = Mlp::create(config, 42);
    Result<Mlp> c = Mlp::create(config, 43);
    DS_VERIFY_OK(a);
    DS_VERIFY_OK(b);
    DS_VERIFY_OK(c);
    QVERIFY(std::equal(a->flat().begin(), a->flat().end(), b->flat().begin()));
    QVERIFY(!std::equal(a->flat().begin(), a->flat().end(), c->flat().begin()));

    const CategoricalProcess process{.numClasses = 3, .numPositions = 1, .numConditions = 2,
                                     .pi = Vector::Constant(3, 1.0 / 3.0), .beta = schedule::linearCurve()};
    const CategoricalDataset data = exactTableData(50);
    auto run = [&](uint64_t seed) {
        TrainParams params = quickParams(1);
        params.seed = seed;
        return trainCategorical(process, data, data, quickArchitecture(), params);
    };
    Result<CategoricalTrainResult> first = run(11);
    Result<CategoricalTrainResult> second = run(11);
    Result<CategoricalTrainResult> other = run(12);
    DS_VERIFY_OK(first);
    DS_VERIFY_OK(second);
    DS_VERIFY_OK(other);
    QVERIFY(first->summary.trainLoss == second->summary.trainLoss);
    QVERIFY(first->summary.trainLoss != other->summary.trainLoss);
    const auto w1 = first->model.mlp().flat();
    const auto w2 = second->model.mlp().flat();
    QVERIFY(std::equal(w1.begin(), w1.end(), w2.begin()));
}

void tst_Mlp::threadCountDoesNotChangeTraining_data() {
    QTest::addColumn<bool>("categorical");
    QTest::newRow("categorical") << true;
    QTest::newRow("gaussian") << false;
}

// The guarantee is exact: the batch is cut into fixed blocks of kTrainBlock examples, each block
// runs sequentially, and block gradients are summed in block order, so 1 and 2 threads give
// bit-identical losses, held-out losses and weights.
void tst_Mlp::threadCountDoesNotChangeTraining() {
    QFETCH(bool, categorical);
    std::vector<TrainSummary> summaries;
    std::vector<std::vector<float>> weights;
    for (int threads : {1, 2}) {
        const TrainParams params = quickParams(threads);
        if (categorical) {
            const CategoricalProcess process{.numClasses = 3, .numPositions = 1, .numConditions = 2,
                                             .pi = Vector::Constant(3, 1.0 / 3.0), .beta = schedule::cosineCurve()};
            const CategoricalDataset data = exactTableData(50);
            Result<CategoricalTrainResult> r = trainCategorical(process, data, data, quickArchitecture(), params);
            DS_VERIFY_OK(r);
            summaries.push_back(r->summary);
            weights.emplace_back(r->model.mlp().flat().begin(), r->model.mlp().flat().end());
        } else {
            Result<schedule::GaussianSchedule> schedule = schedule::linearSchedule(100);
            DS_VERIFY_OK(schedule);
            const Matrix train = isotropicPoints(2, 200, 0.5, 1);
            const Matrix heldOut = isotropicPoints(2, 100, 0.5, 2);
            Result<GaussianTrainResult> r = trainGaussian(*schedule, train, heldOut, quickArchitecture(), params);
            DS_VERIFY_OK(r);
            summaries.push_back(r->summary);
            weights.emplace_back(r->model.mlp().flat().begin(), r->model.mlp().flat().end());
        }
    }
    QCOMPARE(summaries[0].stepsDone, 12);
    QVERIFY(summaries[0].trainLoss == summaries[1].trainLoss);
    QCOMPARE(summaries[0].heldOut.size(), size_t{3});  // steps 5, 10 and the end
    for (size_t i = 0; i < summaries[0].heldOut.size(); ++i) {
        QCOMPARE(summaries[0].heldOut[i].step, summaries[1].heldOut[i].step);
        QCOMPARE(summaries[0].heldOut[i].loss, summaries[1].heldOut[i].loss);
    }
    QVERIFY(weights[0] == weights[1]);
}

void tst_Mlp::learningRateSchedule() {
    TrainParams params{.steps = 100, .learningRate = 2.0, .schedule = LrSchedule::Cosine, .warmupSteps = 10};
    DS_COMPARE_ABS(learningRateAt(params, 0), 0.2, 1e-15);
    DS_COMPARE_ABS(learningRateAt(params, 9), 2.0, 1e-15);
    DS_COMPARE_ABS(learningRateAt(params, 10), 2.0, 1e-15);
    DS_COMPARE_ABS(learningRateAt(params, 55), 1.0, 1e-15);  // half way through the decay
    QVERIFY(learningRateAt(params, 99) < 0.01);
    params.schedule = LrSchedule::Constant;
    DS_COMPARE_ABS(learningRateAt(params, 99), 2.0, 1e-15);
}

// K = 3, D = 1, two conditions, uniform π, β(t) = t. The data sets reproduce the table exactly,
// so the optimum of A.3 is the table oracle and the best achievable cross-entropy is
// CE* = E_t H(X_0 | X_t, C). Checks: (1) the model's cross-entropy computed exactly in
// (c, x_0, x_t) by a 400-node midpoint rule in t exceeds CE* by at most 0.01 nats (the excess is
// E_t KL(F* ‖ F_θ), so this bounds the average KL); (2) the trainer's held-out estimate (one t
// and x_t per example, 3000 examples: per-example loss s.d. ≲ 1.1 nats, standard error ≲ 0.02)
// lies within 0.08 (4 s.e.) of CE*; (3) F_θ agrees with the oracle within 0.05 per entry at
// t = 0.2, 0.5, 0.8 (where F is smooth; near t = 0 and 1 the embedding's resolution matters).
void tst_Mlp::categoricalTrainingApproachesTheOracle() {
    const Vector pi = Vector::Constant(3, 1.0 / 3.0);
    const CategoricalProcess process{.numClasses = 3, .numPositions = 1, .numConditions = 2, .pi = pi,
                                     .beta = schedule::linearCurve()};
    const CategoricalDataset train = exactTableData(1000);
    const CategoricalDataset heldOut = exactTableData(1500);
    const MlpConfig architecture{.width = 32, .depth = 1, .timeEmbedding = 16, .timeScale = 20.0,
                                 .conditionEmbedding = 8};
    const TrainParams params{.steps = 1500, .batch = 64, .learningRate = 3e-3, .warmupSteps = 50,
                             .emaDecay = 0.99, .evalEvery = 500, .seed = 1, .parallel = {2}};
    Result<CategoricalTrainResult> trained = trainCategorical(process, train, heldOut, architecture, params);
    DS_VERIFY_OK(trained);
    const TrainSummary& summary = trained->summary;
    QCOMPARE(summary.stepsDone, 1500);
    QVERIFY(!summary.cancelled);
    QCOMPARE(summary.heldOut.size(), size_t{3});

    std::vector<double> p;
    std::vector<std::string> labels;
    std::vector<int> classes;
    for (int c = 0; c < 2; ++c) {
        for (int i = 0; i < 3; ++i) {
            classes.push_back(i);
            p.push_back(c == 0 ? kTableA[i] : kTableB[i]);
            labels.push_back(c == 0 ? "a" : "b");
        }
    }
    Result<data::CategoricalTable> table = data::makeCategoricalTable(1, 3, classes, p, labels);
    DS_VERIFY_OK(table);
    const TableOracle oracle(*table, pi);
    const double oracleCE = crossEntropyOverTime(oracle, 400);
    const double modelCE = crossEntropyOverTime(trained->model, 400);
    qInfo("cross-entropy: oracle %.5f, model (exact in x) %.5f, model held-out estimate %.5f, train %.5f",
          oracleCE, modelCE, summary.heldOut.back().loss, summary.finalTrainLoss);
    QVERIFY(modelCE >= oracleCE - 1e-9);
    DS_COMPARE_ABS(modelCE, oracleCE, 0.01);
    DS_COMPARE_ABS(summary.heldOut.back().loss, oracleCE, 0.08);
    std::vector<double> fModel(3), fOracle(3);
    for (double t : {0.2, 0.5, 0.8}) {
        for (int c = 0; c < 2; ++c) {
            for (int j = 0; j < 3; ++j) {
                const int xt[1] = {j};
                trained->model.predict(xt, c, DenoiserTime{t, t}, fModel);
                oracle.predict(xt, c, DenoiserTime{t, t}, fOracle);
                for (int i = 0; i < 3; ++i) {
                    DS_COMPARE_ABS(fModel[i], fOracle[i], 0.05);
                }
            }
        }
    }
}

// A mask state (class 2 of K = 3, π = δ₂, data on classes 0 and 1 only): x_t is x_0 or the mask,
// so the exact F is p(· | c) at a masked position and δ_{x_t} elsewhere, and the mask class gets
// exactly 0 (the softmax leaves it out, in training and in the trained network). The held-out
// loss is E_t[β(t)]·H(X_0 | C) = H/2 for β(t) = t, H the mean of the two conditions' entropies.
void tst_Mlp::maskStateTrainingLeavesTheMaskOut() {
    const std::vector<double> tables[2] = {{0.7, 0.3}, {0.2, 0.8}};
    CategoricalDataset train;
    for (int r = 0; r < 2000; ++r) {
        const int c = r % 2;
        // Rows r and r + 2 of a condition alternate over ten slots: 0.7 → 7 of 10 are class 0.
        const int slot = (r / 2) % 10;
        train.rows.push_back(slot < static_cast<int>(std::lround(tables[c][0] * 10)) ? 0 : 1);
        train.labels.push_back(c);
    }
    const CategoricalProcess process{.numClasses = 3, .numPositions = 1, .numConditions = 2,
                                     .pi = Vector::Unit(3, 2), .beta = schedule::linearCurve(),
                                     .maskState = true};
    const MlpConfig architecture{.width = 32, .depth = 1, .timeEmbedding = 16, .timeScale = 20.0,
                                 .conditionEmbedding = 8};
    const TrainParams params{.steps = 1500, .batch = 64, .learningRate = 3e-3, .warmupSteps = 50,
                             .emaDecay = 0.99, .evalEvery = 500, .seed = 1, .parallel = {1}};
    Result<CategoricalTrainResult> trained = trainCategorical(process, train, train, architecture, params);
    DS_VERIFY_OK(trained);
    QCOMPARE(trained->model.maskClass(), 2);
    std::vector<double> f(3);
    for (double t : {0.1, 0.5, 0.9}) {
        for (int c = 0; c < 2; ++c) {
            for (int xt : {0, 1, 2}) {
                const int x[1] = {xt};
                trained->model.predict(x, c, DenoiserTime{t, t}, f);
                QCOMPARE(f[2], 0.0);
                DS_COMPARE_ABS(f[0] + f[1], 1.0, 1e-12);
                const double expected0 = xt == 2 ? tables[c][0] : (xt == 0 ? 1.0 : 0.0);
                DS_COMPARE_ABS(f[0], expected0, 0.05);
            }
        }
    }
    auto entropy = [](const std::vector<double>& p) {
        double h = 0.0;
        for (double v : p) h -= v * std::log(v);
        return h;
    };
    const double expectedLoss = 0.5 * 0.5 * (entropy(tables[0]) + entropy(tables[1]));
    // 2000 held-out examples, per-example s.d. ≲ 0.6: s.e. ≲ 0.014.
    DS_COMPARE_ABS(trained->summary.heldOut.back().loss, expectedLoss, 0.06);
}

// Data N(0, s²I), d = 2, s = 0.5, linear schedule with N = 100. The optimum ε* is the oracle's,
// with E‖ε − ε*‖²/d = 1 − β̄_n Γ_n, Γ_n = 1/(ᾱ_n s² + β̄_n) (docs/gaussian.md#exact-oracles),
// averaged over n. Checks: (1) the excess E‖ε_θ − ε*‖²/d, measured on 20000 fresh (x_0, n, ε)
// draws, is below
// 0.01 (it is what separates the model's ε-MSE from the oracle's); (2) the trainer's held-out
// loss (4000 examples, per-example s.d. ≲ 0.8, s.e. ≲ 0.013) is within 0.05 of the exact value.
void tst_Mlp::gaussianTrainingApproachesTheOracle() {
    const double s = 0.5;
    Result<schedule::GaussianSchedule> schedule = schedule::linearSchedule(100);
    DS_VERIFY_OK(schedule);
    const Matrix train = isotropicPoints(2, 4000, s, 1);
    const Matrix heldOut = isotropicPoints(2, 4000, s, 2);
    const MlpConfig architecture{.width = 32, .depth = 1, .timeEmbedding = 16, .timeScale = 20.0};
    const TrainParams params{.steps = 1500, .batch = 64, .learningRate = 3e-3, .warmupSteps = 50,
                             .emaDecay = 0.99, .evalEvery = 0, .seed = 2, .parallel = {2}};
    Result<GaussianTrainResult> trained = trainGaussian(*schedule, train, heldOut, architecture, params);
    DS_VERIFY_OK(trained);

    double exact = 0.0;
    for (int n = 1; n <= 100; ++n) {
        const double gamma = 1.0 / (schedule->alphaBar(n) * s * s + schedule->betaBar(n));
        exact += (1.0 - schedule->betaBar(n) * gamma) / 100.0;
    }
    Result<std::shared_ptr<IsotropicGaussianOracle>> oracle = IsotropicGaussianOracle::create(Vector::Zero(2), s);
    DS_VERIFY_OK(oracle);
    const int draws = 20000;
    double excess = 0.0;
    Matrix x(2, 1), epsModel(2, 1), epsOracle(2, 1);
    for (int m = 0; m < draws; ++m) {
        CounterRng rng(77, static_cast<uint64_t>(m), 0);
        const int n = 1 + static_cast<int>(rng.uniform() * 100);
        const NoiseLevel level{n, schedule->alphaBar(n), schedule->betaBar(n)};
        for (int i = 0; i < 2; ++i) {
            x(i, 0) = std::sqrt(level.alphaBar) * s * rng.normal() + std::sqrt(level.betaBar) * rng.normal();
        }
        trained->model.predictEps(x, level, epsModel);
        (*oracle)->predictEps(x, level, epsOracle);
        excess += (epsModel - epsOracle).squaredNorm() / 2.0 / draws;
    }
    qInfo("eps-MSE: exact oracle %.5f, model held-out %.5f, train %.5f, excess E|eps_model - eps*|^2/d %.5f",
          exact, trained->summary.heldOut.back().loss, trained->summary.finalTrainLoss, excess);
    DS_COMPARE_ABS(excess, 0.0, 0.01);
    DS_COMPARE_ABS(trained->summary.heldOut.back().loss, exact, 0.05);
}

void tst_Mlp::cancelReturnsPromptlyWithAUsableModel() {
    const CategoricalProcess process{.numClasses = 3, .numPositions = 1, .numConditions = 2,
                                     .pi = Vector::Constant(3, 1.0 / 3.0), .beta = schedule::linearCurve()};
    const CategoricalDataset data = exactTableData(100);
    AbortOnCall observer(3);  // the observer is consulted at most every 50 ms
    Progress progress(&observer);
    TrainParams params = quickParams(2);
    params.steps = 10'000'000;
    params.evalEvery = 1000;
    const auto start = std::chrono::steady_clock::now();
    Result<CategoricalTrainResult> r = trainCategorical(process, data, data, quickArchitecture(), params, &progress);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    DS_VERIFY_OK(r);
    QVERIFY(r->summary.cancelled);
    QVERIFY(r->summary.stepsDone >= 1 && r->summary.stepsDone < params.steps);
    QCOMPARE(static_cast<int>(r->summary.trainLoss.size()), r->summary.stepsDone);
    QVERIFY2(seconds < 3.0, qPrintable(QString("cancel took %1 s").arg(seconds)));
    std::vector<double> f(3);
    const int xt[1] = {1};
    r->model.predict(xt, 0, DenoiserTime{0.5, 0.5}, f);
    DS_COMPARE_ABS(f[0] + f[1] + f[2], 1.0, 1e-12);
    QVERIFY(std::isfinite(f[0]) && std::isfinite(f[1]) && std::isfinite(f[2]));
}

void tst_Mlp::invalidParamsNameTheField_data() {
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("field");
    QTest::newRow("steps 0") << "steps" << "steps";
    QTest::newRow("batch 0") << "batch" << "batch";
    QTest::newRow("NaN learning rate") << "lrNaN" << "learningRate";
    QTest::newRow("negative learning rate") << "lrNeg" << "learningRate";
    QTest::newRow("beta1 = 1") << "beta1" << "adamBeta1";
    QTest::newRow("negative weight decay") << "decay" << "weightDecay";
    QTest::newRow("warm-up < 0") << "warmup" << "warmupSteps";
    QTest::newRow("EMA > 1") << "ema" << "emaDecay";
    QTest::newRow("threads 0") << "threads" << "parallel.numThreads";
    QTest::newRow("width 0") << "width" << "width";
    QTest::newRow("odd time embedding") << "temb" << "timeEmbedding";
    QTest::newRow("class out of range") << "class" << "train.rows[1]";
    QTest::newRow("label out of range") << "label" << "heldOut.labels[0]";
    QTest::newRow("pi wrong size") << "pi" << "pi";
    QTest::newRow("mask state without its π") << "maskPi" << "pi";
    QTest::newRow("data on the mask state") << "maskData" << "train.rows[2]";
}

void tst_Mlp::invalidParamsNameTheField() {
    QFETCH(QString, what);
    QFETCH(QString, field);
    CategoricalProcess process{.numClasses = 3, .numPositions = 1, .numConditions = 2,
                               .pi = Vector::Constant(3, 1.0 / 3.0), .beta = schedule::linearCurve()};
    CategoricalDataset train{.rows = {0, 1, 2}, .labels = {0, 1, 0}};
    CategoricalDataset heldOut = train;
    MlpConfig architecture = quickArchitecture();
    TrainParams params = quickParams(1);
    if (what == "steps") params.steps = 0;
    if (what == "batch") params.batch = 0;
    if (what == "lrNaN") params.learningRate = std::nan("");
    if (what == "lrNeg") params.learningRate = -1e-3;
    if (what == "beta1") params.adamBeta1 = 1.0;
    if (what == "decay") params.weightDecay = -0.1;
    if (what == "warmup") params.warmupSteps = -1;
    if (what == "ema") params.emaDecay = 1.5;
    if (what == "threads") params.parallel.numThreads = 0;
    if (what == "width") architecture.width = 0;
    if (what == "temb") architecture.timeEmbedding = 7;
    if (what == "class") train.rows[1] = 3;
    if (what == "label") heldOut.labels[0] = 2;
    if (what == "pi") process.pi = Vector::Constant(2, 0.5);
    if (what == "maskPi") process.maskState = true;
    if (what == "maskData") {
        process.maskState = true;
        process.pi = Vector::Unit(3, 2);
    }
    Result<CategoricalTrainResult> r = trainCategorical(process, train, heldOut, architecture, params);
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error().field), field);
    if (what.startsWith("lr") || what == "batch" || what == "steps" || what == "width") {
        // The Gaussian trainer validates the same way.
        Result<schedule::GaussianSchedule> schedule = schedule::linearSchedule(100);
        DS_VERIFY_OK(schedule);
        Result<GaussianTrainResult> g = trainGaussian(*schedule, Matrix::Zero(2, 3), Matrix(), architecture, params);
        QVERIFY(!g.ok());
        QCOMPARE(QString::fromStdString(g.error().field), field);
    }
}

QTEST_GUILESS_MAIN(tst_Mlp)
#include "tst_mlp.moc"
