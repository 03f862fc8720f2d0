// SPDX-License-Identifier: MIT
// `diffuscope timesteps`: a trajectory's timesteps in the convention of the user's pipeline
// (docs/conventions.md#timesteps).
#include <cmath>
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/output_format.h"
#include "app/cli/terminal_progress.h"
#include "core/gaussian/gamma.h"
#include "core/io/gamma_file.h"
#include "core/project/gaussian_runs.h"
#include "core/project/gaussian_setup.h"
#include "core/project/project_file.h"
#include "core/schedule/diffusers_config.h"
#include "core/util/limits.h"
#include "core/util/parallel.h"

namespace app::cli {
namespace {

using core::Result;
using core::project::GaussianParams;

}  // namespace

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
                  "leading:K[,offset=O], trailing:K, logsnr:K, karras:K[,rho=ρ], ays:sd15 or "
                  "ays:sdxl (K = 10, or ays:sd15:K)"),
         valued("as", "diffuscope|diffusers|k-diffusion", "diffuscope",
                "diffuscope: n ascending (1..N); diffusers: t = n − 1 descending; k-diffusion: "
                "σ = √((1 − ᾱ_n)/ᾱ_n) descending, then 0"),
         formatOption("json|text", "json", "json, or the bare list on one line"),
         valued("dp-variant", "clipped|segmented", "clipped", "the DP's cost for dp:K"),
         valued("gamma", "FILE", "", "dp:K: Γ as written by `diffuscope gamma` (.csv or .npy)"),
         valued("gamma-kind", "gamma|ms_eps", "",
                "what the Γ file holds (default: a CSV's header; ms_eps for .npy)"),
         valued("data", "D", "", "dp:K without a Γ: estimate Γ with the exact oracle of D"),
         valued("gamma-samples", "M", "100", "dp:K with --data: samples per timestep for Γ"),
         seedOption("0", "dp:K with --data: the seed of Γ"),
         valued("digits", "FILE", "", "the digits file for --data digits"),
         threadsOption()},
        "dp:K needs Γ: the project's, --gamma FILE, or --data D (the exact oracle's, estimated\n"
        "here). The conventions are in docs/conventions.md.\n"};
    return spec;
}

int runTimesteps(const Args& args) {
    GaussianParams params;
    core::project::GammaCache saved;
    const bool fromProject = args.has("project");
    if (fromProject) {
        auto project = core::project::readProjectFile(args.get("project"));
        if (!project) return fail(project.error());
        params = project->gaussian;
        saved = project->gammaCache;
    }
    const auto sets = [&](const char* key) { return !fromProject || args.has(key); };
    if (sets("schedule")) params.schedule = args.get("schedule");
    if (args.has("steps")) {
        Result<int> steps = args.getBounded("steps", core::limits::kGaussianSteps);
        if (!steps) return fail(steps.error());
        params.numSteps = *steps;
    } else if (!fromProject) {
        // A diffusers config names its own N.
        const std::string base = core::schedule::splitScheduleSpec(params.schedule).base;
        const std::string prefix = core::schedule::kDiffusersPrefix;
        if (base.rfind(prefix, 0) == 0) {
            auto config = core::schedule::readDiffusersConfig(base.substr(prefix.size()));
            if (!config) return fail(config.error());
            params.numSteps = config->numTrainTimesteps;
        } else {
            params.numSteps = 1000;
        }
    }
    // A diffusers config given with --schedule names the trajectory unless --trajectory does.
    const std::string named =
        args.has("schedule") && !args.has("trajectory")
            ? core::schedule::scheduleSpecTrajectory(params.schedule, params.pathSteps)
            : std::string();
    if (!named.empty()) {
        if (core::Status s = params.setTrajectorySpec(named, "--schedule"); !s) return fail(s.error());
    } else if (sets("trajectory")) {
        Result<std::string> spec = args.require("trajectory");
        if (!spec) return fail(spec.error());
        if (core::Status s = params.setTrajectorySpec(*spec, "--trajectory"); !s) {
            return fail(s.error());
        }
    }
    if (sets("dp-variant")) {
        auto variant = core::project::parseChoice(core::project::kDpVariants,
                                                  args.get("dp-variant"), "--dp-variant");
        if (!variant) return fail(variant.error());
        params.dpVariant = *variant;
    }
    const bool withOracle = args.has("data");
    if (withOracle) {
        params.data = args.get("data");
        params.model.clear();
        params.importedGamma.clear();
        Result<int> samples = args.getBounded("gamma-samples", core::limits::kGammaSamples);
        if (!samples) return fail(samples.error());
        params.gammaSamples = *samples;
        Result<long long> seed = args.getInt64("seed");
        if (!seed) return fail(seed.error());
        params.seed = static_cast<uint64_t>(*seed);
    }
    const std::string as = args.get("as");
    if (as != "diffuscope" && as != "diffusers" && as != "k-diffusion") {
        return fail(core::invalidArgument("--as", as, "expected diffuscope, diffusers or k-diffusion"));
    }
    const std::string format = args.get("format");
    if (format != "json" && format != "text") {
        return fail(core::invalidArgument("--format", format, "expected json or text"));
    }
    if (core::Status s = params.validate(); !s) {
        core::Error error = s.error();
        if (error.field == "N") error.field = "--steps";
        if (error.field == "schedule" && args.has("schedule")) error.field = "--schedule";
        return fail(error);
    }
    Result<int> threads = threadCount(args);
    if (!threads) return fail(threads.error());

    const bool needsGamma = params.trajectory == core::project::GaussianTrajectory::Dp;
    const core::project::SetupSources sources = core::project::fileSources(args.get("digits"));
    auto setup = core::project::GaussianSetup::build(params, sources, true,
                                                     needsGamma && withOracle);
    if (!setup) return fail(setup.error());
    const core::schedule::GaussianSchedule& schedule = setup->schedule;

    std::vector<double> gamma;
    if (needsGamma) {
        if (args.has("gamma")) {
            const std::string kindName = args.get("gamma-kind");
            core::io::GammaKind kind = core::io::GammaKind::MsEps;
            const core::io::GammaKind* required = nullptr;
            if (!kindName.empty()) {
                if (kindName != "gamma" && kindName != "ms_eps") {
                    return fail(core::invalidArgument("--gamma-kind", kindName,
                                                      "expected gamma or ms_eps"));
                }
                kind = kindName == "gamma" ? core::io::GammaKind::Gamma
                                           : core::io::GammaKind::MsEps;
                required = &kind;
            }
            auto file = core::io::readGammaFile(args.get("gamma"), schedule.numSteps(), kind,
                                                required);
            if (!file) return fail(file.error());
            gamma = file->kind == core::io::GammaKind::Gamma
                        ? file->values
                        : core::gaussian::gammaFromMsEps(file->values, schedule);
        } else if (fromProject || withOracle) {
            TerminalProgress observer;
            core::Progress progress(&observer, "gamma");
            auto estimate = core::project::projectGamma(params, *setup,
                                                        fromProject && !withOracle ? &saved : nullptr,
                                                        nullptr, *threads, progress);
            if (!estimate) return fail(estimate.error());
            gamma = std::move(estimate->table);
        } else {
            return fail(core::invalidArgument("--trajectory", params.trajectorySpec(),
                                              "dp:K needs Γ: give --project, --gamma FILE or "
                                              "--data D"));
        }
    }
    // A diffusers config that names its spacing: say which trajectory that is, when it differs.
    if (const std::string base = core::schedule::splitScheduleSpec(params.schedule).base;
        base.rfind(core::schedule::kDiffusersPrefix, 0) == 0) {
        const std::string path = base.substr(std::string(core::schedule::kDiffusersPrefix).size());
        if (auto config = core::schedule::readDiffusersConfig(path); config) {
            const std::string named =
                core::schedule::diffusersTrajectorySpec(*config, params.pathSteps);
            if (!named.empty() && named != params.trajectorySpec()) {
                std::cerr << "note: " << path << " names timestep_spacing "
                          << config->timestepSpacing << " (steps_offset " << config->stepsOffset
                          << "): --trajectory " << named << '\n';
            }
        }
    }
    auto trajectory = core::project::projectTrajectory(params, schedule, gamma, *threads);
    if (!trajectory) return fail(trajectory.error());
    if (!trajectory->note.empty()) std::cerr << "note: " << trajectory->note << '\n';
    const std::vector<int>& n = trajectory->timesteps;

    const auto convention = as == "diffusers"     ? core::schedule::TimestepConvention::Diffusers
                            : as == "k-diffusion" ? core::schedule::TimestepConvention::KDiffusion
                                                  : core::schedule::TimestepConvention::Diffuscope;
    const core::schedule::PipelineTimesteps out =
        core::schedule::pipelineTimesteps(n, schedule, convention, format == "json");
    for (const std::string& note : out.notes) std::cerr << "note: " << note << '\n';
    std::cout << out.text;
    if (!gamma.empty()) warnGammaOverBound(schedule, gamma);
    return 0;
}

}  // namespace app::cli
