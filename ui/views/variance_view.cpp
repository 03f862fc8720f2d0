// SPDX-License-Identifier: MIT
#include "ui/views/variance_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/gaussian/spacing.h"
#include "ui/charts/figure_chart.h"
#include "ui/charts/palette.h"

namespace ui::views {

VarianceView::VarianceView(QWidget* parent)
    : ChartPanel(QT_TRANSLATE_NOOP("ui::views", "Optimal reverse variance and its bounds"), parent),
      m_sigma2(new QLineSeries),
      m_lower(new QLineSeries(this)),  // QAreaSeries does not own its edges
      m_upper(new QLineSeries(this)),  // QAreaSeries does not own its edges
      m_band(new QAreaSeries(m_upper, m_lower)),
      m_small(new QLineSeries),
      m_large(new QLineSeries),
      m_clipped(new QScatterSeries),
      m_axisT(new QLogValueAxis),
      m_axisVariance(new QLogValueAxis) {
    m_sigma2->setName(tr("analytic σ²ₛ|ₜ"));
    m_sigma2->setPen(QPen(charts::palette::kAnalytic, 2.5));
    m_sigma2->setPointsVisible(true);
    m_band->setName(tr("bounds (Theorem 2)"));
    m_band->setBrush(charts::palette::withAlpha(charts::palette::kBounds, 55));
    m_band->setPen(QPen(charts::palette::withAlpha(charts::palette::kBounds, 120), 1));
    m_small->setName(tr("DDPM β̃ₛ|ₜ"));
    m_small->setPen(QPen(charts::palette::kSmallVariance, 1.5, Qt::DashLine));
    m_large->setName(tr("DDPM βₜ|ₛ"));
    m_large->setPen(QPen(charts::palette::kLargeVariance, 1.5, Qt::DashLine));
    m_clipped->setName(tr("clipped to a bound"));
    m_clipped->setColor(Qt::black);
    m_clipped->setMarkerSize(8);
    m_clipped->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    // Logarithmic in t: the trajectories put most of their steps at small t, which a linear
    // axis crowds into its first tenth.
    m_axisT->setTitleText(tr("timestep t of the pair (s, t), log scale"));
    m_axisT->setLabelFormat("%g");
    m_axisT->setBase(10.0);
    m_axisT->setMinorTickCount(8);
    m_axisVariance->setTitleText(tr("variance"));
    m_axisVariance->setBase(10);
    m_axisVariance->setLabelFormat("%g");
    chart()->addAxis(m_axisT, Qt::AlignBottom);
    chart()->addAxis(m_axisVariance, Qt::AlignLeft);
    chart()->addSeries(m_band);
    for (QAbstractSeries* s :
         std::initializer_list<QAbstractSeries*>{m_small, m_large, m_sigma2, m_clipped}) {
        chart()->addSeries(s);
    }
    for (QAbstractSeries* s :
         std::initializer_list<QAbstractSeries*>{m_band, m_small, m_large, m_sigma2, m_clipped}) {
        s->attachAxis(m_axisT);
        s->attachAxis(m_axisVariance);
    }
    setToolTip(
        tr("σ² of every reverse step on the trajectory (Help ▸ Mathematics: "
           "gaussian.md#optimal-variance): it always lies between "
           "λ² and the tighter upper bound; the DDPM choices are drawn for comparison."));
}

void VarianceView::clear(const QString& reason) {
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_sigma2, m_lower, m_upper, m_small,
                                                          m_large, m_clipped}) {
        s->clear();
    }
    setData({});
    setMessage(reason);
}

void VarianceView::setPairs(const core::schedule::GaussianSchedule& schedule,
                            const std::vector<core::gaussian::PairVariance>& pairs,
                            const QString& trajectoryLabel) {
    // Pairs arrive from (τ_{K−1}, τ_K) down; draw them left to right in t.
    std::vector<core::gaussian::PairVariance> sorted = pairs;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.t < b.t; });
    QList<QPointF> sigma2, lower, upper, small, large, clipped;
    std::vector<double> s, t, c0, c1, c2, c3, c4, c5, c6;
    double low = 1e300, high = 0.0;
    int clippedCount = 0;
    for (const auto& p : sorted) {
        const double upperBound = std::min(p.upper, p.upperBounded);
        const double beta = core::gaussian::baselineSigma2(schedule, p.s, p.t,
                                                           core::gaussian::BaselineVariance::Small);
        const double betaLarge = core::gaussian::baselineSigma2(
            schedule, p.s, p.t, core::gaussian::BaselineVariance::Large);
        // λ² = 0 (DDIM) has no place on a log axis: the band then starts at the smallest
        // positive value drawn.
        if (p.sigma2 > 0) sigma2.append(QPointF(p.t, p.sigma2));
        if (p.lower > 0) lower.append(QPointF(p.t, p.lower));
        if (upperBound > 0) upper.append(QPointF(p.t, upperBound));
        if (beta > 0) small.append(QPointF(p.t, beta));
        if (betaLarge > 0) large.append(QPointF(p.t, betaLarge));
        const bool wasClipped = p.sigma2 != p.sigma2Unclipped;
        if (wasClipped && p.sigma2 > 0) {
            clipped.append(QPointF(p.t, p.sigma2));
            ++clippedCount;
        }
        for (double v : {p.sigma2, p.lower, upperBound, beta, betaLarge}) {
            if (v > 0) {
                low = std::min(low, v);
                high = std::max(high, v);
            }
        }
        s.push_back(p.s);
        t.push_back(p.t);
        c0.push_back(p.sigma2);
        c1.push_back(p.sigma2Unclipped);
        c2.push_back(p.lower);
        c3.push_back(p.upper);
        c4.push_back(p.upperBounded);
        c5.push_back(beta);
        c6.push_back(betaLarge);
    }
    if (lower.isEmpty()) {
        // DDIM: draw the band's floor at the bottom of the axis.
        for (const QPointF& point : upper) {
            lower.append(QPointF(point.x(), low / 2.0));
        }
    }
    m_sigma2->replace(sigma2);
    m_lower->replace(lower);
    m_upper->replace(upper);
    m_small->replace(small);
    m_large->replace(large);
    m_clipped->replace(clipped);
    // A little room past t = N on the log axis: the last pair sits there, and its marker (the
    // clipped square, the σ² dot) was cut in half by the plot's edge.
    charts::setAxisRange(m_axisT, 1, schedule.numSteps() * 1.25);
    if (high > 0) {
        charts::setAxisRange(m_axisVariance, low / 2.0, high * 2.0);
    }
    setData({{"s", "t", "sigma2", "sigma2_unclipped", "lower", "upper", "upper_bounded",
              "ddpm_small", "ddpm_large"},
             {s, t, c0, c1, c2, c3, c4, c5, c6}});
    QString message = tr("%1 trajectory, %2 reverse steps; %3 clipped to a bound.")
                          .arg(trajectoryLabel)
                          .arg(pairs.size())
                          .arg(clippedCount);
    if (!pairs.empty()) {
        // A trajectory that misses 1 or N (leading, trailing, quadratic) says what that costs.
        const std::string ends = core::gaussian::trajectoryEndsNote(
            {pairs.back().s, pairs.front().t}, schedule.numSteps());
        if (!ends.empty()) {
            message += tr(" Note: ") + QString::fromStdString(ends) + ".";
        }
    }
    setMessage(message);
}

}  // namespace ui::views
