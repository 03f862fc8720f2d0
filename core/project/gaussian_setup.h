// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include "core/gaussian/gamma.h"
#include "core/model/gaussian_eps_model.h"
#include "core/model/gaussian_oracles.h"
#include "core/project/gaussian_params.h"
#include "core/project/setup_sources.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/result.h"

// What the Gaussian parameters describe, built the same way by the GUI's jobs and by the
// subcommands: the β schedule, the data (and its exact oracle), the ε-model and the Γ estimator.
namespace core::project {

struct GaussianSetup {
    schedule::GaussianSchedule schedule;
    std::shared_ptr<model::GaussianOracle> data;          // the data and its exact ε-model
    std::shared_ptr<const model::GaussianEpsModel> model;  // the network, or `data`
    bool usesNetwork = false;
    std::string modelError;             // why params.model is not used (non-strict builds)
    gaussian::GammaEstimator estimator = gaussian::GammaEstimator::Denoising;

    // Builds the schedule (params.schedule, params.numSteps), the data (params.data) and the
    // model (params.model; empty: the exact oracle) with the fit checks, and resolves
    // params.estimator for it. A model that cannot be used is an error when `strictModel`,
    // else the oracle stays with modelError set. `withData` = false builds the schedule only.
    static Result<GaussianSetup> build(const GaussianParams& params, const SetupSources& sources,
                                       bool strictModel, bool withData = true);

    // d, the data's dimension (0 for a set-up of the schedule only).
    int dimension() const {
        return data ? static_cast<const model::GaussianDataSampler&>(*data).dimension() : 0;
    }
};

}  // namespace core::project
