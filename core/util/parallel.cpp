// SPDX-License-Identifier: MIT
#include "core/util/parallel.h"

#include "core/util/limits.h"

#include <algorithm>
#include <exception>
#include <thread>

#ifdef DIFFUSCOPE_HAVE_OPENMP
#include <omp.h>
#endif

namespace core {

int hardwareThreads() {
#ifdef DIFFUSCOPE_HAVE_OPENMP
    return std::max(1, omp_get_num_procs());
#else
    return std::max(1u, std::thread::hardware_concurrency());
#endif
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
    // No exception may leave an OpenMP region: keep one slot per block, rethrow the first.
    std::vector<std::exception_ptr> errors(static_cast<size_t>(blocks));
    auto runBlock = [&](int64_t b) {
        const int64_t begin = b * blockSize;
        const int64_t end = std::min(n, begin + blockSize);
        try {
            body(b, begin, end);
        } catch (...) {
            errors[static_cast<size_t>(b)] = std::current_exception();
        }
    };
#ifdef DIFFUSCOPE_HAVE_OPENMP
    // Callers refuse more than limits::kThreads; the clamp keeps a forgotten check from asking
    // OpenMP for 100 000 threads (which crashes inside libgomp).
    const int threads = static_cast<int>(
        std::clamp<long long>(options.numThreads, 1, limits::kThreads.max));
    if (threads > 1 && blocks > 1) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (int64_t b = 0; b < blocks; ++b) {
            runBlock(b);
        }
    } else {
        for (int64_t b = 0; b < blocks; ++b) {
            runBlock(b);
        }
    }
#else
    (void)options;
    for (int64_t b = 0; b < blocks; ++b) {
        runBlock(b);
    }
#endif
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
