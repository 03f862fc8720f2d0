// SPDX-License-Identifier: MIT
#include "core/trajectory/least_cost_path.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace core::trajectory {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Status checkCostMatrix(const Matrix& cost) {
    if (cost.rows() != cost.cols() || cost.rows() < 2) {
        return invalidArgument("cost", std::to_string(cost.rows()) + "x" +
                                           std::to_string(cost.cols()),
                               "the cost matrix must be square with at least 2 nodes");
    }
    const Eigen::Index m = cost.rows();
    for (Eigen::Index t = 1; t < m; ++t) {
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

// Forward sweep: best[k][n] is the least cost of reaching node n with k edges, from[k][n] the
// predecessor. Within a block of columns the layers run in sequence, the columns of a layer in
// parallel.
struct Tables {
    std::vector<std::vector<double>> best;
    std::vector<std::vector<int>> from;
};

Result<Tables> sweep(const Matrix& cost,
                     int maxEdges,
                     const ParallelOptions& parallel,
                     Progress* progress) {
    const int m = static_cast<int>(cost.rows());
    Tables tables;
    tables.best.assign(static_cast<size_t>(maxEdges) + 1, std::vector<double>(m, kInf));
    tables.from.assign(static_cast<size_t>(maxEdges) + 1, std::vector<int>(m, -1));
    tables.best[0][0] = 0.0;
    // Cache blocking: the cost matrix (8 MB at N = 1000) is read one block of columns at a
    // time, and every layer k runs over that block while it sits in cache; layer by layer over
    // the whole matrix would stream it from memory K times. Column n at layer k needs layer
    // k − 1 at nodes s < n only, which earlier blocks and this block's previous layer provide.
    constexpr int kBlockColumns = 128;
    // Layers with little work in a block run inline: a parallel region costs more there.
    constexpr int64_t kMinParallelWork = 1 << 14;
    const int numColumnBlocks = (m - 1 + kBlockColumns - 1) / kBlockColumns;
    if (progress != nullptr) {
        progress->setTotal(numColumnBlocks);
    }
    for (int blockStart = 1; blockStart < m; blockStart += kBlockColumns) {
        const int blockEnd = std::min(m, blockStart + kBlockColumns);
        for (int k = 1; k <= maxEdges && k < blockEnd; ++k) {
            // Node n needs at least k edges behind it, and k − 1 edges need nodes ≥ k − 1.
            const int first = std::max(blockStart, k);
            const int64_t columns = blockEnd - first;
            const int64_t work = columns * (blockEnd - k);
            const ParallelOptions layerParallel{work >= kMinParallelWork ? parallel.numThreads : 1};
            const Eigen::Map<const Vector> previous(tables.best[k - 1].data(), m);
            std::vector<double>& current = tables.best[k];
            std::vector<int>& from = tables.from[k];
            parallelForBlocks(columns, 16, layerParallel, [&](int64_t, int64_t begin, int64_t end) {
                for (int64_t offset = begin; offset < end; ++offset) {
                    const int n = first + static_cast<int>(offset);
                    const int length = n - (k - 1);
                    // The predecessors' column is contiguous (column-major): the fused
                    // sum-and-minimum vectorises without a temporary; a second scan, stopping
                    // at the first index that reaches the minimum, keeps ties at the smallest s.
                    const auto previousSegment = previous.segment(k - 1, length);
                    const auto costSegment = cost.col(n).segment(k - 1, length);
                    const double bestCost = (previousSegment + costSegment).minCoeff();
                    int bestFrom = -1;
                    if (bestCost < kInf) {
                        for (int i = 0; i < length; ++i) {
                            if (previousSegment[i] + costSegment[i] == bestCost) {
                                bestFrom = k - 1 + i;
                                break;
                            }
                        }
                    }
                    current[n] = bestCost;
                    from[n] = bestFrom;
                }
            });
        }
        if (progress != nullptr && !progress->advance()) {
            return makeError(ErrorCode::Cancelled, "", "", "the trajectory search was cancelled");
        }
    }
    return tables;
}

Result<LeastCostPath> backtrack(const Tables& tables, int numEdges, int lastNode) {
    LeastCostPath path;
    path.cost = tables.best[numEdges][lastNode];
    if (!std::isfinite(path.cost)) {
        return makeError(ErrorCode::NumericalError, "K", std::to_string(numEdges),
                         "no path with finite cost takes this many steps");
    }
    path.nodes.assign(static_cast<size_t>(numEdges) + 1, 0);
    int node = lastNode;
    for (int k = numEdges; k >= 1; --k) {
        path.nodes[k] = node;
        node = tables.from[k][node];
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
    Result<Tables> tables = sweep(cost, numEdges, parallel, progress);
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
    Result<Tables> tables = sweep(cost, maxEdges, parallel, progress);
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
