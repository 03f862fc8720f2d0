// SPDX-License-Identifier: MIT
#include "ui/views/heatmap_widget.h"

#include <QFontMetricsF>
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

void HeatmapWidget::setMatrix(const core::Matrix& matrix,
                              const QString& title,
                              const QString& axes) {
    m_matrix = matrix;
    m_title = title;
    m_axes = axes;
    update();
}

// Lengths follow the font (exports and presentation mode scale it); the titles wrap at spaces
// so that three heatmaps side by side never write into each other.
namespace {
QFont boldOf(QFont font) {
    font.setBold(true);
    return font;
}
double wrappedHeight(const QFont& font, const QString& text, double width) {
    if (text.isEmpty()) return 0.0;
    return QFontMetricsF(font)
        .boundingRect(QRectF(0, 0, std::max(1.0, width), 1e6), Qt::TextWordWrap | Qt::AlignHCenter,
                      text)
        .height();
}
}  // namespace

double HeatmapWidget::titleHeight() const {
    return wrappedHeight(boldOf(font()), m_title, width() - 4.0);
}

double HeatmapWidget::axesHeight() const { return wrappedHeight(font(), m_axes, width() - 4.0); }

double HeatmapWidget::bandHeight() const {
    const double em = QFontMetricsF(font()).height();
    return std::max(titleHeight() + axesHeight(), 6.0 * em) + 0.4 * em;
}

QSize HeatmapWidget::minimumSizeHint() const {
    const QFontMetricsF metrics(font());
    const double em = metrics.height();
    const double left = metrics.horizontalAdvance("000") + 0.6 * em;
    const double side = 4.0 * em;
    // At the minimum width the titles wrap to a few lines; allow three for each.
    return {static_cast<int>(std::ceil(left + side + 0.5 * em)),
            static_cast<int>(std::ceil(6.0 * em + side + 1.4 * em))};
}

QRectF HeatmapWidget::gridRect() const {
    const QFontMetricsF metrics(font());
    const double em = metrics.height();
    const double band = bandHeight();
    const double left =
        metrics.horizontalAdvance(QString::number(std::max<Eigen::Index>(1, m_matrix.rows() - 1))) +
        0.6 * em;
    const double right = 0.5 * em;
    const double bottom = 1.4 * em;
    const double side = std::max(10.0, std::min(width() - left - right, height() - band - bottom));
    // Titles and grid centred as one block, across and down: no gap between a title and its
    // grid, and heatmaps side by side (the same band and size) stay level.
    const double blockTop = std::max(0.0, (height() - band - side - bottom) / 2.0);
    return {left + (width() - left - right - side) / 2.0, blockTop + band, side, side};
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
    painter.fillRect(rect(), Qt::white);  // a figure: white, as every chart
    painter.setRenderHint(QPainter::Antialiasing, false);
    const QRectF grid = gridRect();
    const QFontMetricsF metrics(font());
    const double em = metrics.height();
    // The title and the axes' line sit just above the grid, whatever room the band leaves
    // above them (at least six lines, so that heatmaps side by side stay level): at the top of
    // the band, short titles floated a few lines above their grids.
    const double titleBottom = grid.top() - 0.4 * em - axesHeight();
    const double titleTop = titleBottom - titleHeight();
    painter.setPen(Qt::black);
    painter.setFont(boldOf(font()));
    painter.drawText(QRectF(2, titleTop, width() - 4.0, titleHeight()),
                     Qt::TextWordWrap | Qt::AlignHCenter | Qt::AlignTop, m_title);
    painter.setFont(font());
    painter.drawText(QRectF(2, titleBottom, width() - 4.0, axesHeight()),
                     Qt::TextWordWrap | Qt::AlignHCenter | Qt::AlignTop, m_axes);
    const int k = static_cast<int>(m_matrix.rows());
    if (k == 0) {
        return;
    }
    const double cell = grid.width() / k;
    const bool showValues = cell >= metrics.horizontalAdvance("0.000") + 0.4 * em;
    for (int r = 0; r < k; ++r) {
        for (int c = 0; c < k; ++c) {
            const QRectF rect(grid.left() + c * cell, grid.top() + r * cell, cell + 0.5,
                              cell + 0.5);
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
    // Index labels centred on their cells, thinned so they never overlap.
    painter.setPen(Qt::black);
    const double labelWidth = metrics.horizontalAdvance(QString::number(k - 1)) + 0.5 * em;
    const int every = std::max(1, static_cast<int>(std::ceil(std::max(labelWidth, em) / cell)));
    for (int i = 0; i < k; i += every) {
        painter.drawText(
            QRectF(grid.left() + i * cell - em, grid.bottom() + 2, cell + 2 * em, 1.2 * em),
            Qt::AlignHCenter | Qt::AlignTop, QString::number(i));
        painter.drawText(QRectF(0, grid.top() + i * cell, grid.left() - 0.3 * em, cell),
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
        QToolTip::showText(
            help->globalPos(),
            "<p style='white-space:nowrap'>" + m_tooltip(cell.y(), cell.x()) + "</p>", this);
    }
    return true;
}

ColorBar::ColorBar(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
}

QSize ColorBar::minimumSizeHint() const {
    const QFontMetricsF metrics(font());
    return {static_cast<int>(
                std::ceil(6 + 14 + 4 + metrics.horizontalAdvance("0.00") + 0.3 * metrics.height())),
            static_cast<int>(std::ceil(6.0 * metrics.height()))};
}

void ColorBar::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    const double em = QFontMetricsF(font()).height();
    const QRectF bar(6, 2.5 * em, 14, std::max(20.0, height() - 4.0 * em));
    for (int y = 0; y < static_cast<int>(bar.height()); ++y) {
        painter.fillRect(QRectF(bar.left(), bar.bottom() - y - 1, bar.width(), 1.5),
                         heatColor(y / (bar.height() - 1)));
    }
    painter.setPen(Qt::black);
    painter.drawRect(bar);
    for (int i = 0; i <= 4; ++i) {
        const double y = bar.bottom() - i / 4.0 * bar.height();
        painter.drawText(QRectF(bar.right() + 4, y - 0.6 * em, width() - bar.right() - 4, 1.2 * em),
                         Qt::AlignLeft | Qt::AlignVCenter, QString::number(i / 4.0, 'f', 2));
    }
}

}  // namespace ui::views
