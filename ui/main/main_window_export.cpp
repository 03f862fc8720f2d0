// SPDX-License-Identifier: MIT
// The main window's exports: views, animations and Γ.
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

namespace {

charts::ViewPanel* currentPanel(QTabWidget* tabs) {
    QWidget* page = tabs->currentWidget();
    if (auto* panel = qobject_cast<charts::ViewPanel*>(page)) {
        return panel;
    }
    // A split page: the view last clicked or shown by name (it holds the page's focus), else
    // the first one in the split's order (each view of a split is in "Export all").
    for (QWidget* w = page->focusWidget(); w != nullptr && w != page; w = w->parentWidget()) {
        if (auto* panel = qobject_cast<charts::ViewPanel*>(w)) return panel;
    }
    if (auto* split = qobject_cast<QSplitter*>(page)) {
        for (int i = 0; i < split->count(); ++i) {
            if (auto* panel = qobject_cast<charts::ViewPanel*>(split->widget(i))) return panel;
        }
    }
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
        const auto write = [panel, &path](const charts::ExportOptions& chosen) {
            return charts::exportWidget(panel, path, chosen);
        };
        if (!charts::askExportOptions(this, path, &options, write)) {
            return;
        }
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
    const QString error = charts::exportViewsToFolder(
        dir, currentViews(), {"png", "svg", "pdf", "csv"}, {.size = {1200, 800}, .dpi = 144});
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
    animation::AnimationDialog dialog(source, gaussian ? tr("Particles") : tr("Trajectories"),
                                      this);
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
        const animation::AnimationLength length =
            animation::animationLength(source, dialog.options());
        statusBar()->showMessage(
            tr("Exported %1")
                .arg(animation::animationFrameName(path.chopped(4), 0) + " … " +
                     animation::animationFrameName(path.chopped(4),
                                                   length.frames + length.heldFrames - 1)),
            4000);
    } else {
        statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
    }
}

}  // namespace ui
