// SPDX-License-Identifier: MIT
#include "ui/main/categorical_explorer.h"

#include <QCoreApplication>

#include <cmath>

#include "core/util/parallel.h"
#include "ui/animation/chains_view.h"
#include "ui/views/kernel_comparison_view.h"
#include "ui/views/matrices_view.h"
#include "ui/views/schedule_view.h"
#include "ui/views/step_cost_view.h"

namespace ui {
namespace {
// Step-cost matrices beyond this many kernel evaluations (~10 s on one core) are not started
// automatically: the view says why and how to make it smaller.
constexpr double kMaxCostWork = 4e9;
// Coalescing delay for edits that arrive in bursts (drags): one recomputation per burst.
constexpr int kCoalesceMs = 40;
}  // namespace

CategoricalExplorer::CategoricalExplorer(document::ProjectDocument* document, QObject* parent)
    : QObject(parent),
      m_document(document),
      m_chains(new animation::ChainsView),
      m_schedule(new views::ScheduleView),
      m_stepCosts(new views::StepCostView),
      m_matrices(new views::MatricesView),
      m_kernels(new views::KernelComparisonView) {
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(kCoalesceMs);
    connect(&m_coalesce, &QTimer::timeout, this, &CategoricalExplorer::startJobs);
    connect(m_document, &document::ProjectDocument::categoricalChanged, this,
            &CategoricalExplorer::onParamsChanged);
    // Another project: every view shows the previous one's results until its own arrive.
    connect(m_document, &document::ProjectDocument::projectReplaced, this, [this] {
        for (auto& [name, view] : views()) view->setStale(true);
    });
    connect(m_document, &document::ProjectDocument::projectReplaced, this,
            &CategoricalExplorer::onParamsChanged);
    for (jobs::JobRunner* runner : {&m_setupRunner, &m_costRunner, &m_chainRunner}) {
        connect(runner, &jobs::JobRunner::failed, this,
                [this](const QString& name, const QString& message) {
                    emit jobMessage(jobs::shownJobName(name) + ": " + message, true);
                });
    }
    onParamsChanged();
}

CategoricalExplorer::~CategoricalExplorer() {
    cancelJobs();
    // The views are owned by whoever shows them; if none took them, delete them here.
    for (auto& [name, view] : views()) {
        if (view != nullptr && view->parent() == nullptr) {
            delete view;
        }
    }
}

animation::ChainsView* CategoricalExplorer::chainsView() const { return m_chains; }
views::ScheduleView* CategoricalExplorer::scheduleView() const { return m_schedule; }
views::StepCostView* CategoricalExplorer::stepCostView() const { return m_stepCosts; }
views::MatricesView* CategoricalExplorer::matricesView() const { return m_matrices; }
views::KernelComparisonView* CategoricalExplorer::kernelView() const { return m_kernels; }

std::vector<std::pair<QString, charts::ViewPanel*>> CategoricalExplorer::views() const {
    return {{"trajectories", m_chains},
            {"schedule", m_schedule},
            {"step-costs", m_stepCosts},
            {"matrices", m_matrices},
            {"kernels", m_kernels}};
}

void CategoricalExplorer::onParamsChanged() {
    const document::CategoricalParams params = m_document->categorical();
    if (!document::setupReadsFiles(params)) {
        m_setupRunner.cancel();
        useSetup(document::buildCategoricalSetup(params));
        return;
    }
    // A table file or a checkpoint not yet loaded: read off the GUI thread; the views keep the
    // previous set-up until it arrives, and an edit made meanwhile wins.
    m_costRunner.cancel();
    m_chainRunner.cancel();
    m_setupRunner.start(
        QT_TRANSLATE_NOOP("ui::jobs", "Reading the data and model"),
        [params, this](core::Progress&) -> std::function<void()> {
            auto setup =
                std::make_shared<core::Result<std::shared_ptr<const document::CategoricalSetup>>>(
                    document::buildCategoricalSetup(params));
            return [this, params, setup] {
                if (params == m_document->categorical()) useSetup(std::move(*setup));
            };
        });
}

void CategoricalExplorer::useSetup(
    core::Result<std::shared_ptr<const document::CategoricalSetup>> setup) {
    if (!setup) {
        // The document only holds valid params; a failure here is a bug worth showing.
        emit jobMessage(QString::fromStdString(setup.error().toString()), true);
        return;
    }
    m_setup = *setup;
    if (!m_setup->modelError.empty()) {
        // The project still opens: the exact oracle stands in, and the user is told why.
        emit jobMessage(
            tr("Model: %1 — using the exact oracle.").arg(document::qs(m_setup->modelError)), true);
    }
    emit curveChanged(m_setup->curve);
    for (auto& [name, view] : views()) {
        view->setProvenance(m_setup->params.provenance());
    }
    // Cheap views at once: O(N K²) curves and K×K matrices.
    m_schedule->setSetup(m_setup);
    m_matrices->setSetup(m_setup);
    if (m_setup->params.trajectory != document::CategoricalTrajectory::Dp) {
        applyTrajectory(m_setup->nominalTrajectory());
    } else if (m_costs && m_costs->dpNodes.size() == static_cast<size_t>(m_setup->params.pathSteps) + 1 &&
               m_costs->dpNodes.back() == m_setup->params.numSteps) {
        applyTrajectory(m_costs->dpNodes);  // until the new DP path arrives
    } else {
        applyTrajectory(m_setup->nominalTrajectory());
    }
    m_coalesce.start();
}

void CategoricalExplorer::applyTrajectory(const std::vector<int>& nodes) {
    const bool changed = nodes != m_trajectory;
    m_trajectory = nodes;
    const bool dp = m_setup->params.trajectory == document::CategoricalTrajectory::Dp;
    m_schedule->setTrajectory(nodes, dp ? tr("DP-optimal nodes") : tr("trajectory nodes"));
    m_kernels->setSetup(m_setup, nodes);
    if (changed) {
        emit stepsChanged(static_cast<int>(nodes.size()) - 1);
    }
    setPosition(m_position);
}

void CategoricalExplorer::startJobs() {
    if (!m_setup) {
        return;
    }
    auto setup = m_setup;
    const double work = core::project::categoricalCostWork(setup->params);
    if (work > kMaxCostWork) {
        m_costRunner.cancel();
        m_stepCosts->clear(tr("The step-cost matrix needs about %1 kernel evaluations at "
                              "N = %2 with %3 steps: reduce N or the steps to compute the DP path.")
                               .arg(work, 0, 'g', 2)
                               .arg(setup->params.numSteps)
                               .arg(setup->numClasses()));
        startChains();
        return;
    }
    m_stepCosts->setMessage(tr("Computing step costs…"));
    const int threads = core::defaultThreads();
    m_costRunner.start(
        QT_TRANSLATE_NOOP("ui::jobs", "Step costs and DP"),
        [setup, threads, this](core::Progress& progress) -> std::function<void()> {
            auto result = core::project::computeCategoricalCosts(*setup, progress, threads);
            if (!result) {
                if (result.error().code == core::ErrorCode::Cancelled) {
                    return {};
                }
                throw std::runtime_error(result.error().toString());
            }
            auto costs =
                std::make_shared<const core::project::CategoricalCosts>(std::move(result).value());
            return [this, setup, costs] {
                if (setup != m_setup) {
                    return;  // parameters changed meanwhile; a newer job is on its way
                }
                m_costs = costs;
                m_stepCosts->setCosts(costs, setup->grid.t);
                if (setup->params.trajectory == document::CategoricalTrajectory::Dp &&
                    !costs->dpAvailable) {
                    emit jobMessage(
                        tr("The DP needs exact step costs between every pair of steps, out "
                           "of reach for this data: the even trajectory is used."),
                        false);
                }
                if (setup->params.trajectory == document::CategoricalTrajectory::Dp &&
                    costs->dpNodes != m_trajectory) {
                    applyTrajectory(costs->dpNodes);
                    startChains();
                }
            };
        });
    startChains();
}

void CategoricalExplorer::startChains() {
    auto setup = m_setup;
    const std::vector<int> trajectory = m_trajectory;
    m_chainRunner.start(
        QT_TRANSLATE_NOOP("ui::jobs", "Sampling chains"),
        [setup, trajectory, this](core::Progress& progress) -> std::function<void()> {
            auto result = core::project::sampleCategoricalChains(*setup, trajectory, progress);
            if (!result) {
                if (result.error().code == core::ErrorCode::Cancelled) {
                    return {};
                }
                throw std::runtime_error(result.error().toString());
            }
            auto chains =
                std::make_shared<const core::project::CategoricalChains>(std::move(result).value());
            return [this, setup, chains] {
                if (setup != m_setup || chains->nodes != m_trajectory) {
                    return;
                }
                m_chainsData = chains;
                m_chains->setChains(chains, setup->params.numClasses);
                setPosition(m_position);
            };
        });
}

void CategoricalExplorer::setPosition(double position) {
    const int m = static_cast<int>(m_trajectory.size()) - 1;
    m_position = std::clamp(position, 0.0, static_cast<double>(std::max(0, m)));
    m_chains->setPosition(m_position);
    if (m <= 0 || !m_setup) {
        return;
    }
    // The step shown: the trajectory pair around the current node, in the chains' direction.
    const int step = std::min(static_cast<int>(std::floor(m_position)), m - 1);
    const bool forward = m_chains->direction() == animation::Direction::Forward;
    const int pairIndex = forward ? step + 1 : m - step;
    const int nodeT = m_trajectory[pairIndex];
    const int nodeS = m_trajectory[pairIndex - 1];
    m_matrices->setStep(nodeS, nodeT);
    m_schedule->setCursorTime(m_setup->grid.t[forward ? m_trajectory[std::lround(m_position)]
                                                      : m_trajectory[m - std::lround(m_position)]]);
}

void CategoricalExplorer::waitForJobs() {
    if (m_coalesce.isActive()) {
        m_coalesce.stop();
        startJobs();
    }
    // A set-up read from files starts the other jobs when it arrives, and a finished cost job
    // may start a new chain job (DP path): wait until all are idle.
    m_setupRunner.waitForFinished();
    if (m_coalesce.isActive()) {
        m_coalesce.stop();
        startJobs();
    }
    while (m_costRunner.isRunning() || m_chainRunner.isRunning()) {
        m_costRunner.waitForFinished();
        m_chainRunner.waitForFinished();
    }
    QCoreApplication::processEvents();
}

void CategoricalExplorer::cancelJobs() {
    m_coalesce.stop();
    m_setupRunner.cancel();
    m_costRunner.cancel();
    m_chainRunner.cancel();
    m_fileRunner.cancel();  // the panel's reads show the status bar's Cancel too
}

}  // namespace ui
