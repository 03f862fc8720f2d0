// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <span>

// Counter-based random numbers: every draw is a pure function of
// (seed, stream, step, index), so results do not depend on the thread count or order.
// The generator is Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
// SC 2011): key = seed, counter = (index, step, stream).
namespace core {

class CounterRng {
public:
    // stream: a chain, sample or data-point index; step: a time step or iteration.
    CounterRng(uint64_t seed, uint64_t stream, uint64_t step)
        : m_key{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)},
          m_stream(stream),
          m_step(step) {}

    // Four fresh 32-bit words per block; the index counts blocks within (stream, step).
    uint64_t nextU64() {
        if (m_used >= 4) {
            refill();
        }
        const uint64_t lo = m_buffer[m_used];
        const uint64_t hi = m_buffer[m_used + 1];
        m_used += 2;
        return (hi << 32) | lo;
    }

    // Uniform in the open interval (0, 1) with 53 random bits.
    double uniform() {
        const uint64_t bits = nextU64() >> 11;
        return (static_cast<double>(bits) + 0.5) * 0x1.0p-53;
    }

    // Standard normal by Box–Muller; the second value of each pair is kept for the next call.
    double normal() {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        const double u1 = uniform();
        const double u2 = uniform();
        const double radius = std::sqrt(-2.0 * std::log(u1));
        const double angle = 2.0 * 3.14159265358979323846 * u2;
        m_spare = radius * std::sin(angle);
        m_hasSpare = true;
        return radius * std::cos(angle);
    }

    // Index drawn from the probability vector p (need not be normalised exactly: the last
    // positive entry absorbs rounding). Inverse-CDF scan, O(K).
    int categorical(std::span<const double> p) {
        double total = 0.0;
        for (double v : p) {
            total += v;
        }
        const double u = uniform() * total;
        double cumulative = 0.0;
        int lastPositive = 0;
        for (size_t k = 0; k < p.size(); ++k) {
            if (p[k] > 0.0) {
                lastPositive = static_cast<int>(k);
                cumulative += p[k];
                if (u < cumulative) {
                    return static_cast<int>(k);
                }
            }
        }
        return lastPositive;
    }

    // The Philox4x32-10 bijection, exposed for known-answer tests.
    static std::array<uint32_t, 4> philox(std::array<uint32_t, 4> counter,
                                          std::array<uint32_t, 2> key) {
        constexpr uint32_t kMul0 = 0xD2511F53u;
        constexpr uint32_t kMul1 = 0xCD9E8D57u;
        constexpr uint32_t kWeyl0 = 0x9E3779B9u;
        constexpr uint32_t kWeyl1 = 0xBB67AE85u;
        for (int round = 0; round < 10; ++round) {
            const uint64_t p0 = static_cast<uint64_t>(kMul0) * counter[0];
            const uint64_t p1 = static_cast<uint64_t>(kMul1) * counter[2];
            counter = {static_cast<uint32_t>(p1 >> 32) ^ counter[1] ^ key[0],
                       static_cast<uint32_t>(p1),
                       static_cast<uint32_t>(p0 >> 32) ^ counter[3] ^ key[1],
                       static_cast<uint32_t>(p0)};
            key[0] += kWeyl0;
            key[1] += kWeyl1;
        }
        return counter;
    }

private:
    void refill() {
        m_buffer = philox({m_index, static_cast<uint32_t>(m_step), static_cast<uint32_t>(m_stream),
                           static_cast<uint32_t>(m_stream >> 32) ^
                               static_cast<uint32_t>(m_step >> 32) * 0x9E3779B9u},
                          m_key);
        ++m_index;
        m_used = 0;
    }

    std::array<uint32_t, 2> m_key;
    uint64_t m_stream;
    uint64_t m_step;
    uint32_t m_index = 0;
    std::array<uint32_t, 4> m_buffer{};
    int m_used = 4;
    double m_spare = 0.0;
    bool m_hasSpare = false;
};

}  // namespace core
