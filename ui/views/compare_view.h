// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/project/compare_curves.h"
#include "core/util/result.h"
#include "ui/charts/chart_panel.h"

class QLineSeries;
class QLogValueAxis;
class QValueAxis;

// The Compare view of the Gaussian explorer: how fast each process destroys the same data, the
// bundled 8×8 digits, on one time axis t ∈ [0, 1] (the curves of core/project/compare_curves.h).
namespace ui::views {

// The computation behind the view is the core's (core/project/compare_curves.h).
using core::project::CompareCurves;
using core::project::kCategoricalPoints;

class CompareView : public charts::ChartPanel {
    Q_OBJECT
public:
    // The curves are computed by the explorer's job (core::project::computeCompareCurves); the
    // view draws what it is given.
    explicit CompareView(QWidget* parent = nullptr);

    // The curves (or why there are none) and where they come from.
    void showCurves(core::Result<CompareCurves> curves, const std::vector<std::string>& provenance);
    const CompareCurves& curves() const { return m_curves; }

private:
    CompareCurves m_curves;
    QLineSeries* m_categoricalSeries;
    QLineSeries* m_gaussianSeries;
    QLineSeries* m_snrSeries;
    QValueAxis* m_axisT;
    QValueAxis* m_axisFraction;
    QLogValueAxis* m_axisSnr;
};

}  // namespace ui::views
