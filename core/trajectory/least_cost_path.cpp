// SPDX-License-Identifier: MIT
#include "core/trajectory/least_cost_path.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/util/parallel_wavefront.h"

namespace core::trajectory {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Four doubles; GCC lowers the arithmetic to whatever the clone below is compiled for.
typedef double Pack __attribute__((vector_size(32)));
typedef long long Mask __attribute__((vector_size(32)));  // comparisons' lanes; chunk starts
constexpr int kLanes = 4;

// The runtime picks the widest of these the CPU has; min and + are exact in every width, so
// the clones agree to the bit.
#if defined(__GNUC__) && defined(__x86_64__) && defined(__linux__)
#define DIFFUSCOPE_SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define DIFFUSCOPE_SIMD_CLONES
#endif

// Whether x[0..n) holds a NaN, a pack at a time: the check runs before every solve, over N²/2
// entries, and a scalar loop with an early exit took as long as a small DP.
DIFFUSCOPE_SIMD_CLONES
bool hasNaN(const double* x, int n) {
    Mask any{0, 0, 0, 0};
    int i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        Pack p;
        std::memcpy(&p, x + i, sizeof p);
        any |= p != p;
    }
    bool found = (any[0] | any[1] | any[2] | any[3]) != 0;
    for (; i < n; ++i) {
        found = found || std::isnan(x[i]);
    }
    return found;
}

Status checkCostMatrix(const Matrix& cost) {
    if (cost.rows() != cost.cols() || cost.rows() < 2) {
        return invalidArgument("cost", std::to_string(cost.rows()) + "x" +
                                           std::to_string(cost.cols()),
                               "the cost matrix must be square with at least 2 nodes");
    }
    const Eigen::Index m = cost.rows();
    for (Eigen::Index t = 1; t < m; ++t) {
        if (!hasNaN(cost.col(t).data(), static_cast<int>(t))) {
            continue;
        }
        for (Eigen::Index s = 0; s < t; ++s) {
            if (std::isnan(cost(s, t))) {
                return makeError(ErrorCode::NumericalError,
                                 "cost(" + std::to_string(s) + ", " + std::to_string(t) + ")",
                                 "NaN", "a step cost is not a number");
            }
        }
    }
    return {};
}

// Forward tables, one row per edge count: best(k, n) is the least cost of reaching node n with
// k edges, from(k, n) its predecessor (−1 where no finite path arrives).
struct Tables {
    int numNodes = 0;
    std::vector<double> best;
    std::vector<int> from;

    Tables(int layers, int m)
        : numNodes(m),
          best(static_cast<size_t>(layers + 1) * m, kInf),
          from(static_cast<size_t>(layers + 1) * m, -1) {}
    double* bestRow(int k) { return best.data() + static_cast<size_t>(k) * numNodes; }
    const double* bestRow(int k) const { return best.data() + static_cast<size_t>(k) * numNodes; }
    int* fromRow(int k) { return from.data() + static_cast<size_t>(k) * numNodes; }
    const int* fromRow(int k) const { return from.data() + static_cast<size_t>(k) * numNodes; }
};

constexpr int kTile = 4;     // columns that share each load of a previous layer
constexpr int kLayers = 2;   // layers that share each load of a cost column
constexpr int kChunk = 32;   // predecessors per recorded partial minimum (a multiple of kLanes)

// The smallest s ≥ first whose sum previous[s] + col[s] equals `value`, which some s below
// first + kChunk attains; a pack at a time.
inline int firstAttaining(const double* previous, const double* col, int first, double value) {
    for (int s = first;; s += kLanes) {
        Pack p;
        Pack c;
        std::memcpy(&p, previous + s, sizeof p);
        std::memcpy(&c, col + s, sizeof c);
        const Mask equal = (p + c) == value;
        if (equal[0] | equal[1] | equal[2] | equal[3]) {
            return s + (equal[0] ? 0 : equal[1] ? 1 : equal[2] ? 2 : 3);
        }
    }
}

// Per layer and column of a tile: each lane's least sum over the packed predecessors and the
// first chunk (its offset from the first predecessor) where the lane reached it.
struct PackedMinima {
    Pack lowest[kLayers][kTile];
    Mask chunkOf[kLayers][kTile];
};

// The packed part of layers k0 .. k0 + numLayers − 1 over the columns `cols`: predecessors
// begin .. begin + packed − 1, all before the tile, so every layer of the group can run at
// once; each load of a cost column serves every layer, each load of a previous layer every
// column. Sums at s < k − 1, where layer k − 1 is still +inf, have no effect.
inline void packedMinima(const double* const* cols, const Tables& tables, int k0, int numLayers,
                         int begin, int packed, PackedMinima& out) {
    const double* previous[kLayers];
    for (int l = 0; l < kLayers; ++l) {
        // A short group repeats its last layer; those results are dropped.
        previous[l] = tables.bestRow(k0 - 1 + std::min(l, numLayers - 1));
        for (int j = 0; j < kTile; ++j) {
            out.lowest[l][j] = Pack{kInf, kInf, kInf, kInf};
            out.chunkOf[l][j] = Mask{0, 0, 0, 0};
        }
    }
    for (int chunkBegin = 0; chunkBegin < packed; chunkBegin += kChunk) {
        const int chunkEnd = std::min(packed, chunkBegin + kChunk);
        Pack acc[kLayers][kTile];
        for (int l = 0; l < kLayers; ++l) {
            for (int j = 0; j < kTile; ++j) {
                acc[l][j] = Pack{kInf, kInf, kInf, kInf};
            }
        }
        for (int s = begin + chunkBegin; s < begin + chunkEnd; s += kLanes) {
            Pack p[kLayers];
            for (int l = 0; l < kLayers; ++l) {
                std::memcpy(&p[l], previous[l] + s, sizeof p[l]);
            }
            for (int j = 0; j < kTile; ++j) {
                Pack c;
                std::memcpy(&c, cols[j] + s, sizeof c);
                for (int l = 0; l < kLayers; ++l) {
                    const Pack sum = p[l] + c;
                    // minpd's operand order; exact, and no NaN reaches it.
                    acc[l][j] = sum < acc[l][j] ? sum : acc[l][j];
                }
            }
        }
        const Mask chunk{chunkBegin, chunkBegin, chunkBegin, chunkBegin};
        for (int l = 0; l < kLayers; ++l) {
            for (int j = 0; j < kTile; ++j) {
                const Mask better = acc[l][j] < out.lowest[l][j];
                out.lowest[l][j] = better ? acc[l][j] : out.lowest[l][j];
                out.chunkOf[l][j] = better ? chunk : out.chunkOf[l][j];
            }
        }
    }
}

// Layers k0 .. k0 + numLayers − 1 (at most kLayers) for the columns [n0, n1) (at most kTile):
// best(k, n) = min over s in [k − 1, n) of best(k − 1, s) + cost(s, n), ties to the smallest s.
// The predecessors before the tile run as packs (packedMinima); the earliest chunk in which a
// lane reached the minimum holds the smallest attaining s, searched in that chunk only. The
// predecessors in the tile (its own previous layer) run last, one by one, layer after layer,
// and win only when strictly smaller.
DIFFUSCOPE_SIMD_CLONES
void relaxTile(const Matrix& cost, Tables& tables, int k0, int numLayers, int n0, int n1) {
    // The packs end at n0 and start up to three places before k0 − 1, where every layer of the
    // group is +inf, so that no predecessor before the tile is left over; near node 0 the
    // few left over run one by one.
    const int lanesBefore = (n0 - (k0 - 1) + kLanes - 1) / kLanes * kLanes;
    const int begin = n0 - lanesBefore >= 0 ? n0 - lanesBefore : k0 - 1;
    const int packed = std::max(0, n0 - begin) / kLanes * kLanes;
    const double* cols[kTile];
    for (int j = 0; j < kTile; ++j) {
        // A short last tile repeats its last column; those results are dropped.
        cols[j] = cost.data() + cost.rows() * std::min(n0 + j, n1 - 1);
    }
    PackedMinima minima;
    packedMinima(cols, tables, k0, numLayers, begin, packed, minima);
    for (int l = 0; l < numLayers; ++l) {
        const int k = k0 + l;
        const double* previous = tables.bestRow(k - 1);
        double* current = tables.bestRow(k);
        int* from = tables.fromRow(k);
        for (int n = std::max(n0, k); n < n1; ++n) {
            const int j = n - n0;
            const Pack& lowest = minima.lowest[l][j];
            double bestValue = std::min(std::min(lowest[0], lowest[1]),
                                        std::min(lowest[2], lowest[3]));
            int bestFrom = -1;
            if (bestValue < kInf) {
                long long chunk = packed;
                for (int lane = 0; lane < kLanes; ++lane) {
                    if (lowest[lane] == bestValue) {
                        chunk = std::min(chunk, minima.chunkOf[l][j][lane]);
                    }
                }
                bestFrom = firstAttaining(previous, cols[j], begin + static_cast<int>(chunk),
                                          bestValue);
            }
            for (int s = begin + packed; s < n; ++s) {
                const double candidate = previous[s] + cols[j][s];
                if (candidate < bestValue) {
                    bestValue = candidate;
                    bestFrom = s;
                }
            }
            current[n] = bestValue;
            from[n] = bestFrom;
        }
    }
}

// The cells a sweep fills: layer k, nodes lo(k)..hi(k). For one edge count E a node must still
// reach M − 1 in the E − k edges left, and layer E needs M − 1 alone; the sweep for every
// count needs every node of every layer. Every predecessor of a needed cell is needed.
struct Shape {
    int numNodes = 0;
    int numLayers = 0;
    bool oneCount = false;

    int lo(int k) const { return oneCount && k == numLayers ? numNodes - 1 : k; }
    int hi(int k) const { return oneCount ? numNodes - 1 - (numLayers - k) : numNodes - 1; }
    // Sums evaluated in layer k: Σ over its nodes n of the n − k + 1 predecessors.
    double work(int k) const {
        const double first = lo(k) - k + 1.0;
        const double last = hi(k) - k + 1.0;
        return last < first ? 0.0 : (first + last) * (last - first + 1.0) / 2.0;
    }
    // Sums evaluated at nodes n0 .. n1 − 1, over every layer.
    double columnsWork(int n0, int n1) const {
        double total = 0.0;
        for (int k = 1; k <= numLayers; ++k) {
            const double first = std::max(lo(k), n0) - k + 1.0;
            const double last = std::min(hi(k), n1 - 1) - k + 1.0;
            if (last >= first) {
                total += (first + last) * (last - first + 1.0) / 2.0;
            }
        }
        return total;
    }
    double totalWork() const {
        double total = 0.0;
        for (int k = 1; k <= numLayers; ++k) {
            total += work(k);
        }
        return total;
    }
};

// Layer boundaries of `count` bands of about equal work: band g holds layers bounds[g] ..
// bounds[g + 1] − 1.
std::vector<int> bandBounds(const Shape& shape, int count) {
    const double total = shape.totalWork();
    std::vector<int> bounds{1};
    double sum = 0.0;
    for (int k = 1; k <= shape.numLayers && static_cast<int>(bounds.size()) < count; ++k) {
        sum += shape.work(k);
        if (sum >= total * static_cast<double>(bounds.size()) / count) {
            bounds.push_back(k + 1);
        }
    }
    bounds.push_back(shape.numLayers + 1);
    return bounds;
}

// How many bands: one when the sweep is too small to share (below about a millisecond of work,
// K = 10 at N = 1000, a second thread's wake-up and hand-offs cost more than it saves), else
// several per thread, so that a thread slowed by another program on its core holds up only
// the unit it is running while the other threads take the rest.
int numBands(const Shape& shape, int threads) {
    constexpr double kMinParallelWork = 8e6;
    constexpr int kBandsPerThread = 4;
    if (threads <= 1 || shape.totalWork() < kMinParallelWork) {
        return 1;
    }
    return std::max(1, std::min(threads * kBandsPerThread, shape.numLayers / kLayers));
}

// The sweep as a wavefront of units: unit (g, c) runs band g's layers over the c-th step of
// kStepColumns columns. Layer k at node n needs layer k − 1 at nodes before n only, so (g, c)
// may run once band g has finished step c − 1 and band g − 1 step c: the funnel's
// parallelWavefront, whose threads take whichever unit is ready, so one slowed by another
// program on its core delays only its own unit.
struct Wavefront {
    static constexpr int kStepColumns = 32;
    const Matrix& cost;
    Tables& tables;
    Shape shape;
    std::vector<int> bounds;

    int numBandsTotal() const { return static_cast<int>(bounds.size()) - 1; }

    void runUnit(int band, int step) const { runLayers(bounds[band], bounds[band + 1] - 1, step); }

    // Layers first .. last over the step's columns.
    void runLayers(int first, int last, int step) const {
        const int stepBegin = 1 + step * kStepColumns;
        const int stepEnd = std::min(shape.numNodes, stepBegin + kStepColumns);
        for (int n0 = stepBegin; n0 < stepEnd; n0 += kTile) {
            const int n1 = std::min(stepEnd, n0 + kTile);
            for (int k = first; k <= last; k += kLayers) {
                const int numLayers = std::min(kLayers, last - k + 1);
                // Layer k's needed nodes come first, the last layer's last.
                if (n1 - 1 >= shape.lo(k) && n0 <= shape.hi(k + numLayers - 1)) {
                    relaxTile(cost, tables, k, numLayers, n0, n1);
                }
            }
        }
    }
};

// The forward sweep: the cost matrix is read in steps of columns while they sit in cache, every
// band of layers runs over a step in turn (one band and one thread for small sweeps).
//
// Why every predecessor is still visited: the Gaussian cost of an exact Γ satisfies the
// quadrangle inequality up to rounding, which would allow a monotone-argmin search, but at high
// noise (ᾱ ≈ 0) J(s, t) ≈ 0 and hundreds of predecessors give sums within 1e−11 of each other
// (N = 1000, K = 100, layer 50: candidates 49..893 of one column within 2.6e−11), below what
// the inequality is known to hold to. Which of them is the smallest argmin is decided by
// rounding alone, so a search that must return the same path as this one, bit for bit,
// cannot skip them: a divide-and-conquer search with tolerances derived from the matrix
// visited 3.9e7 of the 4e7 sums and ran 8× slower.
Result<Tables> sweep(const Matrix& cost,
                     int maxEdges,
                     bool oneCount,
                     const ParallelOptions& parallel,
                     Progress* progress) {
    const int m = static_cast<int>(cost.rows());
    Tables tables(maxEdges, m);
    tables.bestRow(0)[0] = 0.0;
    Wavefront wavefront{.cost = cost, .tables = tables, .shape = {m, maxEdges, oneCount}};
    const int threads = std::max(1, parallel.numThreads);
    wavefront.bounds = bandBounds(wavefront.shape, numBands(wavefront.shape, threads));
    const int bands = wavefront.numBandsTotal();
    const int steps = (m - 1 + Wavefront::kStepColumns - 1) / Wavefront::kStepColumns;
    if (progress != nullptr) {
        progress->setTotal(static_cast<int64_t>(steps) * bands);
    }
    const auto stepWork = [&](int step) {
        const int begin = 1 + step * Wavefront::kStepColumns;
        return wavefront.shape.columnsWork(begin, begin + Wavefront::kStepColumns);
    };
    parallelWavefront(
        bands, steps, {bands > 1 ? threads : 1},
        [&](int band, int step) {
            wavefront.runUnit(band, step);
            if (progress != nullptr) {
                progress->advance();
            }
        },
        progress, stepWork,
        [&](int step) {
            // Every band's layers in one pass over the step's columns.
            wavefront.runLayers(1, wavefront.shape.numLayers, step);
            if (progress != nullptr) {
                progress->advance(bands);
            }
        });
    if (progress != nullptr && progress->cancelled()) {
        return makeError(ErrorCode::Cancelled, "", "", "the trajectory search was cancelled");
    }
    return tables;
}

Result<LeastCostPath> backtrack(const Tables& tables, int numEdges, int lastNode) {
    LeastCostPath path;
    path.cost = tables.bestRow(numEdges)[lastNode];
    if (!std::isfinite(path.cost)) {
        return makeError(ErrorCode::NumericalError, "K", std::to_string(numEdges),
                         "no path with finite cost takes this many steps");
    }
    path.nodes.assign(static_cast<size_t>(numEdges) + 1, 0);
    int node = lastNode;
    for (int k = numEdges; k >= 1; --k) {
        path.nodes[k] = node;
        node = tables.fromRow(k)[node];
    }
    path.nodes[0] = node;
    return path;
}

}  // namespace

Result<LeastCostPath> leastCostPath(const Matrix& cost,
                                    int numEdges,
                                    const ParallelOptions& parallel,
                                    Progress* progress) {
    if (Status status = checkCostMatrix(cost); !status) {
        return status.error();
    }
    const int m = static_cast<int>(cost.rows());
    if (numEdges < 1 || numEdges > m - 1) {
        return invalidArgument("K", std::to_string(numEdges),
                               "the number of steps must lie in 1.." + std::to_string(m - 1));
    }
    Result<Tables> tables = sweep(cost, numEdges, true, parallel, progress);
    if (!tables) {
        return tables.error();
    }
    return backtrack(*tables, numEdges, m - 1);
}

Result<std::vector<LeastCostPath>> leastCostPathsUpTo(const Matrix& cost,
                                                      int maxEdges,
                                                      const ParallelOptions& parallel,
                                                      Progress* progress) {
    if (Status status = checkCostMatrix(cost); !status) {
        return status.error();
    }
    const int m = static_cast<int>(cost.rows());
    if (maxEdges < 1 || maxEdges > m - 1) {
        return invalidArgument("K", std::to_string(maxEdges),
                               "the largest number of steps must lie in 1.." +
                                   std::to_string(m - 1));
    }
    Result<Tables> tables = sweep(cost, maxEdges, false, parallel, progress);
    if (!tables) {
        return tables.error();
    }
    std::vector<LeastCostPath> paths;
    paths.reserve(static_cast<size_t>(maxEdges));
    for (int e = 1; e <= maxEdges; ++e) {
        Result<LeastCostPath> path = backtrack(*tables, e, m - 1);
        if (!path) {
            return path.error();
        }
        paths.push_back(std::move(path).value());
    }
    return paths;
}

Result<std::vector<int>> gaussianEvenTrajectory(int numSteps, int numNodes) {
    if (numSteps < 2) {
        return invalidArgument("N", std::to_string(numSteps), "needs at least 2 timesteps");
    }
    if (numNodes < 2 || numNodes > numSteps) {
        return invalidArgument("K", std::to_string(numNodes),
                               "the number of timesteps must lie in 2..N = " +
                                   std::to_string(numSteps));
    }
    const double stride = static_cast<double>(numSteps - 1) / static_cast<double>(numNodes - 1);
    std::vector<int> taus;
    taus.reserve(static_cast<size_t>(numNodes));
    double cur = 1.0;
    for (int k = 0; k < numNodes; ++k) {
        // std::nearbyint rounds half to even in the default rounding mode, as Python's round.
        taus.push_back(static_cast<int>(std::nearbyint(cur)));
        cur += stride;
    }
    return taus;
}

Result<QuadraticTrajectory> gaussianQuadraticTrajectory(int numSteps, int numNodes) {
    if (numSteps < 2) {
        return invalidArgument("N", std::to_string(numSteps), "needs at least 2 timesteps");
    }
    if (numNodes < 2 || numNodes > numSteps) {
        return invalidArgument("K", std::to_string(numNodes),
                               "the number of timesteps must lie in 2..N = " +
                                   std::to_string(numSteps));
    }
    QuadraticTrajectory result;
    const double top = std::sqrt(0.8 * numSteps);
    for (int k = 0; k < numNodes; ++k) {
        // numpy.linspace: k·step with step = stop/(K − 1), the last point set to stop exactly.
        const double step = top / (numNodes - 1);
        const double u = (k == numNodes - 1) ? top : k * step;
        const int tau = static_cast<int>(std::floor(u * u)) + 1;
        if (!result.timesteps.empty() && result.timesteps.back() >= tau) {
            ++result.duplicatesRemoved;
            continue;
        }
        result.timesteps.push_back(tau);
    }
    return result;
}

Result<std::vector<int>> categoricalEvenTrajectory(int numSteps, int numPathSteps) {
    if (numSteps < 1) {
        return invalidArgument("N", std::to_string(numSteps), "needs at least 1 step");
    }
    if (numPathSteps < 1 || numPathSteps > numSteps) {
        return invalidArgument("K", std::to_string(numPathSteps),
                               "the number of steps must lie in 1..N = " +
                                   std::to_string(numSteps));
    }
    std::vector<int> nodes(static_cast<size_t>(numPathSteps) + 1);
    for (int k = 0; k <= numPathSteps; ++k) {
        // Integer rounding of k·N/K, half up: exact, and strictly increasing because K ≤ N.
        nodes[k] = static_cast<int>((2LL * k * numSteps + numPathSteps) / (2LL * numPathSteps));
    }
    return nodes;
}

Status validateTrajectory(const std::vector<int>& nodes, int first, int last, const char* field) {
    if (nodes.size() < 2) {
        return invalidArgument(field, std::to_string(nodes.size()) + " nodes",
                               "a trajectory needs at least two nodes");
    }
    if (nodes.front() != first || nodes.back() != last) {
        return invalidArgument(field,
                               std::to_string(nodes.front()) + ".." + std::to_string(nodes.back()),
                               "a trajectory must start at " + std::to_string(first) +
                                   " and end at " + std::to_string(last));
    }
    for (size_t k = 1; k < nodes.size(); ++k) {
        if (nodes[k] <= nodes[k - 1]) {
            return invalidArgument(field + std::string("[") + std::to_string(k) + "]",
                                   std::to_string(nodes[k]),
                                   "timesteps must increase strictly (previous is " +
                                       std::to_string(nodes[k - 1]) + ")");
        }
    }
    return {};
}

}  // namespace core::trajectory
