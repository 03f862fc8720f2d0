// SPDX-License-Identifier: MIT
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::runCli;

class tst_CliGaussian : public QObject {
    Q_OBJECT

private slots:
    void gammaThenVariance_data();
    void gammaThenVariance();
    void gammaOverTheBoundIsWarnedEverywhere();
    void nll();
    void sample();
    void errorEstimatorStaysWithinTheBound();
    void zeroTerminalSnr();
    void errors_data();
    void errors();

private:
    QTemporaryDir m_dir;
};

void tst_CliGaussian::gammaThenVariance_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("trajectory");
    QTest::newRow("csv-even") << "g.csv" << "even:10";
    QTest::newRow("npy-dp") << "g.npy" << "dp:10";
    QTest::newRow("csv-list") << "g.csv" << "list:1,10,100,200";
}

// gamma writes a file, variance reads it back: pairs from (τ_{K−1}, τ_K) down to (τ_1, τ_2).
void tst_CliGaussian::gammaThenVariance() {
    QFETCH(QString, file);
    QFETCH(QString, trajectory);
    const QString path = m_dir.path() + "/" + file;
    auto gamma = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--model", "oracle",
                         "--schedule", "linear", "--steps", "200", "--samples", "50", "--seed",
                         "3", "--out", path, "--estimator", "denoising"});
    QVERIFY2(gamma.exitCode == 0, qPrintable(gamma.err));
    auto variance = runCli({"variance", "--schedule", "linear", "--steps", "200", "--gamma", path,
                            "--trajectory", trajectory, "--format", "json", "--clip-first", "1"});
    QVERIFY2(variance.exitCode == 0, qPrintable(variance.err));
    const QJsonObject json = QJsonDocument::fromJson(variance.out.toUtf8()).object();
    const QJsonArray taus = json["trajectory"].toArray();
    const QJsonArray pairs = json["pairs"].toArray();
    QCOMPARE(pairs.size(), taus.size() - 1);
    QCOMPARE(pairs.first().toObject()["t"].toInt(), taus.last().toInt());
    QCOMPARE(pairs.last().toObject()["s"].toInt(), 1);
    for (const auto& p : pairs) {
        const QJsonObject o = p.toObject();
        // The F.2 clip (last pair) may go below λ²; every other σ² respects its bounds.
        QVERIFY(o["sigma2"].toDouble() >= o["lower"].toDouble() || o["s"].toInt() == 1);
        QVERIFY(o["sigma2"].toDouble() <= o["upper"].toDouble() * (1 + 1e-12));
    }
    QVERIFY(pairs.last().toObject()["sigma2"].toDouble() <= 9.663e-5);
    QVERIFY(json.contains("gamma_over_bound"));
    QCOMPARE(json.contains("cost"), trajectory.startsWith("dp"));
}

// Γ over its bound at one timestep (β̄₃₀Γ₃₀ = 10⁶·β̄₃₀ > 1): every command that uses Γ warns
// in one line naming the count and the first n, and still gives its result.
void tst_CliGaussian::gammaOverTheBoundIsWarnedEverywhere() {
    const QString good = m_dir.path() + "/over-good.csv";
    auto gamma = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--model", "oracle", "--schedule", "linear",
                         "--steps", "50", "--samples", "20", "--seed", "3", "--out", good, "--estimator",
                         "denoising"});
    QVERIFY2(gamma.exitCode == 0, qPrintable(gamma.err));
    QFile in(good);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QStringList lines = QString::fromUtf8(in.readAll()).split('\n');
    QVERIFY(lines.value(30).startsWith("30,"));
    lines[30] = "30,1000000";
    const QString bad = m_dir.path() + "/over-bad.csv";
    QFile out(bad);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(lines.join('\n').toUtf8());
    out.close();
    const QStringList common = {"--schedule", "linear", "--steps", "50", "--trajectory", "dp:5"};
    const QString plan = m_dir.path() + "/over-plan.json";
    for (const QStringList& command :
         {QStringList{"timesteps", "--as", "diffusers"}, QStringList{"variance"},
          QStringList{"plan", "--variance", "analytic", "--out", plan}}) {
        for (const QString& file : {good, bad}) {
            const auto result = runCli(command + common + QStringList{"--gamma", file});
            QVERIFY2(result.exitCode == 0, qPrintable(command.first() + ": " + result.err));
            const bool warned = result.err.contains("warning: β̄_nΓ_n > 1 at 1 timestep (first n = 30)");
            QVERIFY2(warned == (file == bad), qPrintable(command.first() + ": " + result.err));
        }
    }
}

void tst_CliGaussian::nll() {
    const QString gmm = test_support::dataPath("gaussian_mixture_2d.json");
    double previous = 0.0;
    for (const QString variance : {"analytic", "large"}) {
        auto result = runCli({"nll", "--data", "gmm:" + gmm, "--model", "oracle", "--schedule",
                              "linear", "--steps", "1000", "--trajectory", "even:10",
                              "--variance", variance, "--levels", "256", "--samples", "300",
                              "--seed", "4", "--format", "json"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        const QJsonObject json = QJsonDocument::fromJson(result.out.toUtf8()).object();
        QCOMPARE(json["terms"].toArray().size(), 9);
        const double bpd = json["bpd"].toDouble();
        QVERIFY(bpd > 0.0);
        if (variance == QLatin1String("large")) {
            QVERIFY(previous < bpd);  // analytic below β (same seed: common random numbers)
        }
        previous = bpd;
    }
}

// --estimator error: 1 − ‖ε_θ − ε‖²/d, so β̄_nΓ_n ≤ 1 at every n (never over the bound) and
// never below 0; on an inline mixture, which the CLI reads like any other data spec.
void tst_CliGaussian::errorEstimatorStaysWithinTheBound() {
    const QString path = m_dir.path() + "/error.csv";
    auto gamma = runCli({"gamma", "--data", "mixture:0.5,-1,0,0.3;0.5,1,0.5,0.2", "--model",
                         "oracle", "--schedule", "linear", "--steps", "300", "--samples", "8",
                         "--seed", "2", "--out", path, "--estimator", "error"});
    QVERIFY2(gamma.exitCode == 0, qPrintable(gamma.err));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), 301);
    QCOMPARE(lines.first(), QString("n,gamma"));
    // The linear schedule's ends (B.1), scaled by 1000/N as for N ≠ 1000.
    const double beta1 = 1e-4 * 1000.0 / 300.0, beta300 = 0.02 * 1000.0 / 300.0;
    double alphaBar = 1.0;
    for (int n = 1; n <= 300; ++n) {
        alphaBar *= 1.0 - (beta1 + (beta300 - beta1) * (n - 1) / 299.0);
        const double value = lines[n].split(',')[1].toDouble();
        QVERIFY(value >= 0.0);
        QVERIFY2(value * (1.0 - alphaBar) <= 1.0 + 1e-12, qPrintable(lines[n]));
    }
}

void tst_CliGaussian::sample() {
    const QString out = m_dir.path() + "/s.csv";
    auto result = runCli({"sample", "--data", "gaussian:d=3,s=0.2", "--model", "oracle",
                          "--sampler", "analytic-ddpm", "--trajectory", "even:20", "--count",
                          "10", "--seed", "5", "--out", out, "--threads", "2"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), 11);
    QCOMPARE(lines.first(), QString("x1,x2,x3"));
}

// Every subcommand that takes --schedule takes ",zero-snr"; nothing infinite reaches the
// outputs (JSON null, an empty CSV cell), and karras is refused in one line naming the field.
void tst_CliGaussian::zeroTerminalSnr() {
    const QString path = m_dir.path() + "/zero_snr_gamma.csv";
    const QStringList common = {"--data", "toy:moons,n=2000", "--model", "oracle", "--schedule",
                                "linear,zero-snr", "--steps", "1000"};
    auto gamma = runCli(QStringList{"gamma"} + common +
                        QStringList{"--samples", "40", "--seed", "1", "--out", path});
    QVERIFY2(gamma.exitCode == 0, qPrintable(gamma.err));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString table = QString::fromUtf8(file.readAll());
    QVERIFY(!table.contains(",\n") && !table.contains("nan") && !table.contains("inf"));
    auto variance = runCli({"variance", "--schedule", "linear,zero-snr", "--steps", "1000",
                            "--gamma", path, "--trajectory", "dp:10", "--format", "json"});
    QVERIFY2(variance.exitCode == 0, qPrintable(variance.err));
    QVERIFY(!variance.out.contains("null"));
    auto nll = runCli(QStringList{"nll"} + common +
                      QStringList{"--trajectory", "even:10", "--samples", "50", "--gamma-samples",
                                  "40", "--format", "json"});
    QVERIFY2(nll.exitCode == 0, qPrintable(nll.err));
    QVERIFY(!nll.out.contains("null"));
    QCOMPARE(QJsonDocument::fromJson(nll.out.toUtf8()).object()["prior"].toDouble(), 0.0);
    for (const QString sampler : {"ddpm", "ddim", "analytic-ddpm", "analytic-ddim", "dpm-solver-1",
                                  "dpm-solver++2m", "dpm-solver++3m"}) {
        const QString out = m_dir.path() + "/zero_snr_" + sampler + ".csv";
        auto sample = runCli(QStringList{"sample"} + common +
                             QStringList{"--sampler", sampler, "--trajectory", "even:10",
                                         "--count", "20", "--gamma-samples", "40", "--out", out});
        QVERIFY2(sample.exitCode == 0, qPrintable(sample.err));
        QFile samples(out);
        QVERIFY(samples.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(samples.readAll());
        QVERIFY(!text.contains(",\n") && !text.contains("nan") && !text.contains("inf"));
    }
    auto karras = runCli(QStringList{"sample"} + common +
                         QStringList{"--sampler", "ddim", "--trajectory", "karras:10", "--out",
                                     m_dir.path() + "/karras.csv"});
    QCOMPARE(karras.exitCode, 2);
    QCOMPARE(karras.err.trimmed().count('\n'), 0);
    QVERIFY2(karras.err.contains("trajectory") && karras.err.contains("karras:10"),
             qPrintable(karras.err));
}

void tst_CliGaussian::errors_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("missing-gamma") << QStringList{"variance", "--trajectory", "even:5"};
    QTest::newRow("bad-trajectory") << QStringList{"variance", "--gamma", "/nonexistent.csv",
                                                    "--trajectory", "even:5"};
    QTest::newRow("bad-data") << QStringList{"gamma", "--data", "cube:3", "--out", "/tmp/x.csv"};
    QTest::newRow("bad-sampler") << QStringList{"sample", "--data", "gaussian:d=2,s=1",
                                                 "--sampler", "euler", "--trajectory", "even:5",
                                                 "--out", "/tmp/x.csv"};
    QTest::newRow("unknown-option") << QStringList{"nll", "--data", "gaussian:d=2,s=1",
                                                    "--trajectory", "even:5", "--step", "3"};
    QTest::newRow("bad-estimator") << QStringList{"nll", "--data", "gaussian:d=2,s=1",
                                                   "--trajectory", "even:5", "--estimator", "mc"};
    QTest::newRow("gamma-data-dimension")
        << QStringList{"nll", "--data", "gaussian:d=2,s=1", "--gamma-data", "gaussian:d=3,s=1",
                       "--trajectory", "even:5"};
    QTest::newRow("bad-mixture") << QStringList{"sample", "--data", "mixture:1,0,0,-1",
                                                 "--trajectory", "even:5", "--out", "/tmp/x.csv"};
}

void tst_CliGaussian::errors() {
    QFETCH(QStringList, arguments);
    auto result = runCli(arguments);
    QCOMPARE(result.exitCode, 2);
    QCOMPARE(result.err.trimmed().count('\n'), 0);  // one line
    QVERIFY(!result.err.isEmpty());
}

QTEST_GUILESS_MAIN(tst_CliGaussian)
#include "tst_cli_gaussian.moc"
