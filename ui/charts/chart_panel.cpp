// SPDX-License-Identifier: MIT
#include "ui/charts/chart_panel.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLegend>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

#include "ui/charts/figure_chart.h"

namespace ui::charts {

ChartPanel::ChartPanel(const QString& title, QWidget* parent)
    // The view is built around our chart: QChartView() would make a default chart that
    // setChart() later releases without deleting.
    : ViewPanel(title, parent),
      m_figure(new FigureChart(new QChart)),
      m_chart(m_figure->chart()),
      m_view(m_figure->view()) {
    m_figure->setTitle(windowTitle());  // translated
    applyFigureStyle(m_chart, m_view);
    setBody(m_figure);
}

QString ChartPanel::readoutAt(const QPoint& position) const {
    return m_figure->readoutAt(position);
}

void ChartPanel::zoomAbout(const QPoint& position, double factor) {
    m_figure->zoomAbout(position, factor);
}

void ChartPanel::panBy(const QPoint& pixels) { m_figure->panBy(pixels); }

void ChartPanel::zoomReset() { m_figure->zoomReset(); }

void applyFigureStyle(QChart* chart, QChartView* view) {
    chart->setAnimationOptions(QChart::NoAnimation);  // frames stream; animation would lag
    chart->legend()->setAlignment(Qt::AlignBottom);
    // Line markers in the legend: a dashed series shows its dashes there, not a square.
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    view->setRenderHint(QPainter::Antialiasing);
    // White to the edge, no card with rounded corners on grey: the figure is the whole view.
    chart->setBackgroundRoundness(0);
    // The figure's own margins are small: a column figure has no room to waste.
    chart->setMargins(QMargins(2, 2, 2, 2));
    if (chart->layout() != nullptr) chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setDropShadowEnabled(false);
    view->setBackgroundBrush(Qt::white);
    view->setFrameShape(QFrame::NoFrame);
}

QList<QPointF> toPoints(const std::vector<double>& x, const std::vector<double>& y) {
    QList<QPointF> points;
    const size_t n = std::min(x.size(), y.size());
    points.reserve(static_cast<qsizetype>(n));
    for (size_t i = 0; i < n; ++i) {
        if (std::isfinite(x[i]) && std::isfinite(y[i])) {
            points.append(QPointF(x[i], y[i]));
        }
    }
    return points;
}

}  // namespace ui::charts
