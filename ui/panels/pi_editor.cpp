// SPDX-License-Identifier: MIT
#include "ui/panels/pi_editor.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

#include "ui/charts/palette.h"

namespace ui::panels {

ProbabilityBars::ProbabilityBars(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setCursor(Qt::SizeVerCursor);
    setToolTip(tr("Drag a bar to change its probability; the others rescale to keep the sum 1."));
}

void ProbabilityBars::setValues(const std::vector<double>& values) {
    m_values = values;
    update();
}

std::vector<double> ProbabilityBars::withEntry(const std::vector<double>& values,
                                               int k,
                                               double value) {
    std::vector<double> out = values;
    value = std::clamp(value, 0.0, 1.0);
    double others = 0.0;
    for (size_t i = 0; i < out.size(); ++i) {
        if (static_cast<int>(i) != k) {
            others += out[i];
        }
    }
    for (size_t i = 0; i < out.size(); ++i) {
        if (static_cast<int>(i) == k) {
            out[i] = value;
        } else if (others > 0.0) {
            out[i] *= (1.0 - value) / others;
        } else {
            out[i] = (1.0 - value) / static_cast<double>(out.size() - 1);
        }
    }
    return out;
}

int ProbabilityBars::barAt(double x) const {
    if (m_values.empty()) {
        return -1;
    }
    const double w = static_cast<double>(width()) / m_values.size();
    return std::clamp(static_cast<int>(x / w), 0, static_cast<int>(m_values.size()) - 1);
}

double ProbabilityBars::valueAt(double y) const {
    const double h = height() - 16.0;
    return std::clamp((height() - 14.0 - y) / h, 0.0, 1.0);
}

void ProbabilityBars::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), QColor(250, 250, 252));
    if (m_values.empty()) {
        return;
    }
    const double w = static_cast<double>(width()) / m_values.size();
    const double h = height() - 16.0;
    for (size_t i = 0; i < m_values.size(); ++i) {
        const double v = m_values[i];
        const QRectF bar(i * w + 1, height() - 14.0 - v * h, std::max(1.0, w - 2), v * h);
        painter.fillRect(bar, static_cast<int>(i) == m_dragging ? charts::palette::kVermillion
                                                                : charts::palette::kBlue);
        if (w >= 18) {
            painter.setPen(Qt::darkGray);
            painter.drawText(QRectF(i * w, height() - 14.0, w, 14), Qt::AlignCenter,
                             QString::number(i));
        }
    }
}

void ProbabilityBars::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || m_values.size() < 2) {
        return;
    }
    m_dragging = barAt(event->position().x());
    mouseMoveEvent(event);
}

void ProbabilityBars::mouseMoveEvent(QMouseEvent* event) {
    const int k = barAt(event->position().x());
    if (m_dragging < 0) {
        if (k >= 0) {
            QToolTip::showText(event->globalPosition().toPoint(),
                               QString("π[%1] = %2").arg(k).arg(m_values[k], 0, 'g', 6), this);
        }
        return;
    }
    m_values = withEntry(m_values, m_dragging, valueAt(event->position().y()));
    update();
    emit valuesEdited(m_values, false);
}

void ProbabilityBars::mouseReleaseEvent(QMouseEvent*) {
    if (m_dragging >= 0) {
        m_dragging = -1;
        update();
        emit valuesEdited(m_values, true);
    }
}

}  // namespace ui::panels
