// SPDX-License-Identifier: MIT
#include "ui/views/schedule_view.h"

#include <QAbstractAxis>
#include <QChart>
#include <QCoreApplication>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <cmath>

#include "ui/charts/figure_chart.h"
#include "ui/charts/palette.h"

namespace ui::views {
namespace {
constexpr double kLn2 = 0.69314718055994530942;
}

ScheduleView::ScheduleView(QWidget* parent)
    : ChartPanel(QT_TRANSLATE_NOOP("ui::views", "Schedule & information"), parent),
      m_beta(new QLineSeries),
      m_keep(new QLineSeries),
      m_information(new QLineSeries),
      m_impurity(new QLineSeries),
      m_markers(new QScatterSeries),
      m_cursor(new QLineSeries),
      m_axisT(new QValueAxis),
      m_axisProbability(new QValueAxis),
      m_axisBits(new QValueAxis),
      m_axisImpurity(new QValueAxis) {
    m_beta->setName("β(t)");
    m_keep->setName("1 − β(t)");
    m_information->setName(tr("I(X₀;Xₜ) [bits, right axis]"));
    m_impurity->setName(tr("impurity Gₜ"));
    m_markers->setName(tr("trajectory nodes"));
    m_cursor->setName(tr("time slider"));
    // One colour per quantity (Okabe–Ito), so no two legend entries share a swatch.
    m_beta->setPen(QPen(charts::palette::kBeta, 2));
    m_keep->setPen(QPen(charts::palette::kKeep, 2, Qt::DashLine));
    m_information->setPen(QPen(charts::palette::kInformation, 2.5));
    m_impurity->setPen(QPen(charts::palette::kImpurity, 2));
    m_markers->setMarkerSize(9);
    m_markers->setColor(QColor("#000000"));
    m_markers->setBorderColor(Qt::white);
    m_cursor->setPen(QPen(QColor(0, 0, 0, 110), 1, Qt::DotLine));

    m_axisT->setTitleText("t");
    charts::setAxisRange(m_axisT, 0.0, 1.0);
    m_axisProbability->setTitleText(tr("probability"));
    charts::setAxisRange(m_axisProbability, 0.0, 1.0);
    m_axisBits->setTitleText(tr("bits"));
    chart()->addAxis(m_axisT, Qt::AlignBottom);
    chart()->addAxis(m_axisProbability, Qt::AlignLeft);
    chart()->addAxis(m_axisBits, Qt::AlignRight);
    m_axisBits->setGridLineVisible(false);  // one grid, the left axis's: two would interleave
    m_axisBits->setMinorGridLineVisible(false);
    m_axisImpurity->setTitleText(tr("Gₜ,d summed over d"));
    m_axisImpurity->setGridLineVisible(false);
    m_axisImpurity->setMinorGridLineVisible(false);
    m_axisImpurity->setLinePenColor(charts::palette::kImpurity);
    m_axisImpurity->setLabelsColor(charts::palette::kImpurity);
    chart()->addAxis(m_axisImpurity, Qt::AlignRight);
    m_axisImpurity->setVisible(false);
    for (QLineSeries* s : {m_beta, m_keep, m_impurity, m_cursor}) {
        chart()->addSeries(s);
        s->attachAxis(m_axisT);
        s->attachAxis(m_axisProbability);
    }
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_information, m_markers}) {
        chart()->addSeries(s);
        s->attachAxis(m_axisT);
        s->attachAxis(m_axisBits);
    }
    // The cursor is a guide, not data: keep it out of the legend.
    charts::hideFromLegend(m_cursor);
    setToolTip(
        tr("β(t) and the keep probability on the left axis; the mutual information "
           "between the data and its noisy version, in bits, on the right axis."));
}

void ScheduleView::setSetup(std::shared_ptr<const document::CategoricalSetup> setup) {
    m_setup = std::move(setup);
    if (!m_setup) {
        return;
    }
    const auto& s = *m_setup;
    m_curves = core::categorical::informationCurves(s.table, s.pi, s.grid, s.params.condition);
    std::vector<double> keep(m_curves.beta.size());
    std::vector<double> bits(m_curves.mutualInformation.size());
    for (size_t n = 0; n < keep.size(); ++n) {
        keep[n] = 1.0 - m_curves.beta[n];
        bits[n] = m_curves.mutualInformation[n] / kLn2;
    }
    m_beta->replace(charts::toPoints(m_curves.t, m_curves.beta));
    m_keep->replace(charts::toPoints(m_curves.t, keep));
    m_information->replace(charts::toPoints(m_curves.t, bits));
    m_impurity->replace(charts::toPoints(m_curves.t, m_curves.impurity));
    double maxBits = 0.0;
    for (double b : bits) {
        maxBits = std::isfinite(b) ? std::max(maxBits, b) : maxBits;
    }
    charts::setNiceRange(m_axisBits, 0.0, std::max(0.05, maxBits * 1.05));
    // One position: I and G are those of the position, G on the probability axis. Several: both
    // are sums over the positions (not the joint quantities), G up to D on an axis of its own.
    const bool summed = s.table.numPositions > 1;
    m_information->setName(summed ? tr("I(X₀,d; Xₜ,d) summed over d [bits, right axis]")
                                  : tr("I(X₀;Xₜ) [bits, right axis]"));
    m_impurity->setName(summed ? tr("impurity Gₜ,d summed over d [own axis]") : tr("impurity Gₜ"));
    for (QAbstractAxis* axis : m_impurity->attachedAxes()) {
        if (axis != m_axisT) m_impurity->detachAxis(axis);
    }
    m_impurity->attachAxis(summed ? m_axisImpurity : m_axisProbability);
    m_axisImpurity->setVisible(summed);
    if (summed) {
        double maxImpurity = 0.0;
        for (double g : m_curves.impurity)
            maxImpurity = std::isfinite(g) ? std::max(maxImpurity, g) : maxImpurity;
        charts::setNiceRange(m_axisImpurity, 0.0, std::max(0.05, maxImpurity * 1.05));
    }
    setData({{"t", "beta", "keep", "mutual_information_bits", "impurity"},
             {m_curves.t, m_curves.beta, keep, bits, m_curves.impurity}});
    // The step costs and ELBOs beside this view are in nats: the entropy is given in both. It is
    // the joint entropy of the sequence, the floor of every negative ELBO; the curves start at
    // the sum of the positions' entropies, which is larger when the positions are dependent.
    m_entropy = core::categorical::dataEntropy(s.table, s.params.condition);
    const QString condition = s.params.condition == core::project::kAllConditions
                                  ? tr("all, averaged")
                                  : document::qs(s.params.conditionNames[s.params.condition]);
    QString message =
        tr("H(X₀ | C = %1) = %2 bits = %3 nats (the step costs and ELBOs are in nats)")
            .arg(condition)
            .arg(m_entropy.joint / kLn2, 0, 'f', 4)
            .arg(m_entropy.joint, 0, 'f', 4);
    if (summed) {
        message += tr("; the curves are sums over the %1 positions and start at the sum over d of "
                      "H(X₀,d | C) = "
                      "%2 nats, an upper bound of H(X₀ | C)")
                       .arg(s.table.numPositions)
                       .arg(m_entropy.positions, 0, 'f', 4);
    }
    setMessage(message);
}

void ScheduleView::setTrajectory(const std::vector<int>& nodes, const QString& label) {
    m_markers->setName(label);
    QList<QPointF> points;
    const auto& t = m_curves.t;
    for (int n : nodes) {
        if (n >= 0 && n < static_cast<int>(t.size())) {
            points.append(QPointF(t[n], m_curves.mutualInformation[n] / kLn2));
        }
    }
    m_markers->replace(points);
}

void ScheduleView::setFigureMode(bool figure) { m_cursor->setVisible(!figure); }

void ScheduleView::setCursorTime(double t) {
    m_cursor->replace({QPointF(t, 0.0), QPointF(t, 1.0)});
}

}  // namespace ui::views
