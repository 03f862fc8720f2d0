// SPDX-License-Identifier: MIT
// Tests of core/data/bundled_files: the bundled files are found beside the executable
// (build/share/diffuscope for build/tests/*), DIFFUSCOPE_DATA_DIR replaces that folder, and a
// missing file is an error that names every place looked in.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>

#include "core/data/bundled_files.h"

class tst_BundledFiles : public QObject {
    Q_OBJECT

private slots:
    void init() { unsetenv("DIFFUSCOPE_DATA_DIR"); }
    void cleanup() { unsetenv("DIFFUSCOPE_DATA_DIR"); }

    // The build copies resources/ next to its binaries, so the lookup works without the sources.
    void foundBesideTheExecutable() {
        for (const char* name : {"data/digits.csv.gz", "models/digits-categorical-l4.safetensors",
                                 "models/digits-masked-l4.safetensors",
                                 "models/digits-gaussian.safetensors",
                                 "models/moons-gaussian.safetensors"}) {
            auto path = core::data::bundledDataPath(name);
            QVERIFY2(path, path ? "" : path.error().toString().c_str());
            QVERIFY(QString::fromStdString(*path).endsWith(QString("/share/diffuscope/") + name));
            QVERIFY(!QString::fromStdString(*path).startsWith(DIFFUSCOPE_SOURCE_DIR "/resources/"));
        }
        auto digits = core::data::readDigitsOrBundled("");
        QVERIFY2(digits, digits ? "" : digits.error().toString().c_str());
        QCOMPARE(digits->numImages(), 1797);
    }

    void missingFileNamesWhereItLooked() {
        auto path = core::data::bundledDataPath("data/no-such-file.csv");
        QVERIFY(!path);
        const QString message = QString::fromStdString(path.error().toString());
        const QString expected = QDir::cleanPath(QCoreApplication::applicationDirPath() +
                                                 "/../share/diffuscope/data/no-such-file.csv");
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void environmentOverride() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("data"));
        QFile file(dir.filePath("data/digits.csv.gz"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        setenv("DIFFUSCOPE_DATA_DIR", dir.path().toLocal8Bit().constData(), 1);
        auto path = core::data::bundledDataPath("data/digits.csv.gz");
        QVERIFY(path);
        QCOMPARE(QString::fromStdString(*path), dir.filePath("data/digits.csv.gz"));
        // Only the override is searched: the build's models are not found through it.
        auto model = core::data::bundledDataPath("models/moons-gaussian.safetensors");
        QVERIFY(!model);
        QVERIFY(QString::fromStdString(model.error().toString()).contains("DIFFUSCOPE_DATA_DIR"));
        // --digits PATH wins over the bundled file.
        auto explicitPath = core::data::readDigitsOrBundled(dir.filePath("nothing.csv").toStdString());
        QVERIFY(!explicitPath);
        QVERIFY(QString::fromStdString(explicitPath.error().toString()).contains("nothing.csv"));
    }
};

QTEST_GUILESS_MAIN(tst_BundledFiles)
#include "tst_bundled_files.moc"
