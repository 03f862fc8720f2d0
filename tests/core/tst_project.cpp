// SPDX-License-Identifier: MIT
// core/project: the parameters' validation (errors name the field and the value), the project
// file (round trip, old files, strict reading) and the set-up builders against direct builds.
#include <QTest>

#include <cmath>
#include <fstream>
#include <string>

#include "core/categorical/information.h"
#include "core/categorical/masked_elbo.h"
#include "core/categorical/reverse_marginal.h"
#include "core/categorical/time_grid.h"
#include "core/data/categorical_table.h"
#include "core/io/json.h"
#include "core/project/categorical_setup.h"
#include "core/project/gaussian_setup.h"
#include "core/project/lab_settings.h"
#include "core/project/project_file.h"
#include "tests/support/test_support.h"

using core::project::CategoricalParams;
using core::project::GaussianParams;
using core::project::Project;

class tst_Project : public QObject {
    Q_OBJECT
private slots:
    void explanationsOfTheKernelsHold();
    void categoricalScheduleSpecReadsBack();
    void categoricalErrorsNameFieldAndValue_data();
    void categoricalErrorsNameFieldAndValue();
    void gaussianErrorsNameFieldAndValue();
    void sizesAreLimited();
    void tableSumNamesTheColumn();
    void damagedGammaCacheIsRefused();
    void gaussianSpacingsRoundTrip();
    void fileRoundTripIsExact();
    void relativePathsFollowTheProject();
    void zeroSnrCustomSchedulePathFollowsTheProject();
    void firstFilesStillOpen();
    void duplicateKeysAreRefused();
    void syntaxErrorsGiveLineAndColumn();
    void choicesParseAndName();
    void estimatorDefaultIsOneRule();
    void examplesAreValid();
    void categoricalSetupMatchesDirectBuild();
    void gaussianSetupRefusesAMissingModelOnlyWhenStrict();
    void maskStateIsOptionalInFiles();
    void decodingSamplersRoundTrip();
    void decodingSweepSteps();
    void maskStateAddsAClassThatHoldsAllOfPi();
    void gaussianNumStepsRule();
    void categoricalNumStepsRule();
    void importedGammaBoundAndClip();
    void allConditionsAndFileCurvesRoundTrip();
};

namespace {

// "field = value" appears in the one-line message.
void verifyNames(const core::Error& error, const std::string& field, const std::string& value) {
    const std::string text = error.toString();
    QVERIFY2(error.field == field, text.c_str());
    QVERIFY2(error.value.find(value) != std::string::npos, text.c_str());
}

}  // namespace

void tst_Project::categoricalErrorsNameFieldAndValue_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("fileKey");  // the same field as the file names it
    QTest::newRow("K") << 0 << "K" << "300" << "numClasses";
    QTest::newRow("pi size") << 1 << "pi" << "3 entries" << "pi";
    QTest::newRow("N") << 2 << "N" << "0" << "numSteps";
    QTest::newRow("power") << 3 << "power" << "-1" << "powerExponent";
    QTest::newRow("condition") << 4 << "condition" << "5" << "condition";
    QTest::newRow("condition below all") << 10 << "condition" << "-2" << "condition";
    QTest::newRow("steps") << 5 << "steps" << "101" << "pathSteps";
    QTest::newRow("chains") << 6 << "chains" << "0" << "numChains";
    QTest::newRow("list order") << 7 << "trajectoryList[2]" << "40" << "trajectoryList[2]";
    QTest::newRow("points") << 8 << "points[1].beta" << "0.05" << "controlPoints[1][1]";
    QTest::newRow("table entry") << 9 << "table[1][2]" << "-0.1" << "table[1].p[2]";
}

void tst_Project::categoricalErrorsNameFieldAndValue() {
    QFETCH(int, which);
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, fileKey);
    CategoricalParams p = CategoricalParams::example();
    QVERIFY(p.validate().ok());
    switch (which) {
        case 0: p.numClasses = 300; break;
        case 1: p.pi = {0.5, 0.25, 0.25}; break;
        case 2: p.numSteps = 0; break;
        case 3: p.schedule = core::schedule::BetaCurveKind::Power; p.powerExponent = -1; break;
        case 4: p.condition = 5; break;
        case 5: p.pathSteps = 101; break;
        case 6: p.numChains = 0; break;
        case 7:
            p.trajectory = core::project::CategoricalTrajectory::List;
            p.trajectoryList = {0, 50, 40, 100};
            break;
        case 8:
            p.schedule = core::schedule::BetaCurveKind::Custom;
            p.controlPoints = {{0.3, 0.1}, {0.7, 0.05}};
            break;
        case 9: p.table[1] = {0.6, 0.25, -0.1, 0.25}; break;
        case 10: p.condition = -2; break;
    }
    const core::Status status = p.validate();
    QVERIFY(!status.ok());
    verifyNames(status.error(), field.toStdString(), value.toStdString());
    // The same value in a file: refused with the JSON path.
    const auto read = CategoricalParams::fromJson(p.toJson());
    QVERIFY(!read.ok());
    verifyNames(read.error(), "categorical." + fileKey.toStdString(), value.toStdString());
}

void tst_Project::gaussianErrorsNameFieldAndValue() {
    GaussianParams p;
    p.eta = 1.5;
    verifyNames(p.validate().error(), "eta", "1.5");
    p = {};
    p.schedule = "quadratic";
    verifyNames(p.validate().error(), "schedule", "quadratic");
    p = {};
    p.pathSteps = 2000;
    verifyNames(p.validate().error(), "K", "2000");
    p = {};
    p.importedGamma.assign(1000, 0.5);
    p.importedGamma[9] = -1.0;
    verifyNames(p.validate().error(), "gamma[10]", "-1");
    core::io::Json json = GaussianParams{}.toJson();
    json["sampler"] = "euler";
    verifyNames(GaussianParams::fromJson(json).error(), "gaussian.sampler", "euler");
    json = GaussianParams{}.toJson();
    json["estimator"] = "guess";
    verifyNames(GaussianParams::fromJson(json).error(), "gaussian.estimator", "guess");
    json = GaussianParams{}.toJson();
    json["numSteps"] = "many";
    verifyNames(GaussianParams::fromJson(json).error(), "gaussian.numSteps", "many");
    // A file's errors name the file's keys, with its 0-based indices.
    json = GaussianParams{}.toJson();
    json["numSteps"] = 1;
    verifyNames(GaussianParams::fromJson(json).error(), "gaussian.numSteps", "1");
    json = GaussianParams{}.toJson();
    json["gammaSamples"] = 0;
    verifyNames(GaussianParams::fromJson(json).error(), "gaussian.gammaSamples", "0");
    json = GaussianParams{}.toJson();
    json["pathSteps"] = 2000;
    verifyNames(GaussianParams::fromJson(json).error(), "gaussian.pathSteps", "2000");
    json = GaussianParams{}.toJson();
    json["particleCount"] = 0;
    verifyNames(GaussianParams::fromJson(json).error(), "gaussian.particleCount", "0");
    p = {};
    p.importedGamma.assign(1000, 0.5);
    p.importedGamma[5] = -1.0;
    verifyNames(GaussianParams::fromJson(p.toJson()).error(), "gaussian.importedGamma[5]", "-1");
}

// Every string and list of a project has a size limit, named in the one-line refusal.
void tst_Project::sizesAreLimited() {
    const std::string huge(100000, 'n');
    core::io::Json json = GaussianParams{}.toJson();
    core::io::Json config = core::io::Json::object();
    config["name"] = huge;
    json["lab"] = core::io::Json::object();
    json["lab"]["ks"] = core::io::Json::array({5});
    json["lab"]["configs"] = core::io::Json::array({config});
    auto read = GaussianParams::fromJson(json);
    QVERIFY(!read.ok());
    verifyNames(read.error(), "gaussian.lab.configs[0].name", "100000 bytes");
    QVERIFY2(read.error().toString().find("at most 200 bytes") != std::string::npos,
             read.error().toString().c_str());
    QVERIFY(read.error().toString().size() < 300);
    for (const char* key : {"schedule", "data", "model", "trajectoryList", "importedGammaName"}) {
        json = GaussianParams{}.toJson();
        json[key] = std::string(500000, 'x');
        read = GaussianParams::fromJson(json);
        QVERIFY2(!read.ok(), key);
        verifyNames(read.error(), std::string("gaussian.") + key, "500000 bytes");
    }
    json = GaussianParams{}.toJson();
    json["lab"] = core::io::Json::object();
    json["lab"]["ks"] = std::vector<int>(33, 5);
    verifyNames(GaussianParams::fromJson(json).error(), "gaussian.lab.ks", "33 entries");
    json = GaussianParams{}.toJson();
    json["importedGamma"] = std::vector<double>(200000, 0.5);
    verifyNames(GaussianParams::fromJson(json).error(), "gaussian.importedGamma", "200000 entries");
    // The GUI's edits are checked by validate(): a Lab name typed or pasted in the table.
    GaussianParams edited;
    edited.lab.configs.push_back({.name = huge});
    verifyNames(edited.validate().error(), "lab.configs[0].name", "100000 bytes");
    // The Lab's --config: the same limit.
    auto spec = core::project::parseLabConfig("name=" + huge + ";trajectory=even");
    QVERIFY(!spec.ok());
    verifyNames(spec.error(), "name", "100000 bytes");
    // Categorical: condition names, their number, the control points.
    core::io::Json cat = CategoricalParams::example().toJson();
    cat["conditionNames"] = {"A", huge};
    verifyNames(CategoricalParams::fromJson(cat).error(), "categorical.conditionNames[1]",
                "100000 bytes");
    cat = CategoricalParams::example().toJson();
    cat["csvPath"] = std::string(5000, 'p');
    verifyNames(CategoricalParams::fromJson(cat).error(), "categorical.csvPath", "5000 bytes");
    cat = CategoricalParams::example().toJson();
    cat["controlPoints"] = std::vector<std::vector<double>>(2000, {0.5, 0.5});
    verifyNames(CategoricalParams::fromJson(cat).error(), "categorical.controlPoints",
                "2000 entries");
    cat = CategoricalParams::example().toJson();
    cat["trajectoryList"] = std::vector<int>(200000, 1);
    verifyNames(CategoricalParams::fromJson(cat).error(), "categorical.trajectoryList",
                "200000 entries");
    cat = CategoricalParams::example().toJson();
    cat["dataSource"] = "digits";
    cat["conditionNames"] = std::vector<std::string>(5000, "c");
    verifyNames(CategoricalParams::fromJson(cat).error(), "categorical.conditionNames",
                "5000 entries");
}

// A saved Γ of the project's own settings that does not cover 1..N would fail every export:
// the reader refuses it, naming gammaCache; a complete one reads back.
void tst_Project::damagedGammaCacheIsRefused() {
    Project p;
    p.process = core::project::ProcessKind::Gaussian;
    p.gaussian = GaussianParams{};
    p.gammaCache.key = p.gaussian.gammaKey();
    auto fill = [&p](int count) {
        auto& e = p.gammaCache.estimate;
        e = {};
        for (int n = 1; n <= count; ++n) {
            e.timesteps.push_back(n);
            e.gamma.push_back(0.5);
            e.standardError.push_back(0.01);
            e.msEps.push_back(1.0);
        }
        e.numSamples = 10;
    };
    const std::string path = "/tmp/diffuscope-cache-test.json";
    fill(3);
    auto read = core::project::projectFromJson(core::project::projectToJson(p, path), path);
    QVERIFY(!read.ok());
    verifyNames(read.error(), path + ": gammaCache.timesteps", "3 entries");
    fill(p.gaussian.numSteps);
    read = core::project::projectFromJson(core::project::projectToJson(p, path), path);
    DS_VERIFY_OK(read);
    QCOMPARE(read->gammaCache.estimate.timesteps.size(), size_t(p.gaussian.numSteps));
}

// A column of the table that does not sum to 1 is named as the table's column, not as π.
void tst_Project::tableSumNamesTheColumn() {
    core::io::Json cat = CategoricalParams::example().toJson();
    cat["table"][1]["p"] = {0.6, 0.25, 0.1, 1.05};
    const auto read = CategoricalParams::fromJson(cat);
    QVERIFY(!read.ok());
    const std::string text = read.error().toString();
    QVERIFY2(read.error().field == "categorical.table[1].p[3]", text.c_str());
    QVERIFY2(text.find("π") == std::string::npos, text.c_str());
    QVERIFY2(text.find("probabilities of condition \"B\" sum to") != std::string::npos, text.c_str());
}

// The spacing families: their specs, their optional fields (absent in files that never set
// them), and errors naming the field and the value.
void tst_Project::gaussianSpacingsRoundTrip() {
    using core::project::GaussianTrajectory;
    GaussianParams p;
    p.pathSteps = 10;
    const std::vector<std::pair<GaussianTrajectory, std::string>> specs = {
        {GaussianTrajectory::Linspace, "linspace:10"},
        {GaussianTrajectory::Leading, "leading:10"},
        {GaussianTrajectory::Trailing, "trailing:10"},
        {GaussianTrajectory::LogSnr, "logsnr:10"},
        {GaussianTrajectory::Karras, "karras:10"}};
    for (const auto& [kind, spec] : specs) {
        p.trajectory = kind;
        QCOMPARE(p.trajectorySpec(), spec);
        DS_VERIFY_OK(p.validate());
    }
    p.karrasRho = 5.5;
    QCOMPARE(p.trajectorySpec(), std::string("karras:10,rho=5.5"));
    p.trajectory = GaussianTrajectory::Leading;
    p.leadingOffset = 1;
    QCOMPARE(p.trajectorySpec(), std::string("leading:10,offset=1"));
    auto back = GaussianParams::fromJson(p.toJson());
    DS_VERIFY_OK(back);
    QVERIFY(*back == p);
    // Defaults are not written; a file without them reads the defaults.
    const core::io::Json plain = GaussianParams{}.toJson();
    QVERIFY(!plain.contains("leadingOffset") && !plain.contains("karrasRho"));
    auto defaults = GaussianParams::fromJson(plain);
    DS_VERIFY_OK(defaults);
    QCOMPARE(defaults->leadingOffset, 0);
    QCOMPARE(defaults->karrasRho, 7.0);
    // leading:10 on N = 1000 allows offsets up to 99.
    p.leadingOffset = 100;
    verifyNames(p.validate().error(), "leadingOffset", "100");
    core::io::Json json = GaussianParams{}.toJson();
    json["trajectory"] = "karras";
    json["karrasRho"] = -1.0;
    verifyNames(GaussianParams::fromJson(json).error(), "gaussian.karrasRho", "-1");
    json["karrasRho"] = 3.0;
    DS_VERIFY_OK(GaussianParams::fromJson(json));
    // The DP's cost over the bound: optional, clipped by default, segmented read back.
    QVERIFY(!plain.contains("dpVariant"));
    QVERIFY(defaults->dpVariant == core::gaussian::DpVariant::Clipped);
    p.leadingOffset = 1;
    p.dpVariant = core::gaussian::DpVariant::Segmented;
    QCOMPARE(p.toJson()["dpVariant"].get<std::string>(), std::string("segmented"));
    auto segmented = GaussianParams::fromJson(p.toJson());
    DS_VERIFY_OK(segmented);
    QVERIFY(*segmented == p);
    json["dpVariant"] = "zigzag";
    verifyNames(GaussianParams::fromJson(json).error(), "gaussian.dpVariant", "zigzag");
}

void tst_Project::fileRoundTripIsExact() {
    Project p;
    p.process = core::project::ProcessKind::Gaussian;
    p.categorical.schedule = core::schedule::BetaCurveKind::Custom;
    p.categorical.seed = 18446744073709551557ull;  // needs all 64 bits
    p.categorical.pi = {0.1, 0.2, 0.3, 0.4};
    p.gaussian.estimator = core::project::GammaEstimatorChoice::Error;
    p.gaussian.compareSampler.reset();
    p.gaussian.trajectory = core::project::GaussianTrajectory::List;
    p.gaussian.trajectoryList = "1,10,500,1000";
    p.gaussian.importedGamma.assign(1000, 0.1 + 1e-17);
    p.gaussian.importedGammaName = "ms_eps.npy";
    p.gammaCache.key = "k";
    p.gammaCache.estimate.timesteps = {1, 2};
    p.gammaCache.estimate.gamma = {0.3, 1.0 / 3.0};
    p.gammaCache.estimate.standardError = {0.01, 0.02};
    p.gammaCache.estimate.msEps = {0.5, 0.25};
    const std::string text = core::project::projectToJson(p, "/tmp/p.diffuscope.json");
    auto back = core::project::projectFromJson(text, "/tmp/p.diffuscope.json");
    DS_VERIFY_OK(back);
    QVERIFY(*back == p);
    QCOMPARE(back->categorical.seed, p.categorical.seed);
    QCOMPARE(back->gammaCache.estimate.gamma[1], 1.0 / 3.0);
}

void tst_Project::relativePathsFollowTheProject() {
    Project p;
    p.gaussian.model = "/data/run/models/m.safetensors";
    p.gaussian.schedule = "csv:/elsewhere/beta.csv";
    const std::string text = core::project::projectToJson(p, "/data/run/p.json");
    QVERIFY(text.find("\"model\": \"models/m.safetensors\"") != std::string::npos);
    QVERIFY(text.find("\"csv:/elsewhere/beta.csv\"") != std::string::npos);
    auto moved = core::project::projectFromJson(text, "/moved/p.json");
    DS_VERIFY_OK(moved);
    QCOMPARE(moved->gaussian.model, std::string("/moved/models/m.safetensors"));
    QCOMPARE(moved->gaussian.schedule, std::string("csv:/elsewhere/beta.csv"));
}

// A custom table with the zero-SNR suffix: the path moves with the project, the suffix stays,
// and the project validates.
void tst_Project::zeroSnrCustomSchedulePathFollowsTheProject() {
    Project p;
    p.gaussian.schedule = "csv:/data/run/beta.csv,zero-snr";
    DS_VERIFY_OK(p.gaussian.validate());
    const std::string text = core::project::projectToJson(p, "/data/run/p.json");
    QVERIFY(text.find("\"csv:beta.csv,zero-snr\"") != std::string::npos);
    auto moved = core::project::projectFromJson(text, "/moved/p.json");
    DS_VERIFY_OK(moved);
    QCOMPARE(moved->gaussian.schedule, std::string("csv:/moved/beta.csv,zero-snr"));
    p.gaussian.schedule = "linear,zero-snr";
    DS_VERIFY_OK(p.gaussian.validate());
    p.gaussian.schedule = "quartic,zero-snr";
    auto bad = p.gaussian.validate();
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().field, std::string("schedule"));
    QCOMPARE(bad.error().value, std::string("quartic,zero-snr"));
}

void tst_Project::firstFilesStillOpen() {
    // A version-1 file as the first releases wrote it: the estimator as true/false, condition
    // names inside the table columns, no dataSource.
    const std::string old = R"({
        "format": "diffuscope-project", "formatVersion": 1, "process": "categorical",
        "categorical": {"numClasses": 2, "pi": [0.5, 0.5], "schedule": "linear",
            "powerExponent": 2, "controlPoints": [], "numSteps": 10,
            "table": [{"name": "only", "p": [0.25, 0.75]}], "condition": 0,
            "trajectory": "even", "pathSteps": 5, "trajectoryList": [], "kernel": "closed",
            "numChains": 10, "seed": "3"},
        "gaussian": {"denoisingEstimator": false}})";
    auto p = core::project::projectFromJson(old, "old.json");
    DS_VERIFY_OK(p);
    QCOMPARE(p->categorical.conditionNames, std::vector<std::string>{"only"});
    QVERIFY(p->gaussian.estimator == core::project::GammaEstimatorChoice::Score);
    QCOMPARE(p->categorical.seed, uint64_t{3});
}

void tst_Project::duplicateKeysAreRefused() {
    std::string text = core::project::projectToJson(Project{});
    const size_t at = text.find("\"numClasses\": 4,");
    QVERIFY(at != std::string::npos);
    text.insert(at, "\"numClasses\": 3, ");
    auto p = core::project::projectFromJson(text, "twice.json");
    QVERIFY(!p.ok());
    const std::string message = p.error().toString();
    QVERIFY2(message.find("twice.json") != std::string::npos &&
                 message.find("\"numClasses\"") != std::string::npos &&
                 message.find("twice") != std::string::npos,
             message.c_str());
}

void tst_Project::syntaxErrorsGiveLineAndColumn() {
    auto json = core::io::parseJsonStrict("{\n  \"a\": 1,\n  \"b\": ]\n}", "f.json");
    QVERIFY(!json.ok());
    const std::string message = json.error().toString();
    QVERIFY2(message.find("f.json") == 0 && message.find("line 3, column 8") != std::string::npos,
             message.c_str());
}

void tst_Project::choicesParseAndName() {
    using core::project::kSamplers;
    for (const auto& choice : kSamplers) {
        auto parsed = core::project::parseChoice(kSamplers, std::string(choice.id), "sampler");
        DS_VERIFY_OK(parsed);
        QVERIFY(*parsed == choice.value);
        QCOMPARE(core::project::choiceId(kSamplers, choice.value), std::string(choice.id));
        // The core's own parser agrees with the table.
        auto core = core::gaussian::parseSamplerKind(std::string(choice.id));
        DS_VERIFY_OK(core);
        QVERIFY(*core == choice.value);
    }
    auto bad = core::project::parseChoice(kSamplers, "heun", "--sampler");
    QVERIFY(!bad.ok());
    verifyNames(bad.error(), "--sampler", "heun");
}

void tst_Project::estimatorDefaultIsOneRule() {
    using core::gaussian::GammaEstimator;
    using core::project::GammaEstimatorChoice;
    QVERIFY(GaussianParams{}.estimator == GammaEstimatorChoice::Auto);
    QVERIFY(*core::project::resolveEstimator(GammaEstimatorChoice::Auto, true) ==
            GammaEstimator::Denoising);
    QVERIFY(*core::project::resolveEstimator(GammaEstimatorChoice::Auto, false) ==
            GammaEstimator::Error);
    auto refused = core::project::resolveEstimator(GammaEstimatorChoice::Denoising, false,
                                                   "--estimator");
    QVERIFY(!refused.ok());
    verifyNames(refused.error(), "--estimator", "denoising");
}

void tst_Project::examplesAreValid() {
    for (int n = 1; n <= core::project::kNumExamples; ++n) {
        auto p = core::project::exampleProject(n);
        DS_VERIFY_OK(p);
        DS_VERIFY_OK(p->categorical.validate());
        DS_VERIFY_OK(p->gaussian.validate());
        QVERIFY(std::string(core::project::exampleTitle(n)).size() > 10);
    }
    const int beyond = core::project::kNumExamples + 1;
    auto none = core::project::exampleProject(beyond);
    QVERIFY(!none.ok());
    verifyNames(none.error(), "example", std::to_string(beyond));
}

void tst_Project::categoricalSetupMatchesDirectBuild() {
    CategoricalParams p = CategoricalParams::example();
    p.schedule = core::schedule::BetaCurveKind::InformationLinear;
    auto setup = core::project::CategoricalSetup::build(p, core::project::fileSources());
    DS_VERIFY_OK(setup);
    // Built by hand from the same numbers: the table, π and the information-linear curve.
    core::Vector pi(4);
    pi << 0.4, 0.3, 0.2, 0.1;
    auto table = core::data::makeCategoricalTable(1, 4, {0, 1, 2, 3, 0, 1, 2, 3},
                                                  {0.05, 0.15, 0.3, 0.5, 0.6, 0.25, 0.1, 0.05},
                                                  {"0", "0", "0", "0", "1", "1", "1", "1"});
    DS_VERIFY_OK(table);
    auto curve = core::schedule::informationLinearCurve([&](double beta) {
        return core::categorical::tableMutualInformation(*table, pi, beta, 0);
    });
    DS_VERIFY_OK(curve);
    for (int n = 0; n <= p.numSteps; ++n) {
        const double t = static_cast<double>(n) / p.numSteps;
        QCOMPARE((*setup)->grid.beta[n], (*curve)(t));
    }
    QCOMPARE((*setup)->dataMarginal(3), 0.5);
    QVERIFY((*setup)->denoiser == (*setup)->oracle);
}

void tst_Project::gaussianSetupRefusesAMissingModelOnlyWhenStrict() {
    GaussianParams p;
    p.numSteps = 100;
    p.data = "gaussian:d=2,s=1";
    p.model = "/nonexistent/model.safetensors";
    const auto sources = core::project::fileSources();
    auto lenient = core::project::GaussianSetup::build(p, sources, false);
    DS_VERIFY_OK(lenient);
    QVERIFY(!lenient->usesNetwork);
    QVERIFY(lenient->modelError.find("/nonexistent/model.safetensors") != std::string::npos);
    QVERIFY(lenient->estimator == core::gaussian::GammaEstimator::Denoising);
    auto strict = core::project::GaussianSetup::build(p, sources, true);
    QVERIFY(!strict.ok());
    QVERIFY(strict.error().toString().find("/nonexistent/model.safetensors") != std::string::npos);
    QCOMPARE(lenient->schedule.numSteps(), 100);
}

// Written only when set, read when present; a file without it opens as before.
void tst_Project::maskStateIsOptionalInFiles() {
    Project p;
    const std::string plain = core::project::projectToJson(p, "/tmp/p.diffuscope.json");
    QVERIFY(plain.find("maskState") == std::string::npos);
    p.categorical.maskState = true;
    const std::string text = core::project::projectToJson(p, "/tmp/p.diffuscope.json");
    QVERIFY(text.find("\"maskState\": true") != std::string::npos);
    QVERIFY(text.find("\"formatVersion\": 1") != std::string::npos);
    auto back = core::project::projectFromJson(text, "/tmp/p.diffuscope.json");
    DS_VERIFY_OK(back);
    QVERIFY(back->categorical.maskState);
    QVERIFY(*back == p);
    auto old = core::project::projectFromJson(plain, "/tmp/p.diffuscope.json");
    DS_VERIFY_OK(old);
    QVERIFY(!old->categorical.maskState);
    // Not a boolean: the error names the path and the value.
    std::string wrong = text;
    wrong.replace(wrong.find("\"maskState\": true"), 17, "\"maskState\": 2");
    auto bad = core::project::projectFromJson(wrong, "/tmp/p.diffuscope.json");
    QVERIFY(!bad);
    QVERIFY2(bad.error().toString().find("maskState") != std::string::npos &&
                 bad.error().toString().find('2') != std::string::npos,
             bad.error().toString().c_str());
    // K = 256 leaves no room for the mask state.
    CategoricalParams wide = CategoricalParams::example().withNumClasses(256);
    wide.maskState = true;
    auto valid = wide.validate();
    QVERIFY(!valid);
    verifyNames(valid.error(), "maskState", "true");
}

// The Decoding view's samplers: absent in a file means the default set, not written while they
// are the default, written and read back exactly once edited; bad fields name the path.
void tst_Project::decodingSamplersRoundTrip() {
    Project p;
    p.categorical.maskState = true;
    const std::string plain = core::project::projectToJson(p, "/tmp/p.diffuscope.json");
    QVERIFY(plain.find("\"decoding\"") == std::string::npos);
    auto old = core::project::projectFromJson(plain, "/tmp/p.diffuscope.json");
    DS_VERIFY_OK(old);
    QCOMPARE(old->categorical.decoding.configs.size(), size_t{6});
    QCOMPARE(old->categorical.decoding.configs[2].sampler,
             std::string("order=confidence;values=argmax"));
    QCOMPARE(old->categorical.decoding.animated, -1);

    p.categorical.decoding.configs.erase(p.categorical.decoding.configs.begin() + 1);
    p.categorical.decoding.configs.push_back(
        {"low τ, float32", "#123abc", "order=ancestral;values=temperature:0.25;gumbel=float32"});
    p.categorical.decoding.animated = 4;
    const std::string text = core::project::projectToJson(p, "/tmp/p.diffuscope.json");
    QVERIFY(text.find("\"decoding\"") != std::string::npos);
    auto back = core::project::projectFromJson(text, "/tmp/p.diffuscope.json");
    DS_VERIFY_OK(back);
    QVERIFY(*back == p);
    QCOMPARE(back->categorical.decoding.configs.back().colour, std::string("#123abc"));
    QCOMPARE(back->categorical.decoding.animated, 4);

    // An empty set is kept empty (not replaced by the defaults).
    Project none = p;
    none.categorical.decoding.configs.clear();
    none.categorical.decoding.animated = -1;
    auto backNone = core::project::projectFromJson(
        core::project::projectToJson(none, "/tmp/p.diffuscope.json"), "/tmp/p.diffuscope.json");
    DS_VERIFY_OK(backNone);
    QVERIFY(backNone->categorical.decoding.configs.empty());

    std::string wrong = text;
    wrong.replace(wrong.find("\"animated\": 4"), 14, "\"animated\": 9");
    auto bad = core::project::projectFromJson(wrong, "/tmp/p.diffuscope.json");
    QVERIFY(!bad);
    const std::string badText = bad.error().toString();
    QVERIFY2(badText.find("categorical.decoding.animated = 9") != std::string::npos,
             badText.c_str());
    std::string colour = text;
    colour.replace(colour.find("#123abc"), 7, "#12345z");
    auto badColour = core::project::projectFromJson(colour, "/tmp/p.diffuscope.json");
    QVERIFY(!badColour);
    const std::string colourText = badColour.error().toString();
    QVERIFY2(colourText.find("categorical.decoding.configs[5].colour = #12345z") !=
                 std::string::npos,
             colourText.c_str());
    // The parameters' own check names the field as the panels do.
    CategoricalParams duplicate;
    duplicate.decoding.configs[1].name = duplicate.decoding.configs[0].name;
    const auto valid = duplicate.validate();
    QVERIFY(!valid);
    verifyNames(valid.error(), "decoding.configs[1].name", "ancestral");
}

// Powers of two from 1 to the first one at least 4·D.
void tst_Project::decodingSweepSteps() {
    QCOMPARE(core::project::decodingSweepSteps(1), (std::vector<int>{1, 2, 4}));
    QCOMPARE(core::project::decodingSweepSteps(2), (std::vector<int>{1, 2, 4, 8}));
    QCOMPARE(core::project::decodingSweepSteps(3), (std::vector<int>{1, 2, 4, 8, 16}));
    QCOMPARE(core::project::decodingSweepSteps(64).back(), 256);
    QCOMPARE(core::project::decodingSweepSteps(64).size(), size_t{9});
}

// The example with the mask state: K = 5 classes, π = δ_4, the data's zero row for class 4, and
// the continuous ELBO equal to H(X_0 | C = A) = −Σ p log p of the table's column.
void tst_Project::maskStateAddsAClassThatHoldsAllOfPi() {
    CategoricalParams p = CategoricalParams::example();
    p.maskState = true;
    auto setup = core::project::CategoricalSetup::build(p, core::project::fileSources());
    DS_VERIFY_OK(setup);
    const auto& s = **setup;
    QCOMPARE(s.numClasses(), 5);
    QCOMPARE(static_cast<int>(s.pi.size()), 5);
    QCOMPARE(s.pi[4], 1.0);
    QCOMPARE(s.pi.head(4).sum(), 0.0);
    QCOMPARE(static_cast<int>(s.dataMarginal.size()), 5);
    QCOMPARE(s.dataMarginal[4], 0.0);
    QCOMPARE(s.dataMarginal[3], 0.5);
    QCOMPARE(s.oracle->numClasses(), 5);
    QCOMPARE(s.params.pi, CategoricalParams::example().pi);  // kept for when it is turned off
    double h = 0.0;
    for (double q : p.table[0]) h -= q * std::log(q);
    auto elbo = core::categorical::continuousElbo(s.table, *s.denoiser, s.pi, s.curve,
                                                  {.condition = 0});
    DS_VERIFY_OK(elbo);
    DS_COMPARE_ABS(elbo->value, h, 1e-13);
    // Without it the example's π is not absorbing.
    auto plain = core::project::CategoricalSetup::build(CategoricalParams::example(),
                                                        core::project::fileSources());
    DS_VERIFY_OK(plain);
    QCOMPARE((*plain)->numClasses(), 4);
    QCOMPARE(core::categorical::absorbingMaskClass((*plain)->pi), -1);
}

void tst_Project::gaussianNumStepsRule() {
    GaussianParams p;
    p.numSteps = 1000;
    p.pathSteps = 50;
    p.trajectory = core::project::GaussianTrajectory::List;
    p.trajectoryList = "1,10,100,1000";
    p.importedGamma.assign(1000, 0.5);
    p.importedGammaName = "gamma.csv";
    DS_VERIFY_OK(p.validate());

    QVERIFY(p.withNumSteps(1000) == p);  // the same N: nothing changes

    // Smaller N: the list (timestep 1000 > 500) and Γ go, the trajectory becomes even.
    GaussianParams smaller = p.withNumSteps(500);
    QCOMPARE(smaller.numSteps, 500);
    QVERIFY(smaller.importedGamma.empty());
    QVERIFY(smaller.importedGammaName.empty());
    QCOMPARE(smaller.pathSteps, 50);
    QVERIFY(smaller.trajectoryList.empty());
    QVERIFY(smaller.trajectory == core::project::GaussianTrajectory::Even);
    DS_VERIFY_OK(smaller.validate());

    // Larger N: the list still fits and stays in use; Γ (N entries) goes.
    GaussianParams larger = p.withNumSteps(2000);
    QCOMPARE(larger.trajectoryList, std::string("1,10,100,1000"));
    QVERIFY(larger.trajectory == core::project::GaussianTrajectory::List);
    QVERIFY(larger.importedGamma.empty());
    DS_VERIFY_OK(larger.validate());

    // K is capped at N; a stale list not in use goes too, the trajectory stays.
    GaussianParams dp = p;
    dp.trajectory = core::project::GaussianTrajectory::Dp;
    GaussianParams tiny = dp.withNumSteps(20);
    QCOMPARE(tiny.pathSteps, 20);
    QVERIFY(tiny.trajectoryList.empty());
    QVERIFY(tiny.trajectory == core::project::GaussianTrajectory::Dp);
    DS_VERIFY_OK(tiny.validate());
    // The user's K = 50 comes back as far as N allows, also through a project file.
    QCOMPARE(tiny.withNumSteps(30).pathSteps, 30);
    QCOMPARE(tiny.withNumSteps(30).withNumSteps(2000).pathSteps, 50);
    auto reread = GaussianParams::fromJson(tiny.toJson());
    DS_VERIFY_OK(reread);
    QVERIFY(*reread == tiny);
    QCOMPARE(reread->withNumSteps(1000).pathSteps, 50);
    // K changed while capped is the user's own K now.
    GaussianParams chosen = tiny;
    chosen.pathSteps = 7;
    QCOMPARE(chosen.withNumSteps(1000).pathSteps, 7);
    QVERIFY(!chosen.toJson().contains("pathStepsAsked"));
    // A stored value outside K's limits is refused, naming the key and the value.
    core::io::Json bad = tiny.toJson();
    bad["pathStepsAsked"] = -3;
    auto refused = GaussianParams::fromJson(bad);
    QVERIFY(!refused);
    QVERIFY2(refused.error().toString().find("pathStepsAsked") != std::string::npos &&
                 refused.error().toString().find("-3") != std::string::npos,
             refused.error().toString().c_str());
}

void tst_Project::categoricalNumStepsRule() {
    CategoricalParams p = CategoricalParams::example();
    p.numSteps = 100;
    p.pathSteps = 10;
    p.trajectory = core::project::CategoricalTrajectory::List;
    p.trajectoryList = {0, 50, 100};
    DS_VERIFY_OK(p.validate());
    QVERIFY(p.withNumSteps(100) == p);
    CategoricalParams q = p.withNumSteps(5);
    QCOMPARE(q.numSteps, 5);
    QCOMPARE(q.pathSteps, 5);
    QVERIFY(q.trajectoryList.empty());
    QVERIFY(q.trajectory == core::project::CategoricalTrajectory::Even);
    DS_VERIFY_OK(q.validate());
    // N = 1 on the way to N = 1000 does not destroy K = 10, also through a project file.
    CategoricalParams one = q.withNumSteps(1);
    QCOMPARE(one.pathSteps, 1);
    auto reread = CategoricalParams::fromJson(one.toJson());
    DS_VERIFY_OK(reread);
    QVERIFY(*reread == one);
    QCOMPARE(reread->withNumSteps(1000).pathSteps, 10);
    QCOMPARE(one.withNumSteps(6).pathSteps, 6);
}

void tst_Project::importedGammaBoundAndClip() {
    // β = 0.1, 0.2, 0.3, 0.4: ᾱ = 0.9, 0.72, 0.504, 0.3024, so β̄ = 1 − ᾱ = 0.1, 0.28, 0.496,
    // 0.6976 and the bounds 1/β̄ = 10, 3.571…, 2.016…, 1.433….
    const double betaBar[] = {0.1, 0.28, 0.496, 0.6976};
    GaussianParams p;
    p.schedule = "csv:" + test_support::dataPathStd("gaussian_custom_beta.csv");
    p.numSteps = 4;
    p.pathSteps = 2;
    p.importedGamma = {5.0, 4.0, 2.0, 10.0};  // over at n = 2 (1.12) and n = 4 (6.976)
    auto over = p.importedGammaOverBound();
    DS_VERIFY_OK(over);
    QCOMPARE(*over, (std::vector<int>{2, 4}));

    GaussianParams clipped = p;
    auto changed = clipped.clipImportedGamma();
    DS_VERIFY_OK(changed);
    QCOMPARE(*changed, (std::vector<int>{2, 4}));
    QCOMPARE(clipped.importedGamma[0], 5.0);
    QCOMPARE(clipped.importedGamma[2], 2.0);
    for (int n : {2, 4}) {
        const double bound = 1.0 / betaBar[n - 1];
        QVERIFY2(std::abs(clipped.importedGamma[n - 1] - bound) < 1e-12 * bound,
                 std::to_string(clipped.importedGamma[n - 1]).c_str());
    }
    auto after = clipped.importedGammaOverBound();
    DS_VERIFY_OK(after);
    QVERIFY(after->empty());
    auto again = clipped.clipImportedGamma();
    DS_VERIFY_OK(again);
    QVERIFY(again->empty());

    // Γ for another N is refused, naming the field and the count, and left as it was.
    GaussianParams wrong = p;
    wrong.importedGamma.pop_back();
    auto refused = wrong.clipImportedGamma();
    QVERIFY(!refused.ok());
    verifyNames(refused.error(), "gamma", "3");
    QCOMPARE(wrong.importedGamma, (std::vector<double>{5.0, 4.0, 2.0}));
    QVERIFY(!wrong.importedGammaOverBound().ok());
}

// "All conditions averaged" and a custom curve (the command line's custom:FILE, its inner points)
// are plain fields: written, read back equal, and a file without them reads as before.
void tst_Project::allConditionsAndFileCurvesRoundTrip() {
    Project p;
    p.categorical.condition = core::project::kAllConditions;
    p.categorical.schedule = core::schedule::BetaCurveKind::Custom;
    p.categorical.controlPoints = {{0.5, 0.25}};  // the inner point of the file below
    p.categorical.numSteps = 50000;                // what the command line allows
    p.categorical.pathSteps = 7;
    DS_VERIFY_OK(p.categorical.validate());
    const std::string text = core::project::projectToJson(p, "/tmp/p.diffuscope.json");
    QVERIFY(text.find("\"condition\": -1") != std::string::npos);
    auto back = core::project::projectFromJson(text, "/tmp/p.diffuscope.json");
    DS_VERIFY_OK(back);
    QVERIFY(*back == p);
    QCOMPARE(back->categorical.condition, core::project::kAllConditions);
    // The stored inner point gives the file's curve: the ends are added by the curve.
    auto fromFile = core::schedule::readCustomCurve(
        test_support::dataPathStd("categorical_custom_beta.csv"));
    auto stored = back->categorical.betaCurve({});
    DS_VERIFY_OK(fromFile);
    DS_VERIFY_OK(stored);
    for (double t : {0.0, 0.1, 0.25, 0.5, 0.8, 1.0}) QCOMPARE((*stored)(t), (*fromFile)(t));
    bool saysAll = false;
    for (const std::string& line : p.categorical.provenance()) {
        saysAll = saysAll || line == "condition: all, averaged";
    }
    QVERIFY(saysAll);
    // A file from before reads its condition as it was.
    Project plain;
    plain.categorical.condition = 1;
    auto old = core::project::projectFromJson(
        core::project::projectToJson(plain, "/tmp/p.diffuscope.json"), "/tmp/p.diffuscope.json");
    DS_VERIFY_OK(old);
    QCOMPARE(old->categorical.condition, 1);
}

// What the Trajectories and Kernel comparison views' explanations claim, on the first example
// (non-uniform π, one position, the exact denoiser), from the numbers the Kernel comparison view
// computes: the closed-form kernel ends on the data at any number of steps; the D3PM-style
// kernel misses it, by more as steps are added.
void tst_Project::explanationsOfTheKernelsHold() {
    auto example = core::project::exampleProject(1);
    DS_VERIFY_OK(example);
    double previous = 0.0;
    for (const int steps : {2, 3, 10, 100}) {
        core::project::CategoricalParams p = example->categorical;
        p.numSteps = 100;
        p.pathSteps = steps;
        auto setup = core::project::CategoricalSetup::build(p, core::project::fileSources());
        DS_VERIFY_OK(setup);
        const auto& s = **setup;
        const auto grid = core::categorical::subGrid(s.grid, s.nominalTrajectory());
        QCOMPARE(grid.numSteps(), steps);
        auto both = core::categorical::reverseMarginals(
            *s.positionOracle, s.position, s.params.condition, s.pi, grid,
            std::vector{core::categorical::KernelForm::Closed, core::categorical::KernelForm::D3pm});
        DS_VERIFY_OK(both);
        const double closed = core::categorical::klDivergence(s.dataMarginal, (*both)[0].front());
        const double d3pm = core::categorical::klDivergence(s.dataMarginal, (*both)[1].front());
        QVERIFY2(std::abs(closed) < 1e-12, qPrintable(QString("closed form, %1 steps: KL %2").arg(steps).arg(closed)));
        QVERIFY2(d3pm > previous + 1e-4, qPrintable(QString("D3PM-style, %1 steps: KL %2 after %3").arg(steps).arg(d3pm).arg(previous)));
        previous = d3pm;
    }
}

// setScheduleSpec is scheduleSpec's inverse: every schedule written reads back to the same
// parameters; custom:FILE takes the file's inner points; a bad spec names the field and text.
void tst_Project::categoricalScheduleSpecReadsBack() {
    using core::schedule::BetaCurveKind;
    core::project::CategoricalParams custom;
    DS_VERIFY_OK(custom.setScheduleSpec(
        "custom:" + test_support::dataPathStd("categorical_custom_beta.csv"), "--schedule"));
    QCOMPARE(custom.schedule, BetaCurveKind::Custom);
    QCOMPARE(custom.controlPoints.size(), size_t(1));  // (0, 0) and (1, 1) are the curve's own
    QCOMPARE(custom.controlPoints[0].t, 0.5);
    QCOMPARE(custom.controlPoints[0].beta, 0.25);
    core::project::CategoricalParams power;
    power.schedule = BetaCurveKind::Power;
    power.powerExponent = 2.75;
    core::project::CategoricalParams info;
    info.schedule = BetaCurveKind::InformationLinear;
    core::project::CategoricalParams linear;
    linear.schedule = BetaCurveKind::Linear;
    for (const core::project::CategoricalParams& written :
         {custom, power, info, linear, core::project::CategoricalParams{}}) {
        core::project::CategoricalParams read = written;
        read.schedule = BetaCurveKind::Cosine;
        read.powerExponent = 9.0;
        DS_VERIFY_OK(read.setScheduleSpec(written.scheduleSpec(), "--schedule"));
        if (written.schedule != BetaCurveKind::Power) read.powerExponent = written.powerExponent;
        QVERIFY2(read == written, written.scheduleSpec().c_str());
    }
    core::project::CategoricalParams bad;
    for (const std::string text : {"power:", "power:-1", "quadratic", "custom"}) {
        const core::Status status = bad.setScheduleSpec(text, "--schedule");
        QVERIFY2(!status.ok(), text.c_str());
        QCOMPARE(status.error().field, std::string("--schedule"));
        QVERIFY2(status.error().toString().find(text) != std::string::npos,
                 status.error().toString().c_str());
    }
}

QTEST_GUILESS_MAIN(tst_Project)
#include "tst_project.moc"
