// SPDX-License-Identifier: MIT
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/model/checkpoint.h"
#include "core/model/oracle_specs.h"
#include "core/project/gaussian_params.h"
#include "core/project/project_file.h"
#include "core/schedule/diffusers_config.h"
#include "core/schedule/gaussian_schedule.h"
#include "tests/support/test_support.h"

using namespace core::schedule;

class tst_DiffusersConfig : public QObject {
    Q_OBJECT

private slots:
    void tables_data();
    void tables();
    void trainedBetas();
    void keysAndNote();
    void refusals_data();
    void refusals();
    void specs();
    void projectFileKeepsThePath();
    void spacingNamesTheTrajectory();
    void predictionTypeAgainstTheContract();
    void pipelineTimestepsText();
    void eulerTimestepsAndSigmas();

private:
    QTemporaryDir m_dir;
    std::string write(const std::string& name, const std::string& text) {
        const std::string path = m_dir.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path) << text;
        return path;
    }
};

// The expected values come from this one-off (Python, float32 emulated with struct; torch's
// CPU linspace, betas_for_alpha_bar in double, rescale_zero_terminal_snr in float32, cumprod
// accumulated in double and rounded per entry), N = 1000:
//   def f(x): return struct.unpack('f', struct.pack('f', x))[0]
//   def linspace(a, b, n):
//       a, b = f(a), f(b); step = f(f(b - a) / f(n - 1)); h = n // 2
//       return [f(a + f(step*i)) if i < h else f(b - f(step*(n - i - 1))) for i in range(n)]
//   def cumprod(x): p = 1.0; out = []; [p := p*v, out.append(f(p))] per v
//   linear: linspace(bs, be); scaled_linear: [f(v*v) for v in linspace(bs**0.5, be**0.5)]
//   squaredcos_cap_v2: f(min(1 - ab((i+1)/n)/ab(i/n), 0.999)), ab(t) = cos((t+0.008)/1.008·π/2)²
//   sigmoid: f(f(f(1/(1+exp(-x)))·f(be-bs)) + f(bs)) for x in linspace(-6, 6)
//   rescale: a = f(1-β); s = f(sqrt(cumprod(a))); k = f(s0/f(s0-sT)); s = f(f(s-sT)·k);
//            ab = f(s²); α = [ab0] + f(ab_i/ab_{i-1}); β = f(1-α)
//   ᾱ = cumprod(f(1 - β))
// Columns: β_1, β_500, β_999, β_1000, ᾱ_1, ᾱ_500, ᾱ_999, ᾱ_1000 (printed with 9 digits, which
// identify a float exactly).
void tst_DiffusersConfig::tables_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("zeroSnr");
    for (const char* c : {"b1", "b500", "b999", "b1000", "a1", "a500", "a999", "a1000"}) {
        QTest::addColumn<double>(c);
    }
    QTest::newRow("linear") << QString("linear") << false << 9.99999975e-05 << 0.0100400401 << 0.0199800804 << 0.0199999996 << 0.999899983 << 0.0785872489 << 4.11819456e-05 << 4.03583072e-05;
    QTest::newRow("linear,zero-snr") << QString("linear") << true << 0.000100016594 << 0.0102710128 << 0.752269506 << 1.0 << 0.999899983 << 0.0760287642 << 4.21321689e-09 << 0.0;
    QTest::newRow("scaled_linear") << QString("scaled_linear") << false << 0.000849999953 << 0.00480379257 << 0.0119823748 << 0.0119999992 << 0.999149978 << 0.27766943 << 0.00471669575 << 0.00466009509;
    QTest::newRow("scaled_linear,zero-snr") << QString("scaled_linear") << true << 0.000850021839 << 0.00551575422 << 0.751131773 << 1.0 << 0.999149978 << 0.242358983 << 1.96796279e-07 << 0.0;
    QTest::newRow("squaredcos_cap_v2") << QString("squaredcos_cap_v2") << false << 4.12842237e-05 << 0.00314588612 << 0.749999404 << 0.999000013 << 0.999958694 << 0.493843466 << 2.42876627e-06 << 2.42873499e-09;
    QTest::newRow("squaredcos_cap_v2,zero-snr") << QString("squaredcos_cap_v2") << true << 4.12464142e-05 << 0.00314611197 << 0.757967591 << 1.0 << 0.999958754 << 0.4938232 << 2.27781334e-06 << 0.0;
    QTest::newRow("sigmoid") << QString("sigmoid") << false << 0.000149205196 << 0.010020121 << 0.0199502017 << 0.0199507941 << 0.99985081 << 0.301930994 << 4.04896236e-05 << 3.96818214e-05;
    QTest::newRow("sigmoid,zero-snr") << QString("sigmoid") << true << 0.000149250031 << 0.0101355314 << 0.752506554 << 1.0 << 0.99985075 << 0.298800766 << 4.12152534e-09 << 0.0;
}

void tst_DiffusersConfig::tables() {
    QFETCH(QString, kind);
    QFETCH(bool, zeroSnr);
    const double bs = kind == "scaled_linear" ? 0.00085 : 0.0001;
    const double be = kind == "scaled_linear" ? 0.012 : 0.02;
    const std::string text = "{\"num_train_timesteps\": 1000, \"beta_schedule\": \"" +
                             kind.toStdString() + "\", \"beta_start\": " + std::to_string(bs) +
                             ", \"beta_end\": " + std::to_string(be) +
                             ", \"rescale_betas_zero_snr\": " + (zeroSnr ? "true" : "false") + "}";
    auto config = parseDiffusersConfig(text, "config");
    DS_VERIFY_OK(config);
    auto schedule = diffusersSchedule(*config, "config");
    DS_VERIFY_OK(schedule);
    QCOMPARE(schedule->numSteps(), 1000);
    QFETCH(double, b1);
    QFETCH(double, b500);
    QFETCH(double, b999);
    QFETCH(double, b1000);
    QFETCH(double, a1);
    QFETCH(double, a500);
    QFETCH(double, a999);
    QFETCH(double, a1000);
    const int ns[] = {1, 500, 999, 1000};
    const double betas[] = {b1, b500, b999, b1000};
    const double alphaBars[] = {a1, a500, a999, a1000};
    for (int i = 0; i < 4; ++i) {
        // The expected values are floats: the table's entries must be exactly those floats.
        QCOMPARE(schedule->beta(ns[i]), static_cast<double>(static_cast<float>(betas[i])));
        QCOMPARE(schedule->alphaBar(ns[i]), static_cast<double>(static_cast<float>(alphaBars[i])));
    }
    QCOMPARE(schedule->zeroTerminalSnr(), zeroSnr);
    // Invariants: ᾱ decreasing, β̄ = 1 − ᾱ.
    for (int n = 1; n <= 1000; ++n) {
        QVERIFY(schedule->alphaBar(n) < schedule->alphaBar(n - 1));
        QCOMPARE(schedule->betaBar(n), 1.0 - schedule->alphaBar(n));
    }
}

// trained_betas wins over beta_schedule; ᾱ is the float cumulative product of 1 − β.
void tst_DiffusersConfig::trainedBetas() {
    auto config = parseDiffusersConfig(
        R"({"num_train_timesteps": 3, "beta_schedule": "linear", "trained_betas": [0.1, 0.2, 0.3]})",
        "c");
    DS_VERIFY_OK(config);
    auto schedule = diffusersSchedule(*config, "c");
    DS_VERIFY_OK(schedule);
    QCOMPARE(schedule->beta(2), static_cast<double>(0.2f));
    const float a1 = 1.0f - 0.1f;
    const float a2 = 1.0f - 0.2f;
    const float a3 = 1.0f - 0.3f;
    QCOMPARE(schedule->alphaBar(1), static_cast<double>(a1));
    QCOMPARE(schedule->alphaBar(2), static_cast<double>(static_cast<float>(double(a1) * a2)));
    QCOMPARE(schedule->alphaBar(3),
             static_cast<double>(static_cast<float>(double(a1) * a2 * a3)));
}

// The keys read, and a note for the others (never silently dropped).
void tst_DiffusersConfig::keysAndNote() {
    auto config = parseDiffusersConfig(R"({"_class_name": "DDIMScheduler", "num_train_timesteps": 1000,
        "timestep_spacing": "leading", "steps_offset": 1, "prediction_type": "v_prediction",
        "clip_sample": false, "trained_betas": null})", "cfg.json");
    DS_VERIFY_OK(config);
    QCOMPARE(config->timestepSpacing, std::string("leading"));
    QCOMPARE(config->stepsOffset, 1);
    QCOMPARE(config->predictionType, std::string("v_prediction"));
    QVERIFY(config->trainedBetas.empty());
    QCOMPARE(diffusersConfigNote(*config, "cfg.json"),
             std::string("cfg.json: keys not used here: clip_sample"));
    QCOMPARE(config->className, std::string("DDIMScheduler"));
    QCOMPARE(diffusersTrajectorySpec(*config, 10), std::string("leading:10,offset=1"));
    // The class where its arithmetic differs: DPMSolverMultistep and UniPC for linspace and
    // leading (trailing is DDIM's), Euler always (its σ are float32).
    config->className = "DPMSolverMultistepScheduler";
    QCOMPARE(diffusersTrajectorySpec(*config, 10),
             std::string("leading:10,offset=1,class=DPMSolverMultistepScheduler"));
    config->className = "EulerDiscreteScheduler";
    config->timestepSpacing = "trailing";
    QCOMPARE(diffusersTrajectorySpec(*config, 10), std::string("trailing:10,class=EulerDiscreteScheduler"));
    config->className = "UniPCMultistepScheduler";
    QCOMPARE(diffusersTrajectorySpec(*config, 10), std::string("trailing:10"));
    // A class whose spacing is not known here is named in the note; DDIM's arithmetic is used.
    config->className = "LCMScheduler";
    config->timestepSpacing = "linspace";
    QCOMPARE(diffusersTrajectorySpec(*config, 10), std::string("linspace:10"));
    QCOMPARE(diffusersConfigNote(*config, "cfg.json"),
             std::string("cfg.json: keys not used here: clip_sample; _class_name LCMScheduler has "
                         "no spacing arithmetic here: DDIMScheduler's is used"));
    config->unknownKeys.clear();
    QCOMPARE(diffusersConfigNote(*config, "cfg.json"),
             std::string("cfg.json: _class_name LCMScheduler has no spacing arithmetic here: "
                         "DDIMScheduler's is used"));
    auto badClass = parseDiffusersConfig(R"({"_class_name": 3})", "cfg.json");
    QVERIFY(!badClass);
    QCOMPARE(badClass.error().field, std::string("cfg.json: _class_name"));
    QCOMPARE(badClass.error().value, std::string("3"));
    config->className = "DDIMScheduler";
    config->timestepSpacing = "trailing";
    QCOMPARE(diffusersTrajectorySpec(*config, 10), std::string("trailing:10"));
    config->timestepSpacing.clear();
    QCOMPARE(diffusersTrajectorySpec(*config, 10), std::string());
    auto plain = parseDiffusersConfig(R"({"beta_schedule": "linear"})", "c");
    DS_VERIFY_OK(plain);
    QCOMPARE(diffusersConfigNote(*plain, "c"), std::string());
}

void tst_DiffusersConfig::refusals_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::newRow("schedule") << R"({"beta_schedule": "cosine"})" << "c: beta_schedule" << "\"cosine\"";
    QTest::newRow("scheduleType") << R"({"beta_schedule": 3})" << "c: beta_schedule" << "3";
    QTest::newRow("steps") << R"({"num_train_timesteps": 10.5})" << "c: num_train_timesteps" << "10.5";
    QTest::newRow("stepsString") << R"({"num_train_timesteps": "1000"})" << "c: num_train_timesteps" << "\"1000\"";
    QTest::newRow("betaStart") << R"({"beta_start": -1})" << "c: beta_start" << "-1";
    QTest::newRow("betaEnd") << R"({"beta_end": "0.02"})" << "c: beta_end" << "\"0.02\"";
    QTest::newRow("rescale") << R"({"rescale_betas_zero_snr": 1})" << "c: rescale_betas_zero_snr" << "1";
    QTest::newRow("spacing") << R"({"timestep_spacing": "even"})" << "c: timestep_spacing" << "\"even\"";
    QTest::newRow("offset") << R"({"steps_offset": -1})" << "c: steps_offset" << "-1";
    QTest::newRow("prediction") << R"({"prediction_type": "x0"})" << "c: prediction_type" << "\"x0\"";
    QTest::newRow("trained") << R"({"trained_betas": 0.1})" << "c: trained_betas" << "0.1";
    QTest::newRow("trainedLength") << R"({"num_train_timesteps": 4, "trained_betas": [0.1, 0.2]})"
                                   << "c: trained_betas" << "2 values";
    QTest::newRow("order") << R"({"beta_start": 0.02, "beta_end": 0.01})" << "c: beta_start" << "0.02";
    QTest::newRow("notObject") << "[1]" << "c" << "an array";
}

void tst_DiffusersConfig::refusals() {
    QFETCH(QString, json);
    QFETCH(QString, field);
    QFETCH(QString, value);
    auto config = parseDiffusersConfig(json.toStdString(), "c");
    QVERIFY(!config);
    QCOMPARE(QString::fromStdString(config.error().field), field);
    QCOMPARE(QString::fromStdString(config.error().value), value);
}

// "diffusers:FILE" through the spec parser and the project's check; N must agree.
void tst_DiffusersConfig::specs() {
    const std::string path = write("scheduler_config.json",
                                   R"({"num_train_timesteps": 1000, "beta_schedule": "linear", "foo": 1})");
    auto schedule = gaussianScheduleFromSpec("diffusers:" + path, 1000);
    DS_VERIFY_OK(schedule);
    QCOMPARE(schedule->alphaBar(1000), static_cast<double>(4.03583072e-05f));
    auto any = gaussianScheduleFromSpec("diffusers:" + path, 0);
    DS_VERIFY_OK(any);
    auto other = gaussianScheduleFromSpec("diffusers:" + path, 500);
    QVERIFY(!other);
    QCOMPARE(other.error().field, std::string("steps"));
    QCOMPARE(other.error().value, std::string("500"));
    QVERIFY(QString::fromStdString(other.error().message).contains("num_train_timesteps = 1000"));
    QCOMPARE(scheduleSpecNote("diffusers:" + path), path + ": keys not used here: foo");
    QCOMPARE(scheduleSpecNote("linear"), std::string());
    // Not a regular file, or missing: refused naming the path.
    auto folder = gaussianScheduleFromSpec("diffusers:" + m_dir.path().toStdString(), 0);
    QVERIFY(!folder);
    auto missing = gaussianScheduleFromSpec("diffusers:/nonexistent/x.json", 0);
    QVERIFY(!missing);
    QVERIFY(QString::fromStdString(missing.error().toString()).contains("/nonexistent/x.json"));
    // The project accepts the spec (only its form is checked there).
    core::project::GaussianParams params;
    params.schedule = "diffusers:" + path;
    DS_VERIFY_OK(params.validate());
    params.schedule = "diffusers:";
    QVERIFY(!params.validate());
}

// A project stores the config's path relative to itself, with the prefix and the suffix kept.
void tst_DiffusersConfig::projectFileKeepsThePath() {
    const std::string config = write("sched.json", R"({"beta_schedule": "scaled_linear"})");
    const std::string projectPath = m_dir.filePath("p.json").toStdString();
    core::project::Project project;
    project.process = core::project::ProcessKind::Gaussian;
    project.gaussian.schedule = "diffusers:" + config + ",zero-snr";
    const std::string text = core::project::projectToJson(project, projectPath);
    QVERIFY2(QString::fromStdString(text).contains("\"diffusers:sched.json,zero-snr\""),
             text.c_str());
    auto back = core::project::projectFromJson(text, projectPath);
    DS_VERIFY_OK(back);
    QCOMPARE(back->gaussian.schedule, "diffusers:" + config + ",zero-snr");
}

// The trajectory a config's timestep_spacing names, as the GUI and --schedule without
// --trajectory set it: the params' K, steps_offset only for leading.
void tst_DiffusersConfig::spacingNamesTheTrajectory() {
    const std::string leading = write("leading.json",
        R"({"timestep_spacing": "leading", "steps_offset": 1})");
    const std::string trailing = write("trailing.json",
        R"({"timestep_spacing": "trailing", "steps_offset": 1})");
    const std::string none = write("none.json", R"({"beta_schedule": "linear"})");
    QCOMPARE(scheduleSpecTrajectory("diffusers:" + leading, 7), std::string("leading:7,offset=1"));
    QCOMPARE(scheduleSpecTrajectory("diffusers:" + leading + ",zero-snr", 7),
             std::string("leading:7,offset=1"));
    QCOMPARE(scheduleSpecTrajectory("diffusers:" + trailing, 12), std::string("trailing:12"));
    QCOMPARE(scheduleSpecTrajectory("diffusers:" + none, 7), std::string());
    QCOMPARE(scheduleSpecTrajectory("linear", 7), std::string());
    QCOMPARE(scheduleSpecTrajectory("diffusers:/nonexistent/x.json", 7), std::string());
    // The spec reads back into the params as that family and K.
    core::project::GaussianParams params;
    DS_VERIFY_OK(params.setTrajectorySpec(scheduleSpecTrajectory("diffusers:" + leading, 7)));
    QCOMPARE(params.trajectorySpec(), std::string("leading:7,offset=1"));
}

// A TorchScript model whose contract predicts another quantity than the config's
// prediction_type is refused in the fit check, naming prediction_type and both values.
void tst_DiffusersConfig::predictionTypeAgainstTheContract() {
    const std::string config = write("v.json", R"({"prediction_type": "v_prediction"})");
    const std::string spec = "diffusers:" + config;
    QCOMPARE(predictionTypeMismatch(spec, "v_prediction", "m.pt"), std::string());
    QCOMPARE(predictionTypeMismatch("linear", "epsilon", "m.pt"), std::string());
    QCOMPARE(predictionTypeMismatch(spec, "", "m.pt"), std::string());
    QCOMPARE(predictionTypeMismatch("diffusers:" + write("n.json", "{}"), "sample", "m.pt"),
             std::string());
    QCOMPARE(predictionTypeMismatch(spec, "epsilon", "m.pt"),
             config + " says v_prediction but the model m.pt predicts epsilon (its diffuscope.json)");

    auto oracle = core::model::gaussianOracleFromSpec("gaussian:d=2,s=0.5");
    DS_VERIFY_OK(oracle);
    core::model::LoadedModel model;
    model.gaussian = *oracle;
    model.info.schedule = "diffusers,N=1000";
    model.contractSchedule = "diffusers";
    model.info.architecture = R"({"kind":"torchscript","prediction":"epsilon"})";
    const core::Status refused = core::model::checkGaussianFit(model, "m.pt", 1000, 2, spec);
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, std::string("prediction_type"));
    const QString line = QString::fromStdString(refused.error().toString());
    QVERIFY2(line.contains("v_prediction") && line.contains("epsilon") && !line.contains('\n'),
             qPrintable(line));
    model.info.architecture = R"({"kind":"torchscript","prediction":"v_prediction"})";
    DS_VERIFY_OK(core::model::checkGaussianFit(model, "m.pt", 1000, 2, spec));
    // Our own checkpoints say no prediction: nothing to compare.
    model.contractSchedule.clear();
    model.info.architecture = "{}";
    DS_VERIFY_OK(core::model::checkGaussianFit(model, "m.pt", 1000, 2, spec));
}

// What `timesteps` prints and the GUI copies, against ᾱ multiplied out here.
// EulerDiscreteScheduler's own t and σ: its float32 table √((1 − ᾱ)/ᾱ) interpolated at t,
// written out here with ᾱ from the schedule; the note names the largest difference from σ at
// the nearest whole timesteps.
void tst_DiffusersConfig::eulerTimestepsAndSigmas() {
    auto schedule = gaussianScheduleFromSpec("scaled-linear", 1000);
    DS_VERIFY_OK(schedule);
    const std::vector<int> n = {1, 167, 334, 501, 667, 833, 1000};  // nearest whole (half to even) + 1
    const std::vector<double> t = {999.0, 832.5, 666.0, 499.5, 333.0, 166.5, 0.0};
    const PipelineClass euler{"EulerDiscreteScheduler", t};
    QCOMPARE(pipelineTimesteps(n, *schedule, TimestepConvention::Diffusers, true, euler).text,
             std::string("{\"timesteps\":[999,832.5,666,499.5,333,166.5,0],"
                         "\"previous\":[857,690,524,358,191,24,-142]}\n"));
    const auto table = [&](int index) {
        const float a = static_cast<float>(schedule->alphaBar(index + 1));
        return static_cast<double>(std::sqrt((1.0f - a) / a));
    };
    const auto k = pipelineTimesteps(n, *schedule, TimestepConvention::KDiffusion, true, euler);
    const auto sigmas = nlohmann::json::parse(k.text)["sigmas"];
    QCOMPARE(sigmas.size(), size_t(8));
    double largest = 0.0;
    for (size_t i = 0; i < t.size(); ++i) {
        const int low = static_cast<int>(std::floor(t[i]));
        const double between = low == 999 ? table(999)
                                          : table(low) + (table(low + 1) - table(low)) * (t[i] - low);
        QCOMPARE(sigmas[i].get<double>(), static_cast<double>(static_cast<float>(between)));
        const int whole = n[n.size() - 1 - i];
        largest = std::max(largest, std::abs(sigmas[i].get<double>() -
                                             std::sqrt(schedule->betaBar(whole) /
                                                       schedule->alphaBar(whole))));
    }
    QCOMPARE(sigmas[7].get<double>(), 0.0);
    QCOMPARE(k.notes.size(), size_t(1));
    QVERIFY2(k.notes.front().find("by at most " + core::formatValue(largest)) != std::string::npos,
             k.notes.front().c_str());
}

void tst_DiffusersConfig::pipelineTimestepsText() {
    auto schedule = gaussianScheduleFromSpec("linear", 1000);
    DS_VERIFY_OK(schedule);
    const std::vector<int> n = {1, 500, 1000};
    const auto diffusers = pipelineTimesteps(n, *schedule, TimestepConvention::Diffusers);
    // previous: t − ⌊1000/3⌋, where DDIMScheduler.step goes; not the listed 499 and 0.
    QCOMPARE(diffusers.text,
             std::string("{\"timesteps\":[999,499,0],\"previous\":[666,166,-333]}\n"));
    QCOMPARE(diffusers.notes.size(), size_t(1));
    QVERIFY2(diffusers.notes.front().find("at 2 of 3 steps (t = 999 → 666, next listed 499)") !=
                 std::string::npos,
             diffusers.notes.front().c_str());
    QCOMPARE(pipelineTimesteps(n, *schedule, TimestepConvention::Diffuscope).text,
             std::string("{\"n\":[1,500,1000]}\n"));
    QCOMPARE(pipelineTimesteps(n, *schedule, TimestepConvention::Diffusers, false).text,
             std::string("999, 499, 0\n"));
    // A class whose step follows the list: previous is still written, without the note.
    QVERIFY(pipelineTimesteps(n, *schedule, TimestepConvention::Diffusers, true,
                              {"DPMSolverMultistepScheduler", {}})
                .notes.empty());
    const auto k = pipelineTimesteps(n, *schedule, TimestepConvention::KDiffusion);
    QVERIFY(k.notes.empty());
    const auto json = nlohmann::json::parse(k.text);
    QCOMPARE(json["sigmas"].size(), size_t(4));
    // DDPM's linear β: 1e-4 + (0.02 − 1e-4)(i − 1)/999.
    for (size_t j = 0; j < n.size(); ++j) {
        double alphaBar = 1.0;
        for (int i = 1; i <= n[n.size() - 1 - j]; ++i) alphaBar *= 1.0 - (1e-4 + (0.02 - 1e-4) * (i - 1) / 999.0);
        DS_COMPARE_REL(json["sigmas"][j].get<double>(), std::sqrt((1.0 - alphaBar) / alphaBar), 1e-9);
    }
    QCOMPARE(json["sigmas"][3].get<double>(), 0.0);
    // A zero-SNR end: σ at ᾱ = 2⁻²⁴, with a note.
    auto zero = gaussianScheduleFromSpec("linear,zero-snr", 1000);
    DS_VERIFY_OK(zero);
    const auto z = pipelineTimesteps({1000}, *zero, TimestepConvention::KDiffusion);
    QCOMPARE(z.notes.size(), size_t(1));
    QCOMPARE(nlohmann::json::parse(z.text)["sigmas"][0].get<double>(),
             std::sqrt(16777216.0 - 1.0));
}

QTEST_GUILESS_MAIN(tst_DiffusersConfig)
#include "tst_diffusers_config.moc"
