// SPDX-License-Identifier: MIT
// The command line as a hostile user meets it: special files, huge numbers, numbers that wrap
// around in 32 bits, requests that cannot fit in memory, a full disk. Each case must end with
// exit code 2 and one line naming what and where, quickly, with no file lost.
#include <QDir>

#include <algorithm>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <functional>

#include <sys/resource.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include "tests/support/cli_runner.h"

using test_support::CliResult;
using test_support::runCli;

namespace {

// Runs the binary with the size of any file it writes limited to `maxFileBytes` (RLIMIT_FSIZE):
// a write past it fails with EFBIG, as on a full disk, with no privileges needed.
CliResult runWithFileSizeLimit(const QStringList& arguments, rlim_t maxFileBytes) {
    return runCli(arguments, 120000, [maxFileBytes] {
        ::signal(SIGXFSZ, SIG_IGN);  // otherwise the write kills the process instead of failing
        const rlimit limit{maxFileBytes, maxFileBytes};
        ::setrlimit(RLIMIT_FSIZE, &limit);
    });
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

// Names of files in `dir` other than `keep` (left-over temporary files).
QStringList strayFiles(const QString& dir, const QStringList& keep) {
    QStringList stray;
    for (const QString& name : QDir(dir).entryList(QDir::Files | QDir::System)) {
        if (!keep.contains(name)) {
            stray << name;
        }
    }
    return stray;
}

}  // namespace

class tst_CliHostile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void refusedWithOneLine_data();
    void refusedWithOneLine();
    void aLinkToARegularFileIsWrittenThrough();
    void fullDiskKeepsTheOldFile_data();
    void fullDiskKeepsTheOldFile();
    void realFullFileSystem();
    void checkpointMustFitTheSchedule();
    void hugeDenoiserRowsNormaliseExactly();
    void trainChecksItsOutputFirst();
    void aFullStandardOutputFails();
    void denormalsAreNumbersEverywhere();
    void exportedTablesHoldNumbersOnly();
    void protectedOutputsAreRefusedBeforeWork();
    void exportValidatesTheProjectBeforeWriting();
    void anOutputIsNeverAnInput_data();
    void anOutputIsNeverAnInput();
    void aDeadProcessesRuntimeFileIsCleared();

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QStringList substitute(QStringList arguments) const;
};

void tst_CliHostile::initTestCase() {
    QVERIFY(m_dir.isValid());
    QCOMPARE(::mkfifo(path("fifo").toLocal8Bit().constData(), 0600), 0);
    QVERIFY(QDir().mkdir(path("folder")));
    QVERIFY(QFile::link("/dev/zero", path("zero-link")));
    QVERIFY(QFile::link(path("missing"), path("dangling")));
    writeFile(path("gamma.csv"), [] {
        QByteArray csv = "n,gamma\n";
        for (int n = 1; n <= 1000; ++n) {
            csv += QByteArray::number(n) + ",1\n";
        }
        return csv;
    }());
    writeFile(path("table.csv"), "x1,p\n0,0.5\n1,0.3\n2,0.2\n");
    const QByteArray longLabel(100'000, 'L');
    writeFile(path("long-label.csv"), "x1,p,c\n0,0.5," + longLabel + "\n1,0.5," + longLabel + "\n");
    writeFile(path("gap.csv"), "x1,x3,p\n0,1,0.5\n1,0,0.5\n");
    {
        // 15 positions of 2 classes: (K + 1)^D = 3^15 states, within the state limit.
        QByteArray wide;
        for (int d = 1; d <= 15; ++d) wide += "x" + QByteArray::number(d) + ",";
        wide += "p\n" + QByteArray("0,").repeated(15) + "0.5\n" + QByteArray("1,").repeated(15) + "0.5\n";
        writeFile(path("wide15.csv"), wide);
    }
    // 1.5 GB of zeros (sparse: no disk space), under the checkpoint size limit.
    QFile junk(path("junk.safetensors"));
    QVERIFY(junk.open(QIODevice::WriteOnly) && junk.resize(1'500'000'000));
}

QStringList tst_CliHostile::substitute(QStringList arguments) const {
    for (QString& a : arguments) {
        a.replace("@DIR/", m_dir.path() + "/");
    }
    return arguments;
}

void tst_CliHostile::refusedWithOneLine_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("expected");  // every one must appear in the message
    const QStringList gaussian{"--data", "gaussian:d=2,s=0.5"};
    const QStringList table{"categorical", "--table", "@DIR/table.csv", "--pi", "uniform:3",
                            "--schedule", "cosine"};

    // Special files as inputs: refused at once, never read until memory runs out, never waited on.
    QTest::newRow("table /dev/zero")
        << QStringList{"categorical", "--table", "/dev/zero", "--pi", "uniform:3", "--schedule",
                       "cosine", "--steps", "10"}
        << QStringList{"/dev/zero", "is a device, not a regular file"};
    QTest::newRow("table FIFO")
        << QStringList{"categorical", "--table", "@DIR/fifo", "--pi", "uniform:3", "--schedule",
                       "cosine", "--steps", "10"}
        << QStringList{"fifo", "FIFO"};
    QTest::newRow("table folder")
        << QStringList{"categorical", "--table", "@DIR/folder", "--pi", "uniform:3", "--schedule",
                       "cosine", "--steps", "10"}
        << QStringList{"folder", "is a folder"};
    QTest::newRow("Γ link to /dev/zero")
        << QStringList{"variance", "--steps", "1000", "--gamma", "@DIR/zero-link.csv",
                       "--trajectory", "even:10"}
        << QStringList{"zero-link.csv"};
    QTest::newRow("model /dev/urandom")
        << (QStringList{"sample"} + gaussian +
            QStringList{"--model", "/dev/urandom", "--trajectory", "even:10", "--out",
                        "@DIR/s.csv"})
        << QStringList{"/dev/urandom", "is a device"};
    QTest::newRow("data csv FIFO")
        << QStringList{"nll", "--data", "csv:@DIR/fifo", "--trajectory", "even:10"}
        << QStringList{"fifo", "FIFO"};
    QTest::newRow("model of 1.5 GB junk")
        << (QStringList{"sample"} + gaussian +
            QStringList{"--model", "@DIR/junk.safetensors", "--trajectory", "even:10", "--out",
                        "@DIR/s.csv"})
        << QStringList{"junk.safetensors", "not a safetensors file"};
    QTest::newRow("schedule custom /dev/zero")
        << QStringList{"categorical", "--table", "@DIR/table.csv", "--pi", "uniform:3",
                       "--schedule", "custom:/dev/zero", "--steps", "10"}
        << QStringList{"/dev/zero", "not a regular file"};

    // Outputs that are not regular files are refused, and nothing is replaced.
    QTest::newRow("out /dev/null")
        << (QStringList{"sample"} + gaussian +
            QStringList{"--trajectory", "even:10", "--out", "/dev/null"})
        << QStringList{"/dev/null", "is a device", "refusing"};
    QTest::newRow("out FIFO")
        << (QStringList{"gamma"} + gaussian + QStringList{"--steps", "100", "--out", "@DIR/fifo"})
        << QStringList{"fifo", "FIFO", "refusing"};
    QTest::newRow("out link to /dev/zero")
        << (QStringList{"gamma"} + gaussian +
            QStringList{"--steps", "100", "--out", "@DIR/zero-link"})
        << QStringList{"zero-link", "symbolic link to a device"};
    QTest::newRow("out dangling link")
        << (QStringList{"gamma"} + gaussian + QStringList{"--steps", "100", "--out", "@DIR/dangling"})
        << QStringList{"dangling", "target does not exist"};
    QTest::newRow("out folder missing")
        << (QStringList{"gamma"} + gaussian +
            QStringList{"--steps", "100", "--out", "@DIR/no/such/g.csv"})
        << QStringList{"no/such/g.csv", "does not exist"};

    // 64-bit parsing and range checks: nothing wraps around to a small number.
    QTest::newRow("list wraps")
        << QStringList{"variance", "--steps", "1000", "--gamma", "@DIR/gamma.csv",
                       "--trajectory", "list:1,4294967306,100"}
        << QStringList{"4294967306", "between 1 and N = 1000"};
    QTest::newRow("even wraps")
        << QStringList{"variance", "--steps", "1000", "--gamma", "@DIR/gamma.csv",
                       "--trajectory", "even:4294967306"}
        << QStringList{"4294967306", "2..N = 1000"};
    QTest::newRow("width wraps")
        << QStringList{"train", "--process", "gaussian", "--data", "toy:moons", "--arch",
                       "mlp:width=4294967304", "--out", "@DIR/m.safetensors"}
        << QStringList{"--arch width", "4294967304", "between 1 and 8192"};
    QTest::newRow("threads 100000 categorical")
        << (table + QStringList{"--steps", "10", "--threads", "100000"})
        << QStringList{"--threads", "100000", "between 1 and 256"};
    QTest::newRow("threads 100000 train")
        << QStringList{"train", "--process", "gaussian", "--data", "toy:moons", "--threads",
                       "100000", "--out", "@DIR/m.safetensors"}
        << QStringList{"--threads", "100000", "between 1 and 256"};

    // Resources refused before anything is allocated, with the reason.
    QTest::newRow("steps 2^31 − 1")
        << (QStringList{"gamma"} + gaussian +
            QStringList{"--steps", "2147483647", "--out", "@DIR/g.csv"})
        << QStringList{"--steps", "2147483647", "between 2 and 100000"};
    QTest::newRow("count 10^9")
        << (QStringList{"sample"} + gaussian +
            QStringList{"--trajectory", "even:10", "--count", "1000000000", "--out",
                        "@DIR/s.csv"})
        << QStringList{"--count", "1000000000", "between 1 and 10000000"};
    QTest::newRow("count 10^7 with frames")
        << (QStringList{"sample"} + gaussian +
            QStringList{"--trajectory", "even:10", "--count", "10000000", "--frames", "1",
                        "--out", "@DIR/s.csv"})
        << QStringList{"--count", "10000000", "GB of memory", "more than"};
    QTest::newRow("samples 10^9")
        << (QStringList{"nll"} + gaussian +
            QStringList{"--trajectory", "even:10", "--samples", "1000000000"})
        << QStringList{"--samples", "1000000000", "between 1 and 10000000"};
    QTest::newRow("samples 1e9 as text")
        << (QStringList{"nll"} + gaussian + QStringList{"--trajectory", "even:10", "--samples", "1e9"})
        << QStringList{"--samples", "1e9", "not a whole number"};
    QTest::newRow("steps 30000 with the DP")
        << (table + QStringList{"--steps", "30000", "--dp", "4"})
        << QStringList{"--steps", "30000", "14 GB", "more than the 4.0 GB"};
    QTest::newRow("Gaussian DP at N = 100000")
        << (QStringList{"nll"} + gaussian +
            QStringList{"--steps", "100000", "--trajectory", "dp:10", "--gamma-samples", "2"})
        << QStringList{"N = 100000", "80 GB", "more than the 4.0 GB"};
    QTest::newRow("batch 10^9")
        << QStringList{"train", "--process", "gaussian", "--data", "toy:moons", "--batch",
                       "1000000000", "--out", "@DIR/m.safetensors"}
        << QStringList{"--batch", "1000000000", "between 1 and 65536"};
    QTest::newRow("a batch that cannot fit")
        << QStringList{"train", "--process", "gaussian", "--data", "toy:moons", "--batch",
                       "65536", "--arch", "mlp:width=8192,depth=64", "--out",
                       "@DIR/m.safetensors"}
        << QStringList{"--batch", "65536", "GB of memory"};
    QTest::newRow("K = 10^6")
        << QStringList{"kernel", "--pi", "uniform:1000000", "--beta-s", "0.1", "--beta-t", "0.2",
                       "--denoiser", "@DIR/table.csv"}
        << QStringList{"--pi", "uniform:1000000", "between 2 and 256"};

    // Messages name the option the user typed.
    QTest::newRow("gamma-samples 1")
        << (QStringList{"nll"} + gaussian + QStringList{"--trajectory", "even:10", "--gamma-samples", "1"})
        << QStringList{"--gamma-samples = 1", "between 2 and"};

    // Silently wrong answers of the fourth round, now refused naming the value.
    const QStringList decode{"decode", "--table", "@DIR/table.csv", "--pi", "masked:3",
                             "--schedule", "linear"};
    QTest::newRow("temperature that underflows")
        << (decode + QStringList{"--steps", "2", "--values", "temperature:5e-324"})
        << QStringList{"--values", "temperature:5e-324", "1e-300"};
    QTest::newRow("plan --out x.png")
        << QStringList{"plan", "--data", "gaussian:d=2,s=0.5", "--steps", "100", "--trajectory",
                       "even:5", "--variance", "small", "--out", "@DIR/x.png"}
        << QStringList{"--out", "x.png", "JSON"};
    QTest::newRow("export --view all to a file name")
        << QStringList{"export", "--example", "1", "--view", "all", "--out", "@DIR/all.png"}
        << QStringList{"--out", "all.png", "folder"};
    QTest::newRow("table columns with a gap")
        << QStringList{"categorical", "--table", "@DIR/gap.csv", "--pi", "uniform:2", "--schedule",
                       "cosine", "--steps", "10"}
        << QStringList{"gap.csv", "x3", "x2 is missing"};
    QTest::newRow("negative seed")
        << (QStringList{"gamma"} + gaussian +
            QStringList{"--steps", "100", "--samples", "4", "--seed", "-1", "--out", "@DIR/s.csv"})
        << QStringList{"--seed", "-1", "from 0"};
    QTest::newRow("train gaussian --pi")
        << QStringList{"train", "--process", "gaussian", "--data", "gaussian:d=2,s=0.5", "--pi",
                       "masked:4", "--out", "@DIR/m.safetensors"}
        << QStringList{"--pi", "masked:4", "categorical"};
    QStringList many;
    for (int n = 1; n <= 65; ++n) many << QString::number(n);
    QTest::newRow("10 000-entry sweep")
        << (decode + QStringList{"--sweep-steps", many.join(',')})
        << QStringList{"--sweep-steps", "65 values", "at most 64"};
    QTest::newRow("--steps beside --sweep-steps")
        << (decode + QStringList{"--steps", "2", "--sweep-steps", "1,2"})
        << QStringList{"--steps", "--sweep-steps"};
    QTest::newRow("exact decoding of 15 positions")
        << QStringList{"decode", "--table", "@DIR/wide15.csv", "--pi", "masked:2", "--schedule",
                       "linear", "--steps", "4"}
        << QStringList{"exact decoding would enumerate", "2^33", "--samples"};
    QTest::newRow("10^7 digits chains")
        << QStringList{"decode", "--model", "bundled:digits-masked-l4.safetensors", "--samples",
                       "10000000", "--steps", "64"}
        << QStringList{"--samples", "10000000", "GB"};
    QTest::newRow("--condition of a table without conditions")
        << QStringList{"categorical", "--table", "@DIR/table.csv", "--pi", "uniform:3",
                       "--schedule", "cosine", "--steps", "10", "--condition", "cat"}
        << QStringList{"--condition = cat", "the table has no conditions (no column 'c')"};
    QTest::newRow("a 100 000-byte condition label")
        << QStringList{"categorical", "--table", "@DIR/long-label.csv", "--pi", "uniform:3",
                       "--schedule", "cosine", "--steps", "10"}
        << QStringList{"long-label.csv:2 column 'c'", "(100000 bytes)", "at most 200 bytes"};
    QTest::newRow("a TorchScript .pt as decode --model")
        << QStringList{"decode", "--model", "bundled:digits-unet.pt", "--steps", "4"}
        << QStringList{"digits-unet.pt", "not a safetensors file", "ZIP archive",
                       "TorchScript .pt"};
}

void tst_CliHostile::refusedWithOneLine() {
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, expected);
    QElapsedTimer timer;
    timer.start();
    const CliResult result = runCli(substitute(arguments), 30000);
    QVERIFY2(result.err != "timed out", "the command hung");
    QCOMPARE(result.exitCode, 2);
    const QString message = result.err.trimmed();
    QVERIFY2(!message.contains('\n'), qPrintable("not one line: " + message));
    for (const QString& part : expected) {
        QVERIFY2(message.contains(part), qPrintable("'" + part + "' not in: " + message));
    }
    // Refused up front: no allocation of gigabytes, no reading until memory runs out.
    QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed()) + " ms"));
    QVERIFY(QFileInfo(path("dangling")).isSymLink());
    QVERIFY(QFileInfo(path("zero-link")).isSymLink());
    QVERIFY(QFileInfo(path("fifo")).exists() && !QFileInfo(path("fifo")).isFile());
}

// A link to a regular file is kept: the write replaces its target.
void tst_CliHostile::aLinkToARegularFileIsWrittenThrough() {
    QTemporaryDir dir;
    writeFile(dir.filePath("target.csv"), "old\n");
    QVERIFY(QFile::link(dir.filePath("target.csv"), dir.filePath("link.csv")));
    const CliResult result = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--steps", "100",
                                     "--samples", "4", "--out", dir.filePath("link.csv")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QVERIFY(QFileInfo(dir.filePath("link.csv")).isSymLink());
    QVERIFY(readAll(dir.filePath("target.csv")).startsWith("n,gamma\n"));
}

void tst_CliHostile::fullDiskKeepsTheOldFile_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("file");
    QTest::newRow("gamma csv") << QStringList{"gamma", "--data", "gaussian:d=2,s=0.5", "--steps",
                                              "1000", "--samples", "4", "--out"}
                               << "g.csv";
    QTest::newRow("sample csv") << QStringList{"sample", "--data", "gaussian:d=2,s=0.5",
                                               "--trajectory", "even:10", "--count", "2000",
                                               "--out"}
                                << "s.csv";
    QTest::newRow("export png") << QStringList{"export", "--view", "schedule", "--out"}
                                << "schedule.png";
    QTest::newRow("export gif") << QStringList{"export", "--view", "animation", "--out"}
                                << "chains.gif";
    QTest::newRow("train checkpoint")
        << QStringList{"train", "--process", "gaussian", "--data", "toy:moons,n=200", "--arch",
                       "mlp:width=64,depth=2", "--steps", "5", "--batch", "8", "--out"}
        << "m.safetensors";
}

// Every writer checks its bytes: with room for only 4 kB, the write fails with the reason, the
// exit code is 2, and the previous file is still there, byte for byte, with no stray temporary.
void tst_CliHostile::fullDiskKeepsTheOldFile() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, file);
    QTemporaryDir dir;
    const QString out = dir.filePath(file);
    const QByteArray previous = "the previous version, which must survive\n";
    writeFile(out, previous);
    const CliResult result = runWithFileSizeLimit(arguments + QStringList{out}, 4096);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(file) && result.err.contains("File too large") &&
                 result.err.contains("unchanged"),
             qPrintable(result.err));
    QVERIFY2(!result.out.contains("wrote"), qPrintable(result.out));
    QCOMPARE(readAll(out), previous);
    QCOMPARE(strayFiles(dir.path(), {file}), QStringList());
}

// The same on a real file system that is full (a 64 kB tmpfs; needs root, skipped otherwise).
void tst_CliHostile::realFullFileSystem() {
    QTemporaryDir dir;
    const QString mountPoint = dir.filePath("small");
    QVERIFY(QDir().mkdir(mountPoint));
    if (::geteuid() != 0 ||
        QProcess::execute("mount", {"-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint}) != 0) {
        QSKIP("mounting a small tmpfs needs root");
    }
    const auto unmount = qScopeGuard([&] { QProcess::execute("umount", {mountPoint}); });
    const QString out = mountPoint + "/g.csv";
    const QByteArray previous(20000, 'x');
    writeFile(out, previous);
    writeFile(mountPoint + "/filler", QByteArray(36000, 'f'));  // leaves < 16 kB free
    const CliResult result = runCli({"gamma", "--data", "gaussian:d=2,s=0.5", "--steps", "1000",
                                     "--samples", "4", "--out", out});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("No space left on device"), qPrintable(result.err));
    QCOMPARE(readAll(out), previous);
    QCOMPARE(strayFiles(mountPoint, {"g.csv", "filler"}), QStringList());
}

// A checkpoint trained for N = 100 is refused at N = 200, naming both (it used to run).
void tst_CliHostile::checkpointMustFitTheSchedule() {
    QTemporaryDir dir;
    const QString model = dir.filePath("m.safetensors");
    const CliResult trained = runCli({"train", "--process", "gaussian", "--data", "toy:moons,n=200",
                                      "--arch", "mlp:width=8,depth=1", "--steps", "2", "--batch",
                                      "4", "--num-steps", "100", "--out", model});
    QVERIFY2(trained.exitCode == 0, qPrintable(trained.err));
    const CliResult wrong = runCli({"sample", "--data", "toy:moons", "--model", model, "--steps",
                                    "200", "--trajectory", "even:10", "--out",
                                    dir.filePath("s.csv")});
    QCOMPARE(wrong.exitCode, 2);
    QVERIFY2(wrong.err.contains("m.safetensors") && wrong.err.contains("N = 100") &&
                 wrong.err.contains("N = 200"),
             qPrintable(wrong.err));
    const CliResult right = runCli({"sample", "--data", "toy:moons", "--model", model, "--steps",
                                    "100", "--trajectory", "even:10", "--out",
                                    dir.filePath("s.csv")});
    QVERIFY2(right.exitCode == 0, qPrintable(right.err));
    // Another schedule under the network (trained on linear) is refused, naming both and the
    // ᾱ_n that differ most; a diffusers config with the same linear β (ᾱ in float32) is not.
    const auto withSchedule = [&](const QString& schedule) {
        return runCli({"sample", "--data", "toy:moons", "--model", model, "--steps", "100",
                       "--schedule", schedule, "--trajectory", "even:10", "--out",
                       dir.filePath("s.csv")});
    };
    writeFile(dir.filePath("sd.json"),
              R"({"num_train_timesteps": 100, "beta_schedule": "scaled_linear",
                  "beta_start": 0.00085, "beta_end": 0.012})");
    // The linear schedule at N = 100 scales DDPM's 1e-4..0.02 by 1000/N.
    writeFile(dir.filePath("linear.json"),
              R"({"num_train_timesteps": 100, "beta_schedule": "linear", "beta_start": 0.001,
                  "beta_end": 0.2})");
    for (const QString& schedule : {QString("cosine"), QString("linear,zero-snr"),
                                   "diffusers:" + dir.filePath("sd.json")}) {
        const CliResult other = withSchedule(schedule);
        QCOMPARE(other.exitCode, 2);
        QVERIFY2(other.err.contains("m.safetensors") &&
                     other.err.contains("trained under the schedule linear but the schedule here is " +
                                        schedule) &&
                     other.err.contains("ᾱ at n = "),
                 qPrintable(other.err));
    }
    const CliResult sameBeta = withSchedule("diffusers:" + dir.filePath("linear.json"));
    QVERIFY2(sameBeta.exitCode == 0, qPrintable(sameBeta.err));
}

// F rows of 1e308 overflow a plain sum; they must give the same kernel as rows of 1.
void tst_CliHostile::hugeDenoiserRowsNormaliseExactly() {
    QTemporaryDir dir;
    writeFile(dir.filePath("big.csv"), "1e308,1e308,1e308\n1e308,2e307,1e308\n0,0,1e308\n");
    writeFile(dir.filePath("small.csv"), "1,1,1\n1,0.2,1\n0,0,1\n");
    const QStringList common{"kernel", "--pi", "0.5,0.3,0.2", "--beta-s", "0.3", "--beta-t", "0.6",
                             "--denoiser"};
    const CliResult big = runCli(common + QStringList{dir.filePath("big.csv")});
    const CliResult small = runCli(common + QStringList{dir.filePath("small.csv")});
    QVERIFY2(big.exitCode == 0, qPrintable(big.err));
    QVERIFY2(small.exitCode == 0, qPrintable(small.err));
    QCOMPARE(big.out, small.out);
    QVERIFY(!big.out.contains("nan") && big.out.contains('1'));
}

// `train` refuses an output it could not write before training for minutes.
void tst_CliHostile::trainChecksItsOutputFirst() {
    QElapsedTimer timer;
    timer.start();
    const CliResult result = runCli({"train", "--process", "gaussian", "--data", "toy:moons",
                                     "--steps", "100000000", "--out", path("no/such/m.safetensors")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("no/such/m.safetensors") && result.err.contains("does not exist"),
             qPrintable(result.err));
    QVERIFY(timer.elapsed() < 10000);
}

// Results on stdout redirected to a full disk (/dev/full) end in exit code 2, not 0.
void tst_CliHostile::aFullStandardOutputFails() {
    QProcess process;
    process.setProgram(QStringLiteral(DIFFUSCOPE_BINARY));
    process.setArguments({"categorical", "--table", path("table.csv"), "--pi", "uniform:3",
                          "--schedule", "cosine", "--steps", "20"});
    process.setStandardOutputFile("/dev/full");
    process.start();
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 2);
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(err.contains("standard output") && err.contains("No space left on device"),
             qPrintable(err));
}

// 1e-310 underflows to a denormal: a number in an option as in a file (one reader had called it
// "not a number").
void tst_CliHostile::denormalsAreNumbersEverywhere() {
    QTemporaryDir dir;
    writeFile(dir.filePath("f.csv"), "1,1e-310,1\n1,1,1\n1e-310,1,1\n");
    const CliResult result = runCli({"kernel", "--pi", "uniform:3", "--beta-s", "1e-310",
                                     "--beta-t", "0.5", "--denoiser", dir.filePath("f.csv")});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QCOMPARE(result.out.count('\n'), 3);
}

// Values that are not finite (the SNR and information at n = 0) are empty cells, not "inf".
void tst_CliHostile::exportedTablesHoldNumbersOnly() {
    QTemporaryDir dir;
    const QString out = dir.filePath("compare.csv");
    const CliResult result = runCli({"export", "--view", "compare", "--out", out});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QList<QByteArray> lines = readAll(out).trimmed().split('\n');
    lines.removeIf([](const QByteArray& line) { return line.startsWith('#'); });  // header block
    QVERIFY(lines.size() > 2 && lines.front().startsWith("process,t,"));
    for (qsizetype row = 1; row < lines.size(); ++row) {
        QList<QByteArray> cells = lines[row].split(',');
        QVERIFY(cells.front() == "categorical" || cells.front() == "gaussian");
        cells.removeFirst();
        for (const QByteArray& cell : cells) {
            bool number = cell.isEmpty();
            const double value = number ? 0.0 : cell.toDouble(&number);
            QVERIFY2(number && std::isfinite(value), lines[row].constData());
        }
    }
    // n = 0 of the Gaussian curve: infinite information and SNR.
    const auto first = std::find_if(lines.begin(), lines.end(),
                                    [](const QByteArray& l) { return l.startsWith("gaussian,"); });
    QVERIFY(first != lines.end() && first->endsWith(",,"));
}

// A write-protected file is not replaced (rename would), and a folder that takes no new file is
// refused before the work starts. Root may write anywhere, so as root the command runs as nobody,
// from a copy of the binary in the test's folder: the build tree may lie in a folder only root
// can enter (root's home is mode 0700), where nobody could not start it.
void tst_CliHostile::protectedOutputsAreRefusedBeforeWork() {
    QTemporaryDir dir;
    QVERIFY(::chmod(dir.path().toLocal8Bit().constData(), 0777) == 0);
    QString program = QStringLiteral(DIFFUSCOPE_BINARY);
    if (::geteuid() == 0) {
        // Every folder above the test's must let others through.
        for (QDir up(dir.path()); up.cdUp();) {
            struct stat info {};
            if (::stat(up.path().toLocal8Bit().constData(), &info) == 0 && (info.st_mode & S_IXOTH) == 0) {
                QSKIP(qPrintable(QString("the temporary folder's parent %1 is closed to other users "
                                         "(mode %2): nobody cannot run the program there")
                                     .arg(up.path())
                                     .arg(info.st_mode & 07777, 4, 8, QChar('0'))));
            }
            if (up.isRoot()) break;
        }
        program = dir.filePath("diffuscope");
        QVERIFY(QFile::copy(QStringLiteral(DIFFUSCOPE_BINARY), program));
        QVERIFY(::chmod(program.toLocal8Bit().constData(), 0755) == 0);
    }
    const QString locked = dir.filePath("locked.csv");
    writeFile(locked, "the previous version\n");
    QVERIFY(::chmod(locked.toLocal8Bit().constData(), 0444) == 0);
    QVERIFY(QDir().mkdir(dir.filePath("readonly")));
    QVERIFY(::chmod(dir.filePath("readonly").toLocal8Bit().constData(), 0555) == 0);
    const auto run = [&program, &dir](const QString& out) {
        const CliResult result = test_support::runProgram(
            program,
            {"gamma", "--data", "gaussian:d=2,s=0.5", "--steps", "100", "--samples", "4", "--out",
             out},
            60000,
            [] {
                if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) {
                    ::_exit(99);
                }
            },
            dir.path());
        return std::pair{result.exitCode, result.err};
    };
    const auto [lockedCode, lockedMessage] = run(locked);
    QCOMPARE(lockedCode, 2);
    QVERIFY2(lockedMessage.contains("locked.csv") && lockedMessage.contains("write-protected"),
             qPrintable(lockedMessage));
    QCOMPARE(readAll(locked), QByteArray("the previous version\n"));
    const auto [folderCode, folderMessage] = run(dir.filePath("readonly/g.csv"));
    QCOMPARE(folderCode, 2);
    QVERIFY2(folderMessage.contains("cannot write in the folder") &&
                 folderMessage.contains("Permission denied"),
             qPrintable(folderMessage));
}

// A project whose model cannot be loaded is refused before any file is written (it used to fall
// back to the exact oracle silently, or write some views and then fail).
void tst_CliHostile::exportValidatesTheProjectBeforeWriting() {
    QTemporaryDir dir;
    const QString projectFile = dir.filePath("p.diffuscope.json");
    const CliResult example = runCli({"export", "--example", "3", "--view", "schedule", "--out",
                                      dir.filePath("first.png")});
    QVERIFY2(example.exitCode == 0, qPrintable(example.err));
    // The moons example with its bundled network replaced by a path that is not a checkpoint.
    QFile source(QString(DIFFUSCOPE_SOURCE_DIR) + "/tests/data/moons_bad_model.diffuscope.json");
    for (const QString& model : {QString("../../../../etc/passwd"), QString("/dev/zero")}) {
        QByteArray project = source.open(QIODevice::ReadOnly) ? source.readAll() : QByteArray();
        source.close();
        QVERIFY(!project.isEmpty());
        project.replace("@MODEL", model.toUtf8());
        writeFile(projectFile, project);
        const QString out = dir.filePath("figures");
        const CliResult result = runCli({"export", "--project", projectFile, "--view", "all",
                                         "--out", out});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("model", Qt::CaseInsensitive) &&
                     result.err.contains(QFileInfo(model).fileName()),
                 qPrintable(result.err));
        QVERIFY2(!QFileInfo::exists(out) || QDir(out).isEmpty(), "files were written");
    }
}

// An output that names one of the command's inputs (itself, through a link, or a file the
// project names) is refused before any work, naming both; the input is unchanged.
void tst_CliHostile::anOutputIsNeverAnInput_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("input");  // the file that must stay as it was
    QTest::addColumn<QString>("named");  // what the refusal names besides --out
    QTest::newRow("plan --gamma g --out g")
        << QStringList{"plan", "--gamma", "@DIR/g.csv", "--out", "@DIR/g.csv"} << "g.csv"
        << "--gamma";
    QTest::newRow("plan --project P --out P")
        << QStringList{"plan", "--project", "@DIR/p.json", "--out", "@DIR/p.json"} << "p.json"
        << "--project";
    QTest::newRow("sample --data csv:pts --out pts")
        << QStringList{"sample", "--data", "csv:@DIR/pts.csv", "--out", "@DIR/pts.csv"}
        << "pts.csv" << "--data";
    QTest::newRow("through a symbolic link")
        << QStringList{"sample", "--data", "csv:@DIR/pts.csv", "--out", "@DIR/pts-link.csv"}
        << "pts.csv" << "--data";
    QTest::newRow("through a hard link")
        << QStringList{"gamma", "--data", "csv:@DIR/pts.csv", "--out", "@DIR/pts-hard.csv"}
        << "pts.csv" << "--data";
    QTest::newRow("the project's data file")
        << QStringList{"sample", "--project", "@DIR/p.json", "--out", "@DIR/pts.csv"} << "pts.csv"
        << "project's data file";
}

void tst_CliHostile::anOutputIsNeverAnInput() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, input);
    QFETCH(QString, named);
    writeFile(path("g.csv"), "n,gamma\n1,1\n2,1\n");
    writeFile(path("pts.csv"), "x1,x2\n0.1,0.2\n0.3,0.4\n0.5,0.6\n");
    QFile::remove(path("pts-link.csv"));
    QVERIFY(QFile::link(path("pts.csv"), path("pts-link.csv")));
    QFile::remove(path("pts-hard.csv"));
    QCOMPARE(::link(path("pts.csv").toLocal8Bit().constData(),
                    path("pts-hard.csv").toLocal8Bit().constData()),
             0);
    const CliResult project = runCli({"project", "--example", "3", "--out", path("p.json")});
    QCOMPARE(project.exitCode, 0);
    if (named.contains("project's data")) {
        QByteArray text = readAll(path("p.json"));
        QVERIFY(text.contains("toy:moons,n=4000"));
        text.replace("toy:moons,n=4000", "csv:" + path("pts.csv").toUtf8());
        writeFile(path("p.json"), text);
    }
    const QByteArray before = readAll(path(input));
    const CliResult run = runCli(substitute(arguments));
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.err.trimmed().count('\n'), 0);
    QVERIFY2(run.err.contains("--out") && run.err.contains(named) &&
                 run.err.contains("never replaces an input"),
             qPrintable(run.err));
    QCOMPARE(readAll(path(input)), before);
}

// libomp registers a process in /dev/shm/__KMP_REGISTERED_LIB_<pid>_<uid>; one that died while
// creating it leaves a 0-byte file, and the next process given that pid used to abort at
// start-up. The program removes such a file of its own pid before the runtime starts.
void tst_CliHostile::aDeadProcessesRuntimeFileIsCleared() {
    const CliResult run =
        runCli({"help"}, 60000, [] {
            char name[128];
            std::snprintf(name, sizeof name, "/dev/shm/__KMP_REGISTERED_LIB_%d_%d",
                          static_cast<int>(::getpid()), static_cast<int>(::getuid()));
            const int fd = ::open(name, O_CREAT | O_WRONLY | O_TRUNC, 0600);
            if (fd >= 0) ::close(fd);
        });
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
}

QTEST_GUILESS_MAIN(tst_CliHostile)
#include "tst_cli_hostile.moc"
