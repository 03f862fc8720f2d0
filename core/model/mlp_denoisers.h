// SPDX-License-Identifier: MIT
#pragma once

#include <span>

#include "core/model/categorical_denoiser.h"
#include "core/model/gaussian_eps_model.h"
#include "core/model/mlp.h"
#include "core/util/result.h"

// Learned denoisers: an Mlp behind the engines' model interfaces, so reverse sampling,
// step costs, Γ, σ², the DP and the NLL work with a network exactly as with an oracle.
namespace core::model {

// F_θ(· | x_t, c, t) (docs/categorical.md#training): the network sees one-hot x_t at every position
// (D·K inputs, position d, class k at input d·K + k), temb(t) and the condition embedding, and
// outputs D·K logits; F at position d is the softmax of logits d·K .. d·K+K−1. Not factorised:
// every position's prediction depends on the whole x_t.
class CategoricalMlpDenoiser final : public CategoricalDenoiser {
public:
    // mlp must have inputs = outputs = numPositions·numClasses (K ≥ 2, D ≥ 1); errors name the
    // mismatching field.
    static Result<CategoricalMlpDenoiser> create(Mlp mlp, int numClasses, int numPositions);

    int numClasses() const override { return m_numClasses; }
    int numPositions() const override { return m_numPositions; }
    // The network's condition count (1 for an unconditional network).
    int numConditions() const override;
    // condition in 0..numConditions()−1, or the network's noCondition() index (= numConditions()
    // for a conditional network) for the unconditional prediction. An unconditional network
    // ignores it. Thread-safe: allocates its own workspace per call.
    void predict(std::span<const int> xt,
                 int condition,
                 const DenoiserTime& time,
                 std::span<double> out) const override;

    const Mlp& mlp() const { return m_mlp; }
    Mlp& mlp() { return m_mlp; }

    // A network of masked diffusion with a mask state (docs/categorical.md#masked-diffusion):
    // class `maskClass` (in 0..K−1, or −1 for none) is never a data value, so F gives it exactly
    // 0 and the softmax runs over the other classes, as in training.
    void setMaskClass(int maskClass) { m_maskClass = maskClass; }
    int maskClass() const { return m_maskClass; }

    // One-hot encoding of x_t (D entries in 0..K−1) into column (D·K floats).
    static void encode(std::span<const int> xt, int numClasses, float* column);
    // Per-position softmax of logits (D·K) into probabilities (D·K), max-shifted, in double;
    // class `excluded` (−1: none) gets 0 and is left out of the normalisation.
    static void softmax(const float* logits, int numClasses, int numPositions, double* out,
                        int excluded = -1);

private:
    CategoricalMlpDenoiser(Mlp mlp, int numClasses, int numPositions)
        : m_mlp(std::move(mlp)), m_numClasses(numClasses), m_numPositions(numPositions) {}
    Mlp m_mlp;
    int m_numClasses;
    int m_numPositions;
    int m_maskClass = -1;
};

// ε_θ(x_n, n) (docs/gaussian.md#training): the network sees x_n (d inputs) and temb(n/N); outputs d
// values. A conditional network is asked with its noCondition() index.
class GaussianMlpEpsModel final : public GaussianEpsModel {
public:
    // mlp must have inputs = outputs = d; numSteps N ≥ 1 is the schedule it was trained on.
    static Result<GaussianMlpEpsModel> create(Mlp mlp, int numSteps);

    int dimension() const override { return m_mlp.config().inputs; }
    int numSteps() const { return m_numSteps; }
    // Thread-safe; computes in float32 in chunks of columns, writes double.
    void predictEps(const ConstMatrixRef& x, const NoiseLevel& level, MatrixRef eps) const override;

    // The time the network is conditioned on for timestep n: n/N.
    static double networkTime(int timestep, int numSteps) {
        return static_cast<double>(timestep) / static_cast<double>(numSteps);
    }

    const Mlp& mlp() const { return m_mlp; }
    Mlp& mlp() { return m_mlp; }

private:
    GaussianMlpEpsModel(Mlp mlp, int numSteps) : m_mlp(std::move(mlp)), m_numSteps(numSteps) {}
    Mlp m_mlp;
    int m_numSteps;
};

}  // namespace core::model
