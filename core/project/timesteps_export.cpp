// SPDX-License-Identifier: MIT
#include "core/project/timesteps_export.h"

#include "core/gaussian/spacing.h"
#include "core/project/gaussian_runs.h"

namespace core::project {

namespace {

// FILE of a diffusers:FILE schedule spec ("" for any other).
std::string diffusersConfigPath(const std::string& scheduleSpec) {
    const std::string base = schedule::splitScheduleSpec(scheduleSpec).base;
    const std::string prefix = schedule::kDiffusersPrefix;
    return base.rfind(prefix, 0) == 0 ? base.substr(prefix.size()) : std::string();
}

}  // namespace

Result<int> scheduleDefaultSteps(const std::string& scheduleSpec) {
    const std::string path = diffusersConfigPath(scheduleSpec);
    if (path.empty()) return 1000;
    auto config = schedule::readDiffusersConfig(path);
    if (!config) return config.error();
    return config->numTrainTimesteps;
}

std::string diffusersSpacingNote(const GaussianParams& params) {
    const std::string path = diffusersConfigPath(params.schedule);
    if (path.empty()) return {};
    auto config = schedule::readDiffusersConfig(path);
    if (!config) return {};
    const std::string named = schedule::diffusersTrajectorySpec(*config, params.pathSteps);
    if (named.empty() || named == params.trajectorySpec()) return {};
    return path + " names timestep_spacing " + config->timestepSpacing + " (steps_offset " +
           std::to_string(config->stepsOffset) + "): --trajectory " + named;
}

schedule::PipelineClass pipelineClassOf(const std::string& trajectorySpec, int numSteps) {
    schedule::PipelineClass pipelineClass;
    const auto [kind, rest] = gaussian::splitTrajectoryKind(trajectorySpec);
    if (!gaussian::isSpacingKind(kind)) return pipelineClass;
    auto spacing = gaussian::parseSpacing(kind, rest, numSteps);
    if (!spacing) return pipelineClass;  // the trajectory itself reports it
    pipelineClass.spacingClass = spacing->diffusersClass;
    pipelineClass.eulerTimesteps = gaussian::eulerTimesteps(*spacing, numSteps);
    return pipelineClass;
}

Result<TimestepsExport> exportTimesteps(const GaussianParams& params,
                                        const schedule::GaussianSchedule& schedule,
                                        const std::vector<double>& gamma,
                                        schedule::TimestepConvention convention,
                                        bool json,
                                        int threads) {
    TimestepsExport out;
    if (std::string note = diffusersSpacingNote(params); !note.empty()) {
        out.notes.push_back(std::move(note));
    }
    auto trajectory = projectTrajectory(params, schedule, gamma, threads);
    if (!trajectory) return trajectory.error();
    out.trajectory = std::move(trajectory).value();
    if (!out.trajectory.note.empty()) out.notes.push_back(out.trajectory.note);
    schedule::PipelineTimesteps pipeline = schedule::pipelineTimesteps(
        out.trajectory.timesteps, schedule, convention, json,
        pipelineClassOf(params.trajectorySpec(), schedule.numSteps()));
    out.text = std::move(pipeline.text);
    out.notes.insert(out.notes.end(), pipeline.notes.begin(), pipeline.notes.end());
    return out;
}

}  // namespace core::project
