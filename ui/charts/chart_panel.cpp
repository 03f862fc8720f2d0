// SPDX-License-Identifier: MIT
#include "ui/charts/chart_panel.h"

#include <QChart>
#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChartView>
#include <QLegend>
#include <QMouseEvent>
#include <QToolTip>

#include <cmath>

namespace ui::charts {

ChartPanel::ChartPanel(const QString& title, QWidget* parent)
    // The view is built around our chart: QChartView() would make a default chart that
    // setChart() later releases without deleting.
    : ViewPanel(title, parent), m_chart(new QChart), m_view(new QChartView(m_chart)) {
    m_chart->setTitle(windowTitle());                   // translated
    m_chart->setAnimationOptions(QChart::NoAnimation);  // frames stream; animation would lag
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    // Line markers in the legend: a dashed series shows its dashes there, not a square.
    m_chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    m_view->setRenderHint(QPainter::Antialiasing);
    // White to the edge, no card with rounded corners on grey: the figure is the whole view.
    m_chart->setBackgroundRoundness(0);
    m_chart->setDropShadowEnabled(false);
    m_view->setBackgroundBrush(Qt::white);
    m_view->setFrameShape(QFrame::NoFrame);
    m_view->setMouseTracking(true);
    m_view->viewport()->installEventFilter(this);
    setBody(m_view);
}

QString ChartPanel::readoutAt(const QPoint& position) const {
    const QPointF scene = m_view->mapToScene(position);
    const QPointF inChart = m_chart->mapFromScene(scene);
    if (!m_chart->plotArea().contains(inChart) || m_chart->series().isEmpty()) {
        return {};
    }
    QAbstractSeries* first = m_chart->series().front();
    const QPointF value = m_chart->mapToValue(inChart, first);
    QString xName, yName;
    for (QAbstractAxis* axis : first->attachedAxes()) {
        (axis->orientation() == Qt::Horizontal ? xName : yName) = axis->titleText();
    }
    auto name = [](const QString& title, const char* fallback) {
        return title.isEmpty() ? QString(fallback) : title.section(' ', 0, 0);
    };
    return QString("%1 = %2,  %3 = %4")
        .arg(name(xName, "x"))
        .arg(value.x(), 0, 'g', 4)
        .arg(name(yName, "y"))
        .arg(value.y(), 0, 'g', 4);
}

bool ChartPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport() && event->type() == QEvent::MouseMove) {
        auto* move = static_cast<QMouseEvent*>(event);
        const QString text = readoutAt(move->position().toPoint());
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(move->globalPosition().toPoint(), text, m_view->viewport());
        }
    }
    return ViewPanel::eventFilter(watched, event);
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
