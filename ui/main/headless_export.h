// SPDX-License-Identifier: MIT
#pragma once

#include <QSize>
#include <QString>

// `diffuscope export`: renders a view of a project without showing a window, with the same code
// as the GUI's export. The command line is read by the CLI's parser against export's table of
// options (app/cli/cmd_export.cpp), which holds the defaults. Needs a QApplication (the
// offscreen platform works).
namespace ui {

struct HeadlessExportRequest {
    // trajectories, schedule, step-costs, matrices, kernels, gamma, variance,
    // gaussian-trajectory, animation (the Trajectories chains) or particles-animation (GIF or a
    // PNG frame sequence), or all (`out` is then a folder).
    QString view;
    QString out;
    QString project;  // a project file; empty: none
    QString example;  // File ▸ Examples' entry, numbered from 1; empty: none (neither: the example
                      // project)
    QSize size;        // CSS pixels, 96 to the inch
    QSizeF typedSize;  // the same before rounding (an SVG states it); invalid: size
    int dpi = 96;
    double fontScale = 1.0;    // charts::ExportOptions::fontScale
    int fps = 25;              // animations: frames per second
    double holdSeconds = 1.5;  // animations: how long the last frame stays
};

// Returns the exit code.
int runHeadlessExport(const HeadlessExportRequest& request);

}  // namespace ui
