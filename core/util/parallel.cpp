// SPDX-License-Identifier: MIT
#include "core/util/parallel.h"
#include "core/util/parallel_wavefront.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include <omp.h>
#include <sched.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/util/limits.h"
#include "core/util/progress.h"

namespace core {
namespace {

// libomp registers itself in a shared-memory file named after the process id and user id,
// sized when the runtime starts. A libomp process killed between creating and sizing it leaves
// a 0-byte file, and a later process that is given the same pid reads it as another copy of
// the runtime and aborts at start-up. Such a file can only be a dead process's: this process
// has not started the runtime yet.
void removeStaleRuntimeRegistration() {
    const std::string path = "/dev/shm/__KMP_REGISTERED_LIB_" + std::to_string(::getpid()) +
                             "_" + std::to_string(::getuid());
    struct stat info {};
    if (::lstat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && info.st_size == 0 &&
        info.st_uid == ::getuid()) {
        ::unlink(path.c_str());
    }
}

// glibc's malloc raises its mmap threshold only after a large block has been freed, and trims
// the heap's top above twice that threshold, so a loop that allocates and frees a few hundred
// KB per item (Γ's batches, the empirical oracle's softmax weights) kept getting fresh pages,
// whose faults are slow here and serialise the threads (Γ, 1000-point empirical oracle,
// d = 64: 1085 ms on one thread instead of 452, and two threads beside a busy process 1.16×
// one). Fixed thresholds at glibc's own largest dynamic values keep such blocks for reuse;
// blocks over 32 MB are still mapped and returned on free. Set before main, for every program
// that links the core.
#if defined(__GLIBC__)
const bool kAllocatorTuned = [] {
    ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
    ::mallopt(M_TRIM_THRESHOLD, 64 << 20);
    return true;
}();
#endif

// libomp's threads spin for a while (200 ms by default) after every loop before they sleep;
// on a machine shared with other programs, and with the GUI's own thread, that spinning steals
// the cores the loops need (two threads up to 20× slower than one beside busy loops). Passive
// waiting puts them to sleep at once (tests/bench/bench_idle_threads.cpp: 52 ms of CPU time per
// round instead of 252). The runtime reads the variable when it starts, at the first loop; a
// value the user set stays. The GUI and the CLI set it too, first thing in main.
const bool kThreadsSleep = [] {
    ::setenv("OMP_WAIT_POLICY", "passive", 0);
    // Task priorities (parallelWavefront's) count only up to this; the default is 0.
    ::setenv("OMP_MAX_TASK_PRIORITY", "1024", 0);
    return true;
}();

}  // namespace

int hardwareThreads() {
    // The cores this process may run on (taskset, cgroups' cpusets), not all the machine's.
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0) {
        return std::max(1, CPU_COUNT(&set));
    }
    return std::max(1u, std::thread::hardware_concurrency());
}

int defaultThreads() {
    const char* given = std::getenv("OMP_NUM_THREADS");
    const int threads =
        given != nullptr && *given != '\0' ? omp_get_max_threads() : hardwareThreads();
    return static_cast<int>(std::clamp<long long>(threads, 1, limits::kThreads.max));
}

namespace {
thread_local bool t_inlineLoops = false;

// A loop opens a team only when the work left after a first measured part would take the
// caller longer than kMinTeamSeconds alone. A second thread can save at most half of it, and
// on a machine shared with other programs the scheduler can keep a partner off its core while
// the caller waits for the block it holds at the loop's end. Decided by the work measured, not
// by a guess of the load: a training step's loops (2–3 ms) and the cost matrix of a schedule
// change (3 ms at N = 1000) stay on the caller; a sampler's step over 10⁶ chains (6 ms) and
// longer loops go to a team.
constexpr double kMinTeamSeconds = 0.004;
// A wavefront's units wait for one another, so a partner kept off its core holds up the caller
// throughout, not only at the end: its team must have more to win (the DP for every K at
// N = 1000, 31 ms alone, took 151 ms with a team beside two busy loops).
constexpr double kMinWavefrontTeamSeconds = 0.100;
// The caller works alone for at least this long (or to the end) before it decides, so that
// the rate it measures is not one block's noise.
constexpr double kProbeSeconds = 0.001;
// A wavefront's first columns cost more than their share of the sums (cold cache lines of the
// cost matrix, short columns): its caller measures at least this share of the work before it
// decides (every K at N = 1000: a 1 ms probe estimated 104 ms for 31 ms of work).
constexpr double kWavefrontProbeShare = 0.05;

// The CPU time of the calling thread: the work it did, not the time another program held its
// core (a wall clock read beside busy loops took a preempted probe for long work).
double threadSeconds() {
    timespec now{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// Whether the work left, at the rate the caller measured so far, is worth a team.
bool worthATeam(double elapsed, double done, double left, double minSeconds = kMinTeamSeconds) {
    return done > 0.0 && elapsed * left / done >= minSeconds;
}
}  // namespace

InlineLoopsOnThisThread::InlineLoopsOnThisThread() : m_previous(t_inlineLoops) {
    t_inlineLoops = true;
}

InlineLoopsOnThisThread::~InlineLoopsOnThisThread() { t_inlineLoops = m_previous; }

void startParallelRuntime() {
    removeStaleRuntimeRegistration();
    // Any runtime call starts it; this one has no other effect.
    static_cast<void>(omp_in_parallel());
}

void parallelForBlocks(int64_t n,
                       int64_t blockSize,
                       const ParallelOptions& options,
                       const std::function<void(int64_t, int64_t, int64_t)>& body,
                       Progress* progress) {
    if (n <= 0) {
        return;
    }
    if (blockSize < 1) {
        blockSize = 1;
    }
    const int64_t blocks = numBlocks(n, blockSize);
    // No exception may leave an OpenMP region: one slot per block, the first (by block)
    // rethrown here.
    std::vector<std::exception_ptr> errors(static_cast<size_t>(blocks));
    const auto runBlock = [&](int64_t b) {
        if (progress != nullptr && progress->cancelled()) {
            return;
        }
        const int64_t begin = b * blockSize;
        const int64_t end = std::min(n, begin + blockSize);
        try {
            body(b, begin, end);
        } catch (...) {
            errors[static_cast<size_t>(b)] = std::current_exception();
        }
    };
    // Callers refuse more than limits::kThreads; the clamp guards against a forgotten check.
    const int threads = static_cast<int>(
        std::min<long long>({std::max(1, options.numThreads), limits::kThreads.max, blocks}));
    // A loop inside a loop runs on its caller's thread: its team would only oversubscribe the
    // cores the outer loop already holds. The same for any OpenMP region a body opens itself.
    // The first blocks run here, in order, while the caller measures them (all of them for a
    // loop without a team).
    const bool team = threads > 1 && !t_inlineLoops && !omp_in_parallel();
    const double start = threadSeconds();
    bool decided = !team;
    int64_t first = 0;
    for (; first < blocks; ++first) {
        if (!decided && first > 0) {
            const double elapsed = threadSeconds() - start;
            if (elapsed >= kProbeSeconds) {
                decided = true;
                if (worthATeam(elapsed, static_cast<double>(first),
                               static_cast<double>(blocks - first))) {
                    break;
                }
            }
        }
        runBlock(first);
    }
    if (first < blocks) {
        omp_set_max_active_levels(1);
        // dynamic,1 hands the blocks out one at a time in increasing order: they start in
        // order, and a thread slowed by another program holds up only the block it runs.
        // "monotonic" says so: OpenMP 5's default for dynamic is nonmonotonic, which clang
        // emits and libomp runs as work stealing, each thread from its own contiguous range.
#pragma omp parallel for schedule(monotonic : dynamic, 1) num_threads(threads)
        for (int64_t b = first; b < blocks; ++b) {
            runBlock(b);
        }
    }
    for (const auto& error : errors) {
        if (error) {
            std::rethrow_exception(error);
        }
    }
}

void parallelWavefront(int rows,
                       int cols,
                       const ParallelOptions& options,
                       const std::function<void(int, int)>& body,
                       Progress* progress,
                       const std::function<double(int)>& columnWork,
                       const std::function<void(int)>& wholeColumn) {
    if (rows <= 0 || cols <= 0) {
        return;
    }
    const size_t cells = static_cast<size_t>(rows) * static_cast<size_t>(cols);
    std::vector<std::exception_ptr> errors(cells);
    const auto runCell = [&](int row, int col) {
        if (progress != nullptr && progress->cancelled()) {
            return;
        }
        try {
            body(row, col);
        } catch (...) {
            errors[static_cast<size_t>(row) * cols + col] = std::current_exception();
        }
    };
    // A column on the caller alone, as one unit when the caller has a way to run it whole.
    const auto runColumn = [&](int col) {
        if (progress != nullptr && progress->cancelled()) {
            return;
        }
        try {
            wholeColumn(col);
        } catch (...) {
            errors[static_cast<size_t>(col)] = std::current_exception();
        }
    };
    const int threads = static_cast<int>(
        std::min<long long>({std::max(1, options.numThreads), limits::kThreads.max, rows}));
    const bool team = threads > 1 && !t_inlineLoops && !omp_in_parallel();
    // Column by column on this thread (every cell after both of its predecessors) while the
    // caller measures; the columns left go to a team only when they are worth one.
    const auto work = [&](int col) { return columnWork ? columnWork(col) : 1.0; };
    double totalWork = 0.0;
    for (int col = 0; team && col < cols; ++col) {
        totalWork += work(col);
    }
    const double start = threadSeconds();
    bool decided = !team;
    double done = 0.0;
    int firstCol = 0;
    for (; firstCol < cols; ++firstCol) {
        if (!decided && firstCol > 0) {
            const double elapsed = threadSeconds() - start;
            if (elapsed >= kProbeSeconds && done >= kWavefrontProbeShare * totalWork) {
                decided = true;
                if (worthATeam(elapsed, done, totalWork - done, kMinWavefrontTeamSeconds)) {
                    break;
                }
            }
        }
        if (wholeColumn) {
            runColumn(firstCol);
        } else {
            for (int row = 0; row < rows; ++row) {
                runCell(row, firstCol);
            }
        }
        done += decided ? 0.0 : work(firstCol);
    }
    if (firstCol < cols) {
        // One token per cell stands for its result in the tasks' dependences; `none` for a
        // neighbour outside the grid.
        std::vector<char> token(cells);
        char none = 0;
        omp_set_max_active_levels(1);
#pragma omp parallel num_threads(threads)
#pragma omp single
        for (int col = firstCol; col < cols; ++col) {
            for (int row = 0; row < rows; ++row) {
                char* self = &token[static_cast<size_t>(row) * cols + col];
                char* left = col > firstCol ? self - 1 : &none;
                char* above = row > 0 ? self - cols : &none;
                // Upper rows first among the ready cells: they are what every later cell
                // waits for, and a free thread runs ahead on them while another is held up.
                const int priority = std::max(0, 1024 - row);
#pragma omp task default(shared) firstprivate(row, col) priority(priority) \
    depend(in : *left, *above) depend(out : *self)
                runCell(row, col);
            }
        }
    }
    for (const auto& error : errors) {
        if (error) {
            std::rethrow_exception(error);
        }
    }
}

void parallelFor(int64_t n,
                 const ParallelOptions& options,
                 const std::function<void(int64_t)>& body,
                 int64_t blockSize) {
    parallelForBlocks(n, blockSize, options, [&](int64_t, int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            body(i);
        }
    });
}

double parallelSum(int64_t n,
                   int64_t blockSize,
                   const ParallelOptions& options,
                   const std::function<double(int64_t, int64_t)>& partial) {
    std::vector<double> partials(static_cast<size_t>(numBlocks(n, std::max<int64_t>(1, blockSize))),
                                 0.0);
    parallelForBlocks(n, blockSize, options, [&](int64_t b, int64_t begin, int64_t end) {
        partials[static_cast<size_t>(b)] = partial(begin, end);
    });
    double total = 0.0;
    for (double p : partials) {
        total += p;
    }
    return total;
}

}  // namespace core
