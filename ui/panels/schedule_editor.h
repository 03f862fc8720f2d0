// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>
#include <vector>

#include "core/schedule/beta_curve.h"

// The β(t) curve with draggable control points. The curve redraws
// live; for a custom schedule the inner control points can be dragged (kept monotone: a point
// stays between its neighbours in t and in β), added by double-click and removed by
// right-click. (0, 0) and (1, 1) are fixed.
namespace ui::panels {

class ScheduleCurveEditor : public QWidget {
    Q_OBJECT
public:
    explicit ScheduleCurveEditor(QWidget* parent = nullptr);

    void setCurve(const core::schedule::BetaCurve& curve);
    // Inner control points (empty unless editable).
    void setControlPoints(const std::vector<core::schedule::ControlPoint>& points, bool editable);

    QSize sizeHint() const override { return {260, 170}; }

    // The position of `point` moved to (t, β), clamped between its neighbours so the list stays
    // strictly increasing in t and nondecreasing in β.
    static core::schedule::ControlPoint clampedMove(
        const std::vector<core::schedule::ControlPoint>& points, int index, double t, double beta);

signals:
    void controlPointsEdited(const std::vector<core::schedule::ControlPoint>& points,
                             bool finished);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    QRectF plotRect() const;
    QPointF toScreen(double t, double beta) const;
    int pointAt(const QPointF& position) const;

    core::schedule::BetaCurve m_curve;
    std::vector<core::schedule::ControlPoint> m_points;
    bool m_editable = false;
    int m_dragging = -1;
};

}  // namespace ui::panels
