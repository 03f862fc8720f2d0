// SPDX-License-Identifier: MIT
// `diffuscope train` writes checkpoints that `info` reads and that the engine subcommands use
// through --model; bad requests are one-line errors.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include "core/model/checkpoint.h"
#include "tests/support/cli_runner.h"

using test_support::runCli;

class tst_CliTrain : public QObject {
    Q_OBJECT

private slots:
    void categoricalDigitsCheckpoint();
    void gaussianToyCheckpointDrivesTheEngine();
    void categoricalCsvCheckpoint();
    void gaussianDigitsCheckpoint();
    void ctrlCStopsAndResumeFinishesTheRun();
    void resumeFromAFileThatIsNoCheckpoint_data();
    void resumeFromAFileThatIsNoCheckpoint();
    void errors_data();
    void errors();
};

void tst_CliTrain::categoricalDigitsCheckpoint() {
    QTemporaryDir dir;
    const QString out = dir.filePath("digits.safetensors");
    const auto trained = runCli({"train", "--process", "categorical", "--data", "digits:levels=2",
                                 "--arch", "mlp:width=16,depth=1", "--steps", "20", "--batch", "8",
                                 "--seed", "3", "--threads", "1", "--eval-every", "10", "--out", out});
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));
    QVERIFY(trained.out.contains("held-out loss"));
    const auto info = runCli({"info", out});
    QVERIFY2(info.exitCode == 0, qPrintable(info.err));
    QVERIFY(info.out.contains("process = categorical"));
    QVERIFY(info.out.contains("num_positions = 64"));
    QVERIFY(info.out.contains("training_steps = 20"));
    const auto loaded = core::model::loadMlpCheckpoint(out.toStdString());
    QVERIFY(loaded.ok());
    QCOMPARE(loaded->categorical->numClasses(), 2);
    std::vector<double> f(64 * 2);
    loaded->categorical->predict(std::vector<int>(64, 1), 7, {0.5, 0.5}, f);
    for (int d = 0; d < 64; ++d) {
        QVERIFY(std::abs(f[2 * d] + f[2 * d + 1] - 1.0) < 1e-9);
    }
    // The categorical engine with the network: a 64-position table needs Monte Carlo costs.
    QString table = "";
    for (int d = 1; d <= 64; ++d) table += QString("x%1,").arg(d);
    table += "p\n";
    for (int r = 0; r < 2; ++r) {
        for (int d = 0; d < 64; ++d) table += QString("%1,").arg((d + r) % 2);
        table += "0.5\n";
    }
    QFile file(dir.filePath("table.csv"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(table.toUtf8());
    file.close();
    const auto costs = runCli({"categorical", "--table", dir.filePath("table.csv"), "--pi", "uniform:2",
                               "--schedule", "cosine", "--steps", "4", "--samples", "8", "--seed",
                               "1", "--model", out, "--format", "json"});
    QVERIFY2(costs.exitCode == 0, qPrintable(costs.err));
    QVERIFY(costs.out.contains("\"elbo\""));
}

void tst_CliTrain::gaussianToyCheckpointDrivesTheEngine() {
    QTemporaryDir dir;
    const QString out = dir.filePath("ring.safetensors");
    const auto trained = runCli({"train", "--process", "gaussian", "--data", "toy:ring,n=400",
                                 "--arch", "mlp:width=16,depth=1", "--steps", "30", "--batch", "16",
                                 "--num-steps", "50", "--seed", "1", "--threads", "1", "--out", out});
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));
    const auto sample = runCli({"sample", "--data", "toy:ring,n=400", "--model", out, "--steps",
                                "50", "--sampler", "ddpm", "--trajectory", "even:5", "--count", "4",
                                "--seed", "2", "--out", dir.filePath("s.csv")});
    QVERIFY2(sample.exitCode == 0, qPrintable(sample.err));
    QFile samples(dir.filePath("s.csv"));
    QVERIFY(samples.open(QIODevice::ReadOnly));
    QCOMPARE(samples.readAll().count('\n'), 5);  // header + 4 points
    const auto nll = runCli({"nll", "--data", "toy:ring,n=400", "--model", out, "--steps", "50",
                             "--trajectory", "even:5", "--variance", "analytic", "--levels", "256",
                             "--samples", "10", "--gamma-samples", "10", "--seed", "1",
                             "--format", "json"});
    QVERIFY2(nll.exitCode == 0, qPrintable(nll.err));
    QVERIFY(nll.out.contains("\"bpd\""));
    // A missing checkpoint is a one-line error naming the file.
    const auto wrong = runCli({"gamma", "--data", "toy:ring", "--model", dir.filePath("missing.safetensors"),
                               "--steps", "50", "--samples", "5", "--seed", "1", "--out",
                               dir.filePath("g.csv")});
    QCOMPARE(wrong.exitCode, 2);
    QVERIFY(wrong.err.contains("missing.safetensors"));
}

// A user's CSV of categorical rows with labels: K and the conditions come from the file.
void tst_CliTrain::categoricalCsvCheckpoint() {
    QTemporaryDir dir;
    QFile file(dir.filePath("rows.csv"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a,b,c,label\n");
    for (int i = 0; i < 40; ++i) {
        file.write(QString("%1,%2,%3,%4\n").arg(i % 3).arg((i + 1) % 3).arg(i % 2).arg(i % 2).toUtf8());
    }
    file.close();
    const QString out = dir.filePath("rows.safetensors");
    const auto trained = runCli({"train", "--process", "categorical", "--data",
                                 "csv:" + dir.filePath("rows.csv"), "--arch", "mlp:width=8,depth=1",
                                 "--steps", "10", "--batch", "4", "--threads", "1", "--out", out});
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));
    const auto loaded = core::model::loadMlpCheckpoint(out.toStdString());
    QVERIFY(loaded.ok());
    QCOMPARE(loaded->categorical->numClasses(), 3);
    QCOMPARE(loaded->info.numPositions, 3);
    QCOMPARE(loaded->info.numConditions, 2);
    // A class outside the given K names the file, line and column.
    const auto bad = runCli({"train", "--process", "categorical", "--data",
                             "csv:" + dir.filePath("rows.csv"), "--classes", "2", "--out", out});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("rows.csv:3 column 2"), qPrintable(bad.err));
}

// Gaussian digits: 64 dimensions, held out on the fixed test split.
void tst_CliTrain::gaussianDigitsCheckpoint() {
    QTemporaryDir dir;
    const QString out = dir.filePath("digits.safetensors");
    const auto trained = runCli({"train", "--process", "gaussian", "--data", "digits", "--arch",
                                 "mlp:width=16,depth=1", "--steps", "5", "--batch", "8",
                                 "--num-steps", "100", "--threads", "1", "--out", out});
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));
    const auto sample = runCli({"sample", "--data", "digits", "--model", out, "--steps", "100",
                                "--sampler", "ddim", "--trajectory", "even:4", "--count", "3",
                                "--seed", "2", "--out", dir.filePath("s.csv")});
    QVERIFY2(sample.exitCode == 0, qPrintable(sample.err));
    QFile samples(dir.filePath("s.csv"));
    QVERIFY(samples.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = samples.readAll().split('\n');
    QCOMPARE(lines.front().count(',') + 1, 64);
}

// Ctrl+C (SIGINT) during `train` stops it after the current step and writes a checkpoint with
// the optimiser's state; the same command with --resume finishes the run, and its network is
// the one an uninterrupted run gives, bit for bit. A finished checkpoint cannot be resumed.
void tst_CliTrain::ctrlCStopsAndResumeFinishesTheRun() {
    QTemporaryDir dir;
    const QString stopped = dir.filePath("stopped.safetensors");
    const QStringList command{"train", "--process", "gaussian", "--data", "toy:moons,n=300",
                              "--arch", "mlp:width=16,depth=2", "--steps", "60000", "--batch",
                              "16", "--seed", "4", "--eval-every", "20000"};
    QProcess process;
    process.setProgram(QStringLiteral(DIFFUSCOPE_BINARY));
    process.setArguments(command + QStringList{"--out", stopped});
    process.start();
    // The first line says the handler is in place; then let it train a little and interrupt.
    QTRY_VERIFY_WITH_TIMEOUT(process.canReadLine() || process.waitForReadyRead(100), 60000);
    QVERIFY(process.readLine().startsWith("training 60000 steps"));
    QTest::qWait(200);
    QCOMPARE(::kill(static_cast<pid_t>(process.processId()), SIGINT), 0);
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 130);  // interrupted, after saving (128 + SIGINT)
    const QString said = QString::fromUtf8(process.readAllStandardOutput());
    QVERIFY2(said.contains("stopped after") && said.contains("--resume"), qPrintable(said));
    auto partial = core::model::loadMlpCheckpoint(stopped.toStdString());
    QVERIFY(partial.ok());
    QVERIFY(partial->trainState != nullptr);
    QVERIFY(partial->info.trainingSteps > 0 && partial->info.trainingSteps < 60000);

    const QString resumed = dir.filePath("resumed.safetensors");
    const auto finish = runCli(command + QStringList{"--resume", stopped, "--out", resumed});
    QVERIFY2(finish.exitCode == 0, qPrintable(finish.err));
    QVERIFY(finish.out.contains("from step " + QString::number(partial->info.trainingSteps)));
    const QString whole = dir.filePath("whole.safetensors");
    const auto once = runCli(command + QStringList{"--out", whole});
    QVERIFY2(once.exitCode == 0, qPrintable(once.err));
    auto a = core::model::loadMlpCheckpoint(resumed.toStdString());
    auto b = core::model::loadMlpCheckpoint(whole.toStdString());
    QVERIFY(a.ok() && b.ok());
    QCOMPARE(a->info.trainingSteps, 60000);
    QVERIFY(a->trainState == nullptr);
    const auto wa = dynamic_cast<const core::model::GaussianMlpEpsModel&>(*a->gaussian).mlp().flat();
    const auto wb = dynamic_cast<const core::model::GaussianMlpEpsModel&>(*b->gaussian).mlp().flat();
    QVERIFY(std::equal(wa.begin(), wa.end(), wb.begin(), wb.end()));
    QCOMPARE(a->info.trainLoss, b->info.trainLoss);

    // Refusals: a finished checkpoint has no state; another data set is another run.
    const auto noState = runCli(command + QStringList{"--resume", whole, "--out", dir.filePath("x")});
    QCOMPARE(noState.exitCode, 2);
    QVERIFY(noState.err.contains("no training state"));
    QStringList otherData = command;
    otherData[4] = "toy:ring,n=300";
    const auto other = runCli(otherData + QStringList{"--resume", stopped, "--out", dir.filePath("y")});
    QCOMPARE(other.exitCode, 2);
    QVERIFY2(other.err.contains("toy:moons,n=300"), qPrintable(other.err));
    QVERIFY2(other.out.isEmpty(), qPrintable(other.out));
    // Other training parameters are refused before anything is printed, naming the option and
    // the file.
    QStringList otherSeed = command;
    otherSeed[otherSeed.indexOf("--seed") + 1] = "5";
    const auto seed =
        runCli(otherSeed + QStringList{"--resume", stopped, "--out", dir.filePath("z")});
    QCOMPARE(seed.exitCode, 2);
    QVERIFY2(seed.out.isEmpty(), qPrintable(seed.out));
    QVERIFY2(seed.err.contains("--resume = " + stopped) &&
                 seed.err.contains("other training parameters"),
             qPrintable(seed.err));
    QVERIFY(!QFile::exists(dir.filePath("z")));
}

void tst_CliTrain::errors_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no process") << QStringList{"--data", "toy:moons", "--out", "x"} << "--process";
    QTest::newRow("bad process") << QStringList{"--process", "other", "--data", "toy:moons", "--out", "x"}
                                 << "categorical or gaussian";
    QTest::newRow("bad lr") << QStringList{"--process", "gaussian", "--data", "toy:moons", "--lr",
                                           "-1", "--out", "x"}
                            << "learningRate";
    QTest::newRow("bad arch") << QStringList{"--process", "gaussian", "--data", "toy:moons", "--arch",
                                             "cnn", "--out", "x"}
                              << "--arch";
    QTest::newRow("categorical toy") << QStringList{"--process", "categorical", "--data", "toy:moons",
                                                    "--out", "x"}
                                     << "digits";
}

// --resume given a file that is no checkpoint says what the file is and what is expected.
void tst_CliTrain::resumeFromAFileThatIsNoCheckpoint_data() {
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("what");
    QTest::newRow("project") << QByteArray("{\n  \"format\": 1\n}\n") << "project.json"
                             << "JSON text";
    QTest::newRow("TorchScript") << QByteArray("PK\x03\x04 and the rest of an archive", 36)
                                 << "model.pt"
                                 << "ZIP archive";
}

void tst_CliTrain::resumeFromAFileThatIsNoCheckpoint() {
    QFETCH(QByteArray, contents);
    QFETCH(QString, name);
    QFETCH(QString, what);
    QTemporaryDir dir;
    QFile file(dir.filePath(name));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(contents);
    file.close();
    const auto run = runCli({"train", "--process", "gaussian", "--data", "toy:moons", "--resume",
                             file.fileName(), "--out", dir.filePath("x.safetensors")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
    QVERIFY2(run.err.startsWith("diffuscope: --resume = " + file.fileName()) &&
                 run.err.contains(what) &&
                 run.err.contains("expects the .safetensors checkpoint") && !run.err.contains("?)"),
             qPrintable(run.err));
    QCOMPARE(run.err.count('\n'), 1);
}

void tst_CliTrain::errors() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    const auto result = runCli(QStringList{"train"} + arguments);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(expected), qPrintable(result.err));
    QCOMPARE(result.err.count('\n'), 1);
}

QTEST_GUILESS_MAIN(tst_CliTrain)
#include "tst_cli_train.moc"
