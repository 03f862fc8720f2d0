// SPDX-License-Identifier: MIT
#include "ui/views/commit_raster.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "ui/views/heatmap_widget.h"

namespace ui::views {

std::vector<double> meanCommitSteps(const std::vector<double>& commit, int numSteps, int dims) {
    std::vector<double> mean(static_cast<size_t>(std::max(dims, 0)), 1.0);
    if (numSteps < 1 || commit.size() < static_cast<size_t>(numSteps) * static_cast<size_t>(dims)) return mean;
    for (int i = 0; i + 1 < numSteps; ++i) {
        for (int d = 0; d < dims; ++d) mean[static_cast<size_t>(d)] += 1.0 - commit[static_cast<size_t>(i) * dims + d];
    }
    return mean;
}

CommitRaster::CommitRaster(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void CommitRaster::setCommit(std::vector<double> commit, int numSteps, int dims, int side, const QString& caption) {
    m_commit = std::move(commit);
    m_steps = numSteps;
    m_dims = dims;
    m_side = side > 0 && side * side == dims ? side : 0;
    m_meanStep = meanCommitSteps(m_commit, numSteps, dims);
    m_caption = caption;
    m_message.clear();
    updateGeometry();  // the caption's words set the least width
    update();
}

QStringList CommitRaster::texts() const {
    if (m_dims == 0) return {};
    return {m_caption, m_side > 0 ? tr("column") : tr("position"), m_side > 0 ? tr("row") : tr("step taken")};
}

void CommitRaster::clear(const QString& message) {
    m_commit.clear();
    m_meanStep.clear();
    m_steps = m_dims = m_side = 0;
    m_caption.clear();
    m_message = message;
    update();
}

// Wide enough for the axis title under the grid and for the caption's longest word, with
// the margins gridRect() keeps: a narrow layout never cuts a word.
QSize CommitRaster::minimumSizeHint() const {
    const QFontMetrics fm = fontMetrics();
    const int em = fm.height();
    const int title = std::max(fm.horizontalAdvance(tr("position")), fm.horizontalAdvance(tr("column")));
    int word = 0;
    for (const QString& w : m_caption.split(' ', Qt::SkipEmptyParts)) word = std::max(word, fm.horizontalAdvance(w));
    const int digits = fm.horizontalAdvance(QString::number(std::max(m_steps, 10)));
    const int margins = 2 * digits + 4 * em;
    return {std::max({8 * em, title + margins, word + 16}), 8 * em};
}

double CommitRaster::captionHeight() const {
    if (m_caption.isEmpty()) return 0.0;
    const QRect bounds = fontMetrics().boundingRect(QRect(0, 0, std::max(1, width() - 8), 10000),
                                                    Qt::TextWordWrap | Qt::AlignHCenter, m_caption);
    return bounds.height() + 4.0;
}

// Left: the step labels and the vertical axis title; below: the position labels and title;
// right: the colour bar and its labels.
QRectF CommitRaster::gridRect() const {
    const QFontMetrics fm = fontMetrics();
    const double em = fm.height();
    const double left = fm.horizontalAdvance(QString::number(std::max(m_steps, 10))) + 1.6 * em;
    const double right = 0.8 * em + fm.horizontalAdvance(QString::number(std::max(m_steps, 10))) + 0.8 * em;
    const double top = captionHeight() + 0.3 * em;
    const double bottom = 2.3 * em;
    QRectF r(left, top, width() - left - right, height() - top - bottom);
    if (m_side > 0) {  // square pixels
        const double s = std::min(r.width(), r.height());
        r = QRectF(r.left() + (r.width() - s) / 2.0, r.top(), s, s);
    }
    return r.width() > 4 && r.height() > 4 ? r : QRectF();
}

QPoint CommitRaster::cellAt(const QPoint& position) const {
    const QRectF g = gridRect();
    if (m_dims == 0 || g.isEmpty() || !g.contains(position)) return {-1, -1};
    const int rows = m_side > 0 ? m_side : m_steps;
    const int cols = m_side > 0 ? m_side : m_dims;
    const int row = std::clamp(static_cast<int>((position.y() - g.top()) / g.height() * rows), 0, rows - 1);
    const int col = std::clamp(static_cast<int>((position.x() - g.left()) / g.width() * cols), 0, cols - 1);
    return {row, col};
}

void CommitRaster::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);  // a figure: white, as every chart
    painter.setPen(Qt::black);
    if (m_dims == 0) {
        painter.drawText(rect().adjusted(4, 4, -4, -4), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    const QFontMetrics fm = fontMetrics();
    const double em = fm.height();
    painter.drawText(QRectF(4, 2, width() - 8, captionHeight()), Qt::AlignHCenter | Qt::TextWordWrap, m_caption);
    const QRectF g = gridRect();
    if (g.isEmpty()) return;
    const int rows = m_side > 0 ? m_side : m_steps;
    const int cols = m_side > 0 ? m_side : m_dims;
    const double cw = g.width() / cols;
    const double ch = g.height() / rows;
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            double value = 0.0;
            if (m_side > 0) {
                const double mean = m_meanStep[static_cast<size_t>(r * m_side + c)];
                value = m_steps > 1 ? (mean - 1.0) / (m_steps - 1) : 0.0;
            } else {
                value = m_commit[static_cast<size_t>(r) * m_dims + c];
            }
            // Cell edges on whole pixels from the cumulative positions: no hairline gaps.
            const QRectF cell(QPointF(std::floor(g.left() + c * cw), std::floor(g.top() + r * ch)),
                              QPointF(std::floor(g.left() + (c + 1) * cw), std::floor(g.top() + (r + 1) * ch)));
            painter.fillRect(cell, heatColor(value));
        }
    }
    painter.setPen(QPen(Qt::black, 1));
    painter.drawRect(g);
    // Tick labels: the first and last row and column.
    const QString firstRow = "1";
    const QString lastRow = QString::number(rows);
    painter.drawText(QRectF(0, g.top(), g.left() - 0.3 * em, ch).adjusted(0, 0, 0, std::max(0.0, em - ch)),
                     Qt::AlignRight | Qt::AlignTop, firstRow);
    painter.drawText(QRectF(0, g.bottom() - std::max(ch, em), g.left() - 0.3 * em, std::max(ch, em)),
                     Qt::AlignRight | Qt::AlignBottom, lastRow);
    painter.drawText(QRectF(g.left(), g.bottom() + 1, std::max(cw, em), em), Qt::AlignLeft | Qt::AlignTop, "1");
    painter.drawText(QRectF(g.right() - std::max(cw, 2 * em), g.bottom() + 1, std::max(cw, 2 * em), em),
                     Qt::AlignRight | Qt::AlignTop, QString::number(cols));
    painter.drawText(QRectF(g.left(), g.bottom() + 1.1 * em, g.width(), em), Qt::AlignHCenter | Qt::AlignTop,
                     m_side > 0 ? tr("column") : tr("position"));
    painter.save();
    painter.translate(0.2 * em, g.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-g.height() / 2, 0, g.height(), em), Qt::AlignHCenter | Qt::AlignTop,
                     m_side > 0 ? tr("row") : tr("step taken"));
    painter.restore();
    // The colour bar: 0 → 1 (P unmasked), or 1 → N (mean commit step), upwards.
    const QRectF bar(g.right() + 0.4 * em, g.top(), 0.6 * em, g.height());
    const int levels = std::max(2, static_cast<int>(bar.height()));
    for (int i = 0; i < levels; ++i) {
        const double y0 = bar.bottom() - bar.height() * (i + 1) / levels;
        const double y1 = bar.bottom() - bar.height() * i / levels;
        painter.fillRect(QRectF(bar.left(), std::floor(y0), bar.width(), std::ceil(y1) - std::floor(y0)),
                         heatColor((i + 0.5) / levels));
    }
    painter.drawRect(bar);
    const QString low = m_side > 0 ? "1" : "0";
    const QString high = m_side > 0 ? QString::number(m_steps) : "1";
    painter.drawText(QRectF(bar.right() + 0.2 * em, bar.top(), width(), em), Qt::AlignLeft | Qt::AlignTop, high);
    painter.drawText(QRectF(bar.right() + 0.2 * em, bar.bottom() - em, width(), em), Qt::AlignLeft | Qt::AlignBottom,
                     low);
}

bool CommitRaster::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QPoint cell = cellAt(help->pos());
        if (cell.x() < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        QString text;
        if (m_side > 0) {
            text = tr("pixel (row %1, column %2): committed at step %3 of %4 on average")
                       .arg(cell.x() + 1)
                       .arg(cell.y() + 1)
                       .arg(m_meanStep[static_cast<size_t>(cell.x() * m_side + cell.y())], 0, 'f', 2)
                       .arg(m_steps);
        } else {
            text = tr("position %1 after step %2 of %3: unmasked with probability %4")
                       .arg(cell.y() + 1)
                       .arg(cell.x() + 1)
                       .arg(m_steps)
                       .arg(m_commit[static_cast<size_t>(cell.x()) * m_dims + cell.y()], 0, 'f', 4);
        }
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace ui::views
