// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/gaussian/trajectory_dp.h"
#include "core/project/choice.h"
#include "core/project/gaussian_params.h"
#include "core/schedule/diffusers_config.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/result.h"

// A project's trajectory written in the convention of the user's pipeline: diffusers'
// set_timesteps(timesteps=…) or k-diffusion's sigmas (docs/conventions.md).
namespace core::project {

// The conventions by their identifier (`timesteps --as`).
inline const std::vector<Choice<schedule::TimestepConvention>> kTimestepConventions = {
    {schedule::TimestepConvention::Diffuscope, "diffuscope", "n ascending (1..N)"},
    {schedule::TimestepConvention::Diffusers, "diffusers", "t = n − 1 descending"},
    {schedule::TimestepConvention::KDiffusion, "k-diffusion", "σ descending, then 0"},
};

// The N a schedule spec names by itself: a diffusers config's num_train_timesteps, else the
// default 1000.
Result<int> scheduleDefaultSteps(const std::string& scheduleSpec);

// For a diffusers config that names its timestep_spacing: a sentence saying which trajectory
// that is, when it is not the project's ("" otherwise).
std::string diffusersSpacingNote(const GaussianParams& params);

// What pipelineTimesteps needs of a trajectory spec's diffusers class (class=, and
// EulerDiscreteScheduler's own timesteps); empty for a spec without one, or one that does not
// parse (resolving the trajectory reports that).
schedule::PipelineClass pipelineClassOf(const std::string& trajectorySpec, int numSteps);

// The project's trajectory on Γ (empty unless dp:K) in `convention`: the text `timesteps`
// prints (one JSON line, or the bare list) and the notes beside it (the trajectory's, the
// config's spacing, the convention's).
struct TimestepsExport {
    gaussian::ResolvedTrajectory trajectory;
    std::string text;
    std::vector<std::string> notes;
};
Result<TimestepsExport> exportTimesteps(const GaussianParams& params,
                                        const schedule::GaussianSchedule& schedule,
                                        const std::vector<double>& gamma,
                                        schedule::TimestepConvention convention,
                                        bool json,
                                        int threads);

}  // namespace core::project
