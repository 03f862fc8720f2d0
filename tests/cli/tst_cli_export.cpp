// SPDX-License-Identifier: MIT
// `diffuscope export`: headless rendering of a project's views with the GUI's export code.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QTemporaryDir>
#include <QTest>

#include "tests/support/cli_runner.h"

using test_support::runCli;

namespace {
// A view's CSV without its "# key: value" header block.
QByteArray tableOf(const QByteArray& csv) {
    QByteArray table;
    for (const QByteArray& line : csv.split('\n')) {
        if (!line.startsWith('#') && !line.isEmpty()) table += line + '\n';
    }
    return table;
}
}  // namespace

class tst_CliExport : public QObject {
    Q_OBJECT

private slots:
    void exportsEachFormat_data();
    void exportsEachFormat();
    void exportsAProjectFile();
    void errorsAreOneLine_data();
    void errorsAreOneLine();
};

void tst_CliExport::exportsEachFormat_data() {
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("file");
    QTest::newRow("schedule png") << "schedule" << "schedule.png";
    QTest::newRow("matrices svg") << "matrices" << "matrices.svg";
    QTest::newRow("kernels pdf") << "kernels" << "kernels.pdf";
    QTest::newRow("step costs csv") << "step-costs" << "costs.csv";
    QTest::newRow("animation gif") << "animation" << "chains.gif";
    QTest::newRow("particles animation gif") << "particles-animation" << "particles.gif";
}

void tst_CliExport::exportsEachFormat() {
    QFETCH(QString, view);
    QFETCH(QString, file);
    QTemporaryDir dir;
    const QString out = dir.filePath(file);
    const auto result = runCli({"export", "--view", view, "--out", out, "--width", "640",
                                "--height", "400"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QFile written(out);
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QByteArray bytes = written.readAll();
    if (file.endsWith(".png")) {
        QCOMPARE(QImage::fromData(bytes).size(), QSize(640, 400));
    } else if (file.endsWith(".svg")) {
        QVERIFY(bytes.contains("<svg"));
    } else if (file.endsWith(".pdf")) {
        QVERIFY(bytes.startsWith("%PDF-"));
    } else if (file.endsWith(".csv")) {
        QVERIFY(bytes.startsWith("# view: "));
        QVERIFY(tableOf(bytes).startsWith("t,step_cost_nats\n"));
        QCOMPARE(tableOf(bytes).count('\n'), 101);  // header + N = 100 steps of the example
    } else {
        QImageReader reader(out);
        QCOMPARE(reader.format(), QByteArray("gif"));
        QVERIFY(reader.imageCount() > 10);
    }
}

void tst_CliExport::exportsAProjectFile() {
    QTemporaryDir dir;
    const QString project = dir.filePath("p.json");
    QFile file(project);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // A minimal valid project: K = 2 with N = 5 steps.
    file.write(R"({"format": "diffuscope-project", "formatVersion": 1, "process": "categorical",
      "categorical": {"numClasses": 2, "pi": [0.5, 0.5], "schedule": "linear",
      "powerExponent": 2, "controlPoints": [], "numSteps": 5,
      "table": [{"name": "A", "p": [0.9, 0.1]}], "condition": 0, "trajectory": "even",
      "pathSteps": 5, "trajectoryList": [], "kernel": "closed", "numChains": 50, "seed": "3"},
      "gaussian": {"numSteps": 100, "gammaSamples": 20, "pathSteps": 5, "data": "toy:ring,n=200",
      "particleCount": 40}})");
    file.close();
    const auto result = runCli({"export", "--project", project, "--view", "all", "--out",
                                dir.filePath("views")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const QStringList files = QDir(dir.filePath("views")).entryList(QDir::Files);
    QCOMPARE(files.size(), 10 * 4);  // ten views × png, svg, pdf, csv
    QFile schedule(dir.filePath("views/schedule.csv"));
    QVERIFY(schedule.open(QIODevice::ReadOnly));
    QCOMPARE(tableOf(schedule.readAll()).count('\n'), 7);  // header + 6 grid times
    QFile variance(dir.filePath("views/variance.csv"));
    QVERIFY(variance.open(QIODevice::ReadOnly));
    QCOMPARE(tableOf(variance.readAll()).count('\n'), 5);  // header + K − 1 = 4 pairs
    QFile particles(dir.filePath("views/particles.csv"));
    QVERIFY(particles.open(QIODevice::ReadOnly));
    QCOMPARE(tableOf(particles.readAll()).count('\n'), 81);  // header + 40 final samples per sampler
    // The Compare view: the categorical curve's 201 times and the Gaussian one's N + 1 = 101.
    QFile compare(dir.filePath("views/compare.csv"));
    QVERIFY(compare.open(QIODevice::ReadOnly));
    const QByteArray compareCsv = tableOf(compare.readAll());
    QVERIFY(compareCsv.startsWith("process,t,fraction_left,information_nats,snr\n"));
    QCOMPARE(compareCsv.count('\n'), 1 + 201 + 101);
}

void tst_CliExport::errorsAreOneLine_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown view") << QStringList{"--view", "nope", "--out", "x.png"} << "unknown view";
    QTest::newRow("missing out") << QStringList{"--view", "schedule"} << "required";
    QTest::newRow("bad width") << QStringList{"--view", "schedule", "--out", "x.png", "--width", "w"}
                               << "--width = w: length w: expected a number with px, cm, mm or in";
    QTest::newRow("missing project") << QStringList{"--project", "/nonexistent.json", "--view",
                                                    "schedule", "--out", "x.png"}
                                     << "/nonexistent.json";
    QTest::newRow("unknown option") << QStringList{"--view", "schedule", "--out", "x.png",
                                                   "--colour", "red"}
                                    << "--colour";
    QTest::newRow("fps out of range") << QStringList{"--view", "animation", "--out", "x.gif",
                                                     "--fps", "99"}
                                      << "--fps = 99: must lie in 1..50";
    QTest::newRow("hold out of range") << QStringList{"--view", "animation", "--out", "x.gif",
                                                      "--hold", "1e12"}
                                       << "--hold = 1e12: must lie in 0..20 seconds";
}

void tst_CliExport::errorsAreOneLine() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QDir::setCurrent(dir.path());
    const auto result = runCli(QStringList{"export"} + arguments);
    QCOMPARE(result.exitCode, 2);
    const QStringList lines = result.err.split('\n', Qt::SkipEmptyParts).filter("diffuscope:");
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines[0].contains(expected), qPrintable(lines[0]));
}

QTEST_GUILESS_MAIN(tst_CliExport)
#include "tst_cli_export.moc"
