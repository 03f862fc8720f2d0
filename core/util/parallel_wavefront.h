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
// As there, the first columns run on the caller, which opens a team for the rest only when, at
// the rate it measured, they would take it long enough to be worth one; `columnWork(col)`
// (optional) is a column's relative work, for that estimate. `wholeColumn(col)` (optional)
// does what body(0, col) … body(rows − 1, col) do, as one unit: the caller alone runs that
// (a column split into rows costs more than one pass); an error it throws counts as row 0's.
void parallelWavefront(int rows,
                       int cols,
                       const ParallelOptions& options,
                       const std::function<void(int row, int col)>& body,
                       Progress* progress = nullptr,
                       const std::function<double(int col)>& columnWork = {},
                       const std::function<void(int col)>& wholeColumn = {});

}  // namespace core
