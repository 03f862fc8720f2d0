// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>
#include <functional>

#include "core/util/eigen_types.h"

// A K×K matrix drawn as coloured cells (0 → dark, 1 → bright, a perceptual map) with row and
// column indices; hovering a cell shows a tooltip from a provider (value and formula).
namespace ui::views {

// The colour of a value in [0, 1] on a viridis-like map (clamped).
QColor heatColor(double value);
// The same from a table of 1024 levels, for images of many pixels (a QColor per pixel made the
// trajectory view's 512×512 heatmap take 40 ms on the GUI thread).
QRgb heatRgb(double value);

class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    using TooltipProvider = std::function<QString(int row, int column)>;

    explicit HeatmapWidget(QWidget* parent = nullptr);

    void setMatrix(const core::Matrix& matrix, const QString& title, const QString& axes);
    void setTooltipProvider(TooltipProvider provider) { m_tooltip = std::move(provider); }
    const core::Matrix& matrix() const { return m_matrix; }
    // The cell under a widget position, or (−1, −1).
    QPoint cellAt(const QPoint& position) const;

    QSize sizeHint() const override { return {320, 340}; }
    // The titles wrapped to a narrow width and a grid of about four lines of text a side.
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    // Tooltip events carry the cell formula; handled here so the panel's own tooltip does not
    // replace it.
    bool event(QEvent* event) override;

private:
    // The titles' heights at the current width; the grid below them, square, centred.
    double titleHeight() const;
    double axesHeight() const;
    // The titles' band above the grid: six lines, or more where the titles wrap further, so
    // that heatmaps side by side keep their grids level.
    double bandHeight() const;
    QRectF gridRect() const;

    core::Matrix m_matrix;
    QString m_title;
    QString m_axes;
    TooltipProvider m_tooltip;
};

// A vertical colour bar for values 0..1.
class ColorBar : public QWidget {
    Q_OBJECT
public:
    explicit ColorBar(QWidget* parent = nullptr);
    QSize sizeHint() const override { return {minimumSizeHint().width(), 300}; }
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

}  // namespace ui::views
