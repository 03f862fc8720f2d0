// SPDX-License-Identifier: MIT
// Models and Γ files in the GUI: dropping a checkpoint on the window loads it for its
// process and every Gaussian view then uses the network; a checkpoint that does not fit, or a
// corrupt one, is refused with a reason and changes nothing; a training run started from the
// Train dialog can be cancelled, leaves a checkpoint that loads, and can be resumed; an imported Γ
// file drives the Γ, Variance and Trajectory views exactly as the core computes from the same
// numbers; the project file keeps the checkpoint's path relative to itself, and a project whose
// checkpoint has gone missing still opens, on the exact oracle, saying why.
#include <QDir>
#include <QElapsedTimer>
#include <QPushButton>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QLabel>
#include <QTest>
#include <QUrl>
#include <cmath>
#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <thread>

#include "core/model/torch_model.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/gaussian/variance.h"
#include "core/io/gamma_file.h"
#include "core/model/checkpoint.h"
#include "core/schedule/gaussian_schedule.h"
#include "tests/support/test_support.h"
#include "ui/document/bundled_data.h"
#include "ui/document/project_model.h"
#include "ui/document/model_files.h"
#include "ui/document/project_document.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/main/main_window.h"
#include "ui/panels/categorical_panel.h"
#include "ui/panels/gaussian_panel.h"
#include "ui/training/train_dialog.h"
#include "ui/views/gamma_view.h"
#include "ui/views/gaussian_trajectory_view.h"
#include "ui/views/variance_view.h"

using ui::document::GaussianParams;

namespace {

const QString kModels = DIFFUSCOPE_SOURCE_DIR "/resources/models/";

// The moons network was trained for N = 1000 on 2-D data; a few Γ samples keep the job short.
GaussianParams moonsParams() {
    GaussianParams p;
    p.numSteps = 1000;
    p.data = "toy:moons,n=500";
    p.gammaSamples = 4;
    p.pathSteps = 6;
    p.particleCount = 20;
    return p;
}

// A copy of a bundled checkpoint in `dir` (a real file, as a user would drop).
QString copyModel(const QTemporaryDir& dir, const QString& name, const QString& as = {}) {
    const QString target = dir.filePath(as.isEmpty() ? name : as);
    QFile::remove(target);
    return QFile::copy(kModels + name, target) ? target : QString();
}

// Sends a drag-enter and a drop of `path` to the window; returns whether the enter was accepted.
bool dropFile(QWidget* window, const QString& path) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(window, &enter);
    if (!enter.isAccepted()) return false;
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(window, &drop);
    return true;
}

// The number of distinct colours in a widget's rendering: a blank view has one or two.
int distinctColours(QWidget* widget) {
    widget->resize(800, 500);
    const QImage image = widget->grab().toImage();
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
    }
    return static_cast<int>(colours.size());
}

}  // namespace

class tst_ModelsGui : public QObject {
    Q_OBJECT

private slots:
    void aLoadThatCannotStopHoldsNeitherCancelNorQuit();
    void droppedGaussianCheckpointDrivesTheViews();
    void checkpointsThatDoNotFitAreRefused();
    void cancelledTrainingCanBeResumed();
    void importedGammaDrivesTheViews_data();
    void importedGammaDrivesTheViews();
    void importedGammaOverItsBoundIsFlagged();
    void projectKeepsTheCheckpointRelativeAndSurvivesItsLoss();
    void examplesUseTheirBundledNetworks();
};

void tst_ModelsGui::droppedGaussianCheckpointDrivesTheViews() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    QVERIFY(window.document()->setGaussian(moonsParams(), "moons").ok());
    const QString path = copyModel(dir, "moons-gaussian.safetensors");
    QVERIFY(!path.isEmpty());
    // Only checkpoints are taken: a dragged text file is not accepted.
    QFile text(dir.filePath("notes.txt"));
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.close();
    QVERIFY(!dropFile(&window, text.fileName()));
    QVERIFY(window.document()->gaussian().model.empty());

    QVERIFY(dropFile(&window, path));
    window.fileRunner()->waitForFinished();  // a dropped checkpoint is read in the background
    QVERIFY(window.document()->project().process == ui::document::ProcessKind::Gaussian);
    QCOMPARE(QString::fromStdString(window.document()->gaussian().model), QFileInfo(path).absoluteFilePath());
    window.gaussianExplorer()->waitForJobs();
    const auto results = window.gaussianExplorer()->results();
    QVERIFY(results != nullptr);
    QVERIFY2(results->modelError.empty(), results->modelError.c_str());
    QVERIFY(results->model.get() !=
            static_cast<const core::model::GaussianEpsModel*>(results->data.get()));
    // The Γ view shows the network's estimate, with the oracle's beside it for comparison.
    QVERIFY(results->oracleEstimate.has_value());
    QCOMPARE(window.gaussianExplorer()->gammaView()->data().columns[1], results->estimate.gamma);
    QVERIFY(results->estimate.gamma != results->oracleEstimate->gamma);
    // A network's Γ uses the error form, which never exceeds its bound: with the score form and
    // M = 4 in 2-D most timesteps would, and the DP would jump through them at no cost.
    QVERIFY(core::gaussian::gammaOverBound(results->schedule, results->gamma).empty());
    QVERIFY(core::gaussian::trajectoryCost(results->cost, results->dpTimesteps) > 0.0);
    for (auto* view : {static_cast<QWidget*>(window.gaussianExplorer()->gammaView()),
                       static_cast<QWidget*>(window.gaussianExplorer()->varianceView()),
                       static_cast<QWidget*>(window.gaussianExplorer()->trajectoryView())}) {
        QVERIFY(distinctColours(view) > 20);
    }
    // One undo step returns to the oracle.
    window.document()->undoStack()->undo();
    QVERIFY(window.document()->gaussian().model.empty());
}

void tst_ModelsGui::checkpointsThatDoNotFitAreRefused() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    GaussianParams p = moonsParams();
    p.numSteps = 500;  // the network was trained for N = 1000
    QVERIFY(window.document()->setGaussian(p, "N").ok());
    const QString moons = copyModel(dir, "moons-gaussian.safetensors");
    QVERIFY(!window.gaussianPanel()->loadModel(moons));
    QVERIFY2(window.gaussianPanel()->fieldError("data").contains("1000"),
             qPrintable(window.gaussianPanel()->fieldError("data")));
    QVERIFY(window.document()->gaussian() == p);
    // The 64-D digits network does not fit 2-D data.
    p.numSteps = 1000;
    QVERIFY(window.document()->setGaussian(p, "N").ok());
    QVERIFY(!window.gaussianPanel()->loadModel(copyModel(dir, "digits-gaussian.safetensors")));
    QVERIFY(window.gaussianPanel()->fieldError("data").contains("64"));
    QVERIFY(window.document()->gaussian().model.empty());
    // The categorical digits network does not fit the example table (K = 4 but D = 1).
    const ui::document::CategoricalParams before = window.document()->categorical();
    QVERIFY(
        !window.categoricalPanel()->loadModel(copyModel(dir, "digits-categorical-l4.safetensors")));
    QVERIFY(window.categoricalPanel()->fieldError("model").contains("64"));
    QVERIFY(window.document()->categorical() == before);
    // A truncated checkpoint: the reason names the file.
    const QString truncated = dir.filePath("truncated.safetensors");
    {
        QFile in(moons);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QFile out(truncated);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(in.read(in.size() / 2));
    }
    auto loaded = ui::document::loadModelFile(truncated);
    QVERIFY(!loaded.ok());
    QVERIFY2(QString::fromStdString(loaded.error().toString()).contains("truncated.safetensors"),
             loaded.error().toString().c_str());
    QVERIFY(!window.gaussianPanel()->loadModel(truncated));
    QVERIFY(window.document()->gaussian().model.empty());
}

// Cancel during a run: the job stops early, the weights reached so far are written and load as
// a model for the same N and d, with the optimiser's state; Resume then finishes the run, and
// the result equals, weight for weight, a run that was never stopped.
void tst_ModelsGui::cancelledTrainingCanBeResumed() {
    QTemporaryDir dir;
    ui::document::Project project;
    project.process = ui::document::ProcessKind::Gaussian;
    project.gaussian = moonsParams();
    ui::training::TrainDialog dialog(project, ui::document::ProcessKind::Gaussian);
    const QString path = dir.filePath("cancelled.safetensors");
    dialog.setOutputPath(path);
    QVERIFY(!dialog.canResume());
    constexpr int kSteps = 40000;  // about 1.5 s for this tiny network in a Release build
    dialog.setSteps(kSteps);
    dialog.setWidth(16);
    dialog.setBatch(16);
    QSignalSpy saved(&dialog, &ui::training::TrainDialog::modelSaved);
    dialog.start();
    QVERIFY(dialog.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(dialog.trainLosses().size() >= 3, 60000);
    dialog.cancel();
    dialog.waitForFinished();
    QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 30000);
    QCOMPARE(saved.at(0).at(0).toString(), path);
    QVERIFY2(dialog.status().startsWith("Cancelled after"), qPrintable(dialog.status()));
    auto stopped = ui::document::loadModelFile(path);
    DS_VERIFY_OK(stopped);
    const long long stepsDone = (*stopped)->info.trainingSteps;
    QVERIFY(stepsDone >= 3);
    QVERIFY2(stepsDone < kSteps, "the run ended before the cancel arrived");
    QVERIFY(std::isfinite((*stopped)->info.trainLoss));
    QVERIFY((*stopped)->trainState != nullptr);
    DS_VERIFY_OK(ui::document::loadGaussianModel(path, 1000, 2));
    // The file is complete: no temporary file is left beside it.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"cancelled.safetensors"});

    // A resume on other data is refused before any training, naming what differs.
    {
        ui::training::TrainRequest other = dialog.request();
        other.project.gaussian.data = "toy:ring,n=500";
        other.outputPath = dir.filePath("other.safetensors");
        other.resume = (*stopped)->trainState;
        auto refused = ui::training::runTraining(other, nullptr);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.find("toy:moons,n=500") != std::string::npos,
                 refused.error().toString().c_str());
        QVERIFY(!QFile::exists(other.outputPath));
    }

    // Resume, with fields changed in between: the stopped run's own settings are restored.
    QVERIFY(dialog.canResume());
    dialog.setWidth(32);
    dialog.resume();
    QVERIFY(dialog.isRunning());
    dialog.waitForFinished();
    QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 2, 60000);
    QVERIFY2(dialog.status().startsWith("Trained"), qPrintable(dialog.status()));
    auto finished = core::model::loadMlpCheckpoint(path.toStdString());
    DS_VERIFY_OK(finished);
    QCOMPARE(finished->info.trainingSteps, kSteps);
    QVERIFY(finished->trainState == nullptr);  // a finished run keeps no optimiser state
    QVERIFY(!dialog.canResume());
    // The whole run at once, from the same fields.
    ui::training::TrainRequest request = dialog.request();
    request.outputPath = dir.filePath("whole.safetensors");
    auto whole = ui::training::runTraining(request, nullptr);
    DS_VERIFY_OK(whole);
    auto reference = core::model::loadMlpCheckpoint(request.outputPath.toStdString());
    DS_VERIFY_OK(reference);
    const auto a = dynamic_cast<const core::model::GaussianMlpEpsModel&>(*reference->gaussian).mlp().flat();
    const auto b = dynamic_cast<const core::model::GaussianMlpEpsModel&>(*finished->gaussian).mlp().flat();
    QVERIFY(std::equal(a.begin(), a.end(), b.begin(), b.end()));
    QCOMPARE(finished->info.trainLoss, reference->info.trainLoss);
}

void tst_ModelsGui::importedGammaDrivesTheViews_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("gamma.csv") << "gamma.csv";
    QTest::newRow("ms_eps.npy") << "ms_eps.npy";
}

// For x_0 ~ N(0, s²I), x_n ~ N(0, (ᾱ_n s² + β̄_n) I): the mean squared score is exactly
// Γ_n = 1/(ᾱ_n s² + β̄_n). Importing that table must give the views what the core computes from
// it: the same Γ, the same σ² and bounds on the trajectory, the same DP path.
void tst_ModelsGui::importedGammaDrivesTheViews() {
    QFETCH(QString, file);
    QTemporaryDir dir;
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    ui::jobs::JobRunner files, checks;  // what the explorer owns in the window
    ui::panels::GaussianPanel panel(&document, &files, &checks);
    GaussianParams p;
    p.numSteps = 200;
    p.data = "gaussian:d=2,s=0.5";
    p.gammaSamples = 2;
    p.pathSteps = 7;
    p.particleCount = 10;
    QVERIFY(document.setGaussian(p, "setup").ok());
    explorer.waitForJobs();
    auto schedule = core::schedule::gaussianScheduleFromSpec("linear", p.numSteps);
    DS_VERIFY_OK(schedule);
    std::vector<double> gamma(p.numSteps + 1, 0.0), msEps(p.numSteps + 1, 0.0);
    for (int n = 1; n <= p.numSteps; ++n) {
        gamma[n] = 1.0 / (schedule->alphaBar(n) * 0.25 + schedule->betaBar(n));
        msEps[n] = schedule->betaBar(n) * gamma[n];
    }
    const QString path = dir.filePath(file);
    if (file.endsWith(".csv")) {
        DS_VERIFY_OK(
            core::io::writeGammaCsv(path.toStdString(), gamma, core::io::GammaKind::Gamma));
    } else {
        DS_VERIFY_OK(core::io::writeGammaNpy(path.toStdString(), msEps));
    }
    QVERIFY2(panel.importGammaFile(path), qPrintable(panel.fieldError("gamma")));
    explorer.waitForJobs();
    const auto results = explorer.results();
    QCOMPARE(results->gammaSourceText(), "imported from " + file.toStdString());
    for (int n = 1; n <= p.numSteps; ++n) {
        DS_COMPARE_REL(results->gamma[n], gamma[n], 1e-14);
    }
    const auto& shown = explorer.gammaView()->data();
    for (int n = 1; n <= p.numSteps; ++n) {
        DS_COMPARE_REL(shown.columns[1][n - 1], gamma[n], 1e-14);
    }
    // The DP path and the variances, recomputed by the core from the closed-form table.
    auto dp = core::gaussian::dpTrajectory(*schedule, gamma, p.pathSteps);
    DS_VERIFY_OK(dp);
    QCOMPARE(results->trajectory.timesteps, dp->timesteps);
    QCOMPARE(results->dpTimesteps, dp->timesteps);
    auto pairs = core::gaussian::trajectoryVariances(*schedule, gamma, dp->timesteps, {});
    DS_VERIFY_OK(pairs);
    const auto& variance = explorer.varianceView()->data();
    QCOMPARE(variance.columns[2].size(), pairs->size());
    for (const auto& pair : *pairs) {
        const auto row = std::find(variance.columns[1].begin(), variance.columns[1].end(), pair.t) -
                         variance.columns[1].begin();
        QVERIFY(row < static_cast<long>(variance.columns[1].size()));
        DS_COMPARE_REL(variance.columns[2][row], pair.sigma2, 1e-12);
        DS_COMPARE_REL(variance.columns[4][row], pair.lower, 1e-12);
        DS_COMPARE_REL(variance.columns[5][row], pair.upper, 1e-12);
    }
    // A corrupt file is refused and the imported table stays.
    QFile bad(dir.filePath("bad.csv"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("n,gamma\n1,0.5\n2,nan\n");
    bad.close();
    QVERIFY(!panel.importGammaFile(bad.fileName()));
    QVERIFY(panel.fieldError("gamma").contains("bad.csv"));
    QCOMPARE(QString::fromStdString(document.gaussian().importedGammaName), file);
    // Estimating again drops the imported table (one undo step brings it back).
    document.undoStack()->undo();
    QVERIFY(document.gaussian().importedGamma.empty());
    document.undoStack()->redo();
    QCOMPARE(document.gaussian().importedGamma.size(), size_t(p.numSteps));
}

// An imported ms_eps above 1 at the last timesteps (what a Monte Carlo estimate of a network
// gives): the panel lists the offending timesteps, and each answer does what it says — clip
// makes β̄_nΓ_n ≤ 1 everywhere, segmented switches the DP, a schedule change checks again.
void tst_ModelsGui::importedGammaOverItsBoundIsFlagged() {
    QTemporaryDir dir;
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    ui::jobs::JobRunner files, checks;  // what the explorer owns in the window
    ui::panels::GaussianPanel panel(&document, &files, &checks);
    GaussianParams p;
    p.numSteps = 100;
    p.data = "gaussian:d=2,s=0.5";
    p.gammaSamples = 2;
    p.pathSteps = 6;
    p.particleCount = 10;
    QVERIFY(document.setGaussian(p, "setup").ok());
    auto schedule = core::schedule::gaussianScheduleFromSpec("linear", p.numSteps);
    DS_VERIFY_OK(schedule);
    std::vector<double> msEps(p.numSteps + 1, 0.0);
    for (int n = 1; n <= p.numSteps; ++n) {
        msEps[n] = n > 95 ? 1.02 : 0.9;  // over the bound at n = 96..100
    }
    const QString path = dir.filePath("over.npy");
    DS_VERIFY_OK(core::io::writeGammaNpy(path.toStdString(), msEps));
    QVERIFY2(panel.importGammaFile(path), qPrintable(panel.fieldError("gamma")));
    panel.checkRunner()->waitForFinished();
    const QString warning = panel.gammaWarning();
    QVERIFY2(warning.contains("exceeds its bound") && warning.contains("5 of 100") &&
                 warning.contains("n = 96, 97, 98, 99, 100") && warning.contains("over.npy"),
             qPrintable(warning));

    // "segmented" switches the DP's cost; the warning stays for the other choices.
    QVERIFY(document.gaussian().dpVariant == core::gaussian::DpVariant::Clipped);
    emit panel.findChild<QLabel*>("gammaWarning")->linkActivated("segmented");
    QVERIFY(document.gaussian().dpVariant == core::gaussian::DpVariant::Segmented);
    explorer.waitForJobs();
    std::vector<double> table{0.0};
    table.insert(table.end(), document.gaussian().importedGamma.begin(),
                 document.gaussian().importedGamma.end());
    auto segmented = core::gaussian::dpTrajectory(
        *schedule, table, p.pathSteps, {.variant = core::gaussian::DpVariant::Segmented});
    DS_VERIFY_OK(segmented);
    QVERIFY(segmented->dpEnd < p.numSteps);  // the steps after n = 96 were set aside
    QCOMPARE(explorer.results()->trajectory.timesteps, segmented->timesteps);

    // "clip" replaces Γ_n by the largest value with β̄_nΓ_n ≤ 1 and leaves the others alone.
    panel.clipImportedGamma();
    panel.fileRunner()->waitForFinished();
    panel.checkRunner()->waitForFinished();
    const auto& clipped = document.gaussian().importedGamma;
    QCOMPARE(clipped.size(), size_t{100});
    for (int n = 1; n <= p.numSteps; ++n) {
        QVERIFY(schedule->betaBar(n) * clipped[n - 1] <= 1.0);
        if (n <= 95) DS_COMPARE_REL(schedule->betaBar(n) * clipped[n - 1], 0.9, 1e-14);
        if (n > 95) DS_COMPARE_REL(schedule->betaBar(n) * clipped[n - 1], 1.0, 1e-15);
    }
    QCOMPARE(panel.gammaWarning(), QString());

    // The unclipped table on another schedule is checked again.
    document.undoStack()->undo();
    panel.checkRunner()->waitForFinished();
    QVERIFY(!panel.gammaWarning().isEmpty());
    emit panel.findChild<QLabel*>("gammaWarning")->linkActivated("keep");
    QCOMPARE(panel.gammaWarning(), QString());
    GaussianParams cosine = document.gaussian();
    cosine.schedule = "cosine";
    QVERIFY(document.setGaussian(cosine, "cosine").ok());
    panel.checkRunner()->waitForFinished();
    QVERIFY2(panel.gammaWarning().contains("exceeds its bound"), qPrintable(panel.gammaWarning()));
}

void tst_ModelsGui::projectKeepsTheCheckpointRelativeAndSurvivesItsLoss() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("project/models"));
    const QString model =
        copyModel(dir, "moons-gaussian.safetensors", "project/models/moons.safetensors");
    QVERIFY(!model.isEmpty());
    const QString projectPath = dir.filePath("project/moons.diffuscope.json");
    {
        ui::document::ProjectDocument document;
        ui::jobs::JobRunner files, checks;  // what the explorer owns in the window
        ui::panels::GaussianPanel panel(&document, &files, &checks);
        QVERIFY(document.setGaussian(moonsParams(), "moons").ok());
        QVERIFY2(panel.loadModel(model), qPrintable(panel.fieldError("data")));
        document.setProcess(ui::document::ProcessKind::Gaussian);
        DS_VERIFY_OK(document.saveAs(projectPath));
    }
    QFile saved(projectPath);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(saved.readAll()).object();
    QCOMPARE(json["gaussian"].toObject()["model"].toString(), QString("models/moons.safetensors"));
    saved.close();

    // The folder moves: the project still finds its checkpoint.
    QVERIFY(QDir().rename(dir.filePath("project"), dir.filePath("moved")));
    ui::document::ProjectDocument moved;
    ui::GaussianExplorer explorer(&moved);
    DS_VERIFY_OK(moved.open(dir.filePath("moved/moons.diffuscope.json")));
    QCOMPARE(QString::fromStdString(moved.gaussian().model),
             QDir::cleanPath(dir.filePath("moved/models/moons.safetensors")));
    explorer.waitForJobs();
    QVERIFY2(explorer.results()->modelError.empty(), explorer.results()->modelError.c_str());

    // The checkpoint is deleted: the project opens, the oracle stands in and the reason is given.
    QVERIFY(QFile::remove(dir.filePath("moved/models/moons.safetensors")));
    ui::document::ProjectDocument lost;
    ui::GaussianExplorer lostExplorer(&lost);
    QSignalSpy messages(&lostExplorer, &ui::GaussianExplorer::jobMessage);
    DS_VERIFY_OK(lost.open(dir.filePath("moved/moons.diffuscope.json")));
    lostExplorer.waitForJobs();
    const auto results = lostExplorer.results();
    QVERIFY(results != nullptr);
    QVERIFY(results->modelError.find("moons.safetensors") != std::string::npos);
    QVERIFY(results->model.get() ==
            static_cast<const core::model::GaussianEpsModel*>(results->data.get()));
    QVERIFY(!results->gamma.empty() && std::isfinite(results->gamma[1]));
    bool told = false;
    for (const auto& message : messages)
        told |= message.at(0).toString().contains("moons.safetensors");
    QVERIFY(told);
}

// File ▸ Examples: each project is valid, and each bundled network it names loads and fits its
// data (the same checks the explorers make before using it).
void tst_ModelsGui::examplesUseTheirBundledNetworks() {
    const auto examples = ui::document::examples();
    QCOMPARE(examples.size(), size_t{7});
    int networks = 0;
    for (const auto& example : examples) {
        const ui::document::Project& p = example.project;
        DS_VERIFY_OK(p.categorical.validate());
        DS_VERIFY_OK(p.gaussian.validate());
        if (!p.categorical.model.empty()) {
            auto setup = ui::document::buildCategoricalSetup(p.categorical);
            DS_VERIFY_OK(setup);
            QVERIFY2((*setup)->modelError.empty(), (*setup)->modelError.c_str());
            QVERIFY((*setup)->denoiser.get() != static_cast<const void*>((*setup)->oracle.get()));
            ++networks;
        }
        if (!p.gaussian.model.empty()) {
            auto data = ui::document::gaussianDataOracle(QString::fromStdString(p.gaussian.data));
            DS_VERIFY_OK(data);
            const core::model::GaussianDataSampler& sampler = **data;
            auto loaded = ui::document::loadGaussianModel(QString::fromStdString(p.gaussian.model),
                                                          p.gaussian.numSteps, sampler.dimension());
            if (!core::model::torchModelsAvailable() && p.gaussian.model.ends_with(".pt")) {
                // Without the plugin the U-Net example is offered and says what to install.
                QVERIFY(!loaded);
                const std::string message = loaded.error().toString();
                QVERIFY2(message.find("install the package diffuscope-torch") != std::string::npos,
                         message.c_str());
            } else {
                DS_VERIFY_OK(loaded);
            }
            ++networks;
        }
        // The menu opens it as an unsaved project with nothing to undo.
        ui::document::ProjectDocument document;
        document.loadExample(p);
        QVERIFY(document.project().process == p.process);
        QCOMPARE(document.undoStack()->count(), 0);
        QVERIFY(document.filePath().isEmpty());
    }
    QCOMPARE(networks, 5);
}

// A TorchScript load cannot be interrupted: Cancel (Esc) leaves it behind at once and the GUI is
// idle; closing the window does not wait for it either (main then ends with _Exit).
void tst_ModelsGui::aLoadThatCannotStopHoldsNeitherCancelNorQuit() {
    QTemporaryDir dir;
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto applied = std::make_shared<std::atomic<bool>>(false);
    auto stuck = [release, applied](core::Progress&) -> std::function<void()> {
        while (!*release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return [applied] { *applied = true; };
    };
    QElapsedTimer clock;
    {
        ui::MainWindow window(nullptr, dir.path());
        window.fileRunner()->start("Loading model.pt", stuck);
        QVERIFY(window.fileRunner()->isRunning());
        QPushButton* cancel = nullptr;
        for (QPushButton* b : window.findChildren<QPushButton*>()) {
            if (b->shortcut() == QKeySequence(Qt::Key_Escape)) cancel = b;
        }
        QVERIFY(cancel != nullptr);
        cancel->click();
        QVERIFY(!window.fileRunner()->isRunning());
        window.fileRunner()->start("Loading model.pt", stuck);
        window.explorer()->waitForJobs();
        window.gaussianExplorer()->waitForJobs();
        clock.start();
    }
    QVERIFY2(clock.elapsed() < 2000, "closing the window waited for the load");
    QVERIFY(ui::jobs::lightJobsRunning() >= 2);
    *release = true;
    QTRY_COMPARE_WITH_TIMEOUT(ui::jobs::lightJobsRunning(), 0, 5000);
    QTest::qWait(20);
    QVERIFY(!*applied);
}

QTEST_MAIN(tst_ModelsGui)
#include "tst_models_gui.moc"
