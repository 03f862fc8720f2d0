// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

// `diffuscope export --project FILE --view NAME --out FILE [--width W --height H --dpi D]`:
// renders a view of a project without showing a window, with the same code as the GUI's
// export. NAME is trajectories, schedule, step-costs, matrices, kernels, gamma, variance,
// gaussian-trajectory, animation (GIF or a PNG frame sequence) or all (--out is then a
// folder). Without --project the example project is used. Needs a QApplication (the offscreen platform works). Returns the exit code.
namespace ui {

int runHeadlessExport(const QStringList& arguments);

}  // namespace ui
