// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QWidget>
#include <vector>

#include "core/data/gaussian_data.h"

// A 2-D Gaussian mixture (`mixture:` data spec) edited on the plane [−3, 3]²: the density shaded
// beneath, each component a circle of radius s (and 2s, faint) with a handle at its mean. Drag
// the handle to move the mean, the rim (or the wheel over the circle) to change s, Ctrl+drag
// (or Ctrl+wheel) to change the weight; double-click empty space to add a component, right-click
// it or press Delete to remove the selected one (never the last). The editor never holds an
// invalid mixture: means stay on the plane, s and the weight within their ranges.
namespace ui::panels {

class MixtureEditor : public QWidget {
    Q_OBJECT
public:
    static constexpr double kExtent = 3.0;      // the plane is [−kExtent, kExtent]²
    static constexpr double kMinStddev = 0.02;  // s range on the plane
    static constexpr double kMaxStddev = 3.0;
    static constexpr double kMinWeight = 0.01;  // relative weights (the mixture normalises)
    static constexpr double kMaxWeight = 100.0;

    explicit MixtureEditor(QWidget* parent = nullptr);

    // Shows the document's components; a drag in progress keeps its handle.
    void setComponents(const std::vector<core::data::MixtureComponent2d>& components);
    const std::vector<core::data::MixtureComponent2d>& components() const { return m_components; }
    int selected() const { return m_selected; }

    // Plane ↔ widget coordinates (y points up on the plane).
    QPointF toWidget(double x, double y) const;
    QPointF toPlane(const QPointF& position) const;
    // What the tooltip says at a widget position: the component's numbers, or how to edit.
    QString toolTipAt(const QPointF& position) const;

    QSize sizeHint() const override { return {280, 280}; }
    QSize minimumSizeHint() const override { return {160, 160}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return width; }

signals:
    // A step of a drag; `finished` is true on release, the end of one undo step.
    void specDragged(const QString& spec, const QString& text, bool finished);
    // A one-off edit (add, remove, wheel): one undo step.
    void specEdited(const QString& spec, const QString& text);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    enum class Part { None, Centre, Rim, Inside };
    enum class Drag { None, Move, Resize, Weight };
    struct Hit {
        int component = -1;
        Part part = Part::None;
    };

    QRectF plane() const;
    double pixelsPerUnit() const;
    Hit hitTest(const QPointF& position) const;
    QString spec() const;
    void updateDensity();
    void removeComponent(int k);

    std::vector<core::data::MixtureComponent2d> m_components;
    int m_selected = -1;
    Drag m_drag = Drag::None;
    int m_dragComponent = -1;
    bool m_dragMoved = false;
    QPointF m_pressPlane;                             // where the drag started, on the plane
    QPointF m_pressPosition;                          // ... and in the widget
    core::data::MixtureComponent2d m_pressComponent;  // the component when the drag started
    QImage m_density;                                 // the shaded density, drawn scaled
};

}  // namespace ui::panels
