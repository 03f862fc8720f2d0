// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/util/eigen_types.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// The least-cost-path DP of docs/conventions.md#dp-cost (Watson et al. 2021; Analytic-DPM
// `_solve_fn_dp`), shared by both processes. Nodes are 0..M−1; a path starts at node 0, ends at
// node M−1 and takes exactly E edges through increasing nodes. The categorical process uses nodes
// 0..N (M = N + 1, E = K steps); the Gaussian process uses timesteps 1..N as nodes 0..N−1
// (M = N, E = K − 1 transitions between its K nodes).
namespace core::trajectory {

struct LeastCostPath {
    std::vector<int> nodes;  // E + 1 increasing node indices, first 0, last M − 1
    double cost = 0.0;       // Σ cost(nodes[k−1], nodes[k])
};

// cost(s, t) is read for s < t only (upper triangle); +inf marks a forbidden edge, NaN is an
// error. Ties go to the smallest predecessor. O(E·M²) time, O(E·M) memory.
Result<LeastCostPath> leastCostPath(const Matrix& cost,
                                    int numEdges,
                                    const ParallelOptions& parallel = {},
                                    Progress* progress = nullptr);

// The optimal path for every edge count 1..maxEdges at once (entry e − 1 holds e edges), in
// one O(maxEdges·M²) sweep; maxEdges = M − 1 gives every K.
Result<std::vector<LeastCostPath>> leastCostPathsUpTo(const Matrix& cost,
                                                      int maxEdges,
                                                      const ParallelOptions& parallel = {},
                                                      Progress* progress = nullptr);

// Even trajectory of docs/gaussian.md#trajectories for the Gaussian process: K timesteps in 1..N,
// stride (N − 1)/(K − 1) accumulated in float64 and rounded half to even.
Result<std::vector<int>> gaussianEvenTrajectory(int numSteps, int numNodes);

struct QuadraticTrajectory {
    std::vector<int> timesteps;  // increasing, in 1..N
    int duplicatesRemoved = 0;   // how many of the K requested nodes collapsed onto others
};

// Quadratic trajectory of docs/gaussian.md#trajectories: u = linspace(0, √(0.8 N), K)², τ = ⌊u⌋ +
// 1, deduplicated.
Result<QuadraticTrajectory> gaussianQuadraticTrajectory(int numSteps, int numNodes);

// Categorical even path 0 = τ_0 < … < τ_K = N on the grid 0..N: τ_k = round(k·N/K).
Result<std::vector<int>> categoricalEvenTrajectory(int numSteps, int numPathSteps);

// Checks a user list of grid nodes: strictly increasing, inside [first, last], starts at first
// and ends at last. `field` names the list in the error.
Status validateTrajectory(const std::vector<int>& nodes, int first, int last, const char* field);

}  // namespace core::trajectory
