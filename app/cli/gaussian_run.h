// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "app/cli/args.h"
#include "core/project/gaussian_files.h"
#include "core/project/gaussian_runs.h"
#include "core/project/gaussian_setup.h"
#include "core/project/project_file.h"

// What the Analytic-DPM subcommands (gamma, variance, nll, sample, plan) share: the options
// that set a project's Gaussian fields, and reading them into a run of core/project.
namespace app::cli {

// What a Gaussian subcommand runs on: the project's parameters (--project) with the options given
// on the command line overriding their fields, or the options alone; the core runs them as the
// GUI does.
struct GaussianRun {
    core::project::GaussianParams params;
    bool fromProject = false;
    core::project::GammaCache saved;  // the Γ saved with the project
    core::project::SetupSources sources;
    core::gaussian::DataRange range;
    int threads = 1;
};

// Which of the project's fields a subcommand's options set.
struct GaussianFields {
    bool data = true;                          // --data, --model, --estimator (and --digits)
    bool trajectory = true;                    // --trajectory, --dp-variant
    bool seed = true;                          // --seed
    const char* samplesKey = "gamma-samples";  // the option that holds Γ's M ("" : none)
};

core::Result<GaussianRun> loadGaussianRun(const Args& args, const GaussianFields& fields);

// --trajectory (or the one a diffusers config given with --schedule names) and --dp-variant
// into `p`; with a project, only the options given.
core::Status loadTrajectoryOptions(const Args& args,
                                   bool fromProject,
                                   core::project::GaussianParams& p);

// The set-up of the run (schedule, data, model, estimator), built by the core as the GUI builds
// it; a model that cannot be used is an error here, named by its option.
core::Result<core::project::GaussianSetup> buildGaussianSetup(const GaussianRun& run,
                                                              bool withData = true);

// Γ of the run as the project defines it (its import, its saved estimate, or estimated with its
// M and seed), with progress on the terminal. Without a project and for a trajectory that is
// not dp:K, only the trajectory's timesteps are estimated (the values there are the full
// estimate's) unless `needsAllTimesteps`.
core::Result<core::project::ProjectGamma> runProjectGamma(const GaussianRun& run,
                                                          const core::project::GaussianSetup& setup,
                                                          bool needsAllTimesteps);
core::Result<std::vector<double>> computeGamma(const GaussianRun& run,
                                               const core::project::GaussianSetup& setup,
                                               bool needsAllTimesteps);

// Γ from the file `path` (--gamma) with --gamma-kind.
core::Result<core::project::GammaTable> readGammaOption(
    const Args& args, const std::string& path, const core::schedule::GaussianSchedule& schedule);

// --clip-first Y (a number ≥ 0), or the project's first-step clip when not given.
core::Result<double> loadClipFirst(const Args& args, const GaussianRun& run);
// --eta into run.params.eta: the option when given, else the project's η (without a project,
// the option's default).
core::Status loadEta(const Args& args, GaussianRun& run);
// --variance analytic|small|large of nll, plan and sample.
core::Result<core::gaussian::ReverseVariance> parseReverseVariance(const std::string& name);

// The options the subcommands share (loadGaussianRun reads them), and the help's notes on data.
namespace gaussian_options {
extern const Option kData, kModel, kDigits, kSchedule, kSteps, kThreads, kDataRange, kTrajectory,
    kProject, kClipFirst, kSeed, kGammaSamples, kGammaKind;
// Built from core/project's Choice tables on first use: a namespace-scope Option would read a
// table of another library before it is initialised.
Option dpVariantOption();
Option estimatorOption();
extern const char* const kDataNotes;
}  // namespace gaussian_options

}  // namespace app::cli
