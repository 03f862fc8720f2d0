// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/gaussian/variance.h"
#include "core/model/gaussian_eps_model.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// Reverse samplers on a trajectory (docs/gaussian.md#reverse-samplers): DDPM, DDIM(η),
// Analytic-DDPM, Analytic-DDIM and the multistep DPM-Solvers. Work for any d: 2-D particles and flattened images alike.
namespace core::gaussian {

enum class SamplerKind {
    Ddpm,          // η = 1, DDPM mean, σ² = β̃ or β (ddpmVariance)
    Ddim,          // η, DDIM mean, σ² = λ² = η²β̃
    AnalyticDdpm,  // η = 1, DDPM mean, the analytic σ² (needs Γ)
    AnalyticDdim,  // η, DDIM mean, the analytic σ² (needs Γ)
    // Deterministic ODE solvers in λ = log(α/σ), α = √ᾱ, σ = √β̄ (Lu et al. 2022), no noise:
    DpmSolver1,    // first order, noise prediction: x_s = α_s x̂_0 + σ_s ε_θ, DDIM with η = 0
    DpmSolverPp2M, // DPM-Solver++(2M), data prediction D = x̂_0: first order, then second
    DpmSolverPp3M, // DPM-Solver++(3M): first order, second order, then third order
};

// "ddpm", "ddim", "analytic-ddpm", "analytic-ddim", "dpm-solver-1", "dpm-solver++2m",
// "dpm-solver++3m".
Result<SamplerKind> parseSamplerKind(const std::string& name);

// True for the DPM-Solver kinds (deterministic, σ² = 0, η ignored).
bool isDpmSolver(SamplerKind kind);

struct SamplerParams {
    SamplerKind kind = SamplerKind::AnalyticDdpm;          // which sampler
    double eta = 0.0;                                      // η of the DDIM kinds, in [0, 1]
    BaselineVariance ddpmVariance = BaselineVariance::Small;  // σ² of plain DDPM
    double clipFirst = 0.0;     // y of App. F.2 (cap σ² of (τ_1, τ_2)); 0 = no cap
    DataRange range;            // x̂_0 is clamped to it
    int count = 16;             // B, number of samples
    uint64_t seed = 0;          // draws keyed (seed, sample, timestep)
    bool recordFrames = false;  // keep x after every step (animation)
    int batchSize = 64;         // samples per model call (the unit of parallel work)
    ParallelOptions parallel;   // results do not depend on it

    Status validate() const;
};

// One step of the reverse chain from t to s, as the sampler takes it: the mean
// x_s = x0·x̂_0 + xt·x_t + eps·ε̂, then + √variance·z. The last step (s = 0) is the decoder: x̂_0.
// The DPM-Solvers' multistep updates are not of this form: their steps carry variance 0 and
// no coefficients (linear = false).
struct PlanStep {
    int t = 0;
    int s = 0;
    double variance = 0.0;
    double x0 = 1.0;
    double xt = 0.0;
    double eps = 0.0;
    bool linear = true;
};

// Every step's variance (App. F.2's first-pair cap included) and mean coefficients for the
// trajectory τ_1 < … < τ_K, in sampling order (τ_K → τ_{K−1} first, the decoder last): what
// sampleReverse steps with, so a written plan cannot drift from the sampler.
Result<std::vector<PlanStep>> samplingPlan(const schedule::GaussianSchedule& schedule,
                                           const std::vector<double>& gamma,
                                           const std::vector<int>& trajectory,
                                           const SamplerParams& params);

struct SampleResult {
    Matrix samples;                 // d×B, the decoder's output x_0
    std::vector<int> frameSteps;    // τ_K, …, τ_1, 0: the timestep each frame shows
    std::vector<Matrix> frames;     // d×B per entry of frameSteps (when recorded)
    std::vector<double> sigma2;     // σ² used per pair, in sampling order
    std::vector<PlanStep> plan;     // the steps taken (samplingPlan)
};

// Runs the sampler from x_{τ_K} ~ N(0, I) down the trajectory, then the decoder step (0, τ_1)
// which outputs its mean x̂_0(x_{τ_1}) with no noise: K model calls for K timesteps, for every
// kind. x_{τ_K} is keyed by (seed, sample) alone, the same for every kind. `gamma` (table, entry 0 unused) is read only by the
// analytic kinds. Deterministic per seed whatever the thread count.
Result<SampleResult> sampleReverse(const model::GaussianEpsModel& model,
                                   const schedule::GaussianSchedule& schedule,
                                   const std::vector<double>& gamma,
                                   const std::vector<int>& trajectory,
                                   const SamplerParams& params,
                                   Progress* progress = nullptr);

}  // namespace core::gaussian
