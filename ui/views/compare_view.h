// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include <QPointer>

#include "core/data/digits.h"
#include "core/util/result.h"
#include "ui/charts/chart_panel.h"
#include "core/project/compare_curves.h"
#include "ui/document/project_model.h"
#include "ui/jobs/job_runner.h"

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
    // The curves are computed as jobs of `runner`, which the explorer that shows the view owns.
    explicit CompareView(jobs::JobRunner* runner, QWidget* parent = nullptr);
    ~CompareView() override;  // cancels its job: the result would reach a dead view

    // Recomputes off the GUI thread (15 ms to 0.3 s: an information-linear schedule is solved
    // on the digits) when an input of the curves changed; other edits are ignored.
    void setParams(const document::CategoricalParams& categorical,
                   const document::GaussianParams& gaussian);
    const CompareCurves& curves() const { return m_curves; }
    // Blocks until the curves of the last setParams are shown.
    void waitForCurves() {
        if (m_runner) m_runner->waitForFinished();
    }
    jobs::JobRunner* runner() { return m_runner; }

private:
    void showCurves(core::Result<CompareCurves> curves);

    QPointer<jobs::JobRunner> m_runner;  // guarded: the explorer that owns it may go first
    CompareCurves m_curves;
    bool m_hasInputs = false;
    document::CategoricalParams m_categorical;
    document::GaussianParams m_gaussian;
    QLineSeries* m_categoricalSeries;
    QLineSeries* m_gaussianSeries;
    QLineSeries* m_snrSeries;
    QValueAxis* m_axisT;
    QValueAxis* m_axisFraction;
    QLogValueAxis* m_axisSnr;
};

}  // namespace ui::views
