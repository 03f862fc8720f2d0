// SPDX-License-Identifier: MIT
#include "ui/charts/chart_panel.h"

#include <QChart>
#include <QChartView>

#include <cmath>

namespace ui::charts {

ChartPanel::ChartPanel(const QString& title, QWidget* parent)
    // The view is built around our chart: QChartView() would make a default chart that
    // setChart() later releases without deleting.
    : ViewPanel(title, parent), m_chart(new QChart), m_view(new QChartView(m_chart)) {
    m_chart->setTitle(title);
    m_chart->setAnimationOptions(QChart::NoAnimation);  // frames stream; animation would lag
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_view->setRenderHint(QPainter::Antialiasing);
    setBody(m_view);
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
