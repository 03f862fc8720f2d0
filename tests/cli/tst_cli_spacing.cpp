// SPDX-License-Identifier: MIT
// The timestep spacings on the command line: variance, nll and sample accept them, list the
// trajectory in increasing order, say when it misses 1 or N, and refuse bad specs in one line
// naming the field and the value.
#include <cmath>
#include <utility>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "core/io/file_io.h"
#include "core/project/project_file.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::runCli;

namespace {

// The JSON array as ints, checked to increase strictly.
QList<int> increasing(const QJsonArray& array) {
    QList<int> values;
    for (const auto& v : array) {
        values.push_back(v.toInt());
    }
    for (qsizetype i = 1; i < values.size(); ++i) {
        if (values[i] <= values[i - 1]) {
            return {};
        }
    }
    return values;
}

}  // namespace

class tst_CliSpacing : public QObject {
    Q_OBJECT

private slots:
    void variance_data();
    void variance();
    void nll();
    void sampleSaysWhereItStarts();
    void projectSpacingEqualsTheOption();
    void oneTimestep();
    void errors_data();
    void errors();

private:
    QTemporaryDir m_dir;
};

void tst_CliSpacing::variance_data() {
    QTest::addColumn<QString>("trajectory");
    QTest::addColumn<QList<int>>("expected");  // empty: only checked to increase
    QTest::addColumn<QString>("ends");         // a piece of ends_note, empty: none
    QTest::newRow("trailing") << "trailing:10"
                              << QList<int>{20, 40, 60, 80, 100, 120, 140, 160, 180, 200} << "starts at n = 20";
    QTest::newRow("leading") << "leading:10"
                             << QList<int>{1, 21, 41, 61, 81, 101, 121, 141, 161, 181} << "ends at n = 181";
    QTest::newRow("linspace") << "linspace:5" << QList<int>{1, 51, 101, 150, 200} << "";
    QTest::newRow("logsnr") << "logsnr:10" << QList<int>{} << "";
    QTest::newRow("karras") << "karras:10,rho=3" << QList<int>{} << "";
}

// linspace(0, 199, 5) = 0, 49.75, 99.5, 149.25, 199 → 0, 50, 100, 149, 199 (99.5 → 100).
void tst_CliSpacing::variance() {
    QFETCH(QString, trajectory);
    QFETCH(QList<int>, expected);
    QFETCH(QString, ends);
    const QString path = m_dir.path() + "/g.csv";
    if (!QFile::exists(path)) {
        auto gamma = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--steps", "200",
                             "--samples", "20", "--seed", "3", "--out", path});
        QVERIFY2(gamma.exitCode == 0, qPrintable(gamma.err));
    }
    auto variance = runCli({"variance", "--steps", "200", "--gamma", path, "--trajectory",
                            trajectory, "--format", "json"});
    QVERIFY2(variance.exitCode == 0, qPrintable(variance.err));
    const QJsonObject json = QJsonDocument::fromJson(variance.out.toUtf8()).object();
    const QList<int> taus = increasing(json["trajectory"].toArray());
    QVERIFY2(!taus.isEmpty(), qPrintable(variance.out));
    if (!expected.isEmpty()) {
        QCOMPARE(taus, expected);
    }
    const QJsonArray pairs = json["pairs"].toArray();
    QCOMPARE(pairs.size(), taus.size() - 1);
    QCOMPARE(pairs.first().toObject()["t"].toInt(), taus.last());
    QCOMPARE(pairs.last().toObject()["s"].toInt(), taus.first());
    if (ends.isEmpty()) {
        QVERIFY(!json.contains("ends_note"));
    } else {
        QVERIFY2(json["ends_note"].toString().contains(ends), qPrintable(variance.out));
    }
}

// nll on trailing:10 (N = 1000): t = 999, 899, …, 99 in diffusers, so n = 100, …, 1000
// increasing; the decoder reads x_100 with variance β̃_{100|200}.
void tst_CliSpacing::nll() {
    auto result = runCli({"nll", "--data", "gaussian:d=2,s=0.5", "--trajectory", "trailing:10",
                          "--variance", "small", "--samples", "50", "--seed", "1"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const QJsonObject json = QJsonDocument::fromJson(result.out.toUtf8()).object();
    QCOMPARE(increasing(json["trajectory"].toArray()),
             (QList<int>{100, 200, 300, 400, 500, 600, 700, 800, 900, 1000}));
    QVERIFY(json["ends_note"].toString().contains("starts at n = 100"));
    QVERIFY(json["decoder_variance"].toDouble() > 0.05);  // β̃_{100|200} ≈ 0.08, not β̃_{1|2}
    QCOMPARE(json["terms"].toArray().size(), 9);
    QCOMPARE(json["terms"].toArray().last().toObject()["s"].toInt(), 100);
    // even:10 reaches both ends: no note, and the decoder's β̃_{1|2} is tiny.
    auto even = runCli({"nll", "--data", "gaussian:d=2,s=0.5", "--trajectory", "even:10",
                        "--variance", "small", "--samples", "50", "--seed", "1"});
    QVERIFY2(even.exitCode == 0, qPrintable(even.err));
    const QJsonObject evenJson = QJsonDocument::fromJson(even.out.toUtf8()).object();
    QVERIFY(!evenJson.contains("ends_note"));
    QVERIFY(evenJson["decoder_variance"].toDouble() < 1e-3);
}

void tst_CliSpacing::sampleSaysWhereItStarts() {
    const QString out = m_dir.path() + "/s.csv";
    auto result = runCli({"sample", "--data", "gaussian:d=2,s=0.2", "--sampler", "ddim",
                          "--trajectory", "leading:10,offset=1", "--count", "10", "--out", out});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.err.contains("ends at n = 902 < N = 1000"), qPrintable(result.err));
    QVERIFY2(result.err.contains("starts at n = 2 > 1"), qPrintable(result.err));
}

// A project with karras, ρ = 3 (the optional karrasRho field) gives what --trajectory
// karras:8,rho=3 gives.
void tst_CliSpacing::projectSpacingEqualsTheOption() {
    core::project::Project project;
    project.process = core::project::ProcessKind::Gaussian;
    project.gaussian.data = "gaussian:d=2,s=0.5";
    project.gaussian.numSteps = 200;
    project.gaussian.pathSteps = 8;
    project.gaussian.trajectory = core::project::GaussianTrajectory::Karras;
    project.gaussian.karrasRho = 3.0;
    const std::string file = (m_dir.path() + "/karras.diffuscope.json").toStdString();
    QVERIFY(core::io::writeFileAtomically(file, core::project::projectToJson(project, file)).ok());
    const QStringList common{"--variance", "small", "--samples", "20", "--seed", "1"};
    auto fromProject = runCli(QStringList{"nll", "--project", QString::fromStdString(file)} + common);
    QVERIFY2(fromProject.exitCode == 0, qPrintable(fromProject.err));
    auto fromOption = runCli(QStringList{"nll", "--data", "gaussian:d=2,s=0.5", "--steps", "200",
                                         "--trajectory", "karras:8,rho=3"} + common);
    QVERIFY2(fromOption.exitCode == 0, qPrintable(fromOption.err));
    const QJsonObject a = QJsonDocument::fromJson(fromProject.out.toUtf8()).object();
    const QJsonObject b = QJsonDocument::fromJson(fromOption.out.toUtf8()).object();
    QCOMPARE(increasing(a["trajectory"].toArray()).size(), 8);
    QCOMPARE(a["trajectory"].toArray(), b["trajectory"].toArray());
    QCOMPARE(a["bpd"].toDouble(), b["bpd"].toDouble());
}

// diffusers' spacings take K = 1, as its schedulers do: one step from x_{τ₁} to x₀, with a
// finite ELBO (the decoder's variance β̃_{τ₁|τ₁+1}) and samples; the other kinds still need 2.
void tst_CliSpacing::oneTimestep() {
    for (const auto& [spec, n] : {std::pair{"trailing:1", 200}, std::pair{"leading:1", 1},
                                  std::pair{"linspace:1,class=DPMSolverMultistepScheduler", 200},
                                  std::pair{"leading:1,class=UniPCMultistepScheduler", 101}}) {
        auto nll = runCli({"nll", "--data", "gaussian:d=2,s=1", "--steps", "200", "--trajectory", spec,
                           "--samples", "200"});
        QVERIFY2(nll.exitCode == 0, qPrintable(nll.err));
        const QJsonObject json = QJsonDocument::fromJson(nll.out.toUtf8()).object();
        QCOMPARE(json["trajectory"].toArray(), (QJsonArray{n}));
        QVERIFY(std::isfinite(json["bpd"].toDouble()) && json["bpd"].toDouble() > 0.0);
        const QString out = m_dir.filePath("one.csv");
        auto sample = runCli({"sample", "--data", "gaussian:d=2,s=1", "--steps", "200", "--trajectory", spec,
                              "--count", "5", "--out", out});
        QVERIFY2(sample.exitCode == 0, qPrintable(sample.err));
    }
}

void tst_CliSpacing::errors_data() {
    QTest::addColumn<QString>("trajectory");
    QTest::addColumn<QString>("named");
    QTest::newRow("rho-nan") << "karras:10,rho=nan" << "rho = nan";
    QTest::newRow("rho-zero") << "karras:10,rho=0" << "rho = 0";
    QTest::newRow("offset") << "leading:10,offset=500" << "offset = 500";
    QTest::newRow("K-huge") << "linspace:99999999999" << "K = 99999999999";
    QTest::newRow("K-one") << "karras:1" << "K = 1";
    QTest::newRow("K-zero") << "trailing:0" << "K = 0";
    QTest::newRow("option") << "logsnr:10,rho=2" << "trajectory = rho=2";
}

void tst_CliSpacing::errors() {
    QFETCH(QString, trajectory);
    QFETCH(QString, named);
    auto result = runCli({"nll", "--data", "gaussian:d=2,s=1", "--trajectory", trajectory});
    QCOMPARE(result.exitCode, 2);
    QCOMPARE(result.err.trimmed().count('\n'), 0);  // one line
    QVERIFY2(result.err.contains(named), qPrintable(result.err));
}

QTEST_GUILESS_MAIN(tst_CliSpacing)
#include "tst_cli_spacing.moc"
