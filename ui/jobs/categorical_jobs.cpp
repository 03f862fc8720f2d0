// SPDX-License-Identifier: MIT
#include "ui/jobs/categorical_jobs.h"

#include "core/categorical/reverse_marginal.h"
#include "core/trajectory/least_cost_path.h"
#include "core/util/rng.h"

namespace ui::jobs {

double categoricalCostWork(const document::CategoricalParams& params) {
    const double n = params.numSteps;
    const double k = params.numClasses;
    return n * (n + 1) / 2.0 * k * k * k;
}

core::Result<CategoricalCosts> computeCategoricalCosts(const document::CategoricalSetup& setup,
                                                       core::Progress& progress,
                                                       int numThreads) {
    CategoricalCosts result;
    progress.setStage("step costs");
    core::categorical::StepCostOptions options;
    options.condition = setup.params.condition;
    options.form = setup.params.kernel;
    options.parallel.numThreads = numThreads;
    options.progress = &progress;
    auto costs = core::categorical::computeStepCosts(setup.table, *setup.oracle, setup.pi,
                                                     setup.grid,
                                                     core::categorical::CostPairs::All, options);
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
    progress.setStage("trajectory search");
    auto path = core::trajectory::leastCostPath(result.costs.cost, setup.params.pathSteps,
                                                {.numThreads = numThreads}, &progress);
    if (!path) {
        return path.error();
    }
    result.dpNodes = path->nodes;
    result.elboEven = core::categorical::negativeElbo(result.costs.cost, result.evenNodes);
    result.elboDp = path->cost;
    std::vector<int> full(static_cast<size_t>(setup.params.numSteps) + 1);
    for (int n = 0; n <= setup.params.numSteps; ++n) {
        full[n] = n;
    }
    result.elboFull = core::categorical::negativeElbo(result.costs.cost, full);
    return result;
}

namespace {

// Records the states of every node into a vector of frames.
class Recorder final : public core::categorical::ChainObserver {
public:
    explicit Recorder(std::vector<std::vector<int>>& frames, core::Progress& progress)
        : m_frames(frames), m_progress(progress) {}
    core::Control onFrame(const core::categorical::ChainFrame& frame) override {
        m_frames[frame.node].assign(frame.states.begin(), frame.states.end());
        return m_progress.cancelled() ? core::Control::Abort : core::Control::Continue;
    }

private:
    std::vector<std::vector<int>>& m_frames;
    core::Progress& m_progress;
};

}  // namespace

core::Result<CategoricalChains> sampleCategoricalChains(const document::CategoricalSetup& setup,
                                                        const std::vector<int>& trajectory,
                                                        core::Progress& progress) {
    const auto& p = setup.params;
    CategoricalChains chains;
    chains.nodes = trajectory;
    const auto grid = core::categorical::subGrid(setup.grid, trajectory);
    chains.times = grid.t;
    const int m = grid.numSteps();
    progress.setStage("sampling chains");
    progress.setTotal(2);

    // x_0 from the data of the selected condition; stream = chain, step = a constant apart
    // from the samplers' steps so the draws never coincide.
    constexpr uint64_t kDataStep = 0xDA7A;
    std::vector<int> x0(static_cast<size_t>(p.numChains));
    const std::vector<double> p0(setup.dataMarginal.data(),
                                 setup.dataMarginal.data() + setup.dataMarginal.size());
    for (int b = 0; b < p.numChains; ++b) {
        core::CounterRng rng(p.seed, static_cast<uint64_t>(b), kDataStep);
        x0[b] = rng.categorical(p0);
    }

    chains.forward.assign(static_cast<size_t>(m) + 1, {});
    Recorder forwardRecorder(chains.forward, progress);
    core::categorical::SamplerOptions options;
    options.seed = p.seed;
    options.condition = p.condition;
    options.form = p.kernel;
    options.observer = &forwardRecorder;
    options.progress = &progress;
    auto forward = core::categorical::sampleForward(x0, 1, setup.pi, grid, options);
    if (!forward) {
        return forward.error();
    }
    if (forward->cancelled || !progress.advance()) {
        return core::makeError(core::ErrorCode::Cancelled, "", "", "sampling was cancelled");
    }

    chains.reverse.assign(static_cast<size_t>(m) + 1, {});
    Recorder reverseRecorder(chains.reverse, progress);
    options.observer = &reverseRecorder;
    // A different seed stream for the reverse chains, so they are not the forward chains' twins.
    options.seed = p.seed ^ 0x5EED5EED5EED5EEDULL;
    auto reverse = core::categorical::sampleReverse(*setup.oracle, p.numChains, setup.pi, grid,
                                                    options);
    if (!reverse) {
        return reverse.error();
    }
    if (reverse->cancelled || !progress.advance()) {
        return core::makeError(core::ErrorCode::Cancelled, "", "", "sampling was cancelled");
    }

    for (int n = 0; n <= m; ++n) {
        chains.forwardMarginals.push_back(
            core::categorical::marginalAt(setup.dataMarginal, setup.pi, grid.beta[n]));
    }
    auto exact = core::categorical::reverseMarginals(*setup.oracle, 0, p.condition, setup.pi,
                                                     grid, p.kernel);
    if (!exact) {
        return exact.error();
    }
    chains.reverseMarginals = std::move(exact).value();
    return chains;
}

}  // namespace ui::jobs
