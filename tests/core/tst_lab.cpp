// SPDX-License-Identifier: MIT
// core/project/lab: configuration specs (round trip, refusals naming key and value), the
// settings in a project file, and a small run checked piece by piece against direct calls of
// resolveTrajectory, negativeElbo, sampleReverse and sampleQuality, with λ and σ by hand.
#include <QElapsedTimer>
#include <QTest>

#include <algorithm>

#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "core/gaussian/gamma.h"
#include "core/gaussian/nll.h"
#include "core/gaussian/sampler.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/project/gaussian_setup.h"
#include "core/project/lab.h"
#include "core/project/project_file.h"
#include "core/schedule/gaussian_schedule.h"
#include "tests/support/test_support.h"

using core::project::GaussianParams;
using core::project::LabConfig;
using core::project::LabSettings;
using core::gaussian::ReverseVariance;

class tst_Lab : public QObject {
    Q_OBJECT
private slots:
    void logSigmaStepsAndRatios();
    void specRoundTrip_data();
    void specRoundTrip();
    void specRefusals_data();
    void specRefusals();
    void settingsRefusals_data();
    void settingsRefusals();
    void trajectorySpecs();
    void paletteAndPresets();
    void settingsRoundTripInProject();
    void olderProjectsOpenAndBadLabIsNamed();
    void smallRunMatchesDirectCalls();
    void resultIsTheSameForOneAndTwoThreads();
    void aBadConfigurationFailsAlone();
    void cancelStopsTheRun();
    void tooLargeIsRefusedBeforeRunning();
    void csvAndJsonShapes();
    void identicalTimestepsShareTheDraws();
};

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The small set-up of the run tests: two moons with their exact oracle, N = 100, M = 8.
GaussianParams smallParams() {
    GaussianParams p;
    p.data = "toy:moons,n=300";
    p.numSteps = 100;
    p.gammaSamples = 8;
    p.seed = 7;
    return p;
}

LabSettings smallSettings() {
    LabSettings s;
    s.ks = {5, 10};
    s.qualitySamples = 40;
    s.nllPoints = 60;
    auto a = core::project::parseLabConfig("name=trailing β̃;trajectory=trailing;variance=small;sampler=ddpm");
    auto b = core::project::parseLabConfig("name=leading;trajectory=leading,offset=1");
    auto c = core::project::parseLabConfig(
        "name=cosine;schedule=cosine;trajectory=logsnr;variance=large;sampler=ddim");
    s.configs = {*a, *b, *c};
    return s;
}

class CancelAfter : public core::ProgressObserver {
public:
    explicit CancelAfter(int calls) : m_left(calls) {}
    core::Control onProgress(double, const std::string&) override {
        return --m_left <= 0 ? core::Control::Abort : core::Control::Continue;
    }

private:
    int m_left;
};

}  // namespace

void tst_Lab::specRoundTrip_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("empty: all defaults") << "";
    QTest::newRow("every key") << "name=A b;colour=#12ab9F;schedule=cosine,zero-snr;"
                                  "trajectory=karras,rho=5;variance=large;sampler=ddim";
    QTest::newRow("leading offset") << "trajectory=leading,offset=2;variance=small";
    QTest::newRow("project's with zero snr") << "schedule=,zero-snr;trajectory=trailing";
    QTest::newRow("csv schedule") << "schedule=csv:/tmp/b.csv;trajectory=dp;sampler=dpm-solver++3m";
}

void tst_Lab::specRoundTrip() {
    QFETCH(QString, text);
    auto parsed = core::project::parseLabConfig(text.toStdString());
    DS_VERIFY_OK(parsed);
    const std::string formatted = core::project::formatLabConfig(*parsed);
    auto again = core::project::parseLabConfig(formatted);
    DS_VERIFY_OK(again);
    QVERIFY2(*again == *parsed, formatted.c_str());
    QCOMPARE(core::project::formatLabConfig(*again), formatted);
}

void tst_Lab::specRefusals_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::newRow("unknown key") << "name=a;speed=3" << "speed" << "3";
    QTest::newRow("bad variance") << "variance=huge" << "variance" << "huge";
    QTest::newRow("bad sampler") << "sampler=euler" << "sampler" << "euler";
    QTest::newRow("bad trajectory") << "trajectory=zigzag" << "trajectory" << "zigzag";
    QTest::newRow("K given") << "trajectory=even:10" << "trajectory" << "even:10";
    QTest::newRow("option on even") << "trajectory=even,rho=3" << "trajectory" << "even,rho=3";
    QTest::newRow("bad rho") << "trajectory=karras,rho=-1" << "trajectory" << "karras,rho=-1";
    QTest::newRow("bad schedule") << "schedule=quadratic" << "schedule" << "quadratic";
    QTest::newRow("bad colour") << "colour=red" << "colour" << "red";
    QTest::newRow("no =") << "trailing" << "config" << "trailing";
    QTest::newRow("twice") << "variance=small;variance=large" << "variance" << "large";
}

void tst_Lab::specRefusals() {
    QFETCH(QString, text);
    QFETCH(QString, field);
    QFETCH(QString, value);
    auto parsed = core::project::parseLabConfig(text.toStdString());
    QVERIFY(!parsed);
    const std::string message = parsed.error().toString();
    QVERIFY2(parsed.error().field == field.toStdString(), message.c_str());
    QVERIFY2(parsed.error().value == value.toStdString(), message.c_str());
    QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
}

void tst_Lab::settingsRefusals_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::newRow("K over N") << 0 << "lab.ks" << "5,200";
    QTest::newRow("K not increasing") << 1 << "lab.ks" << "10,5";
    QTest::newRow("K below 2") << 2 << "lab.ks" << "1,5";
    QTest::newRow("same name") << 3 << "lab.configs[1].name" << "a";
    QTest::newRow("one quality sample") << 4 << "lab.qualitySamples" << "1";
    QTest::newRow("too many configurations") << 5 << "lab.configs" << "17";
    QTest::newRow("offset too large at K") << 6 << "lab.configs[0].trajectory" << "leading,offset=9";
    QTest::newRow("no K") << 7 << "lab.ks" << "";
    QTest::newRow("bad colour in settings") << 8 << "lab.configs[0].colour" << "#12345";
}

void tst_Lab::settingsRefusals() {
    QFETCH(int, which);
    QFETCH(QString, field);
    QFETCH(QString, value);
    LabSettings s;
    s.configs = {LabConfig{.name = "a"}, LabConfig{.name = "b"}};
    QVERIFY(s.validate(100).ok());
    switch (which) {
        case 0: s.ks = {5, 200}; break;
        case 1: s.ks = {10, 5}; break;
        case 2: s.ks = {1, 5}; break;
        case 3: s.configs[1].name = "a"; break;
        case 4: s.qualitySamples = 1; break;
        case 5: s.configs.assign(17, LabConfig{}); for (int i = 0; i < 17; ++i) s.configs[i].name = std::to_string(i); break;
        case 6: s.configs[0].trajectory = "leading,offset=9"; s.ks = {5, 50}; break;  // 49·2 + 9 > 99
        case 7: s.ks.clear(); break;
        case 8: s.configs[0].colour = "#12345"; break;
    }
    const core::Status status = s.validate(100);
    QVERIFY(!status.ok());
    const std::string message = status.error().toString();
    QVERIFY2(status.error().field == field.toStdString(), message.c_str());
    QVERIFY2(status.error().value.find(value.toStdString()) != std::string::npos, message.c_str());
}

void tst_Lab::trajectorySpecs() {
    QCOMPARE(LabConfig{.trajectory = "trailing"}.trajectorySpec(25), std::string("trailing:25"));
    QCOMPARE(LabConfig{.trajectory = "leading,offset=1"}.trajectorySpec(25),
             std::string("leading:25,offset=1"));
    QCOMPARE(LabConfig{.trajectory = "karras,rho=3"}.trajectorySpec(5), std::string("karras:5,rho=3"));
    QCOMPARE(core::project::labSchedule(LabConfig{.schedule = ",zero-snr"}, "cosine"),
             std::string("cosine,zero-snr"));
    QCOMPARE(core::project::labSchedule(LabConfig{.schedule = ",zero-snr"}, "cosine,zero-snr"),
             std::string("cosine,zero-snr"));
    QCOMPARE(core::project::labSchedule(LabConfig{}, "sigmoid"), std::string("sigmoid"));
    QCOMPARE(core::project::labSchedule(LabConfig{.schedule = "linear"}, "sigmoid"),
             std::string("linear"));
}

void tst_Lab::paletteAndPresets() {
    std::set<std::string> colours;
    for (int i = 0; i < 8; ++i) colours.insert(core::project::labColour(LabConfig{}, i));
    QCOMPARE(colours.size(), size_t(8));
    QVERIFY(!colours.count(core::project::kLabReferenceColour));
    QCOMPARE(core::project::labColour(LabConfig{}, 8), core::project::labColour(LabConfig{}, 0));
    QCOMPARE(core::project::labColour(LabConfig{.colour = "#010203"}, 3), std::string("#010203"));
    std::set<std::string> ids;
    for (const auto& preset : core::project::labPresets()) {
        ids.insert(preset.id);
        LabSettings s;
        s.configs = preset.configs;
        if (!preset.ks.empty()) s.ks = preset.ks;
        QVERIFY2(s.validate(1000).ok(), preset.id.c_str());
        QVERIFY(!preset.explanation.empty() && !preset.title.empty());
    }
    QCOMPARE(ids, (std::set<std::string>{"leading-without-zero-snr", "ddpm-small-k",
                                         "karras-on-linear"}));
}

void tst_Lab::settingsRoundTripInProject() {
    core::project::Project p;
    p.process = core::project::ProcessKind::Gaussian;
    p.gaussian.lab = smallSettings();
    p.gaussian.lab.configs[0].colour = "#aabbcc";
    p.gaussian.lab.configs[1].schedule = ",zero-snr";
    p.gaussian.lab.qualitySamples = 0;
    const std::string text = core::project::projectToJson(p, "/tmp/lab.diffuscope.json");
    QVERIFY(text.find("\"lab\"") != std::string::npos);
    auto back = core::project::projectFromJson(text, "/tmp/lab.diffuscope.json");
    DS_VERIFY_OK(back);
    QVERIFY(back->gaussian.lab == p.gaussian.lab);
    QVERIFY(*back == p);
}

void tst_Lab::olderProjectsOpenAndBadLabIsNamed() {
    core::project::Project p;
    const std::string text = core::project::projectToJson(p, "/tmp/old.json");
    QVERIFY(text.find("\"lab\"") == std::string::npos);  // default lab: not written
    auto back = core::project::projectFromJson(text, "/tmp/old.json");
    DS_VERIFY_OK(back);
    QVERIFY(back->gaussian.lab == LabSettings{});

    core::io::Json json = core::io::Json::parse(text);
    json["gaussian"]["lab"] = {{"configs", {{{"name", "x"}, {"variance", "huge"}}}}};
    auto bad = core::project::projectFromJson(json.dump(), "/tmp/bad.json");
    QVERIFY(!bad);
    const std::string message = bad.error().toString();
    QVERIFY2(message.find("gaussian.lab.configs[0].variance") != std::string::npos, message.c_str());
    QVERIFY2(message.find("huge") != std::string::npos, message.c_str());
}

void tst_Lab::smallRunMatchesDirectCalls() {
    const GaussianParams params = smallParams();
    const LabSettings settings = smallSettings();
    const core::project::SetupSources sources = core::project::fileSources();
    auto result = core::project::runLab(params, settings, sources, {});
    DS_VERIFY_OK(result);
    QCOMPARE(result->curves.size(), size_t(3));
    QCOMPARE(result->numSteps, 100);

    auto setup = core::project::GaussianSetup::build(params, sources, true);
    DS_VERIFY_OK(setup);
    const core::model::GaussianDataSampler& data = *setup->data;
    // Γ as the project estimates it: its estimator, M and seed, on every timestep.
    auto gammaOn = [&](const core::schedule::GaussianSchedule& schedule) {
        core::gaussian::GammaParams g{.numSamples = params.gammaSamples,
                                      .seed = params.seed,
                                      .estimator = setup->estimator};
        auto estimate = core::gaussian::estimateGamma(*setup->model, data, schedule, g);
        return *core::gaussian::gammaTable(*estimate, schedule.numSteps());
    };
    auto cosine = core::schedule::gaussianScheduleFromSpec("cosine", 100);
    DS_VERIFY_OK(cosine);
    const std::vector<double> linearGamma = gammaOn(setup->schedule);

    auto check = [&](const core::project::LabCurve& curve,
                     const core::schedule::GaussianSchedule& schedule,
                     const std::vector<double>& gamma) {
        QVERIFY2(curve.error.empty(), curve.error.c_str());
        QCOMPARE(curve.runs.size(), settings.ks.size());
        for (size_t i = 0; i < settings.ks.size(); ++i) {
            const core::project::LabRun& run = curve.runs[i];
            const int k = settings.ks[i];
            auto t = core::gaussian::resolveTrajectory(curve.config.trajectorySpec(k), schedule,
                                                       gamma.empty() ? nullptr : &gamma);
            DS_VERIFY_OK(t);
            QCOMPARE(run.timesteps, t->timesteps);
            QCOMPARE(run.k, static_cast<int>(t->timesteps.size()));
            // λ = ½ log(ᾱ/(1 − ᾱ)) and σ = √((1 − ᾱ)/ᾱ) from ᾱ alone.
            for (size_t j = 0; j < run.timesteps.size(); ++j) {
                const double a = schedule.alphaBar(run.timesteps[j]);
                DS_COMPARE_REL(run.logSnr[j], 0.5 * std::log(a / (1.0 - a)), 1e-9);
                DS_COMPARE_REL(run.sigma[j], std::sqrt((1.0 - a) / a), 1e-9);
            }
            const auto variance = curve.config.variance == ReverseVariance::Small
                                      ? core::gaussian::ReverseVariance::Small
                                  : curve.config.variance == ReverseVariance::Large
                                      ? core::gaussian::ReverseVariance::Large
                                      : core::gaussian::ReverseVariance::Analytic;
            core::gaussian::NllParams nllParams{.variance = variance,
                                                .numSamples = settings.nllPoints,
                                                .seed = params.seed};
            auto nll = core::gaussian::negativeElbo(*setup->model, data, schedule, gamma,
                                                    run.timesteps, nllParams);
            DS_VERIFY_OK(nll);
            DS_COMPARE_REL(run.nllBitsPerDim, nll->bitsPerDim, 1e-12);
            DS_COMPARE_REL(run.nllStandardError, nll->standardError, 1e-12);
            QCOMPARE(run.terms.size(), nll->pairs.size() + 2);
            QCOMPARE(run.terms.front().s, -1);  // the prior first, the decoder last
            QCOMPARE(run.terms.back().s, 0);
            double sum = 0.0;
            for (const auto& term : run.terms) sum += term.bitsPerDim;
            DS_COMPARE_REL(sum, run.nllBitsPerDim, 1e-9);
            // The samples and their quality, as sampleReverse and sampleQuality give them.
            core::gaussian::SamplerParams sp{
                .kind = curve.config.sampler,
                .eta = 0.0,  // the lab's DDIM is the deterministic one
                .ddpmVariance = curve.config.variance == ReverseVariance::Large
                                    ? core::gaussian::BaselineVariance::Large
                                    : core::gaussian::BaselineVariance::Small,
                .clipFirst = params.clipFirst ? core::project::kClipFirstY : 0.0,
                .count = settings.qualitySamples,
                .seed = params.seed};
            auto samples = core::gaussian::sampleReverse(*setup->model, schedule, gamma,
                                                         run.timesteps, sp);
            DS_VERIFY_OK(samples);
            auto quality = core::project::sampleQuality(samples->samples, params.data,
                                                           params.seed, sources);
            DS_VERIFY_OK(quality);
            QVERIFY(run.quality.has_value());
            QCOMPARE(run.quality->measure, quality->measure);
            QCOMPARE(run.quality->value, quality->value);
            QCOMPARE(run.quality->numSamples, settings.qualitySamples);
        }
    };
    check(result->curves[0], setup->schedule, linearGamma);
    check(result->curves[1], setup->schedule, linearGamma);
    check(result->curves[2], *cosine, {});  // β, ddim: no Γ needed on cosine
    // The reference is dp:K on the project's schedule with the analytic variance.
    QCOMPARE(result->reference.config.trajectory, std::string("dp"));
    check(result->reference, setup->schedule, linearGamma);
    QVERIFY(result->curves[1].runs[0].note.find("N(0, I)") != std::string::npos ||
            !result->curves[1].runs[0].note.empty());  // leading ends before N
}

void tst_Lab::resultIsTheSameForOneAndTwoThreads() {
    const GaussianParams params = smallParams();
    LabSettings settings = smallSettings();
    settings.ks = {5};  // one K keeps it short: the quality's reference has 2000 points
    settings.configs.push_back(*core::project::parseLabConfig(
        "name=zero;schedule=,zero-snr;trajectory=trailing;sampler=dpm-solver++2m"));
    const auto sources = core::project::fileSources();
    auto one = core::project::runLab(params, settings, sources, {.numThreads = 1});
    auto two = core::project::runLab(params, settings, sources, {.numThreads = 2});
    DS_VERIFY_OK(one);
    DS_VERIFY_OK(two);
    QCOMPARE(core::project::labToJson(*one).dump(), core::project::labToJson(*two).dump());
    QCOMPARE(core::project::labToCsv(*one), core::project::labToCsv(*two));
    // The zero-SNR end: σ = +∞ and λ = −∞ there, said in the note, null in JSON.
    const auto& zero = one->curves[3];
    QVERIFY2(zero.error.empty(), zero.error.c_str());
    QCOMPARE(zero.runs[0].timesteps.back(), 100);
    QVERIFY(std::isinf(zero.runs[0].sigma.back()) && zero.runs[0].sigma.back() > 0);
    QVERIFY(std::isinf(zero.runs[0].logSnr.back()) && zero.runs[0].logSnr.back() < 0);
    QVERIFY(zero.runs[0].note.find("infinite") != std::string::npos);
    const auto json = core::project::labToJson(*one);
    QVERIFY(json["configs"][3]["runs"][0]["sigma"].back().is_null());
}

void tst_Lab::aBadConfigurationFailsAlone() {
    const GaussianParams params = smallParams();
    LabSettings settings = smallSettings();
    settings.configs[2].schedule = "csv:/nonexistent/beta.csv";
    auto result = core::project::runLab(params, settings, core::project::fileSources(), {});
    DS_VERIFY_OK(result);
    QVERIFY(!result->curves[2].error.empty());
    QVERIFY(result->curves[2].runs.empty());
    QVERIFY2(result->curves[2].error.find("/nonexistent/beta.csv") != std::string::npos,
             result->curves[2].error.c_str());
    QVERIFY(result->curves[0].error.empty() && result->curves[0].runs.size() == 2);
    QVERIFY(result->reference.error.empty());
    // Its rows say why, one per K.
    const std::string csv = core::project::labToCsv(*result);
    QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 1 + 4 * 2L);
}

void tst_Lab::cancelStopsTheRun() {
    const GaussianParams params = smallParams();
    for (int calls : {1, 3}) {
        CancelAfter observer(calls);
        core::Progress progress(&observer);
        QElapsedTimer timer;
        timer.start();
        auto result = core::project::runLab(params, smallSettings(), core::project::fileSources(),
                                            {}, &progress);
        QVERIFY(!result);
        QCOMPARE(result.error().code, core::ErrorCode::Cancelled);
        QVERIFY(timer.elapsed() < 5000);
    }
}

void tst_Lab::tooLargeIsRefusedBeforeRunning() {
    GaussianParams params = smallParams();
    params.data = "gaussian:d=65536,s=0.5";
    LabSettings settings = smallSettings();
    settings.qualitySamples = 10000;
    auto result = core::project::runLab(params, settings, core::project::fileSources(), {});
    QVERIFY(!result);
    QCOMPARE(result.error().field, std::string("lab.qualitySamples"));
    QVERIFY(result.error().toString().find("10000") != std::string::npos);
    settings.configs.clear();
    result = core::project::runLab(smallParams(), settings, core::project::fileSources(), {});
    QVERIFY(!result);
    QCOMPARE(result.error().field, std::string("lab.configs"));
}

// Every configuration of a run uses the NLL points, the noise and the samples' seed of the
// reference: a configuration `dp` on the project's schedule is the DP optimum, to the bit. When
// another spacing scores below the reference, the reference's note says why, with the numbers.
void tst_Lab::identicalTimestepsShareTheDraws() {
    GaussianParams params = smallParams();
    LabSettings settings = smallSettings();
    auto dp = core::project::parseLabConfig("name=dp;trajectory=dp");
    auto logsnr = core::project::parseLabConfig("name=logsnr;trajectory=logsnr");
    settings.configs = {*logsnr, *dp};
    settings.ks = {3, 5, 10};
    auto result = core::project::runLab(params, settings, core::project::fileSources(), {.numThreads = 2});
    QVERIFY2(result, result ? "" : result.error().toString().c_str());
    const auto& mine = result->curves[1];
    QCOMPARE(mine.runs.size(), result->reference.runs.size());
    for (size_t i = 0; i < mine.runs.size(); ++i) {
        const auto& a = mine.runs[i];
        const auto& b = result->reference.runs[i];
        QCOMPARE(a.timesteps, b.timesteps);
        QCOMPARE(a.nllBitsPerDim, b.nllBitsPerDim);  // bitwise: the same draws
        QCOMPARE(a.nllStandardError, b.nllStandardError);
        QVERIFY(a.quality && b.quality);
        QCOMPARE(a.quality->value, b.quality->value);
    }
    // The note names the configuration, both NLLs, and splits the difference into the terms.
    for (size_t i = 0; i < result->reference.runs.size(); ++i) {
        const auto& ref = result->reference.runs[i];
        const auto& other = result->curves[0].runs[i];
        const bool beaten = other.nllBitsPerDim < ref.nllBitsPerDim;
        const bool explained = ref.note.find("logsnr scores") != std::string::npos;
        QCOMPARE(explained, beaten);
        if (beaten) {
            QVERIFY2(ref.note.find("the DP minimises the step costs J") != std::string::npos &&
                         ref.note.find("the decoder") != std::string::npos,
                     ref.note.c_str());
        }
    }
}

void tst_Lab::csvAndJsonShapes() {
    core::project::LabResult r;
    r.numSteps = 10;
    r.data = "toy:moons";
    r.model = "oracle";
    r.schedule = "linear";
    r.ks = {2};
    core::project::LabRun run{.k = 2, .timesteps = {1, 10}, .logSnr = {1.0, -INFINITY},
                              .sigma = {0.5, INFINITY}, .nllBitsPerDim = 3.5,
                              .nllStandardError = kNaN, .note = "a, \"b\""};
    r.curves.push_back({.config = LabConfig{.name = "x,y"}, .colour = "#000001", .runs = {run}});
    r.reference.config.name = "DP optimum";
    r.reference.error = "no Γ";
    const std::string csv = core::project::labToCsv(r);
    QCOMPARE(csv.substr(0, csv.find('\n')),
             std::string("config,schedule,trajectory,variance,sampler,k,nll_bpd,nll_se,"
                         "quality_measure,quality,quality_se,timesteps,log_sigma_steps,"
                         "log_sigma_step_ratios,note"));
    // σ = 0.5 then ∞: one step, infinite; no ratio.
    QVERIFY2(csv.find("\"x,y\",linear,even,analytic,analytic-ddpm,2,3.5,,,,,1 10,inf,,\"a, \"\"b\"\"\"") !=
                 std::string::npos, csv.c_str());
    QVERIFY2(csv.find("DP optimum,linear,even,analytic,analytic-ddpm,2,,,,,,,,,error: no Γ") !=
                 std::string::npos, csv.c_str());
    const auto json = core::project::labToJson(r);
    QVERIFY(json["configs"][0]["runs"][0]["sigma"][1].is_null());
    QVERIFY(json["configs"][0]["runs"][0]["nll_standard_error"].is_null());
    QVERIFY(json["configs"][0]["runs"][0]["quality"].is_null());
    QCOMPARE(json["reference"]["error"].get<std::string>(), std::string("no Γ"));
}

QTEST_GUILESS_MAIN(tst_Lab)
// Steps in log σ and their ratios, against σ chosen with known logarithms.
void tst_Lab::logSigmaStepsAndRatios() {
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> sigma = {std::exp(-2.0), std::exp(-1.0), std::exp(0.5), std::exp(3.5)};
    const std::vector<double> steps = core::project::logSigmaSteps(sigma);
    QCOMPARE(steps.size(), size_t(3));
    DS_COMPARE_REL(steps[0], 1.0, 1e-12);
    DS_COMPARE_REL(steps[1], 1.5, 1e-12);
    DS_COMPARE_REL(steps[2], 3.0, 1e-12);
    const std::vector<double> ratios = core::project::logSigmaStepRatios(steps);
    QCOMPARE(ratios.size(), size_t(2));
    DS_COMPARE_REL(ratios[0], 1.5, 1e-12);
    DS_COMPARE_REL(ratios[1], 2.0, 1e-12);
    // Into a zero-SNR end: an infinite step, no ratio.
    const std::vector<double> zero = core::project::logSigmaSteps({1.0, std::exp(1.0), inf});
    QCOMPARE(zero[1], inf);
    QVERIFY(std::isnan(core::project::logSigmaStepRatios(zero)[0]));
    QVERIFY(core::project::logSigmaSteps({2.0}).empty());
}

#include "tst_lab.moc"
