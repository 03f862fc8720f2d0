// SPDX-License-Identifier: MIT
// Throughput of the categorical engine: forward/reverse chain-steps per second,
// closed vs direct reverse kernel, and the trajectory DP. Counters report per-chain-step rates.
// After the run it prints every case at 1 against 2 threads and reverse against forward sampling
// at D = 1 (the reverse sampler draws only at a chain's events, like the forward one at its jumps),
// and decoding on the bundled English chain (D = 256, 1000 chains, N = 256, LLaDA's
// low-confidence) in chains·steps per second, whose bytes must not depend on the thread count.
// Run: build/tests/bench_categorical
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "core/categorical/reverse_kernel.h"
#include "core/categorical/sampler.h"
#include "core/data/bundled_files.h"
#include "core/data/categorical_table.h"
#include "core/project/chain_decoding.h"
#include "core/model/categorical_oracles.h"
#include "core/trajectory/least_cost_path.h"
#include "core/util/rng.h"
#include "tests/bench/comparison.h"

using namespace core;
using namespace core::categorical;

namespace {

data::CategoricalTable randomTable(int numPositions, int numClasses, int rows) {
    CounterRng rng(1, 0, 0);
    std::vector<int> classes;
    std::vector<double> p;
    for (int r = 0; r < rows; ++r) {
        for (int d = 0; d < numPositions; ++d) {
            classes.push_back(static_cast<int>(rng.uniform() * (numClasses - 1)));
        }
        p.push_back(1.0 / rows);
    }
    return *data::makeCategoricalTable(numPositions, numClasses, classes, p);
}

// args: chains, D, K, steps per iteration (of an N = 1000 grid), threads.
void BM_Forward(benchmark::State& state) {
    const int64_t chains = state.range(0);
    const int d = static_cast<int>(state.range(1));
    const int k = static_cast<int>(state.range(2));
    const int steps = static_cast<int>(state.range(3));
    const Vector pi = Vector::Constant(k, 1.0 / k);
    const TimeGrid grid = evenTimeGrid(schedule::linearCurve(), steps);
    std::vector<int> x0(static_cast<size_t>(chains * d), 0);
    for (auto _ : state) {
        Result<SampleResult> r = sampleForward(x0, d, pi, grid, {.seed = 1, .parallel = {static_cast<int>(state.range(4))}});
        benchmark::DoNotOptimize(r->states.data());
    }
    state.counters["chain_steps/s"] = benchmark::Counter(static_cast<double>(chains) * d * steps, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Reverse(benchmark::State& state) {
    const int64_t chains = state.range(0);
    const int d = static_cast<int>(state.range(1));
    const int k = static_cast<int>(state.range(2));
    const int steps = static_cast<int>(state.range(3));
    const Vector pi = Vector::Constant(k, 1.0 / k);
    const data::CategoricalTable table = randomTable(d, k, 64);
    model::TableOracle oracle(table, pi, model::TableOracleMode::IndependentPositions);
    const TimeGrid grid = evenTimeGrid(schedule::linearCurve(), steps);
    for (auto _ : state) {
        Result<SampleResult> r = sampleReverse(oracle, static_cast<int>(chains), pi, grid, {.seed = 1, .parallel = {static_cast<int>(state.range(4))}});
        benchmark::DoNotOptimize(r->states.data());
    }
    state.counters["chain_steps/s"] = benchmark::Counter(static_cast<double>(chains) * d * steps, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Kernel(benchmark::State& state) {
    const int k = static_cast<int>(state.range(0));
    const KernelForm form = state.range(1) == 0 ? KernelForm::Closed : KernelForm::Direct;
    CounterRng rng(3, 0, 0);
    Vector pi(k);
    Matrix f(k, k);
    for (int i = 0; i < k; ++i) {
        pi[i] = rng.uniform();
        for (int j = 0; j < k; ++j) {
            f(i, j) = rng.uniform();
        }
        f.row(i) /= f.row(i).sum();
    }
    pi /= pi.sum();
    for (auto _ : state) {
        Matrix q = reverseKernelMatrix(form, f, pi, 0.3, 0.6);
        benchmark::DoNotOptimize(q.data());
    }
    state.SetLabel(form == KernelForm::Closed ? "closed, K x K kernel" : "direct, K x K kernel");
}

void BM_Dp(benchmark::State& state) {
    const int n = 1000;
    const int k = static_cast<int>(state.range(0));
    Matrix cost(n + 1, n + 1);
    CounterRng rng(5, 0, 0);
    for (int b = 0; b <= n; ++b) {
        for (int a = 0; a <= n; ++a) {
            cost(a, b) = rng.uniform() * std::abs(b - a);
        }
    }
    for (auto _ : state) {
        if (k > 0) {
            benchmark::DoNotOptimize(trajectory::leastCostPath(cost, k, {static_cast<int>(state.range(1))})->cost);
        } else {
            benchmark::DoNotOptimize(trajectory::leastCostPathsUpTo(cost, n, {static_cast<int>(state.range(1))})->size());
        }
    }
    state.SetLabel(k > 0 ? "one K" : "all K");
}

// args: threads. One decode of 1000 chains × 256 steps per iteration.
void BM_ChainDecode(benchmark::State& state) {
    static std::string first;  // the 1-thread run's JSON: every thread count must write it
    const auto path = data::bundledDataPath("data/english-chain.json");
    if (!path) {
        state.SkipWithError(path.error().toString().c_str());
        return;
    }
    const auto chain = data::readMarkovChain(*path);
    project::ChainDecodeRequest request;
    if (!chain || !applyDecodePreset("llada:low_confidence", 1.0, request.sampler)) {
        state.SkipWithError("the bundled chain or the preset");
        return;
    }
    request.length = 256;
    request.numSteps = 256;
    request.samples = 1000;
    std::string json;
    for (auto _ : state) {
        auto run = project::projectDecodeChain(*chain, schedule::BetaCurve(), request, static_cast<int>(state.range(0)));
        if (!run) {
            state.SkipWithError(run.error().toString().c_str());
            return;
        }
        json = io::dumpJson(project::chainDecodeJson(*run));
    }
    if (first.empty()) first = json;
    if (json != first) state.SkipWithError("the output depends on the thread count");
    state.SetItemsProcessed(state.iterations() * request.samples * request.numSteps);
    state.SetLabel("chains·steps");
}

// Reverse against forward chains at D = 1 (the same 10⁶ chains, K = 16 and 50 steps) for 1 and 2
// threads, when both ran.
void compareReverseWithForward(const bench::Times& times, std::FILE* out) {
    bool header = false;
    for (int threads : {1, 2}) {
        const std::string args = "/1000000/1/16/50/" + std::to_string(threads);
        const auto forward = times.find("BM_Forward" + args);
        const auto reverse = times.find("BM_Reverse" + args);
        if (forward == times.end() || reverse == times.end()) {
            continue;
        }
        if (!header) {
            std::fprintf(out, "\n");
            header = true;
        }
        std::fprintf(out, "reverse / forward at D = 1, %d thread%s: %.2f× (%.1f ms / %.1f ms)\n",
                     threads, threads == 1 ? "" : "s", reverse->second / forward->second,
                     reverse->second, forward->second);
    }
}

}  // namespace

// D = 1, K = 16, 10⁶ chains, 50 steps of an N = 1000-sized run per iteration; D = 64, K = 17
// with 10⁵ chains (10⁶ would need 0.5 GB of state).
BENCHMARK(BM_Forward)->Args({1000000, 1, 16, 50, 1})->Args({1000000, 1, 16, 50, 2})
    ->Args({100000, 64, 17, 20, 1})->Args({100000, 64, 17, 20, 2})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Reverse)->Args({1000000, 1, 16, 50, 1})->Args({1000000, 1, 16, 50, 2})
    ->Args({100000, 64, 17, 20, 1})->Args({100000, 64, 17, 20, 2})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ChainDecode)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Kernel)->Args({256, 0})->Args({256, 1})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dp)->Args({100, 1})->Args({100, 2})->Args({0, 2})->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

int main(int argc, char** argv) {
    return bench::runWithSummary(argc, argv, compareReverseWithForward);
}
