// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

// The one home of parallelism in core. Work over [0, n) is split into fixed
// blocks whose boundaries depend only on n and the block size, never on the thread count, so
// per-block results combined in block order are identical for 1 and N threads.
namespace core {

struct ParallelOptions {
    int numThreads = 1;  // OpenMP threads; 1 runs inline on the caller's thread
};

// Number of hardware threads this process may use (at least 1).
int hardwareThreads();

// Calls body(block, begin, end) for every block of [0, n) of at most blockSize items.
// Blocks may run concurrently and finish in any order, but they start in increasing order: a
// block may wait for an earlier one (a pipeline), never for a later one. An exception thrown by a body is caught and
// the first one (by block index) is rethrown on the calling thread after all blocks finished.
void parallelForBlocks(int64_t n,
                       int64_t blockSize,
                       const ParallelOptions& options,
                       const std::function<void(int64_t block, int64_t begin, int64_t end)>& body);

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
