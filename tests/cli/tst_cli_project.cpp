// SPDX-License-Identifier: MIT
// `diffuscope project` and `--project FILE`: the example projects as files, and a project's
// Gaussian settings standing in for options, with the command line overriding them.
#include <QTemporaryDir>
#include <QTest>

#include "core/io/file_io.h"
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
};

void tst_CliProject::examplesAreWrittenAsTheCoreBuildsThem() {
    QTemporaryDir dir;
    for (int n = 1; n <= core::project::kNumExamples; ++n) {
        const QString path = dir.filePath(QString("example%1.json").arg(n));
        const auto run = runCli({"project", "--example", QString::number(n), "--out", path});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        auto read = core::project::readProjectFile(path.toStdString());
        DS_VERIFY_OK(read);
        auto expected = core::project::exampleProject(
            n, [](const std::string& name) -> core::Result<std::string> { return name; });
        DS_VERIFY_OK(expected);
        // Equal but for where the bundled networks are (the installed files).
        read->categorical.model = expected->categorical.model;
        read->gaussian.model = expected->gaussian.model;
        QVERIFY(*read == *expected);
    }
}

void tst_CliProject::badExampleIsNamed() {
    QTemporaryDir dir;
    const auto run = runCli({"project", "--example", "7", "--out", dir.filePath("x.json")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("--example = 7"), qPrintable(run.err));
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

QTEST_GUILESS_MAIN(tst_CliProject)
#include "tst_cli_project.moc"
