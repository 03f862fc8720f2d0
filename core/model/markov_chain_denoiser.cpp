// SPDX-License-Identifier: MIT
#include "core/model/markov_chain_denoiser.h"

#include <algorithm>

namespace core::model {

MarkovChainDenoiser::MarkovChainDenoiser(const data::MarkovChain& chain, int length)
    : m_k(chain.numStates()), m_length(length), m_marginals(data::chainMarginals(chain, length)) {
    const size_t square = static_cast<size_t>(m_k) * m_k;
    m_powers.assign(static_cast<size_t>(length) * square, 0.0);
    for (int a = 0; a < m_k; ++a) m_powers[static_cast<size_t>(a) * m_k + a] = 1.0;
    for (int g = 1; g < length; ++g) {
        const double* prev = m_powers.data() + static_cast<size_t>(g - 1) * square;
        double* next = m_powers.data() + static_cast<size_t>(g) * square;
        for (int a = 0; a < m_k; ++a) {
            for (int c = 0; c < m_k; ++c) {
                const double w = prev[static_cast<size_t>(a) * m_k + c];
                if (w == 0.0) continue;
                for (int b = 0; b < m_k; ++b) next[static_cast<size_t>(a) * m_k + b] += w * chain.at(c, b);
            }
        }
    }
}

void MarkovChainDenoiser::fill(std::span<const int> xt, int d, int left, int right, double* out) const {
    double sum = 0.0;
    for (int x = 0; x < m_k; ++x) {
        double w = left >= 0 ? power(d - left, xt[static_cast<size_t>(left)], x)
                             : m_marginals[static_cast<size_t>(d) * m_k + x];
        if (right >= 0) w *= power(right - d, x, xt[static_cast<size_t>(right)]);
        out[x] = w;
        sum += w;
    }
    // Unmasked values the chain cannot join (never drawn from this denoiser): uniform.
    for (int x = 0; x < m_k; ++x) out[x] = sum > 0.0 ? out[x] / sum : 1.0 / m_k;
}

void MarkovChainDenoiser::predict(std::span<const int> xt, int, const DenoiserTime&,
                                  std::span<double> out) const {
    const int kk = m_k + 1;
    std::fill(out.begin(), out.end(), 0.0);
    // The nearest unmasked position to the right of each, in one pass from the end.
    thread_local std::vector<int> rightOf;
    rightOf.assign(static_cast<size_t>(m_length), -1);
    for (int d = m_length - 2; d >= 0; --d) {
        rightOf[static_cast<size_t>(d)] =
            xt[static_cast<size_t>(d + 1)] != m_k ? d + 1 : rightOf[static_cast<size_t>(d + 1)];
    }
    int left = -1;
    for (int d = 0; d < m_length; ++d) {
        double* row = out.data() + static_cast<size_t>(d) * kk;
        const int v = xt[static_cast<size_t>(d)];
        if (v != m_k) {
            row[v] = 1.0;
            left = d;
        } else {
            fill(xt, d, left, rightOf[static_cast<size_t>(d)], row);
        }
    }
}

}  // namespace core::model
