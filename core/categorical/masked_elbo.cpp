// SPDX-License-Identifier: MIT
#include "core/categorical/masked_elbo.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>

#include "core/util/rng.h"

namespace core::categorical {

namespace {

// A model probability below this counts as this inside the logarithm (as the step costs do).
constexpr double kMinProbability = 1e-300;

// The conditions to score: the one chosen, or all of them.
std::vector<int> scoredConditions(const data::CategoricalTable& table, int condition) {
    std::vector<int> out;
    for (int c = 0; c < table.numConditions(); ++c) {
        if (condition < 0 || c == condition) out.push_back(c);
    }
    return out;
}

// Σ over masks in [begin, end) (mask = index + 1) of (1 − u)^{|M|−1} u^{D−|M|} ·
// Σ_rows p Σ_{d∈M} −log F_d(x_0,d | x_t), for the rows of one condition.
double maskedLoss(const data::CategoricalTable& table, const model::CategoricalDenoiser& denoiser,
                  const std::vector<int>& rows, int condition, int mask, double u,
                  const model::DenoiserTime& time, int64_t begin, int64_t end) {
    const int dims = table.numPositions;
    const int k = table.numClasses;
    std::vector<int> xt(static_cast<size_t>(dims));
    std::vector<double> f(static_cast<size_t>(dims) * k);
    double total = 0.0;
    for (int64_t index = begin; index < end; ++index) {
        const uint64_t pattern = static_cast<uint64_t>(index) + 1;
        const int masked = std::popcount(pattern);
        const double weight = std::pow(1.0 - u, masked - 1) * std::pow(u, dims - masked);
        double loss = 0.0;
        for (int r : rows) {
            const int* x0 = table.row(r);
            for (int d = 0; d < dims; ++d) {
                xt[d] = (pattern >> d) & 1U ? mask : x0[d];
            }
            denoiser.predict(xt, condition, time, f);
            double rowLoss = 0.0;
            for (int d = 0; d < dims; ++d) {
                if ((pattern >> d) & 1U) {
                    rowLoss -= std::log(std::max(f[static_cast<size_t>(d) * k + x0[d]], kMinProbability));
                }
            }
            loss += table.probability[r] * rowLoss;
        }
        total += weight * loss;
    }
    return total;
}

// The rows of each condition with p > 0 and their running sums (to draw from).
struct ConditionRows {
    std::vector<int> rows;
    std::vector<double> cdf;
};

ConditionRows conditionRows(const data::CategoricalTable& table, int condition) {
    ConditionRows out;
    double acc = 0.0;
    for (int r = 0; r < table.numRows(); ++r) {
        if (table.condition[r] == condition && table.probability[r] > 0.0) {
            acc += table.probability[r];
            out.rows.push_back(r);
            out.cdf.push_back(acc);
        }
    }
    return out;
}

// One Monte Carlo draw: x_0, u and the mask from the stream, Σ_{d masked} −log F / (1 − u).
double maskedSample(const data::CategoricalTable& table, const model::CategoricalDenoiser& denoiser,
                    const schedule::BetaCurve& curve, const ConditionRows& rows, int condition,
                    int mask, CounterRng& rng, std::vector<int>& xt, std::vector<double>& f) {
    const int dims = table.numPositions;
    const int k = table.numClasses;
    const double v = rng.uniform() * rows.cdf.back();
    const size_t pick = std::min(rows.rows.size() - 1,
                                 static_cast<size_t>(std::upper_bound(rows.cdf.begin(), rows.cdf.end(), v) -
                                                     rows.cdf.begin()));
    const int* x0 = table.row(rows.rows[pick]);
    const double u = rng.uniform();  // in (0, 1): the keep probability α_t
    bool any = false;
    for (int d = 0; d < dims; ++d) {
        const bool masked = rng.uniform() >= u;
        xt[d] = masked ? mask : x0[d];
        any = any || masked;
    }
    if (!any) return 0.0;
    denoiser.predict(xt, condition, {inverseBeta(curve, 1.0 - u), 1.0 - u}, f);
    double loss = 0.0;
    for (int d = 0; d < dims; ++d) {
        if (xt[d] == mask) {
            loss -= std::log(std::max(f[static_cast<size_t>(d) * k + x0[d]], kMinProbability));
        }
    }
    return loss / (1.0 - u);
}

Result<ContinuousElbo> monteCarloElbo(const data::CategoricalTable& table,
                                      const model::CategoricalDenoiser& denoiser,
                                      const schedule::BetaCurve& curve, int mask,
                                      const std::vector<int>& conditions,
                                      const ContinuousElboOptions& options) {
    ContinuousElbo out;
    out.monteCarlo = true;
    if (options.progress != nullptr) options.progress->setTotal(static_cast<int64_t>(conditions.size()));
    double variance = 0.0;
    const int64_t m = options.samples;
    for (int c : conditions) {
        const ConditionRows rows = conditionRows(table, c);
        if (rows.rows.empty()) continue;
        std::vector<double> values(static_cast<size_t>(m));
        parallelForBlocks(m, 64, options.parallel, [&](int64_t, int64_t begin, int64_t end) {
            std::vector<int> xt(static_cast<size_t>(table.numPositions));
            std::vector<double> f(static_cast<size_t>(table.numPositions) * table.numClasses);
            for (int64_t i = begin; i < end; ++i) {
                CounterRng rng(options.seed, static_cast<uint64_t>(i) * table.numConditions() + c, 0);
                values[i] = maskedSample(table, denoiser, curve, rows, c, mask, rng, xt, f);
            }
        });
        double sum = 0.0, squares = 0.0;
        for (double x : values) sum += x;
        const double mean = sum / static_cast<double>(m);
        for (double x : values) squares += (x - mean) * (x - mean);
        out.value += mean;
        variance += squares / static_cast<double>(m - 1) / static_cast<double>(m);
        if (options.progress != nullptr && !options.progress->advance()) {
            return makeError(ErrorCode::Cancelled, "", "", "the continuous ELBO was cancelled");
        }
    }
    const double count = static_cast<double>(conditions.size());
    out.value /= count;
    out.standardError = std::sqrt(variance) / count;
    return out;
}

}  // namespace

int absorbingMaskClass(const Vector& pi) {
    const int k = static_cast<int>(pi.size());
    if (k < 2 || !(pi[k - 1] > 0.0)) return -1;
    for (int j = 0; j + 1 < k; ++j) {
        if (pi[j] != 0.0) return -1;
    }
    return k - 1;
}

Status checkMaskUnused(const data::CategoricalTable& table, int mask, int condition) {
    for (int r = 0; r < table.numRows(); ++r) {
        if (table.probability[r] <= 0.0 || (condition >= 0 && table.condition[r] != condition)) {
            continue;
        }
        for (int d = 0; d < table.numPositions; ++d) {
            if (table.row(r)[d] != mask) continue;
            const std::string& name = table.conditionNames[table.condition[r]];
            return invalidArgument(
                "table",
                "p(x" + std::to_string(d + 1) + " = " + std::to_string(mask) +
                    (name.empty() ? "" : " | c = " + name) + ") ≥ " +
                    shortestText(table.probability[r]),
                "the data put mass on the mask class " + std::to_string(mask) +
                    ", so a masked position does not say it was masked; the continuous ELBO "
                    "needs a mask state that the data never use (--pi masked:K adds one)");
        }
    }
    return {};
}

QuadratureRule gaussLegendre01(int n) {
    n = std::clamp(n, 1, 1000);
    QuadratureRule rule;
    rule.nodes.resize(n);
    rule.weights.resize(n);
    // Newton's method on P_n from Chebyshev-like starting points (roots of P_n on [−1, 1]).
    for (int i = 0; i < n; ++i) {
        double x = std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5));
        double derivative = 1.0;
        for (int iteration = 0; iteration < 100; ++iteration) {
            double p0 = 1.0, p1 = x;
            for (int j = 2; j <= n; ++j) {
                const double p2 = ((2.0 * j - 1.0) * x * p1 - (j - 1.0) * p0) / j;
                p0 = p1;
                p1 = p2;
            }
            const double pn = n == 1 ? x : p1;
            const double pPrev = n == 1 ? 1.0 : p0;
            derivative = n * (x * pn - pPrev) / (x * x - 1.0);
            const double step = pn / derivative;
            x -= step;
            if (std::abs(step) <= 1e-16) break;
        }
        // Map [−1, 1] → [0, 1]: node (1 − x)/2 so that nodes increase with i; weights halve.
        rule.nodes[i] = 0.5 * (1.0 - x);
        rule.weights[i] = 1.0 / ((1.0 - x * x) * derivative * derivative);
    }
    return rule;
}

double inverseBeta(const schedule::BetaCurve& curve, double beta) {
    if (beta <= 0.0) return 0.0;
    if (beta >= 1.0) return 1.0;
    double lo = 0.0, hi = 1.0;  // β(lo) < beta ≤ β(hi)
    while (true) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        (curve(mid) >= beta ? hi : lo) = mid;
    }
    return hi;
}

Result<ContinuousElbo> continuousElbo(const data::CategoricalTable& table,
                                      const model::CategoricalDenoiser& denoiser,
                                      const Vector& pi,
                                      const schedule::BetaCurve& curve,
                                      const ContinuousElboOptions& options) {
    const int mask = absorbingMaskClass(pi);
    if (mask < 0) {
        return invalidArgument("pi", "", "the continuous ELBO needs an absorbing π (all mass on "
                                         "the last class, the mask)");
    }
    if (static_cast<int>(pi.size()) != table.numClasses ||
        denoiser.numClasses() != table.numClasses ||
        denoiser.numPositions() != table.numPositions) {
        return invalidArgument("denoiser", std::to_string(denoiser.numClasses()) + " classes",
                               "π, the data and the denoiser must agree on K and D");
    }
    if (Status unused = checkMaskUnused(table, mask, options.condition); !unused) {
        return unused.error();
    }
    if (options.nodes < 1 || options.nodes > 500) {
        return invalidArgument("nodes", std::to_string(options.nodes), "must lie in 1..500");
    }
    const int dims = table.numPositions;
    const std::vector<int> conditions = scoredConditions(table, options.condition);
    if (options.samples == 1 || options.samples < 0) {
        return invalidArgument("samples", std::to_string(options.samples), "M must be ≥ 2");
    }
    if (options.samples > 0) {
        return monteCarloElbo(table, denoiser, curve, mask, conditions, options);
    }
    std::vector<std::vector<int>> rows(conditions.size());
    for (size_t i = 0; i < conditions.size(); ++i) {
        rows[i] = conditionRows(table, conditions[i]).rows;
        const double work = std::ldexp(static_cast<double>(rows[i].size()), std::min(dims, 1000));
        if (dims >= 62 || work > static_cast<double>(options.maxEnumeration)) {
            return invalidArgument("D", std::to_string(dims),
                                   "the continuous ELBO enumerates 2^D mask patterns × " +
                                       std::to_string(rows[i].size()) +
                                       " rows, beyond enumeration (" +
                                       std::to_string(options.maxEnumeration) +
                                       "); a Monte Carlo estimate needs samples");
        }
    }
    const int64_t patterns = (int64_t{1} << dims) - 1;
    // h(u) averaged over the conditions with equal weights.
    auto integrand = [&](double u) {
        const model::DenoiserTime time{inverseBeta(curve, 1.0 - u), 1.0 - u};
        double sum = 0.0;
        for (size_t i = 0; i < conditions.size(); ++i) {
            sum += parallelSum(patterns, 16, options.parallel, [&](int64_t begin, int64_t end) {
                return maskedLoss(table, denoiser, rows[i], conditions[i], mask, u, time, begin, end);
            });
        }
        return sum / static_cast<double>(conditions.size());
    };
    if (options.progress != nullptr) options.progress->setTotal(3 * options.nodes);
    bool cancelled = false;
    auto integrate = [&](int n) {
        const QuadratureRule rule = gaussLegendre01(n);
        double total = 0.0;
        for (int q = 0; q < n && !cancelled; ++q) {
            total += rule.weights[q] * integrand(rule.nodes[q]);
            cancelled = options.progress != nullptr && !options.progress->advance();
        }
        return total;
    };
    const double coarse = integrate(options.nodes);
    ContinuousElbo out;
    out.nodes = 2 * options.nodes;
    out.value = integrate(out.nodes);
    out.quadratureError = std::abs(out.value - coarse);
    if (cancelled) {
        return makeError(ErrorCode::Cancelled, "", "", "the continuous ELBO was cancelled");
    }
    return out;
}

}  // namespace core::categorical
