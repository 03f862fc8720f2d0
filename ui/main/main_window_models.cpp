// SPDX-License-Identifier: MIT
// The main window's models: loading a checkpoint (menu or dropped file) and training one.
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

}  // namespace ui
