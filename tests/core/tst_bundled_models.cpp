// SPDX-License-Identifier: MIT
// The checkpoints shipped in resources/models: they load, say what they were trained
// on, and work — the categorical digits network generates digits a nearest-class-mean classifier
// recognises, the moons network samples points on the moons.
#include <QTest>

#include <cmath>

#include "core/categorical/time_grid.h"
#include "core/data/digits.h"
#include "core/data/toys.h"
#include "core/gaussian/sampler.h"
#include "core/model/checkpoint.h"
#include "core/evaluation/generation_quality.h"
#include "core/schedule/beta_curve.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/trajectory/least_cost_path.h"
#include "tests/support/test_support.h"

namespace {
const std::string kModels = DIFFUSCOPE_SOURCE_DIR "/resources/models/";
}

class tst_BundledModels : public QObject {
    Q_OBJECT

private slots:
    void metadataSaysWhatTheyAre();
    void categoricalDigitsGenerateRecognisableDigits();
    void moonsNetworkSamplesTheMoons();
};

void tst_BundledModels::metadataSaysWhatTheyAre() {
    auto digits4 = core::model::loadMlpCheckpoint(kModels + "digits-categorical-l4.safetensors");
    DS_VERIFY_OK(digits4);
    QCOMPARE(digits4->info.process, std::string("categorical"));
    QCOMPARE(digits4->info.numClasses, 4);
    QCOMPARE(digits4->info.numPositions, 64);
    QCOMPARE(digits4->info.numConditions, 10);
    QCOMPARE(digits4->info.dataSet, std::string("digits:levels=4"));
    auto digitsGaussian = core::model::loadMlpCheckpoint(kModels + "digits-gaussian.safetensors");
    DS_VERIFY_OK(digitsGaussian);
    QCOMPARE(digitsGaussian->gaussian->dimension(), 64);
    QCOMPARE(dynamic_cast<const core::model::GaussianMlpEpsModel&>(*digitsGaussian->gaussian).numSteps(), 1000);
    auto moons = core::model::loadMlpCheckpoint(kModels + "moons-gaussian.safetensors");
    DS_VERIFY_OK(moons);
    QCOMPARE(moons->gaussian->dimension(), 2);
    QCOMPARE(moons->info.dataSet, std::string("toy:moons,n=4000"));
}

// The quality bar: ≥ 85% of 200 samples per class at 50 even steps are labelled with their class
// by a nearest-class-mean classifier fitted on the real training images. The observed accuracy
// is 0.935 for this seed; with 2000 draws its standard error is ≈ 0.0055, so 0.85 is 15 SE
// below: a failure means the model or the sampler broke, not bad luck.
void tst_BundledModels::categoricalDigitsGenerateRecognisableDigits() {
    auto loaded = core::model::loadMlpCheckpoint(kModels + "digits-categorical-l4.safetensors");
    DS_VERIFY_OK(loaded);
    auto digits = core::data::readDigits(DIFFUSCOPE_SOURCE_DIR "/resources/data/digits.csv.gz");
    DS_VERIFY_OK(digits);
    auto curve = core::schedule::parseBetaCurve(loaded->info.schedule, {}, "schedule");
    DS_VERIFY_OK(curve);
    const core::Vector pi = core::Vector::Constant(4, 0.25);
    const auto grid = core::categorical::evenTimeGrid(*curve, 50);
    auto quality = core::evaluation::digitsGenerationQuality(*loaded->categorical, *digits, 4, pi, grid,
                                                        200, 1, {.numThreads = 2});
    DS_VERIFY_OK(quality);
    qInfo("generation accuracy %.3f (classifier on real test images %.3f)", quality->accuracy,
          quality->classifierTestAccuracy);
    QVERIFY(quality->accuracy >= 0.85);
    // The classifier itself is sound: well above chance on the real test images.
    QVERIFY(quality->classifierTestAccuracy > 0.7);
    // A label-blind check that the test can fail: samples for label c classified against the
    // wrong label (c + 1) are rarely "right".
    core::evaluation::NearestClassMean classifier(core::data::quantisedSplit(*digits, 4, true)->rows,
                                             core::data::quantisedSplit(*digits, 4, true)->labels);
    int shifted = 0;
    for (int i = 0; i < 2000; ++i) {
        shifted += classifier.classify(quality->samples.data() + i * 64) == (i / 200 + 1) % 10;
    }
    QVERIFY(shifted < 1000);
    for (double perClass : quality->perClassAccuracy) {
        QVERIFY(perClass >= 0.6);  // no label is left behind
    }
}

// DDPM with 100 even steps from the network: the samples lie close to the moons —
// their mean distance to the nearest of 4000 moon points is small compared with noise.
void tst_BundledModels::moonsNetworkSamplesTheMoons() {
    auto loaded = core::model::loadMlpCheckpoint(kModels + "moons-gaussian.safetensors");
    DS_VERIFY_OK(loaded);
    auto schedule = core::schedule::gaussianScheduleFromSpec("linear", 1000);
    DS_VERIFY_OK(schedule);
    core::gaussian::SamplerParams params;
    params.kind = core::gaussian::SamplerKind::Ddpm;
    params.count = 200;
    params.seed = 3;
    params.range = {-10.0, 10.0};
    auto trajectory = core::trajectory::gaussianEvenTrajectory(1000, 100);
    DS_VERIFY_OK(trajectory);
    auto samples = core::gaussian::sampleReverse(*loaded->gaussian, *schedule, {}, *trajectory, params);
    DS_VERIFY_OK(samples);
    const core::Matrix moons = core::data::makeToy(core::data::Toy::Moons, 4000, 0);
    auto meanNearest = [&](const core::Matrix& points) {
        double total = 0.0;
        for (int i = 0; i < points.cols(); ++i) {
            total += std::sqrt((moons.colwise() - points.col(i)).colwise().squaredNorm().minCoeff());
        }
        return total / points.cols();
    };
    const double model = meanNearest(samples->samples);
    // The same distance for N(0, I) noise (what an untrained network would roughly give).
    core::Matrix noise(2, 200);
    for (int i = 0; i < 200; ++i) {
        core::CounterRng rng(9, static_cast<uint64_t>(i), 0);
        noise(0, i) = rng.normal();
        noise(1, i) = rng.normal();
    }
    const double baseline = meanNearest(noise);
    qInfo("mean distance to the moons: network %.3f, N(0, I) %.3f", model, baseline);
    QVERIFY(model < 0.1);
    QVERIFY(model < baseline / 3.0);
}

QTEST_GUILESS_MAIN(tst_BundledModels)
#include "tst_bundled_models.moc"
