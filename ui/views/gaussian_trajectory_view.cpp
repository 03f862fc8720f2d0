// SPDX-License-Identifier: MIT
#include "ui/views/gaussian_trajectory_view.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

#include "ui/views/heatmap_widget.h"

namespace ui::views {

class TrajectoryCanvas : public QWidget {
public:
    explicit TrajectoryCanvas(GaussianTrajectoryView* view) : QWidget(view), m_view(view) {
        setMinimumSize(300, 300);
    }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    GaussianTrajectoryView* m_view;
};

void TrajectoryCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    const int n = m_view->m_numSteps;
    if (n == 0) {
        painter.setPen(Qt::gray);
        painter.drawText(rect(), Qt::AlignCenter, "Estimating Γ…");
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    const double left = 170.0;
    const double right = width() - 20.0;
    auto xOf = [&](double step) { return left + (step - 1.0) / std::max(1, n - 1) * (right - left); };
    // Tick rows.
    const auto& rows = m_view->m_rows;
    struct Row {
        const char* label;
        const std::vector<int>* steps;
        double cost;
        QColor colour;
    };
    const Row tickRows[] = {{"DP-optimal", &rows.dp, rows.costDp, QColor("#d62728")},
                            {"even", &rows.even, rows.costEven, QColor("#1f77b4")},
                            {"quadratic", &rows.quadratic, rows.costQuadratic, QColor("#2ca02c")}};
    double y = 14.0;
    for (const Row& row : tickRows) {
        painter.setPen(Qt::black);
        painter.drawText(QRectF(4, y - 2, left - 10, 18), Qt::AlignRight | Qt::AlignVCenter,
                         QString("%1  ΣJ %2").arg(row.label).arg(row.cost, 0, 'f', 3));
        painter.setPen(QPen(QColor(200, 200, 205), 1));
        painter.drawLine(QPointF(left, y + 7), QPointF(right, y + 7));
        painter.setPen(QPen(row.colour, 2));
        for (int step : *row.steps) {
            painter.drawLine(QPointF(xOf(step), y), QPointF(xOf(step), y + 14));
        }
        y += 24.0;
    }
    // Heatmap of J(s, t): s down, t across, with the DP path.
    const double top = y + 16.0;
    const double side = std::max(50.0, std::min(right - left, height() - top - 26.0));
    const QRectF map(left, top, side, side);
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(map, m_view->m_heatmap);
    painter.setPen(QColor(150, 150, 155));
    painter.drawRect(map);
    painter.setPen(Qt::black);
    painter.drawText(QRectF(map.left(), map.bottom() + 4, map.width(), 16), Qt::AlignCenter,
                     "t →   (log J(s, t); white: s ≥ t)");
    painter.save();
    painter.translate(map.left() - 8, map.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-map.height() / 2, -16, map.height(), 16), Qt::AlignCenter, "← s");
    painter.restore();
    if (rows.dp.size() >= 2) {
        QPainterPath path;
        for (size_t k = 1; k < rows.dp.size(); ++k) {
            const QPointF point(map.left() + (rows.dp[k] - 1.0) / n * side,
                                map.top() + (rows.dp[k - 1] - 1.0) / n * side);
            k == 1 ? path.moveTo(point) : path.lineTo(point);
        }
        painter.setPen(QPen(Qt::white, 4));
        painter.drawPath(path);
        painter.setPen(QPen(QColor("#d62728"), 2));
        painter.drawPath(path);
    }
}

GaussianTrajectoryView::GaussianTrajectoryView(QWidget* parent)
    : ViewPanel("Trajectory", parent), m_canvas(new TrajectoryCanvas(this)) {
    setBody(m_canvas);
    setToolTip("The DP picks the K timesteps whose summed cost ΣJ (the KL up to constants, "
               "MATH.md B.5) is least; each step (s, t) of the path is a cell of the matrix.");
}

void GaussianTrajectoryView::setTrajectories(const core::Matrix& cost, const Rows& rows) {
    m_rows = rows;
    m_numSteps = static_cast<int>(cost.rows());
    // Downsample to at most 512 pixels a side: each pixel shows the cell at its centre.
    const int pixels = std::min(512, m_numSteps);
    m_heatmap = QImage(pixels, pixels, QImage::Format_RGB32);
    m_heatmap.fill(Qt::white);
    double low = 1e300, high = -1e300;
    std::vector<double> logs(static_cast<size_t>(pixels) * pixels, std::nan(""));
    for (int r = 0; r < pixels; ++r) {
        for (int c = 0; c < pixels; ++c) {
            const int s = static_cast<int>((r + 0.5) * m_numSteps / pixels);
            const int t = static_cast<int>((c + 0.5) * m_numSteps / pixels);
            const double j = s < t ? cost(s, t) : std::nan("");
            if (std::isfinite(j) && j > 0) {
                const double v = std::log10(j);
                logs[static_cast<size_t>(r) * pixels + c] = v;
                low = std::min(low, v);
                high = std::max(high, v);
            }
        }
    }
    for (int r = 0; r < pixels; ++r) {
        for (int c = 0; c < pixels; ++c) {
            const double v = logs[static_cast<size_t>(r) * pixels + c];
            if (std::isfinite(v)) {
                m_heatmap.setPixelColor(c, r, heatColor((v - low) / std::max(1e-12, high - low)));
            }
        }
    }
    std::vector<double> kind, step;
    for (auto [id, steps] : {std::pair{0, &rows.dp}, std::pair{1, &rows.even}, std::pair{2, &rows.quadratic}}) {
        for (int n : *steps) {
            kind.push_back(id);
            step.push_back(n);
        }
    }
    setData({{"trajectory (0 dp, 1 even, 2 quadratic)", "timestep"}, {kind, step}});
    setMessage(QString("ΣJ along each path, the KL up to constants (MATH.md B.5): DP %1, even %2, "
                       "quadratic %3.")
                   .arg(rows.costDp, 0, 'f', 4)
                   .arg(rows.costEven, 0, 'f', 4)
                   .arg(rows.costQuadratic, 0, 'f', 4));
    m_canvas->update();
}

}  // namespace ui::views
