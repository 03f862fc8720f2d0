// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <vector>

#include "core/data/categorical_table.h"
#include "core/model/categorical_denoiser.h"
#include "core/util/eigen_types.h"

// Exact denoisers of the categorical process (docs/categorical.md#exact-denoisers), posteriors in
// log space.
namespace core::model {

class CategoricalEmpiricalOracle;

// How a table oracle treats D > 1 positions.
enum class TableOracleMode {
    // F_d(i | x_t) = P(X_0,d = i | X_t = x_t, c): each position's exact marginal of the joint
    // posterior over the table's rows, given the whole x_t (docs/categorical.md#exact-denoisers:
    // the factorised model using each position's exact marginal posterior). For D = 1 it is the
    // table oracle exactly.
    JointPosterior,
    // F_d(i | x_t,d) ∝ p_0,d(i | c) P₀,ₜ[i, x_t,d]: each position alone, ignoring the others.
    // A cheaper, cruder model (its negative ELBO is Σ_d H(X_0,d) on every trajectory).
    IndependentPositions,
};

// Table oracle (docs/categorical.md#exact-denoisers): F(i | j, c, t) ∝ p_0(i | c) P₀,ₜ[i, j], in
// log space.
class TableOracle final : public CategoricalDenoiser {
public:
    // pi must have table.numClasses entries.
    TableOracle(const data::CategoricalTable& table,
                const Vector& pi,
                TableOracleMode mode = TableOracleMode::JointPosterior);
    ~TableOracle() override;
    TableOracle(TableOracle&&) noexcept;

    int numClasses() const override { return m_numClasses; }
    int numPositions() const override { return m_numPositions; }
    int numConditions() const override { return m_numConditions; }
    void predict(std::span<const int> xt,
                 int condition,
                 const DenoiserTime& time,
                 std::span<double> out) const override;
    // Tabulable per (position, class) for D = 1 or in IndependentPositions mode.
    bool factorised() const override;
    void predictPosition(int position,
                         int xt,
                         int condition,
                         const DenoiserTime& time,
                         std::span<double> out) const override;

private:
    int m_numClasses;
    int m_numPositions;
    int m_numConditions;
    TableOracleMode m_mode;
    Vector m_pi;
    std::vector<Vector> m_logMarginal;  // [condition·D + d] → log p_0,d(· | c)
    std::vector<Vector> m_marginal;     // the same, exponentiated once
    std::unique_ptr<CategoricalEmpiricalOracle> m_joint;    // JointPosterior mode with D > 1
};

// Empirical oracle: posterior weights w_m ∝ weight_m [c_m = c] Π_d P₀,ₜ[x_m,d, x_t,d] over a
// data set (log space); F at position d is Σ_m w_m δ(x_m,d). With equal weights it is the
// exact optimum of A.3 for the data set; with the table's probabilities as weights it is the
// exact joint posterior of a table (not factorised).
class CategoricalEmpiricalOracle final : public CategoricalDenoiser {
public:
    // examples: M×D row-major classes; conditions: M condition indices (empty: all 0);
    // weights: M nonnegative weights (empty: all equal).
    CategoricalEmpiricalOracle(int numPositions,
                    const Vector& pi,
                    std::vector<int> examples,
                    std::vector<int> conditions = {},
                    std::vector<double> weights = {});
    // The exact joint posterior of a table.
    static CategoricalEmpiricalOracle fromTable(const data::CategoricalTable& table, const Vector& pi);

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
