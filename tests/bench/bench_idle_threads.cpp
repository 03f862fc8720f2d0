// SPDX-License-Identifier: MIT
// What idle OpenMP threads cost: 20 short parallel loops of 2 threads, each followed by 20 ms
// without work, and the CPU time of the whole process (every thread) per round. With the
// passive wait policy the core sets (core/util/parallel.cpp) the threads sleep between loops;
// compare with the runtime's default spinning:
//
//     build/tests/bench_idle_threads
//     OMP_WAIT_POLICY=active build/tests/bench_idle_threads
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <thread>

#include <sys/resource.h>

#include "core/util/parallel.h"

namespace {

double processCpuMs() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
           (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-3;
}

void BM_IdleThreads(benchmark::State& state) {
    constexpr int kLoops = 20;
    double cpu = 0.0;
    double sink = 0.0;
    for (auto _ : state) {
        const double start = processCpuMs();
        for (int loop = 0; loop < kLoops; ++loop) {
            sink += core::parallelSum(8, 1, {.numThreads = 2}, [](int64_t begin, int64_t) {
                double s = 0.0;
                for (int i = 0; i < 200000; ++i) {
                    s += std::sqrt(static_cast<double>(i + begin));
                }
                return s;
            });
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        cpu += processCpuMs() - start;
    }
    benchmark::DoNotOptimize(sink);
    state.counters["process_cpu_ms"] = cpu / static_cast<double>(state.iterations());
}
BENCHMARK(BM_IdleThreads)->Iterations(5)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
