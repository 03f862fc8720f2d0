// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/data/categorical_table.h"
#include "core/model/categorical_denoiser.h"
#include "core/util/eigen_types.h"

// Exact denoisers of the categorical process (MATH.md A.4), posteriors in log space.
namespace core::model {

// Table oracle: F(i | j, c, t) ∝ p_0(i | c) P₀,ₜ[i, j], per position from the table's marginal
// of that position (for D > 1 a factorised model: each position's exact marginal posterior).
class TableOracle final : public CategoricalDenoiser {
public:
    // pi must have table.numClasses entries.
    TableOracle(const data::CategoricalTable& table, const Vector& pi);

    int numClasses() const override { return m_numClasses; }
    int numPositions() const override { return m_numPositions; }
    int numConditions() const override { return m_numConditions; }
    void predict(std::span<const int> xt,
                 int condition,
                 const DenoiserTime& time,
                 std::span<double> out) const override;
    bool factorised() const override { return true; }
    void predictPosition(int position,
                         int xt,
                         int condition,
                         const DenoiserTime& time,
                         std::span<double> out) const override;

private:
    int m_numClasses;
    int m_numPositions;
    int m_numConditions;
    Vector m_pi;
    std::vector<Vector> m_logMarginal;  // [condition·D + d] → log p_0,d(· | c)
};

// Empirical oracle: posterior weights w_m ∝ weight_m [c_m = c] Π_d P₀,ₜ[x_m,d, x_t,d] over a
// data set (log space); F at position d is Σ_m w_m δ(x_m,d). With equal weights it is the
// exact optimum of A.3 for the data set; with the table's probabilities as weights it is the
// exact joint posterior of a table (not factorised).
class EmpiricalOracle final : public CategoricalDenoiser {
public:
    // examples: M×D row-major classes; conditions: M condition indices (empty: all 0);
    // weights: M nonnegative weights (empty: all equal).
    EmpiricalOracle(int numPositions,
                    const Vector& pi,
                    std::vector<int> examples,
                    std::vector<int> conditions = {},
                    std::vector<double> weights = {});
    // The exact joint posterior of a table.
    static EmpiricalOracle fromTable(const data::CategoricalTable& table, const Vector& pi);

    int numClasses() const override { return static_cast<int>(m_pi.size()); }
    int numPositions() const override { return m_numPositions; }
    int numConditions() const override { return m_numConditions; }
    void predict(std::span<const int> xt,
                 int condition,
                 const DenoiserTime& time,
                 std::span<double> out) const override;

private:
    int m_numPositions;
    int m_numConditions = 1;
    Vector m_pi;
    std::vector<int> m_examples;
    std::vector<int> m_conditions;
    std::vector<double> m_logWeights;
};

}  // namespace core::model
