// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/data/markov_chain.h"
#include "core/model/categorical_denoiser.h"

namespace core::model {

// The exact denoiser of sequences of length D from a Markov chain, with the mask as class K:
// for a masked position d whose nearest unmasked neighbours are a at l < d and b at r > d,
// F(x) ∝ T^{d−l}(a, x) · T^{r−d}(x, b), with p_d = p₀T^d in place of the left factor where no
// neighbour is on the left, and 1 for the right one where none is on the right. An unmasked
// position keeps its value. The powers T^g (g < D) and the marginals are computed once, so a
// conditional costs O(K) and a whole prediction O(D·K).
class MarkovChainDenoiser final : public CategoricalDenoiser {
public:
    MarkovChainDenoiser(const data::MarkovChain& chain, int length);

    int numClasses() const override { return m_k + 1; }
    int numPositions() const override { return m_length; }
    int numConditions() const override { return 1; }
    void predict(std::span<const int> xt, int condition, const DenoiserTime& time,
                 std::span<double> out) const override;

private:
    double power(int gap, int a, int b) const {
        return m_powers[(static_cast<size_t>(gap) * m_k + a) * m_k + b];
    }
    void fill(std::span<const int> xt, int d, int left, int right, double* out) const;

    int m_k;
    int m_length;
    std::vector<double> m_powers;     // T^g for g = 0..D−1, each K × K row-major
    std::vector<double> m_marginals;  // p_d, D × K
};

}  // namespace core::model
