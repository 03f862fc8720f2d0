// SPDX-License-Identifier: MIT
// The main window: its layout (views, docks, process switch, status bar), job progress and
// presentation mode; menus, files, models and exports are in main_window_*.cpp.
#include "ui/main/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/animation/animation_dialog.h"
#include "ui/animation/animation_export.h"
#include "ui/animation/chains_view.h"
#include "ui/animation/time_bar.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/export_dialog.h"
#include "ui/charts/presentation.h"
#include "ui/document/model_files.h"
#include "ui/document/project_document.h"
#include "ui/document/recovery_store.h"
#include "ui/lessons/lesson_pane.h"
#include "ui/lessons/lessons.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/explanation_pane.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/main/language.h"
#include "ui/main/math_help.h"
#include "ui/panels/categorical_panel.h"
#include "ui/panels/gaussian_panel.h"
#include "ui/training/train_dialog.h"
#include "ui/views/compare_view.h"
#include "ui/views/decoding_view.h"
#include "ui/views/gamma_view.h"
#include "ui/views/gaussian_trajectory_view.h"
#include "ui/views/kernel_comparison_view.h"
#include "ui/views/lab_view.h"
#include "ui/views/matrices_view.h"
#include "ui/views/particles_view.h"
#include "ui/views/schedule_view.h"
#include "ui/views/step_cost_view.h"
#include "ui/views/variance_view.h"

namespace ui {
namespace {
constexpr int kAutosaveMs = 30000;
}  // namespace

MainWindow::MainWindow(QWidget* parent, const QString& recoveryFolder)
    : QMainWindow(parent),
      m_document(new document::ProjectDocument(this)),
      m_explorer(new CategoricalExplorer(m_document, this)),
      m_gaussianExplorer(new GaussianExplorer(m_document, this)),
      m_tabs(new QTabWidget),
      m_gaussianTabs(new QTabWidget),
      m_centralStack(new QStackedWidget),
      m_panelStack(new QStackedWidget),
      m_gaussianPanel(new panels::GaussianPanel(
          m_document, m_gaussianExplorer->fileRunner(), m_gaussianExplorer->checkRunner())),
      m_timeBar(new animation::TimeBar),
      m_panel(new panels::CategoricalPanel(m_document, m_explorer->fileRunner())),
      m_process(new QComboBox),
      m_progress(new QProgressBar),
      m_cancel(new QPushButton(tr("Cancel"))),
      m_jobLabel(new QLabel),
      m_recovery(std::make_unique<document::RecoveryStore>(recoveryFolder)) {
    createCentralViews();
    createProcessSwitch();
    createDocks();
    createMenus();
    setAcceptDrops(true);  // a .safetensors dropped anywhere loads as the model
    connect(m_gaussianPanel, &panels::GaussianPanel::trainRequested, this,
            &MainWindow::showTrainDialog);
    connect(m_panel, &panels::CategoricalPanel::trainRequested, this, &MainWindow::showTrainDialog);
    connect(m_gaussianPanel, &panels::GaussianPanel::exportGammaRequested, this,
            &MainWindow::exportGamma);
    createStatusBar();
    connectTimeBar();
    connectTitle();
    m_autosave.setInterval(kAutosaveMs);
    connect(&m_autosave, &QTimer::timeout, this, &MainWindow::autosave);
    m_autosave.start();
    statusBar()->showMessage(tr("Example project: K = 4, a non-uniform π and two conditions."),
                             6000);
}

namespace {

// A stack's (or tab widget's) least size is its largest page's, shown or not: one wide page
// (the Lab after a run) forced the window wider than a projector in every view. Only the page
// shown counts; the others are Ignored until they are shown, with their own policy again.
template <typename Pages>
void sizeByCurrentPage(Pages* pages) {
    static constexpr const char* kOwnPolicy = "diffuscopeOwnSizePolicy";
    const auto apply = [pages] {
        for (int i = 0; i < pages->count(); ++i) {
            QWidget* page = pages->widget(i);
            if (!page->property(kOwnPolicy).isValid()) {
                page->setProperty(kOwnPolicy, QVariant::fromValue(page->sizePolicy()));
            }
            const auto own = page->property(kOwnPolicy).template value<QSizePolicy>();
            page->setSizePolicy(i == pages->currentIndex()
                                    ? own
                                    : QSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored));
        }
    };
    QObject::connect(pages, &Pages::currentChanged, pages, apply);
    apply();
}

}  // namespace

void MainWindow::createCentralViews() {
    m_tabs->addTab(m_explorer->chainsView(), tr("Trajectories"));
    auto* scheduleSplit = new QSplitter(Qt::Vertical);
    scheduleSplit->addWidget(m_explorer->scheduleView());
    scheduleSplit->addWidget(m_explorer->stepCostView());
    scheduleSplit->setStretchFactor(0, 3);
    scheduleSplit->setStretchFactor(1, 2);
    m_tabs->addTab(scheduleSplit, tr("Schedule && information"));
    m_tabs->addTab(m_explorer->matricesView(), tr("Matrices"));
    m_tabs->addTab(m_explorer->kernelView(), tr("Kernel comparison"));
    m_tabs->addTab(m_explorer->decodingView(), tr("Decoding"));
    auto* categoricalPage = new QWidget;
    auto* centralLayout = new QVBoxLayout(categoricalPage);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->addWidget(m_tabs, 1);
    centralLayout->addWidget(m_timeBar);
    m_gaussianTabs->addTab(m_gaussianExplorer->particlesView(), tr("Particles"));
    m_gaussianTabs->addTab(m_gaussianExplorer->gammaView(), "Γ");
    m_gaussianTabs->addTab(m_gaussianExplorer->varianceView(), tr("Variance"));
    m_gaussianTabs->addTab(m_gaussianExplorer->trajectoryView(), tr("Trajectory"));
    m_gaussianTabs->addTab(m_gaussianExplorer->compareView(), tr("Compare"));
    m_gaussianTabs->addTab(m_gaussianExplorer->labView(), tr("Lab"));
    m_centralStack->addWidget(categoricalPage);
    m_centralStack->addWidget(m_gaussianTabs);
    setCentralWidget(m_centralStack);
    sizeByCurrentPage(m_centralStack);
    sizeByCurrentPage(m_tabs);
    sizeByCurrentPage(m_gaussianTabs);
}

void MainWindow::createProcessSwitch() {
    auto* toolbar = addToolBar(tr("Process"));
    toolbar->setObjectName("processToolBar");
    toolbar->setMovable(false);
    toolbar->addWidget(new QLabel(tr(" Process: ")));
    m_process->addItem(tr("Categorical diffusion"));
    m_process->addItem(tr("Gaussian diffusion (Analytic-DPM)"));
    m_process->setToolTip(
        tr("Categorical diffusion (the closed-form reverse kernel) or Gaussian "
           "diffusion (Analytic-DPM: Γ, the optimal variance and the DP "
           "trajectory). Ctrl+1 / Ctrl+2."));
    toolbar->addWidget(m_process);
    connect(m_process, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_document->setProcess(index == 1 ? document::ProcessKind::Gaussian
                                          : document::ProcessKind::Categorical);
    });
    auto syncProcess = [this] {
        showProcess(m_document->project().process == document::ProcessKind::Gaussian ? 1 : 0);
    };
    connect(m_document, &document::ProjectDocument::processChanged, this, syncProcess);
    connect(m_document, &document::ProjectDocument::projectReplaced, this, syncProcess);
}

// Job progress with a cancel button.
void MainWindow::createStatusBar() {
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->hide();
    m_cancel->hide();
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancel->setToolTip(tr("Cancel the running computation (Esc)"));
    statusBar()->addPermanentWidget(m_jobLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, m_explorer, &CategoricalExplorer::cancelJobs);
    connect(m_cancel, &QPushButton::clicked, m_gaussianExplorer, &GaussianExplorer::cancelJobs);
    // A project or model being read is abandoned at once (a TorchScript load cannot stop).
    connect(m_cancel, &QPushButton::clicked, &m_fileRunner, &jobs::JobRunner::cancel);
    for (jobs::JobRunner* runner : allJobRunners()) {
        connectJobRunner(runner);
    }
    connect(m_explorer, &CategoricalExplorer::jobMessage, this,
            [this](const QString& message, bool) { statusBar()->showMessage(message, 8000); });
    connect(m_gaussianExplorer, &GaussianExplorer::jobMessage, this,
            [this](const QString& message, bool) { statusBar()->showMessage(message, 8000); });
    connect(m_gaussianPanel, &panels::GaussianPanel::statusNote, this,
            [this](const QString& note) { statusBar()->showMessage(note, 15000); });
}

// The categorical time bar drives the explorer and edits the seed.
void MainWindow::connectTimeBar() {
    connect(m_explorer, &CategoricalExplorer::curveChanged, m_panel,
            &panels::CategoricalPanel::setCurvePreview);
    if (m_explorer->setup()) {
        m_panel->setCurvePreview(m_explorer->setup()->curve);
    }
    connect(m_explorer, &CategoricalExplorer::stepsChanged, m_timeBar,
            &animation::TimeBar::setNumSteps);
    connect(m_timeBar, &animation::TimeBar::positionChanged, m_explorer,
            &CategoricalExplorer::setPosition);
    connect(m_timeBar, &animation::TimeBar::directionChanged, this, [this](bool reverse) {
        m_explorer->chainsView()->setDirection(reverse ? animation::Direction::Reverse
                                                       : animation::Direction::Forward);
        m_explorer->setPosition(m_timeBar->position());
    });
    connect(m_timeBar, &animation::TimeBar::seedEdited, this, [this](qulonglong seed) {
        auto p = m_document->categorical();
        p.seed = seed;
        if (auto status = m_document->setCategorical(p, tr("Change seed")); !status) {
            statusBar()->showMessage(QString::fromStdString(status.error().toString()), 6000);
        }
    });
    auto syncSeed = [this] { m_timeBar->setSeed(m_document->categorical().seed); };
    connect(m_document, &document::ProjectDocument::categoricalChanged, this, syncSeed);
    connect(m_document, &document::ProjectDocument::projectReplaced, this, syncSeed);
    syncSeed();
    m_timeBar->setNumSteps(std::max(0, static_cast<int>(m_explorer->trajectory().size()) - 1));
}

// The title shows the file and whether it has unsaved edits; replacing or saving the project
// settles the recovery copy.
void MainWindow::connectTitle() {
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(m_document, &document::ProjectDocument::filePathChanged, this,
            &MainWindow::updateTitle);
    connect(m_document, &document::ProjectDocument::projectReplaced, this, [this] {
        // The discarded work is gone only now that another project replaced it; a cancelled
        // Open keeps both the edits and their copy.
        if (m_discardAnswered && !m_document->isModified()) {
            m_recovery->removeCopy();
        }
        m_discardAnswered = false;
        m_recovered = false;
        updateTitle();
    });
    // Saved work needs no recovery copy (a recovered one included).
    connect(m_document, &document::ProjectDocument::saved, this, [this] {
        m_recovery->removeCopy();
        m_recovered = false;
        updateTitle();
    });
    updateTitle();
}

MainWindow::~MainWindow() {
    // The document outlives this destructor (a child QObject): its last signals must not reach
    // a half-destroyed window.
    m_document->disconnect(this);
    m_document->undoStack()->disconnect(this);
    m_explorer->cancelJobs();
    m_gaussianExplorer->cancelJobs();
    // Stop the jobs before the views they update are destroyed with the window.
    delete m_explorer;
    delete m_gaussianExplorer;
    // Saved or discarded work leaves no recovery copy behind; unsaved work keeps it (the lock is
    // released, so the next start offers it).
    if (!m_document->isModified()) {
        m_recovery->removeCopy();
    }
}

std::vector<jobs::JobRunner*> MainWindow::allJobRunners() {
    return {&m_fileRunner,
            m_explorer->fileRunner(),
            m_gaussianExplorer->fileRunner(),
            m_explorer->setupRunner(),
            m_explorer->costRunner(),
            m_explorer->chainRunner(),
            m_gaussianExplorer->runner(),
            m_gaussianExplorer->nllRunner(),
            m_gaussianExplorer->labRunner()};
}

void MainWindow::connectJobRunner(jobs::JobRunner* runner) {
    connect(runner, &jobs::JobRunner::started, this, [this](const QString& name) {
        m_jobLabel->setText(jobs::shownJobName(name) + "…");
        m_progress->setValue(0);
        m_progress->show();
        m_cancel->show();
    });
    connect(runner, &jobs::JobRunner::progressChanged, this,
            [this](int permille, const QString&) { m_progress->setValue(permille); });
    auto done = [this](const QString& name, const QString& message) {
        const auto runners = allJobRunners();
        if (std::none_of(runners.begin(), runners.end(),
                         [](const jobs::JobRunner* r) { return r->isRunning(); })) {
            m_progress->hide();
            m_cancel->hide();
            m_jobLabel->clear();
        }
        statusBar()->showMessage(message.isEmpty() ? tr("%1 done").arg(name) : message, 4000);
    };
    connect(runner, &jobs::JobRunner::finished, this,
            [=](const QString& n) { done(jobs::shownJobName(n), {}); });
    connect(runner, &jobs::JobRunner::cancelled, this,
            [=](const QString& n) { done(n, tr("%1 cancelled").arg(jobs::shownJobName(n))); });
    connect(runner, &jobs::JobRunner::failed, this, [=](const QString& n, const QString& m) {
        done(n, tr("%1 failed: %2").arg(jobs::shownJobName(n), m));
    });
}

void MainWindow::showProcess(int index) {
    {
        QSignalBlocker block(m_process);
        m_process->setCurrentIndex(index);
    }
    m_centralStack->setCurrentIndex(index);
    m_panelStack->setCurrentIndex(index);
    fitParametersDock();
}

void MainWindow::fitParametersDock() {
    // The dock is as wide as the panel shown needs, so that none of its buttons is cut or
    // scrolled sideways; the hidden panel does not count (a stack is as wide as its widest).
    for (int i = 0; i < m_panelStack->count(); ++i) {
        const auto policy =
            i == m_panelStack->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored;
        m_panelStack->widget(i)->setSizePolicy(policy, policy);
    }
    if (m_panelScroll == nullptr) return;
    const int needed = m_panelStack->currentWidget()->minimumSizeHint().width() +
                       m_panelScroll->verticalScrollBar()->sizeHint().width() +
                       2 * m_panelScroll->frameWidth();
    m_panelScroll->setMinimumWidth(std::max(kParametersDockWidth, needed));
}

QTabWidget* MainWindow::tabs() const {
    return m_centralStack->currentIndex() == 1 ? m_gaussianTabs : m_tabs;
}

std::vector<std::pair<QString, charts::ViewPanel*>> MainWindow::currentViews() const {
    return m_centralStack->currentIndex() == 1 ? m_gaussianExplorer->views() : m_explorer->views();
}

void MainWindow::createDocks() {
    auto* dock = new QDockWidget(tr("Parameters"), this);
    dock->setObjectName("parametersDock");
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    auto* scroll = new QScrollArea;
    m_panelScroll = scroll;
    scroll->setWidgetResizable(true);
    m_panelStack->addWidget(m_panel);
    m_panelStack->addWidget(m_gaussianPanel);
    scroll->setWidget(m_panelStack);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // fitParametersDock
    scroll->setMinimumWidth(kParametersDockWidth);
    dock->setWidget(scroll);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    m_explanation = new ExplanationPane(this);
    addDockWidget(Qt::RightDockWidgetArea, m_explanation);
    m_explanation->hide();  // View ▸ Explanation (Shift+F1) shows it
    m_lessons = new lessons::LessonPane(this);
    addDockWidget(Qt::RightDockWidgetArea, m_lessons);
    m_lessons->hide();  // Help ▸ Lessons shows it
    connect(m_lessons, &lessons::LessonPane::stepRequested, this, &MainWindow::loadLessonStep);
    // Any project loaded leaves the lesson's step; a step's own load shows it again after.
    connect(m_document, &document::ProjectDocument::projectReplaced, m_lessons,
            &lessons::LessonPane::leaveStep);
    connect(m_lessons, &lessons::LessonPane::mathematicsRequested, this,
            &MainWindow::showMathematics);
    auto follow = [this] { m_explanation->setViews(viewsOnScreen()); };
    connect(m_tabs, &QTabWidget::currentChanged, this, follow);
    connect(m_gaussianTabs, &QTabWidget::currentChanged, this, follow);
    connect(m_centralStack, &QStackedWidget::currentChanged, this, follow);
    follow();
    fitParametersDock();
}

void MainWindow::setPlayerIconScale(double scale) {
    // The players' buttons (step, play) grow with the text: icons do not follow the font.
    const int normal = style()->pixelMetric(QStyle::PM_ButtonIconSize);
    const int side = static_cast<int>(std::lround(normal * scale));
    for (QToolButton* button : m_centralStack->findChildren<QToolButton*>()) {
        button->setIconSize(QSize(side, side));
    }
}

void MainWindow::setPresentationMode(bool on) {
    if (on == m_presentation.active) return;
    constexpr double kScale = 1.6;
    if (on) {
        m_presentation = {true, saveState(), isMaximized(), QApplication::font(), saveGeometry()};
        for (QDockWidget* dock : findChildren<QDockWidget*>()) dock->hide();
        for (QToolBar* bar : findChildren<QToolBar*>()) bar->hide();
        statusBar()->hide();
        menuBar()->hide();
        QFont large = m_presentation.font;
        large.setPointSizeF(large.pointSizeF() * kScale);
        QApplication::setFont(large);
        charts::setChartsScale(this, kScale);
        m_explorer->chainsView()->setTileScale(kScale);
        m_gaussianExplorer->particlesView()->setTileScale(kScale);
        setPlayerIconScale(kScale);
        showFullScreen();
    } else {
        m_presentation.active = false;
        QApplication::setFont(m_presentation.font);
        charts::setChartsScale(this, 1.0);
        m_explorer->chainsView()->setTileScale(1.0);
        m_gaussianExplorer->particlesView()->setTileScale(1.0);
        setPlayerIconScale(1.0);
        menuBar()->show();
        statusBar()->show();
        restoreState(m_presentation.windowState);
        m_presentation.wasMaximized ? showMaximized() : showNormal();
        // Back to the size it had: the larger fonts' layout left it wider than the screen
        // of a 1280 × 720 projector after a second round.
        if (!m_presentation.wasMaximized) restoreGeometry(m_presentation.geometry);
    }
}

std::vector<std::pair<QString, charts::ViewPanel*>> MainWindow::viewsOnScreen() const {
    std::vector<std::pair<QString, charts::ViewPanel*>> shown;
    const QWidget* page = tabs()->currentWidget();
    for (auto& [name, panel] : currentViews()) {
        if (panel == page || (page != nullptr && page->isAncestorOf(panel))) {
            shown.emplace_back(name, panel);
        }
    }
    return shown;
}

void MainWindow::showMathematics(const QString& page) {
    auto* dialog = findChild<MathHelpDialog*>();
    if (dialog == nullptr) dialog = new MathHelpDialog(this);
    dialog->showPage(page);
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

bool MainWindow::loadLessonStep(int lesson, int step) {
    const auto& all = lessons::lessons();
    if (lesson < 0 || lesson >= static_cast<int>(all.size()) || step < 0 ||
        step >= static_cast<int>(all[lesson].steps.size()) || !maybeSave()) {
        return false;
    }
    const lessons::LessonStep& s = all[lesson].steps[step];
    m_document->loadExample(s.project);
    showView(s.view);
    // Play shows the process the step's text describes.
    m_timeBar->setReverseDirection(!s.playsForward);
    m_gaussianExplorer->particlesView()->setZoom(s.particlesZoom);
    m_lessons->showStep(lesson, step);
    m_lessons->show();
    return true;
}

bool MainWindow::showView(const QString& name) {
    for (const bool gaussian : {false, true}) {
        const auto views = gaussian ? m_gaussianExplorer->views() : m_explorer->views();
        QTabWidget* tabWidget = gaussian ? m_gaussianTabs : m_tabs;
        for (const auto& [viewName, panel] : views) {
            if (viewName != name) continue;
            showProcess(gaussian ? 1 : 0);
            for (int i = 0; i < tabWidget->count(); ++i) {
                QWidget* page = tabWidget->widget(i);
                if (page == panel || page->isAncestorOf(panel)) {
                    tabWidget->setCurrentIndex(i);
                    panel->setFocus();  // of a split page, the view named (File ▸ Export view)
                    return true;
                }
            }
        }
    }
    return false;
}

}  // namespace ui
