// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "core/project/categorical_runs.h"
#include "ui/charts/chart_panel.h"

class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QLogValueAxis;

// Step costs J(n − 1, n) on the grid (docs/categorical.md#step-costs) with the DP-chosen and the
// even paths' nodes as markers, and the negative ELBO of both paths side by side (part of the
// "Schedule & information" view).
namespace ui::views {

class StepCostView : public charts::ChartPanel {
    Q_OBJECT
public:
    explicit StepCostView(QWidget* parent = nullptr);

    void setCosts(std::shared_ptr<const core::project::CategoricalCosts> costs,
                  const std::vector<double>& gridTimes);
    void clear(const QString& reason);

private:
    QLineSeries* m_costs;
    QScatterSeries* m_dp;
    QScatterSeries* m_even;
    QValueAxis* m_axisT;
    QValueAxis* m_axisCost;
};

}  // namespace ui::views
