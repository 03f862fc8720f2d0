// SPDX-License-Identifier: MIT
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

#include "core/io/csv.h"
#include "core/io/gamma_file.h"
#include "tests/support/test_support.h"

using core::io::GammaKind;

class tst_GaussianGammaFile : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void corrupt_data();
    void corrupt();

private:
    QTemporaryDir m_dir;
};

namespace {
std::vector<double> sampleValues(int n) {
    std::vector<double> v(static_cast<size_t>(n) + 1, 0.0);
    for (int i = 1; i <= n; ++i) {
        v[i] = 1.0 / (0.25 * (1.0 - i / (n + 1.0)) + i / (n + 1.0)) + 1e-9 * i;
    }
    return v;
}
}  // namespace

void tst_GaussianGammaFile::roundTrip_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("format");  // 0 csv gamma, 1 csv ms_eps, 2 npy f64 N+1, 3 npy f32 N+1,
                                      // 4 npy f64 N
    QTest::newRow("csv-gamma") << "g.csv" << 0;
    QTest::newRow("csv-ms_eps") << "m.csv" << 1;
    QTest::newRow("npy-f64-leading-zero") << "a.npy" << 2;
    QTest::newRow("npy-f32-leading-zero") << "b.npy" << 3;
    QTest::newRow("npy-f64-length-N") << "c.npy" << 4;
}

void tst_GaussianGammaFile::roundTrip() {
    QFETCH(QString, name);
    QFETCH(int, format);
    const std::string path = (m_dir.path() + "/" + name).toStdString();
    const auto values = sampleValues(37);
    const GammaKind kind = format == 1 ? GammaKind::MsEps : GammaKind::Gamma;
    core::Status written =
        format <= 1 ? core::io::writeGammaCsv(path, values, kind)
                    : core::io::writeGammaNpy(path, values, format == 3, format != 4);
    DS_VERIFY_OK(written);
    auto read = core::io::readGammaFile(path, 37, kind);
    DS_VERIFY_OK(read);
    QCOMPARE(read->kind, kind);
    QCOMPARE(read->values.size(), values.size());
    for (int n = 1; n <= 37; ++n) {
        if (format == 3) {
            DS_COMPARE_REL(read->values[n], values[n], 1e-7);
        } else {
            QCOMPARE(read->values[n], values[n]);  // 17 digits / raw bits: exact
        }
    }
    // Wrong N. (NPY of length L is read as N = L − 1 with entry 0 unused or as N = L, so
    // only other lengths are errors: the format itself cannot tell these two apart.)
    QVERIFY(!core::io::readGammaFile(path, 30, kind).ok());
    if (format == 0) {
        const GammaKind other = GammaKind::MsEps;
        QVERIFY(!core::io::readGammaFile(path, 37, kind, &other).ok());
    }
}

void tst_GaussianGammaFile::corrupt_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("expected");  // a word of the message
    QTest::newRow("csv-no-value-column") << "a.csv" << QByteArray("n,x\n1,2\n2,3\n3,1\n") << "column";
    QTest::newRow("csv-gap-in-n") << "b.csv" << QByteArray("n,gamma\n1,2\n3,3\n4,1\n") << "n must";
    QTest::newRow("csv-short") << "c.csv" << QByteArray("n,gamma\n1,2\n2,3\n") << "rows";
    QTest::newRow("csv-text") << "d.csv" << QByteArray("n,gamma\n1,2\n2,abc\n3,1\n") << "";
    QTest::newRow("csv-negative") << "e.csv" << QByteArray("n,gamma\n1,2\n2,-3\n3,1\n") << "non-negative";
    QTest::newRow("npy-bad-magic") << "f.npy" << QByteArray("NUMPY garbage") << "magic";
    QTest::newRow("npy-truncated") << "g.npy" << QByteArray() << "truncated";
    QTest::newRow("npy-int") << "h.npy" << QByteArray() << "float32";
    QTest::newRow("wrong-extension") << "i.txt" << QByteArray("n,gamma\n") << ".csv or .npy";
}

void tst_GaussianGammaFile::corrupt() {
    QFETCH(QString, name);
    QFETCH(QByteArray, contents);
    QFETCH(QString, expected);
    const std::string path = (m_dir.path() + "/" + name).toStdString();
    std::string bytes = contents.toStdString();
    if (name == "g.npy" || name == "h.npy") {
        DS_VERIFY_OK(core::io::writeGammaNpy(path, sampleValues(3)));
        auto full = core::io::readTextFile(path);
        DS_VERIFY_OK(full);
        bytes = *full;
        if (name == "g.npy") {
            bytes.resize(bytes.size() - 5);
        } else {
            bytes.replace(bytes.find("<f8"), 3, "<i8");
        }
    }
    DS_VERIFY_OK(core::io::writeFileAtomically(path, bytes));
    auto read = core::io::readGammaFile(path, 3, GammaKind::MsEps);
    QVERIFY(!read.ok());
    const QString message = QString::fromStdString(read.error().toString());
    QVERIFY2(message.contains(expected), qPrintable(message));
}

QTEST_GUILESS_MAIN(tst_GaussianGammaFile)
#include "tst_gaussian_gamma_file.moc"
