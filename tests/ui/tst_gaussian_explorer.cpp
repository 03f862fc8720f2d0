// SPDX-License-Identifier: MIT
// Tests of the Gaussian explorer's first views: the Variance view shows the core's σ² and bounds,
// the Γ view the estimate; Γ is reused when only the trajectory changes; the panel refuses a bad
// data spec; the parameters round-trip through project files. The NLL-against-K job equals the
// core's negativeElbo, fills six finite curves, can be cancelled and goes stale with Γ's inputs.
#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QElapsedTimer>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QLabel>
#include <QTest>

#include <map>

#include "core/data/gaussian_data.h"
#include "core/model/oracle_specs.h"
#include "core/gaussian/gamma.h"
#include "core/io/csv.h"
#include "core/gaussian/nll.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/gaussian/variance.h"
#include "core/schedule/gaussian_schedule.h"
#include "tests/support/project_choices.h"
#include "ui/charts/chart_export.h"
#include "ui/document/bundled_data.h"
#include "ui/document/project_document.h"
#include "ui/jobs/job_runner.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/explanation_pane.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/main/main_window.h"
#include "ui/panels/gaussian_panel.h"
#include "ui/views/compare_view.h"
#include "ui/views/gamma_view.h"
#include "ui/views/lab_view.h"
#include "ui/views/particles_view.h"
#include "ui/views/gaussian_trajectory_view.h"
#include "ui/views/variance_view.h"
#include "tests/support/test_support.h"

using ui::document::GaussianParams;

namespace {
// Small enough for the sanitizer build: N = 100, M = 30.
GaussianParams smallParams() {
    GaussianParams p;
    p.numSteps = 100;
    p.gammaSamples = 30;
    p.pathSteps = 8;
    p.data = "toy:ring,n=300";
    return p;
}
}  // namespace

class tst_GaussianExplorer : public QObject {
    Q_OBJECT

private slots:
    void varianceViewEqualsTheCore_data();
    void varianceViewEqualsTheCore();
    void gammaIsReusedWhenOnlyTheTrajectoryChanges();
    void panelRefusesABadDataSpec();
    void spacingOptionsEditTheProject();
    void paramsRoundTripAndValidate();
    void processSwitchShowsTheGaussianViews();
    void nllVsKEqualsTheCore();
    void nllVsKCancelLeavesTheViewUsable();
    void typedTrajectoryList();
    void customScheduleTable();
    void cancelledGammaResumes();
    void zeroSnrViewsStayFinite();
    void csvExportsAreOneTableEach();
    void anotherExampleMarksEveryViewUntilItsResults();
};

// Loading another example (the moons, then the digits with their network) marks every view of
// both explorers out of date, says so in the Explanation's "Now" list and empties the Lab, until
// each view's own results arrive; none of the previous example's numbers is shown as current.
void tst_GaussianExplorer::anotherExampleMarksEveryViewUntilItsResults() {
    ui::document::ProjectDocument document;
    const auto examples = ui::document::examples();
    document.loadExample(examples.at(2).project);
    auto p = document.gaussian();
    p.gammaSamples = 20;
    p.lab.configs = {core::project::LabConfig{.name = "even"}};
    p.lab.ks = {5, 10};
    p.lab.qualitySamples = 50;
    p.lab.nllPoints = 50;
    QVERIFY(document.setGaussian(p, "small"));
    ui::CategoricalExplorer categorical(&document);
    ui::GaussianExplorer gaussian(&document);
    gaussian.waitForJobs();
    gaussian.runLab();
    gaussian.waitForJobs();
    categorical.waitForJobs();
    QVERIFY(gaussian.labView()->result() != nullptr);
    auto all = categorical.views();
    for (const auto& entry : gaussian.views()) all.push_back(entry);
    for (const auto& [name, view] : all) QVERIFY2(!view->isStale(), qPrintable(name));
    ui::ExplanationPane pane;
    pane.setViews(all);
    QVERIFY(pane.html().contains("grey beneath", Qt::CaseInsensitive));  // points over a density
    QVERIFY(!pane.html().contains("Particles (images)"));

    document.loadExample(examples.at(3).project);  // the digits
    // Each view is marked, or already shows the digits' results (cheap curves computed at once:
    // checked below against what it shows once every job is done).
    std::map<QString, std::vector<std::string>> currentAtOnce;
    int marked = 0;
    for (const auto& [name, view] : all) {
        if (name == "lab") continue;
        if (view->isStale()) {
            ++marked;
        } else {
            currentAtOnce[name] = view->provenance();
        }
    }
    // The views of the Γ job at least wait for it.
    for (const auto& [name, view] : gaussian.views()) {
        if (name == "gamma" || name == "variance" || name == "gaussian-trajectory" || name == "particles") {
            QVERIFY2(view->isStale(), qPrintable(name));
        }
    }
    QVERIFY2(marked >= 4, qPrintable(QString::number(marked)));
    QVERIFY(pane.html().contains("Out of date"));
    QVERIFY2(!pane.html().contains("toy:moons"), qPrintable(pane.html().mid(pane.html().indexOf("toy:moons") - 600, 700)));
    QVERIFY(gaussian.labView()->result() == nullptr);  // the moons' lab run is gone
    QVERIFY(!gaussian.labView()->csvText());

    gaussian.waitForJobs();
    categorical.waitForJobs();
    for (const auto& [name, view] : all) {
        QVERIFY2(!view->isStale(), qPrintable(name + " is still marked out of date"));
        if (currentAtOnce.contains(name)) {
            QVERIFY2(currentAtOnce[name] == view->provenance(), qPrintable(name + " showed the moons unmarked"));
        }
    }
    QVERIFY(!pane.html().contains("Out of date"));
    // The digits are drawn as images, and explained as images.
    QVERIFY(gaussian.particlesView()->showsImages());
    QVERIFY(pane.html().contains("Particles (images)"));
}

void tst_GaussianExplorer::varianceViewEqualsTheCore_data() {
    QTest::addColumn<QString>("trajectory");
    QTest::addColumn<double>("eta");
    QTest::newRow("dp ddpm") << "dp" << 1.0;
    QTest::newRow("even ddim") << "even" << 0.0;
    QTest::newRow("quadratic eta 0.5") << "quadratic" << 0.5;
}

void tst_GaussianExplorer::varianceViewEqualsTheCore() {
    QFETCH(QString, trajectory);
    QFETCH(double, eta);
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    GaussianParams p = smallParams();
    p.trajectory = test_support::gaussianTrajectory(trajectory);
    p.eta = eta;
    QVERIFY(document.setGaussian(p, "small").ok());
    explorer.waitForJobs();
    const auto results = explorer.results();
    QVERIFY(results != nullptr);
    QVERIFY(results->params == p);
    // The core's variances on the same trajectory, from the same Γ.
    core::gaussian::ForwardProcess forward;
    forward.eta = eta;
    const auto pairs = core::gaussian::trajectoryVariances(results->schedule, results->gamma,
                                                           results->trajectory.timesteps, forward);
    DS_VERIFY_OK(pairs);
    const auto& data = explorer.varianceView()->data();
    QCOMPARE(data.columns[0].size(), pairs->size());
    for (const auto& pair : *pairs) {
        // The view sorts by t; find the row of this pair.
        const auto row = std::find(data.columns[1].begin(), data.columns[1].end(), pair.t) -
                         data.columns[1].begin();
        QVERIFY(row < static_cast<long>(data.columns[1].size()));
        QCOMPARE(data.columns[2][row], pair.sigma2);
        QCOMPARE(data.columns[4][row], pair.lower);
        QCOMPARE(data.columns[5][row], pair.upper);
        QCOMPARE(data.columns[6][row], pair.upperBounded);
        QVERIFY(pair.sigma2 >= pair.lower && pair.sigma2 <= std::min(pair.upper, pair.upperBounded));
    }
    QCOMPARE(results->trajectory.timesteps.size(), size_t{8});
    // The DP path costs least among the three kinds on the same Γ (quadratic may have fewer
    // nodes, but never a smaller ΣJ than the optimum for its own count, which is ≥ the DP's).
    const double dp = core::gaussian::trajectoryCost(results->cost, results->dpTimesteps);
    QVERIFY(dp <= core::gaussian::trajectoryCost(results->cost, results->evenTimesteps) + 1e-12);
    QCOMPARE(results->trajectory.timesteps.back(), trajectory == "quadratic" ? 81 : 100);
}

void tst_GaussianExplorer::gammaIsReusedWhenOnlyTheTrajectoryChanges() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    QVERIFY(document.setGaussian(smallParams(), "small").ok());
    explorer.waitForJobs();
    const auto first = explorer.results();
    // The Γ view shows the estimate itself.
    const auto& gammaData = explorer.gammaView()->data();
    QCOMPARE(gammaData.columns[1], first->estimate.gamma);
    QCOMPARE(gammaData.columns[2], first->estimate.standardError);
    GaussianParams p = smallParams();
    p.pathSteps = 5;
    p.trajectory = ui::document::GaussianTrajectory::Even;
    QVERIFY(document.setGaussian(p, "K").ok());
    explorer.waitForJobs();
    const auto second = explorer.results();
    QVERIFY(second != first);
    QCOMPARE(second->gamma, first->gamma);  // the same numbers, not a new Monte Carlo draw
    QCOMPARE(second->trajectory.timesteps.size(), size_t{5});
    // A new seed draws a new estimate.
    p.seed = 99;
    QVERIFY(document.setGaussian(p, "seed").ok());
    explorer.waitForJobs();
    QVERIFY(explorer.results()->gamma != first->gamma);
}

void tst_GaussianExplorer::panelRefusesABadDataSpec() {
    ui::document::ProjectDocument document;
    ui::jobs::JobRunner files, checks;  // what the explorer owns in the window
    ui::panels::GaussianPanel panel(&document, &files, &checks);
    const GaussianParams before = document.gaussian();
    panel.editDataSpec("gmm:/nonexistent/mixture.json");
    QVERIFY2(panel.fieldError("data").contains("/nonexistent/mixture.json"),
             qPrintable(panel.fieldError("data")));
    panel.editDataSpec("toy:spiral");
    QVERIFY(panel.fieldError("data").contains("spiral"));
    QVERIFY(document.gaussian() == before);
    panel.editDataSpec("toy:checkerboard,n=500");
    QCOMPARE(panel.fieldError("data"), QString());
    QCOMPARE(QString::fromStdString(document.gaussian().data), QString("toy:checkerboard,n=500"));
    document.undoStack()->undo();
    QVERIFY(document.gaussian() == before);
}

void tst_GaussianExplorer::paramsRoundTripAndValidate() {
    GaussianParams p = smallParams();
    p.schedule = "cosine";
    p.eta = 0.25;
    p.estimator = ui::document::GammaEstimatorChoice::Score;
    p.seed = 18446744073709551557ULL;
    const auto back = GaussianParams::fromJson(p.toJson());
    DS_VERIFY_OK(back);
    QVERIFY(*back == p);
    // A project without a "gaussian" object opens with the defaults.
    QVERIFY(GaussianParams::fromJson({}).ok());
    GaussianParams bad = p;
    bad.pathSteps = 1000;
    QCOMPARE(QString::fromStdString(bad.validate().error().field), QString("K"));
    bad = p;
    bad.eta = 1.5;
    QCOMPARE(QString::fromStdString(bad.validate().error().field), QString("eta"));
    core::io::Json wrongType = p.toJson();
    wrongType["numSteps"] = "many";
    QVERIFY(!GaussianParams::fromJson(wrongType).ok());
}

void tst_GaussianExplorer::processSwitchShowsTheGaussianViews() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    QVERIFY(window.document()->setGaussian(smallParams(), "small").ok());
    window.document()->setProcess(ui::document::ProcessKind::Gaussian);
    QCOMPARE(window.tabs()->count(), 6);  // Particles, Γ, Variance, Trajectory, Compare, Lab
    QCOMPARE(window.tabs()->tabText(0), QString("Particles"));
    window.gaussianExplorer()->waitForJobs();
    QVERIFY(window.gaussianExplorer()->results() != nullptr);
    // Space plays the particles while the Gaussian process is shown.
    ui::views::ParticlesView* particles = window.gaussianExplorer()->particlesView();
    QAction* play = nullptr;
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == "Play / pause") play = action;
    }
    QVERIFY(play != nullptr);
    play->trigger();
    QVERIFY(particles->isPlaying());
    play->trigger();
    QVERIFY(!particles->isPlaying());
    // The process is part of the project file.
    const QString path = dir.filePath("p.json");
    QVERIFY(window.document()->saveAs(path).ok());
    ui::document::ProjectDocument reopened;
    QVERIFY(reopened.open(path).ok());
    QVERIFY(reopened.project().process == ui::document::ProcessKind::Gaussian);
    QVERIFY(reopened.gaussian() == smallParams());
    window.document()->setProcess(ui::document::ProcessKind::Categorical);
    QCOMPARE(window.tabs()->count(), 5);
}

void tst_GaussianExplorer::nllVsKEqualsTheCore() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    QVERIFY(document.setGaussian(smallParams(), "small").ok());
    explorer.waitForJobs();
    const auto results = explorer.results();
    QVERIFY(results != nullptr);
    QElapsedTimer timer;
    timer.start();
    explorer.trajectoryView()->nllButton()->click();  // as the user does
    QVERIFY(explorer.nllRunner()->isRunning());
    QVERIFY(!explorer.trajectoryView()->nllButton()->isEnabled());
    explorer.waitForJobs();
    qInfo("NLL vs K at N = 100 (ring, 300 points): %lld ms", timer.elapsed());
    const auto curves = explorer.nllCurves();
    QVERIFY(curves != nullptr);
    QVERIFY(explorer.trajectoryView()->nllButton()->isEnabled());
    QCOMPARE(curves->ks, (std::vector<int>{2, 5, 10, 25, 50, 100}));
    // Six lines, one point per K, all finite.
    const auto series = explorer.trajectoryView()->nllSeries();
    QCOMPARE(series.size(), 6);
    for (QLineSeries* line : series) {
        QCOMPARE(line->count(), 6);
        for (const QPointF& point : line->points()) {
            QVERIFY(std::isfinite(point.y()) && point.y() > 0.0);
        }
    }
    for (int kind = 0; kind < 2; ++kind) {
        for (int v = 0; v < 3; ++v) {
            QCOMPARE(curves->bitsPerDim[kind][v].size(), size_t{6});
            for (double se : curves->standardError[kind][v]) {
                QVERIFY(std::isfinite(se) && se >= 0.0);
            }
        }
    }
    // One cell against the core called directly: K = 10, the DP path, the analytic σ².
    auto dp = core::gaussian::dpTrajectory(results->schedule, results->gamma, 10);
    DS_VERIFY_OK(dp);
    QCOMPARE(curves->trajectories[1][2], dp->timesteps);
    auto oracle = core::model::gaussianOracleFromSpec(smallParams().data);
    DS_VERIFY_OK(oracle);
    core::gaussian::NllParams params{.variance = core::gaussian::ReverseVariance::Analytic,
                                     .numSamples = curves->points,
                                     .seed = curves->seed};
    auto direct = core::gaussian::negativeElbo(**oracle, **oracle, results->schedule,
                                               results->gamma, dp->timesteps, params);
    DS_VERIFY_OK(direct);
    QCOMPARE(curves->bitsPerDim[1][0][2], direct->bitsPerDim);
    QCOMPARE(curves->standardError[1][0][2], direct->standardError);
    // And one even cell with β (large): K = 25.
    params.variance = core::gaussian::ReverseVariance::Large;
    direct = core::gaussian::negativeElbo(**oracle, **oracle, results->schedule, results->gamma,
                                          curves->trajectories[0][3], params);
    DS_VERIFY_OK(direct);
    QCOMPARE(curves->bitsPerDim[0][2][3], direct->bitsPerDim);
    // The CSV carries the table.
    QTemporaryDir dir;
    const QString path = dir.filePath("trajectory.csv");
    QCOMPARE(explorer.trajectoryView()->exportCsv(path), QString());
    // One long table after its header block: the NLL rows carry the same numbers.
    const auto table = core::io::readCsv(path.toStdString());
    DS_VERIFY_OK(table);
    QCOMPARE(table->header, (std::vector<std::string>{"quantity", "trajectory", "variance", "K",
                                                       "timestep", "sum_J", "nll_bpd", "nll_se"}));
    int nllRows = 0;
    for (size_t r = 0; r < table->rows.size(); ++r) {
        const auto& row = table->rows[r];
        if (row[0] == "nll" && row[1] == "dp" && row[2] == "analytic" &&
            row[3] == std::to_string(curves->ks[2])) {
            QCOMPARE(*core::io::fieldAsDouble(*table, r, 6), curves->bitsPerDim[1][0][2]);
        }
        nllRows += row[0] == "nll";
    }
    QCOMPARE(nllRows, static_cast<int>(6 * curves->ks.size()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    for (const char* line : {"# view: Trajectory\n", "# schedule: ", "# program: Diffuscope"}) {
        QVERIFY2(text.contains(line), qPrintable(text.left(400)));
    }
    // K and η do not change the curves; the Γ seed does, and undoing it makes them current again.
    QVERIFY(!explorer.trajectoryView()->nllStale());
    GaussianParams p = smallParams();
    p.pathSteps = 4;
    p.eta = 0.0;
    QVERIFY(document.setGaussian(p, "K").ok());
    QVERIFY(!explorer.trajectoryView()->nllStale());
    p.seed = 7;
    QVERIFY(document.setGaussian(p, "seed").ok());
    QVERIFY(explorer.trajectoryView()->nllStale());
    document.undoStack()->undo();
    QVERIFY(!explorer.trajectoryView()->nllStale());
    explorer.waitForJobs();
}

void tst_GaussianExplorer::nllVsKCancelLeavesTheViewUsable() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    QVERIFY(document.setGaussian(smallParams(), "small").ok());
    explorer.waitForJobs();
    QSignalSpy cancelled(explorer.nllRunner(), &ui::jobs::JobRunner::cancelled);
    explorer.computeNllVsK();
    QElapsedTimer timer;
    timer.start();
    explorer.cancelJobs();
    explorer.waitForJobs();
    QVERIFY(timer.elapsed() < 2000);
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(explorer.nllCurves() == nullptr);
    QVERIFY(explorer.trajectoryView()->nllButton()->isEnabled());
    // The view still works: compute again, to the end.
    explorer.computeNllVsK();
    explorer.waitForJobs();
    QVERIFY(explorer.nllCurves() != nullptr);
    QCOMPARE(explorer.trajectoryView()->nllSeries().front()->count(), 6);
    // The status says which model the curves score and where their Γ came from.
    const QString scored = explorer.nllCurves()->scored;
    QVERIFY2(scored.startsWith("scores the exact oracle with Γ estimated from M = "),
             qPrintable(scored));
    bool shown = false;
    for (QLabel* label : explorer.trajectoryView()->findChildren<QLabel*>()) {
        shown = shown || label->text().contains(scored);
    }
    QVERIFY(shown);
}

// The offset of leading and the ρ of Karras spacing are edited in the panel, enabled only for
// their kind, and reach the trajectory the views use.
void tst_GaussianExplorer::spacingOptionsEditTheProject() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    ui::jobs::JobRunner files, checks;  // what the explorer owns in the window
    ui::panels::GaussianPanel panel(&document, &files, &checks);
    GaussianParams p = smallParams();
    p.trajectory = ui::document::GaussianTrajectory::Karras;
    p.pathSteps = 6;
    QVERIFY(document.setGaussian(p, "karras").ok());
    auto* rho = panel.findChild<QDoubleSpinBox*>("karrasRho");
    auto* offset = panel.findChild<QSpinBox*>("leadingOffset");
    QVERIFY(rho != nullptr && offset != nullptr);
    QVERIFY(rho->isEnabled());
    QVERIFY(!offset->isEnabled());
    rho->setValue(3.0);
    emit rho->editingFinished();
    QCOMPARE(document.gaussian().karrasRho, 3.0);
    QCOMPARE(QString::fromStdString(document.gaussian().trajectorySpec()), QString("karras:6,rho=3"));

    p = document.gaussian();
    p.trajectory = ui::document::GaussianTrajectory::Leading;
    QVERIFY(document.setGaussian(p, "leading").ok());
    QVERIFY(offset->isEnabled());
    QVERIFY(!rho->isEnabled());
    offset->setValue(2);
    emit offset->editingFinished();
    QCOMPARE(document.gaussian().leadingOffset, 2);
    explorer.waitForJobs();
    // N = 100, K = 6: t_i = 16·i + 2, n = t + 1.
    QCOMPARE(explorer.results()->trajectory.timesteps, (std::vector<int>{3, 19, 35, 51, 67, 83}));
    // An offset that pushes the last timestep past N is refused beside the field.
    offset->setValue(30);
    emit offset->editingFinished();
    QVERIFY(panel.fieldError("trajectory").contains("30"));
    QCOMPARE(document.gaussian().leadingOffset, 2);
    // The diffusers class of the spacing: UniPC's leading takes i·⌊100/7⌋ + 2 for i = 1..6
    // (t = 16, 30, …, 86), one undoable edit; back to DDIM's arithmetic after the undo.
    auto* diffusersClass = panel.findChild<QComboBox*>("diffusersClass");
    QVERIFY(diffusersClass != nullptr && diffusersClass->isEnabled());
    diffusersClass->setCurrentIndex(diffusersClass->findData("UniPCMultistepScheduler"));
    QCOMPARE(QString::fromStdString(document.gaussian().trajectorySpec()),
             QString("leading:6,offset=2,class=UniPCMultistepScheduler"));
    explorer.waitForJobs();
    QCOMPARE(explorer.results()->trajectory.timesteps, (std::vector<int>{17, 31, 45, 59, 73, 87}));
    document.undoStack()->undo();
    QCOMPARE(document.gaussian().diffusersClass, std::string());
    QCOMPARE(diffusersClass->currentIndex(), 0);
    explorer.waitForJobs();

    // The Trajectory view lists the spacing as a row of its own beside DP, even and quadratic,
    // reads the timesteps and the heatmap under the cursor, and offers the list.
    ui::views::GaussianTrajectoryView* view = explorer.trajectoryView();
    QTableWidget* listing = view->listing();
    QCOMPARE(listing->rowCount(), 4);
    QCOMPARE(listing->item(3, 0)->text(), QString("leading:6,offset=2"));
    QCOMPARE(listing->item(3, 3)->text(), QString("3, 19, 35, 51, 67, 83"));
    QCOMPARE(listing->item(3, 1)->text(), QString("6"));
    view->resize(900, 900);
    view->canvas()->resize(800, 500);
    // The fourth row's tick at n = 35 (the rows' places follow the canvas's font).
    const auto layout = view->canvasLayout(view->canvas()->size());
    const double left = layout.left, right = layout.right;
    const int x35 = static_cast<int>(std::lround(left + 34.0 / 99.0 * (right - left)));
    const QString tick = view->canvasTooltip(
        QPoint(x35 + 2, static_cast<int>(layout.rowsTop + 3 * layout.rowHeight + 7)));
    QVERIFY2(tick.startsWith("leading:6,offset=2: n = 35 (timestep 3 of 6)"), qPrintable(tick));
    const double j = explorer.results()->cost(18, 34);
    QVERIFY2(tick.contains(QString("step (19, 35): J = %1").arg(j, 0, 'g', 4)), qPrintable(tick));
    QVERIFY(view->canvasTooltip(QPoint(5, 5)).isEmpty());
    // "Use as typed list": the DP row becomes the typed list in one undo step; the leading
    // row, which does not start at 1, is refused with the core's reason.
    QSignalSpy used(view, &ui::views::GaussianTrajectoryView::useAsTypedList);
    listing->selectRow(0);
    const QString dpSteps = listing->item(0, 3)->text();
    const auto useButtons = view->findChildren<QPushButton*>();
    QPushButton* use = nullptr;
    for (QPushButton* b : useButtons) {
        if (b->text() == "Use as typed list") use = b;
    }
    QVERIFY(use != nullptr);
    use->click();
    QCOMPARE(used.count(), 1);
    QCOMPARE(document.gaussian().trajectory, ui::document::GaussianTrajectory::List);
    QCOMPARE(QString::fromStdString(document.gaussian().trajectoryList), dpSteps);
    document.undoStack()->undo();
    QCOMPARE(document.gaussian().trajectory, ui::document::GaussianTrajectory::Leading);
    listing->selectRow(3);
    use->click();
    QCOMPARE(document.gaussian().trajectory, ui::document::GaussianTrajectory::Leading);
    QVERIFY2(view->message().contains("trajectory = 3: a typed list must start at 1"), qPrintable(view->message()));
}

// A typed list of timesteps: refused with the core's reason when it is not strictly increasing
// from 1 to N; otherwise the Variance view's pairs are exactly its consecutive steps, and the
// list survives the project file.
void tst_GaussianExplorer::typedTrajectoryList() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    ui::jobs::JobRunner files, checks;  // what the explorer owns in the window
    ui::panels::GaussianPanel panel(&document, &files, &checks);
    QVERIFY(document.setGaussian(smallParams(), "small").ok());
    const GaussianParams before = document.gaussian();
    panel.editTrajectoryList("1,40,30,100");
    QVERIFY2(!panel.fieldError("trajectory").isEmpty(), "a decreasing list was accepted");
    panel.editTrajectoryList("1,20,x,100");
    QVERIFY(panel.fieldError("trajectory").contains("x"));
    panel.editTrajectoryList("2,50,100");  // must start at 1
    QVERIFY(!panel.fieldError("trajectory").isEmpty());
    QVERIFY(document.gaussian() == before);
    panel.editTrajectoryList("1, 7, 30, 64, 100");
    QCOMPARE(panel.fieldError("trajectory"), QString());
    QCOMPARE(QString::fromStdString(document.gaussian().trajectoryList), QString("1,7,30,64,100"));
    explorer.waitForJobs();
    const auto results = explorer.results();
    QCOMPARE(results->trajectory.timesteps, (std::vector<int>{1, 7, 30, 64, 100}));
    QCOMPARE(explorer.varianceView()->data().columns[1].size(), size_t{4});
    // The other kinds are compared at the list's K = 5.
    QCOMPARE(results->dpTimesteps.size(), size_t{5});
    // The Trajectory view adds the list as a fourth row, beside the DP one.
    const auto& rows = explorer.trajectoryView()->data();
    QCOMPARE(std::count(rows.text[1].begin(), rows.text[1].end(), "typed list"), 5L);
    QCOMPARE(std::count(rows.text[1].begin(), rows.text[1].end(), "DP-optimal"), 5L);
    auto back = GaussianParams::fromJson(document.gaussian().toJson());
    DS_VERIFY_OK(back);
    QVERIFY(*back == document.gaussian());
    document.undoStack()->undo();
    QVERIFY(document.gaussian() == before);
}

// A custom β table: its length becomes N, the explorer's schedule is the table's, a bad table
// is refused beside the field, and the project stores the file relative to itself.
void tst_GaussianExplorer::customScheduleTable() {
    QTemporaryDir dir;
    const QString table = dir.filePath("betas.csv");
    {
        QFile file(table);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("n,beta\n");
        for (int n = 1; n <= 60; ++n) {
            file.write(QByteArray::number(n) + "," + QByteArray::number(0.001 + 0.004 * n) + "\n");
        }
    }
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    ui::jobs::JobRunner files, checks;  // what the explorer owns in the window
    ui::panels::GaussianPanel panel(&document, &files, &checks);
    QVERIFY(document.setGaussian(smallParams(), "small").ok());
    QVERIFY2(panel.loadScheduleFile(table), qPrintable(panel.fieldError("process")));
    QCOMPARE(document.gaussian().numSteps, 60);
    QVERIFY(document.gaussian().pathSteps <= 60);
    explorer.waitForJobs();
    const auto results = explorer.results();
    QCOMPARE(results->schedule.numSteps(), 60);
    double alphaBar = 1.0;
    for (int n = 1; n <= 60; ++n) {
        alphaBar *= 1.0 - (0.001 + 0.004 * n);
        DS_COMPARE_REL(results->schedule.alphaBar(n), alphaBar, 1e-12);
    }
    QCOMPARE(results->trajectory.timesteps.back(), 60);
    // A table that is not a schedule (β ≥ 1) changes nothing.
    const QString bad = dir.filePath("bad.csv");
    {
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("n,beta\n1,0.5\n2,1.5\n");
    }
    const GaussianParams before = document.gaussian();
    QVERIFY(!panel.loadScheduleFile(bad));
    QVERIFY(panel.fieldError("process").contains("bad.csv"));
    QVERIFY(document.gaussian() == before);
    // Saved beside the table: stored as "csv:betas.csv", and read back to the full path.
    const QString project = dir.filePath("p.json");
    DS_VERIFY_OK(document.saveAs(project));
    QFile saved(project);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QVERIFY(saved.readAll().contains("\"csv:betas.csv\""));
    ui::document::ProjectDocument reopened;
    DS_VERIFY_OK(reopened.open(project));
    QCOMPARE(QString::fromStdString(reopened.gaussian().schedule), "csv:" + QFileInfo(table).absoluteFilePath());
    document.undoStack()->undo();
    QCOMPARE(QString::fromStdString(document.gaussian().schedule), QString("linear"));
    QCOMPARE(document.gaussian().numSteps, 100);
}

// Cancel the Γ job part-way, then edit only the trajectory: the next job resumes the estimate
// where it stopped, and Γ equals one uninterrupted core estimate exactly.
void tst_GaussianExplorer::cancelledGammaResumes() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    GaussianParams p;
    p.numSteps = 1000;
    p.data = "gaussian:d=2,s=0.5";
    p.gammaSamples = 6000;  // about a second in a Release build
    p.pathSteps = 5;
    p.particleCount = 10;
    int permille = 0;
    connect(explorer.runner(), &ui::jobs::JobRunner::progressChanged, this,
            [&](int value, const QString&) { permille = value; });
    QVERIFY(document.setGaussian(p, "big").ok());
    QTRY_VERIFY_WITH_TIMEOUT(permille > 0, 60000);
    explorer.cancelJobs();
    explorer.runner()->waitForFinished();
    QCoreApplication::processEvents();
    QVERIFY(explorer.results() == nullptr);  // nothing finished
    p.pathSteps = 6;  // the same Γ key
    QVERIFY(document.setGaussian(p, "K").ok());
    explorer.waitForJobs();
    const auto results = explorer.results();
    QVERIFY(results != nullptr);
    qInfo("resumed after n = %d", results->gammaResumedAfter);
    // Part-way, or (when the cancel came in a later stage) all of it: none is estimated again.
    QVERIFY2(results->gammaResumedAfter > 0, "the second job started afresh");
    QVERIFY(results->gammaResumedAfter <= 1000);
    QVERIFY(explorer.gammaView()->message().contains(results->gammaResumedAfter < 1000
                                                         ? "Resumed after n ="
                                                         : "Kept from a run cancelled"));
    auto oracle = ui::document::gaussianDataOracle(QString::fromStdString(p.data));
    DS_VERIFY_OK(oracle);
    auto schedule = core::schedule::gaussianScheduleFromSpec("linear", 1000);
    DS_VERIFY_OK(schedule);
    auto whole = core::gaussian::estimateGamma(
        **oracle, **oracle, *schedule,
        {.numSamples = 6000, .seed = p.seed, .estimator = core::gaussian::GammaEstimator::Denoising,
         .parallel = {.numThreads = 2}});
    DS_VERIFY_OK(whole);
    QVERIFY(results->estimate.gamma == whole->gamma);
    QVERIFY(results->estimate.standardError == whole->standardError);
}

// A zero-SNR schedule (ᾱ_N = 0) with the DPM-Solver and DDIM panes: every number the Γ,
// Variance, Trajectory (with NLL vs K) and Particles views hold, and so export, is finite.
void tst_GaussianExplorer::zeroSnrViewsStayFinite() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    GaussianParams p = smallParams();
    p.schedule = "linear,zero-snr";
    p.sampler = test_support::samplerKind("dpm-solver++2m");
    p.compareSampler = test_support::samplerKind("ddim");
    QVERIFY(document.setGaussian(p, "small").ok());
    explorer.waitForJobs();
    const auto results = explorer.results();
    QVERIFY(results != nullptr && results->params == p);
    QVERIFY(results->schedule.zeroTerminalSnr());
    QCOMPARE(results->trajectory.timesteps.back(), 100);
    QVERIFY2(explorer.particlesView()->frames() != nullptr,
             qPrintable(explorer.particlesView()->message()));
    explorer.computeNllVsK();
    explorer.waitForJobs();
    QVERIFY(explorer.nllCurves() != nullptr);
    for (const auto& [name, view] : explorer.views()) {
        if (name == "compare") {
            continue;  // the digits' information curves; n = 0 is infinite there by design
        }
        if (name == "lab") {
            continue;  // it holds numbers only after a Run (tst_lab_view)
        }
        const auto& data = view->data();
        QVERIFY2(!data.columns.empty(), qPrintable(name));
        for (size_t c = 0; c < data.columns.size(); ++c) {
            for (size_t r = 0; r < data.columns[c].size(); ++r) {
                // The Trajectory view's long table leaves the NLL cells of a timestep row empty
                // (NaN) and the timestep cells of an NLL row.
                if (name == "gaussian-trajectory") {
                    const bool nllRow = data.text[0][r] == "nll";
                    const bool nllColumn = data.header[c].rfind("nll_", 0) == 0;
                    const bool shared = data.header[c] == "K";
                    if (!shared && nllRow != nllColumn) continue;
                }
                QVERIFY2(std::isfinite(data.columns[c][r]),
                         qPrintable(name + " " + QString::fromStdString(data.header[c])));
            }
        }
    }
}

// Every view's CSV is one table after its header block, which records what it was computed
// from; a label holding a comma (leading:K,offset=O) is quoted, so the table stays rectangular.
void tst_GaussianExplorer::csvExportsAreOneTableEach() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    GaussianParams p = smallParams();
    p.trajectory = ui::document::GaussianTrajectory::Leading;
    p.leadingOffset = 1;
    p.pathSteps = 6;
    QVERIFY(document.setGaussian(p, "leading").ok());
    explorer.waitForJobs();
    explorer.computeNllVsK();
    explorer.waitForJobs();
    explorer.compareRunner()->waitForFinished();
    for (const auto& [name, view] : explorer.views()) {
        if (name == "lab") continue;  // no numbers before a run (tst_lab_view covers its CSV)
        const auto text = view->csvText();
        DS_VERIFY_OK(text);
        const test_support::CsvRecords csv = test_support::readCsvRecords(*text);
        QVERIFY2(!csv.comments.empty() && csv.comments.front() == "view: " + view->title().toStdString(),
                 qPrintable(name));
        QVERIFY(csv.comments.back().rfind("program: Diffuscope", 0) == 0);
        QVERIFY2(csv.records.size() >= 2, qPrintable(name));
        for (const auto& record : csv.records) {
            QCOMPARE(record.size(), csv.records.front().size());
        }
        if (name != "compare") {
            for (const char* line : {"schedule: linear", "N: 100", "trajectory: leading:6,offset=1",
                                     "data: toy:ring,n=300", "seed: 1"}) {
                QVERIFY2(std::find(csv.comments.begin(), csv.comments.end(), line) != csv.comments.end(),
                         qPrintable(name + ": " + line));
            }
        }
        // The figure files hold the figure only: no button, list or status line.
        QTemporaryDir dir;
        const QString svg = dir.filePath(name + ".svg");
        QCOMPARE(ui::charts::exportWidget(view, svg, {.size = {900, 600}}), QString());
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray drawing = file.readAll();
        for (const char* control : {">Play<", "Compute NLL vs K", "Use as typed list", ">Copy<"}) {
            QVERIFY2(!drawing.contains(control), qPrintable(name + ": " + control));
        }
        if (name == "gaussian-trajectory") {
            QVERIFY(drawing.contains("DP-optimal"));  // the figure itself is there
            const auto row = std::find_if(csv.records.begin(), csv.records.end(), [](const auto& r) {
                return r[1] == "leading:6,offset=1";
            });
            QVERIFY(row != csv.records.end());
            QCOMPARE((*row)[4], std::string("2"));  // t_0 = 0·16 + 1, n = t + 1
        }
    }
}

QTEST_MAIN(tst_GaussianExplorer)
#include "tst_gaussian_explorer.moc"
