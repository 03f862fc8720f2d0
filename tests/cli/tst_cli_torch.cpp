// SPDX-License-Identifier: MIT
// TorchScript models through the command line: `--model FILE.pt` gives what the exact model the
// file holds implies (Γ equal to the exact oracle's on the same draws), `info` describes the
// contract, and a refusal or a network that fails in the middle of a job is one line on stderr
// with exit code 2.
#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QTemporaryDir>
#include <QTest>

#include <utility>
#include <vector>

#include "core/model/torch_model.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::runCli;

namespace {

const QString kModels = QStringLiteral(DIFFUSCOPE_TORCH_TEST_MODELS);

QString model(const char* name) { return kModels + "/" + name; }

// The n,gamma rows of a Γ CSV file.
std::vector<double> readGamma(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    std::vector<double> gamma;
    file.readLine();  // n,gamma
    while (!file.atEnd()) {
        const QList<QByteArray> fields = file.readLine().trimmed().split(',');
        if (fields.size() == 2) gamma.push_back(fields[1].toDouble());
    }
    return gamma;
}

}  // namespace

class tst_CliTorch : public QObject {
    Q_OBJECT

private slots:
    void init();
    void gammaEqualsTheOraclesOnTheSameDraws();
    void infoDescribesTheContract();
    void aFailingNetworkEndsTheCommandWithItsMessage();
    void aModelThatDoesNotFitIsRefused();
    void nonFiniteLogitsEndTheCommandNamingT_data();
    void nonFiniteLogitsEndTheCommandNamingT();
    void aNonFinitePredictionEndsGammaNamingN();
    void aNetworksPrintsLeaveTheJsonIntact();
    void theContractsScheduleIsCheckedAndCompared();
    void predictionTypeOfADiffusersConfig();
    void hostileContractsAreOnePrintableLine();
    void evaluateOpensACategoricalTorchScriptModel();
    void withoutThePluginItsPackageIsNamed();

private:
    QString table();  // D = 3, K = 4, as categorical.pt's contract
    QTemporaryDir m_dir;
};

void tst_CliTorch::init() {
    // The refusal without the plugin needs neither the test models nor LibTorch.
    if (QByteArray(QTest::currentTestFunction()) == "withoutThePluginItsPackageIsNamed") return;
    if (kModels.isEmpty()) QSKIP("the test models need python3 with torch at configure time");
    if (!core::model::torchModelsAvailable()) QSKIP("this build has no LibTorch");
}

void tst_CliTorch::gammaEqualsTheOraclesOnTheSameDraws() {
    const QStringList common{"gamma", "--data", "gaussian:d=2,s=0.5", "--estimator", "score",
                             "--samples", "40", "--seed", "5", "--threads", "2"};
    const QString viaNetwork = m_dir.filePath("network.csv");
    const QString viaOracle = m_dir.filePath("oracle.csv");
    auto network = runCli(common + QStringList{"--model", model("exact-v_prediction.pt"), "--out",
                                              viaNetwork});
    QVERIFY2(network.exitCode == 0, qPrintable(network.err));
    auto oracle = runCli(common + QStringList{"--model", "oracle", "--out", viaOracle});
    QVERIFY2(oracle.exitCode == 0, qPrintable(oracle.err));
    const auto a = readGamma(viaNetwork);
    const auto b = readGamma(viaOracle);
    QCOMPARE(a.size(), size_t{1000});
    QCOMPARE(b.size(), size_t{1000});
    // The network is the oracle's formula in float32 on float32 inputs, and v is converted
    // back to ε: agreement to about 1e-5 relative, on every n.
    for (size_t n = 0; n < a.size(); ++n) DS_COMPARE_REL(a[n], b[n], 2e-5);
}

void tst_CliTorch::infoDescribesTheContract() {
    auto run = runCli({"info", model("exact-image.pt")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    for (const char* part : {"TorchScript model", "process = gaussian", "\"shape\":[1,2,2]",
                             "\"prediction\":\"epsilon\"", "schedule = linear,N=1000",
                             "num_positions = 4"}) {
        QVERIFY2(run.out.contains(part), qPrintable(run.out));
    }
}

void tst_CliTorch::aFailingNetworkEndsTheCommandWithItsMessage() {
    auto run = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--model", model("fails-later.pt"),
                       "--samples", "20", "--threads", "2", "--out", m_dir.filePath("x.csv")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("fails-later.pt: the network failed at n = "), qPrintable(run.err));
    QVERIFY2(run.err.contains("refuses batches larger than 2"), qPrintable(run.err));
    QVERIFY2(!run.err.contains("internal error"), qPrintable(run.err));
    QCOMPARE(run.err.trimmed().count('\n'), 0);
    QVERIFY(!QFile::exists(m_dir.filePath("x.csv")));
}

void tst_CliTorch::aModelThatDoesNotFitIsRefused() {
    auto dimension = runCli({"gamma", "--data", "gaussian:d=3,s=0.5", "--model",
                             model("exact-epsilon.pt"), "--out", m_dir.filePath("y.csv")});
    QCOMPARE(dimension.exitCode, 2);
    QVERIFY2(dimension.err.contains("exact-epsilon.pt") &&
                 dimension.err.contains("dimension 2") && dimension.err.contains("3"),
             qPrintable(dimension.err));
    auto steps = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--steps", "500", "--model",
                         model("exact-epsilon.pt"), "--out", m_dir.filePath("y.csv")});
    QCOMPARE(steps.exitCode, 2);
    QVERIFY2(steps.err.contains("N = 1000") && steps.err.contains("N = 500"), qPrintable(steps.err));
    auto contract = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--model",
                            model("bad-prediction.pt"), "--out", m_dir.filePath("y.csv")});
    QCOMPARE(contract.exitCode, 2);
    QVERIFY2(contract.err.contains("diffuscope.json: prediction = x0"), qPrintable(contract.err));
}

QString tst_CliTorch::table() {
    const QString path = m_dir.filePath("table-d3-k4.csv");
    QFile file(path);
    if (!file.exists() && file.open(QIODevice::WriteOnly)) {
        file.write("x1,x2,x3,p\n0,1,2,0.25\n3,0,2,0.25\n1,1,1,0.3\n2,3,0,0.2\n");
    }
    return path;
}

void tst_CliTorch::nonFiniteLogitsEndTheCommandNamingT_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("value");
    QTest::newRow("nan") << "categorical-nan-early.pt" << "nan";
    QTest::newRow("inf") << "categorical-inf-early.pt" << "inf";
    QTest::newRow("-inf") << "categorical-neginf-early.pt" << "-inf";
}

void tst_CliTorch::nonFiniteLogitsEndTheCommandNamingT() {
    // The load check (t = 0.5 and 1) passes; the step costs at t < 0.3 must not.
    QFETCH(QString, file);
    QFETCH(QString, value);
    const QString path = kModels + "/" + file;
    for (const QString& format : {QString("json"), QString("csv")}) {
        auto run = runCli({"categorical", "--table", table(), "--pi", "uniform:4", "--schedule",
                           "linear", "--steps", "20", "--dp", "5", "--model", path, "--format",
                           format});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(path + ": the network's logits at t = "), qPrintable(run.err));
        QVERIFY2(run.err.contains(" are not finite: " + value + " "), qPrintable(run.err));
        QCOMPARE(run.err.trimmed().count('\n'), 0);
        QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
    }
}

void tst_CliTorch::aNonFinitePredictionEndsGammaNamingN() {
    for (const char* prediction : {"epsilon", "sample", "v_prediction"}) {
        const QString path = kModels + "/nan-at-500-" + prediction + ".pt";
        const QString out = m_dir.filePath("nan.csv");
        auto run = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--model", path, "--samples",
                           "20", "--threads", "2", "--out", out});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(path + ": the network's prediction (" + prediction +
                                  ") at n = 500 is not finite: nan"),
                 qPrintable(run.err));
        QCOMPARE(run.err.trimmed().count('\n'), 0);
        QVERIFY(!QFile::exists(out));
    }
}

void tst_CliTorch::aNetworksPrintsLeaveTheJsonIntact() {
    auto run = runCli({"categorical", "--table", table(), "--pi", "uniform:4", "--schedule",
                       "linear", "--steps", "10", "--dp", "3", "--model",
                       model("categorical-prints.pt"), "--format", "json"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QJsonParseError error;
    const QJsonDocument json = QJsonDocument::fromJson(run.out.toUtf8(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError && json.isObject(), qPrintable(run.out.left(300)));
    QVERIFY2(!run.out.contains("network says hello"), qPrintable(run.out.left(300)));
    QVERIFY2(run.err.contains("network says hello"), qPrintable(run.err.left(300)));
}

void tst_CliTorch::theContractsScheduleIsCheckedAndCompared() {
    // Refused by `info` already, with the field and the value.
    for (const char* file : {"schedule-dev-zero.pt", "schedule-folder.pt", "schedule-huge.pt"}) {
        auto run = runCli({"info", model(file)});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(model(file) + ": diffuscope.json: schedule = "), qPrintable(run.err));
        QCOMPARE(run.err.trimmed().count('\n'), 0);
        QVERIFY2(run.err.size() < 1000, qPrintable(run.err.left(1000)));
        QVERIFY(run.out.isEmpty());
    }
    // A cosine,zero-snr network under the default linear schedule, and under its own.
    const QString out = m_dir.filePath("snr.csv");
    auto linear = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--model",
                          model("cosine-zero-snr.pt"), "--samples", "4", "--out", out});
    QCOMPARE(linear.exitCode, 2);
    QVERIFY2(linear.err.contains("the schedule cosine,zero-snr (diffuscope.json) but the schedule "
                                 "here is linear"),
             qPrintable(linear.err));
    QCOMPARE(linear.err.trimmed().count('\n'), 0);
    QVERIFY(!QFile::exists(out));
    auto own = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--schedule", "cosine,zero-snr",
                       "--model", model("cosine-zero-snr.pt"), "--samples", "4", "--out", out});
    QVERIFY2(own.exitCode == 0, qPrintable(own.err));
    // The categorical process: the β(t) kind.
    auto categorical = runCli({"categorical", "--table", table(), "--pi", "uniform:4", "--schedule",
                               "linear", "--steps", "10", "--model", model("categorical-cosine.pt")});
    QCOMPARE(categorical.exitCode, 2);
    QVERIFY2(categorical.err.contains("the schedule cosine (diffuscope.json) but the schedule here "
                                      "is linear"),
             qPrintable(categorical.err));
    QVERIFY(categorical.out.isEmpty());
}

// A diffusers config whose prediction_type is not the contract's prediction: refused in one line
// naming --model, prediction_type and both values; the config that agrees runs.
void tst_CliTorch::predictionTypeOfADiffusersConfig() {
    const QString out = m_dir.filePath("prediction.csv");
    const QString network = model("exact-v_prediction-diffusers.pt");
    auto refused = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--schedule",
                           "diffusers:" + kModels + "/scheduler-epsilon.json", "--model", network,
                           "--samples", "4", "--out", out});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("--model: prediction_type: " + kModels +
                                  "/scheduler-epsilon.json says epsilon but the model " + network +
                                  " predicts v_prediction"),
             qPrintable(refused.err));
    QVERIFY2(refused.err.contains("--schedule"), qPrintable(refused.err));
    QCOMPARE(refused.err.trimmed().count('\n'), 0);
    QVERIFY(!QFile::exists(out));
    auto agrees = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--schedule",
                          "diffusers:" + kModels + "/scheduler-v_prediction.json", "--model",
                          network, "--samples", "4", "--out", out});
    QVERIFY2(agrees.exitCode == 0, qPrintable(agrees.err));
}

void tst_CliTorch::hostileContractsAreOnePrintableLine() {
    const std::vector<std::pair<const char*, QString>> cases = {
        {"contract-invalid-utf8.pt", "not valid JSON"},
        {"contract-control.pt", "process = gau\\nss\\x1bian\\u009b: must be gaussian"},
        {"shape-too-big.pt", "shape[0] = 65537: a size must be at most 65536"},
        {"categorical-uniform.pt", "schedule = uniform: unknown schedule"},
    };
    for (const auto& [file, expected] : cases) {
        auto run = runCli({"info", model(file)});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(model(file) + ": diffuscope.json"), qPrintable(run.err));
        QVERIFY2(run.err.contains(expected), qPrintable(run.err));
        QCOMPARE(run.err.trimmed().count('\n'), 0);
        // Invalid UTF-8 would have been read as U+FFFD; a control character would show as is.
        QVERIFY2(!run.err.contains(QChar(0xFFFD)), qPrintable(run.err));
        for (const QChar c : run.err.trimmed()) QVERIFY2(c.unicode() >= 0x20, qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }
}

void tst_CliTorch::evaluateOpensACategoricalTorchScriptModel() {
    const QStringList small{"--per-class", "1", "--steps", "2", "--elbo-steps", "2",
                            "--elbo-samples", "2", "--threads", "2"};
    auto noPi = runCli(QStringList{"evaluate", "--model", model("digits-categorical.pt")} + small);
    QCOMPARE(noPi.exitCode, 2);
    QVERIFY2(noPi.err.contains("digits-categorical.pt: the model does not say π") &&
                 noPi.err.contains("--pi uniform:4"),
             qPrintable(noPi.err));
    QVERIFY2(!noPi.err.contains("unknown schedule"), qPrintable(noPi.err));
    auto run = runCli(QStringList{"evaluate", "--model", model("digits-categorical.pt"), "--pi",
                                  "uniform:4"} + small);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.out.contains("generation (1 per class, 2 even steps"), qPrintable(run.out));
}

// An installation without the plugin (the Debian package diffuscope without diffuscope-torch):
// opening the bundled U-Net is refused, naming the package to install.
void tst_CliTorch::withoutThePluginItsPackageIsNamed() {
    const QString missing = m_dir.filePath("lib/diffuscope/libdiffuscope_torch.so");
    const QString unet = QStringLiteral(DIFFUSCOPE_SOURCE_DIR "/resources/models/digits-unet.pt");
    qputenv("DIFFUSCOPE_TORCH_PLUGIN", missing.toUtf8());
    auto gamma = runCli({"gamma", "--data", "digits", "--model", unet, "--samples", "2", "--out",
                         m_dir.filePath("no-plugin.csv")});
    qunsetenv("DIFFUSCOPE_TORCH_PLUGIN");
    QCOMPARE(gamma.exitCode, 2);
    QVERIFY2(gamma.err.contains("the TorchScript plugin is not installed (no " + missing + ")"),
             qPrintable(gamma.err));
    QVERIFY2(gamma.err.contains("install the package diffuscope-torch"), qPrintable(gamma.err));
    QVERIFY2(gamma.err.contains(unet), qPrintable(gamma.err));
    QCOMPARE(gamma.err.count('\n'), 1);  // one line
}

QTEST_GUILESS_MAIN(tst_CliTorch)
#include "tst_cli_torch.moc"
