// SPDX-License-Identifier: MIT
#include "core/gaussian/trajectory_dp.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>

#include "core/gaussian/spacing.h"
#include "core/trajectory/least_cost_path.h"
#include "core/util/limits.h"

namespace core::gaussian {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Status checkNumNodes(int numNodes, int numSteps) {
    if (numNodes < 2 || numNodes > numSteps) {
        return invalidArgument("K", std::to_string(numNodes),
                               "the number of timesteps must lie in 2..N = " +
                                   std::to_string(numSteps));
    }
    return {};
}

// Timesteps of a node path (node = timestep − 1).
std::vector<int> toTimesteps(const std::vector<int>& nodes, int offset = 1) {
    std::vector<int> ts(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        ts[i] = nodes[i] + offset;
    }
    return ts;
}

}  // namespace

std::vector<int> gammaOverBound(const schedule::GaussianSchedule& schedule,
                                const std::vector<double>& gamma) {
    std::vector<int> over;
    for (int n = 1; n <= schedule.numSteps() && n < static_cast<int>(gamma.size()); ++n) {
        if (schedule.betaBar(n) * gamma[n] > 1.0) {
            over.push_back(n);
        }
    }
    return over;
}

Result<Matrix> dpCostMatrix(const schedule::GaussianSchedule& schedule,
                            const std::vector<double>& gamma,
                            const DataRange& range,
                            const ParallelOptions& parallel) {
    if (Status s = validateGammaTable(schedule, gamma); !s) {
        return s.error();
    }
    if (Status s = range.validate(); !s) {
        return s.error();
    }
    const int numSteps = schedule.numSteps();
    if (Status s = limits::checkMemory("N", std::to_string(numSteps),
                                       "the N·N·8-byte cost matrix",
                                       8.0 * numSteps * static_cast<double>(numSteps));
        !s) {
        return s.error();
    }
    // Each column is written once, whole: the upper part below, the rest +inf (no 8 MB fill of
    // +inf first, which cost as much as the DP's fastest runs).
    Matrix cost(numSteps, numSteps);
    cost.col(0).setConstant(kInf);
    // With λ² = β̃_{s|t}: c/λ² = ᾱ_s β_{t|s}/(β̄_s β̄_t) and ᾱ_s β_{t|s} = ᾱ_s − ᾱ_t, so
    // J = log1p((ᾱ_s − ᾱ_t)·v_t/(β̄_s β̄_t)): one log1p per entry (the GUI's live path).
    parallelFor(
        numSteps - 1, parallel,
        [&](int64_t column) {
            const int t = static_cast<int>(column) + 2;
            const double betaBarT = schedule.betaBar(t);
            const double vMax = posteriorVarianceCap(schedule, t, range);
            const double v =
                std::clamp(posteriorVarianceEstimate(schedule, gamma, t, range), 0.0, vMax);
            const double scale = v / betaBarT;
            const double alphaBarT = schedule.alphaBar(t);
            double* out = cost.col(t - 1).data();
            for (int s = 1; s < t; ++s) {
                // ᾱ_s − ᾱ_t = β̄_t − β̄_s keeps its digits where ᾱ ≈ 1.
                const double alphaBarS = schedule.alphaBar(s);
                const double gap = alphaBarS > 0.5 ? betaBarT - schedule.betaBar(s)
                                                   : alphaBarS - alphaBarT;
                out[s - 1] = std::log1p(gap * scale / schedule.betaBar(s));
            }
            std::fill(out + t - 1, out + numSteps, kInf);
        },
        16);
    return cost;
}

double trajectoryCost(const Matrix& cost, const std::vector<int>& trajectory) {
    double total = 0.0;
    for (size_t k = 1; k < trajectory.size(); ++k) {
        total += cost(trajectory[k - 1] - 1, trajectory[k] - 1);
    }
    return total;
}

Result<DpTrajectory> dpTrajectory(const schedule::GaussianSchedule& schedule,
                                  const std::vector<double>& gamma,
                                  int numNodes,
                                  const DpOptions& options,
                                  Progress* progress) {
    const int numSteps = schedule.numSteps();
    if (Status s = checkNumNodes(numNodes, numSteps); !s) {
        return s.error();
    }
    Result<Matrix> cost = dpCostMatrix(schedule, gamma, options.range, options.parallel);
    if (!cost) {
        return cost.error();
    }
    DpTrajectory result;
    result.gammaOverBound = gammaOverBound(schedule, gamma);
    result.dpEnd = numSteps;
    int numDpNodes = numNodes;
    int numEven = 0;
    if (options.variant == DpVariant::Segmented && !result.gammaOverBound.empty()) {
        // Analytic-DPM `_split`: set aside twice the tail that starts at the first bad step.
        const int firstBad = result.gammaOverBound.front();
        const int numBad = 2 * (numSteps - firstBad + 1);
        const int dpEnd = numSteps - numBad;
        if (dpEnd < 2) {
            return invalidArgument(
                "dp-variant", "segmented",
                "Γ exceeds its bound from n = " + std::to_string(firstBad) +
                    " on (≤ N/2): the segmented DP would set aside " + std::to_string(numBad) +
                    " of " + std::to_string(numSteps) +
                    " steps; use the clipped variant or a better Γ");
        }
        int k1 = static_cast<int>(
            std::ceil((1.0 - 0.8 * static_cast<double>(numBad) / numSteps) * numNodes));
        int k2 = numNodes - k1;
        if (k1 > dpEnd) {
            k1 = dpEnd;
            k2 = numNodes - k1;
        }
        if (k2 > numBad) {
            k2 = numBad;
            k1 = numNodes - k2;
        }
        if (k2 == 0) {
            k2 = 1;
            k1 = numNodes - k2;
        }
        if (k1 < 2 || k1 > dpEnd) {
            return invalidArgument("K", std::to_string(numNodes),
                                   "too few timesteps to split the segmented DP at N₁ = " +
                                       std::to_string(dpEnd));
        }
        result.dpEnd = dpEnd;
        result.numBad = numBad;
        numDpNodes = k1;
        numEven = k2;
    }
    const int dpEnd = result.dpEnd;
    if (numDpNodes == dpEnd) {
        for (int n = 1; n <= dpEnd; ++n) {
            result.timesteps.push_back(n);
        }
    } else {
        // The whole matrix as it is; a corner only for the segmented DP (a copy).
        Result<trajectory::LeastCostPath> path =
            dpEnd == numSteps
                ? trajectory::leastCostPath(*cost, numDpNodes - 1, options.parallel, progress)
                : trajectory::leastCostPath(cost->topLeftCorner(dpEnd, dpEnd), numDpNodes - 1,
                                            options.parallel, progress);
        if (!path) {
            return path.error();
        }
        result.timesteps = toTimesteps(path->nodes);
    }
    // Analytic-DPM `_dp_seg`: steps2 = [round(N − frac·k) for k in range(K₂)][::-1].
    const double frac = numEven > 0 ? static_cast<double>(numSteps - dpEnd) / numEven : 0.0;
    for (int k = numEven - 1; k >= 0; --k) {
        result.timesteps.push_back(static_cast<int>(std::nearbyint(numSteps - frac * k)));
    }
    if (Status s = trajectory::validateTrajectory(result.timesteps, 1, numSteps, "trajectory");
        !s) {
        return s.error();
    }
    result.cost = trajectoryCost(*cost, result.timesteps);
    return result;
}

Result<std::vector<DpTrajectory>> dpTrajectoriesUpTo(const schedule::GaussianSchedule& schedule,
                                                     const std::vector<double>& gamma,
                                                     int maxNodes,
                                                     const DpOptions& options,
                                                     Progress* progress) {
    const int numSteps = schedule.numSteps();
    if (Status s = checkNumNodes(maxNodes, numSteps); !s) {
        return s.error();
    }
    Result<Matrix> cost = dpCostMatrix(schedule, gamma, options.range, options.parallel);
    if (!cost) {
        return cost.error();
    }
    Result<std::vector<trajectory::LeastCostPath>> paths =
        trajectory::leastCostPathsUpTo(*cost, maxNodes - 1, options.parallel, progress);
    if (!paths) {
        return paths.error();
    }
    const std::vector<int> over = gammaOverBound(schedule, gamma);
    std::vector<DpTrajectory> result;
    for (const trajectory::LeastCostPath& path : *paths) {
        DpTrajectory t;
        t.timesteps = toTimesteps(path.nodes);
        t.cost = path.cost;
        t.gammaOverBound = over;
        t.dpEnd = numSteps;
        result.push_back(std::move(t));
    }
    return result;
}

Result<ResolvedTrajectory> resolveTrajectory(const std::string& spec,
                                             const schedule::GaussianSchedule& schedule,
                                             const std::vector<double>* gamma,
                                             const DpOptions& options,
                                             Progress* progress) {
    // Named copies, not a structured binding: the lambdas below capture them (clang 14 cannot
    // capture a structured binding).
    const auto parts = splitTrajectoryKind(spec);
    const std::string kind = parts.first;
    const std::string rest = parts.second;
    const int numSteps = schedule.numSteps();
    ResolvedTrajectory resolved;
    resolved.kind = kind;
    auto parseK = [&](int& k) -> Status {
        Result<int> value = parseNumTimesteps(rest, spec, kind, numSteps);
        if (!value) {
            return value.error();
        }
        k = *value;
        return checkNumNodes(k, numSteps);
    };
    if (isSpacingKind(kind)) {
        Result<SpacingSpec> parsed = parseSpacing(kind, rest, numSteps);
        if (!parsed) {
            return parsed.error();
        }
        Result<Spacing> spacing = spacingTimesteps(*parsed, schedule);
        if (!spacing) {
            return spacing.error();
        }
        resolved.timesteps = std::move(spacing->timesteps);
        if (spacing->moved > 0) {
            resolved.note = std::to_string(spacing->moved) +
                            " timesteps moved to keep them distinct";
        }
        return resolved;
    }
    if (kind == "even" || kind == "quadratic" || kind == "dp") {
        int k = 0;
        if (Status s = parseK(k); !s) {
            return s.error();
        }
        if (kind == "even") {
            Result<std::vector<int>> even = trajectory::gaussianEvenTrajectory(numSteps, k);
            if (!even) {
                return even.error();
            }
            resolved.timesteps = std::move(even).value();
        } else if (kind == "quadratic") {
            Result<trajectory::QuadraticTrajectory> quad =
                trajectory::gaussianQuadraticTrajectory(numSteps, k);
            if (!quad) {
                return quad.error();
            }
            resolved.timesteps = quad->timesteps;
            if (quad->duplicatesRemoved > 0) {
                resolved.note = std::to_string(quad->duplicatesRemoved) +
                                " duplicate timesteps removed (K = " +
                                std::to_string(quad->timesteps.size()) + ")";
            }
        } else {
            if (gamma == nullptr) {
                return invalidArgument("trajectory", spec, "the DP trajectory needs Γ");
            }
            Result<DpTrajectory> dp = dpTrajectory(schedule, *gamma, k, options, progress);
            if (!dp) {
                return dp.error();
            }
            resolved.timesteps = dp->timesteps;
            resolved.hasCost = true;
            resolved.cost = dp->cost;
            resolved.gammaOverBound = dp->gammaOverBound;
            if (dp->numBad > 0) {
                resolved.note = "segmented: DP on 1.." + std::to_string(dp->dpEnd) +
                                ", the last " + std::to_string(dp->numBad) +
                                " steps placed evenly";
            }
        }
        return resolved;
    }
    if (kind == "list") {
        std::vector<int> ts;
        size_t start = 0;
        while (start <= rest.size()) {
            const size_t comma = rest.find(',', start);
            const std::string part = rest.substr(start, comma == std::string::npos
                                                            ? std::string::npos
                                                            : comma - start);
            errno = 0;
            char* end = nullptr;
            const long long value = std::strtoll(part.c_str(), &end, 10);
            if (part.empty() || end != part.c_str() + part.size() || errno == ERANGE) {
                return invalidArgument("trajectory", part, "a list of whole timesteps expected");
            }
            if (value < 1 || value > numSteps) {
                return invalidArgument("trajectory", part,
                                       "a timestep must lie between 1 and N = " +
                                           std::to_string(numSteps));
            }
            if (ts.size() >= static_cast<size_t>(numSteps)) {
                return invalidArgument("trajectory", spec.substr(0, 40) + "…",
                                       "a list has at most N = " + std::to_string(numSteps) +
                                           " timesteps");
            }
            ts.push_back(static_cast<int>(value));
            if (comma == std::string::npos) {
                break;
            }
            start = comma + 1;
        }
        if (Status s = validateGaussianTrajectory(ts, numSteps); !s) {
            return s.error();
        }
        if (ts.front() != 1) {  // only the spacing families may start later
            return invalidArgument("trajectory", std::to_string(ts.front()),
                                   "a typed list must start at 1");
        }
        resolved.timesteps = std::move(ts);
        return resolved;
    }
    return invalidArgument("trajectory", spec,
                           "expected even:K, quadratic:K, dp:K, list:1,…,N, linspace:K, "
                           "leading:K[,offset=O], trailing:K (each [,class=C]), logsnr:K or "
                           "karras:K[,rho=ρ]");
}

}  // namespace core::gaussian
