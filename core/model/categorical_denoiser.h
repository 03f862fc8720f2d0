// SPDX-License-Identifier: MIT
#pragma once

#include <span>

// The denoiser interface of the categorical process (docs/categorical.md#denoiser): given x_t at D
// positions, a condition c and the time t, predict F(· | x_t, c, t) = P(X_0 = · | X_t = x_t, C = c)
// for every position. Exact oracles (categorical_oracles.h) and, later, networks implement it.
namespace core::model {

// The time of a prediction, in both forms a model may want.
struct DenoiserTime {
    double t = 0.0;      // time in [0, 1] (what a network is conditioned on)
    double betaT = 0.0;  // β(t) (what an exact oracle needs)
};

class CategoricalDenoiser {
public:
    virtual ~CategoricalDenoiser() = default;

    virtual int numClasses() const = 0;    // K
    virtual int numPositions() const = 0;  // D
    virtual int numConditions() const = 0; // labels the model distinguishes (≥ 1)

    // Writes F for every position into out (D×K, row-major: position d at out[d·K .. d·K+K)).
    // Each row is a probability vector. xt has D entries in 0..K−1; condition is in
    // 0..numConditions()−1. Must be thread-safe (const, no shared mutable state).
    virtual void predict(std::span<const int> xt,
                         int condition,
                         const DenoiserTime& time,
                         std::span<double> out) const = 0;

    // True when F at position d depends on x_t only through x_t[d]; then predictPosition is
    // valid and callers may tabulate F, and the reverse kernel, per (position, class, step).
    virtual bool factorised() const { return false; }

    // F at position d given x_t[d] = xt (size K). Only for factorised models.
    virtual void predictPosition(int position,
                                 int xt,
                                 int condition,
                                 const DenoiserTime& time,
                                 std::span<double> out) const;
};

}  // namespace core::model
