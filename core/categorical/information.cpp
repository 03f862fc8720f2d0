// SPDX-License-Identifier: MIT
#include "core/categorical/information.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/categorical/transition.h"
#include "core/util/limits.h"
#include "core/util/rng.h"

namespace core::categorical {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A model probability below this counts as this when taking its log: an exact oracle never
// gets there except by rounding, and a finite cost keeps the DP meaningful.
constexpr double kMinLogArgument = 1e-300;

inline double xlogx(double x) { return x > 0.0 ? x * std::log(x) : 0.0; }

// KL(q ‖ r) over K classes; terms with q_k = 0 vanish.
double klDivergence(const ConstVectorRef& q, const ConstVectorRef& r) {
    double kl = 0.0;
    for (Eigen::Index k = 0; k < q.size(); ++k) {
        if (q[k] > 0.0) {
            kl += q[k] * (std::log(q[k]) - std::log(std::max(r[k], kMinLogArgument)));
        }
    }
    return std::max(kl, 0.0);
}

std::vector<int> conditionsOf(const data::CategoricalTable& table, int condition) {
    if (condition >= 0) {
        return {condition};
    }
    std::vector<int> all(static_cast<size_t>(table.numConditions()));
    for (int c = 0; c < table.numConditions(); ++c) {
        all[c] = c;
    }
    return all;
}

// The a < b that are requested in column b.
std::vector<int> sourcesOf(CostPairs pairs, int b) {
    if (pairs == CostPairs::Consecutive) {
        return {b - 1};
    }
    std::vector<int> sources(static_cast<size_t>(b));
    for (int a = 0; a < b; ++a) {
        sources[a] = a;
    }
    return sources;
}

// Exact column b for a factorised model: the expectation of a per-position KL only needs the
// joint law of (x_0,d, x_b,d), so J is a sum over positions of O(K³) terms, whatever K^D is.
void factorisedColumn(const data::CategoricalTable& table,
                      const model::CategoricalDenoiser& denoiser,
                      const Vector& pi,
                      const TimeGrid& grid,
                      int b,
                      const std::vector<int>& sources,
                      const std::vector<int>& conditions,
                      KernelForm form,
                      Progress* progress,
                      Matrix& cost) {
    const int numClasses = static_cast<int>(pi.size());
    const double betaB = grid.beta[b];
    const model::DenoiserTime time{grid.t[b], betaB};
    Matrix f(numClasses, numClasses);  // column j = F_j
    Vector qModel(numClasses);
    Vector qTrue(numClasses);
    std::vector<double> totals(sources.size(), 0.0);
    for (int c : conditions) {
        for (int d = 0; d < table.numPositions; ++d) {
            const Vector p0 = table.marginal(c, d);
            for (int j = 0; j < numClasses; ++j) {
                denoiser.predictPosition(d, j, c, time, std::span<double>(f.col(j).data(), numClasses));
            }
            for (size_t s = 0; s < sources.size(); ++s) {
                // One column can take seconds (K = 30, N = 400): a cancel must not wait for it.
                // The caller reports the cancel; the column's entries are then never read.
                if (progress != nullptr && !progress->poll()) return;
                const double betaA = grid.beta[sources[s]];
                double total = 0.0;
                for (int j = 0; j < numClasses; ++j) {
                    reverseKernel(form, f.col(j), j, pi, betaA, betaB, qModel);
                    for (int i = 0; i < numClasses; ++i) {
                        const double weight = p0[i] * forwardEntry(pi, betaB, i, j);
                        if (weight > 0.0) {
                            forwardPosterior(pi, betaA, betaB, i, j, qTrue);
                            total += weight * klDivergence(qTrue, qModel);
                        }
                    }
                }
                totals[s] += total;
            }
        }
    }
    for (size_t s = 0; s < sources.size(); ++s) {
        cost(sources[s], b) = totals[s] / static_cast<double>(conditions.size());
    }
}

// Exact column b for a joint model: enumerate x_b over K^D states and the table's rows.
void enumeratedColumn(const data::CategoricalTable& table,
                      const model::CategoricalDenoiser& denoiser,
                      const Vector& pi,
                      const TimeGrid& grid,
                      int b,
                      const std::vector<int>& sources,
                      const std::vector<int>& conditions,
                      KernelForm form,
                      int64_t numStates,
                      Matrix& cost) {
    const int numClasses = static_cast<int>(pi.size());
    const int numPositions = table.numPositions;
    const double betaB = grid.beta[b];
    const model::DenoiserTime time{grid.t[b], betaB};
    std::vector<int> xb(static_cast<size_t>(numPositions));
    std::vector<double> f(static_cast<size_t>(numPositions) * numClasses);
    std::vector<double> rowWeight(static_cast<size_t>(table.numRows()));
    Vector qTrue(numClasses);
    Matrix qModel(numClasses, numPositions);
    std::vector<double> totals(sources.size(), 0.0);
    for (int c : conditions) {
        for (int64_t state = 0; state < numStates; ++state) {
            int64_t code = state;
            for (int d = 0; d < numPositions; ++d) {
                xb[d] = static_cast<int>(code % numClasses);
                code /= numClasses;
            }
            double mass = 0.0;
            for (int r = 0; r < table.numRows(); ++r) {
                double w = table.condition[r] == c ? table.probability[r] : 0.0;
                for (int d = 0; d < numPositions && w > 0.0; ++d) {
                    w *= forwardEntry(pi, betaB, table.row(r)[d], xb[d]);
                }
                rowWeight[r] = w;
                mass += w;
            }
            if (!(mass > 0.0)) {
                continue;
            }
            denoiser.predict(xb, c, time, f);
            for (size_t s = 0; s < sources.size(); ++s) {
                const double betaA = grid.beta[sources[s]];
                for (int d = 0; d < numPositions; ++d) {
                    const Eigen::Map<const Vector> fd(f.data() + static_cast<size_t>(d) * numClasses, numClasses);
                    reverseKernel(form, fd, xb[d], pi, betaA, betaB, qModel.col(d));
                }
                double total = 0.0;
                for (int r = 0; r < table.numRows(); ++r) {
                    if (rowWeight[r] > 0.0) {
                        for (int d = 0; d < numPositions; ++d) {
                            forwardPosterior(pi, betaA, betaB, table.row(r)[d], xb[d], qTrue);
                            total += rowWeight[r] * klDivergence(qTrue, qModel.col(d));
                        }
                    }
                }
                totals[s] += total;
            }
        }
    }
    for (size_t s = 0; s < sources.size(); ++s) {
        cost(sources[s], b) = totals[s] / static_cast<double>(conditions.size());
    }
}

// Monte Carlo column b: `samples` draws of (x_0, x_b) per condition, the same draws for all a.
void monteCarloColumn(const data::CategoricalTable& table,
                      const model::CategoricalDenoiser& denoiser,
                      const Vector& pi,
                      const TimeGrid& grid,
                      int b,
                      const std::vector<int>& sources,
                      const std::vector<int>& conditions,
                      const StepCostOptions& options,
                      Matrix& cost,
                      Matrix& standardError) {
    const int numClasses = static_cast<int>(pi.size());
    const int numPositions = table.numPositions;
    const double betaB = grid.beta[b];
    const model::DenoiserTime time{grid.t[b], betaB};
    std::vector<double> piCdf(static_cast<size_t>(numClasses));
    double running = 0.0;
    for (int k = 0; k < numClasses; ++k) {
        running += pi[k];
        piCdf[k] = running;
    }
    std::vector<int> xb(static_cast<size_t>(numPositions));
    std::vector<double> f(static_cast<size_t>(numPositions) * numClasses);
    Vector qTrue(numClasses);
    Vector qModel(numClasses);
    std::vector<double> sum(sources.size(), 0.0);
    std::vector<double> sumSquares(sources.size(), 0.0);
    std::vector<double> perCondition(sources.size(), 0.0);
    std::vector<double> varianceSum(sources.size(), 0.0);
    for (int c : conditions) {
        std::vector<int> rows;
        std::vector<double> rowCdf;
        double acc = 0.0;
        for (int r = 0; r < table.numRows(); ++r) {
            if (table.condition[r] == c && table.probability[r] > 0.0) {
                acc += table.probability[r];
                rows.push_back(r);
                rowCdf.push_back(acc);
            }
        }
        std::fill(sum.begin(), sum.end(), 0.0);
        std::fill(sumSquares.begin(), sumSquares.end(), 0.0);
        for (int64_t m = 0; m < options.samples; ++m) {
            // Keyed by (seed, sample·C + condition, b): one stream per sample and condition.
            CounterRng rng(options.seed, static_cast<uint64_t>(m) * table.numConditions() + c,
                           static_cast<uint64_t>(b));
            const double u = rng.uniform() * acc;
            const size_t pick = std::min(rows.size() - 1, static_cast<size_t>(
                std::upper_bound(rowCdf.begin(), rowCdf.end(), u) - rowCdf.begin()));
            const int* x0 = table.row(rows[pick]);
            for (int d = 0; d < numPositions; ++d) {
                // P₀,ₜ: keep x_0 with probability 1 − β_b, else a fresh draw from π.
                if (rng.uniform() < 1.0 - betaB) {
                    xb[d] = x0[d];
                } else {
                    const double v = rng.uniform() * running;
                    xb[d] = std::min(numClasses - 1, static_cast<int>(
                        std::upper_bound(piCdf.begin(), piCdf.end(), v) - piCdf.begin()));
                }
            }
            denoiser.predict(xb, c, time, f);
            for (size_t s = 0; s < sources.size(); ++s) {
                const double betaA = grid.beta[sources[s]];
                double value = 0.0;
                for (int d = 0; d < numPositions; ++d) {
                    const Eigen::Map<const Vector> fd(f.data() + static_cast<size_t>(d) * numClasses, numClasses);
                    reverseKernel(options.form, fd, xb[d], pi, betaA, betaB, qModel);
                    forwardPosterior(pi, betaA, betaB, x0[d], xb[d], qTrue);
                    value += klDivergence(qTrue, qModel);
                }
                sum[s] += value;
                sumSquares[s] += value * value;
            }
        }
        const double n = static_cast<double>(options.samples);
        for (size_t s = 0; s < sources.size(); ++s) {
            const double mean = sum[s] / n;
            const double variance = n > 1.0 ? std::max(0.0, (sumSquares[s] - n * mean * mean) / (n - 1.0)) : 0.0;
            perCondition[s] += mean;
            varianceSum[s] += variance / n;
        }
    }
    const double numConditions = static_cast<double>(conditions.size());
    for (size_t s = 0; s < sources.size(); ++s) {
        cost(sources[s], b) = perCondition[s] / numConditions;
        standardError(sources[s], b) = std::sqrt(varianceSum[s]) / numConditions;
        perCondition[s] = 0.0;
        varianceSum[s] = 0.0;
    }
}

}  // namespace

double entropy(const ConstVectorRef& p) {
    double h = 0.0;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        h -= xlogx(p[i]);
    }
    return h;
}

Vector marginalAt(const ConstVectorRef& p0, const ConstVectorRef& pi, double betaT) {
    return (1.0 - betaT) * p0 + betaT * pi;
}

double mutualInformation(const ConstVectorRef& p0, const ConstVectorRef& pi, double betaT) {
    // H(P₀,ₜ[i,·]) = −[xlogx(1−β+βπ_i) + Σ_{j≠i} xlogx(βπ_j)]: one shared sum makes it O(K).
    double shared = 0.0;
    for (Eigen::Index j = 0; j < pi.size(); ++j) {
        shared += xlogx(betaT * pi[j]);
    }
    double conditional = 0.0;
    for (Eigen::Index i = 0; i < p0.size(); ++i) {
        if (p0[i] > 0.0) {
            const double rowEntropy =
                -(xlogx(1.0 - betaT + betaT * pi[i]) + shared - xlogx(betaT * pi[i]));
            conditional += p0[i] * rowEntropy;
        }
    }
    return std::max(0.0, entropy(marginalAt(p0, pi, betaT)) - conditional);
}

std::vector<Vector> positionMarginals(const std::vector<int>& classes,
                                      int numPositions,
                                      int numClasses) {
    std::vector<Vector> marginals(static_cast<size_t>(std::max(0, numPositions)),
                                  Vector::Zero(std::max(1, numClasses)));
    if (numPositions <= 0 || numClasses <= 0) {
        return marginals;
    }
    for (size_t i = 0; i < classes.size(); ++i) {
        const int c = classes[i];
        if (c >= 0 && c < numClasses) {
            marginals[i % static_cast<size_t>(numPositions)][c] += 1.0;
        }
    }
    for (Vector& p : marginals) {
        const double total = p.sum();
        p = total > 0.0 ? Vector(p / total) : Vector::Constant(numClasses, 1.0 / numClasses);
    }
    return marginals;
}

double informationFraction(const std::vector<Vector>& marginals, const Vector& pi, double betaT) {
    double information = 0.0;
    double entropySum = 0.0;
    for (const Vector& p0 : marginals) {
        information += mutualInformation(p0, pi, betaT);
        entropySum += entropy(p0);
    }
    // Constant positions add 0 to both sums, so they neither count nor divide by zero.
    return entropySum > 0.0 ? std::clamp(information / entropySum, 0.0, 1.0) : 0.0;
}

double impurity(const ConstVectorRef& p0, const ConstVectorRef& pi, double betaT) {
    // Σ_j p_t[j] Σ_i F(i|j)² = Σ_j Σ_i (p_0[i] P₀,ₜ[i,j])² / p_t[j]. With the structure of
    // P₀,ₜ the inner sum is (β_t π_j)² Σ_i p_0[i]² + p_0[j]² ((1 − β_t)² + 2(1 − β_t) β_t π_j),
    // so the whole is O(K) (the GUI recomputes it at every grid time on every edit).
    const Vector pt = marginalAt(p0, pi, betaT);
    const double sumSquares = p0.squaredNorm();
    const double keep = 1.0 - betaT;
    double purity = 0.0;
    for (Eigen::Index j = 0; j < pi.size(); ++j) {
        if (!(pt[j] > 0.0)) {
            continue;
        }
        const double noise = betaT * pi[j];
        const double s = noise * noise * sumSquares + p0[j] * p0[j] * keep * (keep + 2.0 * noise);
        purity += s / pt[j];
    }
    return std::max(0.0, 1.0 - purity);
}

double tableMutualInformation(const data::CategoricalTable& table,
                              const Vector& pi,
                              double betaT,
                              int condition) {
    const std::vector<int> conditions = conditionsOf(table, condition);
    double total = 0.0;
    for (int c : conditions) {
        for (int d = 0; d < table.numPositions; ++d) {
            total += mutualInformation(table.marginal(c, d), pi, betaT);
        }
    }
    return total / static_cast<double>(conditions.size());
}

double tableImpurity(const data::CategoricalTable& table, const Vector& pi, double betaT, int condition) {
    const std::vector<int> conditions = conditionsOf(table, condition);
    double total = 0.0;
    for (int c : conditions) {
        for (int d = 0; d < table.numPositions; ++d) {
            total += impurity(table.marginal(c, d), pi, betaT);
        }
    }
    return total / static_cast<double>(conditions.size());
}

DataEntropy dataEntropy(const data::CategoricalTable& table, int condition) {
    const std::vector<int> conditions = conditionsOf(table, condition);
    DataEntropy result;
    for (int c : conditions) {
        result.joint += table.entropy(c);
        for (int d = 0; d < table.numPositions; ++d) {
            result.positions += entropy(table.marginal(c, d));
        }
    }
    result.joint /= static_cast<double>(conditions.size());
    result.positions /= static_cast<double>(conditions.size());
    return result;
}

InformationCurves informationCurves(const data::CategoricalTable& table,
                                    const Vector& pi,
                                    const TimeGrid& grid,
                                    int condition) {
    InformationCurves curves;
    curves.t = grid.t;
    curves.beta = grid.beta;
    for (double beta : grid.beta) {
        curves.mutualInformation.push_back(tableMutualInformation(table, pi, beta, condition));
        curves.impurity.push_back(tableImpurity(table, pi, beta, condition));
    }
    return curves;
}

Result<StepCosts> computeStepCosts(const data::CategoricalTable& table,
                                   const model::CategoricalDenoiser& denoiser,
                                   const Vector& pi,
                                   const TimeGrid& grid,
                                   CostPairs pairs,
                                   const StepCostOptions& options) {
    if (Status status = validateTimeGrid(grid); !status) {
        return status.error();
    }
    const int numClasses = static_cast<int>(pi.size());
    if (denoiser.numClasses() != numClasses || table.numClasses != numClasses ||
        denoiser.numPositions() != table.numPositions) {
        return invalidArgument("model", "", "the table, π and the model disagree on K or D");
    }
    if (options.condition >= table.numConditions()) {
        return invalidArgument("condition", std::to_string(options.condition), "no such condition");
    }
    if (options.samples < 0) {
        return invalidArgument("samples", std::to_string(options.samples), "must be ≥ 0");
    }
    // K^D, saturating: only compared with maxEnumeration.
    int64_t numStates = 1;
    for (int d = 0; d < table.numPositions && numStates <= options.maxEnumeration; ++d) {
        numStates *= numClasses;
    }
    const bool monteCarlo = options.samples > 0;
    const bool factorised = denoiser.factorised();
    if (!monteCarlo && !factorised && numStates > options.maxEnumeration) {
        return invalidArgument("samples", "0",
                               "K^D exceeds " + std::to_string(options.maxEnumeration) +
                                   " states: exact step costs are out of reach, give a number of "
                                   "Monte Carlo samples");
    }
    const int numSteps = grid.numSteps();
    const double cells = (numSteps + 1.0) * (numSteps + 1.0);
    if (Status s = limits::checkMemory("N", std::to_string(numSteps),
                                       "two (N+1)·(N+1)·8-byte matrices (costs and errors)",
                                       2.0 * 8.0 * cells);
        !s) {
        return s.error();
    }
    StepCosts result;
    result.monteCarlo = monteCarlo;
    result.cost = Matrix::Constant(numSteps + 1, numSteps + 1, kInf);
    result.standardError = Matrix::Zero(numSteps + 1, numSteps + 1);
    const std::vector<int> conditions = conditionsOf(table, options.condition);
    if (options.progress != nullptr) {
        options.progress->setTotal(numSteps);
    }
    // Columns b are independent and each is summed sequentially: identical for any thread count.
    parallelFor(numSteps, options.parallel, [&](int64_t index) {
        if (options.progress != nullptr && options.progress->cancelled()) {
            return;
        }
        // Largest columns first in index order is irrelevant for results; b = N − index
        // starts the expensive columns early for better load balance.
        const int b = pairs == CostPairs::All ? numSteps - static_cast<int>(index)
                                              : static_cast<int>(index) + 1;
        const std::vector<int> sources = sourcesOf(pairs, b);
        if (monteCarlo) {
            monteCarloColumn(table, denoiser, pi, grid, b, sources, conditions, options,
                             result.cost, result.standardError);
        } else if (factorised) {
            factorisedColumn(table, denoiser, pi, grid, b, sources, conditions, options.form,
                             options.progress, result.cost);
        } else {
            enumeratedColumn(table, denoiser, pi, grid, b, sources, conditions, options.form,
                             numStates, result.cost);
        }
        if (options.progress != nullptr) {
            options.progress->advance();
        }
    }, 1);
    if (options.progress != nullptr && options.progress->cancelled()) {
        return makeError(ErrorCode::Cancelled, "", "", "the step costs were cancelled");
    }
    for (int b = 1; b <= numSteps; ++b) {
        for (int a : sourcesOf(pairs, b)) {
            if (!std::isfinite(result.cost(a, b))) {
                return makeError(ErrorCode::NumericalError,
                                 "J(" + std::to_string(a) + ", " + std::to_string(b) + ")",
                                 std::to_string(result.cost(a, b)), "a step cost is not finite");
            }
        }
    }
    return result;
}

double negativeElbo(const Matrix& cost, const std::vector<int>& nodes) {
    double total = 0.0;
    for (size_t k = 1; k < nodes.size(); ++k) {
        total += cost(nodes[k - 1], nodes[k]);
    }
    return total;
}

}  // namespace core::categorical
