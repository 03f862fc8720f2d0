// SPDX-License-Identifier: MIT
#include "core/model/categorical_oracles.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace core::model {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// log P₀,ₜ[i, j] for i = j and for i ≠ j (docs/categorical.md#forward-process): the only two values
// in column j.
struct LogColumn {
    double same;
    double other;
};

LogColumn logForwardColumn(const Vector& pi, double betaT, int j) {
    // log1p keeps precision for small β_t; β_t π_j = 0 gives −inf (unreachable from i ≠ j).
    const double same = std::log1p(-betaT * (1.0 - pi[j]));
    const double otherMass = betaT * pi[j];
    return {same, otherMass > 0.0 ? std::log(otherMass) : kNegInf};
}

}  // namespace

TableOracle::~TableOracle() = default;
TableOracle::TableOracle(TableOracle&&) noexcept = default;

bool TableOracle::factorised() const {
    return m_numPositions == 1 || m_mode == TableOracleMode::IndependentPositions;
}

TableOracle::TableOracle(const data::CategoricalTable& table, const Vector& pi, TableOracleMode mode)
    : m_numClasses(table.numClasses),
      m_numPositions(table.numPositions),
      m_numConditions(table.numConditions()),
      m_mode(mode),
      m_pi(pi) {
    if (m_numPositions > 1 && mode == TableOracleMode::JointPosterior) {
        m_joint = std::make_unique<CategoricalEmpiricalOracle>(CategoricalEmpiricalOracle::fromTable(table, pi));
    }
    assert(pi.size() == table.numClasses);
    for (int c = 0; c < m_numConditions; ++c) {
        for (int d = 0; d < m_numPositions; ++d) {
            m_marginal.push_back(table.marginal(c, d));
            m_logMarginal.push_back(m_marginal.back().array().log().matrix());
        }
    }
}

void TableOracle::predictPosition(int position,
                                  int xt,
                                  int condition,
                                  const DenoiserTime& time,
                                  std::span<double> out) const {
    const Vector& logPrior = m_logMarginal[static_cast<size_t>(condition) * m_numPositions + position];
    const LogColumn column = logForwardColumn(m_pi, time.betaT, xt);
    // docs/categorical.md#exact-denoisers: F(i | j) ∝ p_0(i) P₀,ₜ[i, j], normalised with a max
    // shift.
    double maxLog = kNegInf;
    for (int i = 0; i < m_numClasses; ++i) {
        const double v = logPrior[i] + (i == xt ? column.same : column.other);
        out[i] = v;
        maxLog = std::max(maxLog, v);
    }
    if (maxLog == kNegInf) {
        // x_t = j cannot be reached from the data: any F is consistent; use p_0 itself.
        for (int i = 0; i < m_numClasses; ++i) {
            out[i] = std::exp(logPrior[i]);
        }
        return;
    }
    // exp(log p_0(i) + c − max) = p_0(i)·exp(c − max) with c one of two column values: two
    // exponentials instead of K, the same numbers up to rounding (exp(c − max) ≤ 1/max_i p_0(i)).
    const Vector& prior = m_marginal[static_cast<size_t>(condition) * m_numPositions + position];
    const double scaleOther = std::exp(column.other - maxLog);
    const double scaleSame = std::exp(column.same - maxLog);
    double sum = 0.0;
    for (int i = 0; i < m_numClasses; ++i) {
        out[i] = prior[i] * (i == xt ? scaleSame : scaleOther);
        sum += out[i];
    }
    for (int i = 0; i < m_numClasses; ++i) {
        out[i] /= sum;
    }
}

void TableOracle::predict(std::span<const int> xt,
                          int condition,
                          const DenoiserTime& time,
                          std::span<double> out) const {
    if (m_joint) {
        m_joint->predict(xt, condition, time, out);
        return;
    }
    for (int d = 0; d < m_numPositions; ++d) {
        predictPosition(d, xt[d], condition, time,
                        out.subspan(static_cast<size_t>(d) * m_numClasses, m_numClasses));
    }
}

CategoricalEmpiricalOracle::CategoricalEmpiricalOracle(int numPositions,
                                 const Vector& pi,
                                 std::vector<int> examples,
                                 std::vector<int> conditions,
                                 std::vector<double> weights)
    : m_numPositions(numPositions), m_pi(pi), m_examples(std::move(examples)) {
    const size_t count = m_examples.size() / static_cast<size_t>(numPositions);
    m_conditions = conditions.empty() ? std::vector<int>(count, 0) : std::move(conditions);
    for (int c : m_conditions) {
        m_numConditions = std::max(m_numConditions, c + 1);
    }
    m_logWeights.resize(count);
    for (size_t m = 0; m < count; ++m) {
        m_logWeights[m] = weights.empty() ? 0.0 : (weights[m] > 0.0 ? std::log(weights[m]) : kNegInf);
    }
}

CategoricalEmpiricalOracle CategoricalEmpiricalOracle::fromTable(const data::CategoricalTable& table, const Vector& pi) {
    return CategoricalEmpiricalOracle(table.numPositions, pi, table.classes, table.condition, table.probability);
}

void CategoricalEmpiricalOracle::predict(std::span<const int> xt,
                              int condition,
                              const DenoiserTime& time,
                              std::span<double> out) const {
    const int numClasses = static_cast<int>(m_pi.size());
    const size_t count = m_logWeights.size();
    std::vector<LogColumn> columns(static_cast<size_t>(m_numPositions));
    for (int d = 0; d < m_numPositions; ++d) {
        columns[d] = logForwardColumn(m_pi, time.betaT, xt[d]);
    }
    // docs/categorical.md#exact-denoisers: log w_m = log weight_m + Σ_d log P₀,ₜ[x_m,d, x_t,d],
    // then a max shift.
    std::vector<double> logW(count, kNegInf);
    double maxLog = kNegInf;
    for (size_t m = 0; m < count; ++m) {
        if (m_conditions[m] != condition || m_logWeights[m] == kNegInf) {
            continue;
        }
        double v = m_logWeights[m];
        const int* x = m_examples.data() + m * m_numPositions;
        for (int d = 0; d < m_numPositions && v != kNegInf; ++d) {
            v += x[d] == xt[d] ? columns[d].same : columns[d].other;
        }
        logW[m] = v;
        maxLog = std::max(maxLog, v);
    }
    std::fill(out.begin(), out.end(), 0.0);
    if (maxLog == kNegInf) {
        // x_t unreachable from every example: fall back to the weighted data marginals.
        for (size_t m = 0; m < count; ++m) {
            logW[m] = (m_conditions[m] == condition) ? m_logWeights[m] : kNegInf;
            maxLog = std::max(maxLog, logW[m]);
        }
        if (maxLog == kNegInf) {
            for (int d = 0; d < m_numPositions; ++d) {
                out[static_cast<size_t>(d) * numClasses + xt[d]] = 1.0;
            }
            return;
        }
    }
    double sum = 0.0;
    for (size_t m = 0; m < count; ++m) {
        if (logW[m] == kNegInf) {
            continue;
        }
        const double w = std::exp(logW[m] - maxLog);
        sum += w;
        const int* x = m_examples.data() + m * m_numPositions;
        for (int d = 0; d < m_numPositions; ++d) {
            out[static_cast<size_t>(d) * numClasses + x[d]] += w;
        }
    }
    for (double& v : out) {
        v /= sum;
    }
}

}  // namespace core::model
