// SPDX-License-Identifier: MIT
// `diffuscope timesteps`: a trajectory's timesteps in the convention of the user's pipeline
// (docs/conventions.md#timesteps).
#include <cmath>
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/gaussian_run.h"
#include "app/cli/output_format.h"
#include "app/cli/terminal_progress.h"
#include "core/project/timesteps_export.h"
#include "core/util/limits.h"

namespace app::cli {

using core::Result;
using core::project::GaussianParams;

const CommandSpec& timestepsSpec() {
    static const CommandSpec spec{
        "timesteps",
        "a trajectory's timesteps as diffusers' set_timesteps or k-diffusion's sigmas take them",
        "",
        {valued("project", "FILE", "",
                "a project file: its schedule, steps, trajectory and Γ (the options given "
                "override them)"),
         valued("schedule", "S", "linear",
                "β_n: linear, cosine, scaled-linear, sigmoid, csv:FILE or diffusers:FILE, each "
                "optionally followed by ,zero-snr (a diffusers:FILE naming timestep_spacing "
                "sets the trajectory when --trajectory is not given)"),
         valued("steps", "N", "1000",
                "the number of timesteps N (for diffusers:FILE, default: its num_train_timesteps)"),
         required("trajectory", "T",
                  "(or the project's) even:K, quadratic:K, list:n1,n2,…, dp:K, linspace:K, "
                  "leading:K[,offset=O], trailing:K (each [,class=C], a diffusers scheduler "
                  "class), logsnr:K, karras:K[,rho=ρ], ays:sd15 or ays:sdxl (K = 10, or "
                  "ays:sd15:K)"),
         choiceOption(
             "as", core::project::kTimestepConventions, "diffuscope",
             "diffuscope: n ascending (1..N); diffusers: t = n − 1 descending; k-diffusion: "
             "σ = √((1 − ᾱ_n)/ᾱ_n) descending, then 0"),
         formatOption("json|text", "json", "json, or the bare list on one line"),
         gaussian_options::dpVariantOption(),
         valued("gamma", "FILE", "", "dp:K: Γ as written by `diffuscope gamma` (.csv or .npy)"),
         gaussian_options::kGammaKind,
         valued("data", "D", "", "dp:K without a Γ: estimate Γ with the exact oracle of D"),
         valued("gamma-samples", "M", "100", "dp:K with --data: samples per timestep for Γ"),
         seedOption("0", "dp:K with --data: the seed of Γ"),
         valued("digits", "FILE", "", "the digits file for --data digits"), threadsOption()},
        "dp:K needs Γ: the project's, --gamma FILE, or --data D (the exact oracle's, estimated\n"
        "here). The conventions are in docs/conventions.md.\n"};
    return spec;
}

namespace {

// The project's Gaussian parameters (--project) with the options given overriding them, or
// the options alone; `saved` gets the project's saved Γ.
Result<GaussianParams> loadTimestepsParams(const Args& args, core::project::GammaCache& saved) {
    GaussianParams params;
    const bool fromProject = args.has("project");
    if (fromProject) {
        auto project = core::project::readProjectFile(args.get("project"));
        if (!project) return project.error();
        params = project->gaussian;
        saved = project->gammaCache;
    }
    const auto sets = [&](const char* key) { return !fromProject || args.has(key); };
    if (sets("schedule")) params.schedule = args.get("schedule");
    if (args.has("steps")) {
        Result<int> steps = args.getBounded("steps", core::limits::kGaussianSteps);
        if (!steps) return steps.error();
        params.numSteps = *steps;
    } else if (!fromProject) {
        Result<int> steps = core::project::scheduleDefaultSteps(params.schedule);
        if (!steps) return steps.error();
        params.numSteps = *steps;
    }
    if (core::Status s = loadTrajectoryOptions(args, fromProject, params); !s) return s.error();
    if (args.has("data")) {  // Γ of the exact oracle of D
        params.data = args.get("data");
        params.model.clear();
        params.importedGamma.clear();
        Result<int> samples = args.getBounded("gamma-samples", core::limits::kGammaSamples);
        if (!samples) return samples.error();
        params.gammaSamples = *samples;
        Result<long long> seed = args.getInt64("seed");
        if (!seed) return seed.error();
        params.seed = static_cast<uint64_t>(*seed);
    }
    if (core::Status s = params.validate(); !s) {
        core::Error error = s.error();
        if (error.field == "N") error.field = "--steps";
        if (error.field == "schedule" && args.has("schedule")) error.field = "--schedule";
        return error;
    }
    return params;
}

// Γ for dp:K (empty for any other trajectory): --gamma FILE, else the project's or the exact
// oracle's of --data.
Result<std::vector<double>> timestepsGamma(const Args& args,
                                           const GaussianParams& params,
                                           const core::project::GaussianSetup& setup,
                                           const core::project::GammaCache& saved,
                                           int threads) {
    if (params.trajectory != core::project::GaussianTrajectory::Dp) return std::vector<double>{};
    if (args.has("gamma")) {
        auto table = readGammaOption(args, args.get("gamma"), setup.schedule);
        if (!table) return table.error();
        return std::move(table->gamma);
    }
    const bool withOracle = args.has("data");
    if (!args.has("project") && !withOracle) {
        return core::invalidArgument("--trajectory", params.trajectorySpec(),
                                     "dp:K needs Γ: give --project, --gamma FILE or --data D");
    }
    TerminalProgress observer;
    core::Progress progress(&observer, "gamma");
    auto estimate = core::project::projectGamma(params, setup, withOracle ? nullptr : &saved,
                                                nullptr, threads, progress);
    if (!estimate) return estimate.error();
    return std::move(estimate->table);
}

}  // namespace

int runTimesteps(const Args& args) {
    core::project::GammaCache saved;
    Result<GaussianParams> params = loadTimestepsParams(args, saved);
    if (!params) return fail(params.error());
    auto convention = getChoice(args, "as", core::project::kTimestepConventions);
    if (!convention) return fail(convention.error());
    const std::string format = args.get("format");
    if (format != "json" && format != "text") {
        return fail(core::invalidArgument("--format", format, "expected json or text"));
    }
    Result<int> threads = threadCount(args);
    if (!threads) return fail(threads.error());
    const bool needsGamma = params->trajectory == core::project::GaussianTrajectory::Dp;
    auto setup =
        core::project::GaussianSetup::build(*params, core::project::fileSources(args.get("digits")),
                                            true, needsGamma && args.has("data"));
    if (!setup) return fail(setup.error());
    Result<std::vector<double>> gamma = timestepsGamma(args, *params, *setup, saved, *threads);
    if (!gamma) return fail(gamma.error());
    auto out = core::project::exportTimesteps(*params, setup->schedule, *gamma, *convention,
                                              format == "json", *threads);
    if (!out) return fail(out.error());
    for (const std::string& note : out->notes) std::cerr << "note: " << note << '\n';
    std::cout << out->text;
    if (!gamma->empty()) warnGammaOverBound(setup->schedule, *gamma);
    return 0;
}

}  // namespace app::cli
