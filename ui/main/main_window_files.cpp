// SPDX-License-Identifier: MIT
// The main window's project files: open, save, the recent files, the unsaved-changes
// question, quitting, and the recovery copies.
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
namespace {
constexpr int kMaxRecentFiles = 8;
const char* kProjectFilter =
    QT_TRANSLATE_NOOP("ui::MainWindow", "Diffuscope projects (*.diffuscope.json *.json)");
}  // namespace

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
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (maybeSave()) {
                                openFileInBackground(path);
                            }
                        })
            ->setToolTip(path);
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

void MainWindow::openWithDialog() {
    if (!maybeSave()) {
        return;
    }
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open project"), {}, tr(kProjectFilter));
    if (!path.isEmpty()) {
        openFileInBackground(path);
    }
}

bool MainWindow::openFile(const QString& path) {
    return useOpenedFile(path, document::readProjectFile(path));
}

void MainWindow::openFileInBackground(const QString& path) {
    m_fileRunner.start(
        tr("Opening %1").arg(QFileInfo(path).fileName()),
        [this, path](core::Progress&) -> std::function<void()> {
            auto project =
                std::make_shared<core::Result<document::Project>>(document::readProjectFile(path));
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

}  // namespace ui
