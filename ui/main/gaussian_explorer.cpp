// SPDX-License-Identifier: MIT
#include "ui/main/gaussian_explorer.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPushButton>
#include <optional>
#include <stdexcept>

#include "core/data/gaussian_data.h"
#include "core/gaussian/nll.h"
#include "core/project/gaussian_files.h"
#include "core/project/timesteps_export.h"
#include "core/trajectory/least_cost_path.h"
#include "core/util/parallel.h"
#include "ui/document/bundled_data.h"
#include "ui/document/model_files.h"
#include "ui/jobs/typed_job.h"
#include "ui/views/compare_view.h"
#include "ui/views/gamma_view.h"
#include "ui/views/gaussian_trajectory_view.h"
#include "ui/views/lab_view.h"
#include "ui/views/particles_view.h"
#include "ui/views/variance_view.h"

namespace ui {
namespace {

const QString kParticlesJob = QT_TRANSLATE_NOOP("ui::jobs", "Particles");

// The lab's configurations concern the Lab view alone: editing them starts no Γ job.
bool sameExceptLab(document::GaussianParams a, const document::GaussianParams& b) {
    a.lab = b.lab;
    return a == b;
}

// The Particles view's settings: only the particles depend on them.
bool sameExceptSampler(document::GaussianParams a, const document::GaussianParams& b) {
    a.lab = b.lab;
    a.sampler = b.sampler;
    a.compareSampler = b.compareSampler;
    a.clipFirst = b.clipFirst;
    a.particleCount = b.particleCount;
    return a == b;
}

// Stages the core's NLL sweep reports, shown translated in the status line.
[[maybe_unused]] const char* const kNllStages[] = {QT_TRANSLATE_NOOP("ui::jobs", "DP paths"),
                                                   QT_TRANSLATE_NOOP("ui::jobs", "negative ELBO")};

// Γ depends on these parameters only; the rest (η, trajectory, K) reuse it.
bool sameGammaInputs(const document::GaussianParams& a, const document::GaussianParams& b) {
    return a.gammaKey() == b.gammaKey();
}

}  // namespace

GaussianExplorer::GaussianExplorer(document::ProjectDocument* document, QObject* parent)
    : QObject(parent),
      m_document(document),
      m_gamma(new views::GammaView),
      m_variance(new views::VarianceView),
      m_trajectory(new views::GaussianTrajectoryView),
      m_particles(new views::ParticlesView),
      m_compare(new views::CompareView),
      m_lab(new views::LabView(document)) {
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(jobs::kCoalesceMs);
    connect(&m_coalesce, &QTimer::timeout, this, &GaussianExplorer::startJob);
    connect(m_document, &document::ProjectDocument::gaussianChanged, this,
            &GaussianExplorer::onParamsChanged);
    connect(m_document, &document::ProjectDocument::projectReplaced, this, [this] {
        // Another project: every view shows the previous one's results until its own arrive;
        // the lab's run belongs to the previous project and goes.
        for (auto& [name, view] : views()) {
            if (view != m_lab) view->setStale(true);
        }
        m_labRunner.cancel();
        m_lab->clearResult();
        m_requested.reset();  // a new project: its Γ job starts whatever its parameters
        onParamsChanged();
    });
    connect(m_document, &document::ProjectDocument::categoricalChanged, this,
            &GaussianExplorer::onCategoricalChanged);
    connect(m_document, &document::ProjectDocument::projectReplaced, this,
            &GaussianExplorer::onCategoricalChanged);
    connect(m_trajectory, &views::GaussianTrajectoryView::nllRequested, this,
            &GaussianExplorer::computeNllVsK);
    connect(m_trajectory, &views::GaussianTrajectoryView::useAsTypedList, this,
            [this](const QString& steps) {
                document::GaussianParams params = m_document->gaussian();
                params.trajectory = document::GaussianTrajectory::List;
                params.trajectoryList = steps.toStdString();
                if (core::Status ok = m_document->setGaussian(params, tr("Use as typed list"));
                    !ok) {
                    m_trajectory->setMessage(
                        tr("Use as typed list: ") + document::qs(ok.error().toString()), true);
                }
            });
    connect(&m_nllRunner, &jobs::JobRunner::started, this, [this] {
        m_trajectory->setNllStatus(tr("Computing the NLL against the number of steps…"), true);
    });
    connect(&m_nllRunner, &jobs::JobRunner::progressChanged, this,
            [this](int permille, const QString& stage) {
                m_trajectory->setNllStatus(
                    tr("Computing the NLL against the number of steps: %1 (%2%)…")
                        .arg(QCoreApplication::translate("ui::jobs", stage.toUtf8().constData()))
                        .arg(permille / 10),
                    true);
            });
    connect(&m_nllRunner, &jobs::JobRunner::finished, this,
            [this] { m_trajectory->nllButton()->setEnabled(true); });
    connect(&m_nllRunner, &jobs::JobRunner::cancelled, this, [this] {
        m_trajectory->setNllStatus(
            m_nll ? tr("Cancelled; the curves shown are the previous ones.") : tr("Cancelled."),
            false);
    });
    connect(&m_nllRunner, &jobs::JobRunner::failed, this,
            [this](const QString& name, const QString& message) {
                m_trajectory->setNllStatus(
                    tr("%1 failed: %2").arg(jobs::shownJobName(name), message), false);
                emit jobMessage(jobs::shownJobName(name) + ": " + message, true);
            });
    connect(&m_runner, &jobs::JobRunner::failed, this,
            [this](const QString& name, const QString& message) {
                m_gamma->setMessage(jobs::shownJobName(name) + ": " + message, true);
                m_variance->setMessage(jobs::shownJobName(name) + ": " + message, true);
                m_particles->clear(jobs::shownJobName(name) + ": " + message);
                emit jobMessage(jobs::shownJobName(name) + ": " + message, true);
            });
    // The particles keep their last frames while new ones are sampled; the footer says so.
    connect(&m_runner, &jobs::JobRunner::started, this, [this](const QString& name) {
        if (name == kParticlesJob) m_particles->setMessage(tr("Sampling particles…"));
    });
    connect(&m_runner, &jobs::JobRunner::cancelled, this, [this](const QString& name) {
        if (name == kParticlesJob) m_particles->setMessage(tr("Particle sampling cancelled."));
    });
    connectLab();
    onParamsChanged();
    onCategoricalChanged();
}

void GaussianExplorer::connectLab() {
    connect(m_lab, &views::LabView::runRequested, this, &GaussianExplorer::runLab);
    connect(m_lab, &views::LabView::cancelRequested, &m_labRunner, &jobs::JobRunner::cancel);
    connect(&m_labRunner, &jobs::JobRunner::started, this, [this] {
        m_lab->setRunning(true);
        m_lab->setStatus(tr("Running the lab…"));
    });
    connect(&m_labRunner, &jobs::JobRunner::progressChanged, m_lab, &views::LabView::setProgress);
    connect(&m_labRunner, &jobs::JobRunner::finished, this, [this] { m_lab->setRunning(false); });
    connect(&m_labRunner, &jobs::JobRunner::cancelled, this, [this] {
        m_lab->setRunning(false);
        m_lab->setStatus(m_lab->result() ? tr("Cancelled; the charts show the previous run.")
                                         : tr("Cancelled."));
    });
    connect(&m_labRunner, &jobs::JobRunner::failed, this,
            [this](const QString& name, const QString& message) {
                m_lab->setRunning(false);
                m_lab->setStatus(tr("%1 failed: %2").arg(jobs::shownJobName(name), message));
                emit jobMessage(jobs::shownJobName(name) + ": " + message, true);
            });
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
views::CompareView* GaussianExplorer::compareView() const { return m_compare; }
views::LabView* GaussianExplorer::labView() const { return m_lab; }

std::vector<std::pair<QString, charts::ViewPanel*>> GaussianExplorer::views() const {
    return {{"particles", m_particles}, {"gamma", m_gamma},
            {"variance", m_variance},   {"gaussian-trajectory", m_trajectory},
            {"compare", m_compare},     {"lab", m_lab}};
}

void GaussianExplorer::onParamsChanged() {
    updateLabStale();
    if (m_requested && sameExceptLab(*m_requested, m_document->gaussian())) {
        return;  // only the lab changed: the other views stay as they are
    }
    m_coalesce.start();
    updateNllStale();
    startCompareJob();
}

void GaussianExplorer::onCategoricalChanged() { startCompareJob(); }

void GaussianExplorer::startCompareJob() {
    const document::CategoricalParams categorical = m_document->categorical();
    const document::GaussianParams gaussian = m_document->gaussian();
    const std::string key = core::project::compareCurvesKey(categorical, gaussian);
    if (key == m_compareKey) {
        m_compare->setStale(false);  // nothing the curves depend on changed: still current
        return;
    }
    m_compareKey = key;
    m_compareRunner.start(
        QT_TRANSLATE_NOOP("ui::jobs", "Compare curves"),
        [categorical, gaussian, this](core::Progress&) -> std::function<void()> {
            const auto& digits = document::bundledDigits();
            auto curves = std::make_shared<core::Result<views::CompareCurves>>(
                digits ? core::project::computeCompareCurves(categorical, gaussian, *digits)
                       : core::Result<views::CompareCurves>(digits.error()));
            const auto provenance = core::project::compareCurvesProvenance(categorical, gaussian);
            return [this, curves, provenance] {
                if (m_compare) m_compare->showCurves(std::move(*curves), provenance);
            };
        });
}

void GaussianExplorer::updateNllStale() {
    // Only Γ's inputs matter: the sweep covers every K and both kinds, and the NLL is of the
    // DDPM forward process whatever η is.
    if (m_nll) {
        m_trajectory->setNllStale(!sameGammaInputs(m_nllParams, m_document->gaussian()));
    }
}

void GaussianExplorer::updateLabStale() {
    if (!m_lab->result()) return;
    const document::GaussianParams& now = m_document->gaussian();
    // The lab depends on its settings and on what Γ depends on (the project's schedule, N,
    // data, model, M, estimator, seed); the reference also on the DP variant.
    m_lab->setStale(!(m_labParams.lab == now.lab && m_labParams.gammaKey() == now.gammaKey() &&
                      m_labParams.dpVariant == now.dpVariant));
}

void GaussianExplorer::runLab() {
    const document::GaussianParams params = m_document->gaussian();
    if (params.lab.configs.empty()) {
        m_lab->setStatus(tr("Add a configuration or pick a preset first."));
        return;
    }
    const int threads = core::defaultThreads();
    jobs::startTyped(
        m_labRunner, QT_TRANSLATE_NOOP("ui::jobs", "Lab"),
        [params, threads](core::Progress& progress) {
            core::ParallelOptions parallel;
            parallel.numThreads = threads;
            return core::project::runLab(params, params.lab, document::appSources(), parallel,
                                         &progress);
        },
        [] { return true; },  // each run is asked for by the Run button: always shown
        [this, params](std::shared_ptr<const core::project::LabResult> done) {
            m_labParams = params;
            m_lab->setProvenance(params.provenance());
            m_lab->setResult(done);
            updateLabStale();
        });
}

void GaussianExplorer::computeNllVsK() {
    std::shared_ptr<const GaussianResults> results = m_results;
    if (!results || !sameGammaInputs(results->params, m_document->gaussian())) {
        m_trajectory->setNllStatus(tr("Wait for Γ of the current parameters, then press again."),
                                   false);
        return;
    }
    const int threads = core::defaultThreads();
    jobs::startTyped(
        m_nllRunner, QT_TRANSLATE_NOOP("ui::jobs", "NLL vs K"),
        [results, threads](core::Progress& progress) -> core::Result<views::NllCurves> {
            QElapsedTimer timer;
            timer.start();
            const std::vector<int> ks = core::project::defaultSweepKs(results->params.numSteps);
            if (ks.empty()) {
                return core::invalidArgument("N", std::to_string(results->params.numSteps),
                                             "below 2: no trajectory to evaluate");
            }
            core::project::GaussianSetup setup;
            setup.schedule = results->schedule;
            setup.data = results->data;
            setup.model = results->model;
            auto sweep = core::project::nllSweep(results->params, setup, document::appSources(),
                                                 results->gamma, ks, core::project::kNllPoints,
                                                 threads, progress);
            if (!sweep) return sweep.error();
            views::NllCurves curves;
            static_cast<core::project::NllSweep&>(curves) = std::move(sweep).value();
            // Which model the curves score and which Γ sets their variances: an imported Γ
            // is not the model's own unless it was estimated for it.
            const bool network = !results->params.model.empty() && results->modelError.empty();
            using core::project::GammaSource;
            const QString gamma =
                results->gammaSource == GammaSource::Estimated
                    ? tr("estimated from M = %1 samples").arg(results->params.gammaSamples)
                : results->gammaSource == GammaSource::Imported
                    ? tr("imported from %1").arg(document::qs(results->params.importedGammaName))
                    : tr("saved with the project");
            curves.scored =
                tr("scores %1 with Γ %2")
                    .arg(network
                             ? tr("the network %1")
                                   .arg(QFileInfo(document::qs(results->params.model)).fileName())
                             : tr("the exact oracle"),
                         gamma);
            curves.seconds = timer.elapsed() / 1000.0;
            return curves;
        },
        [] { return true; },  // asked for by a button; shown marked stale when inputs changed
        [this, results](std::shared_ptr<const views::NllCurves> done) {
            m_nll = done;
            m_nllParams = results->params;
            m_trajectory->setNllCurves(*done);
            updateNllStale();
        });
}

namespace {

// The Trajectory view's rows of one set of results: the DP, even and quadratic paths with
// their costs, a typed list or spacing family in a row of its own, the one in use.
views::GaussianTrajectoryView::Rows trajectoryRows(
    const std::shared_ptr<const GaussianResults>& done) {
    views::GaussianTrajectoryView::Rows rows;
    rows.dp = done->dpTimesteps;
    rows.even = done->evenTimesteps;
    rows.quadratic = done->quadraticTimesteps;
    rows.costDp = core::gaussian::trajectoryCost(done->cost, rows.dp);
    rows.costEven = core::gaussian::trajectoryCost(done->cost, rows.even);
    rows.costQuadratic = core::gaussian::trajectoryCost(done->cost, rows.quadratic);
    // A typed list or a spacing family gets a row of its own.
    if (const auto kind = done->params.trajectory;
        kind != document::GaussianTrajectory::Dp && kind != document::GaussianTrajectory::Even &&
        kind != document::GaussianTrajectory::Quadratic) {
        rows.typed = done->trajectory.timesteps;
        rows.costTyped = core::gaussian::trajectoryCost(done->cost, rows.typed);
        if (kind != document::GaussianTrajectory::List) {
            rows.typedLabel = QString::fromStdString(done->params.trajectorySpec());
        }
    }
    rows.inUse = done->trajectory.timesteps;
    rows.inUseClass =
        core::project::pipelineClassOf(done->params.trajectorySpec(), done->params.numSteps);
    rows.schedule = std::shared_ptr<const core::schedule::GaussianSchedule>(done, &done->schedule);
    return rows;
}

}  // namespace

void GaussianExplorer::startJob() {
    const document::GaussianParams params = m_document->gaussian();
    m_requested = params;
    std::shared_ptr<const GaussianResults> previous = m_results;
    if (previous && previous->data && sameExceptSampler(previous->params, params)) {
        // Γ, trajectory and variances stay as they are: they are the new project's already.
        for (charts::ViewPanel* view :
             {static_cast<charts::ViewPanel*>(m_gamma), static_cast<charts::ViewPanel*>(m_variance),
              static_cast<charts::ViewPanel*>(m_trajectory)}) {
            view->setStale(false);
        }
        m_particles->awaitResults();
        startParticlesJob(previous);
        return;
    }
    for (charts::ViewPanel* view :
         {static_cast<charts::ViewPanel*>(m_gamma), static_cast<charts::ViewPanel*>(m_variance),
          static_cast<charts::ViewPanel*>(m_trajectory),
          static_cast<charts::ViewPanel*>(m_particles)}) {
        view->awaitResults();  // out of date unless the new results come quickly
    }
    const int threads = core::defaultThreads();
    const document::GammaCache cache = m_document->project().gammaCache;
    m_gamma->setMessage(
        previous && previous->params.gammaKey() == params.gammaKey()
            ? m_gamma->message()
            : tr("Estimating Γ with M = %1 samples per timestep…").arg(params.gammaSamples));
    jobs::startTyped(
        m_runner, QT_TRANSLATE_NOOP("ui::jobs", "Γ and variances"),
        [params, previous, cache, threads, partials = m_partialGammas](core::Progress& progress) {
            return jobs::computeGaussianResults(params, previous, cache, *partials, threads,
                                                progress);
        },
        [this](const std::shared_ptr<GaussianResults>& done) {
            return sameExceptLab(done->params, m_document->gaussian());
        },
        [this](std::shared_ptr<const std::shared_ptr<GaussianResults>> done) {
            showResults(*done);
        });
}

// The results of the Γ job, in every view they feed; then the particles, chained so that the
// views show before the particles are sampled.
void GaussianExplorer::showResults(const std::shared_ptr<const GaussianResults>& done) {
    m_results = done;
    {
        std::lock_guard lock(m_partialGammas->mutex);
        m_partialGammas->byKey.erase(done->params.gammaKey());
        m_partialGammas->byKey.erase(done->oracleKey);
    }
    using core::project::GammaSource;
    if (done->gammaSource == GammaSource::Estimated && done->modelError.empty()) {
        m_document->setGammaCache({done->params.gammaKey(), done->estimate, done->dataVariance});
    }
    m_gamma->setEstimate(done->schedule, done->estimate, done->dataVariance,
                         done->oracleEstimate ? tr("network") : tr("oracle"),
                         done->oracleEstimate ? &*done->oracleEstimate : nullptr);
    if (!done->modelError.empty()) {
        const QString message =
            tr("Model: %1 — using the exact oracle.").arg(document::qs(done->modelError));
        emit jobMessage(message, true);
        m_gamma->setMessage(message, true);
    } else if (done->gammaSource != GammaSource::Estimated) {
        m_gamma->setMessage(
            m_gamma->message() +
            (done->gammaSource == GammaSource::Imported
                 ? tr(" Γ imported from %1.").arg(document::qs(done->params.importedGammaName))
                 : tr(" Γ saved with the project.")));
    } else if (done->gammaResumedAfter > 0) {
        m_gamma->setMessage(m_gamma->message() +
                            (done->gammaResumedAfter < done->params.numSteps
                                 ? tr(" Resumed after n = %1, where a cancel had stopped it.")
                                       .arg(done->gammaResumedAfter)
                                 : tr(" Kept from a run cancelled after Γ was done.")));
    }
    QString label = QString::fromStdString(done->trajectory.kind);
    if (!done->trajectory.gammaOverBound.empty()) {
        label +=
            tr(" (Γ over its bound at %1 timesteps)").arg(done->trajectory.gammaOverBound.size());
    }
    for (charts::ViewPanel* view :
         {static_cast<charts::ViewPanel*>(m_gamma), static_cast<charts::ViewPanel*>(m_variance),
          static_cast<charts::ViewPanel*>(m_trajectory),
          static_cast<charts::ViewPanel*>(m_particles)}) {
        view->setProvenance(done->params.provenance());
    }
    m_variance->setPairs(done->schedule, done->pairs, label);
    const views::GaussianTrajectoryView::Rows rows = trajectoryRows(done);
    // Shares the results' matrix (aliasing), no copy.
    m_trajectory->setTrajectories(std::shared_ptr<const core::Matrix>(done, &done->cost), rows);
    // Chained, so the views above show before the particles are sampled.
    startParticlesJob(done);
}

void GaussianExplorer::startParticlesJob(std::shared_ptr<const GaussianResults> base) {
    const document::GaussianParams params = m_document->gaussian();
    const int threads = core::defaultThreads();
    m_runner.start(
        kParticlesJob,
        [params, base, threads, this](core::Progress& progress) -> std::function<void()> {
            auto results = std::make_shared<GaussianResults>(*base);
            results->params = params;
            if (base->params != params) {
                results->gammaReused = true;  // only the sampler settings changed
            }
            // The particles fail on their own (shown in their view), never the other views.
            auto particles = jobs::computeParticleFrames(
                *results->model, *results->data, results->schedule, results->gamma,
                results->trajectory.timesteps, params, progress, threads);
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
                if (!sameExceptLab(done->params, m_document->gaussian())) {
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

QString GaussianExplorer::exportGamma(const QString& path) const {
    if (!m_results) {
        return tr("Γ is not computed yet");
    }
    // NPY holds ms_eps_n = β̄_n Γ_n, as the Analytic-DPM code writes it; CSV holds Γ.
    const auto written =
        core::project::writeGammaTable(path.toStdString(), m_results->gamma, m_results->schedule);
    return written ? QString() : QString::fromStdString(written.error().toString());
}

void GaussianExplorer::waitForJobs() {
    if (m_coalesce.isActive()) {
        m_coalesce.stop();
        startJob();
    }
    m_runner.waitForFinished();
    m_nllRunner.waitForFinished();
    m_labRunner.waitForFinished();
    m_compareRunner.waitForFinished();
    QCoreApplication::processEvents();
}

void GaussianExplorer::cancelJobs() {
    m_coalesce.stop();
    m_runner.cancel();
    m_nllRunner.cancel();
    m_labRunner.cancel();
    m_fileRunner.cancel();  // the panel's reads show the status bar's Cancel too
}

}  // namespace ui
