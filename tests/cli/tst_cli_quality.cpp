// SPDX-License-Identifier: MIT
// `diffuscope quality` and `sample --format json`: the JSON keys, hostile samples files, and
// that samples moved away from the data score far worse than the oracle's own samples.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::runCli;

class tst_CliQuality : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void sampleJsonKeys();
    void qualityOfShiftedSamples();
    void sampleJsonWithCsvData();
    void hostileSamplesFiles_data();
    void hostileSamplesFiles();
    void sampleRefusesUnknownFormat();
    void specialSamplesFilesAreRefusedAtOnce_data();
    void specialSamplesFilesAreRefusedAtOnce();

private:
    QString write(const QString& name, const QByteArray& text);
    QTemporaryDir m_dir;
    QString m_moons;  // 1000 analytic-DDPM samples of toy:moons
    QJsonObject m_sampleJson;
};

QString tst_CliQuality::write(const QString& name, const QByteArray& text) {
    const QString path = m_dir.path() + "/" + name;
    QFile file(path);
    if (file.open(QIODevice::WriteOnly)) {
        file.write(text);
    }
    return path;
}

void tst_CliQuality::initTestCase() {
    m_moons = m_dir.path() + "/moons.csv";
    auto result = runCli({"sample", "--data", "toy:moons", "--trajectory", "even:10", "--sampler",
                          "analytic-ddpm", "--count", "1000", "--gamma-samples", "50", "--out",
                          m_moons, "--format", "json", "--threads", "2"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QJsonParseError error;
    m_sampleJson = QJsonDocument::fromJson(result.out.toUtf8(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(result.out));
}

void tst_CliQuality::sampleJsonKeys() {
    const QJsonObject& json = m_sampleJson;
    QCOMPARE(json.keys().size(), 7);
    QCOMPARE(json["sampler"].toString(), QString("analytic-ddpm"));
    // The steps taken, in sampling order: τ_K → τ_{K−1} first, the decoder (s = 0, no noise)
    // last, every one with the DDPM mean's coefficients.
    const QJsonArray steps = json["steps"].toArray();
    QCOMPARE(steps.size(), 10);
    QCOMPARE(steps[0].toObject()["t"].toInt(), json["trajectory"].toArray().last().toInt());
    QCOMPARE(steps[9].toObject()["s"].toInt(), 0);
    QCOMPARE(steps[9].toObject()["variance"].toDouble(), 0.0);
    QCOMPARE(steps[9].toObject()["x0"].toDouble(), 1.0);
    for (int j = 0; j < 9; ++j) {
        const QJsonObject step = steps[j].toObject();
        QVERIFY(step["variance"].toDouble() > 0.0);
        QVERIFY(step["x0"].toDouble() > 0.0 && step["xt"].toDouble() > 0.0);
        QCOMPARE(step["eps"].toDouble(), 0.0);
        QCOMPARE(step["s"].toInt(), steps[j + 1].toObject()["t"].toInt());
    }
    QCOMPARE(json["count"].toInt(), 1000);
    QCOMPARE(json["seed"].toInt(), 0);
    QCOMPARE(json["out"].toString(), m_moons);
    const QJsonArray trajectory = json["trajectory"].toArray();
    QCOMPARE(trajectory.size(), 10);
    for (int i = 1; i < trajectory.size(); ++i) {
        QVERIFY(trajectory[i].toInt() > trajectory[i - 1].toInt());
    }
    const QJsonObject quality = json["quality"].toObject();
    QCOMPARE(quality.keys().size(), 7);
    QCOMPARE(quality["measure"].toString(), QString("mmd2"));
    QCOMPARE(quality["num_samples"].toInt(), 1000);
    QCOMPARE(quality["num_reference"].toInt(), 2000);
    QVERIFY(quality["reference"].toString().startsWith("toy:moons,n=2000,seed="));
    QCOMPARE(quality["bandwidths"].toArray().size(), 5);
    QVERIFY(quality["standard_error"].toDouble() > 0.0);
    QVERIFY(quality["value"].isDouble());
    QVERIFY(QFile::exists(m_moons));
}

// The file that `sample` wrote scores what `sample --format json` printed; the same points
// moved by +1 in both coordinates score at least 20 times as much (at that shift the moons and
// their copy barely overlap, while analytic-DDPM samples at 10 steps lie on the moons).
void tst_CliQuality::qualityOfShiftedSamples() {
    auto own = runCli({"quality", "--samples", m_moons, "--data", "toy:moons"});
    QVERIFY2(own.exitCode == 0, qPrintable(own.err));
    const QJsonObject ownJson = QJsonDocument::fromJson(own.out.toUtf8()).object();
    QCOMPARE(ownJson, m_sampleJson["quality"].toObject());

    QFile in(m_moons);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray shifted = in.readLine();  // the header x1,x2
    while (!in.atEnd()) {
        const QList<QByteArray> cells = in.readLine().trimmed().split(',');
        QCOMPARE(cells.size(), 2);
        shifted += QByteArray::number(cells[0].toDouble() + 1.0, 'g', 17) + ',' +
                   QByteArray::number(cells[1].toDouble() + 1.0, 'g', 17) + '\n';
    }
    auto moved = runCli({"quality", "--samples", write("shifted.csv", shifted), "--data",
                         "toy:moons", "--format", "json"});
    QVERIFY2(moved.exitCode == 0, qPrintable(moved.err));
    const QJsonObject movedJson = QJsonDocument::fromJson(moved.out.toUtf8()).object();
    const double a = ownJson["value"].toDouble();
    const double b = movedJson["value"].toDouble();
    qInfo("moons samples: %g ± %g; shifted by 1: %g ± %g", a, ownJson["standard_error"].toDouble(),
          b, movedJson["standard_error"].toDouble());
    QVERIFY(b > 20.0 * std::max(a, ownJson["standard_error"].toDouble()));
    QVERIFY(b > 5.0 * movedJson["standard_error"].toDouble());
}

void tst_CliQuality::sampleJsonWithCsvData() {
    const QString data = write("data.csv", "x,y\n0,0\n1,0\n0,1\n1,1\n0.5,0.5\n");
    auto result = runCli({"sample", "--data", "csv:" + data, "--trajectory", "even:5",
                          "--sampler", "ddim", "--count", "10", "--out", m_dir.path() + "/c.csv",
                          "--format", "json"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    const QJsonObject json = QJsonDocument::fromJson(result.out.toUtf8()).object();
    QVERIFY(json.contains("quality"));
    QVERIFY(json["quality"].isNull());
    QVERIFY(json["quality_note"].toString().contains("held-out"));
    auto quality = runCli({"quality", "--samples", m_dir.path() + "/c.csv", "--data", "csv:" + data});
    QCOMPARE(quality.exitCode, 2);
    QVERIFY2(quality.err.startsWith("diffuscope: data = csv:"), qPrintable(quality.err));
}

void tst_CliQuality::hostileSamplesFiles_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");  // part of the one error line
    QTest::newRow("ragged") << "ragged.csv" << QByteArray("x1,x2\n0.1,0.2\n0.3\n") << "ragged.csv";
    QTest::newRow("three columns") << "three.csv" << QByteArray("x1,x2,x3\n0,0,0\n1,1,1\n")
                                   << "--samples";
    QTest::newRow("nan") << "nan.csv" << QByteArray("x1,x2\n0.1,0.2\nnan,0.3\n0.2,0.1\n")
                         << "nan.csv";
    QTest::newRow("empty") << "empty.csv" << QByteArray() << "empty.csv";
    QTest::newRow("header only") << "header.csv" << QByteArray("x1,x2\n") << "header.csv";
    QTest::newRow("one sample") << "one.csv" << QByteArray("x1,x2\n0.1,0.2\n") << "samples";
    QTest::newRow("frames") << "frames.csv" << QByteArray("frame,t,sample,x1,x2\n0,10,0,0.1,0.2\n")
                            << "--frames";
    // The columns are the coordinates x1..xd, each once: repeated or other names are refused.
    QTest::newRow("repeated column") << "repeated.csv" << QByteArray("x1,x1\n0.1,0.2\n0.3,0.4\n")
                                     << "repeated.csv: column 2 = \"x1\": the column name repeats";
    QTest::newRow("other names") << "names.csv" << QByteArray("a,b\n0.1,0.2\n0.3,0.4\n")
                                 << "names.csv: column 1 = \"a\": expected x1 or x";
    QTest::newRow("directory") << "" << QByteArray() << "directory";
    QTest::newRow("missing") << "missing.csv" << QByteArray() << "missing.csv";
}

void tst_CliQuality::hostileSamplesFiles() {
    QFETCH(QString, name);
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    QString path = m_dir.path();
    if (name == "missing.csv") {
        path += "/missing.csv";
    } else if (!name.isEmpty()) {
        path = write(name, text);
    }
    auto result = runCli({"quality", "--samples", path, "--data", "toy:moons"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY(result.out.isEmpty());
    QCOMPARE(result.err.trimmed().count('\n'), 0);
    QVERIFY2(result.err.contains(expected), qPrintable(result.err));
}

void tst_CliQuality::sampleRefusesUnknownFormat() {
    const QString out = m_dir.path() + "/never.csv";
    auto result = runCli({"sample", "--data", "toy:moons", "--trajectory", "even:5", "--out", out,
                          "--format", "yaml"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.startsWith("diffuscope: --format = yaml"), qPrintable(result.err));
    QVERIFY(!QFile::exists(out));
    auto quality = runCli({"quality", "--samples", m_moons, "--data", "toy:moons", "--format", "csv"});
    QCOMPARE(quality.exitCode, 2);
    QVERIFY2(quality.err.startsWith("diffuscope: --format = csv"), qPrintable(quality.err));
}

void tst_CliQuality::specialSamplesFilesAreRefusedAtOnce_data() {
    QTest::addColumn<QString>("kind");
    QTest::newRow("FIFO") << "fifo";                        // blocked in open
    QTest::newRow("/dev/zero") << "/dev/zero";              // read 2.1 GB before refusing
    QTest::newRow("link to /dev/zero") << "zero-link";
}

// A samples file that is not a regular file is refused by its status before anything is opened
// or read: at once, with one line naming --samples, the path and the reason.
void tst_CliQuality::specialSamplesFilesAreRefusedAtOnce() {
    QFETCH(QString, kind);
    QString path = kind;
    if (kind == "fifo") {
        path = m_dir.path() + "/samples.fifo";
        QFile::remove(path);
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == "zero-link") {
        path = m_dir.path() + "/zero.csv";
        QFile::remove(path);
        QVERIFY(QFile::link("/dev/zero", path));
    }
    QElapsedTimer timer;
    timer.start();
    const auto result = runCli({"quality", "--samples", path, "--data", "toy:moons"}, 30000);
    QVERIFY2(result.err != "timed out", "quality hung on the samples file");
    QCOMPARE(result.exitCode, 2);
    QVERIFY(result.out.isEmpty());
    const QString line = result.err.trimmed();
    QVERIFY2(!line.contains('\n'), qPrintable(line));
    QVERIFY2(line.startsWith("diffuscope: --samples = " + path + ": ") &&
                 line.contains("not a regular file"),
             qPrintable(line));
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed()) + " ms"));
}

QTEST_GUILESS_MAIN(tst_CliQuality)
#include "tst_cli_quality.moc"
