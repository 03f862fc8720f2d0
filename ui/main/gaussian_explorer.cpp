// SPDX-License-Identifier: MIT
#include "ui/main/gaussian_explorer.h"

#include <QCoreApplication>

#include <stdexcept>

#include "core/data/gaussian_data.h"
#include "core/util/parallel.h"
#include "ui/views/gamma_view.h"
#include "ui/views/gaussian_trajectory_view.h"
#include "ui/views/particles_view.h"
#include "ui/views/variance_view.h"

namespace ui {
namespace {

constexpr int kCoalesceMs = 40;
const QString kParticlesJob = "Particles";

// Γ depends on these parameters only; the rest (η, trajectory, K) reuse it.
bool sameGammaInputs(const document::GaussianParams& a, const document::GaussianParams& b) {
    return a.schedule == b.schedule && a.numSteps == b.numSteps && a.data == b.data &&
           a.gammaSamples == b.gammaSamples && a.denoisingEstimator == b.denoisingEstimator &&
           a.seed == b.seed;
}

// The Particles view's settings: only the particles depend on them.
bool sameExceptSampler(document::GaussianParams a, const document::GaussianParams& b) {
    a.sampler = b.sampler;
    a.compareSampler = b.compareSampler;
    a.clipFirst = b.clipFirst;
    a.particleCount = b.particleCount;
    return a == b;
}

std::runtime_error failure(const core::Error& error) { return std::runtime_error(error.toString()); }

}  // namespace

GaussianExplorer::GaussianExplorer(document::ProjectDocument* document, QObject* parent)
    : QObject(parent),
      m_document(document),
      m_gamma(new views::GammaView),
      m_variance(new views::VarianceView),
      m_trajectory(new views::GaussianTrajectoryView),
      m_particles(new views::ParticlesView) {
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(kCoalesceMs);
    connect(&m_coalesce, &QTimer::timeout, this, &GaussianExplorer::startJob);
    connect(m_document, &document::ProjectDocument::gaussianChanged, this,
            &GaussianExplorer::onParamsChanged);
    connect(m_document, &document::ProjectDocument::projectReplaced, this,
            &GaussianExplorer::onParamsChanged);
    connect(&m_runner, &jobs::JobRunner::failed, this,
            [this](const QString& name, const QString& message) {
                m_gamma->setMessage(name + ": " + message, true);
                m_variance->setMessage(name + ": " + message, true);
                m_particles->clear(name + ": " + message);
                emit jobMessage(name + ": " + message, true);
            });
    // The particles keep their last frames while new ones are sampled; the footer says so.
    connect(&m_runner, &jobs::JobRunner::started, this, [this](const QString& name) {
        if (name == kParticlesJob) m_particles->setMessage("Sampling particles…");
    });
    connect(&m_runner, &jobs::JobRunner::cancelled, this, [this](const QString& name) {
        if (name == kParticlesJob) m_particles->setMessage("Particle sampling cancelled.");
    });
    onParamsChanged();
}

GaussianExplorer::~GaussianExplorer() {
    cancelJobs();
    for (auto& [name, view] : views()) {
        if (view != nullptr && view->parent() == nullptr) {
            delete view;
        }
    }
}

views::GammaView* GaussianExplorer::gammaView() const { return m_gamma; }
views::VarianceView* GaussianExplorer::varianceView() const { return m_variance; }
views::GaussianTrajectoryView* GaussianExplorer::trajectoryView() const { return m_trajectory; }
views::ParticlesView* GaussianExplorer::particlesView() const { return m_particles; }

std::vector<std::pair<QString, charts::ViewPanel*>> GaussianExplorer::views() const {
    return {{"particles", m_particles},
            {"gamma", m_gamma},
            {"variance", m_variance},
            {"gaussian-trajectory", m_trajectory}};
}

void GaussianExplorer::onParamsChanged() { m_coalesce.start(); }

void GaussianExplorer::startJob() {
    const document::GaussianParams params = m_document->gaussian();
    std::shared_ptr<const GaussianResults> previous = m_results;
    if (previous && previous->oracle && sameExceptSampler(previous->params, params)) {
        startParticlesJob(previous);  // Γ, trajectory and variances stay as they are
        return;
    }
    const int threads = core::hardwareThreads();
    m_gamma->setMessage(previous && sameGammaInputs(previous->params, params)
                            ? m_gamma->message()
                            : QString("Estimating Γ with M = %1 samples per timestep…")
                                  .arg(params.gammaSamples));
    m_runner.start("Γ and variances", [params, previous, threads, this](core::Progress& progress)
                                           -> std::function<void()> {
        auto results = std::make_shared<GaussianResults>();
        results->params = params;
        auto schedule =
            core::schedule::gaussianScheduleFromSpec(params.schedule.toStdString(), params.numSteps);
        if (!schedule) throw failure(schedule.error());
        results->schedule = *schedule;
        if (previous && previous->oracle && sameGammaInputs(previous->params, params)) {
            results->estimate = previous->estimate;
            results->gamma = previous->gamma;
            results->dataVariance = previous->dataVariance;
            results->oracle = previous->oracle;
            results->gammaReused = true;
        } else {
            auto oracle = core::data::gaussianOracleFromSpec(params.data.toStdString());
            if (!oracle) throw failure(oracle.error());
            results->oracle = *oracle;
            core::gaussian::GammaParams gammaParams;
            gammaParams.numSamples = params.gammaSamples;
            gammaParams.seed = params.seed;
            gammaParams.estimator = params.denoisingEstimator
                                        ? core::gaussian::GammaEstimator::Denoising
                                        : core::gaussian::GammaEstimator::Score;
            gammaParams.parallel.numThreads = threads;
            progress.setStage("estimating Γ");
            const core::model::GaussianEpsModel& model = **oracle;
            const core::model::GaussianDataSampler& data = **oracle;
            auto estimate = core::gaussian::estimateGamma(model, data, results->schedule,
                                                          gammaParams, &progress);
            if (!estimate) {
                if (estimate.error().code == core::ErrorCode::Cancelled) return {};
                throw failure(estimate.error());
            }
            results->estimate = *estimate;
            auto table = core::gaussian::gammaTable(results->estimate, params.numSteps);
            if (!table) throw failure(table.error());
            results->gamma = *table;
            results->dataVariance = data.variancePerDimension();
        }
        core::gaussian::DpOptions options;
        options.parallel.numThreads = threads;
        auto trajectory = core::gaussian::resolveTrajectory(
            params.trajectorySpec(), results->schedule, &results->gamma, options);
        if (!trajectory) throw failure(trajectory.error());
        results->trajectory = *trajectory;
        core::gaussian::ForwardProcess forward;
        forward.eta = params.eta;
        auto pairs = core::gaussian::trajectoryVariances(results->schedule, results->gamma,
                                                         results->trajectory.timesteps, forward);
        if (!pairs) throw failure(pairs.error());
        results->pairs = *pairs;
        // The Trajectory view's rows and matrix: all three kinds at this K on the same Γ.
        auto cost = core::gaussian::dpCostMatrix(results->schedule, results->gamma, {},
                                                 {.numThreads = threads});
        if (!cost) throw failure(cost.error());
        results->cost = std::move(cost).value();
        const std::string k = std::to_string(params.pathSteps);
        for (auto [spec, out] : {std::pair{"dp:" + k, &results->dpTimesteps},
                                 std::pair{"even:" + k, &results->evenTimesteps},
                                 std::pair{"quadratic:" + k, &results->quadraticTimesteps}}) {
            if (spec.rfind(params.trajectory.toStdString(), 0) == 0) {
                *out = results->trajectory.timesteps;  // already resolved
                continue;
            }
            auto resolved = core::gaussian::resolveTrajectory(spec, results->schedule,
                                                              &results->gamma, options);
            if (!resolved) throw failure(resolved.error());
            *out = resolved->timesteps;
        }
        std::shared_ptr<const GaussianResults> done = std::move(results);
        return [this, done] {
            if (!(done->params == m_document->gaussian())) {
                return;  // a newer request is on its way
            }
            m_results = done;
            m_gamma->setEstimate(done->schedule, done->estimate, done->dataVariance);
            QString label = QString::fromStdString(done->trajectory.kind);
            if (!done->trajectory.gammaOverBound.empty()) {
                label += QString(" (Γ over its bound at %1 timesteps)")
                             .arg(done->trajectory.gammaOverBound.size());
            }
            m_variance->setPairs(done->schedule, done->pairs, label);
            views::GaussianTrajectoryView::Rows rows;
            rows.dp = done->dpTimesteps;
            rows.even = done->evenTimesteps;
            rows.quadratic = done->quadraticTimesteps;
            rows.costDp = core::gaussian::trajectoryCost(done->cost, rows.dp);
            rows.costEven = core::gaussian::trajectoryCost(done->cost, rows.even);
            rows.costQuadratic = core::gaussian::trajectoryCost(done->cost, rows.quadratic);
            m_trajectory->setTrajectories(done->cost, rows);
            // Chained, so the views above show before the particles are sampled.
            startParticlesJob(done);
        };
    });
}

void GaussianExplorer::startParticlesJob(std::shared_ptr<const GaussianResults> base) {
    const document::GaussianParams params = m_document->gaussian();
    const int threads = core::hardwareThreads();
    m_runner.start(kParticlesJob, [params, base, threads, this](core::Progress& progress)
                                    -> std::function<void()> {
        auto results = std::make_shared<GaussianResults>(*base);
        results->params = params;
        if (base->params != params) {
            results->gammaReused = true;  // only the sampler settings changed
        }
        // The particles fail on their own (shown in their view), never the other views.
        auto particles = jobs::computeParticleFrames(*results->oracle, results->schedule,
                                                     results->gamma, results->trajectory.timesteps,
                                                     params, progress, threads);
        if (particles) {
            results->particles =
                std::make_shared<const jobs::ParticleFrames>(std::move(particles).value());
        } else if (particles.error().code == core::ErrorCode::Cancelled) {
            return {};
        } else {
            results->particlesError = QString::fromStdString(particles.error().toString());
        }
        std::shared_ptr<const GaussianResults> done = std::move(results);
        return [this, done] {
            if (!(done->params == m_document->gaussian())) {
                return;  // a newer request is on its way
            }
            m_results = done;
            if (done->particles) {
                m_particles->setFrames(done->particles);
            } else {
                m_particles->clear(done->particlesError);
            }
        };
    });
}

void GaussianExplorer::waitForJobs() {
    if (m_coalesce.isActive()) {
        m_coalesce.stop();
        startJob();
    }
    m_runner.waitForFinished();
    QCoreApplication::processEvents();
}

void GaussianExplorer::cancelJobs() {
    m_coalesce.stop();
    m_runner.cancel();
}

}  // namespace ui
