// SPDX-License-Identifier: MIT
// `diffuscope lab`: the JSON keys and CSV columns of docs/conventions.md, presets, the
// project's own lab, repeated --config, one-line refusals naming the option or key, and --out.
#include <QDir>

#include <algorithm>
#include <QFile>
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

class tst_CliLab : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void jsonKeys();
    void csvHeader();
    void preset();
    void projectLabIsTheDefault();
    void refusals_data();
    void refusals();
    void outIsWrittenAtomically();
    void aNameLikeACommentKeepsItsRows();

private:
    // A small project: two moons with the exact oracle, N = 100, M = 4; `withLab` adds a lab.
    QString writeProject(const QString& name, bool withLab);
    QStringList quick() const {
        return {"--k", "5,10", "--quality-samples", "20", "--nll-points", "30"};
    }
    QTemporaryDir m_dir;
    QString m_project;
};

QString tst_CliLab::writeProject(const QString& name, bool withLab) {
    core::project::Project p;
    p.process = core::project::ProcessKind::Gaussian;
    p.gaussian.data = "toy:moons,n=200";
    p.gaussian.numSteps = 100;
    p.gaussian.gammaSamples = 4;
    if (withLab) {
        p.gaussian.lab.configs = {{.name = "mine", .trajectory = "quadratic"}};
        p.gaussian.lab.ks = {4};
        p.gaussian.lab.qualitySamples = 0;
        p.gaussian.lab.nllPoints = 20;
    }
    const QString path = m_dir.path() + "/" + name;
    const auto s = core::io::writeFileAtomically(path.toStdString(),
                                                 core::project::projectToJson(p, path.toStdString()));
    return s.ok() ? path : QString();
}

void tst_CliLab::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_project = writeProject("p.json", false);
    QVERIFY(!m_project.isEmpty());
}

void tst_CliLab::jsonKeys() {
    auto r = runCli(QStringList{"lab", "--project", m_project, "--config",
                                "name=a;trajectory=trailing", "--config",
                                "trajectory=even;variance=small;sampler=ddpm", "--threads", "2"} +
                    quick());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    for (const char* key : {"num_steps", "data", "model", "schedule", "ks", "configs", "reference"}) {
        QVERIFY2(json.contains(key), key);
    }
    QCOMPARE(json["num_steps"].toInt(), 100);
    QCOMPARE(json["model"].toString(), QString("oracle"));
    QCOMPARE(json["ks"].toArray().size(), 2);
    const QJsonArray configs = json["configs"].toArray();
    QCOMPARE(configs.size(), 2);
    QCOMPARE(configs[0].toObject()["name"].toString(), QString("a"));
    QCOMPARE(configs[1].toObject()["variance"].toString(), QString("small"));
    QList<QJsonObject> all{json["reference"].toObject()};
    for (const QJsonValue& c : configs) all << c.toObject();
    for (const QJsonObject& config : all) {
        for (const char* key : {"name", "colour", "schedule", "trajectory", "variance", "sampler", "runs"}) {
            QVERIFY2(config.contains(key), key);
        }
        QVERIFY(!config.contains("error"));
        const QJsonArray runs = config["runs"].toArray();
        QCOMPARE(runs.size(), 2);
        const QJsonObject run = runs[1].toObject();
        for (const char* key : {"k", "timesteps", "log_snr", "sigma", "nll_bpd",
                                "nll_standard_error", "terms", "quality"}) {
            QVERIFY2(run.contains(key), key);
        }
        QCOMPARE(run["k"].toInt(), 10);
        QCOMPARE(run["timesteps"].toArray().size(), 10);
        QCOMPARE(run["terms"].toArray().size(), 11);  // the prior, 9 pairs, the decoder
        QVERIFY(run["nll_bpd"].toDouble() > 0);
        QCOMPARE(run["quality"].toObject()["measure"].toString(), QString("mmd2"));
        QCOMPARE(run["quality"].toObject()["num_samples"].toInt(), 20);
    }
    QCOMPARE(json["reference"].toObject()["trajectory"].toString(), QString("dp"));
}

void tst_CliLab::csvHeader() {
    auto r = runCli(QStringList{"lab", "--project", m_project, "--config", "trajectory=logsnr",
                                "--format", "csv"} + quick());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList lines = r.out.trimmed().split('\n');
    QCOMPARE(lines[0], QString("config,schedule,trajectory,variance,sampler,k,nll_bpd,nll_se,"
                               "quality_measure,quality,quality_se,timesteps,log_sigma_steps,"
                               "log_sigma_step_ratios,note"));
    // K = 5: four steps in log σ and three ratios, each the quotient of its neighbours.
    const QStringList cells = lines[1].split(',');
    const QStringList steps = cells[12].split(' ');
    const QStringList ratios = cells[13].split(' ');
    QCOMPARE(steps.size(), 4);
    QCOMPARE(ratios.size(), 3);
    for (int j = 0; j < 3; ++j) {
        DS_COMPARE_REL(ratios[j].toDouble(), steps[j + 1].toDouble() / steps[j].toDouble(), 1e-12);
    }
    QCOMPARE(lines.size(), 1 + 2 * 2);  // (one configuration + the reference) × two K
    QVERIFY2(lines[1].contains(",logsnr,analytic,analytic-ddpm,5,"), qPrintable(lines[1]));
    QVERIFY2(lines[3].startsWith("DP optimum,"), qPrintable(lines[3]));
}

void tst_CliLab::preset() {
    auto r = runCli({"lab", "--project", m_project, "--preset", "ddpm-small-k", "--k", "5",
                     "--quality-samples", "0", "--nll-points", "30"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonArray configs = QJsonDocument::fromJson(r.out.toUtf8()).object()["configs"].toArray();
    QCOMPARE(configs.size(), 3);
    QStringList variances;
    for (const auto& c : configs) variances << c.toObject()["variance"].toString();
    QCOMPARE(variances, (QStringList{"small", "large", "analytic"}));
    QVERIFY(configs[0].toObject()["runs"].toArray()[0].toObject()["quality"].isNull());
}

void tst_CliLab::projectLabIsTheDefault() {
    const QString withLab = writeProject("with-lab.json", true);
    auto r = runCli({"lab", "--project", withLab});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(json["configs"].toArray().size(), 1);
    QCOMPARE(json["configs"][0].toObject()["name"].toString(), QString("mine"));
    QCOMPARE(json["ks"].toArray(), (QJsonArray{4}));
}

void tst_CliLab::refusals_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("inMessage");
    QTest::newRow("bad key value") << QStringList{"--config", "variance=huge"}
                                   << QStringList{"variance", "huge"};
    QTest::newRow("unknown key") << QStringList{"--config", "trajectory=even;speed=3"}
                                 << QStringList{"speed", "3"};
    QTest::newRow("no configuration") << QStringList{} << QStringList{"--config"};
    QTest::newRow("unknown preset") << QStringList{"--preset", "nope"} << QStringList{"--preset", "nope"};
    QTest::newRow("K over N") << QStringList{"--config", "trajectory=even", "--k", "5,500"}
                              << QStringList{"--k", "500"};
    QTest::newRow("--k twice") << QStringList{"--config", "trajectory=even", "--k", "5", "--k", "6"}
                               << QStringList{"--k", "twice"};
    QTest::newRow("format") << QStringList{"--config", "trajectory=even", "--format", "xml"}
                            << QStringList{"--format", "xml"};
    // Names, schedules and trajectories have size limits, named with the limit.
    QTest::newRow("long name") << QStringList{"--config", "name=" + QString(100000, 'n') +
                                                              ";trajectory=even"}
                               << QStringList{"name", "100000 bytes", "at most 200 bytes"};
    QTest::newRow("long schedule") << QStringList{"--config", "schedule=csv:" + QString(5000, 's')}
                                   << QStringList{"schedule", "5004 bytes", "at most 4096 bytes"};
}

void tst_CliLab::refusals() {
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, inMessage);
    auto r = runCli(QStringList{"lab", "--project", m_project} + arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    const QString line = r.err.trimmed();
    QVERIFY2(!line.contains('\n'), qPrintable(line));
    for (const QString& piece : inMessage) QVERIFY2(line.contains(piece), qPrintable(line));
}

void tst_CliLab::outIsWrittenAtomically() {
    const QString out = m_dir.path() + "/out/lab.csv";
    QVERIFY(QDir().mkpath(m_dir.path() + "/out"));
    auto r = runCli(QStringList{"lab", "--project", m_project, "--config", "trajectory=even",
                                "--format", "csv", "--out", out} + quick());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(r.out.contains("wrote"));
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().startsWith("config,schedule,"));
    // Nothing else is left beside it (no temporary file).
    QCOMPARE(QDir(m_dir.path() + "/out").entryList(QDir::Files), QStringList{"lab.csv"});
    // A directory that does not exist is refused before the lab runs.
    auto bad = runCli(QStringList{"lab", "--project", m_project, "--config", "trajectory=even",
                                  "--out", m_dir.path() + "/missing/lab.json"} + quick());
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("missing"), qPrintable(bad.err));
}

// A configuration named "# comment" is quoted in the CSV: its rows start with '"', so readers that
// skip comment lines (pandas' comment='#') keep them (they used to start with '#').
void tst_CliLab::aNameLikeACommentKeepsItsRows() {
    const QString out = m_dir.path() + "/comment.csv";
    auto r = runCli(QStringList{"lab", "--project", m_project, "--config",
                                "name=# comment;trajectory=even", "--config",
                                "name=  #also;trajectory=quadratic", "--format", "csv", "--out",
                                out} + quick());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    // The header, then 2 K × (2 configurations + the DP reference).
    QCOMPARE(lines.size(), 1 + 2 * 3);
    for (const QByteArray& line : lines) QVERIFY2(!line.trimmed().startsWith('#'), line.constData());
    const auto rowsStartingWith = [&lines](const QByteArray& start) {
        return static_cast<int>(std::count_if(
            lines.begin(), lines.end(), [&start](const QByteArray& line) { return line.startsWith(start); }));
    };
    QCOMPARE(rowsStartingWith("\"# comment\","), 2);
    QCOMPARE(rowsStartingWith("\"  #also\","), 2);
}

QTEST_GUILESS_MAIN(tst_CliLab)
#include "tst_cli_lab.moc"
