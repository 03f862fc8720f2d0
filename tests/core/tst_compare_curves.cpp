// SPDX-License-Identifier: MIT
// Tests of core/project/compare_curves: both information curves equal an independent
// computation from the digits (a direct double sum over the joint for the categorical fraction,
// the closed-form Gaussian-channel information with std::log, capped at each pixel's entropy
// counted from the raw intensities, for the Gaussian one), start at 1, end at about 0 and never
// rise; information-linear gives a straight line.
#include <QTest>

#include <cmath>
#include <vector>

#include "core/data/digits.h"
#include "core/project/compare_curves.h"
#include "core/schedule/gaussian_schedule.h"
#include "tests/support/project_choices.h"
#include "tests/support/test_support.h"

using core::project::CategoricalParams;
using core::project::GaussianParams;

namespace {

core::Result<core::data::Digits> readBundledDigits() {
    return core::data::readDigits(DIFFUSCOPE_SOURCE_DIR "/resources/data/digits.csv.gz");
}

// I(X_0;X_t) for one pixel as the plain double sum Σ_i Σ_j p(i) P(j|i) log(P(j|i)/p_t(j)),
// with P(j|i) = (1 − β)δ_ij + βπ_j written out entry by entry (not the O(K) form of the core).
double directInformation(const std::vector<double>& p0,
                         const std::vector<double>& pi,
                         double beta) {
    const size_t k = p0.size();
    std::vector<double> pt(k, 0.0);
    for (size_t i = 0; i < k; ++i) {
        for (size_t j = 0; j < k; ++j) {
            pt[j] += p0[i] * ((i == j ? 1.0 - beta : 0.0) + beta * pi[j]);
        }
    }
    double information = 0.0;
    for (size_t i = 0; i < k; ++i) {
        for (size_t j = 0; j < k; ++j) {
            const double p = (i == j ? 1.0 - beta : 0.0) + beta * pi[j];
            if (p0[i] > 0.0 && p > 0.0) {
                information += p0[i] * p * std::log(p / pt[j]);
            }
        }
    }
    return information;
}

double directEntropy(const std::vector<double>& p) {
    double h = 0.0;
    for (double v : p) {
        h -= v > 0.0 ? v * std::log(v) : 0.0;
    }
    return h;
}

// Per-pixel class frequencies counted straight from the intensities: v·L/17 → class.
std::vector<std::vector<double>> pixelFrequencies(const core::data::Digits& digits, int levels) {
    std::vector<std::vector<double>> counts(64, std::vector<double>(levels, 0.0));
    for (int image = 0; image < digits.numImages(); ++image) {
        for (int d = 0; d < 64; ++d) {
            counts[d][digits.image(image)[d] * levels / 17] += 1.0 / digits.numImages();
        }
    }
    return counts;
}

}  // namespace

class tst_CompareCurves : public QObject {
    Q_OBJECT

private slots:
    void curvesEqualAnIndependentComputation_data();
    void curvesEqualAnIndependentComputation();
    void informationLinearGivesAStraightLine();
};

void tst_CompareCurves::curvesEqualAnIndependentComputation_data() {
    QTest::addColumn<QString>("categoricalSchedule");
    QTest::addColumn<int>("levels");
    QTest::addColumn<bool>("digits");
    QTest::addColumn<QString>("gaussianSchedule");
    QTest::addColumn<int>("numSteps");
    QTest::newRow("linear L=4, linear N=1000") << "linear" << 4 << true << "linear" << 1000;
    QTest::newRow("cosine L=8, cosine N=200") << "cosine" << 8 << true << "cosine" << 200;
    QTest::newRow("power L=2, linear N=50") << "power" << 2 << true << "linear" << 50;
    QTest::newRow("table data: L=4 uniform π") << "cosine" << 4 << false << "linear" << 1000;
}

void tst_CompareCurves::curvesEqualAnIndependentComputation() {
    QFETCH(QString, categoricalSchedule);
    QFETCH(int, levels);
    QFETCH(bool, digits);
    QFETCH(QString, gaussianSchedule);
    QFETCH(int, numSteps);
    const auto data = readBundledDigits();
    DS_VERIFY_OK(data);
    CategoricalParams c = CategoricalParams::example();
    if (digits) {
        c = c.withDigits(levels);
        // A non-uniform π, so that the document's prior visibly matters.
        for (int k = 0; k < levels; ++k) {
            c.pi[k] = (k + 1.0) / (levels * (levels + 1) / 2.0);
        }
    }
    c.schedule = test_support::categoricalSchedule(categoricalSchedule);
    QVERIFY(c.validate().ok());
    GaussianParams g;
    g.schedule = gaussianSchedule.toStdString();
    g.numSteps = numSteps;
    const auto curves = core::project::computeCompareCurves(c, g, *data);
    DS_VERIFY_OK(curves);
    QCOMPARE(curves->levels, levels);
    QCOMPARE(curves->documentPrior, digits);

    // Categorical: Σ_d I_d / Σ_d H_d from the raw counts at a few times.
    const std::vector<double> pi =
        digits ? c.pi : std::vector<double>(levels, 1.0 / levels);
    const auto frequencies = pixelFrequencies(*data, levels);
    auto beta = c.betaCurve({});
    DS_VERIFY_OK(beta);
    double entropySum = 0.0;
    for (const auto& p0 : frequencies) {
        entropySum += directEntropy(p0);
    }
    for (int k : {0, 20, 50, 100, 150, 190, 200}) {
        const double t = curves->categoricalT[k];
        DS_COMPARE_ABS(t, k / 200.0, 1e-15);
        double information = 0.0;
        for (const auto& p0 : frequencies) {
            information += directInformation(p0, pi, (*beta)(t));
        }
        DS_COMPARE_ABS(curves->categorical[k], information / entropySum, 1e-10);
    }

    // Gaussian: Σ_i min(½ log(1 + ᾱ_n v_i/β̄_n), H_i)/Σ_i H_i, v_i from the scaled pixels and
    // H_i from the 17 raw intensities.
    auto schedule =
        core::schedule::gaussianScheduleFromSpec(gaussianSchedule.toStdString(), numSteps);
    DS_VERIFY_OK(schedule);
    std::vector<double> variance(64, 0.0);
    for (int d = 0; d < 64; ++d) {
        double sum = 0.0, squares = 0.0;
        for (int image = 0; image < data->numImages(); ++image) {
            const double x = data->image(image)[d] / 8.0 - 1.0;
            sum += x;
            squares += x * x;
        }
        const double mean = sum / data->numImages();
        variance[d] = squares / data->numImages() - mean * mean;
    }
    const auto intensities = pixelFrequencies(*data, 17);
    double pixelEntropy = 0.0;
    for (const auto& p : intensities) {
        pixelEntropy += directEntropy(p);
    }
    DS_COMPARE_REL(curves->entropyNats, pixelEntropy, 1e-12);
    auto channel = [&](int n, bool capped) {
        double total = 0.0;
        for (int d = 0; d < 64; ++d) {
            const double i = 0.5 * std::log(1.0 + schedule->alphaBar(n) * variance[d] /
                                                      schedule->betaBar(n));
            total += capped ? std::min(i, directEntropy(intensities[d])) : i;
        }
        return total;
    };
    QCOMPARE(static_cast<int>(curves->gaussian.size()), numSteps + 1);
    for (int n : {1, 2, numSteps / 4, numSteps / 2, numSteps - 1, numSteps}) {
        DS_COMPARE_ABS(curves->gaussianT[n], static_cast<double>(n) / numSteps, 1e-15);
        DS_COMPARE_REL(curves->gaussianNats[n], channel(n, false), 1e-9);
        DS_COMPARE_ABS(curves->gaussian[n], channel(n, true) / pixelEntropy, 1e-9);
    }

    // Both start at 1, end at about 0 and never rise.
    DS_COMPARE_ABS(curves->categorical.front(), 1.0, 1e-12);
    DS_COMPARE_ABS(curves->categorical.back(), 0.0, 1e-12);
    QCOMPARE(curves->gaussian.front(), 1.0);  // t = 0: infinite SNR, every pixel's entropy
    DS_COMPARE_ABS(curves->gaussian.back(), 0.0, 1e-3);
    for (const auto* curve : {&curves->categorical, &curves->gaussian}) {
        for (size_t i = 1; i < curve->size(); ++i) {
            QVERIFY2((*curve)[i] <= (*curve)[i - 1] + 1e-12,
                     qPrintable(QString("rises at %1: %2 → %3")
                                    .arg(i)
                                    .arg((*curve)[i - 1], 0, 'g', 17)
                                    .arg((*curve)[i], 0, 'g', 17)));
        }
    }
}

void tst_CompareCurves::informationLinearGivesAStraightLine() {
    // info-linear is solved on the same 64 pixels, so the fraction left is 1 − t.
    const auto data = readBundledDigits();
    DS_VERIFY_OK(data);
    CategoricalParams c = CategoricalParams::example().withDigits(4);
    c.schedule = test_support::categoricalSchedule("info-linear");
    const auto curves = core::project::computeCompareCurves(c, GaussianParams{}, *data);
    DS_VERIFY_OK(curves);
    for (size_t k = 0; k < curves->categoricalT.size(); k += 10) {
        DS_COMPARE_ABS(curves->categorical[k], 1.0 - curves->categoricalT[k], 1e-4);
    }
}

QTEST_MAIN(tst_CompareCurves)
#include "tst_compare_curves.moc"
