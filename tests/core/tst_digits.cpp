// SPDX-License-Identifier: MIT
// Tests of core/data/digits: the bundled data set reads back with the counts computed by an
// independent reader (Python's gzip + csv), quantisation, scaling and bad files.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <numeric>

#include "core/data/digits.h"
#include "core/data/gaussian_data.h"
#include "core/model/oracle_specs.h"
#include "tests/support/test_support.h"

namespace {
// gzip-compresses text (for corrupt-file rows) with zlib's gzip header (windowBits 16 + 15).
std::string gzipText(const std::string& text) {
    z_stream stream{};
    deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(compressBound(text.size()) + 32, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}
}  // namespace

class tst_Digits : public QObject {
    Q_OBJECT

private slots:
    void bundledFileMatchesIndependentCounts();
    void quantisation_data();
    void quantisation();
    void scaling();
    void gaussianDigitsSpec();
    void badFiles_data();
    void badFiles();
};

// Reference figures from Python: 1797 rows; first image pixel sum 294, label 0; label sum 8070;
// per-label counts 178, 182, 177, 183, 181, 182, 181, 179, 174, 180; all pixels sum 561718.
void tst_Digits::bundledFileMatchesIndependentCounts() {
    const auto digits =
        core::data::readDigits(DIFFUSCOPE_SOURCE_DIR "/resources/data/digits.csv.gz");
    DS_VERIFY_OK(digits);
    QCOMPARE(digits->numImages(), 1797);
    QCOMPARE(digits->numTrain(), 1500);
    QCOMPARE(std::accumulate(digits->image(0), digits->image(0) + 64, 0), 294);
    QCOMPARE(digits->labels[0], 0);
    QCOMPARE(std::accumulate(digits->labels.begin(), digits->labels.end(), 0), 8070);
    QCOMPARE(std::accumulate(digits->pixels.begin(), digits->pixels.end(), 0LL), 561718LL);
    const std::vector<int> expected = {178, 182, 177, 183, 181, 182, 181, 179, 174, 180};
    std::vector<int> counts(10, 0);
    for (int label : digits->labels) {
        ++counts[label];
    }
    QCOMPARE(counts, expected);
}

// The "digits" Gaussian data spec: the split's images on [−1, 1], column by column; its mean
// equals the pixel sums of the bundled file (all pixels 561718 over 1797 images).
void tst_Digits::gaussianDigitsSpec() {
    const auto digits =
        core::data::readDigits(DIFFUSCOPE_SOURCE_DIR "/resources/data/digits.csv.gz");
    DS_VERIFY_OK(digits);
    const core::Matrix train = core::data::digitsPoints(*digits, true);
    const core::Matrix test = core::data::digitsPoints(*digits, false);
    QCOMPARE(train.rows(), 64);
    QCOMPARE(train.cols(), 1500);
    QCOMPARE(test.cols(), 297);
    QCOMPARE(train(5, 0), digits->image(0)[5] / 8.0 - 1.0);
    QCOMPARE(test(63, 296), digits->image(1796)[63] / 8.0 - 1.0);
    // Σ (v/8 − 1) over every pixel of both splits = 561718/8 − 1797·64.
    QVERIFY(std::abs(train.sum() + test.sum() - (561718.0 / 8.0 - 1797.0 * 64.0)) < 1e-6);

    auto oracle = core::model::gaussianOracleFromSpec("digits", &*digits);
    DS_VERIFY_OK(oracle);
    const core::model::GaussianDataSampler& sampler = **oracle;
    QCOMPARE(sampler.dimension(), 64);
    auto testOracle = core::model::gaussianOracleFromSpec("digits:test", &*digits);
    DS_VERIFY_OK(testOracle);
    // Without the digits, or with an unknown split, the spec is refused with a reason.
    auto missing = core::model::gaussianOracleFromSpec("digits");
    QVERIFY(!missing);
    QVERIFY(missing.error().message.find("not available") != std::string::npos);
    QVERIFY(!core::model::gaussianOracleFromSpec("digits:validation", &*digits));
}

void tst_Digits::quantisation_data() {
    QTest::addColumn<int>("levels");
    QTest::addColumn<QList<int>>("expected");  // class of intensity 0..16
    QTest::newRow("L=2") << 2 << QList<int>{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
    QTest::newRow("L=4") << 4 << QList<int>{0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
    QTest::newRow("L=8") << 8 << QList<int>{0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7};
    QTest::newRow("L=17") << 17 << QList<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
}

void tst_Digits::quantisation() {
    QFETCH(int, levels);
    QFETCH(QList<int>, expected);
    std::vector<int> intensities(17);
    std::iota(intensities.begin(), intensities.end(), 0);
    const auto classes = core::data::quantiseDigits(intensities, levels);
    DS_VERIFY_OK(classes);
    QCOMPARE(QList<int>(classes->begin(), classes->end()), expected);
    QVERIFY(!core::data::quantiseDigits(intensities, 1).ok());
    QVERIFY(!core::data::quantiseDigits(intensities, 18).ok());
}

void tst_Digits::scaling() {
    const auto values = core::data::scaleDigits({0, 8, 16, 4});
    QCOMPARE(values, (std::vector<double>{-1.0, 0.0, 1.0, -0.5}));
}

void tst_Digits::badFiles_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    std::string good;
    for (int i = 0; i < 64; ++i) {
        good += std::to_string(i % 17) + ",";
    }
    good += "3\n";
    const std::string gz = gzipText(good + good);
    QTest::newRow("truncated gzip") << QByteArray::fromStdString(gz.substr(0, gz.size() / 2))
                                    << "truncated or corrupt";
    std::string bright = good;
    bright.replace(0, 1, "17");
    QTest::newRow("pixel 17") << QByteArray::fromStdString(gzipText(bright)) << "0..16";
    std::string label = good;
    label.replace(label.size() - 2, 1, "10");
    QTest::newRow("label 10") << QByteArray::fromStdString(gzipText(label)) << "0..9";
    QTest::newRow("short line") << QByteArray("1,2,3\n") << "3 fields, 65 are expected";
    QTest::newRow("letters") << QByteArray::fromStdString("x" + good) << "column 1";
    QTest::newRow("empty") << QByteArray() << "no images";
}

void tst_Digits::badFiles() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.csv.gz");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    file.close();
    const auto digits = core::data::readDigits(path.toStdString());
    QVERIFY(!digits.ok());
    const QString message = QString::fromStdString(digits.error().toString());
    QVERIFY2(message.contains(expected), qPrintable(message));
    QVERIFY2(message.contains("bad.csv.gz"), qPrintable(message));
}

QTEST_GUILESS_MAIN(tst_Digits)
#include "tst_digits.moc"
