// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/gaussian/variance.h"
#include "core/schedule/gaussian_schedule.h"
#include "ui/charts/chart_panel.h"

class QAreaSeries;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

// The Variance view of the Gaussian explorer: on the current trajectory, the
// analytic σ² (clipped) between its lower bound and the tighter of the two upper bounds (a
// shaded band), the DDPM baselines β̃ and β, on a log scale; pairs where clipping was active
// are marked.
namespace ui::views {

class VarianceView : public charts::ChartPanel {
    Q_OBJECT
public:
    explicit VarianceView(QWidget* parent = nullptr);

    void setPairs(const core::schedule::GaussianSchedule& schedule,
                  const std::vector<core::gaussian::PairVariance>& pairs,
                  const QString& trajectoryLabel);
    void clear(const QString& reason);

private:
    QLineSeries* m_sigma2;
    QLineSeries* m_lower;
    QLineSeries* m_upper;
    QAreaSeries* m_band;
    QLineSeries* m_small;
    QLineSeries* m_large;
    QScatterSeries* m_clipped;
    QLogValueAxis* m_axisT;
    QLogValueAxis* m_axisVariance;
};

}  // namespace ui::views
