// SPDX-License-Identifier: MIT
// `diffuscope plan`: the sampling plan python3 -m diffuscope_torch sample runs. Its ᾱ, mean
// coefficients and small/large variances against independent formulas, its analytic variances
// against `diffuscope variance` to the bit, its timesteps against `diffuscope timesteps`.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::runCli;

namespace {

// ᾱ_n of the linear schedule, multiplied out: β_i = c·1e−4 + (i − 1)·c·(0.02 − 1e−4)/(N − 1),
// c = 1000/N.
double linearAlphaBar(int numSteps, int n) {
    const double c = 1000.0 / numSteps;
    double product = 1.0;
    for (int i = 1; i <= n; ++i) {
        product *= 1.0 - (c * 1e-4 + (i - 1) * (c * 0.02 - c * 1e-4) / (numSteps - 1));
    }
    return product;
}

QJsonObject readJson(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

bool near(double a, double b, double relative) {
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

}  // namespace

class tst_CliPlan : public QObject {
    Q_OBJECT

private slots:
    void fieldsAndHandcraftedVariances_data();
    void fieldsAndHandcraftedVariances();
    void analyticEqualsVarianceToTheBit();
    void ddimCoefficients();
    void gammaFromTheOracle();
    void fromAProject();
    void errors_data();
    void errors();

private:
    QTemporaryDir m_dir;
};

void tst_CliPlan::fieldsAndHandcraftedVariances_data() {
    QTest::addColumn<QString>("variance");
    QTest::newRow("small") << "small";
    QTest::newRow("large") << "large";
}

// σ² = β̃_{s|t} = (β̄_s/β̄_t)·β_{t|s} (small) or β_{t|s} = 1 − ᾱ_t/ᾱ_s (large); the DDPM mean
// c0 = β_{t|s}√ᾱ_s/β̄_t, ct = √α_{t|s}·β̄_s/β̄_t; no Γ, so no source.
void tst_CliPlan::fieldsAndHandcraftedVariances() {
    QFETCH(QString, variance);
    const int numSteps = 200;
    const QString out = m_dir.filePath("plan-" + variance + ".json");
    auto run = runCli({"plan", "--steps", QString::number(numSteps), "--trajectory", "even:7",
                       "--variance", variance, "--out", out});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject plan = readJson(out);
    QCOMPARE(plan["format"].toString(), QString("diffuscope-plan"));
    QCOMPARE(plan["version"].toInt(), 1);
    QCOMPARE(plan["schedule"].toString(), QString("linear"));
    QCOMPARE(plan["N"].toInt(), numSteps);
    QCOMPARE(plan["sampler"].toString(), QString("ddpm"));
    QCOMPARE(plan["variance"].toString(), variance);
    QVERIFY(plan["gamma_source"].isNull());
    QCOMPARE(plan["eta"].toDouble(), 1.0);
    const QJsonArray alphaBar = plan["alpha_bar"].toArray();
    const QJsonArray betaBar = plan["beta_bar"].toArray();
    QCOMPARE(alphaBar.size(), numSteps);
    QCOMPARE(betaBar.size(), numSteps);
    for (int n = 1; n <= numSteps; ++n) {
        const double expected = linearAlphaBar(numSteps, n);
        QVERIFY2(near(alphaBar[n - 1].toDouble(), expected, 1e-13), qPrintable(QString::number(n)));
        QVERIFY2(near(betaBar[n - 1].toDouble(), 1.0 - expected, 1e-9),
                 qPrintable(QString::number(n)));
    }
    // The timesteps are `diffuscope timesteps`'s.
    auto timesteps =
        runCli({"timesteps", "--steps", QString::number(numSteps), "--trajectory", "even:7"});
    QVERIFY2(timesteps.exitCode == 0, qPrintable(timesteps.err));
    const QJsonArray n = QJsonDocument::fromJson(timesteps.out.toUtf8()).object()["n"].toArray();
    QCOMPARE(plan["timesteps"].toArray(), n);
    const QJsonArray steps = plan["steps"].toArray();
    QCOMPARE(steps.size(), n.size());
    for (int j = 0; j < steps.size(); ++j) {
        const QJsonObject step = steps[j].toObject();
        const int t = n[n.size() - 1 - j].toInt();
        const int s = j + 1 < steps.size() ? n[n.size() - 2 - j].toInt() : 0;
        QCOMPARE(step["t"].toInt(), t);
        QCOMPARE(step["s"].toInt(), s);
        if (s == 0) {
            // the decoder outputs x̂_0
            QCOMPARE(step["variance"].toDouble(), 0.0);
            QCOMPARE(step["x0"].toDouble(), 1.0);
            QCOMPARE(step["xt"].toDouble(), 0.0);
            QCOMPARE(step["eps"].toDouble(), 0.0);
            continue;
        }
        const double at = linearAlphaBar(numSteps, t), as = linearAlphaBar(numSteps, s);
        const double betaTS = 1.0 - at / as;
        const double betaTilde = (1.0 - as) / (1.0 - at) * betaTS;
        const double expected = variance == "small" ? betaTilde : betaTS;
        QVERIFY2(near(step["variance"].toDouble(), expected, 1e-9),
                 qPrintable(QString("t=%1: %2 vs %3")
                                .arg(t)
                                .arg(step["variance"].toDouble(), 0, 'g', 17)
                                .arg(expected, 0, 'g', 17)));
        QVERIFY(near(step["x0"].toDouble(), betaTS * std::sqrt(as) / (1.0 - at), 1e-9));
        QVERIFY(near(step["xt"].toDouble(), std::sqrt(at / as) * (1.0 - as) / (1.0 - at), 1e-9));
        QCOMPARE(step["eps"].toDouble(), 0.0);
    }
}

// The analytic σ² of the plan are `diffuscope variance`'s for the same Γ file, trajectory and
// clip, bit for bit, and the plan names the file as Γ's source.
void tst_CliPlan::analyticEqualsVarianceToTheBit() {
    const QString gamma = m_dir.filePath("gamma.csv");
    auto g = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--steps", "100", "--samples", "50",
                     "--seed", "4", "--out", gamma});
    QVERIFY2(g.exitCode == 0, qPrintable(g.err));
    for (const QString& clip : {QString("0"), QString("1")}) {
        const QString out = m_dir.filePath("analytic-" + clip + ".json");
        auto plan = runCli({"plan", "--steps", "100", "--trajectory", "even:8", "--gamma", gamma,
                            "--clip-first", clip, "--out", out});
        QVERIFY2(plan.exitCode == 0, qPrintable(plan.err));
        auto variance = runCli({"variance", "--steps", "100", "--trajectory", "even:8", "--gamma",
                                gamma, "--forward", "ddpm", "--clip-first", clip});
        QVERIFY2(variance.exitCode == 0, qPrintable(variance.err));
        const QJsonArray pairs =
            QJsonDocument::fromJson(variance.out.toUtf8()).object()["pairs"].toArray();
        const QJsonObject json = readJson(out);
        const QJsonArray steps = json["steps"].toArray();
        QCOMPARE(steps.size(), pairs.size() + 1);
        for (int j = 0; j < pairs.size(); ++j) {
            const QJsonObject p = pairs[j].toObject(), step = steps[j].toObject();
            QCOMPARE(step["t"].toInt(), p["t"].toInt());
            QCOMPARE(step["s"].toInt(), p["s"].toInt());
            QCOMPARE(step["variance"].toDouble(), p["sigma2"].toDouble());  // exactly
        }
        QCOMPARE(json["variance"].toString(), QString("analytic"));
        QCOMPARE(json["clip"].toDouble(), clip.toDouble());
        QVERIFY(clip == "0" ? json["clip_threshold"].isNull()
                            : near(json["clip_threshold"].toDouble(), 9.6629e-5, 1e-4));
        QVERIFY2(json["gamma_source"].toString().contains("gamma.csv"),
                 qPrintable(json["gamma_source"].toString()));
    }
}

// DDIM(η): x_s = √ᾱ_s x̂_0 + √(β̄_s − η²β̃_{s|t}) ε̂ + σ z with σ² = η²β̃_{s|t} (small).
void tst_CliPlan::ddimCoefficients() {
    const double eta = 0.3;
    const QString out = m_dir.filePath("ddim.json");
    auto run = runCli({"plan", "--steps", "100", "--trajectory", "list:1,40,77,100", "--sampler",
                       "ddim", "--eta", "0.3", "--variance", "small", "--out", out});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject plan = readJson(out);
    QCOMPARE(plan["sampler"].toString(), QString("ddim"));
    QCOMPARE(plan["eta"].toDouble(), eta);
    const QJsonArray steps = plan["steps"].toArray();
    QCOMPARE(steps.size(), 4);
    for (int j = 0; j < 3; ++j) {
        const QJsonObject step = steps[j].toObject();
        const int t = step["t"].toInt(), s = step["s"].toInt();
        const double at = linearAlphaBar(100, t), as = linearAlphaBar(100, s);
        const double lambda2 = eta * eta * (1.0 - as) / (1.0 - at) * (1.0 - at / as);
        QVERIFY(near(step["variance"].toDouble(), lambda2, 1e-9));
        QVERIFY(near(step["x0"].toDouble(), std::sqrt(as), 1e-12));
        QCOMPARE(step["xt"].toDouble(), 0.0);
        QVERIFY(near(step["eps"].toDouble(), std::sqrt(1.0 - as - lambda2), 1e-9));
    }
}

// Without a Γ file the exact oracle's Γ is estimated with --gamma-samples and --seed, and the
// plan says so.
void tst_CliPlan::gammaFromTheOracle() {
    const QString out = m_dir.filePath("oracle.json");
    auto run = runCli({"plan", "--data", "gaussian:d=2,s=0.5", "--steps", "100", "--trajectory",
                       "even:5", "--gamma-samples", "40", "--seed", "9", "--out", out});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QString source = readJson(out)["gamma_source"].toString();
    QVERIFY2(source.startsWith("oracle") && source.contains("M = 40") && source.contains("seed 9"),
             qPrintable(source));
}

// A project's sampler, clip and Γ (its network's, estimated with its M and seed): the plan's σ²
// are `variance --project`'s with the project's clip, bit for bit.
void tst_CliPlan::fromAProject() {
    const QString project = m_dir.filePath("moons.json");
    auto made = runCli({"project", "--example", "3", "--out", project});
    QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    const QString out = m_dir.filePath("project-plan.json");
    auto plan = runCli({"plan", "--project", project, "--out", out});
    QVERIFY2(plan.exitCode == 0, qPrintable(plan.err));
    auto variance = runCli({"variance", "--project", project, "--clip-first", "1"});
    QVERIFY2(variance.exitCode == 0, qPrintable(variance.err));
    const QJsonObject json = readJson(out);
    QCOMPARE(json["sampler"].toString(), QString("ddpm"));  // the project's analytic-ddpm
    QCOMPARE(json["clip"].toDouble(), 1.0);
    const QJsonObject v = QJsonDocument::fromJson(variance.out.toUtf8()).object();
    QCOMPARE(json["timesteps"].toArray(), v["trajectory"].toArray());
    const QJsonArray pairs = v["pairs"].toArray(), steps = json["steps"].toArray();
    QCOMPARE(steps.size(), pairs.size() + 1);
    for (int j = 0; j < pairs.size(); ++j) {
        QCOMPARE(steps[j].toObject()["variance"].toDouble(),
                 pairs[j].toObject()["sigma2"].toDouble());
    }
    const QString source = json["gamma_source"].toString();
    QVERIFY2(source.contains("M = 50") && source.contains("moons-gaussian.safetensors"),
             qPrintable(source));
}

void tst_CliPlan::errors_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    const QStringList base{"plan",
                           "--steps",
                           "100",
                           "--trajectory",
                           "even:5",
                           "--out",
                           m_dir.filePath("refused.json")};
    QTest::newRow("variance") << base + QStringList{"--variance", "huge"} << "--variance = huge";
    QTest::newRow("sampler") << base + QStringList{"--variance", "small", "--sampler", "euler"}
                             << "--sampler = euler";
    QTest::newRow("eta") << base + QStringList{"--variance", "small", "--sampler",
                                               "ddim",       "--eta", "2"}
                         << "--eta = 2";
    QTest::newRow("ddim large") << base + QStringList{"--variance", "large", "--sampler", "ddim"}
                                << "--variance = large";
    QTest::newRow("no gamma") << base << "--variance = analytic";
    QTest::newRow("clip") << base + QStringList{"--variance", "small", "--clip-first=-1"}
                          << "--clip-first = -1";
    QTest::newRow("out folder")
        << QStringList{"plan",         "--steps", "100",
                       "--trajectory", "even:5",  "--variance",
                       "small",        "--out",   m_dir.filePath("missing/plan.json")}
        << "missing/plan.json";
}

void tst_CliPlan::errors() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    auto run = runCli(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(expected), qPrintable(run.err));
    QCOMPARE(run.err.trimmed().count('\n'), 0);  // one line
    QVERIFY(!QFile::exists(m_dir.filePath("refused.json")));
}

QTEST_GUILESS_MAIN(tst_CliPlan)
#include "tst_cli_plan.moc"
