// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/gaussian/gamma.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/gaussian/variance.h"
#include "core/util/progress.h"
#include "core/util/result.h"
#include "ui/document/project_model.h"
#include "ui/jobs/particle_jobs.h"

// The Gaussian explorer's main job, as a plain function a JobRunner runs off the GUI thread:
// Γ (estimated once per schedule, data set and Monte Carlo setting, then reused), the
// trajectory, its variances and the DP cost matrix.
namespace ui::jobs {

struct GaussianResults {
    document::GaussianParams params;
    core::schedule::GaussianSchedule schedule;
    std::shared_ptr<core::model::GaussianOracle> data;          // the data (and exact oracle)
    std::shared_ptr<const core::model::GaussianEpsModel> model;  // oracle or network
    std::string modelError;                    // why params.model is not used (empty: it is)
    core::gaussian::GammaEstimate estimate;    // Γ on n = 1..N with standard errors
    std::string gammaSource;                   // estimated | imported from F | saved with …
    bool fromCache = false;                    // Γ was not estimated by this job
    std::optional<core::gaussian::GammaEstimate> oracleEstimate;  // with a network: the oracle's
    std::string oracleKey;                     // gammaKey() of oracleEstimate
    std::vector<double> gamma;                 // N + 1 entries, entry 0 unused
    double dataVariance = 0.0;                 // Σ Var[x_0,i]/d
    core::gaussian::ResolvedTrajectory trajectory;
    std::vector<core::gaussian::PairVariance> pairs;
    core::Matrix cost;                         // the DP cost matrix J (N×N)
    std::vector<int> dpTimesteps, evenTimesteps, quadraticTimesteps;  // K each (quadratic: ≤ K)
    bool gammaReused = false;                  // Γ came from an earlier result
    int gammaResumedAfter = 0;                 // > 0: the estimate continued a cancelled one
    std::shared_ptr<const ParticleFrames> particles;  // null until sampled, or on error
    QString particlesError;                    // why particles is null
};

// Γ estimates of jobs not yet shown, by Γ key: the timesteps finished so far (all of them when a
// cancel came after Γ), for the next job to continue with exactly the numbers of one
// uninterrupted run. Shared by the jobs of one explorer.
struct PartialGammas {
    std::mutex mutex;
    std::map<std::string, core::gaussian::GammaEstimate> byKey;
};

// Everything but the particles for `params`. Γ comes from `previous` when its Γ key is the same,
// else from the import, else from `cache` (saved with the project), else it is estimated
// (resuming a partial estimate). A Cancelled error when the job was cancelled.
core::Result<std::shared_ptr<GaussianResults>> computeGaussianResults(
    const document::GaussianParams& params, std::shared_ptr<const GaussianResults> previous,
    const document::GammaCache& cache, PartialGammas& partials, int threads,
    core::Progress& progress);

}  // namespace ui::jobs
