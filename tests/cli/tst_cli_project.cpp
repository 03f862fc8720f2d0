// SPDX-License-Identifier: MIT
// `diffuscope project` and `--project FILE`: the example projects as files, and a project's
// Gaussian settings standing in for options, with the command line overriding them.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include "core/io/file_io.h"
#include "core/project/lab_settings.h"
#include "core/project/project_file.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::runCli;

class tst_CliProject : public QObject {
    Q_OBJECT
private slots:
    void examplesAreWrittenAsTheCoreBuildsThem();
    void badExampleIsNamed();
    void projectSettingsEqualTheOptions();
    void optionsOverrideTheProject();
    void missingProjectIsNamed();
    void categoricalProjectEqualsTheOptions();
    void categoricalOverridesAreChecked();
    void nllSweepEqualsSingleRuns();
};

void tst_CliProject::examplesAreWrittenAsTheCoreBuildsThem() {
    QTemporaryDir dir;
    for (int n = 1; n <= core::project::kNumExamples; ++n) {
        const QString path = dir.filePath(QString("example%1.json").arg(n));
        const auto run = runCli({"project", "--example", QString::number(n), "--out", path});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        auto read = core::project::readProjectFile(path.toStdString());
        DS_VERIFY_OK(read);
        auto expected = core::project::exampleProject(n);
        DS_VERIFY_OK(expected);
        // The bundled networks by their portable names, as the window saves them too (example 7
        // decodes the bundled chain with its exact denoiser: no network; example 1 the oracle).
        QVERIFY(*read == *expected);
        const std::string model = read->process == core::project::ProcessKind::Gaussian
                                      ? read->gaussian.model
                                      : read->categorical.model;
        if (n == 7) QCOMPARE(read->categorical.decoding.chain.source, std::string("english"));
        QVERIFY2(n == 1 || n == 7 || model.starts_with("bundled:"), model.c_str());
    }
}

void tst_CliProject::badExampleIsNamed() {
    QTemporaryDir dir;
    const auto run = runCli({"project", "--example", "8", "--out", dir.filePath("x.json")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("--example = 8"), qPrintable(run.err));
    QVERIFY(!QFile::exists(dir.filePath("x.json")));
}

namespace {

// A Gaussian project on a 2-D Gaussian with the exact oracle, written as the GUI would.
QString writeProject(const QTemporaryDir& dir) {
    core::project::Project project;
    project.process = core::project::ProcessKind::Gaussian;
    project.gaussian.data = "gaussian:d=2,s=0.5";
    project.gaussian.schedule = "cosine";
    project.gaussian.numSteps = 200;
    project.gaussian.gammaSamples = 20;
    project.gaussian.seed = 5;
    project.gaussian.pathSteps = 8;
    project.gaussian.trajectory = core::project::GaussianTrajectory::Even;
    const QString path = dir.filePath("p.diffuscope.json");
    const std::string file = path.toStdString();
    if (!core::io::writeFileAtomically(file, core::project::projectToJson(project, file)).ok()) {
        return {};
    }
    return path;
}

}  // namespace

void tst_CliProject::projectSettingsEqualTheOptions() {
    QTemporaryDir dir;
    const QString project = writeProject(dir);
    QVERIFY(!project.isEmpty());
    const auto fromProject = runCli({"nll", "--project", project, "--samples", "50"});
    QVERIFY2(fromProject.exitCode == 0, qPrintable(fromProject.err));
    const auto spelledOut = runCli({"nll", "--data", "gaussian:d=2,s=0.5", "--schedule", "cosine",
                                    "--steps", "200", "--gamma-samples", "20", "--seed", "5",
                                    "--trajectory", "even:8", "--estimator", "auto",
                                    "--samples", "50"});
    QVERIFY2(spelledOut.exitCode == 0, qPrintable(spelledOut.err));
    QCOMPARE(fromProject.out, spelledOut.out);
    QVERIFY(fromProject.out.contains("\"bpd\""));
}

void tst_CliProject::optionsOverrideTheProject() {
    QTemporaryDir dir;
    const QString project = writeProject(dir);
    QVERIFY(!project.isEmpty());
    const auto overridden =
        runCli({"nll", "--project", project, "--samples", "50", "--trajectory", "even:4"});
    QVERIFY2(overridden.exitCode == 0, qPrintable(overridden.err));
    QVERIFY2(overridden.out.contains("\"trajectory\":[1,67,134,200]"), qPrintable(overridden.out));
    // An overriding option is checked like any other.
    const auto bad = runCli({"nll", "--project", project, "--estimator", "sometimes"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("--estimator = sometimes"), qPrintable(bad.err));
}

void tst_CliProject::missingProjectIsNamed() {
    const auto run = runCli({"variance", "--project", "/nonexistent/p.json", "--gamma", "g.csv"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("/nonexistent/p.json"), qPrintable(run.err));
}

namespace {

// Every number of two `categorical` JSON outputs agrees to 1e-12 (relative): the project's π is
// normalised by the set-up, the option's by its parser, which may differ in the last bit.
void compareOutputs(const QString& a, const QString& b) {
    const QJsonObject x = QJsonDocument::fromJson(a.toUtf8()).object();
    const QJsonObject y = QJsonDocument::fromJson(b.toUtf8()).object();
    QVERIFY(!x.isEmpty());
    QCOMPARE(x.keys(), y.keys());
    for (const QString& key : x.keys()) {
        if (x[key].isDouble()) {
            DS_COMPARE_REL(x[key].toDouble(), y[key].toDouble(), 1e-12);
        } else if (x[key].isArray()) {
            const QJsonArray u = x[key].toArray(), v = y[key].toArray();
            QCOMPARE(u.size(), v.size());
            for (qsizetype i = 0; i < u.size(); ++i) {
                DS_COMPARE_REL(u[i].toDouble(), v[i].toDouble(), 1e-12);
            }
        } else {
            // The DP: same K and cost. With the exact denoiser of D = 1 data every path costs
            // the ELBO, so which one wins a tie depends on the last bit and is not compared.
            const QJsonObject u = x[key].toObject(), v = y[key].toObject();
            QCOMPARE(u["K"], v["K"]);
            DS_COMPARE_REL(u["cost"].toDouble(), v["cost"].toDouble(), 1e-12);
            QCOMPARE(u["trajectory"].toArray().size(), u["K"].toInt() + 1);
        }
    }
}

}  // namespace

void tst_CliProject::categoricalProjectEqualsTheOptions() {
    QTemporaryDir dir;
    const QString project = dir.filePath("p1.json");
    QCOMPARE(runCli({"project", "--example", "1", "--out", project}).exitCode, 0);
    // The example's table as a CSV file: K = 4, conditions A and B.
    QFile table(dir.filePath("t.csv"));
    QVERIFY(table.open(QIODevice::WriteOnly));
    table.write("x1,p,c\n0,0.05,A\n1,0.15,A\n2,0.3,A\n3,0.5,A\n"
                "0,0.6,B\n1,0.25,B\n2,0.1,B\n3,0.05,B\n");
    table.close();
    // Overrides, with the DP and with the schedule that depends on the condition.
    for (const QStringList& extra : {QStringList{"--schedule", "power:2", "--dp", "6"},
                                     QStringList{"--schedule", "info-linear"}}) {
        const auto fromProject = runCli(QStringList{"categorical", "--project", project, "--steps",
                                                    "30", "--condition", "B"} + extra);
        QVERIFY2(fromProject.exitCode == 0, qPrintable(fromProject.err));
        const auto spelledOut = runCli(QStringList{"categorical", "--table", table.fileName(),
                                                   "--pi", "0.4,0.3,0.2,0.1", "--steps", "30",
                                                   "--condition", "B"} + extra);
        QVERIFY2(spelledOut.exitCode == 0, qPrintable(spelledOut.err));
        compareOutputs(fromProject.out, spelledOut.out);
    }
    // Without overrides: the project's own schedule (cosine), N = 100 and condition A.
    const auto plain = runCli({"categorical", "--project", project});
    const auto plainOptions = runCli({"categorical", "--table", table.fileName(), "--pi",
                                      "0.4,0.3,0.2,0.1", "--schedule", "cosine", "--steps", "100",
                                      "--condition", "A"});
    QVERIFY2(plain.exitCode == 0 && plainOptions.exitCode == 0, qPrintable(plain.err));
    compareOutputs(plain.out, plainOptions.out);
}

void tst_CliProject::categoricalOverridesAreChecked() {
    QTemporaryDir dir;
    const QString project = dir.filePath("p1.json");
    QCOMPARE(runCli({"project", "--example", "1", "--out", project}).exitCode, 0);
    const auto pi = runCli({"categorical", "--project", project, "--pi", "0.5,0.5"});
    QCOMPARE(pi.exitCode, 2);
    QVERIFY2(pi.err.contains("--pi = 0.5,0.5") && pi.err.contains("K = 4"), qPrintable(pi.err));
    const auto condition = runCli({"categorical", "--project", project, "--condition", "Z"});
    QCOMPARE(condition.exitCode, 2);
    QVERIFY2(condition.err.contains("--condition = Z"), qPrintable(condition.err));
    // custom:FILE is read as without --project: a missing file is named.
    const auto custom = runCli({"categorical", "--project", project, "--schedule", "custom:x.csv"});
    QCOMPARE(custom.exitCode, 2);
    QVERIFY2(custom.err.contains("x.csv: cannot open the file"), qPrintable(custom.err));
    const auto power = runCli({"categorical", "--project", project, "--schedule", "power:0"});
    QCOMPARE(power.exitCode, 2);
    QVERIFY2(power.err.contains("--schedule = power:0"), qPrintable(power.err));
}

// The categorical examples: `categorical --project` gives the step costs that the GUI's
// step-cost view exports for the same example, number for number (the GUI's pipeline: its
// kernel form, and for the digits its Monte Carlo samples and seed).
// `nll --sweep` (the GUI's NLL against the number of steps) against single `nll` runs of the
// same trajectories: each cell the same number, to the bit.
void tst_CliProject::nllSweepEqualsSingleRuns() {
    QTemporaryDir dir;
    const QString project = writeProject(dir);
    QVERIFY(!project.isEmpty());
    const auto sweep =
        runCli({"nll", "--project", project, "--samples", "80", "--sweep", "4,8,20"}, 600000);
    QVERIFY2(sweep.exitCode == 0, qPrintable(sweep.err));
    const QJsonObject json = QJsonDocument::fromJson(sweep.out.toUtf8()).object();
    QCOMPARE(json["ks"].toArray().size(), 3);
    QCOMPARE(json["seed"].toInt(), 5);
    QCOMPARE(json["curves"].toArray().size(), 6);
    int checked = 0;
    for (const QJsonValue& curveValue : json["curves"].toArray()) {
        const QJsonObject curve = curveValue.toObject();
        const QString kind = curve["trajectory"].toString();
        const QString variance = curve["variance"].toString();
        if (variance == "small") continue;  // two of the three variances are enough
        const QJsonArray bpd = curve["bpd"].toArray();
        const QJsonArray timesteps = json["trajectories"].toObject()[kind].toArray();
        for (qsizetype i = 0; i < bpd.size(); ++i) {
            QStringList list;
            for (const QJsonValue& n : timesteps[i].toArray()) list << QString::number(n.toInt());
            const auto single = runCli({"nll", "--project", project, "--samples", "80",
                                        "--variance", variance, "--trajectory",
                                        "list:" + list.join(',')});
            QVERIFY2(single.exitCode == 0, qPrintable(single.err));
            const QJsonObject one = QJsonDocument::fromJson(single.out.toUtf8()).object();
            QCOMPARE(bpd[i].toDouble(), one["bpd"].toDouble());
            ++checked;
        }
    }
    QCOMPARE(checked, 12);
    // A K outside 2..N is named.
    const auto bad = runCli({"nll", "--project", project, "--sweep", "4,500"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("--sweep = 500"), qPrintable(bad.err));
}

QTEST_GUILESS_MAIN(tst_CliProject)
#include "tst_cli_project.moc"
