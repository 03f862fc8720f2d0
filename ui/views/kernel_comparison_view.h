// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <vector>

#include "core/project/categorical_runs.h"
#include "ui/charts/chart_panel.h"
#include "ui/document/project_model.h"

class QBarSet;
class QBarSeries;
class QBarCategoryAxis;
class QValueAxis;

// The "Kernel comparison" view: the distribution that reverse sampling ends
// with under the source's closed form and under the D3PM-style kernel, against the data
// distribution, with their KL divergences. Exact (marginal propagation), not sampled.
namespace ui::views {

class KernelComparisonView : public charts::ChartPanel {
    Q_OBJECT
public:
    explicit KernelComparisonView(QWidget* parent = nullptr);

    // Draws core::project::kernelComparison's result for a set-up of `numPositions` positions,
    // at `position`.
    void setResult(const core::project::KernelComparison& result, int numPositions, int position);

    // Says the reverse marginals need one condition (a set-up of every condition averaged).
    void showOneConditionNeeded();

    double klClosed() const { return m_klClosed; }
    double klD3pm() const { return m_klD3pm; }

private:
    QBarSeries* m_series;
    QBarSet* m_data;
    QBarSet* m_closed;
    QBarSet* m_d3pm;
    QBarCategoryAxis* m_axisClass;
    QValueAxis* m_axisProbability;
    double m_klClosed = 0.0;
    double m_klD3pm = 0.0;
};

}  // namespace ui::views
