// SPDX-License-Identifier: MIT
// Analytic-DPM benchmarks. Run: build/tests/bench_gaussian
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "core/gaussian/gamma.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/model/gaussian_oracles.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/trajectory/least_cost_path.h"
#include "core/util/rng.h"
#include "tests/bench/comparison.h"

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

Matrix dpBenchmarkCosts() {
    auto schedule = *schedule::linearSchedule(1000);
    return *gaussian::dpCostMatrix(schedule, gaussianGamma(schedule));
}

// The DP at N = 1000 for one K (range 0), or all K (range 0 = 0), threads (range 1).
void BM_Dp(benchmark::State& state) {
    const int k = static_cast<int>(state.range(0));
    const ParallelOptions parallel{.numThreads = static_cast<int>(state.range(1))};
    const Matrix cost = dpBenchmarkCosts();
    for (auto _ : state) {
        if (k == 0) {
            auto all = trajectory::leastCostPathsUpTo(cost, 999, parallel);
            benchmark::DoNotOptimize(all);
        } else {
            auto one = trajectory::leastCostPath(cost, k - 1, parallel);
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

// The vectorised NumPy DP (tests/bench/numpy_dp.py) on BM_Dp's matrix at K = 100: its time
// against ours, and whether it found the same path at the same cost, bit for bit. The first
// Python that imports NumPy wins: $DIFFUSCOPE_PYTHON, python3, /usr/bin/python3.
void compareWithNumpy(const bench::Times& times, std::FILE* out) {
    const auto one = times.find("BM_Dp/100/1");
    if (one == times.end()) {
        return;
    }
    const Matrix cost = dpBenchmarkCosts();
    const auto ours = *trajectory::leastCostPath(cost, 99);
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / "diffuscope_bench_dp_cost.bin";
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(cost.data()),
               static_cast<std::streamsize>(cost.size() * sizeof(double)));
    std::vector<std::string> pythons{"python3", "/usr/bin/python3"};
    if (const char* chosen = std::getenv("DIFFUSCOPE_PYTHON")) {
        pythons.insert(pythons.begin(), chosen);
    }
    std::string output;
    for (const std::string& python : pythons) {
        const std::string command = python + " " + DIFFUSCOPE_BENCH_DIR "/numpy_dp.py " +
                                    file.string() + " 1000 99 2>/dev/null";
        output.clear();
        if (std::FILE* pipe = ::popen(command.c_str(), "r")) {
            char buffer[4096];
            while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
                output += buffer;
            }
            if (::pclose(pipe) == 0) {
                break;
            }
        }
        output.clear();
    }
    std::filesystem::remove(file);
    if (output.empty()) {
        std::fprintf(out, "\nNumPy DP: no Python with NumPy found (set DIFFUSCOPE_PYTHON)\n");
        return;
    }
    std::istringstream lines(output);
    std::string key;
    std::string costHex;
    double seconds = 0.0;
    std::vector<int> nodes;
    lines >> key >> seconds >> key >> costHex >> key;
    for (int node = 0; lines >> node;) {
        nodes.push_back(node);
    }
    const bool same =
        nodes == ours.nodes && std::strtod(costHex.c_str(), nullptr) == ours.cost;
    const auto two = times.find("BM_Dp/100/2");
    std::fprintf(out, "\nNumPy DP, N = 1000, K = 100: %.1f ms; ours %.2f ms (1 thread), %.0f× faster",
                 seconds * 1e3, one->second, seconds * 1e3 / one->second);
    if (two != times.end()) {
        std::fprintf(out, "; %.2f ms (2 threads), %.0f× faster", two->second,
                     seconds * 1e3 / two->second);
    }
    std::fprintf(out, "\n  same path and cost (bit for bit): %s\n", same ? "yes" : "NO");
}

}  // namespace

int main(int argc, char** argv) {
    return bench::runWithSummary(argc, argv, compareWithNumpy);
}
