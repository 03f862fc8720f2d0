// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

// Stream keys of the Gaussian engine's counter-based draws: every
// draw is keyed by (seed, purpose + sample index, timestep), so the computations below never
// share numbers by accident and the same seed gives the same numbers whatever the threads.
namespace core::gaussian {

enum class RngPurpose : uint64_t {
    Data = 1,         // x_0⁽ᵐ⁾ drawn from a data sampler (step 0)
    GammaNoise = 2,   // ε for Γ estimation (step n)
    NllNoise = 3,     // ε for the NLL terms (step t)
    SamplerInit = 4,  // x_N of a sampler (step 0)
    SamplerNoise = 5, // the reverse step's noise (step s)
    ForwardNoise = 6, // the forward chain's noise along a trajectory (step t)
    QualityReference = 7, // held-out points drawn to judge samples (step 0)
};

inline uint64_t rngStream(RngPurpose purpose, uint64_t index) {
    return (static_cast<uint64_t>(purpose) << 56) ^ index;
}

}  // namespace core::gaussian
