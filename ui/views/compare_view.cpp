// SPDX-License-Identifier: MIT
#include "ui/views/compare_view.h"

#include <QChart>
#include <QCoreApplication>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>
#include <algorithm>
#include <array>
#include <cmath>

#include "ui/charts/palette.h"

namespace ui::views {

CompareView::CompareView(QWidget* parent)
    : ChartPanel(QT_TRANSLATE_NOOP("ui::views", "Compare"), parent),
      m_categoricalSeries(new QLineSeries),
      m_gaussianSeries(new QLineSeries),
      m_snrSeries(new QLineSeries),
      m_axisT(new QValueAxis),
      m_axisFraction(new QValueAxis),
      m_axisSnr(new QLogValueAxis) {
    m_categoricalSeries->setName(tr("categorical: Σ I(X₀;Xₜ) / Σ H(X₀)"));
    m_gaussianSeries->setName(tr("Gaussian: Σ min(½ log(1 + ᾱₙvᵢ/β̄ₙ), Hᵢ) / Σ Hᵢ"));
    m_snrSeries->setName(tr("Gaussian SNR ᾱₙ/β̄ₙ [right axis]"));
    m_categoricalSeries->setPen(QPen(charts::palette::kCategorical, 2.5));
    m_gaussianSeries->setPen(QPen(charts::palette::kGaussian, 2.5));
    m_snrSeries->setPen(QPen(QColor(120, 120, 120), 1.5, Qt::DashLine));
    m_axisT->setTitleText(tr("t (categorical t; Gaussian n/N)"));
    m_axisT->setRange(0.0, 1.0);
    m_axisT->setTickCount(6);  // 0, 0.2, …, 1
    m_axisT->setLabelFormat("%.1f");
    m_axisFraction->setTitleText(tr("fraction of information left"));
    m_axisFraction->setRange(0.0, 1.0);
    m_axisFraction->setTickCount(6);
    m_axisFraction->setLabelFormat("%.1f");
    m_axisSnr->setTitleText(tr("SNR (log scale)"));
    m_axisSnr->setBase(10.0);
    m_axisSnr->setLabelFormat("%g");
    chart()->addAxis(m_axisT, Qt::AlignBottom);
    chart()->addAxis(m_axisFraction, Qt::AlignLeft);
    chart()->addAxis(m_axisSnr, Qt::AlignRight);
    m_axisSnr->setGridLineVisible(false);  // one grid, the left axis's: two would interleave
    m_axisSnr->setMinorGridLineVisible(false);
    for (QLineSeries* s : {m_categoricalSeries, m_gaussianSeries}) {
        chart()->addSeries(s);
        s->attachAxis(m_axisT);
        s->attachAxis(m_axisFraction);
    }
    chart()->addSeries(m_snrSeries);
    m_snrSeries->attachAxis(m_axisT);
    m_snrSeries->attachAxis(m_axisSnr);
    setToolTip(
        tr("How fast each process destroys the same data (the 8×8 digits): the fraction of "
           "information left against time, categorical and Gaussian on one axis."));
}

void CompareView::showCurves(core::Result<CompareCurves> curves,
                             const std::vector<std::string>& provenance) {
    setProvenance(provenance);
    if (!curves) {
        m_curves = {};
        for (QLineSeries* s : {m_categoricalSeries, m_gaussianSeries, m_snrSeries}) {
            s->clear();
        }
        setData({});
        setMessage(tr("Compare: ") + QString::fromStdString(curves.error().toString()), true);
        return;
    }
    m_curves = std::move(curves).value();
    const auto& c = m_curves;
    m_categoricalSeries->replace(charts::toPoints(c.categoricalT, c.categorical));
    m_gaussianSeries->replace(charts::toPoints(c.gaussianT, c.gaussian));
    // A log axis: non-positive values are dropped, never shifted by an epsilon.
    QList<QPointF> snr;
    double low = 1e300, high = 0.0;
    for (size_t i = 0; i < c.snr.size(); ++i) {
        if (std::isfinite(c.snr[i]) && c.snr[i] > 0.0) {
            snr.append(QPointF(c.gaussianT[i], c.snr[i]));
            low = std::min(low, c.snr[i]);
            high = std::max(high, c.snr[i]);
        }
    }
    m_snrSeries->replace(snr);
    if (!snr.isEmpty()) {
        m_axisSnr->setRange(std::pow(10.0, std::floor(std::log10(low))),
                            std::pow(10.0, std::ceil(std::log10(high))));
    }
    // One long table: the two processes' curves on their own time grids, a row per point
    // (information and SNR are the Gaussian channel's only).
    charts::ChartData data;
    data.textHeader = {"process"};
    data.header = {"t", "fraction_left", "information_nats", "snr"};
    data.text.assign(1, {});
    data.columns.assign(4, {});
    auto addRow = [&data](const char* process, std::array<double, 4> values) {
        data.text[0].push_back(process);
        for (size_t col = 0; col < values.size(); ++col) data.columns[col].push_back(values[col]);
    };
    for (size_t i = 0; i < c.categoricalT.size() && i < c.categorical.size(); ++i) {
        addRow("categorical", {c.categoricalT[i], c.categorical[i], std::nan(""), std::nan("")});
    }
    for (size_t i = 0; i < c.gaussianT.size() && i < c.gaussian.size(); ++i) {
        addRow("gaussian", {c.gaussianT[i], c.gaussian[i],
                            i < c.gaussianNats.size() ? c.gaussianNats[i] : std::nan(""),
                            i < c.snr.size() ? c.snr[i] : std::nan("")});
    }
    setData(std::move(data));
    setMessage(tr("The %1 digits, for both processes (whatever data the Gaussian project "
                  "uses). Categorical: %2 levels, π %3, β(t) “%4”. Gaussian: “%5”, N = %6, "
                  "t = n/N. Information per pixel, capped at the pixel's entropy, summed over "
                  "the 64 pixels and divided by Σ Hᵢ = %7 nats (the Explanation pane and "
                  "Help ▸ Mathematics give the formulas).")
                   .arg(c.numImages)
                   .arg(c.levels)
                   .arg(c.documentPrior ? tr("from the project") : tr("uniform"))
                   .arg(QString::fromStdString(c.categoricalSchedule))
                   .arg(QString::fromStdString(c.gaussianSchedule))
                   .arg(c.gaussianSteps)
                   .arg(c.entropyNats, 0, 'f', 1));
}

}  // namespace ui::views
