// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>
#include <vector>

// Bars of a probability vector that can be dragged. Dragging bar k sets
// its value and rescales the other entries so the vector still sums to 1.
namespace ui::panels {

class ProbabilityBars : public QWidget {
    Q_OBJECT
public:
    explicit ProbabilityBars(QWidget* parent = nullptr);

    void setValues(const std::vector<double>& values);
    const std::vector<double>& values() const { return m_values; }

    QSize sizeHint() const override { return {260, 90}; }
    QSize minimumSizeHint() const override { return {120, 60}; }

    // The vector after setting entry k to `value` (clamped to [0, 1]) and scaling the others to
    // fill 1 − value (spread evenly when they were all 0).
    static std::vector<double> withEntry(const std::vector<double>& values, int k, double value);

signals:
    // A drag step; `finished` is true on release (the end of one undo step).
    void valuesEdited(const std::vector<double>& values, bool finished);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    int barAt(double x) const;
    double valueAt(double y) const;

    std::vector<double> m_values;
    int m_dragging = -1;
};

}  // namespace ui::panels
