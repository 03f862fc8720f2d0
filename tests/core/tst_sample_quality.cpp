// SPDX-License-Identifier: MIT
// Tests of core/evaluation/sample_quality: the unbiased MMD² and its standard error against a
// brute force written here, its behaviour on equal and shifted distributions, the Fréchet
// distance against closed forms, and the held-out reference sets of the data specs.
#include <QTest>

#include <Eigen/QR>
#include <cmath>
#include <vector>

#include "core/data/gaussian_data.h"
#include "core/data/toys.h"
#include "core/project/held_out_quality.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

using core::Matrix;
using core::Vector;

namespace {

// d×count standard normal points scaled by `scale` and shifted by `shift` (all coordinates).
Matrix normalPoints(int d, int count, uint64_t seed, double scale = 1.0, double shift = 0.0) {
    Matrix points(d, count);
    for (int i = 0; i < count; ++i) {
        core::CounterRng rng(seed, static_cast<uint64_t>(i), 99);
        for (int r = 0; r < d; ++r) {
            points(r, i) = shift + scale * rng.normal();
        }
    }
    return points;
}

double bruteKernel(const Vector& a, const Vector& b, const std::vector<double>& h) {
    double sum = 0.0;
    for (double bandwidth : h) {
        double d2 = 0.0;
        for (int r = 0; r < a.size(); ++r) {
            d2 += (a(r) - b(r)) * (a(r) - b(r));
        }
        sum += std::exp(-d2 / (2.0 * bandwidth * bandwidth));
    }
    return sum / static_cast<double>(h.size());
}

// Centred, exactly whitened, then scaled: the sample covariance (divisor count − 1) is
// diag(variances) and the mean is `mean`, up to rounding.
Matrix withMoments(Matrix z, const Vector& mean, const Vector& variances) {
    const Vector centre = z.rowwise().mean();
    z.colwise() -= centre;
    const Matrix cov = z * z.transpose() / static_cast<double>(z.cols() - 1);
    const Eigen::LLT<Matrix> llt(cov);
    Matrix white = llt.matrixL().solve(z);
    return (variances.cwiseSqrt().asDiagonal() * white).colwise() + mean;
}

}  // namespace

class tst_SampleQuality : public QObject {
    Q_OBJECT

private slots:
    void mmdEqualsBruteForce();
    void mmdSameForOneAndTwoThreads();
    void mmdSeparatesShiftedSamples();
    void mmdRefusesBadInput();
    void frechetOneDimension();
    void frechetDiagonal();
    void frechetRotationInvariant();
    void frechetIdenticalSetsAreZero();
    void frechetRefusesBadInput();
    void heldOutDigitsIsTestSplit();
    void heldOutToyIsAFreshDraw();
    void heldOutDistributionDraws();
    void heldOutRefusesCsv();
    void sampleQualityChoosesTheMeasure();
};

// MMD²_u = Σ_{i≠j} k(x_i,x_j)/(m(m−1)) + Σ_{i≠j} k(y_i,y_j)/(n(n−1)) − 2 Σ k(x_i,y_j)/(mn), and
// SE² = 4 s²(a)/m + 4 s²(b)/n with a_i = mean_{j≠i} k(x_i,x_j) − mean_j k(x_i,y_j) (and b
// likewise): direct double loops on m = 7, n = 9 points and two bandwidths.
void tst_SampleQuality::mmdEqualsBruteForce() {
    const Matrix x = normalPoints(2, 7, 1, 0.5);
    const Matrix y = normalPoints(2, 9, 2, 0.7, 0.2);
    const std::vector<double> h = {0.3, 1.1};
    const int m = 7;
    const int n = 9;
    double xx = 0.0;
    double yy = 0.0;
    double xy = 0.0;
    std::vector<double> a(m, 0.0);
    std::vector<double> b(n, 0.0);
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
            if (i != j) {
                xx += bruteKernel(x.col(i), x.col(j), h);
                a[i] += bruteKernel(x.col(i), x.col(j), h) / (m - 1);
            }
        }
        for (int j = 0; j < n; ++j) {
            xy += bruteKernel(x.col(i), y.col(j), h);
            a[i] -= bruteKernel(x.col(i), y.col(j), h) / n;
        }
    }
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            if (i != j) {
                yy += bruteKernel(y.col(i), y.col(j), h);
                b[i] += bruteKernel(y.col(i), y.col(j), h) / (n - 1);
            }
        }
        for (int j = 0; j < m; ++j) {
            b[i] -= bruteKernel(y.col(i), x.col(j), h) / m;
        }
    }
    const double expected = xx / (m * (m - 1.0)) + yy / (n * (n - 1.0)) - 2.0 * xy / (m * n);
    auto variance = [](const std::vector<double>& v) {
        double mean = 0.0;
        for (double e : v) mean += e / v.size();
        double s = 0.0;
        for (double e : v) s += (e - mean) * (e - mean);
        return s / (v.size() - 1.0);
    };
    const double expectedSe = std::sqrt(4.0 * variance(a) / m + 4.0 * variance(b) / n);
    auto mmd = core::evaluation::mmd2Unbiased(x, y, h);
    DS_VERIFY_OK(mmd);
    DS_COMPARE_ABS(mmd->value, expected, 1e-12);
    DS_COMPARE_ABS(mmd->standardError, expectedSe, 1e-12);
    QVERIFY(expectedSe > 0.0);
}

void tst_SampleQuality::mmdSameForOneAndTwoThreads() {
    const Matrix x = normalPoints(2, 301, 3);
    const Matrix y = normalPoints(2, 187, 4, 1.0, 0.1);
    auto one = core::evaluation::mmd2Unbiased(x, y, core::evaluation::kMmdBandwidths, {.numThreads = 1});
    auto two = core::evaluation::mmd2Unbiased(x, y, core::evaluation::kMmdBandwidths, {.numThreads = 2});
    DS_VERIFY_OK(one);
    DS_VERIFY_OK(two);
    QCOMPARE(one->value, two->value);
    QCOMPARE(one->standardError, two->standardError);
}

// 1000 samples of N(0, 0.3²I) against 2000 reference points of the same law and of the law
// shifted by 0.15 in both coordinates. Under equal laws the first-order SE slightly overstates the
// statistic's spread (over 40 seeds of this set-up z = MMD²/SE had an rms of 0.75 and a largest
// |z| of 1.86), so "within 3 SE" fails for a wrong statistic or SE, not by chance; the shift
// gives z ≈ 10 with this seed.
void tst_SampleQuality::mmdSeparatesShiftedSamples() {
    const Matrix samples = normalPoints(2, 1000, 11, 0.3);
    const Matrix same = normalPoints(2, 2000, 12, 0.3);
    const Matrix shifted = normalPoints(2, 2000, 12, 0.3, 0.15);
    const auto& h = core::evaluation::kMmdBandwidths;
    auto equal = core::evaluation::mmd2Unbiased(samples, same, h, {.numThreads = 2});
    auto apart = core::evaluation::mmd2Unbiased(samples, shifted, h, {.numThreads = 2});
    DS_VERIFY_OK(equal);
    DS_VERIFY_OK(apart);
    qInfo("same law: %g ± %g; shifted: %g ± %g", equal->value, equal->standardError, apart->value,
          apart->standardError);
    QVERIFY(std::abs(equal->value) < 3.0 * equal->standardError);
    QVERIFY(apart->value > 5.0 * apart->standardError);
}

void tst_SampleQuality::mmdRefusesBadInput() {
    const Matrix x = normalPoints(2, 5, 1);
    const auto& h = core::evaluation::kMmdBandwidths;
    auto few = core::evaluation::mmd2Unbiased(x.leftCols(1), x, h);
    QVERIFY(!few.ok());
    QCOMPARE(few.error().field, std::string("samples"));
    auto fewReference = core::evaluation::mmd2Unbiased(x, x.leftCols(1), h);
    QVERIFY(!fewReference.ok());
    QCOMPARE(fewReference.error().field, std::string("reference"));
    auto mismatch = core::evaluation::mmd2Unbiased(x, normalPoints(3, 5, 2), h);
    QVERIFY(!mismatch.ok());
    QCOMPARE(mismatch.error().field, std::string("reference"));
    Matrix bad = x;
    bad(1, 3) = std::nan("");
    auto nan = core::evaluation::mmd2Unbiased(bad, x, h);
    QVERIFY(!nan.ok());
    QCOMPARE(nan.error().field, std::string("samples row 1, column 3"));
    auto zero = core::evaluation::mmd2Unbiased(x, x, {0.1, 0.0});
    QVERIFY(!zero.ok());
    QCOMPARE(zero.error().field, std::string("bandwidths[1]"));
    QVERIFY(!core::evaluation::mmd2Unbiased(x, x, {}).ok());
    QVERIFY(!core::evaluation::mmd2Unbiased(x, x, {-1.0}).ok());
}

// (μ₁ − μ₂)² + (σ₁ − σ₂)² with σ the unbiased sample standard deviations, computed here.
void tst_SampleQuality::frechetOneDimension() {
    const Matrix a = normalPoints(1, 50, 5, 0.8, 0.3);
    const Matrix b = normalPoints(1, 70, 6, 1.7, -0.4);
    auto moments = [](const Matrix& p) {
        double mean = 0.0;
        for (int i = 0; i < p.cols(); ++i) mean += p(0, i) / p.cols();
        double s = 0.0;
        for (int i = 0; i < p.cols(); ++i) s += (p(0, i) - mean) * (p(0, i) - mean);
        return std::pair(mean, std::sqrt(s / (p.cols() - 1.0)));
    };
    const auto [m1, s1] = moments(a);
    const auto [m2, s2] = moments(b);
    auto distance = core::evaluation::frechetDistance(a, b);
    DS_VERIFY_OK(distance);
    DS_COMPARE_ABS(*distance, (m1 - m2) * (m1 - m2) + (s1 - s2) * (s1 - s2), 1e-12);
}

// Diagonal covariances diag(a), diag(b): Σ(μ₁ − μ₂)² + Σ(√a − √b)².
void tst_SampleQuality::frechetDiagonal() {
    Vector mean1(4), mean2(4), var1(4), var2(4);
    mean1 << 0.1, -0.2, 0.3, 0.0;
    mean2 << -0.5, 0.2, 0.3, 1.0;
    var1 << 0.25, 1.0, 2.0, 0.01;
    var2 << 1.0, 0.04, 2.0, 0.5;
    const Matrix a = withMoments(normalPoints(4, 40, 7), mean1, var1);
    const Matrix b = withMoments(normalPoints(4, 60, 8), mean2, var2);
    const double expected = (mean1 - mean2).squaredNorm() +
                            (var1.cwiseSqrt() - var2.cwiseSqrt()).squaredNorm();
    auto distance = core::evaluation::frechetDistance(a, b);
    DS_VERIFY_OK(distance);
    DS_COMPARE_ABS(*distance, expected, 1e-10);
}

void tst_SampleQuality::frechetRotationInvariant() {
    const Matrix a = normalPoints(5, 80, 9, 0.5, 0.2);
    Matrix b = normalPoints(5, 90, 10, 1.0, -0.1);
    b.row(2) *= 3.0;  // an anisotropic covariance, so the rotation matters to Σ₂
    const Eigen::HouseholderQR<Matrix> qr(normalPoints(5, 5, 11));
    const Matrix q = qr.householderQ();
    auto plain = core::evaluation::frechetDistance(a, b);
    auto rotated = core::evaluation::frechetDistance(q * a, q * b);
    DS_VERIFY_OK(plain);
    DS_VERIFY_OK(rotated);
    QVERIFY(*plain > 1.0);
    DS_COMPARE_ABS(*rotated, *plain, 1e-9);
}

void tst_SampleQuality::frechetIdenticalSetsAreZero() {
    const Matrix a = normalPoints(10, 60, 12, 0.7, 0.5);
    auto distance = core::evaluation::frechetDistance(a, a);
    DS_VERIFY_OK(distance);
    DS_COMPARE_ABS(*distance, 0.0, 1e-9);
}

void tst_SampleQuality::frechetRefusesBadInput() {
    const Matrix a = normalPoints(3, 10, 1);
    QVERIFY(!core::evaluation::frechetDistance(a.leftCols(1), a).ok());
    QVERIFY(!core::evaluation::frechetDistance(a, normalPoints(2, 10, 1)).ok());
    QVERIFY(!core::evaluation::frechetDistance(normalPoints(65, 10, 1), normalPoints(65, 10, 2)).ok());
    Matrix bad = a;
    bad(2, 4) = INFINITY;
    auto inf = core::evaluation::frechetDistance(a, bad);
    QVERIFY(!inf.ok());
    QCOMPARE(inf.error().field, std::string("reference row 2, column 4"));
}

void tst_SampleQuality::heldOutDigitsIsTestSplit() {
    const auto sources = core::project::fileSources();
    auto digits = sources.digits();
    DS_VERIFY_OK(digits);
    const Matrix test = core::data::digitsPoints(**digits, false);
    for (const char* spec : {"digits", "digits:train", "digits:test"}) {
        auto reference = core::project::heldOutReference(spec, 5, 1, sources);
        DS_VERIFY_OK(reference);
        QCOMPARE(reference->cols(), (*digits)->numImages() - (*digits)->numTrain());
        QVERIFY(*reference == test);
    }
}

// The toy's own points (seed 0 by default) against its reference: the same generator under
// another seed, so no column coincides with the oracle's.
void tst_SampleQuality::heldOutToyIsAFreshDraw() {
    const auto sources = core::project::fileSources();
    auto reference = core::project::heldOutReference("toy:moons", 500, 1, sources);
    DS_VERIFY_OK(reference);
    QCOMPARE(reference->rows(), 2);
    QCOMPARE(reference->cols(), 500);
    auto own = core::data::toyFromSpec("toy:moons");
    DS_VERIFY_OK(own);
    for (int i = 0; i < reference->cols(); ++i) {
        for (int j = 0; j < own->cols(); ++j) {
            QVERIFY(reference->col(i) != own->col(j));
        }
    }
    // A toy with an explicit seed: its reference differs from its own points too.
    auto seeded = core::project::heldOutReference("toy:ring,n=300,seed=42", 300, 1, sources);
    auto seededOwn = core::data::toyFromSpec("toy:ring,n=300,seed=42");
    DS_VERIFY_OK(seeded);
    DS_VERIFY_OK(seededOwn);
    QVERIFY(seeded->col(0) != seededOwn->col(0));
    // Still from the toy: moons lie in about [−1.3, 1.3]².
    QVERIFY(reference->cwiseAbs().maxCoeff() < 1.3);
    auto bad = core::project::heldOutReference("toy:nope", 10, 1, sources);
    QVERIFY(!bad.ok());
}

// gaussian: draws: the requested count, deterministic per seed, another seed another set, and
// the moments of N(m·1, s²I) (mean within 5 standard errors s/√count).
void tst_SampleQuality::heldOutDistributionDraws() {
    const auto sources = core::project::fileSources();
    auto a = core::project::heldOutReference("gaussian:d=3,s=0.5,m=1", 4000, 7, sources);
    auto again = core::project::heldOutReference("gaussian:d=3,s=0.5,m=1", 4000, 7, sources);
    auto other = core::project::heldOutReference("gaussian:d=3,s=0.5,m=1", 4000, 8, sources);
    DS_VERIFY_OK(a);
    DS_VERIFY_OK(again);
    DS_VERIFY_OK(other);
    QCOMPARE(a->rows(), 3);
    QCOMPARE(a->cols(), 4000);
    QVERIFY(*a == *again);
    QVERIFY(*a != *other);
    for (int r = 0; r < 3; ++r) {
        DS_COMPARE_ABS(a->row(r).mean(), 1.0, 5 * 0.5 / std::sqrt(4000.0));
    }
    auto bad = core::project::heldOutReference("gaussian:d=3,s=0.5", 0, 7, sources);
    QVERIFY(!bad.ok());
}

void tst_SampleQuality::heldOutRefusesCsv() {
    const auto sources = core::project::fileSources();
    auto csv = core::project::heldOutReference("csv:points.csv", 100, 1, sources);
    QVERIFY(!csv.ok());
    QCOMPARE(csv.error().field, std::string("data"));
    QCOMPARE(csv.error().value, std::string("csv:points.csv"));
}

void tst_SampleQuality::sampleQualityChoosesTheMeasure() {
    const auto sources = core::project::fileSources();
    auto toy = core::data::toyFromSpec("toy:moons,n=300");
    DS_VERIFY_OK(toy);
    auto mmd = core::project::sampleQuality(*toy, "toy:moons", 3, sources);
    DS_VERIFY_OK(mmd);
    QCOMPARE(mmd->measure, std::string("mmd2"));
    QCOMPARE(mmd->numSamples, 300);
    QCOMPARE(mmd->numReference, core::evaluation::kQualityReferenceCount);
    QVERIFY(mmd->bandwidths == core::evaluation::kMmdBandwidths);
    QVERIFY(mmd->reference.rfind("toy:moons,n=2000,seed=", 0) == 0);
    // The reference string names a data spec that draws the reference itself.
    auto named = core::data::toyFromSpec(mmd->reference);
    auto drawn = core::project::heldOutReference("toy:moons", 2000, 3, sources);
    DS_VERIFY_OK(named);
    DS_VERIFY_OK(drawn);
    QVERIFY(*named == *drawn);

    auto digits = sources.digits();
    DS_VERIFY_OK(digits);
    const Matrix train = core::data::digitsPoints(**digits, true);
    auto frechet = core::project::sampleQuality(train, "digits", 3, sources);
    DS_VERIFY_OK(frechet);
    QCOMPARE(frechet->measure, std::string("frechet"));
    QVERIFY(std::isnan(frechet->standardError));
    QCOMPARE(frechet->reference, std::string("digits:test"));
    QVERIFY(frechet->bandwidths.empty());
    // The training images are close to the test images: far closer than uniform noise.
    Matrix noise = normalPoints(64, 500, 4, 0.5);
    auto far = core::project::sampleQuality(noise, "digits", 3, sources);
    DS_VERIFY_OK(far);
    QVERIFY(frechet->value < 0.2 * far->value);

    auto mismatch = core::project::sampleQuality(normalPoints(3, 10, 1), "toy:moons", 3, sources);
    QVERIFY(!mismatch.ok());
    QCOMPARE(mismatch.error().field, std::string("samples"));
}

QTEST_GUILESS_MAIN(tst_SampleQuality)
#include "tst_sample_quality.moc"
