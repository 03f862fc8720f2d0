// SPDX-License-Identifier: MIT
#include "ui/main/main_window.h"

#include <algorithm>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QUrl>
#include <QMimeData>
#include <QDropEvent>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QSpinBox>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QStyle>
#include <QStackedWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include "ui/animation/animation_dialog.h"
#include "ui/animation/animation_export.h"
#include "ui/animation/chains_view.h"
#include "ui/animation/time_bar.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/export_dialog.h"
#include "ui/charts/presentation.h"
#include "ui/document/project_document.h"
#include "ui/document/recovery_store.h"
#include "ui/main/categorical_explorer.h"
#include "ui/document/model_files.h"
#include "ui/main/explanation_pane.h"
#include "ui/lessons/lesson_pane.h"
#include "ui/lessons/lessons.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/main/language.h"
#include "ui/main/math_help.h"
#include "ui/training/train_dialog.h"
#include "ui/panels/gaussian_panel.h"
#include "ui/panels/categorical_panel.h"
#include "ui/views/gamma_view.h"
#include "ui/views/compare_view.h"
#include "ui/views/lab_view.h"
#include "ui/views/gaussian_trajectory_view.h"
#include "ui/views/particles_view.h"
#include "ui/views/kernel_comparison_view.h"
#include "ui/views/matrices_view.h"
#include "ui/views/schedule_view.h"
#include "ui/views/step_cost_view.h"
#include "ui/views/variance_view.h"

namespace ui {
namespace {
constexpr int kAutosaveMs = 30000;
constexpr int kMaxRecentFiles = 8;
const char* kProjectFilter =
    QT_TRANSLATE_NOOP("ui::MainWindow", "Diffuscope projects (*.diffuscope.json *.json)");
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
      m_gaussianPanel(new panels::GaussianPanel(m_document, m_gaussianExplorer->fileRunner(),
                                                m_gaussianExplorer->checkRunner())),
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
    connect(m_gaussianPanel, &panels::GaussianPanel::trainRequested, this, &MainWindow::showTrainDialog);
    connect(m_panel, &panels::CategoricalPanel::trainRequested, this, &MainWindow::showTrainDialog);
    connect(m_gaussianPanel, &panels::GaussianPanel::exportGammaRequested, this, &MainWindow::exportGamma);
    createStatusBar();
    connectTimeBar();
    connectTitle();
    m_autosave.setInterval(kAutosaveMs);
    connect(&m_autosave, &QTimer::timeout, this, &MainWindow::autosave);
    m_autosave.start();
    statusBar()->showMessage(tr("Example project: K = 4, a non-uniform π and two conditions."),
                             6000);
}

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
}

// The categorical time bar drives the explorer and edits the seed.
void MainWindow::connectTimeBar() {
    connect(m_explorer, &CategoricalExplorer::curveChanged, m_panel,
            &panels::CategoricalPanel::setCurvePreview);
    if (m_explorer->setup()) {
        m_panel->setCurvePreview(m_explorer->setup()->curve);
    }
    connect(m_explorer, &CategoricalExplorer::stepsChanged, m_timeBar, &animation::TimeBar::setNumSteps);
    connect(m_timeBar, &animation::TimeBar::positionChanged, m_explorer, &CategoricalExplorer::setPosition);
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
    connect(m_document, &document::ProjectDocument::filePathChanged, this, &MainWindow::updateTitle);
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
    return {&m_fileRunner, m_explorer->fileRunner(), m_gaussianExplorer->fileRunner(),
            m_explorer->setupRunner(), m_explorer->costRunner(),
            m_explorer->chainRunner(), m_gaussianExplorer->runner(), m_gaussianExplorer->nllRunner(),
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
}

QTabWidget* MainWindow::tabs() const { return m_centralStack->currentIndex() == 1 ? m_gaussianTabs : m_tabs; }

std::vector<std::pair<QString, charts::ViewPanel*>> MainWindow::currentViews() const {
    return m_centralStack->currentIndex() == 1 ? m_gaussianExplorer->views() : m_explorer->views();
}

void MainWindow::createDocks() {
    auto* dock = new QDockWidget(tr("Parameters"), this);
    dock->setObjectName("parametersDock");
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    m_panelStack->addWidget(m_panel);
    m_panelStack->addWidget(m_gaussianPanel);
    scroll->setWidget(m_panelStack);
    scroll->setMinimumWidth(330);
    dock->setWidget(scroll);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    m_explanation = new ExplanationPane(this);
    addDockWidget(Qt::RightDockWidgetArea, m_explanation);
    m_explanation->hide();  // View ▸ Explanation (Shift+F1) shows it
    m_lessons = new lessons::LessonPane(this);
    addDockWidget(Qt::RightDockWidgetArea, m_lessons);
    m_lessons->hide();  // Help ▸ Lessons shows it
    connect(m_lessons, &lessons::LessonPane::stepRequested, this, &MainWindow::loadLessonStep);
    connect(m_lessons, &lessons::LessonPane::mathematicsRequested, this,
            &MainWindow::showMathematics);
    auto follow = [this] { m_explanation->setViews(viewsOnScreen()); };
    connect(m_tabs, &QTabWidget::currentChanged, this, follow);
    connect(m_gaussianTabs, &QTabWidget::currentChanged, this, follow);
    connect(m_centralStack, &QStackedWidget::currentChanged, this, follow);
    follow();
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
        m_presentation = {true, saveState(), isMaximized(), QApplication::font()};
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

void MainWindow::createMenus() {
    createFileMenu();
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    // Ctrl+Shift+Z and Ctrl+Y on every platform, each bound once: the platform's Redo already
    // holds one of them on most, and a key bound twice is ambiguous and does nothing.
    QList<QKeySequence> redoKeys;
    QList<QKeySequence> candidates = QKeySequence::keyBindings(QKeySequence::Redo);
    candidates << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z) << QKeySequence(Qt::CTRL | Qt::Key_Y);
    for (const QKeySequence& key : candidates) {
        if (!key.isEmpty() && !redoKeys.contains(key)) redoKeys.append(key);
    }
    redo->setShortcuts(redoKeys);
    edit->addAction(undo);
    edit->addAction(redo);
    createViewMenu();
    createPlayMenu();
    createHelpMenu();
}

void MainWindow::createFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (maybeSave()) {
            m_document->newProject();
        }
    });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        if (!maybeSave()) {
            return;
        }
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open project"), {}, tr(kProjectFilter));
        if (!path.isEmpty()) {
            openFileInBackground(path);
        }
    });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    updateRecentMenu();
    QMenu* examples = file->addMenu(tr("E&xamples"));
    for (const document::Example& example : document::examples()) {
        examples->addAction(example.title, this, [this, project = example.project] {
            if (maybeSave()) {
                m_document->loadExample(project);
            }
        });
    }
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    file->addAction(tr("Save &as…"), QKeySequence::SaveAs, this, [this] { saveAs(); });
    file->addSeparator();
    file->addAction(tr("&Export view…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                    &MainWindow::exportCurrentView);
    file->addAction(tr("Export &all views…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this,
                    &MainWindow::exportAllViews);
    file->addAction(tr("Export a&nimation…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_E), this,
                    &MainWindow::exportAnimation);
    file->addAction(tr("Export &Γ…"), this, &MainWindow::exportGamma);
    file->addSeparator();
    file->addAction(
        tr("Open a &model checkpoint…"), QKeySequence(Qt::CTRL | Qt::Key_M), this, [this] {
            const QString path = QFileDialog::getOpenFileName(
                this, tr("Open a model checkpoint"), {},
                tr("Models (*.safetensors *.pt);;Checkpoints (*.safetensors);;TorchScript models (*.pt)"));
            if (!path.isEmpty()) loadModelInBackground(path);
        });
    file->addAction(tr("&Train a model…"), QKeySequence(Qt::CTRL | Qt::Key_T), this,
                    &MainWindow::showTrainDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::createViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Categorical diffusion"), QKeySequence(Qt::CTRL | Qt::Key_1), this,
                    [this] { m_document->setProcess(document::ProcessKind::Categorical); });
    view->addAction(tr("&Gaussian diffusion"), QKeySequence(Qt::CTRL | Qt::Key_2), this,
                    [this] { m_document->setProcess(document::ProcessKind::Gaussian); });
    QAction* explain = m_explanation->toggleViewAction();
    explain->setText(tr("&Explanation"));
    explain->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F1));
    explain->setToolTip(
        tr("What the views on screen show, how to read them, what to try, and "
           "their current numbers."));
    view->addAction(explain);
    QAction* present = view->addAction(tr("&Presentation mode"));
    present->setCheckable(true);
    present->setShortcut(QKeySequence(Qt::Key_F11));
    present->setShortcutContext(Qt::ApplicationShortcut);
    present->setToolTip(
        tr("Full screen with the views only, text and lines large enough for a "
           "projector (F11 again to leave)."));
    connect(present, &QAction::toggled, this, &MainWindow::setPresentationMode);
    addAction(present);  // F11 still works while the menu bar is hidden
    view->addSeparator();
    // Alt+1…6 show the current process's views; the menu names them when it opens.
    std::vector<QAction*> tabActions;
    for (int i = 0; i < 6; ++i) {
        tabActions.push_back(view->addAction(
            tr("View %1").arg(i + 1), QKeySequence(Qt::ALT | (Qt::Key_1 + i)), this, [this, i] {
                if (i < tabs()->count()) tabs()->setCurrentIndex(i);
            }));
    }
    connect(view, &QMenu::aboutToShow, this, [this, tabActions] {
        for (int i = 0; i < static_cast<int>(tabActions.size()); ++i) {
            const bool exists = i < tabs()->count();
            tabActions[i]->setVisible(exists);
            // The tab's text as it is: "&&" is a literal "&" in a menu too.
            if (exists) tabActions[i]->setText(tabs()->tabText(i));
        }
    });
    view->addSeparator();
    createLanguageMenu(view);
}

// View ▸ Language: the choice is saved and applies from the next start (the views build their
// texts once, so switching live would mean rebuilding the window).
void MainWindow::createLanguageMenu(QMenu* view) {
    QMenu* menu = view->addMenu(tr("&Language"));
    menu->setObjectName("languageMenu");
    auto* group = new QActionGroup(menu);
    group->setExclusive(true);
    const QString saved = language::savedChoice();
    // Every built-in translation, each named in its own language so anyone can find theirs.
    std::vector<std::pair<QString, QString>> choices = {{"system", tr("System default")}};
    for (const QString& code : language::available()) {
        choices.emplace_back(
            code, code == "en" ? QStringLiteral("English") : QLocale(code).nativeLanguageName());
    }
    for (const auto& [code, name] : choices) {
        QAction* action = menu->addAction(name);
        action->setCheckable(true);
        action->setChecked(code == saved);
        action->setData(code);
        group->addAction(action);
    }
    connect(group, &QActionGroup::triggered, this, [this](QAction* action) {
        const QString code = action->data().toString();
        if (code == language::savedChoice()) return;
        language::saveChoice(code);
        QMessageBox::information(this, tr("Language"),
                                 tr("The language changes when Diffuscope restarts."));
    });
}

// Play, pause and step: the categorical time bar, or the Particles view's player.
void MainWindow::createPlayMenu() {
    QMenu* play = menuBar()->addMenu(tr("&Play"));
    // The Gaussian process has its player in the Particles view.
    auto particles = [this] {
        return m_centralStack->currentIndex() == 1 ? m_gaussianExplorer->particlesView() : nullptr;
    };
    QAction* toggle = play->addAction(tr("Play / pause"), this, [this, particles] {
        if (auto* p = particles()) {
            p->setPlaying(!p->isPlaying());
        } else {
            m_timeBar->togglePlay();
        }
    });
    toggle->setShortcut(QKeySequence(Qt::Key_Space));
    QAction* forward = play->addAction(tr("Step forward"), this, [this, particles] {
        if (auto* p = particles()) {
            p->stepBy(1);
        } else {
            m_timeBar->stepForward();
        }
    });
    forward->setShortcut(QKeySequence(Qt::Key_Right));
    QAction* back = play->addAction(tr("Step back"), this, [this, particles] {
        if (auto* p = particles()) {
            p->stepBy(-1);
        } else {
            m_timeBar->stepBackward();
        }
    });
    back->setShortcut(QKeySequence(Qt::Key_Left));
    for (QAction* a : {toggle, forward, back}) {
        // Only when no text field has focus: Space and arrows edit text there.
        a->setShortcutContext(Qt::WindowShortcut);
    }
}

void MainWindow::createHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* mathematics = help->addAction(tr("&Mathematics"), this,
                                           [this] { showMathematics("README.md"); });
    mathematics->setShortcut(QKeySequence::HelpContents);  // F1
    QAction* lessonsAction = m_lessons->toggleViewAction();
    lessonsAction->setText(tr("&Lessons"));
    lessonsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    lessonsAction->setToolTip(tr("Guided lessons: each step loads a project, shows a view and "
                                 "says what to look at and what to try."));
    help->addAction(lessonsAction);
    help->addAction(tr("&About Diffuscope"), this, [this] {
        QMessageBox::about(
            this, tr("About Diffuscope"),
            tr("<p><b>Diffuscope %1</b> — an explorer for diffusion processes.</p>"
               "<p><b>Categorical diffusion</b>: the forward process P₀,ₜ = (1 − βₜ)I + "
               "βₜ1πᵀ and the closed-form reverse kernel that turns a denoiser "
               "F(i | j, C, t) = P(X₀ = i | Xₜ = j, C) into P(Xₛ | Xₜ), after the categorical "
               "diffusion derivation this project started from.</p>"
               "<p><b>Analytic-DPM</b>: the analytic optimal reverse variance and the "
               "optimal trajectory of Bao, Li, Zhu and Zhang, <i>Analytic-DPM: an Analytic "
               "Estimate of the Optimal Reverse Variance in Diffusion Probabilistic "
               "Models</i>, ICLR 2022.</p>")
                .arg(QApplication::applicationVersion()));
    });
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
                    return true;
                }
            }
        }
    }
    return false;
}

void MainWindow::updateTitle() {
    const QString name = !m_document->filePath().isEmpty()
                             ? QFileInfo(m_document->filePath()).fileName()
                         : m_recovered ? tr("Recovered project (unsaved)")
                                       : tr("Example project");
    setWindowTitle(tr("%1%2 — Diffuscope").arg(name, m_document->isModified() ? " *" : ""));
}

void MainWindow::updateRecentMenu() {
    if (m_recentMenu == nullptr) {
        return;
    }
    m_recentMenu->clear();
    const QStringList files = QSettings().value("recentFiles").toStringList();
    for (const QString& path : files) {
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] {
            if (maybeSave()) {
                openFileInBackground(path);
            }
        })->setToolTip(path);
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList files = settings.value("recentFiles").toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles) {
        files.removeLast();
    }
    settings.setValue("recentFiles", files);
    updateRecentMenu();
}

bool MainWindow::openFile(const QString& path) {
    return useOpenedFile(path, document::readProjectFile(path));
}

void MainWindow::openFileInBackground(const QString& path) {
    m_fileRunner.start(tr("Opening %1").arg(QFileInfo(path).fileName()),
                       [this, path](core::Progress&) -> std::function<void()> {
                           auto project = std::make_shared<core::Result<document::Project>>(
                               document::readProjectFile(path));
                           return [this, path, project] { useOpenedFile(path, std::move(*project)); };
                       });
}

bool MainWindow::useOpenedFile(const QString& path, core::Result<document::Project> project) {
    if (!project) {
        QMessageBox::warning(this, tr("Open project"),
                             tr("The project was not opened.\n\n%1")
                                 .arg(QString::fromStdString(project.error().toString())));
        return false;
    }
    m_document->adopt(std::move(project).value(), path);
    addRecentFile(path);
    statusBar()->showMessage(tr("Opened %1").arg(path), 4000);
    return true;
}

bool MainWindow::save() {
    if (m_document->filePath().isEmpty()) {
        return saveAs();
    }
    const core::Status status = m_document->saveAs(m_document->filePath());
    if (!status) {
        QMessageBox::warning(this, tr("Save project"),
                             QString::fromStdString(status.error().toString()));
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(m_document->filePath()), 4000);
    return true;
}

bool MainWindow::saveAs() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save project"), "project.diffuscope.json",
                                                tr(kProjectFilter));
    if (path.isEmpty()) {
        return false;
    }
    if (!path.endsWith(".json")) {
        path += ".diffuscope.json";
    }
    const core::Status status = m_document->saveAs(path);
    if (!status) {
        QMessageBox::warning(this, tr("Save project"),
                             QString::fromStdString(status.error().toString()));
        return false;
    }
    addRecentFile(path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

bool MainWindow::loadModel(const QString& path) {
    return useLoadedModel(path, document::loadModelFile(path));
}

void MainWindow::loadModelInBackground(const QString& path) {
    m_fileRunner.start(tr("Loading %1").arg(QFileInfo(path).fileName()),
                       [this, path](core::Progress&) -> std::function<void()> {
                           // Loaded once here; the panel's fit check then finds it cached.
                           auto loaded = std::make_shared<core::Result<document::LoadedModelPtr>>(
                               document::loadModelFile(path));
                           return [this, path, loaded] { useLoadedModel(path, *loaded); };
                       });
}

bool MainWindow::useLoadedModel(const QString& path,
                                const core::Result<document::LoadedModelPtr>& loaded) {
    // The checkpoint's own metadata says which process it is for.
    if (!loaded) {
        QMessageBox::warning(this, tr("Model"), QString::fromStdString(loaded.error().toString()));
        return false;
    }
    const bool gaussian = (*loaded)->gaussian != nullptr;
    m_document->setProcess(gaussian ? document::ProcessKind::Gaussian
                                    : document::ProcessKind::Categorical);
    const bool ok = gaussian ? m_gaussianPanel->loadModel(path) : m_panel->loadModel(path);
    statusBar()->showMessage(ok ? tr("Using the model %1").arg(QFileInfo(path).fileName())
                                : tr("The model does not fit the current data (see the panel)."),
                             5000);
    return ok;
}

namespace {
// Our checkpoints and TorchScript models; the loader tells them apart by their bytes.
bool isModelFileName(const QString& path) {
    return path.endsWith(".safetensors", Qt::CaseInsensitive) ||
           path.endsWith(".pt", Qt::CaseInsensitive);
}
}  // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile() && isModelFileName(url.toLocalFile())) {
            event->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile() && isModelFileName(url.toLocalFile())) {
            event->acceptProposedAction();
            loadModelInBackground(url.toLocalFile());
            return;
        }
    }
}

void MainWindow::showTrainDialog() {
    const auto process = m_document->project().process;
    auto* dialog = new training::TrainDialog(m_document->project(), process, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString folder = m_document->filePath().isEmpty()
                               ? QDir::currentPath()
                               : QFileInfo(m_document->filePath()).absolutePath();
    dialog->setOutputPath(QDir(folder).filePath(process == document::ProcessKind::Gaussian
                                                    ? "gaussian-model.safetensors"
                                                    : "categorical-model.safetensors"));
    connect(dialog, &training::TrainDialog::modelSaved, this,
            [this](const QString& path) { loadModelInBackground(path); });
    dialog->show();
}

void MainWindow::exportGamma() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Γ"), "gamma.csv", tr("Γ as CSV (*.csv);;ms_eps as NPY (*.npy)"));
    if (path.isEmpty()) return;
    const QString error = m_gaussianExplorer->exportGamma(path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Export Γ"), error);
    } else {
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
    }
}

bool MainWindow::maybeSave() {
    if (!m_document->isModified()) {
        return true;
    }
    QMessageBox box(QMessageBox::Question, tr("Unsaved changes"),
                    tr("The project has unsaved changes. Save them first?"),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    // Named here: Qt translates its standard buttons only when qtbase_*.qm is installed.
    box.button(QMessageBox::Save)->setText(tr("Save"));
    box.button(QMessageBox::Discard)->setText(tr("Discard"));
    box.button(QMessageBox::Cancel)->setText(tr("Cancel"));
    const auto answer = static_cast<QMessageBox::StandardButton>(box.exec());
    if (answer == QMessageBox::Save) {
        return save();
    }
    if (answer == QMessageBox::Discard) {
        // Deleted once the discard happens (the window closes, another project replaces this
        // one), not before: the action that asked may still be cancelled.
        m_discardAnswered = true;
        return true;
    }
    return false;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    m_discardAnswered = false;
    if (maybeSave()) {
        if (m_discardAnswered) {
            m_recovery->removeCopy();  // an explicit discard
        }
        event->accept();
    } else {
        event->ignore();
    }
}

QString MainWindow::recoveryPath() const { return m_recovery->copyPath(); }

void MainWindow::autosave() {
    if (!m_document->isModified()) {
        m_recovery->removeCopy();  // e.g. edits undone back to the saved state
        return;
    }
    const core::Status status = m_recovery->write(document::projectToJson(m_document->project()));
    if (!status) {
        statusBar()->showMessage(
            tr("Autosave failed: %1").arg(QString::fromStdString(status.error().toString())), 8000);
    }
}

QStringList MainWindow::recoveryCopies() const { return m_recovery->orphans(); }

void MainWindow::offerRecovery() {
    const QStringList copies = recoveryCopies();
    if (copies.isEmpty()) {
        return;
    }
    QMessageBox box(QMessageBox::Question, tr("Recover project"),
                    tr("Diffuscope did not close cleanly last time. Restore the unsaved project it "
                       "was working on?"),
                    QMessageBox::NoButton, this);
    box.setInformativeText(
        tr("Saved %1.").arg(QFileInfo(copies.first()).lastModified().toString()));
    QPushButton* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
    QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.addButton(tr("Not now"), QMessageBox::RejectRole);  // kept for the next start
    box.setDefaultButton(restore);
    box.exec();
    if (box.clickedButton() == restore) {
        restoreRecovery(copies.first());
    } else if (box.clickedButton() == discard) {
        discardRecovery(copies.first());
    }
}

bool MainWindow::restoreRecovery(const QString& path) {
    if (const core::Status adopted = m_recovery->adopt(path); !adopted) {
        QMessageBox::warning(this, tr("Recover project"),
                             QString::fromStdString(adopted.error().toString()));
        return false;
    }
    if (const core::Status status = m_document->recover(path); !status) {
        m_recovery->release();  // unreadable here; keep the copy rather than delete it
        QMessageBox::warning(this, tr("Recover project"),
                             tr("The recovery copy was not restored.\n\n%1")
                                 .arg(QString::fromStdString(status.error().toString())));
        return false;
    }
    m_recovered = true;
    updateTitle();
    statusBar()->showMessage(tr("Recovered the unsaved project; save it under a name."), 8000);
    return true;
}

bool MainWindow::discardRecovery(const QString& path) {
    if (const core::Status status = m_recovery->discard(path); !status) {
        QMessageBox::warning(this, tr("Recover project"),
                             QString::fromStdString(status.error().toString()));
        return false;
    }
    return true;
}

namespace {

charts::ViewPanel* currentPanel(QTabWidget* tabs) {
    QWidget* page = tabs->currentWidget();
    if (auto* panel = qobject_cast<charts::ViewPanel*>(page)) {
        return panel;
    }
    // A split page: export its first view (each view of a split is in "Export all").
    return page->findChild<charts::ViewPanel*>();
}
}  // namespace

void MainWindow::exportCurrentView() {
    charts::ViewPanel* panel = currentPanel(tabs());
    const QString path =
        charts::askExportPath(this, panel->title().toLower().replace(' ', '-').remove('&'));
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (charts::chartFormat(path).isEmpty()) {
        // Written as named or not at all: no extension of its own is added.
        error = tr("%1: a view is exported as .png, .svg, .pdf or .csv").arg(path);
    } else if (charts::chartFormat(path) == "csv") {
        error = panel->exportCsv(path);
    } else {
        charts::ExportOptions options{.size = panel->size().expandedTo({800, 500}), .dpi = 96};
        if (!charts::askExportOptions(this, path, &options)) {
            return;
        }
        error = charts::exportWidget(panel, path, options);
    }
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Export"), error);
    } else {
        statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
    }
}

void MainWindow::exportAllViews() {
    QSettings settings;
    const QString dir = QFileDialog::getExistingDirectory(
        this, "Export all views to", settings.value("export/folder", QDir::homePath()).toString());
    if (dir.isEmpty()) {
        return;
    }
    settings.setValue("export/folder", dir);
    // Every file or none: a failure half-way (a full disk) leaves the folder as it was.
    const QString error = charts::exportViewsToFolder(dir, currentViews(), {"png", "svg", "pdf", "csv"},
                                                      {.size = {1200, 800}, .dpi = 144});
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Export all views"), error);
    } else {
        statusBar()->showMessage(tr("Exported every view to %1").arg(dir), 4000);
    }
}

void MainWindow::exportAnimation() {
    // The animated view of the process shown: the Particles or the Trajectories chains.
    const bool gaussian = m_document->project().process == document::ProcessKind::Gaussian;
    const animation::AnimationSource source =
        gaussian ? animation::particlesAnimation(m_gaussianExplorer->particlesView())
                 : animation::chainsAnimation(m_explorer->chainsView());
    const QString name = gaussian ? "particles" : "trajectories";
    if (source.steps <= 0) {
        QMessageBox::information(this, tr("Export animation"),
                                 tr("Nothing to export yet: the animation has no frames."));
        return;
    }
    animation::AnimationDialog dialog(source, gaussian ? tr("Particles") : tr("Trajectories"), this);
    if (dialog.exec() != QDialog::Accepted) return;
    const bool frames = dialog.pngSequence();
    const QString typed = QFileDialog::getSaveFileName(
        this, tr("Export animation"), name + (frames ? ".png" : ".gif"),
        frames ? tr("PNG frame sequence (*.png)") : tr("Animated GIF (*.gif)"));
    if (typed.isEmpty()) return;
    // A name without an extension gets the chosen format's; the format follows the extension.
    const QString path = charts::withFilterSuffix(typed, frames ? "(*.png)" : "(*.gif)");
    const QString format = animation::animationFormat(path);
    if (format.isEmpty()) {
        QMessageBox::warning(
            this, tr("Export animation"),
            tr("%1: an animation is exported as .gif or as .png (a sequence of PNG frames)")
                .arg(path));
        return;
    }
    dialog.remember();
    // Frames are rendered from the view itself, on this thread: a progress dialog keeps the
    // window painted and offers Cancel between frames.
    QProgressDialog progress(tr("Rendering the animation…"), tr("Cancel"), 0, 100, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    const auto report = [&progress](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
        return !progress.wasCanceled();
    };
    const QString error =
        format == "png"
            ? animation::exportAnimationFrames(source, path.chopped(4), dialog.options(), report)
            : animation::exportAnimationGif(source, path, dialog.options(), report);
    progress.reset();
    if (error == "cancelled") {
        statusBar()->showMessage(tr("Animation export cancelled"), 4000);
    } else if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Export animation"), error);
    } else if (format == "png") {
        const animation::AnimationLength length = animation::animationLength(source, dialog.options());
        statusBar()->showMessage(
            tr("Exported %1").arg(animation::animationFrameName(path.chopped(4), 0) + " … " +
                                  animation::animationFrameName(
                                      path.chopped(4), length.frames + length.heldFrames - 1)),
            4000);
    } else {
        statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
    }
}

}  // namespace ui
