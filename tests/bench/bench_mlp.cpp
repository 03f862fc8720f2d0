// SPDX-License-Identifier: MIT
// Training throughput of the learned denoisers, in training examples per second:
// the categorical digits MLP (D = 64, K = 4, width 256, depth 3, conditional on 10 labels) and a
// 2-D Gaussian ε-MLP (width 128, depth 3), each with 1 and 2 threads. The data are synthetic
// (throughput does not depend on the values). Args: threads.
#include <benchmark/benchmark.h>

#include "core/model/trainer.h"
#include "core/util/rng.h"

using namespace core;
using namespace core::model;

namespace {

constexpr int kStepsPerIteration = 5;

void BM_TrainCategoricalDigits(benchmark::State& state) {
    const int d = 64, k = 4, batch = 128;
    CategoricalDataset data;
    CounterRng rng(1, 0, 0);
    for (int m = 0; m < 1000; ++m) {
        for (int p = 0; p < d; ++p) {
            data.rows.push_back(static_cast<int>(rng.uniform() * k));
        }
        data.labels.push_back(m % 10);
    }
    const CategoricalProcess process{.numClasses = k, .numPositions = d, .numConditions = 10,
                                     .pi = Vector::Constant(k, 1.0 / k), .beta = schedule::cosineCurve()};
    const MlpConfig architecture{.width = 256, .depth = 3, .timeEmbedding = 32, .conditionEmbedding = 32};
    const TrainParams params{.steps = kStepsPerIteration, .batch = batch, .evalEvery = 0,
                             .parallel = {static_cast<int>(state.range(0))}};
    for (auto _ : state) {
        Result<CategoricalTrainResult> r = trainCategorical(process, data, CategoricalDataset{}, architecture, params);
        benchmark::DoNotOptimize(r->summary.finalTrainLoss);
    }
    state.counters["samples/s"] = benchmark::Counter(static_cast<double>(batch) * kStepsPerIteration,
                                                     benchmark::Counter::kIsIterationInvariantRate);
}

void BM_TrainGaussian2D(benchmark::State& state) {
    const int batch = 256;
    Matrix data(2, 1000);
    for (int m = 0; m < 1000; ++m) {
        CounterRng rng(2, static_cast<uint64_t>(m), 0);
        data(0, m) = rng.normal();
        data(1, m) = rng.normal();
    }
    const schedule::GaussianSchedule schedule = *schedule::linearSchedule(1000);
    const MlpConfig architecture{.width = 128, .depth = 3, .timeEmbedding = 32};
    const TrainParams params{.steps = kStepsPerIteration, .batch = batch, .evalEvery = 0,
                             .parallel = {static_cast<int>(state.range(0))}};
    for (auto _ : state) {
        Result<GaussianTrainResult> r = trainGaussian(schedule, data, Matrix(), architecture, params);
        benchmark::DoNotOptimize(r->summary.finalTrainLoss);
    }
    state.counters["samples/s"] = benchmark::Counter(static_cast<double>(batch) * kStepsPerIteration,
                                                     benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

BENCHMARK(BM_TrainCategoricalDigits)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TrainGaussian2D)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
