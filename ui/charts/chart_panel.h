// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QPointF>
#include <vector>

#include "ui/charts/view_panel.h"

class QChart;
class QChartView;

namespace ui::charts {
class FigureChart;
}

// A view that is one Qt chart: owns the QChartView with antialiasing and chart
// animations off. Concrete charts create series and axes once and refresh them with replace().
namespace ui::charts {

class ChartPanel : public ViewPanel {
    Q_OBJECT
public:
    explicit ChartPanel(const QString& title, QWidget* parent = nullptr);

    QChart* chart() const { return m_chart; }
    QChartView* chartView() const { return m_view; }
    // The chart with its title and legend (figure_chart.h).
    FigureChart* figure() const { return m_figure; }
    // The readout, zoom and pan of the figure (FigureChart's).
    QString readoutAt(const QPoint& position) const;
    void zoomAbout(const QPoint& position, double factor);  // factor > 1 zooms in
    void panBy(const QPoint& pixels);                       // the content follows the pointer
    void zoomReset();

private:
    FigureChart* m_figure;
    QChart* m_chart;
    QChartView* m_view;
};

// The figure style of every chart: white to the edge with no card or shadow, no animation
// (frames stream), the legend below with line markers (dashes show), antialiased. ChartPanel
// applies it; views with charts of their own call it for each.
void applyFigureStyle(QChart* chart, QChartView* view);

// (x[i], y[i]) points, skipping non-finite values (nothing NaN is ever plotted).
QList<QPointF> toPoints(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace ui::charts
