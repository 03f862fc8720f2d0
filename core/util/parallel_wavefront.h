// SPDX-License-Identifier: MIT
#pragma once

#include <functional>

#include "core/util/parallel.h"

// The funnel's second shape (core/util/parallel.cpp): a grid of units that depend on their
// neighbours, as the DP's sweep is.
namespace core {

// Calls body(row, col) for every cell of a rows × cols grid, each cell once the cell to its
// left and the cell above it have finished: a wavefront, as a graph of OpenMP tasks that any
// thread takes once they are ready (none waits for a particular thread, so one slowed by
// another program holds up only the cell it runs). Threads beyond `rows` would idle. Errors
// and cancellation as in parallelForBlocks (the first error in row-major order).
void parallelWavefront(int rows,
                       int cols,
                       const ParallelOptions& options,
                       const std::function<void(int row, int col)>& body,
                       Progress* progress = nullptr);

}  // namespace core
