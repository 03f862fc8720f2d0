// SPDX-License-Identifier: MIT
#pragma once

class QChart;
class QWidget;

// Presentation mode's scaling of the charts: every Qt chart below `root` gets its fonts, line
// widths and markers `scale` times their normal size (1 restores them). Charts remember their
// normal size, so the call can be repeated with any scale.
namespace ui::charts {

void setChartsScale(QWidget* root, double scale);
// One chart; and the scale it has now (1 when never scaled).
void setChartScale(QChart* chart, double scale);
double chartScale(const QChart* chart);

}  // namespace ui::charts
