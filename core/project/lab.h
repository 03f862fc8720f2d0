// SPDX-License-Identifier: MIT
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/project/held_out_quality.h"
#include "core/gaussian/nll.h"
#include "core/io/json.h"
#include "core/project/gaussian_params.h"
#include "core/project/lab_settings.h"
#include "core/project/setup_sources.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// The schedule lab's runs (docs/gaussian.md, "Schedule lab"): for every configuration and K its
// timesteps, λ and σ there, the NLL with its per-step terms and the sample quality, next to the
// DP optimum.
namespace core::project {

struct LabRun {                       // one configuration at one K
    int k = 0;
    std::vector<int> timesteps;        // increasing, 1-based n
    std::vector<double> logSnr, sigma; // λ_n = ½ log(ᾱ_n/β̄_n), σ_n = √(β̄_n/ᾱ_n) (+inf / −inf at a zero-SNR end)
    double nllBitsPerDim = std::numeric_limits<double>::quiet_NaN();
    double nllStandardError = std::numeric_limits<double>::quiet_NaN();
    std::vector<gaussian::NllTerm> terms;   // prior, pairs (sampling order), decoder
    std::optional<evaluation::SampleQuality> quality;
    std::string note;                  // trajectory end notes, moved timesteps, …
};

struct LabCurve {
    LabConfig config;
    std::string colour;                // labColour(config, index)
    std::vector<LabRun> runs;          // one per K of the settings
    std::string error;                 // why it could not run (then runs is empty)
};

struct LabResult {
    std::vector<LabCurve> curves;
    LabCurve reference;                // the DP optimum: dp:K, analytic variance, analytic-ddpm, project schedule
    int numSteps = 0;
    std::string data, model;           // what it ran on (model: "oracle" or the checkpoint)
    std::string schedule;              // the project's schedule spec
    std::vector<int> ks;
};

// The preset with that id (null when there is none).
const LabPreset* findLabPreset(const std::string& id);

// A preset applied to a project's Gaussian parameters: its configurations, its sweep's K (when
// it has them) and its schedule. A schedule that is the preset's with modifiers (",zero-snr")
// stays as it is; a project with a network refuses another schedule (field "preset"): the
// network was trained on its own.
Status applyLabPreset(const LabPreset& preset, GaussianParams& params);

// Builds the set-up once (GaussianSetup::build), Γ once per distinct schedule (the project's Γ
// estimator, M, seed), the trajectories, the NLL by negativeElboSweep per schedule, samples and
// quality per (configuration, K). Progress with stages, cancellable; deterministic for a seed
// whatever the thread count. A configuration that cannot run (bad schedule for the model,
// K > N, …) gets its `error` and the others still run. Settings out of bounds or too large for
// memory are refused before anything is allocated.
Result<LabResult> runLab(const GaussianParams& params, const LabSettings& settings,
                         const SetupSources& sources, const ParallelOptions& parallel,
                         Progress* progress = nullptr);

// A run's steps in log σ, where DPM-Solver and the Euler samplers take them: step k =
// log σ_{t_k} − log σ_{t_{k−1}} for k = 2..K (K − 1 entries; +inf into an infinite σ).
std::vector<double> logSigmaSteps(const std::vector<double>& sigma);
// The change from step to step: h_k / h_{k−1} for consecutive steps (one entry fewer). A
// second-order multistep solver such as DPM-Solver++(2M) extrapolates with this ratio and loses
// accuracy where it is far from 1. NaN where a step is not finite.
std::vector<double> logSigmaStepRatios(const std::vector<double>& steps);

// The result as JSON (docs/conventions.md, "diffuscope lab"): infinities as null with a note.
io::Json labToJson(const LabResult& result);
// Tidy CSV: one row per (configuration, K), columns config, schedule, trajectory, variance,
// sampler, k, nll_bpd, nll_se, quality_measure, quality, quality_se, timesteps ("1 12 23 …"),
// log_sigma_steps, log_sigma_step_ratios (space-separated as well), note. The reference rows come last, named by their config.
std::string labToCsv(const LabResult& result);

}  // namespace core::project
