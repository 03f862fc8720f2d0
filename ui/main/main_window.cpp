// SPDX-License-Identifier: MIT
#include "ui/main/main_window.h"

#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("Diffuscope");
    auto* label = new QLabel("Diffuscope", this);
    label->setAlignment(Qt::AlignCenter);
    setCentralWidget(label);
    createMenus();
    statusBar()->showMessage("Ready");
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("&Quit", QKeySequence::Quit, qApp, &QApplication::quit);
    QMenu* help = menuBar()->addMenu("&Help");
    help->addAction("&About Diffuscope", this, [this] {
        QMessageBox::about(
            this, "About Diffuscope",
            "<p><b>Diffuscope</b> — an explorer for diffusion processes.</p>"
            "<p>Categorical diffusion with the closed-form reverse kernel of the categorical "
            "diffusion derivation, and Gaussian diffusion with the analytic optimal reverse "
            "variance of Analytic-DPM (Bao et al., ICLR 2022).</p>");
    });
}

}  // namespace ui
