// SPDX-License-Identifier: MIT
// Training throughput of the learned denoisers, in training examples per second:
// the categorical digits MLP (D = 64, K = 4, width 256, depth 3, conditional on 10 labels) and a
// 2-D Gaussian ε-MLP (width 128, depth 3), each with 1 and 2 threads. The data are synthetic
// (throughput does not depend on the values). Args: threads.
//
// Timed, as tests/bench/torch_mlp_step.py times PyTorch, are the optimiser steps of a run after
// its first kWarmupSteps (each iteration is one trainCategorical/trainGaussian call; the set-up
// of the network, the first touch of the gradient buffers and the copies of the result are not
// steps). After the run the figures are set against torch_mlp_step.py's (PyTorch from
// $DIFFUSCOPE_PYTHON, python3 or /usr/bin/python3; Debian's python3-torch, with OpenBLAS when
// libopenblas0 is installed) as ours / PyTorch per network and thread count (above 1: ours is
// faster). DIFFUSCOPE_MLP_KERNELS=portable|avx2|avx512 measures one set of the MLP's kernels.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/model/mlp_kernels.h"
#include "core/model/trainer.h"
#include "core/util/rng.h"
#include "tests/bench/comparison.h"

using namespace core;
using namespace core::model;

namespace {

constexpr int kWarmupSteps = 2;   // untimed steps at the start of each run
constexpr int kTimedSteps = 10;   // timed steps after them
constexpr int kCategoricalBatch = 128;
constexpr int kGaussianBatch = 256;

// Times steps kWarmupSteps + 1 .. kWarmupSteps + kTimedSteps of a run through onLoss (called on
// the training thread after every step) and reports them as the iteration's time.
class StepTimer {
public:
    void attach(TrainParams& params) {
        params.onLoss = [this](const LossPoint& point, bool heldOut) {
            if (heldOut) {
                return;
            }
            if (point.step == kWarmupSteps) {
                m_start = std::chrono::steady_clock::now();
            } else if (point.step == kWarmupSteps + kTimedSteps) {
                m_stop = std::chrono::steady_clock::now();
            }
        };
    }
    double seconds() const { return std::chrono::duration<double>(m_stop - m_start).count(); }

private:
    std::chrono::steady_clock::time_point m_start, m_stop;
};

void BM_TrainCategoricalDigits(benchmark::State& state) {
    const int d = 64, k = 4, batch = kCategoricalBatch;
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
    TrainParams params{.steps = kWarmupSteps + kTimedSteps, .batch = batch, .evalEvery = 0,
                       .parallel = {static_cast<int>(state.range(0))}};
    StepTimer timer;
    timer.attach(params);
    for (auto _ : state) {
        Result<CategoricalTrainResult> r = trainCategorical(process, data, CategoricalDataset{}, architecture, params);
        benchmark::DoNotOptimize(r->summary.finalTrainLoss);
        state.SetIterationTime(timer.seconds());
    }
    state.counters["samples/s"] = benchmark::Counter(static_cast<double>(batch) * kTimedSteps,
                                                     benchmark::Counter::kIsIterationInvariantRate);
}

void BM_TrainGaussian2D(benchmark::State& state) {
    const int batch = kGaussianBatch;
    Matrix data(2, 1000);
    for (int m = 0; m < 1000; ++m) {
        CounterRng rng(2, static_cast<uint64_t>(m), 0);
        data(0, m) = rng.normal();
        data(1, m) = rng.normal();
    }
    const schedule::GaussianSchedule schedule = *schedule::linearSchedule(1000);
    const MlpConfig architecture{.width = 128, .depth = 3, .timeEmbedding = 32};
    TrainParams params{.steps = kWarmupSteps + kTimedSteps, .batch = batch, .evalEvery = 0,
                       .parallel = {static_cast<int>(state.range(0))}};
    StepTimer timer;
    timer.attach(params);
    for (auto _ : state) {
        Result<GaussianTrainResult> r = trainGaussian(schedule, data, Matrix(), architecture, params);
        benchmark::DoNotOptimize(r->summary.finalTrainLoss);
        state.SetIterationTime(timer.seconds());
    }
    state.counters["samples/s"] = benchmark::Counter(static_cast<double>(batch) * kTimedSteps,
                                                     benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_TrainCategoricalDigits)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseManualTime();
BENCHMARK(BM_TrainGaussian2D)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseManualTime();

// torch_mlp_step.py's output, the first Python that imports torch: $DIFFUSCOPE_PYTHON, python3,
// /usr/bin/python3. OMP_WAIT_POLICY=PASSIVE keeps torch's OpenMP workers from spinning against
// OpenBLAS's threads (see the script's docstring). Empty when none ran.
std::string runTorch(const std::string& threads) {
    std::vector<std::string> pythons{"python3", "/usr/bin/python3"};
    if (const char* chosen = std::getenv("DIFFUSCOPE_PYTHON")) {
        pythons.insert(pythons.begin(), chosen);
    }
    for (const std::string& python : pythons) {
        const std::string command = "OMP_WAIT_POLICY=PASSIVE " + python + " " DIFFUSCOPE_BENCH_DIR
                                    "/torch_mlp_step.py --threads " + threads + " 2>/dev/null";
        std::string output;
        if (std::FILE* pipe = ::popen(command.c_str(), "r")) {
            char buffer[4096];
            while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
                output += buffer;
            }
            if (::pclose(pipe) == 0 && !output.empty()) {
                return output;
            }
        }
    }
    return {};
}

// Ours against PyTorch's samples/s, per network and thread count.
void compareWithTorch(const bench::Times& times, std::FILE* out) {
    struct Case {
        const char* ours;   // our benchmark, without the thread count
        const char* torch;  // how torch_mlp_step.py's heading for the network begins
        int batch;
    };
    const Case cases[] = {{"BM_TrainCategoricalDigits", "categorical digits", kCategoricalBatch},
                          {"BM_TrainGaussian2D", "Gaussian 2-D", kGaussianBatch}};
    std::string threads;
    for (const char* t : {"1", "2"}) {
        bool any = false;
        for (const Case& c : cases) {
            any = any || times.count(std::string(c.ours) + "/" + t) > 0;
        }
        if (any) {
            threads += threads.empty() ? t : std::string(" ") + t;
        }
    }
    if (threads.empty()) {
        return;
    }
    const std::string output = runTorch(threads);
    if (output.empty()) {
        std::fprintf(out, "\nPyTorch: no Python with torch found (set DIFFUSCOPE_PYTHON; Debian: python3-torch, "
                          "libopenblas0)\n");
        return;
    }
    // Lines: "torch <version>, float32, BLAS loaded: ...", a heading per network, then
    // "  <n> thread(s): median <samples/s> samples/s  (min ..., max ...)".
    std::map<std::string, double> torch;  // "<our name>/<threads>" → samples/s
    std::string first;
    const Case* current = nullptr;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        if (first.empty()) {
            first = line;
        }
        for (const Case& c : cases) {
            if (line.rfind(c.torch, 0) == 0) {
                current = &c;
            }
        }
        int n = 0;
        double rate = 0.0;
        if (current != nullptr && (std::sscanf(line.c_str(), " %d threads: median %lf", &n, &rate) == 2 ||
                                   std::sscanf(line.c_str(), " %d thread : median %lf", &n, &rate) == 2)) {
            torch[std::string(current->ours) + "/" + std::to_string(n)] = rate;
        }
    }
    std::fprintf(out, "\nAgainst PyTorch (tests/bench/torch_mlp_step.py; %s), MLP kernels: %s\n", first.c_str(),
                 mlpKernelName());
    std::fprintf(out, "%-30s %8s %14s %14s %16s\n", "training step (samples/s)", "threads", "ours", "PyTorch",
                 "ours / PyTorch");
    for (const Case& c : cases) {
        for (const char* t : {"1", "2"}) {
            const std::string name = std::string(c.ours) + "/" + t;
            const auto ours = times.find(name);
            const auto reference = torch.find(name);
            if (ours == times.end() || reference == torch.end()) {
                continue;
            }
            const double rate = c.batch * kTimedSteps / (ours->second * 1e-3);
            std::fprintf(out, "%-30s %8s %12.0f/s %12.0f/s %16.2f\n", c.ours, t, rate, reference->second,
                         rate / reference->second);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    // DIFFUSCOPE_MLP_KERNELS=portable|avx2|avx512 measures one kernel set (default: the CPU's best).
    if (const char* kernels = std::getenv("DIFFUSCOPE_MLP_KERNELS")) {
        if (!detail::selectMlpKernels(kernels)) {
            std::fprintf(stderr, "DIFFUSCOPE_MLP_KERNELS=%s: not available here\n", kernels);
            return 1;
        }
    }
    return bench::runWithSummary(argc, argv, compareWithTorch);
}
