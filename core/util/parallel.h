// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

// The one home of parallelism in core: its loops run on OpenMP threads (LLVM's runtime,
// libomp). Work over [0, n) is split into fixed blocks whose boundaries depend only on n and
// the block size, never on the thread count, so per-block results combined in block order are
// identical for 1 and N threads.
namespace core {

class Progress;

struct ParallelOptions {
    int numThreads = 1;  // OpenMP threads; 1 runs inline on the caller's thread
};

// Number of cores this process may run on (its affinity mask; at least 1).
int hardwareThreads();

// The thread count to use when the user named none: OMP_NUM_THREADS when set (the runtime's
// omp_get_max_threads()), otherwise every core this process may use; within limits::kThreads.
int defaultThreads();

// Starts the OpenMP runtime now, on the calling thread. libomp writes a small shared-memory
// file when it starts; started lazily by the first loop, a process whose file-size limit is
// that low (or a test that lowers it) dies of SIGBUS in the middle of a job. Programs call it
// first thing in main, after setting the runtime's environment.
void startParallelRuntime();

// Marks the calling thread, for the scope's life, as one that may end before the program: the
// loops it starts run inline, without opening an OpenMP team. libomp keeps per-thread state
// for every thread that opens a team and frees memory through it later; a thread that ended
// left that state behind and the runtime aborted on a later loop (kmp_alloc's q_th assertion).
// Programs enter OpenMP only from threads that live as long as they do (main, the GUI's job
// threads); a short-lived helper thread opens this scope first.
class InlineLoopsOnThisThread {
public:
    InlineLoopsOnThisThread();
    ~InlineLoopsOnThisThread();
    InlineLoopsOnThisThread(const InlineLoopsOnThisThread&) = delete;
    InlineLoopsOnThisThread& operator=(const InlineLoopsOnThisThread&) = delete;

private:
    bool m_previous;
};

// Calls body(block, begin, end) for every block of [0, n) of at most blockSize items.
// Blocks may run concurrently and finish in any order, but they start in increasing order: a
// block may wait for an earlier one (a pipeline), never for a later one. An exception thrown
// by a body is caught and the first one (by block index) is rethrown on the calling thread
// after all blocks finished. Once `progress` is cancelled the blocks not yet started are
// skipped; the caller tells a cancelled run by progress->cancelled(). A loop started inside
// another one runs inline on its caller's thread. The first blocks run on the caller, which
// measures them and opens a team for the rest only when they would take it long enough alone
// (a few milliseconds) to be worth one: a short loop never waits for a partner that another
// program keeps off its core.
void parallelForBlocks(int64_t n,
                       int64_t blockSize,
                       const ParallelOptions& options,
                       const std::function<void(int64_t block, int64_t begin, int64_t end)>& body,
                       Progress* progress = nullptr);

// Calls body(i) for every i in [0, n); for loops whose iterations are independent.
void parallelFor(int64_t n,
                 const ParallelOptions& options,
                 const std::function<void(int64_t i)>& body,
                 int64_t blockSize = 64);

// Deterministic sum: partial(begin, end) per block, added in block order.
double parallelSum(int64_t n,
                   int64_t blockSize,
                   const ParallelOptions& options,
                   const std::function<double(int64_t begin, int64_t end)>& partial);

inline int64_t numBlocks(int64_t n, int64_t blockSize) {
    return n <= 0 ? 0 : (n + blockSize - 1) / blockSize;
}

}  // namespace core
