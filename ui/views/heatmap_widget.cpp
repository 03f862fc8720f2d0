// SPDX-License-Identifier: MIT
#include "ui/views/heatmap_widget.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>

namespace ui::views {

QColor heatColor(double value) {
    // Five stops of matplotlib's viridis, linearly interpolated.
    static const std::array<QColor, 5> kStops = {QColor(68, 1, 84), QColor(59, 82, 139),
                                                 QColor(33, 145, 140), QColor(94, 201, 98),
                                                 QColor(253, 231, 37)};
    if (!std::isfinite(value)) {
        return Qt::gray;
    }
    const double x = std::clamp(value, 0.0, 1.0) * (kStops.size() - 1);
    const int i = std::min(static_cast<int>(x), static_cast<int>(kStops.size()) - 2);
    const double f = x - i;
    const QColor& a = kStops[i];
    const QColor& b = kStops[i + 1];
    return QColor::fromRgbF(static_cast<float>(a.redF() + f * (b.redF() - a.redF())),
                            static_cast<float>(a.greenF() + f * (b.greenF() - a.greenF())),
                            static_cast<float>(a.blueF() + f * (b.blueF() - a.blueF())));
}

QRgb heatRgb(double value) {
    constexpr int kLevels = 1024;
    static const std::array<QRgb, kLevels> kTable = [] {
        std::array<QRgb, kLevels> table{};
        for (int i = 0; i < kLevels; ++i) {
            table[static_cast<size_t>(i)] = heatColor(i / (kLevels - 1.0)).rgb();
        }
        return table;
    }();
    if (!std::isfinite(value)) {
        return QColor(Qt::gray).rgb();
    }
    const int i = static_cast<int>(std::lround(std::clamp(value, 0.0, 1.0) * (kLevels - 1)));
    return kTable[static_cast<size_t>(i)];
}

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void HeatmapWidget::setMatrix(const core::Matrix& matrix, const QString& title, const QString& axes) {
    m_matrix = matrix;
    m_title = title;
    m_axes = axes;
    update();
}

QRectF HeatmapWidget::gridRect() const {
    const double top = 40.0;
    const double left = 34.0;
    const double side = std::max(10.0, std::min(width() - left - 10.0, height() - top - 28.0));
    // Centred in the space left below the titles.
    return {left + (width() - left - 10.0 - side) / 2.0,
            top + std::max(0.0, (height() - top - 28.0 - side) / 2.0), side, side};
}

QPoint HeatmapWidget::cellAt(const QPoint& position) const {
    const QRectF grid = gridRect();
    const int k = static_cast<int>(m_matrix.rows());
    if (k == 0 || !grid.contains(position)) {
        return {-1, -1};
    }
    const int column = static_cast<int>((position.x() - grid.left()) / grid.width() * k);
    const int row = static_cast<int>((position.y() - grid.top()) / grid.height() * k);
    return {std::clamp(column, 0, k - 1), std::clamp(row, 0, k - 1)};
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QRectF grid = gridRect();
    QFont titleFont = font();
    titleFont.setBold(true);
    painter.setFont(titleFont);
    painter.drawText(QRectF(0, grid.top() - 38, width(), 20), Qt::AlignHCenter | Qt::AlignVCenter,
                     m_title);
    painter.setFont(font());
    painter.drawText(QRectF(0, grid.top() - 20, width(), 18), Qt::AlignHCenter | Qt::AlignVCenter,
                     m_axes);
    const int k = static_cast<int>(m_matrix.rows());
    if (k == 0) {
        return;
    }
    const double cell = grid.width() / k;
    const bool showValues = cell >= 34.0;
    for (int r = 0; r < k; ++r) {
        for (int c = 0; c < k; ++c) {
            const QRectF rect(grid.left() + c * cell, grid.top() + r * cell, cell + 0.5, cell + 0.5);
            const double v = m_matrix(r, c);
            const QColor color = heatColor(v);
            painter.fillRect(rect, color);
            if (showValues) {
                // Relative luminance decides the text colour, so it reads on every cell.
                const double luminance =
                    0.2126 * color.redF() + 0.7152 * color.greenF() + 0.0722 * color.blueF();
                painter.setPen(luminance > 0.45 ? Qt::black : Qt::white);
                painter.drawText(rect, Qt::AlignCenter, QString::number(v, 'f', 3));
            }
        }
    }
    // Index labels, thinned so they never overlap.
    painter.setPen(palette().windowText().color());
    const int every = std::max(1, static_cast<int>(std::ceil(14.0 / cell)));
    for (int i = 0; i < k; i += every) {
        painter.drawText(QRectF(grid.left() + i * cell, grid.bottom() + 2, cell * every, 16),
                         Qt::AlignLeft | Qt::AlignTop, QString::number(i));
        painter.drawText(QRectF(grid.left() - 32, grid.top() + i * cell, 28, cell),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(i));
    }
}

bool HeatmapWidget::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) {
        return QWidget::event(event);
    }
    auto* help = static_cast<QHelpEvent*>(event);
    const QPoint cell = cellAt(help->pos());
    if (cell.x() < 0 || !m_tooltip) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(),
                           "<p style='white-space:nowrap'>" + m_tooltip(cell.y(), cell.x()) + "</p>",
                           this);
    }
    return true;
}

ColorBar::ColorBar(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    setMinimumWidth(60);
}

void ColorBar::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRectF bar(8, 40, 18, std::max(20, height() - 70));
    for (int y = 0; y < static_cast<int>(bar.height()); ++y) {
        painter.fillRect(QRectF(bar.left(), bar.bottom() - y - 1, bar.width(), 1.5),
                         heatColor(y / (bar.height() - 1)));
    }
    painter.setPen(palette().windowText().color());
    painter.drawRect(bar);
    for (int i = 0; i <= 4; ++i) {
        const double y = bar.bottom() - i / 4.0 * bar.height();
        painter.drawText(QRectF(bar.right() + 4, y - 8, 40, 16), Qt::AlignLeft | Qt::AlignVCenter,
                         QString::number(i / 4.0, 'f', 2));
    }
}

}  // namespace ui::views
