// SPDX-License-Identifier: MIT
#include "core/project/categorical_runs.h"

#include <cmath>

#include "core/categorical/prior.h"
#include "core/categorical/reverse_kernel.h"
#include "core/categorical/reverse_marginal.h"
#include "core/io/csv.h"
#include "core/model/checkpoint.h"
#include "core/project/training_setup.h"
#include "core/trajectory/least_cost_path.h"
#include "core/util/rng.h"

#include <limits>

namespace core::project {

namespace {
// Monte Carlo samples per step cost when x_t cannot be enumerated (the digits).
constexpr int64_t kMonteCarloSamples = 64;
}  // namespace

double categoricalCostWork(const CategoricalParams& params) {
    const double n = params.numSteps;
    const double k = params.processClasses();
    if (params.dataSource == CategoricalData::Digits) {
        // Consecutive pairs only: samples × (rows of one label × 64 positions) per step.
        return n * kMonteCarloSamples * 150.0 * 64.0;
    }
    return n * (n + 1) / 2.0 * k * k * k;
}

namespace {

// The ladder of N for the N-step ELBO next to the continuous one, and a bound on its work in
// denoiser-position evaluations.
constexpr int kElboLadder[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
constexpr double kElboLadderWork = 5e7;

// Fills the masked-diffusion fields of `result` when π is absorbing. Fails only when cancelled.
Status addMaskedElbos(const CategoricalSetup& setup,
                      Progress& progress,
                      int numThreads,
                      int64_t samples,
                      const CategoricalCostOptions& extra,
                      CategoricalCosts& result) {
    if (core::categorical::absorbingMaskClass(setup.pi) < 0) return {};
    progress.setStage("continuous ELBO");
    auto continuous =
        core::categorical::continuousElbo(setup.table, *setup.denoiser, setup.pi, setup.curve,
                                          {.condition = setup.params.condition,
                                           .maxEnumeration = extra.continuousEnumeration,
                                           .samples = samples,
                                           .seed = samples > 0 ? setup.params.seed : 0,
                                           .parallel = {.numThreads = numThreads},
                                           .progress = &progress});
    if (!continuous) {
        if (continuous.error().code == ErrorCode::Cancelled) return continuous.error();
        result.maskedNote = continuous.error().toString();
        return {};
    }
    result.continuousElbo = *continuous;
    if (!result.dpAvailable || !extra.elboLadder) return {};
    const int d = setup.numPositions();
    double states = setup.numClasses();
    if (d > 1 && !setup.denoiser->factorised()) states = std::pow(setup.numClasses(), d);
    core::categorical::StepCostOptions options;
    options.condition = setup.params.condition;
    options.form = setup.params.kernel;
    options.parallel.numThreads = numThreads;
    options.progress = &progress;
    for (int n : kElboLadder) {
        if (n * states * d > kElboLadderWork) break;
        progress.setStage("negative ELBO at N = " + std::to_string(n));
        auto costs = core::categorical::computeStepCosts(
            setup.table, *setup.denoiser, setup.pi, core::categorical::evenTimeGrid(setup.curve, n),
            core::categorical::CostPairs::Consecutive, options);
        if (!costs) return costs.error();
        double elbo = 0.0;
        for (int b = 1; b <= n; ++b) elbo += costs->cost(b - 1, b);
        result.elboByN.emplace_back(n, elbo);
    }
    return {};
}

}  // namespace

Result<CategoricalCosts> computeCategoricalCosts(const CategoricalSetup& setup,
                                                 Progress& progress,
                                                 int numThreads,
                                                 int64_t samples,
                                                 bool withDp,
                                                 const CategoricalCostOptions& extra) {
    CategoricalCosts result;
    progress.setStage("step costs");
    core::categorical::StepCostOptions options;
    options.condition = setup.params.condition;
    options.form = setup.params.kernel;
    options.parallel.numThreads = numThreads;
    options.progress = &progress;
    result.dpAvailable = setup.exactCosts();
    if (samples > 0 || !result.dpAvailable) {
        result.samples = samples > 0 ? samples : kMonteCarloSamples;
        result.seed = setup.params.seed;
        options.samples = result.samples;
        options.seed = result.seed;
    }
    // Each column's costs are computed alone, so J(n − 1, n) is the same with or without the
    // other pairs.
    const bool allPairs = result.dpAvailable && withDp;
    auto costs = core::categorical::computeStepCosts(
        setup.table, *setup.denoiser, setup.pi, setup.grid,
        allPairs ? core::categorical::CostPairs::All : core::categorical::CostPairs::Consecutive,
        options);
    if (!costs) {
        return costs.error();
    }
    result.costs = std::move(costs).value();
    auto even = core::trajectory::categoricalEvenTrajectory(setup.params.numSteps,
                                                            setup.params.pathSteps);
    if (!even) {
        return even.error();
    }
    result.evenNodes = *even;
    std::vector<int> full(static_cast<size_t>(setup.params.numSteps) + 1);
    for (int n = 0; n <= setup.params.numSteps; ++n) {
        full[n] = n;
    }
    result.elboFull = core::categorical::negativeElbo(result.costs.cost, full);
    if (Status masked = addMaskedElbos(setup, progress, numThreads, samples, extra, result);
        !masked) {
        return masked.error();
    }
    if (!allPairs) {
        result.dpNodes = result.evenNodes;
        result.elboEven = std::numeric_limits<double>::quiet_NaN();
        result.elboDp = std::numeric_limits<double>::quiet_NaN();
        return result;
    }
    progress.setStage("trajectory search");
    auto path = core::trajectory::leastCostPath(result.costs.cost, setup.params.pathSteps,
                                                {.numThreads = numThreads}, &progress);
    if (!path) {
        return path.error();
    }
    result.dpNodes = path->nodes;
    result.elboEven = core::categorical::negativeElbo(result.costs.cost, result.evenNodes);
    result.elboDp = path->cost;
    return result;
}

namespace {

// Records the states of every node into a vector of frames.
class Recorder final : public core::categorical::ChainObserver {
public:
    explicit Recorder(std::vector<std::vector<int>>& frames, Progress& progress)
        : m_frames(frames), m_progress(progress) {}
    Control onFrame(const core::categorical::ChainFrame& frame) override {
        m_frames[frame.node].assign(frame.states.begin(), frame.states.end());
        return m_progress.cancelled() ? Control::Abort : Control::Continue;
    }

private:
    std::vector<std::vector<int>>& m_frames;
    Progress& m_progress;
};

}  // namespace

namespace {

// The forward chains and their exact marginals into `chains`; false when cancelled.
Result<bool> sampleForwardInto(const CategoricalSetup& setup, const std::vector<int>& trajectory,
                               Progress& progress, CategoricalChains& chains);

}  // namespace

Result<CategoricalChains> sampleForwardChains(const CategoricalSetup& setup,
                                              const std::vector<int>& trajectory,
                                              Progress& progress) {
    CategoricalChains chains;
    progress.setStage("sampling chains");
    progress.setTotal(1);
    auto done = sampleForwardInto(setup, trajectory, progress, chains);
    if (!done) return done.error();
    if (!*done) return makeError(ErrorCode::Cancelled, "", "", "sampling was cancelled");
    return chains;
}

namespace {

Result<bool> sampleForwardInto(const CategoricalSetup& setup, const std::vector<int>& trajectory,
                               Progress& progress, CategoricalChains& chains) {
    const auto& p = setup.params;
    if (p.condition == kAllConditions) {
        return invalidArgument("condition", "all",
                               "the chains are drawn for one condition: choose one");
    }
    chains.nodes = trajectory;
    const auto grid = core::categorical::subGrid(setup.grid, trajectory);
    chains.times = grid.t;
    const int m = grid.numSteps();
    // x_0: a row of the data drawn for the selected condition; stream = chain, step = a
    // constant apart from the samplers' steps so the draws never coincide.
    constexpr uint64_t kDataStep = 0xDA7A;
    const auto& table = setup.table;
    const int d = table.numPositions;
    chains.numPositions = d;
    chains.position = setup.position;
    std::vector<double> rowWeights(static_cast<size_t>(table.numRows()), 0.0);
    for (int r = 0; r < table.numRows(); ++r) {
        rowWeights[r] = table.condition[r] == p.condition ? table.probability[r] : 0.0;
    }
    std::vector<int> x0(static_cast<size_t>(p.numChains) * d);
    for (int b = 0; b < p.numChains; ++b) {
        CounterRng rng(p.seed, static_cast<uint64_t>(b), kDataStep);
        const int row = rng.categorical(rowWeights);
        std::copy(table.row(row), table.row(row) + d, x0.begin() + static_cast<size_t>(b) * d);
    }
    chains.forward.assign(static_cast<size_t>(m) + 1, {});
    Recorder forwardRecorder(chains.forward, progress);
    core::categorical::SamplerOptions options;
    options.seed = p.seed;
    options.condition = p.condition;
    options.form = p.kernel;
    options.observer = &forwardRecorder;
    options.progress = &progress;
    auto forward = core::categorical::sampleForward(x0, d, setup.pi, grid, options);
    if (!forward) return forward.error();
    if (forward->cancelled || !progress.advance()) return false;
    for (int n = 0; n <= m; ++n) {
        chains.forwardMarginals.push_back(
            core::categorical::marginalAt(setup.dataMarginal, setup.pi, grid.beta[n]));
    }
    return true;
}

}  // namespace

Result<CategoricalChains> sampleCategoricalChains(const CategoricalSetup& setup,
                                                        const std::vector<int>& trajectory,
                                                        Progress& progress) {
    const auto& p = setup.params;
    CategoricalChains chains;
    progress.setStage("sampling chains");
    progress.setTotal(2);
    auto forwardDone = sampleForwardInto(setup, trajectory, progress, chains);
    if (!forwardDone) return forwardDone.error();
    if (!*forwardDone) return makeError(ErrorCode::Cancelled, "", "", "sampling was cancelled");
    const auto grid = core::categorical::subGrid(setup.grid, trajectory);
    const int m = grid.numSteps();
    const int d = setup.table.numPositions;
    core::categorical::SamplerOptions options;
    options.condition = p.condition;
    options.form = p.kernel;
    options.progress = &progress;

    chains.reverse.assign(static_cast<size_t>(m) + 1, {});
    Recorder reverseRecorder(chains.reverse, progress);
    options.observer = &reverseRecorder;
    // A different seed stream for the reverse chains, so they are not the forward chains' twins.
    options.seed = p.seed ^ 0x5EED5EED5EED5EEDULL;
    auto reverse = core::categorical::sampleReverse(*setup.denoiser, p.numChains, setup.pi, grid,
                                                    options);
    if (!reverse) {
        return reverse.error();
    }
    if (reverse->cancelled || !progress.advance()) {
        return makeError(ErrorCode::Cancelled, "", "", "sampling was cancelled");
    }

    if (d > 1) {
        // The x̂_0 preview: the denoiser's E[X_0 | x_t] per position for the chains the image
        // grid shows, at every node (x_0 itself at node 0, where F is a point mass).
        const int shown = std::min(p.numChains, kPreviewChains);
        const int k = setup.table.numClasses;
        chains.preview.assign(static_cast<size_t>(m) + 1, {});
        std::vector<double> f(static_cast<size_t>(d) * k);
        for (int n = 0; n <= m; ++n) {
            auto& out = chains.preview[n];
            out.resize(static_cast<size_t>(shown) * d);
            const auto& states = chains.reverse[n];
            for (int b = 0; b < shown; ++b) {
                const std::span<const int> xt(states.data() + static_cast<size_t>(b) * d, d);
                if (n == 0) {
                    std::copy(xt.begin(), xt.end(), out.begin() + static_cast<size_t>(b) * d);
                    continue;
                }
                setup.denoiser->predict(xt, p.condition, {grid.t[n], grid.beta[n]}, f);
                for (int j = 0; j < d; ++j) {
                    double mean = 0.0;
                    for (int c = 0; c < k; ++c) mean += c * f[static_cast<size_t>(j) * k + c];
                    out[static_cast<size_t>(b) * d + j] = static_cast<float>(mean);
                }
            }
            if (progress.cancelled()) {
                return makeError(ErrorCode::Cancelled, "", "", "sampling was cancelled");
            }
        }
    }

    auto exact = core::categorical::reverseMarginals(*setup.positionOracle, setup.position,
                                                     p.condition, setup.pi, grid, p.kernel);
    if (!exact) {
        return exact.error();
    }
    chains.reverseMarginals = std::move(exact).value();
    return chains;
}

Result<KernelComparison> kernelComparison(const CategoricalSetup& setup,
                                          const std::vector<int>& trajectory) {
    if (setup.params.condition == kAllConditions) {
        return invalidArgument("condition", "all",
                               "the reverse marginals use the denoiser of one condition");
    }
    const auto grid = categorical::subGrid(setup.grid, trajectory);
    auto both = categorical::reverseMarginals(
        *setup.positionOracle, setup.position, setup.params.condition, setup.pi, grid,
        std::vector{categorical::KernelForm::Closed, categorical::KernelForm::D3pm});
    if (!both) return both.error();
    KernelComparison out;
    out.data = setup.dataMarginal;
    out.closedForm = (*both)[0].front();
    out.d3pm = (*both)[1].front();
    out.klClosed = categorical::klDivergence(out.data, out.closedForm);
    out.klD3pm = categorical::klDivergence(out.data, out.d3pm);
    out.numSteps = grid.numSteps();
    return out;
}

CategoricalReport categoricalReport(const CategoricalSetup& setup, const CategoricalCosts& costs,
                                    bool withDp) {
    CategoricalReport r;
    const int condition = setup.params.condition;
    r.curves = categorical::informationCurves(setup.table, setup.pi, setup.grid, condition);
    r.entropy = categorical::dataEntropy(setup.table, condition);
    r.monteCarlo = costs.costs.monteCarlo;
    r.samples = costs.samples;
    r.seed = costs.seed;
    double elboVariance = 0.0;
    for (int n = 1; n <= setup.grid.numSteps(); ++n) {
        r.stepCosts.push_back(costs.costs.cost(n - 1, n));
        r.stepErrors.push_back(costs.costs.standardError(n - 1, n));
        elboVariance += r.stepErrors.back() * r.stepErrors.back();  // independent columns
    }
    r.elbo = costs.elboFull;
    r.elboStderr = std::sqrt(elboVariance);
    if (withDp) {
        r.dpSteps = setup.params.pathSteps;
        r.dpNodes = costs.dpNodes;
        for (int node : r.dpNodes) r.dpTimes.push_back(setup.grid.t[node]);
        r.dpCost = costs.elboDp;
    }
    r.absorbing = categorical::absorbingMaskClass(setup.pi) >= 0;
    r.continuousElbo = costs.continuousElbo;
    r.continuousElboRefused = costs.maskedNote;
    return r;
}

namespace {

// F.csv: K rows of K numbers, no header; row j = F(· | j). Rows are normalised.
Result<Matrix> readDenoiserRows(const std::string& path, int numClasses) {
    Result<io::CsvTable> csv = io::readCsv(path, false);
    if (!csv) return csv.error();
    if (static_cast<int>(csv->rows.size()) != numClasses ||
        static_cast<int>(csv->rows[0].size()) != numClasses) {
        return invalidArgument(path,
                               std::to_string(csv->rows.size()) + "x" +
                                   std::to_string(csv->rows[0].size()),
                               "the denoiser must have K = " + std::to_string(numClasses) +
                                   " rows of K numbers (K from --pi)");
    }
    Matrix f(numClasses, numClasses);
    for (int j = 0; j < numClasses; ++j) {
        for (int i = 0; i < numClasses; ++i) {
            Result<double> v = io::fieldAsDouble(*csv, j, i);
            if (!v) return v.error();
            if (*v < 0.0) {
                return invalidArgument(path + ":" + std::to_string(csv->lineNumbers[j]) +
                                           " column " + std::to_string(i + 1),
                                       csv->rows[j][i], "a probability must be ≥ 0");
            }
            f(j, i) = *v;
        }
        // Scale by the largest entry before summing: a row of 1e308s would overflow to inf and
        // normalise to zeros. The closed form assumes F_j sums to 1.
        const double largest = f.row(j).maxCoeff();
        if (!(largest > 0.0)) {
            return invalidArgument(path + ":" + std::to_string(csv->lineNumbers[j]), "0",
                                   "a row of F must have positive mass");
        }
        f.row(j) /= largest;
        f.row(j) /= f.row(j).sum();
    }
    return f;
}

}  // namespace

Result<Matrix> reverseKernelOf(const std::string& piSpec, const std::string& piField,
                               double betaS, double betaT, categorical::KernelForm form,
                               const std::string& denoiserPath) {
    Result<Vector> pi = categorical::parsePrior(piSpec, piField);
    if (!pi) return pi.error();
    Result<Matrix> f = readDenoiserRows(denoiserPath, static_cast<int>(pi->size()));
    if (!f) return f.error();
    return categorical::reverseKernelMatrix(form, *f, *pi, betaS, betaT);
}

Result<CategoricalParams> digitsParamsOfNetwork(const std::string& path,
                                                const std::string& field) {
    auto loaded = model::loadMlpCheckpoint(path);
    if (!loaded) return loaded.error();
    const io::CheckpointInfo& info = loaded->info;
    int levels = 0;
    if (info.dataSet.rfind("digits", 0) == 0) {
        auto parsed = parseDigitsDataSet(info.dataSet, path + ": data_set");
        if (!parsed) return parsed.error();
        levels = *parsed;
    }
    if (!info.maskState || levels < 2 || info.numClasses != levels + 1) {
        return invalidArgument(field, "",
                               "needed unless --model is a digits network with a mask state "
                               "(train --data digits:levels=L --pi masked:L); " + path +
                                   " has data_set " +
                                   (info.dataSet.empty() ? std::string("(none)") : info.dataSet));
    }
    CategoricalParams p = CategoricalParams{}.withDigits(levels);
    p.maskState = true;
    p.condition = kAllConditions;
    if (Status s = p.setScheduleSpec(info.schedule, path + ": schedule"); !s) return s.error();
    p.model = path;
    return p;
}

}  // namespace core::project
