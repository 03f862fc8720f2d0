// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <memory>

#include "core/project/gaussian_runs.h"
#include "ui/document/project_model.h"
#include "ui/jobs/particle_jobs.h"

// The Gaussian explorer's main job: core::project::analyseGaussian run off the GUI thread, with
// the Particles view's frames attached once they are sampled.
namespace ui::jobs {

using core::project::PartialGammas;

struct GaussianResults : core::project::GaussianAnalysis {
    std::shared_ptr<const ParticleFrames> particles;  // null until sampled, or on error
    QString particlesError;                           // why particles is null
};

// analyseGaussian with the application's data sources. A Cancelled error when cancelled.
core::Result<std::shared_ptr<GaussianResults>> computeGaussianResults(
    const document::GaussianParams& params,
    std::shared_ptr<const GaussianResults> previous,
    const document::GammaCache& cache,
    PartialGammas& partials,
    int threads,
    core::Progress& progress);

}  // namespace ui::jobs
