// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "core/util/eigen_types.h"
#include "core/util/rng.h"

// The one ε/score model interface of the Gaussian engine (docs/gaussian.md#predictions). Exact
// oracles implement it today; a trained network plugs in behind it later.
namespace core::model {

// The noise level a model is asked about: timestep n (1-based) with its ᾱ_n and β̄_n, passed
// explicitly so oracles need no schedule and continuous-time callers (B.8) can use any level.
struct NoiseLevel {
    int timestep = 1;        // n, 1..N (what a network is conditioned on)
    double alphaBar = 1.0;   // ᾱ_n
    double betaBar = 0.0;    // β̄_n = 1 − ᾱ_n, kept separately for its small-n digits
};

class GaussianEpsModel {
public:
    virtual ~GaussianEpsModel() = default;

    // Data dimension d.
    virtual int dimension() const = 0;

    // ε_θ(x, n) for a batch: x is d×B (one point per column), eps is a caller-owned d×B buffer.
    // Must be safe to call concurrently from several threads (const, no shared scratch).
    // The score is s_n(x) = −ε_θ(x, n)/√β̄_n (docs/gaussian.md#forward-process).
    virtual void predictEps(const ConstMatrixRef& x, const NoiseLevel& level,
                            MatrixRef eps) const = 0;

    // The shape of one data point when the model knows it (a TorchScript network's [C, H, W]),
    // a column of x being the point in row-major order; empty for flat data.
    virtual std::vector<int> dataShape() const { return {}; }

    // E[x_0] (length d), which is E[x_0 | x_n] at ᾱ_n = 0 (a zero-SNR schedule's N), where x_n
    // is independent of x_0 and ε_θ(x_n, n) = x_n carries nothing about it. Returns false when
    // the model cannot tell (an ε-network); the exact oracles know their data's mean.
    virtual bool dataMean(VectorRef out) const {
        (void)out;
        return false;
    }
};

// Where data points x_0 come from (Γ estimation, NLL, the oracle's own data).
class GaussianDataSampler {
public:
    virtual ~GaussianDataSampler() = default;

    virtual int dimension() const = 0;

    // Writes data point number `index` into `out` (length d). Random draws come from `rng`,
    // which the caller keys by (seed, index, purpose), so the result is deterministic.
    virtual void sampleData(uint64_t index, CounterRng& rng, VectorRef out) const = 0;

    // Σ_i Var[x_0,i]/d, the data's total variance per dimension
    // (docs/gaussian.md#posterior-variance).
    virtual double variancePerDimension() const = 0;
};

}  // namespace core::model
