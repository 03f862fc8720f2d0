// SPDX-License-Identifier: MIT
// Tests of core/project/training_setup: the data sets equal what the Train dialog and `train`
// built themselves before they shared this code (their loops are repeated here), the memory
// estimate equals a hand computation, and the resume check accepts the same run and refuses a
// changed process, data set, schedule, network or training parameter, naming it.
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <string>
#include <vector>

#include "core/data/categorical_rows.h"
#include "core/data/digits.h"
#include "core/model/checkpoint.h"
#include "core/model/oracle_specs.h"
#include "core/project/categorical_setup.h"
#include "core/project/training_setup.h"
#include "core/util/rng.h"
#include "tests/support/test_support.h"

using core::project::ProcessKind;
using core::project::TrainingDataSpec;

namespace {

const std::string kDigitsPath = DIFFUSCOPE_SOURCE_DIR "/resources/data/digits.csv.gz";

// K = 3, D = 1, two conditions of distinct P(x_0 | c).
core::project::Project tableProject() {
    core::project::Project project;
    core::project::CategoricalParams& p = project.categorical;
    p.numClasses = 3;
    p.pi = {0.2, 0.3, 0.5};
    p.dataSource = core::project::CategoricalData::Table;
    p.table = {{0.7, 0.2, 0.1}, {0.1, 0.1, 0.8}};
    p.conditionNames = {"a", "b"};
    return project;
}

// The Train dialog's own draw before the move: condition uniform, then a row of P(x_0 | c).
core::model::CategoricalDataset oldTableDraw(const core::data::CategoricalTable& table,
                                             int count,
                                             uint64_t seed,
                                             uint64_t key) {
    core::model::CategoricalDataset out;
    const int conditions = table.numConditions();
    for (int i = 0; i < count; ++i) {
        core::CounterRng rng(seed ^ key, static_cast<uint64_t>(i), 0);
        const int c = static_cast<int>(rng.uniform() * conditions) % conditions;
        std::vector<double> weights(static_cast<size_t>(table.numRows()), 0.0);
        for (int r = 0; r < table.numRows(); ++r) {
            weights[r] = table.condition[r] == c ? table.probability[r] : 0.0;
        }
        const int row = rng.categorical(weights);
        out.rows.insert(out.rows.end(), table.row(row), table.row(row) + table.numPositions);
        out.labels.push_back(c);
    }
    return out;
}

void compareSets(const core::model::CategoricalDataset& a,
                 const core::model::CategoricalDataset& b) {
    QVERIFY(!a.rows.empty());
    QVERIFY(a.rows == b.rows);
    QVERIFY(a.labels == b.labels);
}

// A state as a stopped run of `set` leaves it after `steps` of `params`, for a network of
// `parameters` weights.
core::model::TrainState stoppedState(const core::project::TrainingSet& set,
                                     const core::model::TrainParams& params,
                                     size_t parameters,
                                     int steps) {
    core::model::TrainState state;
    state.stepsDone = steps;
    state.online.assign(parameters, 0.0f);
    state.ema = state.moment1 = state.moment2 = state.online;
    state.trainLoss.assign(static_cast<size_t>(steps), 1.0);
    state.trainParams = core::model::trainParamsToJson(params);
    state.process = set.info.process;
    state.dataSet = set.info.dataSet;
    state.schedule = set.info.schedule;
    return state;
}

}  // namespace

class tst_TrainingSetup : public QObject {
    Q_OBJECT
private slots:
    void projectTableDrawsAsBefore();
    void digitsAreTheFixedSplit_data();
    void digitsAreTheFixedSplit();
    void csvRowsHoldOutTheLastTenth();
    void gaussianPointsAsBefore();
    void memoryEstimateByHand();
    void memoryRefusalNamesTheBatch();
    void resumeAcceptsTheSameRun();
    void resumeRefusesAChangedField_data();
    void resumeRefusesAChangedField();
    void stoppedRunSettingsAreTheRunsOwn();
    void digitsDataSetReadsBackWhatItWrites();
};

void tst_TrainingSetup::projectTableDrawsAsBefore() {
    const auto project = tableProject();
    const uint64_t seed = 17;
    auto set = core::project::trainingSet(project, ProcessKind::Categorical, seed,
                                          core::project::SetupSources{});
    DS_VERIFY_OK(set);
    auto setup = core::project::CategoricalSetup::build(project.categorical, {});
    DS_VERIFY_OK(setup);
    compareSets(set->categoricalTrain, oldTableDraw((*setup)->table, 4000, seed, 0x7A11));
    compareSets(set->categoricalHeldOut, oldTableDraw((*setup)->table, 400, seed, 0x4E1D));
    QCOMPARE(set->categorical.numClasses, 3);
    QCOMPARE(set->categorical.numPositions, 1);
    QCOMPARE(set->categorical.numConditions, 2);
    QCOMPARE(set->info.process, std::string("categorical"));
    QCOMPARE(set->info.dataSet, std::string("project table"));
    QCOMPARE(set->info.schedule, std::string("cosine"));
    QVERIFY(set->info.pi == std::vector<double>({0.2, 0.3, 0.5}));
    QCOMPARE(set->networkInputs(), 3);
}

// The dialog's digits project and `train --data digits:levels=L` train on the same split and
// name the same data set, so either can resume the other's run.
void tst_TrainingSetup::digitsAreTheFixedSplit_data() {
    QTest::addColumn<bool>("fromProject");
    QTest::newRow("project") << true;
    QTest::newRow("command line") << false;
}

void tst_TrainingSetup::digitsAreTheFixedSplit() {
    QFETCH(bool, fromProject);
    const auto sources = core::project::fileSources(kDigitsPath);
    core::Result<core::project::TrainingSet> set = core::invalidArgument("", "", "");
    if (fromProject) {
        core::project::Project project;
        project.categorical.dataSource = core::project::CategoricalData::Digits;
        project.categorical.digitLevels = 3;
        project.categorical.numClasses = 3;
        project.categorical.pi = {1.0 / 3, 1.0 / 3, 1.0 / 3};
        set = core::project::trainingSet(project, ProcessKind::Categorical, 5, sources);
    } else {
        set = core::project::trainingSet(
            TrainingDataSpec{.process = ProcessKind::Categorical, .data = "digits:levels=3"},
            sources);
    }
    DS_VERIFY_OK(set);
    auto digits = core::data::readDigits(kDigitsPath);
    DS_VERIFY_OK(digits);
    auto train = core::data::quantisedSplit(*digits, 3, true);
    auto heldOut = core::data::quantisedSplit(*digits, 3, false);
    DS_VERIFY_OK(train);
    DS_VERIFY_OK(heldOut);
    compareSets(set->categoricalTrain, {train->rows, train->labels});
    compareSets(set->categoricalHeldOut, {heldOut->rows, heldOut->labels});
    QCOMPARE(set->info.dataSet, std::string("digits:levels=3"));
    QCOMPARE(set->info.numPositions, 64);
    QCOMPARE(set->info.numConditions, 10);
    QCOMPARE(set->networkInputs(), 3 * 64);
}

void tst_TrainingSetup::csvRowsHoldOutTheLastTenth() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("rows.csv").toStdString();
    {
        std::ofstream file(path);
        file << "a,b,label\n";
        for (int i = 0; i < 20; ++i) file << i % 3 << ',' << (i / 3) % 3 << ',' << i % 2 << '\n';
    }
    auto set = core::project::trainingSet(
        TrainingDataSpec{
            .process = ProcessKind::Categorical, .data = "csv:" + path, .schedule = "linear"},
        {});
    DS_VERIFY_OK(set);
    // 20 rows: the first 18 train, the last 2 are held out, in file order.
    QCOMPARE(set->categoricalTrain.size(2), 18);
    QCOMPARE(set->categoricalHeldOut.size(2), 2);
    QVERIFY(set->categoricalHeldOut.rows == std::vector<int>({18 % 3, 6 % 3, 19 % 3, 6 % 3}));
    QVERIFY(set->categoricalHeldOut.labels == std::vector<int>({0, 1}));
    QCOMPARE(set->categorical.numClasses, 3);
    QCOMPARE(set->info.schedule, std::string("linear"));
    QCOMPARE(set->info.dataSet, "csv:" + path);
    QVERIFY(set->info.pi == std::vector<double>({1.0 / 3, 1.0 / 3, 1.0 / 3}));
    // A π of the wrong size names the option.
    auto bad = core::project::trainingSet(
        TrainingDataSpec{
            .process = ProcessKind::Categorical, .data = "csv:" + path, .pi = "uniform:4"},
        {});
    QVERIFY(!bad);
    QCOMPARE(bad.error().field, std::string("--pi"));
    // masked:3 adds the mask state as class 3 with all of π, and the metadata says so.
    auto masked = core::project::trainingSet(
        TrainingDataSpec{
            .process = ProcessKind::Categorical, .data = "csv:" + path, .pi = "masked:3"},
        {});
    DS_VERIFY_OK(masked);
    QCOMPARE(masked->categorical.numClasses, 4);
    QVERIFY(masked->categorical.maskState);
    QVERIFY(masked->info.maskState);
    QCOMPARE(masked->info.numClasses, 4);
    QVERIFY(masked->info.pi == std::vector<double>({0.0, 0.0, 0.0, 1.0}));
    QCOMPARE(masked->networkInputs(), 2 * 4);
    // masked:K must name the data's K.
    auto wrongK = core::project::trainingSet(
        TrainingDataSpec{
            .process = ProcessKind::Categorical, .data = "csv:" + path, .pi = "masked:4"},
        {});
    QVERIFY(!wrongK);
    QCOMPARE(wrongK.error().field, std::string("--pi"));
}

void tst_TrainingSetup::gaussianPointsAsBefore() {
    core::project::Project project;
    project.gaussian.data = "toy:moons,n=300";
    project.gaussian.schedule = "cosine";
    project.gaussian.numSteps = 200;
    auto fromProject = core::project::trainingSet(project, ProcessKind::Gaussian, 3, {});
    auto fromSpec = core::project::trainingSet(TrainingDataSpec{.process = ProcessKind::Gaussian,
                                                                .data = "toy:moons,n=300",
                                                                .schedule = "cosine",
                                                                .numSteps = 200},
                                               {});
    DS_VERIFY_OK(fromProject);
    DS_VERIFY_OK(fromSpec);
    auto old = core::model::gaussianTrainingData("toy:moons,n=300", 4000, nullptr);
    DS_VERIFY_OK(old);
    for (const auto* set : {&*fromProject, &*fromSpec}) {
        QVERIFY(set->gaussianTrain.size() > 0);
        QVERIFY(set->gaussianTrain == old->train);
        QVERIFY(set->gaussianHeldOut == old->heldOut);
        QCOMPARE(set->info.schedule, std::string("cosine,N=200"));
        QCOMPARE(set->info.dataSet, std::string("toy:moons,n=300"));
        QCOMPARE(set->info.numPositions, 2);
        QCOMPARE(set->gaussianSchedule.numSteps(), 200);
    }
}

// width 10, depth 2, 3 inputs, batch 7: parameters 10·(10·2·2 + 3 + 2·10) = 630;
// bytes 4·(5·630 + 7·10·(4·2 + 4)) = 4·(3150 + 840) = 15960.
void tst_TrainingSetup::memoryEstimateByHand() {
    core::model::MlpConfig config;
    config.width = 10;
    config.depth = 2;
    QCOMPARE(core::project::trainingParameters(config, 3), 630.0);
    QCOMPARE(core::project::trainingMemoryBytes(config, 7, 3), 15960.0);
    QVERIFY(core::project::checkTrainingMemory(config, 7, 3));
}

void tst_TrainingSetup::memoryRefusalNamesTheBatch() {
    core::model::MlpConfig config;
    config.width = 8192;
    config.depth = 64;
    const auto refused = core::project::checkTrainingMemory(config, 65536, 2, "--batch");
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, std::string("--batch"));
    QCOMPARE(refused.error().value, std::string("65536"));
    // 8192·(8192·128 + 2 + 16384) parameters, written out in the message.
    QVERIFY2(refused.error().message.find("8724168704 parameters") != std::string::npos,
             refused.error().message.c_str());
    QCOMPARE(core::project::checkTrainingMemory(config, 65536, 2).error().field,
             std::string("batch"));
}

namespace {

struct ResumeCase {
    core::project::TrainingSet set;
    core::model::MlpConfig architecture;
    core::model::TrainParams params;
};

// A Gaussian run of d = 2 on a network whose weights are counted by hand: width 4, depth 1,
// E = 32: input 4·(2 + 32) + 4, one block 2·(4·4 + 4), output 2·4 + 2 = 190.
ResumeCase resumeCase() {
    ResumeCase c;
    auto set = core::project::trainingSet(TrainingDataSpec{.process = ProcessKind::Gaussian,
                                                           .data = "toy:moons,n=100",
                                                           .numSteps = 100,
                                                           .points = 50},
                                          {});
    if (!set) qFatal("%s", set.error().toString().c_str());
    c.set = *set;
    c.architecture.width = 4;
    c.architecture.depth = 1;
    c.architecture.timeEmbedding = 32;
    c.params.steps = 20;
    c.params.batch = 4;
    c.params.seed = 9;
    return c;
}

constexpr size_t kHandCountedParameters = 190;

}  // namespace

void tst_TrainingSetup::resumeAcceptsTheSameRun() {
    const ResumeCase c = resumeCase();
    const auto state = stoppedState(c.set, c.params, kHandCountedParameters, 5);
    const auto same = core::project::checkResume(state, c.set, c.architecture, c.params);
    QVERIFY2(same, same ? "" : same.error().toString().c_str());
}

void tst_TrainingSetup::resumeRefusesAChangedField_data() {
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("named");
    QTest::newRow("process") << "process"
                             << "process 'gaussian', not 'categorical'";
    QTest::newRow("data") << "data"
                          << "data 'toy:moons,n=100', not 'toy:ring'";
    QTest::newRow("schedule") << "schedule"
                              << "schedule 'linear,N=100', not 'linear,N=99'";
    QTest::newRow("width") << "width"
                           << "another network";
    QTest::newRow("learning rate") << "lr"
                                   << "other training parameters";
    QTest::newRow("seed") << "seed"
                          << "other training parameters";
    QTest::newRow("finished") << "finished"
                              << "nothing is left to train";
}

void tst_TrainingSetup::resumeRefusesAChangedField() {
    QFETCH(QString, change);
    QFETCH(QString, named);
    ResumeCase c = resumeCase();
    auto state = stoppedState(c.set, c.params, kHandCountedParameters, 5);
    if (change == "process") c.set.info.process = "categorical";
    if (change == "data") c.set.info.dataSet = "toy:ring";
    if (change == "schedule") c.set.info.schedule = "linear,N=99";
    if (change == "width") c.architecture.width = 5;
    if (change == "lr") c.params.learningRate = 2e-3;
    if (change == "seed") c.params.seed = 10;
    if (change == "finished") state = stoppedState(c.set, c.params, kHandCountedParameters, 20);
    const auto refused = core::project::checkResume(state, c.set, c.architecture, c.params);
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, std::string("resume"));
    QVERIFY2(refused.error().message.find(named.toStdString()) != std::string::npos,
             refused.error().toString().c_str());
}

// The Train dialog's Resume shows the stopped run's settings, read back from its checkpoint.
void tst_TrainingSetup::stoppedRunSettingsAreTheRunsOwn() {
    core::model::TrainParams run;
    run.steps = 77;
    run.batch = 9;
    run.learningRate = 0.004;
    run.seed = 12;
    core::model::MlpConfig network;
    network.inputs = network.outputs = 2;
    network.width = 24;
    network.depth = 5;
    core::model::TrainState state;
    state.trainParams = core::model::trainParamsToJson(run);
    const core::model::TrainParams fields;  // what the dialog's fields say now
    auto settings =
        core::project::stoppedRunSettings(state, core::model::architectureToJson(network), fields);
    DS_VERIFY_OK(settings);
    QCOMPARE(settings->architecture.width, 24);
    QCOMPARE(settings->architecture.depth, 5);
    QCOMPARE(settings->params.steps, 77);
    QCOMPARE(settings->params.batch, 9);
    QCOMPARE(settings->params.learningRate, 0.004);
    QCOMPARE(settings->params.seed, uint64_t{12});
    // Keys the state lacks keep the fields' values; unreadable JSON is an error.
    state.trainParams = "{\"steps\": 30}";
    settings =
        core::project::stoppedRunSettings(state, core::model::architectureToJson(network), fields);
    DS_VERIFY_OK(settings);
    QCOMPARE(settings->params.steps, 30);
    QCOMPARE(settings->params.batch, fields.batch);
    QCOMPARE(settings->params.seed, fields.seed);
    state.trainParams = "{steps";
    QVERIFY(!core::project::stoppedRunSettings(state, core::model::architectureToJson(network),
                                               fields));
}

// The name checkpoints carry is read back by the one parser; anything else is refused with the
// field and the text named.
void tst_TrainingSetup::digitsDataSetReadsBackWhatItWrites() {
    for (int levels : {2, 4, 17, 256}) {
        const std::string name = core::project::digitsDataSet(levels);
        auto read = core::project::parseDigitsDataSet(name, "data_set");
        DS_VERIFY_OK(read);
        QCOMPARE(*read, levels);
    }
    auto plain = core::project::parseDigitsDataSet("digits", "data_set");
    DS_VERIFY_OK(plain);
    QCOMPARE(*plain, core::project::kDefaultDigitLevels);
    for (const std::string bad : {"digits:levels=4abc", "digits:levels=", "digits:levels=1",
                                  "digits:levels=257", "digits,levels=3", "digits:test",
                                  "digits:levels=-3"}) {
        auto read = core::project::parseDigitsDataSet(bad, "--data");
        QVERIFY2(!read.ok(), bad.c_str());
        QCOMPARE(read.error().value, bad);
        QVERIFY2(read.error().field.rfind("--data", 0) == 0, read.error().toString().c_str());
    }
}

QTEST_GUILESS_MAIN(tst_TrainingSetup)
#include "tst_training_setup.moc"
