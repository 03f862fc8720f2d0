// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>
#include <memory>
#include <vector>

#include "core/project/categorical_runs.h"
#include "core/project/decoding_runs.h"
#include "ui/document/project_document.h"
#include "ui/document/project_model.h"
#include "ui/jobs/job_runner.h"

// Connects the document to the categorical views: an edit
// rebuilds the setup and refreshes the cheap views at once; the step costs with the DP path and
// the sampled chains run as jobs, coalesced by a short timer so a drag starts one job, not many.
// The main window and the headless `export` subcommand share it.
namespace ui::charts {
class ViewPanel;
}
namespace ui::animation {
class ChainsView;
}
namespace ui::views {
class KernelComparisonView;
class MatricesView;
class ScheduleView;
class StepCostView;
class DecodingView;
struct DecodingViewData;
}  // namespace ui::views

namespace ui {

class CategoricalExplorer : public QObject {
    Q_OBJECT
public:
    explicit CategoricalExplorer(document::ProjectDocument* document, QObject* parent = nullptr);
    ~CategoricalExplorer() override;

    animation::ChainsView* chainsView() const;
    views::ScheduleView* scheduleView() const;
    views::StepCostView* stepCostView() const;
    views::MatricesView* matricesView() const;
    views::KernelComparisonView* kernelView() const;
    views::DecodingView* decodingView() const;
    // Every view with its export name: trajectories, schedule, step-costs, matrices, kernels,
    // decoding.
    std::vector<std::pair<QString, charts::ViewPanel*>> views() const;

    std::shared_ptr<const document::CategoricalSetup> setup() const { return m_setup; }
    // The trajectory in use (grid nodes): even, typed, or the DP path once it is known.
    const std::vector<int>& trajectory() const { return m_trajectory; }
    std::shared_ptr<const core::project::CategoricalCosts> costs() const { return m_costs; }
    std::shared_ptr<const core::project::CategoricalChains> chains() const { return m_chainsData; }

    jobs::JobRunner* setupRunner() { return &m_setupRunner; }
    jobs::JobRunner* costRunner() { return &m_costRunner; }
    jobs::JobRunner* chainRunner() { return &m_chainRunner; }
    jobs::JobRunner* decodeRunner() { return &m_decodeRunner; }
    // The categorical panel's file reads: the explorer owns every job of its process.
    jobs::JobRunner* fileRunner() { return &m_fileRunner; }

    // The animation position in steps (0..M), shown by the time-dependent views.
    void setPosition(double position);
    // Starts any pending job now and blocks until all jobs are done (headless use and tests).
    void waitForJobs();
    // Cancels every running job.
    void cancelJobs();

signals:
    // The number of animation steps changed (a new trajectory).
    void stepsChanged(int numSteps);
    void jobMessage(const QString& message, bool isError);
    // A new setup was built (every edit); its β(t) curve for the schedule editor.
    void curveChanged(const core::schedule::BetaCurve& curve);

private:
    // A new project (projectReplaced) recomputes every view even when its parameters are the same.
    void onParamsChanged(bool projectReplaced = false);
    // Shows a new set-up: the cheap views at once, then the coalesced jobs.
    void useSetup(core::Result<std::shared_ptr<const document::CategoricalSetup>> setup);
    void startJobs();
    void startChains();
    void applyTrajectory(const std::vector<int>& nodes);
    void startKernelComparison();
    // The Decoding view's sweep of every sampler over N (a job), and the decoded chains the
    // Trajectories view animates when a decoding sampler is chosen there.
    void startDecoding();
    void startDecodedChains();
    // The core's sweep as the Decoding view draws it: every sequence a row, a curve per sampler.
    static std::shared_ptr<views::DecodingViewData> decodingViewData(
        const document::CategoricalSetup& setup,
        const core::project::DecodingSettings& settings,
        const core::project::DecodingSweep& sweep);
    static QString decodingNote(const document::CategoricalSetup& setup,
                                const core::project::DecodingSweep& sweep);
    // The sampler spec the Trajectories view should animate; empty for the reverse kernel.
    static std::string animatedSpec(const document::CategoricalParams& params);

    document::ProjectDocument* m_document;
    std::shared_ptr<const document::CategoricalSetup> m_setup;
    std::shared_ptr<const core::project::CategoricalCosts> m_costs;
    std::shared_ptr<const core::project::CategoricalChains> m_chainsData;
    std::vector<int> m_trajectory;
    double m_position = 0.0;
    std::string m_chainsSampler;  // what the chains show: empty, or a decoding sampler's spec

    // Guarded: the window that shows the views owns and may delete them first.
    QPointer<animation::ChainsView> m_chains;
    QPointer<views::ScheduleView> m_schedule;
    QPointer<views::StepCostView> m_stepCosts;
    QPointer<views::MatricesView> m_matrices;
    QPointer<views::KernelComparisonView> m_kernels;
    QPointer<views::DecodingView> m_decoding;

    jobs::JobRunner m_setupRunner;  // set-ups that read a table file or a checkpoint
    jobs::JobRunner m_costRunner;
    jobs::JobRunner m_chainRunner;
    jobs::JobRunner m_decodeRunner;
    // The kernel comparison: a small exact propagation, off the GUI thread all the same.
    jobs::JobRunner m_kernelRunner{jobs::JobWeight::Light};
    jobs::JobRunner m_fileRunner{jobs::JobWeight::Light};
    QTimer m_coalesce;
    QTimer m_decodeCoalesce;  // sampler edits: one sweep per burst
    QTimer m_kernelCoalesce;  // a drag: one kernel comparison per burst, not one per edit
};

}  // namespace ui
