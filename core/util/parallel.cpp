// SPDX-License-Identifier: MIT
#include "core/util/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <sched.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/util/limits.h"

namespace core {
namespace {

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

// True on a thread that is running blocks of a parallel loop: a loop started from inside one
// runs inline, so nested loops never wait for the pool they occupy.
thread_local bool t_insideLoop = false;

// The workers behind parallelForBlocks. They sleep on a condition variable between loops and
// never spin: on a machine shared with other programs (and with the GUI's own thread) a
// spinning team steals the cores the loop needs, and OpenMP's spin-then-sleep barriers made
// two threads up to ten times slower than one there. The pool serves one loop at a time; a
// loop started while it is busy (another job's) runs on its caller's thread alone. Blocks are
// fixed by n and the block size, so the thread that runs a block never changes a result.
class WorkerPool {
public:
    static WorkerPool& instance() {
        static WorkerPool pool;
        return pool;
    }

    ~WorkerPool() {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        for (std::thread& worker : m_workers) {
            worker.join();
        }
    }

    // Runs runBlock(b) for every b in [0, blocks) on the caller and up to helpers - 1 workers.
    // Returns false, having run nothing, when another loop holds the pool.
    bool run(int64_t blocks, int helpers, const std::function<void(int64_t)>& runBlock) {
        {
            std::unique_lock lock(m_mutex);
            if (m_busy) {
                return false;
            }
            try {
                while (static_cast<int>(m_workers.size()) < helpers) {
                    m_workers.emplace_back([this] { workerLoop(); });
                }
            } catch (...) {
                // No more threads to be had (a process limit): use those that exist.
                helpers = static_cast<int>(m_workers.size());
                if (helpers == 0) {
                    return false;
                }
            }
            m_busy = true;
            m_job = &runBlock;
            m_blocks = blocks;
            m_next.store(0, std::memory_order_relaxed);
            m_seats = helpers;
            ++m_generation;
        }
        m_wake.notify_all();
        takeBlocks(runBlock, blocks);
        std::unique_lock lock(m_mutex);
        m_seats = 0;  // no worker joins a loop whose blocks are all taken
        m_done.wait(lock, [this] { return m_inside == 0; });
        m_job = nullptr;
        m_busy = false;
        return true;
    }

private:
    void takeBlocks(const std::function<void(int64_t)>& runBlock, int64_t blocks) {
        const bool wasInside = t_insideLoop;
        t_insideLoop = true;
        for (int64_t b = m_next.fetch_add(1); b < blocks; b = m_next.fetch_add(1)) {
            runBlock(b);
        }
        t_insideLoop = wasInside;
    }

    void workerLoop() {
        uint64_t seen = 0;
        std::unique_lock lock(m_mutex);
        while (true) {
            m_wake.wait(lock, [&] { return m_stop || (m_generation != seen && m_seats > 0); });
            if (m_stop) {
                return;
            }
            seen = m_generation;
            --m_seats;
            ++m_inside;
            const std::function<void(int64_t)>* job = m_job;
            const int64_t blocks = m_blocks;
            lock.unlock();
            takeBlocks(*job, blocks);
            lock.lock();
            if (--m_inside == 0) {
                m_done.notify_all();
            }
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    std::vector<std::thread> m_workers;
    const std::function<void(int64_t)>* m_job = nullptr;
    int64_t m_blocks = 0;
    std::atomic<int64_t> m_next{0};
    uint64_t m_generation = 0;
    int m_seats = 0;   // workers that may still join the current loop
    int m_inside = 0;  // workers running blocks of it
    bool m_busy = false;
    bool m_stop = false;
};

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

void parallelForBlocks(int64_t n,
                       int64_t blockSize,
                       const ParallelOptions& options,
                       const std::function<void(int64_t, int64_t, int64_t)>& body) {
    if (n <= 0) {
        return;
    }
    if (blockSize < 1) {
        blockSize = 1;
    }
    const int64_t blocks = numBlocks(n, blockSize);
    // No exception may cross threads: one slot per block, the first (by block) rethrown here.
    std::vector<std::exception_ptr> errors(static_cast<size_t>(blocks));
    const std::function<void(int64_t)> runBlock = [&](int64_t b) {
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
    const bool parallel =
        threads > 1 && !t_insideLoop && WorkerPool::instance().run(blocks, threads - 1, runBlock);
    if (!parallel) {
        for (int64_t b = 0; b < blocks; ++b) {
            runBlock(b);
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
