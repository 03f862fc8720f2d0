// SPDX-License-Identifier: MIT
// `diffuscope timesteps`: a trajectory in our convention (n ascending), diffusers' (t = n − 1
// descending, as set_timesteps(timesteps=…) takes it) and k-diffusion's (σ descending, then 0).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

#include "core/project/project_file.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::runCli;

namespace {

QJsonArray jsonArray(const QString& out, const char* key) {
    return QJsonDocument::fromJson(out.toUtf8()).object().value(key).toArray();
}

QList<int> ints(const QJsonArray& array) {
    QList<int> values;
    for (const auto& v : array) values.push_back(v.toInt());
    return values;
}

// ᾱ_n of the linear schedule in double, independently: β_i = c·1e−4 + (i − 1)·c·(0.02 − 1e−4)/(N − 1)
// with c = 1000/N (docs/gaussian.md#schedules), multiplied out.
double linearAlphaBar(int numSteps, int n) {
    const double c = 1000.0 / numSteps;
    double product = 1.0;
    for (int i = 1; i <= n; ++i) {
        product *= 1.0 - (c * 1e-4 + (i - 1) * (c * 0.02 - c * 1e-4) / (numSteps - 1));
    }
    return product;
}

}  // namespace

class tst_CliTimesteps : public QObject {
    Q_OBJECT

private slots:
    void conventions_data();
    void conventions();
    void sigmasOfEveryFamily_data();
    void sigmasOfEveryFamily();
    void dpNeedsGamma();
    void dpFromTheProject();
    void zeroSnrSigma();
    void diffusersSchedule();
    void textFormat();
    void configSpacingWithoutTrajectory();
    void errors_data();
    void errors();

private:
    QTemporaryDir m_dir;
};

// The diffusers lists, written out from diffusers' set_timesteps (NumPy float64):
// linspace: np.linspace(0, N − 1, K).round()[::-1]; leading: np.arange(0, K)·(N // K) [::-1];
// trailing: np.round(np.arange(N, 0, −N/K)) − 1; even and quadratic by docs/gaussian.md; the
// Align Your Steps lists as published.
void tst_CliTimesteps::conventions_data() {
    QTest::addColumn<int>("numSteps");
    QTest::addColumn<QString>("trajectory");
    QTest::addColumn<QList<int>>("diffusers");  // t, descending
    QTest::newRow("linspace N=1000") << 1000 << "linspace:10"
        << QList<int>{999, 888, 777, 666, 555, 444, 333, 222, 111, 0};
    QTest::newRow("leading N=1000") << 1000 << "leading:10"
        << QList<int>{900, 800, 700, 600, 500, 400, 300, 200, 100, 0};
    QTest::newRow("leading,offset=1 N=1000") << 1000 << "leading:10,offset=1"
        << QList<int>{901, 801, 701, 601, 501, 401, 301, 201, 101, 1};
    QTest::newRow("trailing N=1000") << 1000 << "trailing:10"
        << QList<int>{999, 899, 799, 699, 599, 499, 399, 299, 199, 99};
    QTest::newRow("linspace N=250") << 250 << "linspace:10"
        << QList<int>{249, 221, 194, 166, 138, 111, 83, 55, 28, 0};
    QTest::newRow("leading N=250") << 250 << "leading:10"
        << QList<int>{225, 200, 175, 150, 125, 100, 75, 50, 25, 0};
    QTest::newRow("trailing N=250") << 250 << "trailing:10"
        << QList<int>{249, 224, 199, 174, 149, 124, 99, 74, 49, 24};
    // NumPy's arange gives 62.50000000000001 at i = 57, which rounds to 63: t = 62 (exact
    // arithmetic would give 61). We follow diffusers.
    QTest::newRow("trailing N=250 K=76") << 250 << "trailing:76"
        << QList<int>{249, 246, 242, 239, 236, 233, 229, 226, 223, 219, 216, 213, 210, 206, 203,
                      200, 196, 193, 190, 187, 183, 180, 177, 173, 170, 167, 163, 160, 157, 154,
                      150, 147, 144, 140, 137, 134, 131, 127, 124, 121, 117, 114, 111, 108, 104,
                      101, 98,  94,  91,  88,  85,  81,  78,  75,  71,  68,  65,  62,  58,  55,
                      52,  48,  45,  42,  38,  35,  32,  29,  25,  22,  19,  15,  12,  9,   6,
                      2};
    QTest::newRow("even N=1000") << 1000 << "even:10"
        << QList<int>{999, 888, 777, 666, 555, 444, 333, 222, 111, 0};
    QTest::newRow("even N=250") << 250 << "even:10"
        << QList<int>{249, 221, 194, 166, 138, 111, 83, 55, 28, 0};
    QTest::newRow("quadratic N=1000") << 1000 << "quadratic:10"
        << QList<int>{800, 632, 483, 355, 246, 158, 88, 39, 9, 0};
    QTest::newRow("quadratic N=250") << 250 << "quadratic:10"
        << QList<int>{200, 158, 120, 88, 61, 39, 22, 9, 2, 0};
    QTest::newRow("ays:sd15") << 1000 << "ays:sd15"
        << QList<int>{999, 850, 736, 645, 545, 455, 343, 233, 124, 24};
    QTest::newRow("ays:sdxl") << 1000 << "ays:sdxl"
        << QList<int>{999, 845, 730, 587, 443, 310, 193, 116, 53, 13};
    QTest::newRow("list") << 250 << "list:1,5,100,250" << QList<int>{249, 99, 4, 0};
}

void tst_CliTimesteps::conventions() {
    QFETCH(int, numSteps);
    QFETCH(QString, trajectory);
    QFETCH(QList<int>, diffusers);
    const QStringList common = {"timesteps", "--steps", QString::number(numSteps),
                                "--trajectory", trajectory};
    auto d = runCli(common + QStringList{"--as", "diffusers"});
    QVERIFY2(d.exitCode == 0, qPrintable(d.err));
    QCOMPARE(ints(jsonArray(d.out, "timesteps")), diffusers);
    // Ours: n = t + 1, ascending.
    QList<int> ours;
    for (auto it = diffusers.rbegin(); it != diffusers.rend(); ++it) ours.push_back(*it + 1);
    auto o = runCli(common + QStringList{"--as", "diffuscope"});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QCOMPARE(ints(jsonArray(o.out, "n")), ours);
    // k-diffusion: σ = √((1 − ᾱ_n)/ᾱ_n) at t + 1 in the same (descending) order, then 0.
    auto k = runCli(common + QStringList{"--as", "k-diffusion"});
    QVERIFY2(k.exitCode == 0, qPrintable(k.err));
    const QJsonArray sigmas = jsonArray(k.out, "sigmas");
    QCOMPARE(sigmas.size(), diffusers.size() + 1);
    for (qsizetype i = 0; i < diffusers.size(); ++i) {
        const double alphaBar = linearAlphaBar(numSteps, diffusers[i] + 1);
        DS_COMPARE_REL(sigmas[i].toDouble(), std::sqrt((1.0 - alphaBar) / alphaBar), 1e-10);
    }
    QCOMPARE(sigmas.last().toDouble(), 0.0);
}

// The families that depend on the schedule: the three conventions agree with each other.
void tst_CliTimesteps::sigmasOfEveryFamily_data() {
    QTest::addColumn<QString>("trajectory");
    for (const char* t : {"logsnr:12", "karras:12", "karras:12,rho=3", "ays:sd15:20", "ays:sdxl:5"}) {
        QTest::newRow(t) << t;
    }
}

void tst_CliTimesteps::sigmasOfEveryFamily() {
    QFETCH(QString, trajectory);
    const QStringList common = {"timesteps", "--trajectory", trajectory};
    auto o = runCli(common + QStringList{"--as", "diffuscope"});
    auto d = runCli(common + QStringList{"--as", "diffusers"});
    auto k = runCli(common + QStringList{"--as", "k-diffusion"});
    QVERIFY2(o.exitCode == 0 && d.exitCode == 0 && k.exitCode == 0, qPrintable(o.err + d.err + k.err));
    const QList<int> n = ints(jsonArray(o.out, "n"));
    const QList<int> t = ints(jsonArray(d.out, "timesteps"));
    const QJsonArray sigmas = jsonArray(k.out, "sigmas");
    QCOMPARE(t.size(), n.size());
    QCOMPARE(sigmas.size(), n.size() + 1);
    for (qsizetype i = 0; i < n.size(); ++i) {
        if (i > 0) QVERIFY(n[i] > n[i - 1]);
        QCOMPARE(t[n.size() - 1 - i], n[i] - 1);
        const double alphaBar = linearAlphaBar(1000, n[i]);
        DS_COMPARE_REL(sigmas[n.size() - 1 - i].toDouble(), std::sqrt((1.0 - alphaBar) / alphaBar),
                       1e-10);
    }
}

// dp:K needs Γ: refused without one, run with the exact oracle's.
void tst_CliTimesteps::dpNeedsGamma() {
    auto refused = runCli({"timesteps", "--steps", "100", "--trajectory", "dp:5"});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("--gamma"), qPrintable(refused.err));
    auto run = runCli({"timesteps", "--steps", "100", "--trajectory", "dp:5", "--data",
                       "gaussian:d=2,s=0.5", "--gamma-samples", "20", "--as", "diffusers"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QList<int> t = ints(jsonArray(run.out, "timesteps"));
    QCOMPARE(t.size(), 5);
    QCOMPARE(t.first(), 99);  // the DP runs from 1 to N
    QCOMPARE(t.last(), 0);
}

// dp:K on the project's (imported) Γ equals dp:K on the same Γ from a file.
void tst_CliTimesteps::dpFromTheProject() {
    core::project::Project project;
    project.process = core::project::ProcessKind::Gaussian;
    project.gaussian.numSteps = 100;
    project.gaussian.trajectory = core::project::GaussianTrajectory::Dp;
    project.gaussian.pathSteps = 6;
    const QString gammaPath = m_dir.filePath("dp-gamma.csv");
    std::ofstream gamma(gammaPath.toStdString());
    gamma << "n,gamma\n";
    for (int n = 1; n <= 100; ++n) {
        // Γ falling with n, under the bound 1/β̄ everywhere.
        const double value = 0.5 + 0.5 / n;
        project.gaussian.importedGamma.push_back(value);
        gamma << n << "," << value << "\n";
    }
    gamma.close();
    project.gaussian.importedGammaName = gammaPath.toStdString();
    const QString projectPath = m_dir.filePath("dp.json");
    std::ofstream(projectPath.toStdString())
        << core::project::projectToJson(project, projectPath.toStdString());
    auto fromProject = runCli({"timesteps", "--project", projectPath, "--as", "diffusers"});
    QVERIFY2(fromProject.exitCode == 0, qPrintable(fromProject.err));
    auto fromFile = runCli({"timesteps", "--steps", "100", "--trajectory", "dp:6", "--gamma",
                            gammaPath, "--gamma-kind", "gamma", "--as", "diffusers"});
    QVERIFY2(fromFile.exitCode == 0, qPrintable(fromFile.err));
    const QList<int> t = ints(jsonArray(fromProject.out, "timesteps"));
    QCOMPARE(t.size(), 6);
    QCOMPARE(t.first(), 99);
    QCOMPARE(t.last(), 0);
    QCOMPARE(ints(jsonArray(fromFile.out, "timesteps")), t);
}

// ᾱ_N = 0: σ is taken at ᾱ = 2⁻²⁴ (diffusers' Euler scheduler), √(2²⁴ − 1), with a note.
void tst_CliTimesteps::zeroSnrSigma() {
    auto k = runCli({"timesteps", "--schedule", "linear,zero-snr", "--trajectory", "trailing:4",
                     "--as", "k-diffusion"});
    QVERIFY2(k.exitCode == 0, qPrintable(k.err));
    QVERIFY2(k.err.contains("zero terminal SNR"), qPrintable(k.err));
    const QJsonArray sigmas = jsonArray(k.out, "sigmas");
    QCOMPARE(sigmas.size(), 5);
    DS_COMPARE_REL(sigmas[0].toDouble(), std::sqrt(16777215.0), 1e-15);
    QVERIFY(sigmas[1].toDouble() < sigmas[0].toDouble());
}

// diffusers:FILE: N from the config, unused keys noted, σ from diffusers' float ᾱ.
void tst_CliTimesteps::diffusersSchedule() {
    const QString path = m_dir.filePath("scheduler_config.json");
    std::ofstream(path.toStdString())
        << R"({"_class_name": "DDIMScheduler", "num_train_timesteps": 1000,
              "beta_schedule": "scaled_linear", "beta_start": 0.00085, "beta_end": 0.012,
              "timestep_spacing": "leading", "steps_offset": 1, "clip_sample": false})";
    auto k = runCli({"timesteps", "--schedule", "diffusers:" + path, "--trajectory",
                     "leading:10,offset=1", "--as", "k-diffusion"});
    QVERIFY2(k.exitCode == 0, qPrintable(k.err));
    QVERIFY2(k.err.contains("keys not used here: clip_sample"), qPrintable(k.err));
    const QJsonArray sigmas = jsonArray(k.out, "sigmas");
    QCOMPARE(sigmas.size(), 11);
    // t = 901 and t = 1: σ from diffusers' float32 ᾱ (the one-off of tst_diffusers_config:
    // ᾱ_901 = 0.014004888944327831, ᾱ_1 = 0.9982960224151611 as floats, read in double).
    DS_COMPARE_REL(sigmas[0].toDouble(),
                   std::sqrt((1.0 - 0.014004888944327831) / 0.014004888944327831), 1e-12);
    DS_COMPARE_REL(sigmas[9].toDouble(),
                   std::sqrt((1.0 - 0.9982960224151611) / 0.9982960224151611), 1e-12);
    // Another trajectory than the config's spacing: a note names the config's.
    auto other = runCli({"timesteps", "--schedule", "diffusers:" + path, "--trajectory",
                         "trailing:10"});
    QVERIFY2(other.exitCode == 0, qPrintable(other.err));
    QVERIFY2(other.err.contains("--trajectory leading:10,offset=1"), qPrintable(other.err));
    QVERIFY2(!k.err.contains("names timestep_spacing"), qPrintable(k.err));
    // The other subcommands take the spec too.
    const QString gammaPath = m_dir.filePath("gamma.csv");
    {
        std::ofstream gamma(gammaPath.toStdString());
        gamma << "n,gamma\n";
        for (int n = 1; n <= 1000; ++n) gamma << n << ",1\n";
    }
    auto variance = runCli({"variance", "--schedule", "diffusers:" + path, "--gamma", gammaPath,
                            "--trajectory", "even:5"});
    QVERIFY2(variance.exitCode == 0, qPrintable(variance.err));
    QVERIFY2(variance.err.contains("keys not used here"), qPrintable(variance.err));
    auto wrongSteps = runCli({"timesteps", "--schedule", "diffusers:" + path, "--steps", "500",
                              "--trajectory", "linspace:10"});
    QCOMPARE(wrongSteps.exitCode, 2);
    QVERIFY2(wrongSteps.err.contains("num_train_timesteps = 1000"), qPrintable(wrongSteps.err));
}

// --schedule diffusers:FILE without --trajectory: the config's timestep_spacing (K = 10, or the
// project's K), in `timesteps` and in the Gaussian subcommands alike; --trajectory wins.
void tst_CliTimesteps::configSpacingWithoutTrajectory() {
    const QString path = m_dir.filePath("leading_config.json");
    std::ofstream(path.toStdString())
        << R"({"num_train_timesteps": 1000, "timestep_spacing": "leading", "steps_offset": 1})";
    auto named = runCli({"timesteps", "--schedule", "diffusers:" + path, "--as", "diffusers"});
    QVERIFY2(named.exitCode == 0, qPrintable(named.err));
    // diffusers' leading spacing with steps_offset 1 at 10 steps: 901, 801, …, 1.
    // DDIMScheduler.step goes t → t − 100: the next listed timestep, and below 0 at the end.
    QCOMPARE(named.out, QString("{\"timesteps\":[901,801,701,601,501,401,301,201,101,1],"
                                "\"previous\":[801,701,601,501,401,301,201,101,1,-99]}\n"));
    QVERIFY2(!named.err.contains("DDIMScheduler.step"), qPrintable(named.err));
    auto given = runCli({"timesteps", "--schedule", "diffusers:" + path, "--trajectory",
                         "trailing:4", "--as", "diffusers"});
    QVERIFY2(given.exitCode == 0, qPrintable(given.err));
    QCOMPARE(given.out, QString("{\"timesteps\":[999,749,499,249],"
                                "\"previous\":[749,499,249,-1]}\n"));
    // With a project: its K (6), the config's spacing, as when the config is picked in the GUI.
    core::project::Project project;
    project.process = core::project::ProcessKind::Gaussian;
    project.gaussian.trajectory = core::project::GaussianTrajectory::Even;
    project.gaussian.pathSteps = 6;
    const QString projectPath = m_dir.filePath("k6.json");
    std::ofstream(projectPath.toStdString())
        << core::project::projectToJson(project, projectPath.toStdString());
    auto fromProject = runCli({"timesteps", "--project", projectPath, "--schedule",
                               "diffusers:" + path, "--as", "diffusers"});
    QVERIFY2(fromProject.exitCode == 0, qPrintable(fromProject.err));
    // N // K = 166: 0, 166, …, 830, plus the offset, descending.
    QCOMPARE(fromProject.out, QString("{\"timesteps\":[831,665,499,333,167,1],"
                                      "\"previous\":[665,499,333,167,1,-165]}\n"));
    // The variance subcommand takes it as its trajectory too.
    const QString gammaPath = m_dir.filePath("gamma_ones.csv");
    {
        std::ofstream gamma(gammaPath.toStdString());
        gamma << "n,gamma\n";
        for (int n = 1; n <= 1000; ++n) gamma << n << ",1\n";
    }
    auto variance = runCli({"variance", "--schedule", "diffusers:" + path, "--gamma", gammaPath,
                            "--format", "json"});
    QVERIFY2(variance.exitCode == 0, qPrintable(variance.err));
    // 1-based n = t + 1 of diffusers' 1, 101, …, 901.
    QVERIFY2(variance.out.contains("[2,102,202,302,402,502,602,702,802,902]"), qPrintable(variance.out));
}

void tst_CliTimesteps::textFormat() {
    // The literal the Trajectory view's "Copy for diffusers" is checked against (tst_pipeline_copy).
    auto copied = runCli({"timesteps", "--trajectory", "list:1,500,1000", "--as", "diffusers"});
    QVERIFY2(copied.exitCode == 0, qPrintable(copied.err));
    QCOMPARE(copied.out, QString("{\"timesteps\":[999,499,0],\"previous\":[666,166,-333]}\n"));
    auto d = runCli({"timesteps", "--trajectory", "trailing:4", "--as", "diffusers", "--format",
                     "text"});
    QVERIFY2(d.exitCode == 0, qPrintable(d.err));
    QCOMPARE(d.out, QString("999, 749, 499, 249\n"));
}

void tst_CliTimesteps::errors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("piece");
    QTest::newRow("as") << QStringList{"--trajectory", "even:5", "--as", "torch"} << "--as";
    QTest::newRow("format") << QStringList{"--trajectory", "even:5", "--format", "csv"} << "--format";
    QTest::newRow("trajectory") << QStringList{"--trajectory", "ays:sd3"} << "ays:sd3";
    QTest::newRow("ays N") << QStringList{"--steps", "500", "--trajectory", "ays:sd15"} << "N";
    QTest::newRow("no trajectory") << QStringList{} << "--trajectory";
}

void tst_CliTimesteps::errors() {
    QFETCH(QStringList, args);
    QFETCH(QString, piece);
    auto r = runCli(QStringList{"timesteps"} + args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(piece), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
}

QTEST_GUILESS_MAIN(tst_CliTimesteps)
#include "tst_cli_timesteps.moc"
