// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gaussian/gamma.h"
#include "core/gaussian/sampler.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/io/json.h"
#include "core/project/choice.h"
#include "core/project/lab_settings.h"
#include "core/util/result.h"

// Every parameter of the Gaussian (Analytic-DPM) process that the views and subcommands share:
// the schedule, the forward process, the data, the Γ estimate, the trajectory and the samplers.
// A plain value, edited through undo commands like CategoricalParams.
namespace core::project {

// y of the App. F.2 clip when clipFirst is on: σ²_{τ_1|τ_2} ≤ (y·(2/255)·√(π/2))². The CLI's
// `sample --clip-first` takes y with no default cap; y = 1 is the tighter of the paper's values.
inline constexpr double kClipFirstY = 1.0;

// Dp, Even, Quadratic and List are our own; the rest are the timestep spacings of diffusers,
// EDM and DPM-Solver and the Align Your Steps lists (core/gaussian/spacing.h).
enum class GaussianTrajectory {
    Even, Quadratic, Dp, List, Linspace, Leading, Trailing, LogSnr, Karras, AysSd15, AysSdxl
};

// How Γ's Monte Carlo terms are formed. Auto, the default everywhere (GUI, project files and
// every subcommand): the denoising estimator for the exact oracle, the error estimator for a
// network (see GammaEstimator).
enum class GammaEstimatorChoice { Auto, Score, Denoising, Error };

extern const std::vector<Choice<GaussianTrajectory>> kGaussianTrajectories;
extern const std::vector<Choice<gaussian::SamplerKind>> kSamplers;
// ids "small", "large", "analytic": every --variance option and the lab's variance column.
extern const std::vector<Choice<gaussian::ReverseVariance>> kReverseVariances;
extern const std::vector<Choice<GammaEstimatorChoice>> kGammaEstimators;
// How the DP treats Γ over its bound β̄Γ ≤ 1 (core::gaussian::DpVariant).
extern const std::vector<Choice<gaussian::DpVariant>> kDpVariants;
// The Gaussian β schedules by name (a custom table is "csv:FILE", a diffusers config
// "diffusers:FILE").
extern const std::vector<Choice<std::string>> kGaussianSchedules;
// The data sets offered by name (value and id: the data spec); any other spec can be typed.
extern const std::vector<Choice<std::string>> kGaussianDataPresets;
// The preset mixture: three components on the mixture editor's plane.
inline constexpr std::string_view kDefaultMixtureSpec =
    "mixture:0.4,-1.2,-0.6,0.45;0.35,1.2,-0.6,0.45;0.25,0,1.1,0.35";

// The estimator `choice` means for an exact oracle (`exactModel`) or a network; Denoising for a
// network is refused naming `field`.
Result<gaussian::GammaEstimator> resolveEstimator(GammaEstimatorChoice choice, bool exactModel,
                                                  const std::string& field = "estimator");

struct GaussianParams {
    // linear | cosine | scaled-linear | sigmoid | csv:FILE | diffusers:FILE, each [,zero-snr]
    std::string schedule = "linear";
    int numSteps = 1000;                   // N
    double eta = 1.0;                      // λ² = η²β̃: 1 is DDPM, 0 is DDIM
    std::string data = "toy:moons,n=2000"; // a data spec of core/data/gaussian_data.h
    int gammaSamples = 200;                // M, Monte Carlo samples per timestep
    GammaEstimatorChoice estimator = GammaEstimatorChoice::Auto;
    GaussianTrajectory trajectory = GaussianTrajectory::Dp;
    int pathSteps = 10;                    // K, the number of timesteps (not for list)
    // The user's own K while a smaller N caps it (pathSteps = N), restored as far as N allows
    // when N rises again; 0 when not capped. Stored as "pathStepsAsked" while capped.
    int pathStepsAsked = 0;
    std::string trajectoryList;            // list: the timesteps typed, "1,10,…,N"
    gaussian::DpVariant dpVariant = gaussian::DpVariant::Clipped;  // dp: the cost over the bound
    int leadingOffset = 0;                 // leading: O, added to every 0-based timestep
    double karrasRho = 7.0;                // karras: ρ
    // linspace, leading, trailing: the diffusers scheduler class whose set_timesteps arithmetic
    // is followed (core::gaussian::kDiffusersClasses); "" is DDIMScheduler's.
    std::string diffusersClass;
    uint64_t seed = 1;                     // RNG key of the Γ estimate and the particles
    gaussian::SamplerKind sampler = gaussian::SamplerKind::AnalyticDdpm;
    // The Particles view's right pane; none hides it.
    std::optional<gaussian::SamplerKind> compareSampler = gaussian::SamplerKind::Ddpm;
    bool clipFirst = true;                 // App. F.2: cap σ² of (τ_1, τ_2) at kClipFirstY
    int particleCount = 500;               // particles of the Particles view, 1..20000
    // The ε-model: empty for the exact oracle of the data, else a checkpoint file (absolute in
    // memory; the project file stores it relative to itself when it can).
    std::string model;
    // An imported Γ (Γ_1..Γ_N, N entries) used instead of estimating; empty: estimate.
    std::vector<double> importedGamma;
    std::string importedGammaName;         // the file it came from (shown, not re-read)
    // The schedule lab's configurations and sweep (optional in project files: "lab").
    LabSettings lab;

    bool operator==(const GaussianParams&) const = default;

    static GaussianParams example() { return {}; }
    // Checks every field; errors name it ("N", "eta", "data", "M", "K", "trajectory",
    // "sampler", "compareSampler", "particles") and the value.
    Status validate() const;
    // The parameter rules, one for the GUI and the CLI. These parameters with N = n and what
    // was tied to the old N adjusted: an imported Γ (N entries) goes, K is capped at n (the
    // user's own K comes back, as far as N allows, when N rises again: pathStepsAsked), and a
    // typed list that no longer fits n (a timestep above n, or too many) goes, the trajectory
    // becoming even when the list was in use; a list that still fits stays. With n = N nothing
    // changes. A new schedule or data set keeps the imported Γ: check it again with
    // importedGammaOverBound.
    GaussianParams withNumSteps(int n) const;
    // The timesteps n where the imported Γ_n exceeds its bound, β̄_n·Γ_n > 1, on these
    // parameters' schedule (a csv: schedule reads its file); an error when the schedule cannot
    // be built or Γ does not have N entries ("gamma").
    Result<std::vector<int>> importedGammaOverBound() const;
    // Replaces each imported Γ_n over its bound by the largest double with β̄_n·Γ_n ≤ 1 and
    // returns the timesteps changed (empty: none); on an error Γ is left as it was.
    Result<std::vector<int>> clipImportedGamma();
    // "even:K", "quadratic:K", "dp:K", "list:…", "linspace:K[,class=C]",
    // "leading:K[,offset=O][,class=C]", "trailing:K[,class=C]", "logsnr:K", "karras:K[,rho=ρ]"
    // or "ays:sd15[:K]", "ays:sdxl[:K]" for core::gaussian::resolveTrajectory (the options only
    // when they differ from their defaults 0, "" and 7, K of AYS only when it is not 10).
    std::string trajectorySpec() const;
    // The inverse: sets trajectory, pathSteps, trajectoryList, leadingOffset, diffusersClass and
    // karrasRho from
    // a spec of the forms above (K checked against numSteps); errors name `field` and the value.
    Status setTrajectorySpec(const std::string& spec, const std::string& field = "trajectory");
    // The trajectory a diffusers config given as the schedule names by its timestep_spacing for
    // the project's K ("" for any other schedule, or a config naming none): picking such a
    // config sets the trajectory to it.
    std::string scheduleTrajectorySpec() const;
    // For a diffusers config given as the schedule: one line listing the config's keys that are
    // not used ("" otherwise).
    std::string scheduleNote() const;
    // Identifies what Γ depends on (schedule, N, data, model, M, estimator, seed, import), so a
    // Γ computed for one set of parameters is reused for another with the same key.
    std::string gammaKey() const;
    // What a figure or a table computed from these parameters depends on, one "key: value"
    // line each (the header block of the views' CSV files).
    std::vector<std::string> provenance() const;

    io::Json toJson() const;
    // Every field is optional (absent → the default), so a project that never used the
    // Gaussian explorer opens; present fields must have the right type.
    static Result<GaussianParams> fromJson(const io::Json& json);
};

}  // namespace core::project
