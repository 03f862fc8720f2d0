// SPDX-License-Identifier: MIT
// What a benchmark run exists to show, printed after it: every case whose last argument is the
// thread count as 1 against 2 threads, and comparisons a benchmark adds (a reference
// implementation's time). With --benchmark_format=json (tests/bench/contention.py) the JSON
// on stdout stays clean and the summary goes to stderr.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace bench {

// Real (or manual) time per iteration in milliseconds, by run name without the "/real_time" or
// "/manual_time" suffix.
using Times = std::map<std::string, double>;

template <class Base>
class Recording : public Base {
public:
    explicit Recording(Times& times) : m_times(times) {}
    void ReportRuns(const std::vector<benchmark::BenchmarkReporter::Run>& runs) override {
        for (const auto& run : runs) {
            if (run.run_type != benchmark::BenchmarkReporter::Run::RT_Iteration ||
                run.error_occurred) {
                continue;
            }
            std::string name = run.benchmark_name();
            for (const char* suffix : {"/real_time", "/manual_time"}) {
                if (const size_t cut = name.find(suffix); cut != std::string::npos) {
                    name.erase(cut);
                }
            }
            m_times[name] = run.GetAdjustedRealTime() *
                            benchmark::GetTimeUnitMultiplier(benchmark::kMillisecond) /
                            benchmark::GetTimeUnitMultiplier(run.time_unit);
        }
        Base::ReportRuns(runs);
    }

private:
    Times& m_times;
};

// "name/1" against "name/2" for every case run with both.
inline void printThreadRatios(const Times& times, std::FILE* out) {
    bool header = false;
    for (const auto& [name, one] : times) {
        if (name.size() < 2 || name.compare(name.size() - 2, 2, "/1") != 0) {
            continue;
        }
        const std::string base = name.substr(0, name.size() - 2);
        const auto two = times.find(base + "/2");
        if (two == times.end()) {
            continue;
        }
        if (!header) {
            std::fprintf(out, "\n%-44s %12s %12s %16s\n", "1 against 2 threads", "1 thread",
                         "2 threads", "2-thread/1-thread");
            header = true;
        }
        std::fprintf(out, "%-44s %9.2f ms %9.2f ms %16.2f\n", base.c_str(), one, two->second,
                     two->second / one);
    }
}

// Runs the benchmarks the command line selects, then the summary and `extra` (which may run a
// reference and print its comparison) on stdout, or stderr when the output is JSON.
inline int runWithSummary(int argc, char** argv,
                          const std::function<void(const Times&, std::FILE*)>& extra) {
    // Before Initialize, which removes the flags it knows from argv.
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        json = json || std::strcmp(argv[i], "--benchmark_format=json") == 0;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    Times times;
    std::FILE* out = json ? stderr : stdout;
    if (json) {
        Recording<benchmark::JSONReporter> reporter(times);
        benchmark::RunSpecifiedBenchmarks(&reporter);
    } else {
        Recording<benchmark::ConsoleReporter> reporter(times);
        benchmark::RunSpecifiedBenchmarks(&reporter);
    }
    printThreadRatios(times, out);
    if (extra) {
        extra(times, out);
    }
    benchmark::Shutdown();
    return 0;
}

}  // namespace bench
