// SPDX-License-Identifier: MIT
// The main window's menus and their actions.
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
#include "ui/main/main_window.h"
#include "ui/main/math_help.h"
#include "ui/panels/categorical_panel.h"
#include "ui/panels/gaussian_panel.h"
#include "ui/training/train_dialog.h"
#include "ui/views/compare_view.h"
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
    candidates << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)
               << QKeySequence(Qt::CTRL | Qt::Key_Y);
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
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openWithDialog);
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
    // Ctrl+Shift+S on every platform: the generic one (no desktop's theme) binds no SaveAs key.
    QAction* saveAsAction = file->addAction(tr("Save &as…"), this, [this] { saveAs(); });
    QList<QKeySequence> saveAsKeys = QKeySequence::keyBindings(QKeySequence::SaveAs);
    if (const QKeySequence key(Qt::CTRL | Qt::SHIFT | Qt::Key_S); !saveAsKeys.contains(key)) saveAsKeys << key;
    saveAsAction->setShortcuts(saveAsKeys);
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
            const QString path =
                QFileDialog::getOpenFileName(this, tr("Open a model checkpoint"), {},
                                             tr("Models (*.safetensors *.pt);;Checkpoints "
                                                "(*.safetensors);;TorchScript models (*.pt)"));
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
    QAction* mathematics =
        help->addAction(tr("&Mathematics"), this, [this] { showMathematics("README.md"); });
    mathematics->setShortcut(QKeySequence::HelpContents);  // F1
    QAction* lessonsAction = m_lessons->toggleViewAction();
    lessonsAction->setText(tr("&Lessons"));
    lessonsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    lessonsAction->setToolTip(
        tr("Guided lessons: each step loads a project, shows a view and "
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

}  // namespace ui
