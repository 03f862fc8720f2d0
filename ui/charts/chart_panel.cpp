// SPDX-License-Identifier: MIT
#include "ui/charts/chart_panel.h"
#include "ui/charts/figure_chart.h"

#include <QChart>
#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLegend>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QToolTip>

#include <cmath>

namespace ui::charts {

ChartPanel::ChartPanel(const QString& title, QWidget* parent)
    // The view is built around our chart: QChartView() would make a default chart that
    // setChart() later releases without deleting.
    : ViewPanel(title, parent), m_figure(new FigureChart(new QChart)), m_chart(m_figure->chart()),
      m_view(m_figure->view()) {
    m_figure->setTitle(windowTitle());  // translated
    applyFigureStyle(m_chart, m_view);
    m_view->setMouseTracking(true);
    m_view->setRubberBand(QChartView::RectangleRubberBand);
    // In the status bar, not a tooltip: the tooltip is the value readout.
    m_view->viewport()->setStatusTip(tr("Drag a rectangle to zoom in, Ctrl+wheel to zoom about the cursor, "
                                      "Shift+drag to pan; double-click to see everything again."));
    m_view->viewport()->installEventFilter(this);
    setBody(m_figure);
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

void ChartPanel::zoomAbout(const QPoint& position, double factor) {
    if (!(factor > 0.0)) return;
    const QPointF centre = m_chart->mapFromScene(m_view->mapToScene(position));
    const QRectF area = m_chart->plotArea();
    if (!area.contains(centre)) return;
    // The rectangle that keeps the point under the cursor where it is.
    const QRectF zoomed(centre.x() - (centre.x() - area.left()) / factor,
                        centre.y() - (centre.y() - area.top()) / factor, area.width() / factor,
                        area.height() / factor);
    m_chart->zoomIn(zoomed);
}

void ChartPanel::panBy(const QPoint& pixels) {
    m_chart->scroll(-pixels.x(), pixels.y());
}

void ChartPanel::zoomReset() { m_chart->zoomReset(); }

bool ChartPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport()) {
        switch (event->type()) {
        case QEvent::MouseButtonPress: {
            auto* press = static_cast<QMouseEvent*>(event);
            if (press->button() == Qt::MiddleButton ||
                (press->button() == Qt::LeftButton && (press->modifiers() & Qt::ShiftModifier))) {
                m_panning = true;
                m_panFrom = press->position().toPoint();
                m_view->viewport()->setCursor(Qt::ClosedHandCursor);
                return true;  // not a rubber band
            }
            break;
        }
        case QEvent::MouseMove:
            if (m_panning) {
                const QPoint now = static_cast<QMouseEvent*>(event)->position().toPoint();
                panBy(now - m_panFrom);
                m_panFrom = now;
                return true;
            }
            break;
        case QEvent::MouseButtonRelease:
            if (m_panning) {
                m_panning = false;
                m_view->viewport()->unsetCursor();
                return true;
            }
            break;
        case QEvent::MouseButtonDblClick:
            zoomReset();
            return true;
        case QEvent::Wheel: {
            auto* wheel = static_cast<QWheelEvent*>(event);
            if (!(wheel->modifiers() & Qt::ControlModifier)) break;
            const int steps = wheel->angleDelta().y() / 120;
            if (steps != 0) zoomAbout(wheel->position().toPoint(), std::pow(1.25, steps));
            return true;
        }
        default:
            break;
        }
    }
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
