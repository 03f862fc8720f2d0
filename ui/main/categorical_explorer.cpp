// SPDX-License-Identifier: MIT
#include "ui/main/categorical_explorer.h"

#include <QColor>
#include <QCoreApplication>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include "core/project/decoding_runs.h"
#include "core/util/limits.h"
#include "core/util/parallel.h"
#include "ui/animation/chains_view.h"
#include "ui/document/bundled_data.h"
#include "ui/jobs/typed_job.h"
#include "ui/views/decoding_view.h"
#include "ui/views/kernel_comparison_view.h"
#include "ui/views/matrices_view.h"
#include "ui/views/schedule_view.h"
#include "ui/views/step_cost_view.h"

namespace ui {

// What the Decoding view is given: the sweep as the view draws it, and the rows that failed.
struct DecodingShown {
    std::shared_ptr<const views::DecodingViewData> data;
    QStringList failures;
};
namespace {
// Step-cost matrices beyond this many kernel evaluations (~10 s on one core) are not started
// automatically: the view says why and how to make it smaller.
constexpr double kMaxCostWork = 4e9;
// Sampler specs are typed: wait for a pause in the typing.
constexpr int kDecodeCoalesceMs = 150;
// The chains the Trajectories view animates.
constexpr int kDecodedChains = 64;

// Only the Decoding view's samplers differ: the set-up and the other views stay.
bool sameExceptDecoding(document::CategoricalParams a, const document::CategoricalParams& b) {
    a.decoding = b.decoding;
    return a == b;
}

// A sequence as a category label: its classes, separated by spaces when a class has two digits.
QString sequenceLabel(const int* x, int d, int k) {
    QString label;
    for (int i = 0; i < d; ++i) {
        if (i > 0 && k > 10) label += ' ';
        label += QString::number(x[i]);
    }
    return label;
}

}  // namespace

CategoricalExplorer::CategoricalExplorer(document::ProjectDocument* document, QObject* parent)
    : QObject(parent),
      m_document(document),
      m_chains(new animation::ChainsView),
      m_schedule(new views::ScheduleView),
      m_stepCosts(new views::StepCostView),
      m_matrices(new views::MatricesView),
      m_kernels(new views::KernelComparisonView),
      m_decoding(new views::DecodingView(document)) {
    m_decodeCoalesce.setSingleShot(true);
    m_decodeCoalesce.setInterval(kDecodeCoalesceMs);
    connect(&m_decodeCoalesce, &QTimer::timeout, this, &CategoricalExplorer::startDecoding);
    connect(m_decoding, &views::DecodingView::cancelRequested, &m_decodeRunner,
            &jobs::JobRunner::cancel);
    connect(&m_decodeRunner, &jobs::JobRunner::started, this,
            [this] { m_decoding->setRunning(true); });
    connect(&m_decodeRunner, &jobs::JobRunner::progressChanged, m_decoding,
            &views::DecodingView::setProgress);
    connect(&m_decodeRunner, &jobs::JobRunner::finished, this,
            [this] { m_decoding->setRunning(false); });
    connect(&m_decodeRunner, &jobs::JobRunner::cancelled, this, [this] {
        m_decoding->setRunning(false);
        // The previous results stay, marked out of date: nothing is on its way.
        if (m_decoding->result()) m_decoding->setStale(true, false);
        m_decoding->setStatus(m_decoding->result()
                                  ? tr("Cancelled; the charts show the previous results.")
                                  : tr("Cancelled."));
    });
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(jobs::kCoalesceMs);
    m_kernelCoalesce.setSingleShot(true);
    m_kernelCoalesce.setInterval(jobs::kCoalesceMs);
    connect(&m_kernelCoalesce, &QTimer::timeout, this, &CategoricalExplorer::startKernelComparison);
    connect(&m_coalesce, &QTimer::timeout, this, &CategoricalExplorer::startJobs);
    connect(m_document, &document::ProjectDocument::categoricalChanged, this,
            [this] { onParamsChanged(); });
    // Another project: every view shows the previous one's results until its own arrive.
    connect(m_document, &document::ProjectDocument::projectReplaced, this, [this] {
        for (auto& [name, view] : views()) view->setStale(true);
    });
    // Even with the same parameters every view must show the new project's own results.
    connect(m_document, &document::ProjectDocument::projectReplaced, this,
            [this] { onParamsChanged(true); });
    for (jobs::JobRunner* runner :
         {&m_setupRunner, &m_costRunner, &m_chainRunner, &m_decodeRunner}) {
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
views::DecodingView* CategoricalExplorer::decodingView() const { return m_decoding; }

std::vector<std::pair<QString, charts::ViewPanel*>> CategoricalExplorer::views() const {
    return {{"trajectories", m_chains}, {"schedule", m_schedule}, {"step-costs", m_stepCosts},
            {"matrices", m_matrices},   {"kernels", m_kernels},   {"decoding", m_decoding}};
}

void CategoricalExplorer::onParamsChanged(bool projectReplaced) {
    const document::CategoricalParams params = m_document->categorical();
    if (!projectReplaced && m_setup && sameExceptDecoding(params, m_setup->params) &&
        !m_setupRunner.isRunning()) {
        // Only the samplers changed: the other views keep their results.
        m_decodeCoalesce.start();
        m_decoding->awaitResults();
        if (animatedSpec(params) != m_chainsSampler) {
            m_chains->awaitResults();
            startChains();
        }
        return;
    }
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
    // Their jobs start below (startJobs): the old chains, costs and decodings are marked out of
    // date until the new ones arrive.
    for (charts::ViewPanel* view :
         {static_cast<charts::ViewPanel*>(m_chains), static_cast<charts::ViewPanel*>(m_stepCosts),
          static_cast<charts::ViewPanel*>(m_decoding)}) {
        view->awaitResults();
    }
    // Cheap views at once: O(N K²) curves and K×K matrices.
    m_schedule->setSetup(m_setup);
    m_matrices->setSetup(m_setup);
    if (m_setup->params.trajectory != document::CategoricalTrajectory::Dp) {
        applyTrajectory(m_setup->nominalTrajectory());
    } else if (m_costs &&
               m_costs->dpNodes.size() == static_cast<size_t>(m_setup->params.pathSteps) + 1 &&
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
    m_kernelCoalesce.start();
    if (changed) {
        emit stepsChanged(static_cast<int>(nodes.size()) - 1);
    }
    setPosition(m_position);
}

void CategoricalExplorer::startKernelComparison() {
    if (!m_setup) return;
    auto setup = m_setup;
    const std::vector<int> trajectory = m_trajectory;
    if (setup->params.condition == core::project::kAllConditions) {
        m_kernelRunner.cancel();
        m_kernels->showOneConditionNeeded();
        return;
    }
    m_kernelRunner.start(
        QT_TRANSLATE_NOOP("ui::jobs", "Kernel comparison"),
        [setup, trajectory, this](core::Progress&) -> std::function<void()> {
            auto result = std::make_shared<core::Result<core::project::KernelComparison>>(
                core::project::kernelComparison(*setup, trajectory));
            return [this, setup, trajectory, result] {
                if (setup != m_setup || trajectory != m_trajectory) return;  // a newer one runs
                if (!*result) {
                    m_kernels->setMessage(QString::fromStdString(result->error().toString()), true);
                    return;
                }
                m_kernels->setResult(**result, setup->numPositions(), setup->position);
            };
        });
}

void CategoricalExplorer::startJobs() {
    if (!m_setup) {
        return;
    }
    auto setup = m_setup;
    // Every pair's cost (for the DP) beyond this work is not started; the costs of the path in
    // use, one per step, still are: what is cheap is shown.
    const double work = core::project::categoricalCostWork(setup->params);
    const bool withDp = work <= kMaxCostWork;
    if (!withDp && setup->params.dataSource == document::CategoricalData::Digits) {
        // The digits' costs are the path's alone already (by Monte Carlo): nothing cheaper.
        m_costRunner.cancel();
        m_stepCosts->clear(tr("The step-cost matrix needs about %1 kernel evaluations at "
                              "N = %2 with %3 steps: reduce N or the steps to compute the DP path.")
                               .arg(work, 0, 'g', 2)
                               .arg(setup->params.numSteps)
                               .arg(setup->numClasses()));
        startChains();
        startDecoding();
        return;
    }
    m_stepCosts->setMessage(
        withDp ? tr("Computing step costs…")
               : tr("The DP path needs about %1 kernel evaluations at N = %2 with %3 classes, "
                    "out of reach: the costs of the path in use are shown. Reduce N to compute "
                    "the DP path.")
                     .arg(work, 0, 'g', 2)
                     .arg(setup->params.numSteps)
                     .arg(setup->numClasses()));
    const int threads = core::defaultThreads();
    jobs::startTyped(
        m_costRunner, QT_TRANSLATE_NOOP("ui::jobs", "Step costs and DP"),
        [setup, threads, withDp](core::Progress& progress) {
            return core::project::computeCategoricalCosts(*setup, progress, threads, 0, withDp);
        },
        [this, setup] { return setup == m_setup; },
        [this, setup](std::shared_ptr<const core::project::CategoricalCosts> costs) {
            m_costs = costs;
            m_stepCosts->setCosts(costs, setup->grid.t);
            if (setup->params.trajectory == document::CategoricalTrajectory::Dp &&
                !costs->dpAvailable) {
                emit jobMessage(tr("The DP needs exact step costs between every pair of steps, out "
                                   "of reach for this data: the even trajectory is used."),
                                false);
            }
            if (setup->params.trajectory == document::CategoricalTrajectory::Dp &&
                costs->dpNodes != m_trajectory) {
                applyTrajectory(costs->dpNodes);
                startChains();
            }
        });
    startChains();
    startDecoding();
}

void CategoricalExplorer::startChains() {
    auto setup = m_setup;
    const std::vector<int> trajectory = m_trajectory;
    m_chainsSampler = animatedSpec(m_document->categorical());
    if (!m_chainsSampler.empty()) {
        startDecodedChains();
        return;
    }
    jobs::startTyped(
        m_chainRunner, QT_TRANSLATE_NOOP("ui::jobs", "Sampling chains"),
        [setup, trajectory](core::Progress& progress) {
            return core::project::sampleCategoricalChains(*setup, trajectory, progress);
        },
        [this, setup] { return setup == m_setup; },
        [this, setup](std::shared_ptr<const core::project::CategoricalChains> chains) {
            if (chains->nodes != m_trajectory) return;  // another trajectory meanwhile
            m_chainsData = chains;
            m_chains->setChains(chains, setup->params.numClasses);
            setPosition(m_position);
        });
}

std::string CategoricalExplorer::animatedSpec(const document::CategoricalParams& params) {
    const auto& decoding = params.decoding;
    if (!params.maskState || decoding.animated < 0 ||
        decoding.animated >= static_cast<int>(decoding.configs.size())) {
        return {};
    }
    return decoding.configs[static_cast<size_t>(decoding.animated)].sampler;
}

void CategoricalExplorer::startDecoding() {
    if (!m_setup) return;
    auto setup = m_setup;
    const core::project::DecodingSettings settings = m_document->categorical().decoding;
    if (!setup->params.maskState && !settings.chain.active()) {
        m_decodeRunner.cancel();
        m_decoding->clear(
            tr("Decoding samplers need a mask state: choose π = masked (the "
               "absorbing state) in the process panel."));
        return;
    }
    // The specs first: a typo is shown under the table at once and the other samplers still run.
    const core::project::DecodingSamplers parsed = core::project::decodingSamplers(settings);
    QStringList errors;
    for (const auto& [row, error] : parsed.errors) {
        errors << tr("Row %1: %2").arg(row + 1).arg(QString::fromStdString(error.toString()));
    }
    m_decoding->setErrors(errors.join('\n'));
    if (parsed.samplers.empty()) {
        m_decodeRunner.cancel();
        m_decoding->clear(tr("No sampler to run: add one."));
        return;
    }
    const int threads = core::defaultThreads();
    m_decoding->setStatus(tr("Decoding…"));
    jobs::startTyped(
        m_decodeRunner, QT_TRANSLATE_NOOP("ui::jobs", "Decoding samplers"),
        [setup, settings, threads](core::Progress& progress) -> core::Result<DecodingShown> {
            const auto& bundled = document::bundledDigits();
            // The chain is read here, off the GUI thread.
            std::optional<core::data::MarkovChain> chain;
            if (settings.chain.active()) {
                auto read = document::decodingChain(settings.chain.source);
                if (!read) return read.error();
                chain = std::move(read).value();
            }
            auto sweep = core::project::decodingSweep(*setup, settings, bundled ? &*bundled : nullptr,
                                                      threads, progress, chain ? &*chain : nullptr);
            if (!sweep) return sweep.error();
            DecodingShown shown;
            for (const auto& part : sweep->parts) {
                if (part.error) {
                    shown.failures << tr("Row %1: %2")
                                          .arg(part.row + 1)
                                          .arg(QString::fromStdString(part.error->toString()));
                }
            }
            shown.data = decodingViewData(*setup, settings, *sweep);
            return shown;
        },
        [this, setup] { return setup == m_setup; },
        [this, setup, errors](std::shared_ptr<const DecodingShown> shown) {
            m_decoding->setProvenance(setup->params.provenance());
            m_decoding->setResult(shown->data);
            m_decoding->setStatus(tr("Done."));
            m_decoding->setErrors((errors + shown->failures).join('\n'));
        });
}

std::shared_ptr<views::DecodingViewData> CategoricalExplorer::decodingViewData(
    const document::CategoricalSetup& setup,
    const core::project::DecodingSettings& settings,
    const core::project::DecodingSweep& sweep) {
    auto data = std::make_shared<views::DecodingViewData>();
    data->exact = sweep.exact;
    data->samples = sweep.samples;
    data->steps = sweep.steps;
    data->dataEntropy = sweep.dataEntropy;
    if (sweep.digits) {
        data->digits = true;
        data->imageSide = static_cast<int>(std::lround(std::sqrt(static_cast<double>(setup.table.numPositions))));
        data->dataAccuracy = sweep.digits->accuracy;
        data->dataPositionEntropy = sweep.digits->positionEntropy;
    }
    // The distribution chart's rows: every sequence of the data or of an output.
    std::map<std::vector<int>, size_t> rowIndex;
    for (const auto& [x, p] : sweep.data) rowIndex.emplace(x, 0);
    for (const auto& part : sweep.parts) {
        for (const auto& result : part.run.results) {
            for (const auto& row : result.distribution) rowIndex.emplace(row.x, 0);
        }
    }
    size_t next = 0;
    for (auto& [x, index] : rowIndex) {
        index = next++;
        data->rowLabels << sequenceLabel(x.data(), static_cast<int>(x.size()), setup.numClasses());
        auto found = sweep.data.find(x);
        data->dataRows.push_back(found == sweep.data.end() ? 0.0 : found->second);
    }
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (sweep.chain) {
        data->chain = true;
        data->chainEntropy = sweep.chain->entropy;
        for (const auto& state : sweep.chain->states) data->chainStates << QString::fromStdString(state);
    }
    for (const auto& part : sweep.parts) {
        if (part.run.results.empty()) continue;  // failed: named in the errors
        const auto& c = settings.configs[static_cast<size_t>(part.row)];
        views::DecodingViewData::Curve curve;
        curve.name = views::decodingDisplayName(c);
        curve.colour = QColor(QString::fromStdString(core::project::decodingColour(c, part.row)));
        curve.config = part.row;
        for (const auto& measures : part.run.digits) {
            curve.accuracy.push_back(measures.accuracy);
            curve.accuracyError.push_back(measures.accuracyStandardError);
        }
        for (const auto& result : part.run.results) {
            curve.entropy.push_back(result.entropy.value.value_or(nan));
            // A null KL is infinite: the output misses part of the other's support.
            curve.klDataOutput.push_back(result.klDataOutput.value.value_or(inf));
            curve.klOutputData.push_back(result.klOutputData.value.value_or(inf));
            curve.totalVariation.push_back(result.totalVariation.value.value_or(nan));
            curve.positionEntropy.push_back(result.positionEntropy.value.value_or(nan));
            curve.entropyError.push_back(result.entropy.standardError);
            curve.klDataOutputError.push_back(result.klDataOutput.standardError);
            curve.klOutputDataError.push_back(result.klOutputData.standardError);
            curve.totalVariationError.push_back(result.totalVariation.standardError);
            curve.positionEntropyError.push_back(result.positionEntropy.standardError);
            std::vector<double> rows(rowIndex.size(), 0.0);
            for (const auto& row : result.distribution) rows[rowIndex.at(row.x)] = row.p;
            curve.rows.push_back(std::move(rows));
            curve.commit.push_back(result.commit);
        }
        for (const auto& m : part.chainMeasures) {
            curve.crossEntropy.push_back(m.crossEntropy.value.value_or(nan));
            curve.crossEntropyError.push_back(m.crossEntropy.standardError);
            curve.pairTotalVariation.push_back(m.pairTotalVariation.value.value_or(nan));
            curve.pairTotalVariationError.push_back(m.pairTotalVariation.standardError);
            curve.longestRepeat.push_back(m.longestRepeat.value.value_or(nan));
            curve.longestRepeatError.push_back(m.longestRepeat.standardError);
        }
        curve.shown = part.chainShown;
        data->curves.push_back(std::move(curve));
    }
    data->note = decodingNote(setup, sweep);
    return data;
}

QString CategoricalExplorer::decodingNote(const document::CategoricalSetup& setup,
                                          const core::project::DecodingSweep& sweep) {
    QStringList ns;
    for (int n : sweep.steps) ns << QString::number(n);
    if (sweep.chain) {
        return tr("Monte Carlo at N = %1: %2 sequences of %3 letters per sampler and N, decoded with "
                  "the chain's exact denoiser and judged by their true likelihood. Cross-entropy is "
                  "−log p_chain(x)/D (dashed: the chain's own entropy, %4 nats per letter, which "
                  "one letter per step in random order reaches); pair TV compares the decoded "
                  "adjacent letters with the chain's.")
            .arg(ns.join(", "))
            .arg(sweep.samples)
            .arg(sweep.chain->length)
            .arg(sweep.chain->entropy, 0, 'f', 3);
    }
    if (sweep.exact) {
        return tr("Exact output distributions (every partially masked sequence "
                  "propagated) at N = %1.")
            .arg(ns.join(", "));
    }
    if (sweep.digits) {
        return tr("Monte Carlo at N = %1: %2 decoded images per label, judged as images: "
                  "the share a nearest-class-mean classifier fitted on the real training "
                  "images recognises as their label, and the mean entropy of each pixel "
                  "(dashed: the real training images' own).")
            .arg(ns.join(", "))
            .arg(sweep.samples);
    }
    return tr("Monte Carlo at N = %1: %2 chains per condition (the exact output "
              "needs (K + 1)ᴰ = %3 states, over the limit %4); KL(data ‖ output) "
              "is infinite whenever a data sequence was never decoded.")
        .arg(ns.join(", "))
        .arg(sweep.samples)
        .arg(std::pow(static_cast<double>(setup.numClasses()), setup.numPositions()), 0, 'g', 3)
        .arg(static_cast<double>(core::limits::kDecodeExactStates), 0, 'g', 3);
}

void CategoricalExplorer::startDecodedChains() {
    auto setup = m_setup;
    const std::vector<int> trajectory = m_trajectory;
    auto sampler = core::project::parseSamplerSpec(m_chainsSampler);
    if (!sampler || trajectory.size() < 2) {
        // The Decoding view shows the spec's error; the chains stay as they are.
        return;
    }
    const int d = setup->numPositions();
    const double states = std::pow(static_cast<double>(setup->numClasses()), d);
    const bool exact = states <= static_cast<double>(core::limits::kDecodeExactStates);
    const int chainsWanted = std::min(setup->params.numChains, d > 1 ? kDecodedChains : 300);
    const int threads = core::defaultThreads();
    const auto decoding = *sampler;
    jobs::startTyped(
        m_chainRunner, QT_TRANSLATE_NOOP("ui::jobs", "Decoding chains"),
        [setup, trajectory, decoding, exact, chainsWanted, threads](core::Progress& progress) {
            return core::project::decodedChains(*setup, decoding, trajectory,
                                                exact ? 0 : chainsWanted, chainsWanted, threads,
                                                progress);
        },
        [this, setup] { return setup == m_setup; },
        [this, setup](std::shared_ptr<const core::project::CategoricalChains> done) {
            if (done->nodes != m_trajectory) return;  // another trajectory meanwhile
            m_chainsData = done;
            m_chains->setChains(done, setup->params.numClasses);
            setPosition(m_position);
        });
}

void CategoricalExplorer::setPosition(double position) {
    const int m = static_cast<int>(m_trajectory.size()) - 1;
    m_position = std::clamp(position, 0.0, static_cast<double>(std::max(0, m)));
    m_chains->setPosition(m_position);
    if (m <= 0 || !m_setup) {
        return;
    }
    // The step shown: in reverse the one about to be taken from the current node t (down to
    // s), forward the one that brought the chains to the current node t (up from s), so that
    // P₀,ₜ is always at the time the slider shows (forward at step 5 of 10 showed t = 0.6).
    const int step = std::min(static_cast<int>(std::floor(m_position)), m - 1);
    const bool forward = m_chains->direction() == animation::Direction::Forward;
    const int pairIndex =
        forward ? std::clamp(static_cast<int>(std::lround(m_position)), 1, m) : m - step;
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
    if (m_decodeCoalesce.isActive()) {
        m_decodeCoalesce.stop();
        startDecoding();
    }
    if (m_kernelCoalesce.isActive()) {
        m_kernelCoalesce.stop();
        startKernelComparison();
    }
    while (m_costRunner.isRunning() || m_chainRunner.isRunning() || m_decodeRunner.isRunning() ||
           m_kernelRunner.isRunning()) {
        m_costRunner.waitForFinished();
        m_chainRunner.waitForFinished();
        m_decodeRunner.waitForFinished();
        m_kernelRunner.waitForFinished();
    }
    QCoreApplication::processEvents();
}

void CategoricalExplorer::cancelJobs() {
    m_coalesce.stop();
    m_setupRunner.cancel();
    m_costRunner.cancel();
    m_chainRunner.cancel();
    m_decodeCoalesce.stop();
    m_decodeRunner.cancel();
    m_kernelCoalesce.stop();
    m_kernelRunner.cancel();
    m_fileRunner.cancel();  // the panel's reads show the status bar's Cancel too
}

}  // namespace ui
