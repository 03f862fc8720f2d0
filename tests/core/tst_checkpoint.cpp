// SPDX-License-Identifier: MIT
// Tests of core/model/checkpoint: MLP denoisers round-trip through safetensors files with
// identical predictions; bad architectures and tampered tensors are refused with their names.
#include <QTemporaryDir>
#include <QTest>

#include "core/io/safetensors.h"
#include "core/model/checkpoint.h"
#include "core/model/trainer.h"
#include "core/schedule/beta_curve.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

using namespace core::model;

namespace {
MlpConfig smallConfig(int inputs, int outputs, int conditions) {
    MlpConfig c;
    c.inputs = inputs;
    c.outputs = outputs;
    c.width = 16;
    c.depth = 2;
    c.layerNorm = true;
    c.activation = Activation::GELU;
    c.numConditions = conditions;
    return c;
}
}  // namespace

class tst_Checkpoint : public QObject {
    Q_OBJECT

private slots:
    void architectureRoundTrip();
    void categoricalRoundTripPredictsTheSame();
    void gaussianRoundTripPredictsTheSame();
    void tamperedFilesAreRefused();
    void resumedTrainingEqualsAnUninterruptedRun_data();
    void resumedTrainingEqualsAnUninterruptedRun();
    void resumeRefusesAnotherRun();
    void resumeAcceptsParametersAsAnEarlierBuildWroteThem();
};

void tst_Checkpoint::architectureRoundTrip() {
    const MlpConfig config = smallConfig(12, 12, 3);
    const auto back = architectureFromJson(architectureToJson(config));
    DS_VERIFY_OK(back);
    QCOMPARE(architectureToJson(*back), architectureToJson(config));
    QVERIFY(!architectureFromJson("{\"kind\":\"transformer\"}").ok());
    QVERIFY(!architectureFromJson("{\"kind\":\"mlp\",\"inputs\":2}").ok());  // fields missing
    QVERIFY(!architectureFromJson("not json").ok());
}

void tst_Checkpoint::categoricalRoundTripPredictsTheSame() {
    QTemporaryDir dir;
    const int k = 3, d = 4;
    auto mlp = Mlp::create(smallConfig(k * d, k * d, 2), 11);
    DS_VERIFY_OK(mlp);
    auto model = CategoricalMlpDenoiser::create(*mlp, k, d);
    DS_VERIFY_OK(model);
    core::io::CheckpointInfo info;
    info.process = "categorical";
    info.numClasses = k;
    info.numPositions = d;
    info.numConditions = 2;
    info.pi = {0.2, 0.3, 0.5};
    info.schedule = "cosine";
    const std::string path = dir.filePath("cat.safetensors").toStdString();
    DS_VERIFY_OK(saveMlpCheckpoint(path, *mlp, info));
    const auto loaded = loadMlpCheckpoint(path);
    DS_VERIFY_OK(loaded);
    QVERIFY(loaded->categorical != nullptr);
    QCOMPARE(loaded->info.pi, info.pi);
    std::vector<double> before(k * d), after(k * d);
    const std::vector<int> xt = {0, 2, 1, 1};
    for (int condition : {0, 1, 2}) {
        model->predict(xt, condition, {0.4, 0.3}, before);
        loaded->categorical->predict(xt, condition, {0.4, 0.3}, after);
        QCOMPARE(after, before);  // bit-identical: F32 weights are stored exactly
    }
}

void tst_Checkpoint::gaussianRoundTripPredictsTheSame() {
    QTemporaryDir dir;
    auto mlp = Mlp::create(smallConfig(2, 2, 0), 5);
    DS_VERIFY_OK(mlp);
    auto model = GaussianMlpEpsModel::create(*mlp, 100);
    DS_VERIFY_OK(model);
    core::io::CheckpointInfo info;
    info.process = "gaussian";
    info.numPositions = 2;
    info.schedule = "linear,N=100";
    const std::string path = dir.filePath("g.safetensors").toStdString();
    DS_VERIFY_OK(saveMlpCheckpoint(path, *mlp, info));
    const auto loaded = loadMlpCheckpoint(path);
    DS_VERIFY_OK(loaded);
    QVERIFY(loaded->gaussian != nullptr);
    QCOMPARE(dynamic_cast<const GaussianMlpEpsModel&>(*loaded->gaussian).numSteps(), 100);
    core::Matrix x(2, 3);
    x << 0.1, -0.5, 1.0, 0.3, 0.0, -1.0;
    core::Matrix a(2, 3), b(2, 3);
    model->predictEps(x, {37, 0.6, 0.4}, a);
    loaded->gaussian->predictEps(x, {37, 0.6, 0.4}, b);
    QVERIFY(a == b);
}

void tst_Checkpoint::tamperedFilesAreRefused() {
    QTemporaryDir dir;
    auto mlp = Mlp::create(smallConfig(2, 2, 0), 5);
    DS_VERIFY_OK(mlp);
    core::io::CheckpointInfo info;
    info.process = "gaussian";
    info.numPositions = 2;
    info.schedule = "linear,N=100";
    const std::string path = dir.filePath("g.safetensors").toStdString();
    DS_VERIFY_OK(saveMlpCheckpoint(path, *mlp, info));
    auto checkpoint = core::io::readSafetensors(path);
    DS_VERIFY_OK(checkpoint);

    // A tensor with the wrong shape: refused, naming it.
    auto wrongShape = *checkpoint;
    wrongShape.set("output.bias", core::io::makeF32Tensor({3}, {0.f, 0.f, 0.f}));
    const std::string shapePath = dir.filePath("shape.safetensors").toStdString();
    DS_VERIFY_OK(core::io::writeSafetensors(shapePath, wrongShape));
    const auto shape = loadMlpCheckpoint(shapePath);
    QVERIFY(!shape.ok());
    QVERIFY2(shape.error().toString().find("output.bias") != std::string::npos,
             shape.error().toString().c_str());

    // A NaN weight: refused, naming the tensor.
    auto nan = *checkpoint;
    nan.set("output.bias", core::io::makeF32Tensor({2}, {0.f, std::nanf("")}));
    const std::string nanPath = dir.filePath("nan.safetensors").toStdString();
    DS_VERIFY_OK(core::io::writeSafetensors(nanPath, nan));
    const auto bad = loadMlpCheckpoint(nanPath);
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error().toString().find("output.bias") != std::string::npos,
             bad.error().toString().c_str());

    // No process in the metadata: refused.
    auto noProcess = *checkpoint;
    noProcess.metadata.erase("process");
    const std::string noProcessPath = dir.filePath("np.safetensors").toStdString();
    DS_VERIFY_OK(core::io::writeSafetensors(noProcessPath, noProcess));
    QVERIFY(!loadMlpCheckpoint(noProcessPath).ok());
}

namespace {

// Stops the run after exactly `after` steps: the loss callback of step `after` cancels, and the
// trainer checks the token once that step is complete.
struct StopAfter {
    explicit StopAfter(int steps) : after(steps) {}
    core::Progress progress;
    int after;
    void attach(TrainParams& params) {
        params.onLoss = [this](const LossPoint& point, bool heldOut) {
            if (!heldOut && point.step == after) progress.cancel();
        };
    }
};

TrainParams resumeParams() {
    TrainParams p;
    p.steps = 40;
    p.batch = 24;  // two blocks of kTrainBlock, one partial
    p.warmupSteps = 5;
    p.evalEvery = 10;
    p.weightDecay = 0.01;
    p.seed = 5;
    p.parallel.numThreads = 2;
    return p;
}

MlpConfig resumeArchitecture() {
    MlpConfig c;
    c.width = 12;
    c.depth = 2;
    c.timeEmbedding = 8;
    c.conditionEmbedding = 4;
    return c;
}

// One training run of either process on fixed small data; `stop` (may be null) stops it early.
struct Run {
    TrainSummary summary;
    TrainState state;
    Mlp net;
};
core::Result<Run> trainOnce(bool categorical, TrainParams params, StopAfter* stop) {
    if (stop != nullptr) stop->attach(params);
    core::Progress* progress = stop != nullptr ? &stop->progress : nullptr;
    if (categorical) {
        CategoricalDataset data;
        for (int m = 0; m < 60; ++m) {
            core::CounterRng rng(3, static_cast<uint64_t>(m), 0);
            data.rows.push_back(m % 3);
            data.rows.push_back(static_cast<int>(rng.uniform() * 3));
            data.labels.push_back(m % 2);
        }
        const CategoricalProcess process{.numClasses = 3,
                                         .numPositions = 2,
                                         .numConditions = 2,
                                         .pi = core::Vector::Constant(3, 1.0 / 3.0),
                                         .beta = core::schedule::cosineCurve()};
        auto r = trainCategorical(process, data, data, resumeArchitecture(), params, progress);
        if (!r) return r.error();
        return Run{r->summary, r->state, r->model.mlp()};
    }
    auto schedule = core::schedule::linearSchedule(100);
    if (!schedule) return schedule.error();
    core::Matrix points(2, 80);
    for (int m = 0; m < 80; ++m) {
        core::CounterRng rng(4, static_cast<uint64_t>(m), 0);
        points(0, m) = rng.normal();
        points(1, m) = 0.5 * rng.normal() + 1.0;
    }
    auto r = trainGaussian(*schedule, points, points.leftCols(20), resumeArchitecture(), params,
                           progress);
    if (!r) return r.error();
    return Run{r->summary, r->state, r->model.mlp()};
}

}  // namespace

void tst_Checkpoint::resumedTrainingEqualsAnUninterruptedRun_data() {
    QTest::addColumn<bool>("categorical");
    QTest::addColumn<int>("stopAfter");
    QTest::newRow("categorical, stopped after 1") << true << 1;
    QTest::newRow("categorical, stopped after 17") << true << 17;
    QTest::newRow("gaussian, stopped after 20 (an evaluation step)") << false << 20;
    QTest::newRow("gaussian, stopped after 39") << false << 39;
}

// Stop after k steps, save the checkpoint with its state, load it from the file and resume: the
// weights, every loss and the held-out evaluations equal those of a run that never stopped, bit
// for bit (AdamW's moments, the EMA and the online weights all carry over; draws are keyed by
// step).
void tst_Checkpoint::resumedTrainingEqualsAnUninterruptedRun() {
    QFETCH(bool, categorical);
    QFETCH(int, stopAfter);
    QTemporaryDir dir;
    auto whole = trainOnce(categorical, resumeParams(), nullptr);
    DS_VERIFY_OK(whole);
    StopAfter stop(stopAfter);
    auto first = trainOnce(categorical, resumeParams(), &stop);
    DS_VERIFY_OK(first);
    QVERIFY(first->summary.cancelled);
    QCOMPARE(first->summary.stepsDone, stopAfter);
    const std::string path = dir.filePath("stopped.safetensors").toStdString();
    core::io::CheckpointInfo info;
    info.process = categorical ? "categorical" : "gaussian";
    info.numClasses = categorical ? 3 : 0;
    info.numPositions = categorical ? 2 : 2;
    info.numConditions = categorical ? 2 : 0;
    info.schedule = categorical ? "cosine" : "linear,N=100";
    DS_VERIFY_OK(saveMlpCheckpoint(path, first->net, info, &first->state));
    auto loaded = loadMlpCheckpoint(path);
    DS_VERIFY_OK(loaded);
    QVERIFY(loaded->trainState != nullptr);
    QCOMPARE(loaded->trainState->stepsDone, stopAfter);
    QCOMPARE(loaded->info.trainingSteps, stopAfter);
    QVERIFY(loaded->trainState->online == first->state.online);
    QVERIFY(loaded->trainState->ema == first->state.ema);
    QVERIFY(loaded->trainState->trainLoss == first->state.trainLoss);  // F64: exact

    TrainParams params = resumeParams();
    params.resume = loaded->trainState.get();
    auto resumed = trainOnce(categorical, params, nullptr);
    DS_VERIFY_OK(resumed);
    QVERIFY(!resumed->summary.cancelled);
    QCOMPARE(resumed->summary.stepsDone, 40);
    QVERIFY(resumed->summary.trainLoss == whole->summary.trainLoss);
    QCOMPARE(resumed->summary.finalTrainLoss, whole->summary.finalTrainLoss);
    const std::vector<float> a(whole->net.flat().begin(), whole->net.flat().end());
    const std::vector<float> b(resumed->net.flat().begin(), resumed->net.flat().end());
    QVERIFY(a == b);
    QVERIFY(resumed->state.moment2 == whole->state.moment2);
    // The held-out evaluations after the stop are the uninterrupted run's.
    QVERIFY(!resumed->summary.heldOut.empty());
    QCOMPARE(resumed->summary.heldOut.back().step, 40);
    QCOMPARE(resumed->summary.heldOut.back().loss, whole->summary.heldOut.back().loss);
    // And the stopped network really is another one (the comparison above can fail).
    QVERIFY(std::vector<float>(first->net.flat().begin(), first->net.flat().end()) != a);
}

// Before nlohmann-json wrote them, the training parameters were written with std::to_chars
// ("1" for 1.0, "3e-04" for 0.0003); such a checkpoint still resumes, and gives the same run.
void tst_Checkpoint::resumeAcceptsParametersAsAnEarlierBuildWroteThem() {
    TrainParams params = resumeParams();
    params.learningRate = 3e-4;
    params.emaDecay = 1.0;
    StopAfter stop(8);
    auto first = trainOnce(false, params, &stop);
    DS_VERIFY_OK(first);
    TrainState earlier = first->state;
    earlier.trainParams =
        "{\"steps\":40,\"batch\":24,\"learning_rate\":3e-04,\"lr_schedule\":\"" +
        std::string(params.schedule == LrSchedule::Cosine ? "cosine" : "constant") +
        "\",\"warmup\":5,\"adam_beta1\":" + core::shortestText(params.adamBeta1) +
        ",\"adam_beta2\":" + core::shortestText(params.adamBeta2) +
        ",\"adam_epsilon\":" + core::shortestText(params.adamEpsilon) +
        ",\"weight_decay\":0.01,\"ema_decay\":1,\"condition_dropout\":" +
        core::shortestText(params.conditionDropout) + ",\"seed\":5}";
    QVERIFY(earlier.trainParams != trainParamsToJson(params));  // the text differs
    auto whole = trainOnce(false, params, nullptr);
    DS_VERIFY_OK(whole);
    params.resume = &earlier;
    auto resumed = trainOnce(false, params, nullptr);
    DS_VERIFY_OK(resumed);
    QCOMPARE(resumed->summary.stepsDone, 40);
    QVERIFY(resumed->state.online == whole->state.online);
}

void tst_Checkpoint::resumeRefusesAnotherRun() {
    StopAfter stop(8);
    auto first = trainOnce(false, resumeParams(), &stop);
    DS_VERIFY_OK(first);
    // Another learning rate: the trajectory would differ, so the trainer says what it expected.
    TrainParams params = resumeParams();
    params.learningRate = 2e-3;
    params.resume = &first->state;
    auto other = trainOnce(false, params, nullptr);
    QVERIFY(!other.ok());
    QCOMPARE(other.error().field, std::string("resume"));
    QVERIFY2(other.error().message.find("other training parameters") != std::string::npos,
             other.error().message.c_str());
    // Nothing left to do.
    params = resumeParams();
    params.steps = 8;
    TrainState done = first->state;
    done.trainParams = trainParamsToJson(params);
    params.resume = &done;
    QVERIFY(!trainOnce(false, params, nullptr).ok());
    // A state of another network size.
    params = resumeParams();
    TrainState shorter = first->state;
    shorter.online.pop_back();
    params.resume = &shorter;
    auto wrongSize = trainOnce(false, params, nullptr);
    QVERIFY(!wrongSize.ok());
    QVERIFY(wrongSize.error().message.find("another network") != std::string::npos);
    // A file whose state lacks a part is refused on loading, naming the tensor.
    QTemporaryDir dir;
    const std::string path = dir.filePath("partial.safetensors").toStdString();
    core::io::CheckpointInfo info;
    info.process = "gaussian";
    info.numPositions = 2;
    info.schedule = "linear,N=100";
    DS_VERIFY_OK(saveMlpCheckpoint(path, first->net, info, &first->state));
    auto file = core::io::readSafetensors(path);
    DS_VERIFY_OK(file);
    auto& tensors = file->tensors;
    tensors.erase(std::remove_if(tensors.begin(), tensors.end(),
                                 [](const auto& t) { return t.first == "train_state.moment2"; }),
                  tensors.end());
    DS_VERIFY_OK(core::io::writeSafetensors(path, *file));
    auto partial = loadMlpCheckpoint(path);
    QVERIFY(!partial.ok());
    QVERIFY2(partial.error().toString().find("train_state.moment2") != std::string::npos,
             partial.error().toString().c_str());
}

QTEST_GUILESS_MAIN(tst_Checkpoint)
#include "tst_checkpoint.moc"
