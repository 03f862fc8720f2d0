// SPDX-License-Identifier: MIT
// Transition algebra and reverse kernels of docs/categorical.md#forward-process: prior parsing,
// Markov property, closed form against the direct sum, every limit case, the D3PM-style comparison.
#include <QTest>

#include <cmath>

#include "core/categorical/prior.h"
#include "core/categorical/reverse_kernel.h"
#include "core/categorical/transition.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

using namespace core;
using namespace core::categorical;

namespace {

// A random prior with `tiny` entries of 1e−9 (the precision corner of
// docs/categorical.md#reverse-kernel).
Vector randomPrior(int numClasses, uint64_t seed, int tiny) {
    CounterRng rng(seed, 1, 0);
    Vector pi(numClasses);
    for (int k = 0; k < numClasses; ++k) {
        pi[k] = k < tiny ? 1e-9 : 0.05 + rng.uniform();
    }
    const double tinyMass = tiny * 1e-9;
    pi.tail(numClasses - tiny) *= (1.0 - tinyMass) / pi.tail(numClasses - tiny).sum();
    return pi;
}

// Random denoiser rows F_j (each a probability vector), one per class j.
Matrix randomDenoiser(int numClasses, uint64_t seed) {
    CounterRng rng(seed, 2, 0);
    Matrix f(numClasses, numClasses);
    for (int j = 0; j < numClasses; ++j) {
        for (int i = 0; i < numClasses; ++i) {
            f(j, i) = rng.uniform();
        }
        f.row(j) /= f.row(j).sum();
    }
    return f;
}

void verifyProbabilityVector(const Vector& q) {
    for (Eigen::Index k = 0; k < q.size(); ++k) {
        QVERIFY2(std::isfinite(q[k]) && q[k] >= 0.0, qPrintable(QString("q[%1] = %2").arg(k).arg(q[k])));
    }
    DS_COMPARE_ABS(q.sum(), 1.0, 1e-12);
}

}  // namespace

class tst_CategoricalKernel : public QObject {
    Q_OBJECT

private slots:
    void parsePriorSpecs_data();
    void parsePriorSpecs();
    void badPriors_data();
    void badPriors();
    void transitionAlgebra_data();
    void transitionAlgebra();
    void posteriorIsBayes();
    void closedMatchesDirect_data();
    void closedMatchesDirect();
    void limitCases_data();
    void limitCases();
    void absorbingConsistentDenoiser();
    void keepProbabilityPrecision();
};

void tst_CategoricalKernel::parsePriorSpecs_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QList<double>>("expected");
    QTest::newRow("uniform:4") << "uniform:4" << QList<double>{0.25, 0.25, 0.25, 0.25};
    QTest::newRow("absorbing:3") << "absorbing:3" << QList<double>{0.0, 0.0, 1.0};
    QTest::newRow("list") << "0.2,0.3,0.5" << QList<double>{0.2, 0.3, 0.5};
    // Within 1e−9 of 1: renormalised silently.
    QTest::newRow("list renormalised") << "0.5,0.5000000005" << QList<double>{0.4999999997500000, 0.50000000025};
}

void tst_CategoricalKernel::parsePriorSpecs() {
    QFETCH(QString, spec);
    QFETCH(QList<double>, expected);
    Result<Vector> pi = parsePrior(spec.toStdString());
    DS_VERIFY_OK(pi);
    QCOMPARE(pi->size(), expected.size());
    for (int k = 0; k < expected.size(); ++k) {
        DS_COMPARE_ABS((*pi)[k], expected[k], 1e-16);
    }
    DS_COMPARE_ABS(pi->sum(), 1.0, 1e-15);
}

void tst_CategoricalKernel::badPriors_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative") << "0.6,0.5,-0.1" << "--pi[2] = -0.10000000000000001: a probability must be ≥ 0";
    QTest::newRow("NaN") << "0.5,nan,0.5" << "--pi[1] = nan: a probability is not a number";
    QTest::newRow("sum") << "0.5,0.4" << "--pi[1] = 0.40000000000000002: the entries of π sum to 0.90000000000000002, not 1 (tolerance 1e-9)";
    QTest::newRow("sum beyond 1e-9") << "0.5,0.500000002" << "--pi[1] = 0.50000000200000005: the entries of π sum to 1.0000000020000002, not 1 (tolerance 1e-9)";
    QTest::newRow("text") << "0.5,abc" << "--pi[1] = abc: not a number";
    QTest::newRow("one class") << "1" << "--pi = 1 entries: π needs at least 2 classes";
    QTest::newRow("uniform:1") << "uniform:1" << "--pi = uniform:1: the number of classes K must lie between 2 and 256";
    QTest::newRow("kind") << "gauss:3" << "--pi = gauss:3: unknown prior (expected uniform:K, absorbing:K or a comma list)";
}

void tst_CategoricalKernel::badPriors() {
    QFETCH(QString, spec);
    QFETCH(QString, message);
    Result<Vector> pi = parsePrior(spec.toStdString(), "--pi");
    QVERIFY(!pi.ok());
    QCOMPARE(QString::fromStdString(pi.error().toString()), message);
}

void tst_CategoricalKernel::transitionAlgebra_data() {
    QTest::addColumn<int>("numClasses");
    QTest::addColumn<double>("betaS");
    QTest::addColumn<double>("betaT");
    QTest::newRow("K=3 mid") << 3 << 0.2 << 0.7;
    QTest::newRow("K=7 s=0") << 7 << 0.0 << 0.4;
    QTest::newRow("K=5 t=1") << 5 << 0.6 << 1.0;
    QTest::newRow("K=20 near 1") << 20 << 1.0 - 3e-6 << 1.0 - 1e-6;
}

// Rows of P sum to 1; P₀,ₜ = P₀,ₛ P_{s,t} (Markov); P₀,ₛ⁻¹ P₀,ₛ = I; the O(K) update equals
// the dense product.
void tst_CategoricalKernel::transitionAlgebra() {
    QFETCH(int, numClasses);
    QFETCH(double, betaS);
    QFETCH(double, betaT);
    const Vector pi = randomPrior(numClasses, 11, 1);
    const Matrix p0s = denseForward(pi, betaS);
    const Matrix pst = denseStep(pi, betaS, betaT);
    const Matrix p0t = denseForward(pi, betaT);
    DS_COMPARE_ABS((pst.rowwise().sum().array() - 1.0).abs().maxCoeff(), 0.0, 1e-15);
    DS_COMPARE_ABS((p0s * pst - p0t).cwiseAbs().maxCoeff(), 0.0, 1e-14);
    DS_COMPARE_ABS((denseForwardInverse(pi, betaS) * p0s - Matrix::Identity(numClasses, numClasses))
                       .cwiseAbs().maxCoeff(), 0.0, 1e-9);
    Vector p = randomDenoiser(numClasses, 3).row(0).transpose();
    Vector fast(numClasses);
    applyTransition(p, pi, betaS, betaT, fast);
    DS_COMPARE_ABS((fast.transpose() - p.transpose() * pst).cwiseAbs().maxCoeff(), 0.0, 1e-15);
}

// The posterior q(x_s | x_t = j, x_0 = i) equals Bayes' rule on dense matrices.
void tst_CategoricalKernel::posteriorIsBayes() {
    const int numClasses = 5;
    const Vector pi = randomPrior(numClasses, 5, 0);
    const double betaS = 0.3;
    const double betaT = 0.8;
    const Matrix p0s = denseForward(pi, betaS);
    const Matrix pst = denseStep(pi, betaS, betaT);
    const Matrix p0t = denseForward(pi, betaT);
    Vector q(numClasses);
    for (int i = 0; i < numClasses; ++i) {
        for (int j = 0; j < numClasses; ++j) {
            forwardPosterior(pi, betaS, betaT, i, j, q);
            for (int k = 0; k < numClasses; ++k) {
                DS_COMPARE_ABS(q[k], p0s(i, k) * pst(k, j) / p0t(i, j), 1e-15);
            }
        }
    }
}

void tst_CategoricalKernel::closedMatchesDirect_data() {
    QTest::addColumn<int>("numClasses");
    QTest::addColumn<int>("tiny");
    QTest::addColumn<double>("betaS");
    QTest::addColumn<double>("betaT");
    const struct {
        const char* name;
        double betaS;
        double betaT;
    } pairs[] = {
        {"s=0", 0.0, 0.5},
        {"mid", 0.3, 0.6},
        {"t=1", 0.4, 1.0},
        {"s=0,t=1", 0.0, 1.0},
        {"near 0", 1e-7, 1e-6},
        {"s=0 near 0", 0.0, 1e-6},
        {"near 1", 1.0 - 3e-6, 1.0 - 1e-6},
        {"to near 1", 0.5, 1.0 - 1e-6},
        {"near 1 to 1", 1.0 - 1e-6, 1.0},
        {"tiny step", 0.5, 0.5 + 1e-9},
    };
    for (int numClasses : {2, 3, 5, 8, 13, 20}) {
        for (int tiny : {0, 1, numClasses / 2}) {
            for (const auto& pair : pairs) {
                QTest::addRow("K=%d tiny=%d %s", numClasses, tiny, pair.name)
                    << numClasses << tiny << pair.betaS << pair.betaT;
            }
        }
    }
}

// docs/categorical.md#reverse-kernel: the closed form agrees with the direct sum to 1e−12 over the
// whole range.
void tst_CategoricalKernel::closedMatchesDirect() {
    QFETCH(int, numClasses);
    QFETCH(int, tiny);
    QFETCH(double, betaS);
    QFETCH(double, betaT);
    const Vector pi = randomPrior(numClasses, 100 + numClasses, tiny);
    const Matrix f = randomDenoiser(numClasses, 200 + numClasses);
    const Matrix closed = reverseKernelMatrix(KernelForm::Closed, f, pi, betaS, betaT);
    const Matrix direct = reverseKernelMatrix(KernelForm::Direct, f, pi, betaS, betaT);
    for (int j = 0; j < numClasses; ++j) {
        verifyProbabilityVector(closed.row(j).transpose());
        for (int k = 0; k < numClasses; ++k) {
            DS_COMPARE_ABS(closed(j, k), direct(j, k), 1e-12);
        }
    }
}

void tst_CategoricalKernel::limitCases_data() {
    QTest::addColumn<QString>("priorSpec");
    QTest::addColumn<double>("betaS");
    QTest::addColumn<double>("betaT");
    QTest::addColumn<int>("j");
    QTest::addColumn<QString>("expect");  // delta, F, prior-mix
    QTest::newRow("beta_t = beta_s = 0") << "uniform:4" << 0.0 << 0.0 << 2 << "delta";
    QTest::newRow("beta_t = beta_s mid") << "0.1,0.2,0.3,0.4" << 0.4 << 0.4 << 1 << "delta";
    QTest::newRow("beta_t = beta_s = 1") << "0.1,0.2,0.3,0.4" << 1.0 << 1.0 << 3 << "delta";
    QTest::newRow("s = 0") << "0.1,0.2,0.3,0.4" << 0.0 << 0.6 << 0 << "F";
    QTest::newRow("s = 0, t = 1") << "uniform:4" << 0.0 << 1.0 << 1 << "F";
    QTest::newRow("t = 1") << "0.1,0.2,0.3,0.4" << 0.35 << 1.0 << 2 << "prior-mix";
    QTest::newRow("t = 1 absorbing mask") << "absorbing:4" << 0.35 << 1.0 << 3 << "prior-mix";
    QTest::newRow("d_j = 0") << "absorbing:4" << 0.35 << 1.0 << 1 << "delta";
    QTest::newRow("d_j = 0, s = 0") << "absorbing:4" << 0.0 << 1.0 << 0 << "delta";
}

// Every limit case of docs/categorical.md#reverse-kernel returns its closed value, never NaN.
void tst_CategoricalKernel::limitCases() {
    QFETCH(QString, priorSpec);
    QFETCH(double, betaS);
    QFETCH(double, betaT);
    QFETCH(int, j);
    QFETCH(QString, expect);
    const Vector pi = *parsePrior(priorSpec.toStdString());
    const int numClasses = static_cast<int>(pi.size());
    const Vector f = randomDenoiser(numClasses, 9).row(j).transpose();
    Vector expected = Vector::Zero(numClasses);
    if (expect == "delta") {
        expected[j] = 1.0;
    } else if (expect == "F") {
        expected = f;
    } else {
        expected = (1.0 - betaS) * f + betaS * pi;
    }
    if (expect == "F" && pi[j] == 0.0 && betaT == 1.0) {
        expected = Vector::Zero(numClasses);
        expected[j] = 1.0;
    }
    Vector q(numClasses);
    reverseKernelClosed(f, j, pi, betaS, betaT, q);
    verifyProbabilityVector(q);
    for (int k = 0; k < numClasses; ++k) {
        DS_COMPARE_ABS(q[k], expected[k], 1e-15);
    }
    Vector d3pm(numClasses);
    reverseKernelD3pm(f, j, pi, betaS, betaT, d3pm);
    verifyProbabilityVector(d3pm);
}

// With absorbing π and a consistent F (the exact posterior: only the data classes, F_j = δ_j
// for unmasked j), closed and direct agree at every β.
void tst_CategoricalKernel::absorbingConsistentDenoiser() {
    const int numClasses = 5;
    const Vector pi = *parsePrior("absorbing:5");
    Vector p0(numClasses);
    p0 << 0.1, 0.2, 0.3, 0.4, 0.0;
    for (double betaT : {1e-6, 0.3, 0.9, 1.0 - 1e-6, 1.0}) {
        Matrix f = Matrix::Identity(numClasses, numClasses);
        f.row(numClasses - 1) = p0.transpose();  // at the mask, F is the data distribution
        for (double betaS : {0.0, betaT / 3.0, betaT}) {
            const Matrix closed = reverseKernelMatrix(KernelForm::Closed, f, pi, betaS, betaT);
            const Matrix direct = reverseKernelMatrix(KernelForm::Direct, f, pi, betaS, betaT);
            DS_COMPARE_ABS((closed - direct).cwiseAbs().maxCoeff(), 0.0, 1e-12);
        }
    }
}

// 1 − β_{s,t} as the single ratio (1−β_t)/(1−β_s) stays exact where 1 − β_{s,t} does not.
void tst_CategoricalKernel::keepProbabilityPrecision() {
    const double betaS = 1.0 - 6e-6;
    const double betaT = 1.0 - 3e-6;
    const double exact = (1.0 - betaT) / (1.0 - betaS);
    DS_COMPARE_ABS(keepProbability(betaS, betaT), exact, 0.0);
    QCOMPARE(keepProbability(1.0, 1.0), 1.0);
    QCOMPARE(keepProbability(0.3, 0.3), 1.0);
}

QTEST_GUILESS_MAIN(tst_CategoricalKernel)
#include "tst_categorical_kernel.moc"
