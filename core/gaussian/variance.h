// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/schedule/gaussian_schedule.h"
#include "core/util/result.h"

// The optimal reverse variance and its bounds (docs/gaussian.md#optimal-variance; Bao et al. 2022,
// Theorems 1–2, Corollary 1) on any trajectory and for any forward process λ² = η²β̃ (B.2).
// Γ tables are indexed by n = 0..N with entry 0 unused (see gamma.h).
namespace core::gaussian {

// The forward process on a trajectory: λ²_{s|t} = η²·β̃_{s|t}; η = 1 is DDPM, η = 0 is DDIM.
struct ForwardProcess {
    double eta = 1.0;  // in [0, 1]

    Status validate() const;
    double lambda2(const schedule::GaussianSchedule& schedule, int s, int t) const {
        return eta * eta * schedule.betaTildeST(s, t);
    }
};

// The data interval [a, b] (x̂_0 is clamped to it; Eq. 12 uses ((b − a)/2)²).
struct DataRange {
    double low = -1.0;   // a
    double high = 1.0;   // b

    Status validate() const;
    double halfWidthSquared() const { return 0.25 * (high - low) * (high - low); }
};

// Everything B.4 says about one pair (s, t), 1 ≤ s < t.
struct PairVariance {
    int s = 0;                   // earlier timestep
    int t = 0;                   // later timestep
    double lambda2 = 0.0;        // λ²_{s|t}, also the lower bound
    double coefficient = 0.0;    // c in σ² = λ² + c·v_t
    double v = 0.0;              // v_t = (β̄_t/ᾱ_t)(1 − β̄_t Γ_t), unclipped
    double sigma2Unclipped = 0.0;// λ² + c·v_t
    double lower = 0.0;          // λ²
    double upper = 0.0;          // Eq. 11: λ² + (√(β̄_t/α_{t|s}) − √(β̄_s − λ²))²; it is
                                 // infinite at ᾱ_t = 0, where upperBounded stands in for it
    double upperBounded = 0.0;   // Eq. 12: λ² + c·((b − a)/2)², for data in [a, b]
    double sigma2 = 0.0;         // v_t clipped to [0, min(β̄_t/ᾱ_t, ((b−a)/2)²)]: the estimate
};

// v_t = (β̄_t/ᾱ_t)(1 − β̄_t Γ_t): the per-dimension estimate of E Cov[x_0|x_t] (Section 5).
// At ᾱ_t = 0 (a zero-SNR schedule's N) Γ_t says nothing about v_t (0/0): it is then the
// Eq. 12 bound ((b − a)/2)², the largest posterior variance data in [a, b] can have.
double posteriorVarianceEstimate(const schedule::GaussianSchedule& schedule,
                                 const std::vector<double>& gamma,
                                 int t,
                                 const DataRange& range = {});

// The cap of v_t: min(β̄_t/ᾱ_t, ((b − a)/2)²) (Eq. 11 and Eq. 12 on v); ((b − a)/2)² at ᾱ_t = 0.
double posteriorVarianceCap(const schedule::GaussianSchedule& schedule, int t,
                            const DataRange& range);

// c = (√ᾱ_s − √((β̄_s − λ²)ᾱ_t/β̄_t))², computed without cancellation as
// ᾱ_s·((β_{t|s} + α_{t|s}λ²)/(β̄_t(1 + √r)))² with r = (β̄_s − λ²)α_{t|s}/β̄_t.
double varianceCoefficient(const schedule::GaussianSchedule& schedule, int s, int t, double lambda2);

// B.4 for one pair; an error if Γ_t is not finite or the pair is not 1 ≤ s < t ≤ N.
Result<PairVariance> pairVariance(const schedule::GaussianSchedule& schedule,
                                  const std::vector<double>& gamma,
                                  int s,
                                  int t,
                                  const ForwardProcess& forward = {},
                                  const DataRange& range = {});

// Every pair of a trajectory τ_1 < … < τ_K, in sampling order: (τ_{K−1}, τ_K) first,
// (τ_1, τ_2) last. The decoder step (0, τ_1) is not included.
Result<std::vector<PairVariance>> trajectoryVariances(const schedule::GaussianSchedule& schedule,
                                                      const std::vector<double>& gamma,
                                                      const std::vector<int>& trajectory,
                                                      const ForwardProcess& forward = {},
                                                      const DataRange& range = {});

// The reverse step's variance as it is chosen for a sampler, a plan, the NLL or the lab: the
// analytic optimum (needs Γ) or one of the handcrafted ones.
enum class ReverseVariance {
    Analytic,  // the analytic σ² (B.4; needs Γ)
    Small,     // β̃_{s|t}
    Large,     // β_{t|s}
};

// The handcrafted variances to compare with (B.4).
enum class BaselineVariance {
    Small,  // DDPM σ² = β̃_{s|t}
    Large,  // DDPM σ² = β_{t|s}
    Zero,   // DDIM σ² = 0
};
double baselineSigma2(const schedule::GaussianSchedule& schedule, int s, int t,
                      BaselineVariance baseline);

// App. F.2, sampling only: the cap on σ² of the pair (τ_1, τ_2), (y·(2/255)·√(π/2))².
// y = 1 gives 9.6629e−5, y = 2 gives 3.8652e−4.
double firstPairClipThreshold(double y);

// Section 5: v_n for n = 1..N (entry 0 unused), unclipped, beside the data's variance per
// dimension: E Cov[x_0|x_n] should fall from 0 towards the data's total variance.
std::vector<double> expectedPosteriorVariances(const schedule::GaussianSchedule& schedule,
                                               const std::vector<double>& gamma,
                                               const DataRange& range = {});

// Checks a Gaussian trajectory: 1 ≤ τ_1 < … < τ_K ≤ N, K ≥ 2. Quadratic, leading and others
// end before N (sampling then starts from x_{τ_K} ~ N(0, I)); trailing and others start after 1
// (the decoder then reads x̂_0 from x_{τ_1}).
Status validateGaussianTrajectory(const std::vector<int>& trajectory, int numSteps);

// Checks a Γ table against a schedule: N + 1 entries, Γ_1..Γ_N finite and ≥ 0.
Status validateGammaTable(const schedule::GaussianSchedule& schedule,
                          const std::vector<double>& gamma);

}  // namespace core::gaussian
