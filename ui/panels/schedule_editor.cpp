// SPDX-License-Identifier: MIT
#include "ui/panels/schedule_editor.h"

#include <QCoreApplication>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>

#include "ui/charts/palette.h"

namespace ui::panels {

using core::schedule::ControlPoint;

namespace {
// Keeps dragged points a hair apart in t so the Hermite curve stays well defined.
constexpr double kMinGap = 1e-3;
}  // namespace

ScheduleCurveEditor::ScheduleCurveEditor(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumHeight(120);
}

void ScheduleCurveEditor::setCurve(const core::schedule::BetaCurve& curve) {
    m_curve = curve;
    update();
}

void ScheduleCurveEditor::setControlPoints(const std::vector<ControlPoint>& points, bool editable) {
    m_points = points;
    m_editable = editable;
    setToolTip(editable ? tr("Drag a point to reshape β(t); double-click to add a point, "
                             "right-click a point to remove it.")
                        : tr("β(t) of the chosen schedule; choose 'custom' to edit it."));
    update();
}

QRectF ScheduleCurveEditor::plotRect() const {
    return QRectF(30, 8, std::max(10, width() - 40), std::max(10, height() - 30));
}

QPointF ScheduleCurveEditor::toScreen(double t, double beta) const {
    const QRectF r = plotRect();
    return {r.left() + t * r.width(), r.bottom() - beta * r.height()};
}

int ScheduleCurveEditor::pointAt(const QPointF& position) const {
    for (size_t i = 0; i < m_points.size(); ++i) {
        const QPointF p = toScreen(m_points[i].t, m_points[i].beta);
        if (QLineF(p, position).length() <= 8.0) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

ControlPoint ScheduleCurveEditor::clampedMove(const std::vector<ControlPoint>& points,
                                              int index,
                                              double t,
                                              double beta) {
    const double tLow = index > 0 ? points[index - 1].t : 0.0;
    const double tHigh = index + 1 < static_cast<int>(points.size()) ? points[index + 1].t : 1.0;
    const double bLow = index > 0 ? points[index - 1].beta : 0.0;
    const double bHigh = index + 1 < static_cast<int>(points.size()) ? points[index + 1].beta : 1.0;
    return {std::clamp(t, tLow + kMinGap, tHigh - kMinGap), std::clamp(beta, bLow, bHigh)};
}

void ScheduleCurveEditor::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), Qt::white);
    const QRectF r = plotRect();
    painter.setPen(QColor(220, 220, 225));
    for (int i = 0; i <= 4; ++i) {
        const double x = r.left() + i / 4.0 * r.width();
        const double y = r.top() + i / 4.0 * r.height();
        painter.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
        painter.drawLine(QPointF(r.left(), y), QPointF(r.right(), y));
    }
    painter.setPen(Qt::darkGray);
    painter.drawText(QRectF(0, r.top() - 6, 26, 14), Qt::AlignRight, "1");
    painter.drawText(QRectF(0, r.bottom() - 8, 26, 14), Qt::AlignRight, "0");
    painter.drawText(QRectF(r.left(), r.bottom() + 2, r.width(), 16), Qt::AlignCenter, "t");
    painter.drawText(QRectF(0, r.center().y() - 8, 26, 16), Qt::AlignRight, "β");
    QPainterPath path;
    const int samples = std::max(64, static_cast<int>(r.width()));
    for (int i = 0; i <= samples; ++i) {
        const double t = static_cast<double>(i) / samples;
        const QPointF p = toScreen(t, m_curve(t));
        i == 0 ? path.moveTo(p) : path.lineTo(p);
    }
    painter.setPen(QPen(charts::palette::kBeta, 2));
    painter.drawPath(path);
    if (m_editable) {
        for (size_t i = 0; i < m_points.size(); ++i) {
            painter.setBrush(static_cast<int>(i) == m_dragging ? charts::palette::kVermillion
                                                               : Qt::white);
            painter.setPen(QPen(charts::palette::kVermillion, 2));
            painter.drawEllipse(toScreen(m_points[i].t, m_points[i].beta), 5, 5);
        }
    }
}

void ScheduleCurveEditor::mousePressEvent(QMouseEvent* event) {
    if (!m_editable) {
        return;
    }
    const int index = pointAt(event->position());
    if (event->button() == Qt::RightButton && index >= 0) {
        m_points.erase(m_points.begin() + index);
        update();
        emit controlPointsEdited(m_points, true);
        return;
    }
    if (event->button() == Qt::LeftButton) {
        m_dragging = index;
    }
}

void ScheduleCurveEditor::mouseMoveEvent(QMouseEvent* event) {
    if (m_dragging < 0) {
        setCursor(m_editable && pointAt(event->position()) >= 0 ? Qt::SizeAllCursor
                                                                : Qt::ArrowCursor);
        return;
    }
    const QRectF r = plotRect();
    const double t = (event->position().x() - r.left()) / r.width();
    const double beta = (r.bottom() - event->position().y()) / r.height();
    m_points[m_dragging] = clampedMove(m_points, m_dragging, t, beta);
    update();
    emit controlPointsEdited(m_points, false);
}

void ScheduleCurveEditor::mouseReleaseEvent(QMouseEvent*) {
    if (m_dragging >= 0) {
        m_dragging = -1;
        update();
        emit controlPointsEdited(m_points, true);
    }
}

void ScheduleCurveEditor::mouseDoubleClickEvent(QMouseEvent* event) {
    if (!m_editable) {
        return;
    }
    const QRectF r = plotRect();
    const double t =
        std::clamp((event->position().x() - r.left()) / r.width(), kMinGap, 1 - kMinGap);
    // Insert at t on the current curve, which is monotone, so the list stays valid.
    ControlPoint point{t, m_curve(t)};
    auto it = std::lower_bound(m_points.begin(), m_points.end(), t,
                               [](const ControlPoint& p, double value) { return p.t < value; });
    if ((it != m_points.end() && it->t - t < kMinGap) ||
        (it != m_points.begin() && t - (it - 1)->t < kMinGap)) {
        return;
    }
    m_points.insert(it, point);
    update();
    emit controlPointsEdited(m_points, true);
}

}  // namespace ui::panels
