// SPDX-License-Identifier: MIT
#include <QTemporaryDir>
#include <QTest>

#include <limits>

#include "core/io/checkpoint_metadata.h"
#include "core/io/csv.h"
#include "core/io/safetensors.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::runCli;

class tst_CliInfo : public QObject {
    Q_OBJECT

private slots:
    void printsMetadataAndTensors();
    void readsABundledModelByItsName();
    void errors_data();
    void errors();

private:
    QTemporaryDir m_dir;
};

void tst_CliInfo::printsMetadataAndTensors() {
    core::io::CheckpointInfo info;
    info.process = "categorical";
    info.numClasses = 4;
    info.numPositions = 64;
    info.pi = {0.25, 0.75};
    core::io::Checkpoint c;
    c.metadata = core::io::toMetadata(info);
    c.metadata["note"] = "two\nlines";
    c.set("net.0.weight", core::io::makeF32Tensor({3, 2}, {1, 2, 3, 4, 5,
                                                           std::numeric_limits<float>::quiet_NaN()}));
    c.set("pi", core::io::makeF64Tensor({2}, {0.25, 0.75}));
    c.set("step", core::io::makeF32Tensor({}, {7}));
    const QString path = m_dir.path() + "/model.safetensors";
    DS_VERIFY_OK(core::io::writeSafetensors(path.toStdString(), c));

    auto result = runCli({"info", path});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY(result.err.isEmpty());
    const QStringList lines = result.out.split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.contains("process = categorical"), qPrintable(result.out));
    QVERIFY(lines.contains("num_classes = 4"));
    QVERIFY(lines.contains("pi = [0.25,0.75]"));
    QVERIFY(lines.contains("note = two\\nlines"));  // one line per key
    QVERIFY(lines.contains("# tensors (3 tensors, 9 values)"));
    QVERIFY(lines.contains("net.0.weight F32 [3, 2] (1 non-finite)"));
    QVERIFY(lines.contains("pi F64 [2]"));
    QVERIFY(lines.contains("step F32 []"));
    // Tensors in file order: weight before pi before step.
    QVERIFY(result.out.indexOf("net.0.weight") < result.out.indexOf("pi F64"));
}

// The names the window saves bundled models by ("bundled:<file>") are read as every other
// command reads them; the listing names the model as given.
void tst_CliInfo::readsABundledModelByItsName() {
    const auto result = runCli({"info", "bundled:moons-gaussian.safetensors"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY2(result.out.startsWith("file = bundled:moons-gaussian.safetensors\n"), qPrintable(result.out));
    QVERIFY2(result.out.contains("schedule = linear,N=1000"), qPrintable(result.out));
    const auto missing = runCli({"info", "bundled:no-such.safetensors"});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.err.contains("bundled:no-such.safetensors"), qPrintable(missing.err));
}

void tst_CliInfo::errors_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("contents");  // written to bad.safetensors first when non-empty
    QTest::addColumn<QString>("expected");
    const QByteArray truncated("\x40\x00\x00\x00\x00\x00\x00\x00{\"w\":", 13);
    QTest::newRow("missing-file") << QStringList{"info", "/no/such.safetensors"} << QByteArray()
                                  << "cannot open";
    QTest::newRow("no-file") << QStringList{"info"} << QByteArray() << "expected exactly one";
    QTest::newRow("two-files") << QStringList{"info", "a", "b"} << QByteArray() << "2 files";
    QTest::newRow("unknown-option") << QStringList{"info", "x", "--verbose"} << QByteArray()
                                    << "--verbose";
    QTest::newRow("truncated-header") << QStringList{"info", "@"} << truncated
                                      << "runs past the end of the file";
    QTest::newRow("text-file") << QStringList{"info", "@"} << QByteArray("hello, world\n")
                               << "100 MB limit";
    QTest::newRow("bad-offsets")
        << QStringList{"info", "@"}
        << QByteArray("\x36\x00\x00\x00\x00\x00\x00\x00"
                      "{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]}}",
                      62)
        << "tensor 'w' data_offsets = [0, 4]";
    QTest::newRow("bad-metadata-value")
        << QStringList{"info", "@"}
        << QByteArray("\x24\x00\x00\x00\x00\x00\x00\x00{\"__metadata__\":{\"num_classes\":\"x\"}}",
                      44)
        << "'num_classes' = x";
}

void tst_CliInfo::errors() {
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, contents);
    QFETCH(QString, expected);
    if (arguments.size() > 1 && arguments[1] == "@") {
        arguments[1] = m_dir.path() + "/bad.safetensors";
        DS_VERIFY_OK(core::io::writeFileAtomically(arguments[1].toStdString(),
                                                   contents.toStdString()));
    }
    auto result = runCli(arguments);
    QCOMPARE(result.exitCode, 2);
    QVERIFY(result.out.isEmpty());
    QCOMPARE(result.err.count('\n'), 1);  // one line
    QVERIFY2(result.err.contains(expected), qPrintable(result.err));
}

QTEST_GUILESS_MAIN(tst_CliInfo)
#include "tst_cli_info.moc"
