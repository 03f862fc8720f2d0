// SPDX-License-Identifier: MIT
// Analytic-DPM benchmarks. Run: build/tests/bench_gaussian
#include <benchmark/benchmark.h>

#include <memory>

#include "core/gaussian/gamma.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/model/gaussian_oracles.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/trajectory/least_cost_path.h"
#include "core/util/rng.h"

using namespace core;

namespace {

std::shared_ptr<model::GaussianOracle> makeOracle(bool mixture, int d) {
    CounterRng rng(1, 0, 0);
    if (mixture) {
        std::vector<model::GaussianComponent> components;
        for (int k = 0; k < 8; ++k) {
            model::GaussianComponent c;
            c.mean = Vector(d);
            for (int i = 0; i < d; ++i) {
                c.mean[i] = rng.uniform() - 0.5;
            }
            c.diagonal = Vector::Constant(d, 0.01);
            components.push_back(c);
        }
        return *model::GaussianMixtureOracle::create(components);
    }
    Matrix points(d, 1000);
    for (Eigen::Index j = 0; j < points.size(); ++j) {
        points.data()[j] = rng.uniform() * 2.0 - 1.0;
    }
    return *model::GaussianEmpiricalOracle::create(points);
}

// Γ with M = 1000 on 20 of the N = 1000 timesteps; items = score evaluations.
void BM_Gamma(benchmark::State& state) {
    const bool mixture = state.range(0) == 0;
    const int d = static_cast<int>(state.range(1));
    const int threads = static_cast<int>(state.range(2));
    auto oracle = makeOracle(mixture, d);
    auto schedule = *schedule::linearSchedule(1000);
    gaussian::GammaParams params{.numSamples = 1000, .seed = 1,
                                 .parallel = {.numThreads = threads}};
    for (int n = 1; n <= 1000; n += 50) {
        params.timesteps.push_back(n);
    }
    for (auto _ : state) {
        auto estimate = gaussian::estimateGamma(*oracle, *oracle, schedule, params);
        benchmark::DoNotOptimize(estimate);
    }
    state.SetItemsProcessed(state.iterations() * 1000 * 20);
    state.SetLabel(std::string(mixture ? "gmm8" : "empirical1000") + " d=" + std::to_string(d) +
                   " threads=" + std::to_string(threads));
}
BENCHMARK(BM_Gamma)
    ->ArgsProduct({{0, 1}, {2, 64}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

std::vector<double> gaussianGamma(const schedule::GaussianSchedule& s) {
    std::vector<double> g(1001, 0.0);
    for (int n = 1; n <= 1000; ++n) {
        g[n] = 1.0 / (s.alphaBar(n) * 0.25 + s.betaBar(n));
    }
    return g;
}

// The DP at N = 1000 for one K (range 0), or all K (range 0 = 0), threads (range 1).
void BM_Dp(benchmark::State& state) {
    auto schedule = *schedule::linearSchedule(1000);
    const auto gamma = gaussianGamma(schedule);
    const int k = static_cast<int>(state.range(0));
    gaussian::DpOptions options{.parallel = {.numThreads = static_cast<int>(state.range(1))}};
    auto cost = *gaussian::dpCostMatrix(schedule, gamma);
    for (auto _ : state) {
        if (k == 0) {
            auto all = trajectory::leastCostPathsUpTo(cost, 999, options.parallel);
            benchmark::DoNotOptimize(all);
        } else {
            auto one = trajectory::leastCostPath(cost, k - 1, options.parallel);
            benchmark::DoNotOptimize(one);
        }
    }
}
BENCHMARK(BM_Dp)->ArgsProduct({{10, 100, 0}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

// The GUI's live path: a schedule change → schedule, cost matrix (σ² of every pair) and the DP.
void BM_ScheduleChangeRecompute(benchmark::State& state) {
    const int k = static_cast<int>(state.range(0));
    const int threads = static_cast<int>(state.range(1));
    int flip = 0;
    for (auto _ : state) {
        auto schedule = *(flip++ % 2 ? schedule::cosineSchedule(1000)
                                     : schedule::linearSchedule(1000));
        const auto gamma = gaussianGamma(schedule);
        auto dp = gaussian::dpTrajectory(schedule, gamma, k,
                                         {.parallel = {.numThreads = threads}});
        benchmark::DoNotOptimize(dp);
    }
}
BENCHMARK(BM_ScheduleChangeRecompute)
    ->ArgsProduct({{10, 25, 100}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
