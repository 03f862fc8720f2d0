// SPDX-License-Identifier: MIT
#pragma once

class QWidget;

// Presentation mode's scaling of the charts: every Qt chart below `root` gets its fonts, line
// widths and markers `scale` times their normal size (1 restores them). Charts remember their
// normal size, so the call can be repeated with any scale.
namespace ui::charts {

void setChartsScale(QWidget* root, double scale);

}  // namespace ui::charts
