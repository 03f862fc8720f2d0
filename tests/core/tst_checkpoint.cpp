// SPDX-License-Identifier: MIT
// Tests of core/model/checkpoint: MLP denoisers round-trip through safetensors files with
// identical predictions; bad architectures and tampered tensors are refused with their names.
#include <QTemporaryDir>
#include <QTest>

#include "core/io/safetensors.h"
#include "core/model/checkpoint.h"
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
    QCOMPARE(loaded->gaussian->numSteps(), 100);
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

QTEST_GUILESS_MAIN(tst_Checkpoint)
#include "tst_checkpoint.moc"
