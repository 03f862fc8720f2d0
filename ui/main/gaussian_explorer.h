// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>
#include <QTimer>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/gaussian/gamma.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/gaussian/variance.h"
#include "core/model/gaussian_oracles.h"
#include "core/schedule/gaussian_schedule.h"
#include "ui/document/project_document.h"
#include "ui/jobs/gaussian_jobs.h"
#include "ui/jobs/job_runner.h"
#include "ui/jobs/particle_jobs.h"

namespace ui::charts {
class ViewPanel;
}
namespace ui::views {
class CompareView;
class GammaView;
class GaussianTrajectoryView;
class LabView;
class ParticlesView;
class VarianceView;
struct NllCurves;
}  // namespace ui::views

namespace ui {

using jobs::GaussianResults;

// Connects the document's Gaussian parameters to the Particles, Γ, Variance and Trajectory
// views: every edit starts a job (coalesced), which re-estimates Γ only when the schedule, data,
// model or Monte Carlo settings changed, then resolves the trajectory (even, quadratic or DP),
// its variances and the particle frames of both samplers. The NLL-against-K curves are a second
// job, started on request only (its own runner, so that an edit's Γ job and the long NLL job do
// not cancel each other); the Lab view's runs are a third. It also owns the Compare view, which
// follows both the categorical and the Gaussian parameters.
class GaussianExplorer : public QObject {
    Q_OBJECT
public:
    explicit GaussianExplorer(document::ProjectDocument* document, QObject* parent = nullptr);
    ~GaussianExplorer() override;

    views::GammaView* gammaView() const;
    views::VarianceView* varianceView() const;
    views::GaussianTrajectoryView* trajectoryView() const;
    views::ParticlesView* particlesView() const;
    views::CompareView* compareView() const;
    views::LabView* labView() const;
    // Every view with its export name: particles, gamma, variance, gaussian-trajectory, compare,
    // lab.
    std::vector<std::pair<QString, charts::ViewPanel*>> views() const;

    jobs::JobRunner* runner() { return &m_runner; }
    jobs::JobRunner* nllRunner() { return &m_nllRunner; }
    jobs::JobRunner* labRunner() { return &m_labRunner; }
    jobs::JobRunner* compareRunner() { return &m_compareRunner; }
    // The jobs of the Gaussian panel (file reads; the check of an imported Γ): the explorer
    // owns every job of its process (the Compare view's too).
    jobs::JobRunner* fileRunner() { return &m_fileRunner; }
    jobs::JobRunner* checkRunner() { return &m_checkRunner; }
    std::shared_ptr<const GaussianResults> results() const { return m_results; }
    // The last NLL-against-K curves (null until computed) and the inputs they were computed for.
    std::shared_ptr<const views::NllCurves> nllCurves() const { return m_nll; }
    const document::GaussianParams& nllParams() const { return m_nllParams; }

    // Starts the NLL-against-K job on the current results (the Trajectory view's button).
    void computeNllVsK();

    // Starts the lab's run on the document's parameters (the Lab view's Run button): its own
    // runner, so that edits, which restart the Γ job, never cancel it; the last result stays
    // until the next run finishes and is marked stale when its inputs change.
    void runLab();

    // Writes Γ (CSV n,gamma or NPY of ms_eps by extension); an empty string or the reason.
    QString exportGamma(const QString& path) const;

    void waitForJobs();
    void cancelJobs();

signals:
    void jobMessage(const QString& message, bool isError);

private:
    void onParamsChanged();
    void onCategoricalChanged();
    void startJob();
    // Samples the particle frames on `base`'s Γ and trajectory, for the document's parameters.
    void startParticlesJob(std::shared_ptr<const GaussianResults> base);
    void showResults(const std::shared_ptr<const GaussianResults>& done);
    // The Compare view's curves, when an input they depend on changed.
    void startCompareJob();
    void updateNllStale();
    void updateLabStale();
    void connectLab();

    document::ProjectDocument* m_document;
    // Before the views: the Compare view keeps a guarded pointer to its runner.
    jobs::JobRunner m_fileRunner{jobs::JobWeight::Light};
    jobs::JobRunner m_checkRunner{jobs::JobWeight::Light};
    jobs::JobRunner m_compareRunner;
    std::string m_compareKey;  // the inputs of the curves shown or on their way
    std::shared_ptr<const GaussianResults> m_results;
    QPointer<views::GammaView> m_gamma;
    QPointer<views::VarianceView> m_variance;
    QPointer<views::GaussianTrajectoryView> m_trajectory;
    QPointer<views::ParticlesView> m_particles;
    QPointer<views::CompareView> m_compare;
    QPointer<views::LabView> m_lab;
    // Γ estimates of jobs not yet shown, by Γ key: the timesteps finished so far (all of them
    // when a cancel came after Γ), for the next job to continue.
    std::shared_ptr<jobs::PartialGammas> m_partialGammas = std::make_shared<jobs::PartialGammas>();
    jobs::JobRunner m_runner;
    jobs::JobRunner m_nllRunner;
    std::shared_ptr<const views::NllCurves> m_nll;
    document::GaussianParams m_nllParams;
    jobs::JobRunner m_labRunner;
    document::GaussianParams m_labParams;  // the inputs of the lab result shown
    // The parameters of the last Γ job started: an edit of the lab alone starts none.
    std::optional<document::GaussianParams> m_requested;
    QTimer m_coalesce;
};

}  // namespace ui
