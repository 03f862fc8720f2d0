// SPDX-License-Identifier: MIT
// `diffuscope export`: headless rendering of a project's views with the GUI's export code.
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include <sys/resource.h>

#include "tests/support/cli_runner.h"

using test_support::CliResult;
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

// Everything under `dir` (hidden files and folders too), by relative path, with the bytes of
// each file: to compare a folder before and after a command.
QMap<QString, QByteArray> snapshot(const QString& dir) {
    QMap<QString, QByteArray> files;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        files.insert(QDir(dir).relativeFilePath(path),
                     it.fileInfo().isFile() && file.open(QIODevice::ReadOnly) ? file.readAll()
                                                                             : QByteArray("<dir>"));
    }
    return files;
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

// A minimal valid project: K = 2 with N = 5 steps (its chains animate over 5 steps).
QByteArray smallProject() {
    return R"({"format": "diffuscope-project", "formatVersion": 1, "process": "categorical",
      "categorical": {"numClasses": 2, "pi": [0.5, 0.5], "schedule": "linear",
      "powerExponent": 2, "controlPoints": [], "numSteps": 5,
      "table": [{"name": "A", "p": [0.9, 0.1]}], "condition": 0, "trajectory": "even",
      "pathSteps": 5, "trajectoryList": [], "kernel": "closed", "numChains": 50, "seed": "3"},
      "gaussian": {"numSteps": 100, "gammaSamples": 20, "pathSteps": 5, "data": "toy:ring,n=200",
      "particleCount": 40}})";
}

// Runs the binary with every file it writes limited to `maxFileBytes` (RLIMIT_FSIZE): a write
// past it fails with EFBIG ("File too large"), as on a full disk.
CliResult runWithFileSizeLimit(const QStringList& arguments, rlim_t maxFileBytes) {
    return runCli(arguments, 120000, [maxFileBytes] {
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{maxFileBytes, maxFileBytes};
        ::setrlimit(RLIMIT_FSIZE, &limit);
    });
}

// Example 1's `view` exported at a column's width (8.5 × 6 cm) as SVG, its text in `svg`.
void columnFigureSvg(const QString& view, QString& svg) {
    QTemporaryDir dir;
    const QString out = dir.filePath(view + ".svg");
    const auto result = runCli({"export", "--example", "1", "--view", view, "--out", out,
                                "--width", "8.5cm", "--height", "6cm"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    svg = QString::fromUtf8(file.readAll());
}

QString frame(const QString& dir, int index) {
    return QString("%1/f_%2.png").arg(dir).arg(index, 4, 10, QChar('0'));
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
    void writesExactlyTheFileNamed_data();
    void writesExactlyTheFileNamed();
    void refusesNamesItCannotWrite_data();
    void refusesNamesItCannotWrite();
    void aFrameSequenceReplacesThePreviousOne();
    void viewAllWritesEveryFileOrNone();
    void aLeftOutChartIsSaid();
    void theTrajectoriesFigureNamesItsTimeNotThePlayer();
    void matricesTitlesKeepTheirExpressionsWhole();
    void imageMemoryIsCheckedBeforeRendering_data();
    void imageMemoryIsCheckedBeforeRendering();
    void oversizedLabConfigurationIsRefused();
};

// The Trajectory view's NLL chart is not computed by export: its figure leaves the chart out
// (no empty axes, no legend) and export says so.
void tst_CliExport::aLeftOutChartIsSaid() {
    QTemporaryDir dir;
    const QString out = dir.filePath("trajectory.svg");
    // The small project's Gaussian part (a ring and its exact oracle): the same figure as
    // example 3's network gives, in a second instead of twenty under the sanitizers.
    const QString project = dir.filePath("p.json");
    writeFile(project, smallProject());
    const auto result = runCli({"export", "--project", project, "--view", "gaussian-trajectory",
                                "--out", out});
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.err.contains("leaves it out"), qPrintable(result.err));
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    QVERIFY(!svg.contains("Negative ELBO") && !svg.contains("bits/dim"));
    QVERIFY(svg.contains("DP-optimal"));
    // The colour bar's ticks are whole powers of ten (not 9.2, 0.18, 0.0035).
    QVERIFY2(svg.contains(">10⁻¹<") && svg.contains(">10⁰<"), qPrintable(svg.right(3000)));
}

// A figure of the chains names the time it shows, whole at a column's width, but not the
// player's "(step 10 of 10)".
void tst_CliExport::theTrajectoriesFigureNamesItsTimeNotThePlayer() {
    QString svg;
    columnFigureSvg("trajectories", svg);
    if (QTest::currentTestFailed()) return;
    QVERIFY(svg.contains(">Reverse: <"));  // (the arrow is a glyph of its own)
    QVERIFY(svg.contains(QString("t") + QChar(0x00A0) + "=" + QChar(0x00A0) + "0.000"));
    QVERIFY2(!svg.contains("(step"), "the player's step count is in the figure");
}

// At a column's width the Matrices' titles wrap between expressions, never inside one
// ("s = 0.000," on one line), and give βₜ to three digits.
void tst_CliExport::matricesTitlesKeepTheirExpressionsWhole() {
    QString svg;
    columnFigureSvg("matrices", svg);
    if (QTest::currentTestFailed()) return;
    const QChar nbsp(0x00A0);
    QVERIFY2(svg.contains(QString(">(s") + nbsp + "=" + nbsp + "0.000,<"), qPrintable(svg.left(3000)));
    QVERIFY(svg.contains(QString(nbsp) + "=" + nbsp + "0.0279)<"));
    QVERIFY(!svg.contains("0.0279073"));
}

void tst_CliExport::exportsEachFormat_data() {
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("file");
    QTest::newRow("schedule png") << "schedule" << "schedule.png";
    QTest::newRow("matrices svg") << "matrices" << "matrices.svg";
    QTest::newRow("kernels pdf") << "kernels" << "kernels.pdf";
    QTest::newRow("step costs csv") << "step-costs" << "costs.csv";
    QTest::newRow("animation gif") << "animation" << "chains.gif";
    // (the small project's particles: the example's moons took 28 s under the sanitizers)
    QTest::newRow("particles animation gif") << "particles-animation" << "particles.gif";
}

void tst_CliExport::exportsEachFormat() {
    QFETCH(QString, view);
    QFETCH(QString, file);
    QTemporaryDir dir;
    const QString out = dir.filePath(file);
    QStringList arguments{"export", "--view", view, "--out", out, "--width", "640", "--height", "400"};
    if (view == "particles-animation") {
        writeFile(dir.filePath("p.json"), smallProject());
        arguments << "--project" << dir.filePath("p.json");
    }
    const auto result = runCli(arguments);
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
    writeFile(project, smallProject());
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
    QTest::newRow("negative width")
        << QStringList{"--view", "schedule", "--out", "x.png", "--width", "-3in"}
        << "--width = -3in: length -3in: must be positive";
    QTest::newRow("negative height")
        << QStringList{"--view", "schedule", "--out", "x.png", "--height", "-200"}
        << "--height = -200: length -200: must be positive";
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

// The file written is the one named, in the format its extension names (any case), and the one
// "wrote" reports; nothing else is left beside it.
void tst_CliExport::writesExactlyTheFileNamed_data() {
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("magic");
    QTest::newRow("PNG upper case") << "schedule" << "Figure.PNG" << QByteArray("\x89PNG");
    QTest::newRow("SVG upper case") << "schedule" << "figure.Svg" << QByteArray("<?xml");
    QTest::newRow("GIF upper case") << "animation" << "chains.GIF" << QByteArray("GIF89a");
}

void tst_CliExport::writesExactlyTheFileNamed() {
    QFETCH(QString, view);
    QFETCH(QString, file);
    QFETCH(QByteArray, magic);
    QTemporaryDir dir;
    const QString out = dir.filePath(file);
    const CliResult result = runCli({"export", "--view", view, "--out", out, "--width", "320",
                                     "--height", "200"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QCOMPARE(result.out.trimmed(), "wrote " + out);
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList{file});
    QFile written(out);
    QVERIFY(written.open(QIODevice::ReadOnly));
    QVERIFY2(written.readAll().startsWith(magic), qPrintable(file));
}

// A name whose extension is not a format of the view is refused at once, with one line naming
// --out, the name and the formats; nothing is written (it used to write x.jpg.png, or GIF bytes
// under a.pdf, and say "wrote").
void tst_CliExport::refusesNamesItCannotWrite_data() {
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("formats");
    const QString chart = ": a chart view writes .png, .svg, .pdf or .csv";
    const QString animation =
        ": an animation writes .gif or .png (a PNG frame sequence NAME_0000.png, NAME_0001.png, …)";
    QTest::newRow("jpg") << "schedule" << "x.jpg" << chart;
    QTest::newRow("no extension") << "schedule" << "noext" << chart;
    QTest::newRow("gif for a chart") << "matrices" << "x.gif" << chart;
    QTest::newRow("svgz") << "schedule" << "x.svgz" << chart;
    QTest::newRow("animation as pdf") << "animation" << "a.pdf" << animation;
    QTest::newRow("particles animation as csv") << "particles-animation" << "a.csv" << animation;
    QTest::newRow("animation without extension") << "animation" << "a" << animation;
}

void tst_CliExport::refusesNamesItCannotWrite() {
    QFETCH(QString, view);
    QFETCH(QString, file);
    QFETCH(QString, formats);
    QTemporaryDir dir;
    const QString out = dir.filePath(file);
    QElapsedTimer timer;
    timer.start();
    const CliResult result = runCli({"export", "--view", view, "--out", out});
    QCOMPARE(result.exitCode, 2);
    QCOMPARE(result.out, QString());
    // (Qt may add a warning of its own, such as XDG_RUNTIME_DIR not being set.)
    const QStringList lines = result.err.split('\n', Qt::SkipEmptyParts).filter("diffuscope:");
    QCOMPARE(lines, QStringList{"diffuscope: --out = " + out + formats});
    QVERIFY2(timer.elapsed() < 20000, "refused only after the views were computed");
    QCOMPARE(snapshot(dir.path()), (QMap<QString, QByteArray>{}));
}

// A PNG frame sequence replaces the previous sequence of its name as a whole: 121 frames, then
// 21 leave f_0000…f_0020 only (f_0021…f_0120 used to stay); a failed export leaves the previous
// sequence as it was, with nothing beside it.
void tst_CliExport::aFrameSequenceReplacesThePreviousOne() {
    QTemporaryDir dir;
    const QString project = dir.filePath("p.json");
    writeFile(project, smallProject());
    const QString frames = dir.filePath("frames");
    QVERIFY(QDir().mkdir(frames));
    writeFile(frames + "/notes.txt", "not a frame\n");
    writeFile(frames + "/g_0500.png", "another sequence\n");
    const QStringList common{"export", "--project", project, "--view", "animation", "--out",
                             frames + "/f.png", "--width", "200", "--height", "120", "--fps",
                             "25"};
    // 5 steps × 4 frames + 1 = 21 frames, and 4 s × 25 frames/s held = 100 more.
    const CliResult first = runCli(common + QStringList{"--hold", "4"});
    QVERIFY2(first.exitCode == 0, qPrintable(first.err));
    QVERIFY(QFile::exists(frame(frames, 120)));
    QVERIFY(!QFile::exists(frame(frames, 121)));
    const CliResult second = runCli(common + QStringList{"--hold", "0"});
    QVERIFY2(second.exitCode == 0, qPrintable(second.err));
    QCOMPARE(second.out.trimmed(), "wrote " + frame(frames, 0) + " … " + frame(frames, 20) +
                                       " (21 frames)");
    QStringList expected{"g_0500.png", "notes.txt"};
    for (int i = 0; i <= 20; ++i) expected << QFileInfo(frame(frames, i)).fileName();
    expected.sort();
    QCOMPARE(QDir(frames).entryList(QDir::AllEntries | QDir::Hidden | QDir::System |
                                        QDir::NoDotAndDotDot,
                                    QDir::Name),
             expected);
    QVERIFY(!QImage(frame(frames, 20)).isNull());
    // A failure half-way (every file limited to 1 kB: the frames do not fit) leaves the
    // previous sequence whole, and no staging folder.
    const QMap<QString, QByteArray> before = snapshot(frames);
    const CliResult failed = runWithFileSizeLimit(common + QStringList{"--hold", "4"}, 1024);
    QCOMPARE(failed.exitCode, 2);
    const QString line = failed.err.split('\n', Qt::SkipEmptyParts).filter("diffuscope:").join('\n');
    QVERIFY2(!line.contains('\n') && line.contains(frames + "/f_0") &&
                 line.contains("File too large") && line.contains("unchanged"),
             qPrintable(line));
    QVERIFY2(!failed.out.contains("wrote"), qPrintable(failed.out));
    QCOMPARE(snapshot(frames), before);
}

// `--view all` writes every file or none: with room for no PNG (every file limited to 20 kB,
// as a nearly full disk), the folder keeps exactly what it held (the small CSVs used to be
// replaced beside the old PNGs), and a folder it had to create is removed again.
void tst_CliExport::viewAllWritesEveryFileOrNone() {
    QTemporaryDir dir;
    const QString project = dir.filePath("p.json");
    writeFile(project, smallProject());
    const QString out = dir.filePath("views");
    QVERIFY(QDir().mkdir(out));
    writeFile(out + "/schedule.png", "the previous PNG\n");
    writeFile(out + "/schedule.csv", "the previous CSV\n");
    writeFile(out + "/step-costs.csv", "the previous CSV\n");
    writeFile(out + "/mine.txt", "not ours\n");
    const QMap<QString, QByteArray> before = snapshot(out);
    const QStringList arguments{"export", "--project", project, "--view", "all", "--out", out};
    const CliResult result = runWithFileSizeLimit(arguments, 20000);
    QCOMPARE(result.exitCode, 2);
    const QString line = result.err.split('\n', Qt::SkipEmptyParts).filter("diffuscope:").join('\n');
    QVERIFY2(!line.contains('\n') && line.contains("File too large") && line.contains(out),
             qPrintable(line));
    QVERIFY2(!result.out.contains("wrote"), qPrintable(result.out));
    QCOMPARE(snapshot(out), before);
    // Into a folder that does not exist yet: it does not exist afterwards either.
    const QString fresh = dir.filePath("fresh/views");
    const CliResult failed = runWithFileSizeLimit(
        {"export", "--project", project, "--view", "all", "--out", fresh}, 20000);
    QCOMPARE(failed.exitCode, 2);
    QVERIFY(!QFileInfo::exists(dir.filePath("fresh")));
    // Without the limit every file is replaced, and nothing but the views' files is added.
    const CliResult written = runCli(arguments);
    QVERIFY2(written.exitCode == 0, qPrintable(written.err));
    const QMap<QString, QByteArray> after = snapshot(out);
    QCOMPARE(after.size(), 10 * 4 + 1);  // ten views × png, svg, pdf, csv, and mine.txt
    QCOMPARE(after.value("mine.txt"), QByteArray("not ours\n"));
    QVERIFY(after.value("schedule.png").startsWith("\x89PNG"));
    QVERIFY(after.value("schedule.csv").startsWith("# view: "));
}

QTEST_GUILESS_MAIN(tst_CliExport)
// A PNG of width × height × (dpi/96)² × 4 bytes over 1 GiB is refused before the project is
// read or anything is drawn (it rendered for 128 s at 10.3 GB, or failed in the PNG encoder),
// with the arithmetic; nothing is written.
void tst_CliExport::imageMemoryIsCheckedBeforeRendering_data() {
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("out");
    QTest::addColumn<QString>("dpi");
    QTest::addColumn<QString>("expected");
    QTest::newRow("300 dpi") << "schedule" << "x.png" << "300"
                             << "--width × --height = 16384 × 16384 px at 300 dpi: the PNG needs "
                                "16384·16384·(300/96)²·4 bytes = 10 GB, more than the 1 GiB";
    QTest::newRow("1200 dpi") << "schedule" << "x.png" << "1200"
                              << "16384·16384·(1200/96)²·4 bytes = 168 GB";
    QTest::newRow("all at 300 dpi") << "all" << "views" << "300" << "at 300 dpi: the PNG needs";
}

void tst_CliExport::imageMemoryIsCheckedBeforeRendering() {
    QFETCH(QString, view);
    QFETCH(QString, out);
    QFETCH(QString, dpi);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString project = dir.filePath("p.json");
    writeFile(project, smallProject());
    const auto before = snapshot(dir.path());
    QElapsedTimer timer;
    timer.start();
    const auto result = runCli({"export", "--project", project, "--view", view, "--out",
                                dir.filePath(out), "--width", "16384", "--height", "16384",
                                "--dpi", dpi});
    QVERIFY2(timer.elapsed() < 10000, "refused before rendering");
    QCOMPARE(result.exitCode, 2);
    // The one line of the refusal (a Qt warning about the environment may come beside it).
    const QStringList lines = result.err.split('\n', Qt::SkipEmptyParts).filter("diffuscope:");
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines[0].contains(expected), qPrintable(lines[0]));
    QCOMPARE(snapshot(dir.path()), before);
    // The same size at 96 dpi (exactly 1 GiB) and a smaller one at 300 dpi pass this check.
    const auto small = runCli({"export", "--project", project, "--view", "schedule", "--out",
                               dir.filePath("small.png"), "--width", "400", "--height", "300",
                               "--dpi", "300"});
    QVERIFY2(small.exitCode == 0, qPrintable(small.err));
}

// A Lab configuration named with 100 000 characters made the export use 3.5–5.7 GB and fail
// with an out-of-memory message about samples: the reader refuses it, naming the key and the
// limit, and nothing is written.
void tst_CliExport::oversizedLabConfigurationIsRefused() {
    QTemporaryDir dir;
    const QString project = dir.filePath("p.json");
    QByteArray text = smallProject();
    text.chop(2);  // "}}"
    text += ", \"lab\": {\"ks\": [5], \"configs\": [{\"name\": \"" + QByteArray(100000, 'n') +
            "\"}]}}}";
    writeFile(project, text);
    const auto before = snapshot(dir.path());
    const auto result =
        runCli({"export", "--project", project, "--view", "lab", "--out", dir.filePath("lab.png")});
    QCOMPARE(result.exitCode, 2);
    // The one line of the refusal (a Qt warning about the environment may come beside it).
    const QStringList lines = result.err.split('\n', Qt::SkipEmptyParts).filter("diffuscope:");
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines[0].contains("gaussian.lab.configs[0].name = \"nnnn"), qPrintable(lines[0]));
    QVERIFY2(lines[0].contains("(100000 bytes): a name or label has at most 200 bytes"),
             qPrintable(lines[0]));
    QVERIFY(lines[0].size() < 400);
    QCOMPARE(snapshot(dir.path()), before);
}

#include "tst_cli_export.moc"
