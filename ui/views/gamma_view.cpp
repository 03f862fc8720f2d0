// SPDX-License-Identifier: MIT
#include "ui/views/gamma_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QCoreApplication>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/gaussian/variance.h"
#include "ui/charts/figure_chart.h"
#include "ui/charts/palette.h"

namespace ui::views {
namespace {
// Log axes cannot show 0 or negatives: such points are dropped, not shifted.
QList<QPointF> positivePoints(const std::vector<double>& x, const std::vector<double>& y) {
    QList<QPointF> points;
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
        if (std::isfinite(y[i]) && y[i] > 0.0) {
            points.append(QPointF(x[i], y[i]));
        }
    }
    return points;
}
}  // namespace

GammaView::GammaView(QWidget* parent)
    : ChartPanel(QT_TRANSLATE_NOOP("ui::views", "Γ — the mean squared score"), parent),
      m_gamma(new QLineSeries),
      m_oracle(new QLineSeries),
      m_bandLow(new QLineSeries(this)),   // QAreaSeries does not own its edges
      m_bandHigh(new QLineSeries(this)),  // QAreaSeries does not own its edges
      m_band(new QAreaSeries(m_bandHigh, m_bandLow)),
      m_covariance(new QLineSeries),
      m_dataVariance(new QLineSeries),
      m_axisN(new QValueAxis),
      m_axisGamma(new QLogValueAxis),
      m_axisVariance(new QLogValueAxis) {
    m_gamma->setName(tr("Γₙ (oracle, Monte Carlo)"));
    m_gamma->setPen(QPen(charts::palette::kSampled, 2));
    m_oracle->setName(tr("Γₙ (exact oracle)"));
    m_oracle->setPen(QPen(charts::palette::kBluishGreen, 1.5, Qt::DashLine));
    m_band->setName(tr("± 2 standard errors"));
    m_band->setBrush(charts::palette::withAlpha(charts::palette::kSampled, 60));
    m_band->setPen(Qt::NoPen);
    m_covariance->setName(tr("E Cov[x₀|xₙ]/d ≤ Var x₀ (right)"));
    m_covariance->setPen(QPen(charts::palette::kExact, 2));
    m_dataVariance->setName(tr("Var x₀ per dimension"));
    m_dataVariance->setPen(QPen(charts::palette::kExact, 1.5, Qt::DashLine));
    m_axisN->setTitleText(tr("timestep n"));
    m_axisN->setLabelFormat("%d");
    m_axisGamma->setTitleText("Γₙ");
    m_axisGamma->setBase(10);
    m_axisGamma->setLabelFormat("%g");
    m_axisVariance->setTitleText(tr("variance"));
    m_axisVariance->setBase(10);
    m_axisVariance->setLabelFormat("%g");
    chart()->addAxis(m_axisN, Qt::AlignBottom);
    chart()->addAxis(m_axisGamma, Qt::AlignLeft);
    chart()->addAxis(m_axisVariance, Qt::AlignRight);
    m_axisVariance->setGridLineVisible(false);  // one grid, the left axis's: two would interleave
    m_axisVariance->setMinorGridLineVisible(false);
    chart()->addSeries(m_band);
    chart()->addSeries(m_gamma);
    chart()->addSeries(m_oracle);
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{m_band, m_gamma, m_oracle}) {
        s->attachAxis(m_axisN);
        s->attachAxis(m_axisGamma);
    }
    for (QLineSeries* s : {m_covariance, m_dataVariance}) {
        chart()->addSeries(s);
        s->attachAxis(m_axisN);
        s->attachAxis(m_axisVariance);
    }
    setToolTip(
        tr("Γₙ = E‖∇log qₙ(xₙ)‖²/d, estimated once per data set and model (Help ▸ "
           "Mathematics: gaussian.md#gamma); "
           "(β̄ₙ/ᾱₙ)(1 − β̄ₙΓₙ) is the average posterior variance of x₀ (Section 5)."));
}

void GammaView::clear(const QString& reason) {
    for (QLineSeries* s :
         {m_gamma, m_oracle, m_bandLow, m_bandHigh, m_covariance, m_dataVariance}) {
        s->clear();
    }
    setData({});
    setMessage(reason);
}

void GammaView::setEstimate(const core::schedule::GaussianSchedule& schedule,
                            const core::gaussian::GammaEstimate& estimate,
                            double dataVariance,
                            const QString& source,
                            const core::gaussian::GammaEstimate* oracle) {
    const size_t count = estimate.timesteps.size();
    std::vector<double> n(count), low(count), high(count);
    for (size_t i = 0; i < count; ++i) {
        n[i] = estimate.timesteps[i];
        low[i] = estimate.gamma[i] - 2.0 * estimate.standardError[i];
        high[i] = estimate.gamma[i] + 2.0 * estimate.standardError[i];
    }
    // Section 5: E Cov[x_0|x_n] per dimension from Γ, on the estimated timesteps.
    std::vector<double> full(static_cast<size_t>(schedule.numSteps()) + 1, 0.0);
    for (size_t i = 0; i < count; ++i) {
        full[estimate.timesteps[i]] = estimate.gamma[i];
    }
    const std::vector<double> covarianceAll =
        core::gaussian::expectedPosteriorVariances(schedule, full);
    std::vector<double> covariance(count), plotted(count);
    for (size_t i = 0; i < count; ++i) {
        covariance[i] = covarianceAll[estimate.timesteps[i]];
        // Drawn within [0, Var x₀]: E Cov[x₀|xₙ] ≤ Var x₀ (total variance), and at large n the
        // factor β̄ₙ/ᾱₙ blows a Monte Carlo Γ's noise up far past it. The CSV keeps the raw value.
        plotted[i] = std::clamp(covariance[i], 0.0, dataVariance);
    }
    m_gamma->setName(tr("Γₙ (%1, Monte Carlo)").arg(source));
    m_gamma->replace(positivePoints(n, estimate.gamma));
    std::vector<double> oracleN, oracleGamma;
    if (oracle != nullptr) {
        oracleN.assign(oracle->timesteps.begin(), oracle->timesteps.end());
        oracleGamma = oracle->gamma;
    }
    m_oracle->replace(positivePoints(oracleN, oracleGamma));
    m_oracle->setVisible(oracle != nullptr);
    m_bandLow->replace(positivePoints(n, low));
    m_bandHigh->replace(positivePoints(n, high));
    m_covariance->replace(positivePoints(n, plotted));
    m_dataVariance->replace({QPointF(1, dataVariance), QPointF(schedule.numSteps(), dataVariance)});
    charts::setAxisRange(m_axisN, 1, schedule.numSteps());
    double gMin = 1e300, gMax = 0.0, vMin = dataVariance, vMax = dataVariance;
    for (size_t i = 0; i < count; ++i) {
        if (low[i] > 0) gMin = std::min(gMin, low[i]);
        gMax = std::max(gMax, high[i]);
        if (plotted[i] > 0) vMin = std::min(vMin, plotted[i]);
        vMax = std::max(vMax, plotted[i]);
    }
    for (double g : oracleGamma) {
        if (g > 0) gMin = std::min(gMin, g);
        gMax = std::max(gMax, g);
    }
    // At most kDecades decades below the largest value: a band's lower edge at 2 SE below a
    // noisy Γ can be 1e−200, and a log axis over hundreds of decades lays out a label for each
    // to show nothing a reader can use.
    constexpr double kDecades = 1e8;
    if (gMax > 0) {
        charts::setAxisRange(m_axisGamma, std::max(gMin, gMax / kDecades) / 1.5, gMax * 1.5);
    }
    charts::setAxisRange(m_axisVariance, std::max({vMin, vMax / kDecades, 1e-12}) / 1.5,
                         vMax * 1.5);
    charts::ChartData data{{"n", "gamma", "standard_error", "ms_eps", "posterior_variance_per_dim"},
                           {n, estimate.gamma, estimate.standardError, estimate.msEps, covariance}};
    if (oracle != nullptr) {
        data.header.push_back("oracle_gamma");
        data.columns.push_back(oracleGamma);
    }
    setData(std::move(data));
    setMessage(tr("M = %1 samples per timestep. E Cov[x₀|xₙ] rises from 0 towards the "
                  "data variance %2 as the noise grows.")
                   .arg(estimate.numSamples)
                   .arg(dataVariance, 0, 'g', 4));
}

}  // namespace ui::views
