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

struct GaussianParams {
    QString schedule = "linear";           // linear | cosine | scaled-linear | sigmoid (MATH.md B.1)
    int numSteps = 1000;                   // N
    double eta = 1.0;                      // λ² = η²β̃: 1 is DDPM, 0 is DDIM (MATH.md B.2)
    QString data = "toy:moons,n=2000";     // a data spec of core/data/gaussian_data.h
    int gammaSamples = 200;                // M, Monte Carlo samples per timestep (B.3)
    bool denoisingEstimator = true;        // the lower-variance Γ estimator for exact oracles
    QString trajectory = "dp";             // even | quadratic | dp (B.5)
    int pathSteps = 10;                    // K, the number of timesteps
    uint64_t seed = 1;                     // RNG key of the Γ estimate
    // The ε-model: empty for the exact oracle of the data, else a checkpoint file (absolute in
    // memory; the project file stores it relative to itself when it can).
    QString model;
    // An imported Γ (Γ_1..Γ_N, N entries) used instead of estimating; empty: estimate.
    std::vector<double> importedGamma;
    QString importedGammaName;             // the file it came from (shown, not re-read)

    bool operator==(const GaussianParams&) const = default;

    static GaussianParams example() { return {}; }
    // Checks every field; errors name it ("N", "eta", "data", "M", "K", "trajectory").
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
