// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <vector>

#include "core/util/result.h"

// Every parameter of the Gaussian (Analytic-DPM) explorer that the views use so far: the
// schedule, the forward process, the data, the Γ estimate and the trajectory. A plain value,
// edited through undo commands like CategoricalParams.
namespace ui::document {

// y of the App. F.2 clip when clipFirst is on: σ²_{τ_1|τ_2} ≤ (y·(2/255)·√(π/2))². The CLI's
// `sample --clip-first` takes y with no default cap; y = 1 is the tighter of the paper's values.
inline constexpr double kClipFirstY = 1.0;

struct GaussianParams {
    QString schedule = "linear";           // linear | cosine | scaled-linear | sigmoid
    int numSteps = 1000;                   // N
    double eta = 1.0;                      // λ² = η²β̃: 1 is DDPM, 0 is DDIM
    QString data = "toy:moons,n=2000";     // a data spec of core/data/gaussian_data.h
    int gammaSamples = 200;                // M, Monte Carlo samples per timestep (B.3)
    bool denoisingEstimator = true;        // the lower-variance Γ estimator for exact oracles
    QString trajectory = "dp";             // even | quadratic | dp (B.5) | list (typed)
    int pathSteps = 10;                    // K, the number of timesteps (not for list)
    QString trajectoryList;                // list: the timesteps typed, "1,10,…,N"
    uint64_t seed = 1;                     // RNG key of the Γ estimate and the particles
    QString sampler = "analytic-ddpm";     // ddpm | ddim | analytic-ddpm | analytic-ddim (B.4)
    QString compareSampler = "ddpm";       // the Particles view's right pane, or "none"
    bool clipFirst = true;                 // App. F.2: cap σ² of (τ_1, τ_2) at kClipFirstY
    int particleCount = 500;               // particles of the Particles view, 1..20000
    // The ε-model: empty for the exact oracle of the data, else a checkpoint file (absolute in
    // memory; the project file stores it relative to itself when it can).
    QString model;
    // An imported Γ (Γ_1..Γ_N, N entries) used instead of estimating; empty: estimate.
    std::vector<double> importedGamma;
    QString importedGammaName;             // the file it came from (shown, not re-read)

    bool operator==(const GaussianParams&) const = default;

    static GaussianParams example() { return {}; }
    // Checks every field; errors name it ("N", "eta", "data", "M", "K", "trajectory",
    // "sampler", "compareSampler", "particles").
    core::Status validate() const;
    // "even:K", "quadratic:K" or "dp:K" for core::gaussian::resolveTrajectory.
    std::string trajectorySpec() const;
    // Identifies what Γ depends on (schedule, N, data, model, M, estimator, seed, import), so a
    // Γ computed for one set of parameters is reused for another with the same key.
    QString gammaKey() const;

    QJsonObject toJson() const;
    static core::Result<GaussianParams> fromJson(const QJsonObject& json);
};

}  // namespace ui::document
