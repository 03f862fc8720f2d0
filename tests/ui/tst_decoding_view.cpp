// SPDX-License-Identifier: MIT
// The categorical explorer's Decoding view under the offscreen platform: its charts show the
// core's projectDecodeSweep numbers to the bit, an infinite KL is a marker above the plot, the
// samplers are edited as undo steps and saved and reopened exactly, a bad spec names its row,
// a project without a mask state says why the view is empty, and the Trajectories view animates
// a chosen decoding sampler.
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QPushButton>
#include <QValueAxis>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/project/decoding_runs.h"
#include "core/util/parallel.h"
#include "tests/support/test_support.h"
#include "ui/main/explanation_pane.h"
#include "ui/charts/figure_chart.h"
#include "ui/document/bundled_data.h"
#include "ui/document/project_document.h"
#include "ui/jobs/job_runner.h"
#include "ui/main/categorical_explorer.h"
#include "ui/animation/chains_view.h"
#include "ui/views/chain_text.h"
#include "ui/views/commit_raster.h"
#include "ui/views/decoding_view.h"

using ui::document::CategoricalParams;

namespace {

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The y values of the chart's line pieces named `name`, in x order (gaps left out).
std::vector<QPointF> linePoints(QChart* chart, const QString& name) {
    std::vector<QPointF> points;
    for (QAbstractSeries* series : chart->series()) {
        auto* line = qobject_cast<QLineSeries*>(series);
        if (line == nullptr || qobject_cast<QScatterSeries*>(series) != nullptr ||
            line->name() != name) {
            continue;
        }
        for (const QPointF& p : line->points()) points.push_back(p);
    }
    std::sort(points.begin(), points.end(),
              [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    return points;
}

// A masked project on a correlated two-position table with three classes and a linear
// schedule: N = D = 2 unmasks one position per step.
void useMaskedPairs(ui::document::ProjectDocument& document, const QString& csv) {
    QFile file(csv);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("x1,x2,p\n0,0,0.4\n1,1,0.3\n2,2,0.2\n0,2,0.1\n");
    file.close();
    CategoricalParams p = document.categorical().withNumClasses(3);
    p.pi = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    p.maskState = true;
    p.schedule = core::schedule::BetaCurveKind::Linear;
    p.numSteps = 20;
    p.pathSteps = 2;
    p.condition = 0;
    p.conditionNames = {"all"};
    p.dataSource = ui::document::CategoricalData::CsvFile;
    p.csvPath = csv.toStdString();
    const core::Status set = document.setCategorical(p, "masked pairs");
    QVERIFY2(set.ok(), set.ok() ? "" : set.error().toString().c_str());
}

}  // namespace

class tst_DecodingView : public QObject {
    Q_OBJECT
private slots:
    void chartsShowTheCoreNumbers();
    void samplersAreSavedAndReopenedExactly();
    void aBadSpecNamesItsRow();
    void presetsAreAddedByName();
    void withoutAMaskStateTheViewSaysWhy();
    void trajectoriesAnimateTheChosenSampler();
    void theDigitsAreJudgedAsImages();
    void infiniteMarkersStandAboveCurvesOfZeros();
    void aChainIsDecodedAsText();
};

void tst_DecodingView::chartsShowTheCoreNumbers() {
    QTemporaryDir dir;
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    useMaskedPairs(document, dir.filePath("pairs.csv"));
    explorer.waitForJobs();
    auto* view = explorer.decodingView();
    const auto data = view->result();
    QVERIFY2(data != nullptr, qPrintable(view->statusLabel()->text()));
    QVERIFY(data->exact);
    QCOMPARE(data->steps, core::project::decodingSweepSteps(2));
    QCOMPARE(data->curves.size(), size_t{6});
    // The data's entropy, computed here from the table's four rows.
    double h = 0.0;
    for (double p : {0.4, 0.3, 0.2, 0.1}) h -= p * std::log(p);
    QVERIFY(std::abs(data->dataEntropy - h) < 1e-15);
    const auto& settings = document.categorical().decoding;
    for (const auto& curve : data->curves) {
        core::project::DecodeRequest request;
        auto sampler = core::project::parseSamplerSpec(
            settings.configs[static_cast<size_t>(curve.config)].sampler);
        DS_VERIFY_OK(sampler);
        request.sampler = *sampler;
        auto sweepRun = core::project::projectDecodeSweep(*explorer.setup(), request, data->steps,
                                                         core::defaultThreads());
        DS_VERIFY_OK(sweepRun);
        const auto* results = &sweepRun->results;
        QCOMPARE(results->size(), data->steps.size());
        const std::pair<int, const std::vector<double>*> charts[] = {
            {ui::views::DecodingView::Entropy, &curve.entropy},
            {ui::views::DecodingView::KlDataOutput, &curve.klDataOutput},
            {ui::views::DecodingView::KlOutputData, &curve.klOutputData},
            {ui::views::DecodingView::TotalVariation, &curve.totalVariation}};
        for (size_t i = 0; i < results->size(); ++i) {
            const auto& r = (*results)[i];
            const core::categorical::DecodeMeasure* measures[] = {
                &r.entropy, &r.klDataOutput, &r.klOutputData, &r.totalVariation};
            // Which token when: the core's commit, to the bit.
            QCOMPARE(curve.commit[i], r.commit);
            for (int m = 0; m < 4; ++m) {
                const double shown = (*charts[m].second)[i];
                if (measures[m]->value) {
                    QVERIFY2(sameBits(shown, *measures[m]->value), qPrintable(curve.name));
                } else {
                    QVERIFY2(std::isinf(shown), qPrintable(curve.name));
                }
            }
        }
        // The charts' points are those numbers; an infinite value is no point of a line.
        for (const auto& [index, values] : charts) {
            const auto points = linePoints(view->chart(index), curve.name);
            size_t finite = 0;
            for (size_t i = 0; i < values->size(); ++i) {
                if (!std::isfinite((*values)[i])) continue;
                QVERIFY(finite < points.size());
                QCOMPARE(points[finite].x(), static_cast<double>(data->steps[i]));
                QVERIFY2(sameBits(points[finite].y(), (*values)[i]), qPrintable(curve.name));
                ++finite;
            }
            QCOMPARE(points.size(), finite);
        }
    }
    // At N = 1 every sampler decodes both positions at once from their marginals: KL(data ‖
    // output) is the mutual information of the two positions, computed here from the table.
    const double joint[3][3] = {{0.4, 0.0, 0.1}, {0.0, 0.3, 0.0}, {0.0, 0.0, 0.2}};
    double p1[3] = {}, p2[3] = {};
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
            p1[a] += joint[a][b];
            p2[b] += joint[a][b];
        }
    }
    double mutual = 0.0;
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
            if (joint[a][b] > 0) mutual += joint[a][b] * std::log(joint[a][b] / (p1[a] * p2[b]));
        }
    }
    QVERIFY(std::abs(data->curves[0].klDataOutput[0] - mutual) < 1e-12);
    // Confidence with argmax at N = 2 decodes one sequence: entropy 0, KL(data ‖ output)
    // infinite, drawn as a triangle above the plot at N = 2, its meaning in the figure's legend.
    const auto& argmax = data->curves[2];
    QVERIFY(std::abs(argmax.entropy[1]) < 1e-15);
    QVERIFY(std::isinf(argmax.klDataOutput[1]));
    bool marker = false;
    for (QAbstractSeries* series : view->chart(ui::views::DecodingView::KlDataOutput)->series()) {
        auto* scatter = qobject_cast<QScatterSeries*>(series);
        if (scatter == nullptr ||
            scatter->markerShape() != QScatterSeries::MarkerShapeTriangle) {
            continue;
        }
        for (const QPointF& p : scatter->points()) marker = marker || p.x() == 2.0;
    }
    QVERIFY(marker);
    bool explained = false;
    for (QAbstractSeries* series : view->chart(ui::views::DecodingView::Distribution)->series()) {
        explained = explained || series->name().contains("infinite KL");
    }
    QVERIFY(explained);
    // The distribution chart: the data's bars and the chosen sampler's at the chosen N.
    QCOMPARE(data->rowLabels.size(), data->dataRows.size());
    QVERIFY(!view->chart(ui::views::DecodingView::Distribution)->series().isEmpty());
    // The commit raster shows the chosen sampler at the chosen N, and follows the choice.
    for (int choice : {0, 2}) {
        view->distributionSampler()->setCurrentIndex(choice);
        view->distributionSteps()->setCurrentIndex(0);
        const auto& shown = data->curves[static_cast<size_t>(choice)].commit[0];
        QCOMPARE(view->commitRaster()->commit(), shown);
        QVERIFY(!view->commitRaster()->isMap());
        // N = 1: every position is committed at the one step.
        QCOMPARE(data->steps[0], 1);
        QCOMPARE(ui::views::meanCommitSteps(shown, 1, 2), (std::vector<double>{1.0, 1.0}));
    }
    // N = 2 with the confidence sampler (one token a step): the mean commit step is
    // 1 + P(still masked after the first step), from the core's commit.
    const auto& two = data->curves[1].commit[1];
    QCOMPARE(ui::views::meanCommitSteps(two, 2, 2), (std::vector<double>{2.0 - two[0], 2.0 - two[1]}));
    // The CSV holds one row per sampler and N, with each position's mean commit step.
    auto csv = view->csvText();
    DS_VERIFY_OK(csv);
    QVERIFY(csv->find("kl_data_output") != std::string::npos);
    QVERIFY(csv->find("mean_commit_step_1,mean_commit_step_2") != std::string::npos);
}

// One position (example 1's table with a mask state): every finite KL is zero but for rounding,
// and argmax's is infinite. Its triangles stand above the plot's zeros, inside the axis, with
// the short legend entry and the meaning in the note.
void tst_DecodingView::infiniteMarkersStandAboveCurvesOfZeros() {
    ui::document::ProjectDocument document;
    document.loadExample(ui::document::examples().at(0).project);
    CategoricalParams p = document.categorical();
    p.maskState = true;
    QVERIFY(document.setCategorical(p, "mask state").ok());
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    auto* view = explorer.decodingView();
    const auto data = view->result();
    QVERIFY2(data != nullptr, qPrintable(view->statusLabel()->text()));
    double finiteTop = 0.0;
    bool infinite = false;
    for (const auto& curve : data->curves) {
        for (double v : curve.klDataOutput) {
            if (std::isfinite(v)) finiteTop = std::max(finiteTop, v);
            infinite = infinite || std::isinf(v);
        }
    }
    QVERIFY(infinite);
    QVERIFY2(finiteTop < 1e-12, qPrintable(QString::number(finiteTop)));
    QChart* chart = view->chart(ui::views::DecodingView::KlDataOutput);
    auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
    QVERIFY(y != nullptr);
    int markers = 0;
    for (QAbstractSeries* series : chart->series()) {
        auto* scatter = qobject_cast<QScatterSeries*>(series);
        if (scatter == nullptr || scatter->markerShape() != QScatterSeries::MarkerShapeTriangle) continue;
        for (const QPointF& point : scatter->points()) {
            ++markers;
            // In the upper part of the axis, far above the curves' zeros, and inside it.
            QVERIFY2(point.y() > y->min() + 0.8 * (y->max() - y->min()) && point.y() < y->max(),
                     qPrintable(QString("marker at %1, axis %2..%3").arg(point.y()).arg(y->min()).arg(y->max())));
        }
    }
    QVERIFY(markers > 0);
    QStringList legend;
    for (QAbstractSeries* series : view->chart(ui::views::DecodingView::Distribution)->series()) {
        legend << series->name();
    }
    QVERIFY2(legend.contains("infinite KL"), qPrintable(legend.join(", ")));
    bool explained = false;
    for (QLabel* label : view->findChildren<QLabel*>()) {
        explained = explained || label->text().contains("KL(data ‖ output) when the output gives probability 0");
    }
    QVERIFY(explained);
}

void tst_DecodingView::samplersAreSavedAndReopenedExactly() {
    QTemporaryDir dir;
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    useMaskedPairs(document, dir.filePath("pairs.csv"));
    auto* view = explorer.decodingView();
    QVERIFY(view->removeConfig(1));
    QVERIFY(view->addConfig());
    const int last = static_cast<int>(document.categorical().decoding.configs.size()) - 1;
    QVERIFY(view->setSampler(last, "order=ancestral;values=temperature:0.25;gumbel=float32"));
    view->animatedSampler()->setCurrentIndex(3);  // the third sampler
    QCOMPARE(document.categorical().decoding.animated, 2);
    const auto edited = document.categorical().decoding;
    QCOMPARE(edited.configs.size(), size_t{6});
    QCOMPARE(edited.configs[1].name, std::string("confidence, argmax"));
    QCOMPARE(view->table()->rowCount(), 6);
    const QString path = dir.filePath("decoding.diffuscope.json");
    QVERIFY(document.saveAs(path).ok());
    ui::document::ProjectDocument reopened;
    QVERIFY(reopened.open(path).ok());
    QVERIFY(reopened.categorical().decoding == edited);
    // Undo takes the samplers back one edit at a time.
    document.undoStack()->undo();
    QCOMPARE(document.categorical().decoding.animated, -1);
}

void tst_DecodingView::aBadSpecNamesItsRow() {
    QTemporaryDir dir;
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    useMaskedPairs(document, dir.filePath("pairs.csv"));
    auto* view = explorer.decodingView();
    // A spec that does not parse is refused where it is typed, naming the row's key and the
    // value, and the row keeps its sampler: a project never holds one (its file would be
    // refused on reading).
    const auto before = document.categorical().decoding;
    QVERIFY(!view->setSampler(3, "order=sideways"));
    QString errors = view->errorLabel()->text();
    QVERIFY2(errors.contains("decoding.configs[3].sampler") && errors.contains("sideways"), qPrintable(errors));
    // Remasking goes with the ancestral order only.
    QVERIFY(!view->setSampler(5, "order=confidence;remask=cap:0.1"));
    errors = view->errorLabel()->text();
    QVERIFY2(errors.contains("decoding.configs[5].sampler") && errors.contains("remask"), qPrintable(errors));
    QVERIFY(document.categorical().decoding == before);
    // Confidence remasking runs exactly.
    QVERIFY(view->setSampler(4, "order=ancestral;remask=conf"));
    explorer.waitForJobs();
    QVERIFY(view->result() != nullptr);
    QCOMPARE(view->result()->curves.size(), before.configs.size());
    QVERIFY(view->result()->exact);
    QCOMPARE(view->result()->curves[4].config, 4);
    QCOMPARE(view->result()->curves[4].entropy.size(), view->result()->steps.size());
}

// "Add preset" offers every preset; a chosen one becomes a row "preset=P" named after it
// (numbered when the name is taken), and the sweep runs it with the others. A LLaDA row with
// B = 2 keeps only the N divisible by 2 in the sweep (D = 2 here).
void tst_DecodingView::presetsAreAddedByName() {
    QTemporaryDir dir;
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    useMaskedPairs(document, dir.filePath("pairs.csv"));
    auto* view = explorer.decodingView();
    auto* button = view->findChild<QPushButton*>("addPreset");
    QVERIFY(button != nullptr && button->isEnabled() && button->menu() != nullptr);
    QStringList offered;
    for (QAction* action : button->menu()->actions()) offered << action->text();
    QCOMPARE(offered.size(), int(std::size(core::categorical::kDecodePresets)));
    QVERIFY(offered.contains("llada:low_confidence") && offered.contains("mdlm"));
    button->menu()->actions().front()->trigger();  // llada:low_confidence
    QVERIFY(view->addPreset("llada:low_confidence"));
    const auto& configs = document.categorical().decoding.configs;
    QCOMPARE(configs.size(), size_t{8});
    QCOMPARE(configs[6].name, std::string("llada:low_confidence"));
    QCOMPARE(configs[7].name, std::string("llada:low_confidence (2)"));
    QCOMPARE(configs[7].sampler, std::string("preset=llada:low_confidence"));
    QVERIFY(view->setSampler(7, "preset=llada:low_confidence;temperature=0.5;blocks=2"));
    explorer.waitForJobs();
    QVERIFY(view->result() != nullptr);
    QCOMPARE(view->result()->curves.size(), size_t{8});
    for (int n : view->result()->steps) QCOMPARE(n % 2, 0);
    // A preset with an option it does not take is refused where it is typed.
    QVERIFY(!view->setSampler(7, "preset=mdlm;temperature=0.5"));
    QVERIFY2(view->errorLabel()->text().contains("temperature"), qPrintable(view->errorLabel()->text()));
}

void tst_DecodingView::withoutAMaskStateTheViewSaysWhy() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    auto* view = explorer.decodingView();
    QVERIFY(view->result() == nullptr);
    QVERIFY2(view->statusLabel()->text().contains("mask state"),
             qPrintable(view->statusLabel()->text()));
}

void tst_DecodingView::trajectoriesAnimateTheChosenSampler() {
    QTemporaryDir dir;
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    useMaskedPairs(document, dir.filePath("pairs.csv"));
    explorer.waitForJobs();
    const auto reverse = explorer.chains();
    QVERIFY(reverse != nullptr);
    CategoricalParams p = document.categorical();
    p.decoding.animated = 1;  // confidence, sampled values: one position per step at N = 2
    QVERIFY(document.setCategorical(p, "animate").ok());
    explorer.waitForJobs();
    const auto chains = explorer.chains();
    QVERIFY(chains != reverse);
    QCOMPARE(chains->nodes, explorer.trajectory());
    QCOMPARE(chains->reverse.size(), size_t{3});
    const int mask = 3;
    const size_t count = chains->reverse[0].size() / 2;
    QVERIFY(count > 0);
    for (size_t b = 0; b < count; ++b) {
        // t = 1: all masked; t = 1/2: exactly one position decoded; t = 0: none masked.
        QCOMPARE(chains->reverse[2][2 * b], mask);
        QCOMPARE(chains->reverse[2][2 * b + 1], mask);
        QCOMPARE((chains->reverse[1][2 * b] == mask) + (chains->reverse[1][2 * b + 1] == mask), 1);
        QVERIFY(chains->reverse[0][2 * b] != mask && chains->reverse[0][2 * b + 1] != mask);
    }
    // Coloured by commit step: at the end of the replay each chain has one position committed
    // by the first step and the other by the second; halfway the second is still masked.
    auto* trajectories = explorer.chainsView();
    trajectories->setDirection(ui::animation::Direction::Reverse);
    trajectories->setColourByCommit(true);
    QVERIFY(trajectories->colourByCommit());
    trajectories->setPosition(2.0);
    for (size_t b = 0; b < count; ++b) {
        const int first = chains->reverse[1][2 * b] != mask ? 0 : 1;
        QCOMPARE(trajectories->commitStep(static_cast<int>(b), first), 1);
        QCOMPARE(trajectories->commitStep(static_cast<int>(b), 1 - first), 2);
    }
    QVERIFY(!trajectories->grab().isNull());
    trajectories->setPosition(1.0);
    const int first = chains->reverse[1][0] != mask ? 0 : 1;
    QCOMPARE(trajectories->commitStep(0, first), 1);
    QCOMPARE(trajectories->commitStep(0, 1 - first), 0);
    // Back to the reverse sampler: the kernel's chains again.
    p.decoding.animated = -1;
    QVERIFY(document.setCategorical(p, "kernel").ok());
    explorer.waitForJobs();
    QCOMPARE(explorer.chains()->reverse.front().size(), reverse->reverse.front().size());
}

// File ▸ Examples ▸ 6 (the masked digits network): Monte Carlo, drawn as the classifier's accuracy
// and the per-pixel entropy beside the real training images' own, the core's numbers to the bit.
void tst_DecodingView::theDigitsAreJudgedAsImages() {
    const auto examples = ui::document::examples();
    QCOMPARE(examples.size(), size_t{7});
    ui::document::ProjectDocument document;
    auto project = examples.at(5).project;
    // Two samplers keep the test short; the sweep is the view's own.
    project.categorical.decoding.configs.resize(2);
    document.loadExample(project);
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    const auto data = explorer.decodingView()->result();
    QVERIFY(data != nullptr);
    QVERIFY(!data->exact);
    QVERIFY(data->digits);
    const auto& digits = ui::document::bundledDigits();
    DS_VERIFY_OK(digits);
    auto reference = core::project::digitsReference(*digits, 4, project.categorical.condition);
    DS_VERIFY_OK(reference);
    QCOMPARE(data->dataAccuracy, reference->accuracy);
    QCOMPARE(data->dataPositionEntropy, reference->positionEntropy);
    QCOMPARE(data->curves.size(), size_t{2});
    const auto& curve = data->curves.front();
    QCOMPARE(curve.accuracy.size(), data->steps.size());
    // The first N of the first sampler, recomputed here with the explorer's request.
    core::project::DecodeRequest request;
    auto sampler = core::project::parseSamplerSpec(project.categorical.decoding.configs[0].sampler);
    DS_VERIFY_OK(sampler);
    request.sampler = *sampler;
    request.numSteps = data->steps.front();
    request.samples = 100;
    auto decoded = core::project::projectDecodeDigits(*explorer.setup(), request, *digits,
                                                      core::defaultThreads());
    DS_VERIFY_OK(decoded);
    QCOMPARE(curve.accuracy.front(), decoded->second.accuracy);
    QCOMPARE(curve.positionEntropy.front(), *decoded->first.positionEntropy.value);
    QCOMPARE(curve.commit.front(), decoded->first.commit);
    // Which pixel first: the raster is an 8 × 8 map of mean commit steps.
    auto* raster = explorer.decodingView()->commitRaster();
    QVERIFY(raster->isMap());
    QCOMPARE(data->imageSide, 8);
    // The sequence measures' charts are left out, and the note says how the images are judged.
    QVERIFY(ui::charts::figureOf(explorer.decodingView()->chart(ui::views::DecodingView::KlDataOutput))
                ->isHidden());
    QVERIFY(data->note.contains("classifier"));
    // Explained as what it draws: no KL or total variation is spoken of beside these charts.
    ui::ExplanationPane pane;
    pane.setViews(explorer.views());
    QVERIFY(pane.html().contains("Decoding (digits)"));
    QVERIFY(!pane.html().contains("total variation"));
}

// File ▸ Examples ▸ 7 (made short): sequences of the bundled English chain decoded as text. The
// charts hold the core's numbers to the bit, the text shows the run's first sequences with each
// letter's commit step, and the decoded length is typed like any number: one undo step that
// changes nothing else.
void tst_DecodingView::aChainIsDecodedAsText() {
    const auto examples = ui::document::examples();
    auto project = examples.at(6).project;
    QVERIFY(examples.at(6).title.contains("which letter first?"));
    project.categorical.decoding.configs.resize(2);  // llada:random, llada:low_confidence
    project.categorical.decoding.chain.length = 16;
    project.categorical.decoding.chain.samples = 60;
    ui::document::ProjectDocument document;
    document.loadExample(project);
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    auto* view = explorer.decodingView();
    const auto data = view->result();
    QVERIFY(data != nullptr);
    QVERIFY(data->chain);
    QCOMPARE(data->steps, (std::vector<int>{1, 2, 4, 8, 16}));
    const auto chain = ui::document::decodingChain("english");
    DS_VERIFY_OK(chain);
    QCOMPARE(data->chainEntropy, core::data::chainEntropyPerToken(*chain, 16));
    QCOMPARE(data->chainStates.size(), 28);
    // llada:random at N = D = 16, recomputed with the view's request.
    core::project::ChainDecodeRequest request;
    auto sampler = core::project::parseSamplerSpec("preset=llada:random");
    DS_VERIFY_OK(sampler);
    request.sampler = *sampler;
    request.length = 16;
    request.numSteps = 16;
    request.samples = 60;
    request.seed = project.categorical.seed;
    request.trajectories = core::project::kChainShownSequences;
    auto run = core::project::projectDecodeChain(*chain, explorer.setup()->curve, request, 1);
    DS_VERIFY_OK(run);
    const auto& curve = data->curves.front();
    QCOMPARE(curve.crossEntropy.back(), *run->measures.crossEntropy.value);
    QCOMPARE(curve.pairTotalVariation.back(), *run->measures.pairTotalVariation.value);
    QCOMPARE(curve.longestRepeat.back(), *run->measures.longestRepeat.value);
    QCOMPARE(curve.commit.back(), run->result.commit);
    // The charts: cross-entropy with the chain's entropy dashed; KL(output ‖ data) left out.
    auto* entropyChart = view->chart(ui::views::DecodingView::Entropy);
    bool dashed = false;
    for (auto* series : entropyChart->series()) {
        auto* line = qobject_cast<QLineSeries*>(series);
        if (line != nullptr && line->pen().style() == Qt::DashLine && line->count() == 2) {
            dashed = line->at(0).y() == data->chainEntropy;
        }
    }
    QVERIFY(dashed);
    QVERIFY(ui::charts::figureOf(view->chart(ui::views::DecodingView::KlOutputData))->isHidden());
    QVERIFY(!ui::charts::figureOf(view->chart(ui::views::DecodingView::KlDataOutput))->isHidden());

    // The text of llada:random at N = 16: the run's first sequence, one letter a step.
    view->distributionSampler()->setCurrentIndex(0);
    view->distributionSteps()->setCurrentIndex(4);
    auto* text = view->chainText();
    text->resize(900, 400);
    QCOMPARE(text->numSteps(), 16);
    QVERIFY(text->shownSequences() >= 1);
    QCOMPARE(text->sequenceText(0), QString::fromStdString(run->measures.samples.front()));
    view->textStep()->setValue(0);
    QCOMPARE(text->sequenceText(0), QString(16, QChar(0x00B7)));
    view->textStep()->setValue(5);
    QCOMPARE(text->sequenceText(0).count(QChar(0x00B7)), 11);
    QVERIFY(text->texts().join(' ').contains("after step 5 of 16"));

    // Typing D: nothing applied while typing, one edit on Enter, the samplers and M kept.
    auto* length = view->chainLength();
    const int undoBefore = document.undoStack()->count();
    length->setFocus();
    length->selectAll();
    QTest::keyClicks(length, "24");
    QCOMPARE(document.undoStack()->count(), undoBefore);
    QTest::keyClick(length, Qt::Key_Return);
    QCOMPARE(document.categorical().decoding.chain.length, 24);
    QCOMPARE(document.categorical().decoding.chain.samples, 60);
    QCOMPARE(document.categorical().decoding.configs.size(), size_t{2});
    QCOMPARE(document.undoStack()->count(), undoBefore + 1);
    explorer.waitForJobs();
    QCOMPARE(view->result()->steps.back(), 24);
    document.undoStack()->undo();
    QCOMPARE(document.categorical().decoding.chain.length, 16);
    QCOMPARE(view->chainLength()->value(), 16);
    explorer.waitForJobs();

    // Explained as what it draws.
    ui::ExplanationPane pane;
    pane.setViews(explorer.views());
    QVERIFY(pane.html().contains("Decoding (text from a Markov chain)"));

    // A long decode (D = 2048, M = 3000) cancelled with the button: the previous results stay,
    // marked out of date, and the banner says nothing is on its way.
    const auto shown = view->result();
    QSignalSpy cancelled(explorer.decodeRunner(), &ui::jobs::JobRunner::cancelled);
    auto longer = document.categorical();
    longer.decoding.chain.length = 2048;
    longer.decoding.chain.samples = 3000;
    QVERIFY(document.setCategorical(longer, "a long decode").ok());
    QTRY_VERIFY_WITH_TIMEOUT(explorer.decodeRunner()->isRunning(), 5000);
    QVERIFY(view->cancelButton()->isEnabled());
    view->cancelButton()->click();
    explorer.waitForJobs();
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(view->result() == shown);
    QVERIFY(view->isStale());
    QVERIFY2(view->staleText().contains("cancelled"), qPrintable(view->staleText()));
    QVERIFY(view->statusLabel()->text().startsWith("Cancelled"));
    document.undoStack()->undo();
    explorer.waitForJobs();
    QVERIFY(!view->isStale());

    // Back to the project's data: the table's charts again.
    QVERIFY(view->setChainSource(QString()));
    QVERIFY(!document.categorical().decoding.chain.active());
    explorer.waitForJobs();
    QVERIFY(view->result() != nullptr && !view->result()->chain);
    QVERIFY(!view->chainText()->isVisibleTo(view));
}

QTEST_MAIN(tst_DecodingView)
#include "tst_decoding_view.moc"
