// SPDX-License-Identifier: MIT
// The checkpoints shipped in resources/models: they load, say what they were trained
// on, and work — the categorical digits network generates digits a nearest-class-mean classifier
// recognises, the moons network samples points on the moons.
#include <QTest>

#include <cmath>
#include <map>

#include "core/categorical/time_grid.h"
#include "core/data/digits.h"
#include "core/data/toys.h"
#include "core/gaussian/sampler.h"
#include "core/model/checkpoint.h"
#include "core/model/mlp_denoisers.h"
#include "core/project/decoding_runs.h"
#include "core/project/setup_sources.h"
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
    void maskedDigitsNetworkGivesTheMaskNothing();
    void maskedDigitsDecodeByMonteCarlo();
    void digitsReferenceIsTheRealImages();
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

// The masked digits network (K = 4 grey levels and the mask state 4): every prediction is a
// probability vector over the 4 levels with exactly 0 on the mask, and at a fully masked input
// (t = 1) it is close to the pixel's distribution among the training images of that label
// (nothing is revealed, so that is the exact F): mean total variation over pixels and labels
// below 0.1, while the marginal of another label (c + 1) is farther away.
void tst_BundledModels::maskedDigitsNetworkGivesTheMaskNothing() {
    auto loaded = core::model::loadMlpCheckpoint(kModels + "digits-masked-l4.safetensors");
    DS_VERIFY_OK(loaded);
    QVERIFY(loaded->info.maskState);
    QCOMPARE(loaded->info.numClasses, 5);
    QCOMPARE(loaded->info.numPositions, 64);
    QCOMPARE(loaded->info.numConditions, 10);
    QCOMPARE(loaded->info.dataSet, std::string("digits:levels=4"));
    QVERIFY(loaded->info.pi == std::vector<double>({0.0, 0.0, 0.0, 0.0, 1.0}));
    const auto& network = dynamic_cast<const core::model::CategoricalMlpDenoiser&>(*loaded->categorical);
    QCOMPARE(network.maskClass(), 4);
    auto digits = core::data::readDigits(DIFFUSCOPE_SOURCE_DIR "/resources/data/digits.csv.gz");
    DS_VERIFY_OK(digits);
    auto train = core::data::quantisedSplit(*digits, 4, true);
    DS_VERIFY_OK(train);
    // [label][pixel][level] frequencies among the training images.
    std::vector<double> freq(10 * 64 * 4, 0.0);
    std::vector<int> count(10, 0);
    for (size_t i = 0; i < train->labels.size(); ++i) {
        const int c = train->labels[i];
        ++count[c];
        for (int d = 0; d < 64; ++d) freq[(c * 64 + d) * 4 + train->rows[i * 64 + d]] += 1.0;
    }
    const std::vector<int> masked(64, 4);
    std::vector<double> f(64 * 5);
    double tvOwn = 0.0, tvOther = 0.0;
    for (int c = 0; c < 10; ++c) {
        network.predict(masked, c, {1.0, 1.0}, f);
        for (int d = 0; d < 64; ++d) {
            QCOMPARE(f[d * 5 + 4], 0.0);
            double sum = 0.0;
            for (int k = 0; k < 5; ++k) {
                QVERIFY(f[d * 5 + k] >= 0.0);
                sum += f[d * 5 + k];
            }
            DS_COMPARE_ABS(sum, 1.0, 1e-12);
            const int other = (c + 1) % 10;
            for (int k = 0; k < 4; ++k) {
                tvOwn += 0.5 * std::abs(f[d * 5 + k] - freq[(c * 64 + d) * 4 + k] / count[c]) / 640.0;
                tvOther += 0.5 * std::abs(f[d * 5 + k] - freq[(other * 64 + d) * 4 + k] / count[other]) / 640.0;
            }
        }
    }
    qInfo("fully masked: mean TV to the label's pixel marginals %.4f, to the next label's %.4f", tvOwn, tvOther);
    QVERIFY(tvOwn < 0.1);
    QVERIFY(tvOther > 2.0 * tvOwn);
    // evaluate's generation quality takes it at 4 levels with the mask besides: 50 per label at
    // 50 even steps of its schedule are mostly recognised (0.92 at 200 per label; 0.8 is 5 SE
    // below at this count).
    auto curve = core::schedule::parseBetaCurve(loaded->info.schedule, {}, "schedule");
    DS_VERIFY_OK(curve);
    const core::Vector pi = core::Vector::Unit(5, 4);
    auto quality = core::evaluation::digitsGenerationQuality(network, *digits, 4, pi,
                                                             core::categorical::evenTimeGrid(*curve, 50), 50, 1,
                                                             {.numThreads = 2});
    DS_VERIFY_OK(quality);
    qInfo("masked network: generation accuracy %.3f", quality->accuracy);
    QVERIFY(quality->accuracy >= 0.8);
    for (int v : quality->samples) QVERIFY(v >= 0 && v < 4);  // nothing left masked
    // A partly revealed input too: still 0 on the mask, whatever the time.
    std::vector<int> half(64, 4);
    for (int d = 0; d < 32; ++d) half[d] = train->rows[d];
    network.predict(half, train->labels[0], {0.5, 0.5}, f);
    for (int d = 0; d < 64; ++d) QCOMPARE(f[d * 5 + 4], 0.0);
}

// diffuscope decode's digits measures on the masked network, 3 chains per label at N = 4: the
// images classified are those of the Monte Carlo measures (the pooled per-pixel entropy of the
// kept outputs is the result's position_entropy), and the accuracy is the classifier's verdict
// on them, recomputed here.
void tst_BundledModels::maskedDigitsDecodeByMonteCarlo() {
    core::project::CategoricalParams p = core::project::CategoricalParams{}.withDigits(4);
    p.maskState = true;
    p.condition = core::project::kAllConditions;
    p.schedule = core::schedule::BetaCurveKind::Linear;
    p = p.withNumSteps(4);
    p.model = kModels + "digits-masked-l4.safetensors";
    const core::project::SetupSources sources = core::project::fileSources(
        DIFFUSCOPE_SOURCE_DIR "/resources/data/digits.csv.gz");
    auto setup = core::project::CategoricalSetup::build(p, sources, true);
    DS_VERIFY_OK(setup);
    QVERIFY((*setup)->usesNetwork);
    QVERIFY(core::project::decodesDigits(**setup));
    auto digits = sources.digits();
    DS_VERIFY_OK(digits);
    for (const char* order : {"ancestral", "confidence"}) {
        core::project::DecodeRequest request;
        auto parsed = core::categorical::parseDecodeOrder(order, "order");
        DS_VERIFY_OK(parsed);
        request.sampler.order = *parsed;
        request.samples = 3;
        request.seed = 5;
        request.trajectories = 3;
        auto r = core::project::projectDecodeDigits(**setup, request, **digits, 1);
        DS_VERIFY_OK(r);
        const auto& [result, measures] = *r;
        QCOMPARE(result.trajectories.size(), size_t{30});
        QCOMPARE(measures.count, int64_t{30});
        std::vector<double> marginal(64 * 5, 0.0);
        auto train = core::data::quantisedSplit(**digits, 4, true);
        const core::evaluation::NearestClassMean classifier(train->rows, train->labels);
        int right = 0;
        for (const auto& chain : result.trajectories) {
            const int* image = chain.states.data() + chain.states.size() - 64;
            for (int d = 0; d < 64; ++d) {
                QVERIFY(image[d] >= 0 && image[d] < 4);  // nothing is left masked
                marginal[d * 5 + image[d]] += 1.0 / 30.0;
            }
            right += classifier.classify(image) == chain.condition;
        }
        double entropy = 0.0;
        for (double m : marginal) entropy -= m > 0.0 ? m * std::log(m) / 64.0 : 0.0;
        QVERIFY(result.positionEntropy.value.has_value());
        DS_COMPARE_ABS(*result.positionEntropy.value, entropy, 1e-12);
        DS_COMPARE_ABS(measures.accuracy, right / 30.0, 1e-15);
        double perCondition = 0.0;
        for (double a : measures.perCondition) perCondition += a / 10.0;
        DS_COMPARE_ABS(perCondition, measures.accuracy, 1e-12);
        qInfo("%s, N = 4, 3 chains per label: accuracy %.3f, position entropy %.4f", order,
              measures.accuracy, entropy);
    }
    // The images are the chains' outputs, kept a few bytes each: only the trajectories asked
    // for keep their every state, and the measures are those of every chain's image (recounted
    // from the trajectories of a run that keeps them all).
    {
        core::project::DecodeRequest few;
        few.samples = 4;
        few.seed = 9;
        few.trajectories = 1;
        core::project::DecodeRequest all = few;
        all.trajectories = 4;
        auto one = core::project::projectDecodeDigits(**setup, few, **digits, 2);
        auto every = core::project::projectDecodeDigits(**setup, all, **digits, 1);
        DS_VERIFY_OK(one);
        DS_VERIFY_OK(every);
        QCOMPARE(one->first.trajectories.size(), size_t{10});
        QVERIFY(one->first.outputs.empty() && one->first.outputConditions.empty());
        QCOMPARE(every->first.trajectories.size(), size_t{40});
        auto recounted = core::project::digitsDecodeMeasures(every->first, **digits, 4);
        DS_VERIFY_OK(recounted);
        QCOMPARE(one->second.count, int64_t{40});
        QCOMPARE(recounted->count, int64_t{40});
        QCOMPARE(one->second.accuracy, recounted->accuracy);
        QCOMPARE(one->second.perCondition, recounted->perCondition);
        for (size_t i = 0; i < 10; ++i) {
            QCOMPARE(one->first.trajectories[i].states, every->first.trajectories[i].states);
        }
    }
    // Chains beyond the 4 GB rule are refused before any is run, with the arithmetic.
    core::project::DecodeRequest huge;
    huge.samples = 10'000'000;
    auto tooMany = core::project::projectDecodeDigits(**setup, huge, **digits, 1);
    QVERIFY(!tooMany);
    QCOMPARE(tooMany.error().field, std::string("samples"));
    QVERIFY2(QString::fromStdString(tooMany.error().toString()).contains("M·C·(3D + 324) bytes"),
             tooMany.error().toString().c_str());
    // One label only: its accuracy, the others not decoded.
    core::project::DecodeRequest one;
    one.samples = 2;
    one.condition = 7;
    auto seven = core::project::projectDecodeDigits(**setup, one, **digits, 1);
    DS_VERIFY_OK(seven);
    QCOMPARE(seven->second.count, int64_t{2});
    QVERIFY(std::isnan(seven->second.perCondition[0]));
    QVERIFY(!std::isnan(seven->second.perCondition[7]));
    QVERIFY(seven->first.trajectories.empty());
    // Exact decoding of 64 pixels is out of reach: the digits' measures need --samples.
    core::project::DecodeRequest exact;
    auto refused = core::project::projectDecodeDigits(**setup, exact, **digits, 1);
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, std::string("samples"));
}

// The reference the Decoding view draws: the classifier on the real training images of a label
// and their per-pixel entropy, recounted here image by image.
void tst_BundledModels::digitsReferenceIsTheRealImages() {
    auto digits = core::data::readDigits(DIFFUSCOPE_SOURCE_DIR "/resources/data/digits.csv.gz");
    DS_VERIFY_OK(digits);
    auto train = core::data::quantisedSplit(*digits, 4, true);
    DS_VERIFY_OK(train);
    const core::evaluation::NearestClassMean classifier(train->rows, train->labels);
    for (int label : {3, 8}) {
        std::vector<int> rows, labels;
        std::vector<std::map<int, int>> pixel(64);
        for (size_t i = 0; i < train->labels.size(); ++i) {
            if (train->labels[i] != label) continue;
            rows.insert(rows.end(), train->rows.begin() + static_cast<std::ptrdiff_t>(i * 64),
                        train->rows.begin() + static_cast<std::ptrdiff_t>(i * 64 + 64));
            labels.push_back(label);
            for (int d = 0; d < 64; ++d) ++pixel[d][train->rows[i * 64 + d]];
        }
        double entropy = 0.0;
        for (const auto& counts : pixel) {
            for (const auto& [level, n] : counts) {
                const double p = static_cast<double>(n) / static_cast<double>(labels.size());
                entropy -= p * std::log(p) / 64.0;
            }
        }
        auto reference = core::project::digitsReference(*digits, 4, label);
        DS_VERIFY_OK(reference);
        QCOMPARE(reference->accuracy, classifier.accuracy(rows, labels));
        QVERIFY(std::abs(reference->positionEntropy - entropy) < 1e-12);
    }
    // Every label: the labels' accuracies averaged with equal weights.
    double mean = 0.0;
    for (int label = 0; label < 10; ++label) mean += core::project::digitsReference(*digits, 4, label)->accuracy / 10;
    auto all = core::project::digitsReference(*digits, 4, -1);
    DS_VERIFY_OK(all);
    QVERIFY(std::abs(all->accuracy - mean) < 1e-12);
    auto refused = core::project::digitsReference(*digits, 4, 10);
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, std::string("condition"));
    QVERIFY(refused.error().toString().find("10") != std::string::npos);
}

QTEST_GUILESS_MAIN(tst_BundledModels)
#include "tst_bundled_models.moc"
