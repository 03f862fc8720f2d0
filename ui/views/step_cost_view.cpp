// SPDX-License-Identifier: MIT
#include "ui/views/step_cost_view.h"

#include <QChart>
#include <QCoreApplication>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStringList>
#include <QValueAxis>
#include <cmath>

#include "ui/charts/figure_chart.h"
#include "ui/charts/palette.h"

namespace ui::views {

StepCostView::StepCostView(QWidget* parent)
    : ChartPanel(QT_TRANSLATE_NOOP("ui::views", "Step costs and ELBO"), parent),
      m_costs(new QLineSeries),
      m_dp(new QScatterSeries),
      m_even(new QScatterSeries),
      m_axisT(new QValueAxis),
      m_axisCost(new QValueAxis) {
    m_costs->setName(tr("J(n − 1, n) [nats]"));
    m_costs->setPen(QPen(QColor(70, 70, 75), 2));
    m_dp->setName(tr("DP path nodes"));
    m_dp->setColor(charts::palette::kDp);
    m_dp->setMarkerSize(10);
    m_even->setName(tr("even path nodes"));
    m_even->setColor(charts::palette::kEven);
    m_even->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_even->setMarkerSize(7);
    m_axisT->setTitleText("t");
    charts::setAxisRange(m_axisT, 0.0, 1.0);
    m_axisCost->setTitleText(tr("nats"));
    chart()->addAxis(m_axisT, Qt::AlignBottom);
    chart()->addAxis(m_axisCost, Qt::AlignLeft);
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_costs, m_even, m_dp}) {
        chart()->addSeries(s);
        s->attachAxis(m_axisT);
        s->attachAxis(m_axisCost);
    }
    setToolTip(
        tr("The KL cost of each grid step; the DP picks the path of the chosen number of steps of "
           "least total cost "
           "(the negative ELBO)."));
}

void StepCostView::clear(const QString& reason) {
    m_costs->clear();
    m_dp->clear();
    m_even->clear();
    setData({});
    setMessage(reason);
}

namespace {

// With an absorbing π: the continuous-time negative ELBO and the N-step ones approaching it
// (docs/categorical.md#masked-diffusion), or why there is none; empty otherwise.
QString maskedLine(const core::project::CategoricalCosts& costs) {
    if (!costs.continuousElbo) {
        return costs.maskedNote.empty()
                   ? QString()
                   : QCoreApplication::translate("ui::views::StepCostView",
                                                 "\nMasked diffusion: no continuous-time ELBO (%1)")
                         .arg(QString::fromStdString(costs.maskedNote));
    }
    QString line = QCoreApplication::translate(
                       "ui::views::StepCostView",
                       "\nMasked diffusion: continuous-time negative ELBO (N → ∞) %1 nats")
                       .arg(costs.continuousElbo->value, 0, 'f', 6);
    if (!costs.elboByN.empty()) {
        QStringList steps;
        for (const auto& [n, elbo] : costs.elboByN) {
            steps << QString("N = %1: %2").arg(n).arg(elbo, 0, 'f', 6);
        }
        line += QCoreApplication::translate("ui::views::StepCostView", " · N-step: ") +
                steps.join(" · ");
    }
    return line;
}

}  // namespace

void StepCostView::setCosts(std::shared_ptr<const core::project::CategoricalCosts> costs,
                            const std::vector<double>& gridTimes) {
    if (!costs) {
        return;
    }
    const int n = static_cast<int>(gridTimes.size()) - 1;
    std::vector<double> t, j;
    double top = 0.0;
    for (int b = 1; b <= n; ++b) {
        t.push_back(gridTimes[b]);
        j.push_back(costs->costs.cost(b - 1, b));
        top = std::max(top, j.back());
    }
    m_costs->replace(charts::toPoints(t, j));
    // Markers sit on the curve at the node's step cost (node 0 has none: draw it at 0).
    auto markers = [&](const std::vector<int>& nodes) {
        QList<QPointF> points;
        for (int node : nodes) {
            points.append(
                QPointF(gridTimes[node], node == 0 ? 0.0 : costs->costs.cost(node - 1, node)));
        }
        return points;
    };
    m_dp->replace(costs->dpAvailable ? markers(costs->dpNodes) : QList<QPointF>{});
    m_dp->setVisible(costs->dpAvailable);  // no DP: nor its entry in the legend
    m_even->replace(markers(costs->evenNodes));
    charts::setNiceRange(m_axisCost, 0.0, std::max(1e-6, top * 1.1));
    setData({{"t", "step_cost_nats"}, {t, j}});
    const int k = static_cast<int>(costs->dpNodes.size()) - 1;
    if (!costs->dpAvailable) {
        setMessage(tr("Monte Carlo estimates (the positions' joint states are too many to "
                      "enumerate). Negative ELBO of all %1 steps: %2 nats. The DP needs "
                      "every pair of steps and is not computed for this data.")
                       .arg(n)
                       .arg(costs->elboFull, 0, 'f', 4) +
                   maskedLine(*costs));
        return;
    }
    QString message = tr("Negative ELBO (nats): even %1 steps %2 · DP %1 steps %3 · "
                         "all %4 steps %5")
                          .arg(k)
                          .arg(costs->elboEven, 0, 'f', 4)
                          .arg(costs->elboDp, 0, 'f', 4)
                          .arg(n)
                          .arg(costs->elboFull, 0, 'f', 4);
    const auto same = [](double a, double b) { return std::abs(a - b) < 1e-9 * std::max(1.0, a); };
    if (same(costs->costs.cost(0, n), costs->elboFull)) {
        // One jump costs what the full grid does: every path costs the same.
        message +=
            tr("\nEvery path costs the same here: with one position and the exact "
               "denoiser the reverse chain is exact (Help ▸ Mathematics: "
               "categorical.md#degenerate-case).");
    } else if (same(costs->elboEven, costs->elboDp)) {
        message += tr("\nThe even path is already optimal here: the DP finds none cheaper.");
    }
    setMessage(message + maskedLine(*costs));
}

}  // namespace ui::views
