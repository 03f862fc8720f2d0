// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/gaussian/gamma.h"
#include "core/schedule/gaussian_schedule.h"
#include "ui/charts/chart_panel.h"

class QAreaSeries;
class QLineSeries;
class QLogValueAxis;
class QValueAxis;

// The Γ view of the Gaussian explorer: the mean squared score Γ_n with its
// Monte Carlo band (± 2 standard errors) on a log axis, and beside it the per-dimension
// E Cov[x_0 | x_n] that Γ implies against the data's variance (Section 5 of the paper).
namespace ui::views {

class GammaView : public charts::ChartPanel {
    Q_OBJECT
public:
    explicit GammaView(QWidget* parent = nullptr);

    // estimate: Γ on every n = 1..N of `source` ("oracle" or "network"); dataVariance:
    // Σ Var[x_0,i]/d of the data; oracle (may be null): the exact oracle's Γ, drawn dashed
    // beside a network's so the two can be compared.
    void setEstimate(const core::schedule::GaussianSchedule& schedule,
                     const core::gaussian::GammaEstimate& estimate,
                     double dataVariance,
                     const QString& source = "oracle",
                     const core::gaussian::GammaEstimate* oracle = nullptr);
    void clear(const QString& reason);

private:
    QLineSeries* m_gamma;
    QLineSeries* m_oracle;
    QLineSeries* m_bandLow;
    QLineSeries* m_bandHigh;
    QAreaSeries* m_band;
    QLineSeries* m_covariance;
    QLineSeries* m_dataVariance;
    QValueAxis* m_axisN;
    QLogValueAxis* m_axisGamma;
    QLogValueAxis* m_axisVariance;
};

}  // namespace ui::views
