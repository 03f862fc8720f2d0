// SPDX-License-Identifier: MIT
#include "core/categorical/sampler.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <optional>

#include "core/util/alias_table.h"
#include "core/util/rng.h"

namespace core::categorical {
namespace {

constexpr int64_t kChainBlock = 2048;  // fixed block size: results do not depend on threads

// A kernel row whose stay probability falls short of the thinning floor by no more than this
// (rounding) is treated as meeting it: its law moves by at most this much.
constexpr double kFloorTolerance = 1e-14;

// Cumulative distribution with exact ends: zero-mass classes are never drawn and the last
// positive class absorbs rounding.
std::vector<double> cumulative(const double* p, int numClasses) {
    std::vector<double> cdf(static_cast<size_t>(numClasses));
    double total = 0.0;
    int lastPositive = 0;
    for (int k = 0; k < numClasses; ++k) {
        total += p[k];
        cdf[k] = total;
        if (p[k] > 0.0) {
            lastPositive = k;
        }
    }
    for (int k = 0; k < numClasses; ++k) {
        cdf[k] = k >= lastPositive ? 1.0 : cdf[k] / total;
    }
    return cdf;
}

// First k with u < cdf[k]; u ∈ (0, 1).
inline int drawFromCdf(const double* cdf, int numClasses, double u) {
    if (numClasses <= 32) {
        for (int k = 0; k < numClasses - 1; ++k) {
            if (u < cdf[k]) {
                return k;
            }
        }
        return numClasses - 1;
    }
    const double* it = std::upper_bound(cdf, cdf + numClasses - 1, u);
    return static_cast<int>(it - cdf);
}

// The first i in [0, n) with !(v[i] < value) for a nondecreasing v, else n: a branchless
// bisection (the position is random, so branches would mispredict).
inline int firstNotBelow(const double* v, int n, double value) {
    if (n <= 0) {
        return 0;
    }
    const double* first = v;
    int length = n;
    while (length > 1) {
        const int half = length / 2;
        first += first[half] < value ? half : 0;
        length -= half;
    }
    return static_cast<int>(first - v) + (*first < value ? 1 : 0);
}

bool notifyFrame(const SamplerOptions& options,
                 const TimeGrid& grid,
                 int node,
                 const std::vector<int>& states,
                 int numChains,
                 int numPositions) {
    if (options.observer == nullptr) {
        return true;
    }
    const ChainFrame frame{node, grid.t[node], grid.beta[node], states, numChains, numPositions};
    return options.observer->onFrame(frame) == Control::Continue;
}

Status checkInputs(const Vector& pi, const TimeGrid& grid) {
    if (Status status = validateTimeGrid(grid); !status) {
        return status;
    }
    if (pi.size() < 2) {
        return invalidArgument("pi", std::to_string(pi.size()), "π needs at least 2 classes");
    }
    return {};
}

}  // namespace

Control FrameRecorder::onFrame(const ChainFrame& frame) {
    if (m_seen % m_stride == 0 || frame.node == 0 || m_seen == 0) {
        frames.push_back({frame.node, frame.t, std::vector<int>(frame.states.begin(), frame.states.end())});
    }
    ++m_seen;
    return Control::Continue;
}

Result<SampleResult> sampleForward(std::span<const int> x0,
                                   int numPositions,
                                   const Vector& pi,
                                   const TimeGrid& grid,
                                   const SamplerOptions& options) {
    if (Status status = checkInputs(pi, grid); !status) {
        return status.error();
    }
    const int numClasses = static_cast<int>(pi.size());
    const int numSteps = grid.numSteps();
    const int64_t count = static_cast<int64_t>(x0.size());
    const int numChains = static_cast<int>(count / std::max(1, numPositions));
    for (int64_t i = 0; i < count; ++i) {
        if (x0[i] < 0 || x0[i] >= numClasses) {
            return invalidArgument("x0[" + std::to_string(i) + "]", std::to_string(x0[i]),
                                   "a class index must lie in 0.." + std::to_string(numClasses - 1));
        }
    }
    const std::vector<double> piCdf = cumulative(pi.data(), numClasses);
    std::vector<double> survival(static_cast<size_t>(numSteps) + 1);  // 1 − β_n
    for (int n = 0; n <= numSteps; ++n) {
        survival[n] = 1.0 - grid.beta[n];
    }
    // The next jump after node n given u: the first m > n with (1−β_m)/(1−β_n) < u, found by
    // bisection on the nonincreasing survival; numSteps + 1 means "never".
    const auto nextJump = [&](int n, double u) {
        if (!(survival[n] > 0.0)) {
            return numSteps + 1;
        }
        const double threshold = u * survival[n];
        const auto it = std::partition_point(survival.begin() + n + 1, survival.end(),
                                             [&](double s) { return !(s < threshold); });
        return static_cast<int>(it - survival.begin());
    };

    SampleResult result;
    result.states.assign(x0.begin(), x0.end());
    std::vector<int> jumpAt(static_cast<size_t>(count));
    parallelForBlocks(count, kChainBlock, options.parallel, [&](int64_t, int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            CounterRng rng(options.seed, static_cast<uint64_t>(i), 0);
            jumpAt[i] = nextJump(0, rng.uniform());
        }
    });
    if (options.progress != nullptr) {
        options.progress->setTotal(numSteps);
    }
    if (!notifyFrame(options, grid, 0, result.states, numChains, numPositions)) {
        result.cancelled = true;
        return result;
    }
    int* states = result.states.data();
    for (int n = 1; n <= numSteps; ++n) {
        parallelForBlocks(count, kChainBlock, options.parallel, [&](int64_t, int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) {
                if (jumpAt[i] != n) {
                    continue;
                }
                CounterRng rng(options.seed, static_cast<uint64_t>(i), static_cast<uint64_t>(n));
                states[i] = drawFromCdf(piCdf.data(), numClasses, rng.uniform());
                jumpAt[i] = nextJump(n, rng.uniform());
            }
        });
        result.nodesDone = n;
        const bool go = notifyFrame(options, grid, n, result.states, numChains, numPositions) &&
                        (options.progress == nullptr || options.progress->advance());
        if (!go) {
            result.cancelled = true;
            return result;
        }
    }
    return result;
}

Result<SampleResult> sampleReverse(const model::CategoricalDenoiser& denoiser,
                                   int numChains,
                                   const Vector& pi,
                                   const TimeGrid& grid,
                                   const SamplerOptions& options) {
    if (Status status = checkInputs(pi, grid); !status) {
        return status.error();
    }
    const int numClasses = static_cast<int>(pi.size());
    const int numPositions = denoiser.numPositions();
    if (denoiser.numClasses() != numClasses) {
        return invalidArgument("pi", std::to_string(numClasses) + " classes",
                               "π and the denoiser disagree on K (" +
                                   std::to_string(denoiser.numClasses()) + ")");
    }
    if (options.condition < 0 || options.condition >= denoiser.numConditions()) {
        return invalidArgument("condition", std::to_string(options.condition),
                               "no such condition index");
    }
    if (numChains < 0) {
        return invalidArgument("chains", std::to_string(numChains), "must be ≥ 0");
    }
    const int numSteps = grid.numSteps();
    const int64_t chains = numChains;
    const std::vector<double> piCdf = cumulative(pi.data(), numClasses);
    SampleResult result;
    result.states.assign(static_cast<size_t>(chains) * numPositions, 0);
    int* states = result.states.data();

    // With a factorised model (or D = 1) the kernel depends on (position, class) only and is
    // tabulated once per step. Sampling then thins: a kernel row keeps its class with at least
    // c_n = g_{n−1}/g_n, g = β/(1 − β) (the closed form's δ coefficient, a lower bound of its
    // stay probability and of the D3PM form's when F's rows sum to 1), so
    // q_j = c_n δ_j + (1 − c_n) r_j. A chain draws only at "events", which happen at step n with
    // probability 1 − c_n independently of its class; the products of c telescope to ratios of
    // g, so one uniform fixes the next event as with the forward sampler's jumps. At an event
    // the class comes from r_j's alias table. A row whose stay probability falls short of c_n
    // (a denoiser whose rows do not sum to 1 can cause it) draws also outside events: it keeps
    // j with q_j[j]/c_n, else draws from its off-diagonal part, which is then also its event law.
    const bool tabulate = denoiser.factorised() || numPositions == 1;
    const int tablePositions = denoiser.factorised() ? numPositions : 1;
    const size_t numRows = static_cast<size_t>(tablePositions) * numClasses;
    std::vector<double> odds(static_cast<size_t>(numSteps) + 1);
    for (int n = 0; n <= numSteps; ++n) {
        odds[n] = grid.beta[n] >= 1.0 ? std::numeric_limits<double>::infinity()
                                      : grid.beta[n] / (1.0 - grid.beta[n]);
    }
    // The next event step at or below node n given u: the largest step m ≤ n with
    // g_{m−1} < u g_n, found by bisection on the nondecreasing g; 0 means "never".
    const auto nextEvent = [&](int n, double u) {
        return firstNotBelow(odds.data(), n, u * odds[n]);
    };
    std::vector<AliasEntry> eventTable(tabulate ? numRows * numClasses : 0);
    std::vector<double> keepOutsideEvents(tabulate ? numRows : 0, 1.0);
    // x_M ~ π (β_M = 1), drawn with step M; with a tabulated kernel the same stream then fixes
    // each position's first event.
    std::vector<int> eventAt(tabulate ? result.states.size() : 0);
    parallelForBlocks(chains, kChainBlock, options.parallel, [&](int64_t, int64_t begin, int64_t end) {
        for (int64_t c = begin; c < end; ++c) {
            CounterRng rng(options.seed, static_cast<uint64_t>(c), static_cast<uint64_t>(numSteps));
            for (int d = 0; d < numPositions; ++d) {
                states[c * numPositions + d] = drawFromCdf(piCdf.data(), numClasses, rng.uniform());
            }
            if (tabulate) {
                for (int d = 0; d < numPositions; ++d) {
                    eventAt[c * numPositions + d] = nextEvent(numSteps, rng.uniform());
                }
            }
        }
    });
    if (options.progress != nullptr) {
        options.progress->setTotal(numSteps);
    }
    if (!notifyFrame(options, grid, numSteps, result.states, numChains, numPositions)) {
        result.cancelled = true;
        return result;
    }
    for (int n = numSteps; n >= 1; --n) {
        const double betaS = grid.beta[n - 1];
        const double betaT = grid.beta[n];
        const model::DenoiserTime time{grid.t[n], betaT};
        if (tabulate) {
            const double stayFloor = odds[n] > odds[n - 1] ? odds[n - 1] / odds[n] : 1.0;
            std::vector<char> shortRow(static_cast<size_t>(tablePositions), 0);
            parallelFor(tablePositions, options.parallel, [&](int64_t d) {
                Vector f(numClasses);
                Vector q(numClasses);
                std::vector<int> xt(1);
                for (int j = 0; j < numClasses; ++j) {
                    if (denoiser.factorised()) {
                        denoiser.predictPosition(static_cast<int>(d), j, options.condition, time,
                                                 std::span<double>(f.data(), numClasses));
                    } else {
                        xt[0] = j;
                        denoiser.predict(xt, options.condition, time, std::span<double>(f.data(), numClasses));
                    }
                    reverseKernel(options.form, f, j, pi, betaS, betaT, q);
                    const size_t row = static_cast<size_t>(d) * numClasses + j;
                    const double total = q.sum();
                    const double stay = total > 0.0 ? q[j] / total : 1.0;
                    if (stay >= stayFloor - kFloorTolerance) {
                        // r_j ∝ q_j − c δ_j (no draws outside events).
                        q[j] = std::max(0.0, stay - stayFloor) * total;
                        keepOutsideEvents[row] = 1.0;
                    } else {
                        q[j] = 0.0;
                        keepOutsideEvents[row] = stay / stayFloor;
                        shortRow[d] = 1;
                    }
                    buildAliasTable(std::span<const double>(q.data(), numClasses),
                                    std::span<AliasEntry>(eventTable.data() + row * numClasses, numClasses), j);
                }
            }, 1);
            const bool anyShort = std::find(shortRow.begin(), shortRow.end(), 1) != shortRow.end();
            const bool single = numPositions == 1;
            parallelForBlocks(chains, kChainBlock, options.parallel, [&](int64_t, int64_t begin, int64_t end) {
                for (int64_t c = begin; c < end; ++c) {
                    // The common case first: one position, no event, nothing to draw.
                    if (single && eventAt[c] != n &&
                        (!anyShort || !(keepOutsideEvents[static_cast<size_t>(states[c])] < 1.0))) {
                        continue;
                    }
                    int* x = states + c * numPositions;
                    int* next = eventAt.data() + c * numPositions;
                    std::optional<CounterRng> rng;
                    const auto words = [&]() -> CounterRng& {
                        if (!rng) {
                            rng.emplace(options.seed, static_cast<uint64_t>(c), static_cast<uint64_t>(n - 1));
                        }
                        return *rng;
                    };
                    for (int d = 0; d < numPositions; ++d) {
                        const size_t row = (tablePositions > 1 ? static_cast<size_t>(d) * numClasses : 0) +
                                           static_cast<size_t>(x[d]);
                        if (next[d] == n) {
                            CounterRng& r = words();
                            x[d] = drawAlias(eventTable.data() + row * numClasses, numClasses, r.nextU64());
                            next[d] = nextEvent(n - 1, r.uniform());
                        } else if (anyShort && keepOutsideEvents[row] < 1.0) {
                            CounterRng& r = words();
                            if (!(r.uniform() < keepOutsideEvents[row])) {
                                x[d] = drawAlias(eventTable.data() + row * numClasses, numClasses, r.nextU64());
                            }
                        }
                    }
                }
            });
        } else {
            parallelForBlocks(chains, kChainBlock, options.parallel, [&](int64_t, int64_t begin, int64_t end) {
                std::vector<double> f(static_cast<size_t>(numPositions) * numClasses);
                Vector q(numClasses);
                for (int64_t c = begin; c < end; ++c) {
                    int* x = states + c * numPositions;
                    denoiser.predict(std::span<const int>(x, numPositions), options.condition, time, f);
                    CounterRng rng(options.seed, static_cast<uint64_t>(c), static_cast<uint64_t>(n - 1));
                    for (int d = 0; d < numPositions; ++d) {
                        const Eigen::Map<const Vector> fd(f.data() + static_cast<size_t>(d) * numClasses, numClasses);
                        reverseKernel(options.form, fd, x[d], pi, betaS, betaT, q);
                        const std::vector<double> cdf = cumulative(q.data(), numClasses);
                        x[d] = drawFromCdf(cdf.data(), numClasses, rng.uniform());
                    }
                }
            });
        }
        result.nodesDone = numSteps - n + 1;
        const bool go = notifyFrame(options, grid, n - 1, result.states, numChains, numPositions) &&
                        (options.progress == nullptr || options.progress->advance());
        if (!go) {
            result.cancelled = true;
            return result;
        }
    }
    return result;
}

}  // namespace core::categorical
