// SPDX-License-Identifier: MIT
// The subcommand plan (docs/gaussian.md): a sampling plan (timesteps, variances, mean
// coefficients) for the GPU sampler.
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/gaussian_run.h"
#include "app/cli/output_format.h"
#include "app/cli/terminal_progress.h"
#include "core/io/file_io.h"
#include "core/io/json.h"

namespace app::cli {

using core::Result;
using core::project::GaussianParams;
using namespace gaussian_options;

const CommandSpec& planSpec() {
    static const CommandSpec spec{
        "plan",
        "write a sampling plan (timesteps, variances, mean coefficients) for the GPU sampler",
        "",
        {kSchedule,
         kSteps,
         kTrajectory,
         dpVariantOption(),
         valued("variance", "analytic|small|large", "analytic",
                "each step's σ²: analytic (from Γ), small (β̃) or large (β; the DDPM sampler "
                "only)"),
         valued("sampler", "ddpm|ddim", "ddpm",
                "the mean (or the project's: its DDPM or DDIM kind)"),
         valued("eta", "V", "0", "η of the DDIM sampler (or the project's)"),
         kClipFirst,
         valued("gamma", "FILE", "",
                "Γ as written by `diffuscope gamma` (.csv or .npy); default: the project's, or "
                "estimated with --data and --model"),
         kGammaKind,
         valued("data", "D", "", "the data Γ is estimated on (or the project's)"),
         kModel,
         kDigits,
         estimatorOption(),
         kGammaSamples,
         kSeed,
         required("out", "FILE", "the plan (JSON)"),
         kDataRange,
         kThreads,
         kProject},
        "Sample on the plan with python3 -m diffuscope_torch sample --plan FILE. Γ is needed for\n"
        "--variance analytic and for dp:K. The plan's keys are in docs/gaussian.md.\n"};
    return spec;
}

namespace {

// The plan's sampler and variance: --sampler (else the project's DDPM or DDIM kind), --eta and
// --variance. The DDPM mean is the η = 1 forward process's.
struct PlanSampler {
    bool ddim = false;
    core::gaussian::ReverseVariance variance = core::gaussian::ReverseVariance::Analytic;
};
Result<PlanSampler> loadPlanSampler(const Args& args, GaussianRun& run) {
    PlanSampler out;
    GaussianParams& params = run.params;
    if (args.has("sampler") || !run.fromProject) {
        const std::string name = args.get("sampler");
        if (name != "ddpm" && name != "ddim") {
            return core::invalidArgument("--sampler", name, "expected ddpm or ddim");
        }
        out.ddim = name == "ddim";
    } else {
        using core::gaussian::SamplerKind;
        if (core::gaussian::isDpmSolver(params.sampler)) {
            return core::invalidArgument(
                "--sampler", core::project::choiceId(core::project::kSamplers, params.sampler),
                "the project's sampler is an ODE solver; a plan is ddpm or ddim: give --sampler");
        }
        out.ddim =
            params.sampler == SamplerKind::Ddim || params.sampler == SamplerKind::AnalyticDdim;
    }
    if (core::Status s = loadEta(args, run); !s) return s.error();
    if (!out.ddim) params.eta = 1.0;
    const std::string varianceName = args.get("variance");
    Result<core::gaussian::ReverseVariance> variance = parseReverseVariance(varianceName);
    if (!variance) return variance.error();
    if (out.ddim && *variance == core::gaussian::ReverseVariance::Large) {
        return core::invalidArgument("--variance", varianceName,
                                     "the DDIM sampler's variance is analytic or small "
                                     "(η²β̃); large is the DDPM sampler's");
    }
    out.variance = *variance;
    return out;
}

// The schedule and the Γ a plan needs (none for the baseline variances on a trajectory that is
// not dp:K), and where Γ came from: --gamma FILE, else the project's or estimated with --data
// and --model.
struct PlanGamma {
    core::schedule::GaussianSchedule schedule;
    std::vector<double> gamma;
    nlohmann::ordered_json source;  // null: no Γ
};
Result<PlanGamma> loadPlanGamma(const Args& args,
                                const GaussianRun& run,
                                bool withData,
                                bool needsGamma,
                                const std::string& varianceName) {
    PlanGamma out;
    if (!needsGamma || args.has("gamma")) {
        auto built = buildGaussianSetup(run, false);
        if (!built) return built.error();
        out.schedule = built->schedule;
        if (!needsGamma) return out;
        auto table = readGammaOption(args, args.get("gamma"), out.schedule);
        if (!table) return table.error();
        out.gamma = std::move(table->gamma);
        out.source =
            "file " + args.get("gamma") + " (" + core::io::gammaKindName(table->kind) + ")";
        return out;
    }
    if (!withData) {
        return core::invalidArgument(
            "--variance", varianceName,
            run.params.trajectory == core::project::GaussianTrajectory::Dp &&
                    varianceName != "analytic"
                ? "dp:K needs Γ: give --project, --gamma FILE or --data D"
                : "the analytic variance needs Γ: give --project, --gamma FILE or --data D");
    }
    Result<core::project::GaussianSetup> setup = buildGaussianSetup(run);
    if (!setup) return setup.error();
    out.schedule = setup->schedule;
    Result<core::project::ProjectGamma> gamma = runProjectGamma(run, *setup, false);
    if (!gamma) return gamma.error();
    out.source = core::project::gammaProvenance(run.params, *setup, gamma->source);
    out.gamma = std::move(gamma->table);
    return out;
}

}  // namespace

int runPlan(const Args& args) {
    const bool withData = args.has("data") || args.has("model") || args.has("project");
    Result<GaussianRun> run = loadGaussianRun(args, {.data = withData});
    if (!run) {
        return fail(run.error());
    }
    Result<std::string> out = args.require("out");
    if (!out) {
        return fail(out.error());
    }
    // The file is what its name says: a plan is JSON, and only JSON is written.
    if (!out->ends_with(".json")) {
        return fail(
            core::invalidArgument("--out", *out, "a plan is written as JSON: name it *.json"));
    }
    Result<PlanSampler> sampler = loadPlanSampler(args, *run);
    if (!sampler) {
        return fail(sampler.error());
    }
    Result<double> clipFirst = loadClipFirst(args, *run);
    if (!clipFirst) {
        return fail(clipFirst.error());
    }
    if (core::Status writable = core::io::checkWritablePath(*out); !writable) {
        return fail(writable.error());
    }
    const GaussianParams& params = run->params;
    const std::string varianceName = args.get("variance");
    const bool needsGamma = sampler->variance == core::gaussian::ReverseVariance::Analytic ||
                            params.trajectory == core::project::GaussianTrajectory::Dp;
    if (!needsGamma && args.has("gamma")) {
        std::cerr << "note: --gamma is not used: the " << varianceName
                  << " variance and this trajectory need no Γ\n";
    }
    Result<PlanGamma> gamma = loadPlanGamma(args, *run, withData, needsGamma, varianceName);
    if (!gamma) {
        return fail(gamma.error());
    }
    const core::schedule::GaussianSchedule& schedule = gamma->schedule;
    Result<core::gaussian::ResolvedTrajectory> trajectory = core::project::projectTrajectory(
        params, schedule, gamma->gamma, run->threads, nullptr, run->range);
    if (!trajectory) {
        return fail(trajectory.error());
    }
    if (!trajectory->note.empty()) std::cerr << "note: " << trajectory->note << '\n';
    const std::vector<int>& tau = trajectory->timesteps;
    Result<std::vector<core::gaussian::PlanStep>> steps =
        core::project::projectSamplingPlan(params, sampler->ddim, sampler->variance, *clipFirst,
                                           schedule, gamma->gamma, tau, run->range);
    if (!steps) {
        return fail(steps.error());
    }
    const core::project::PlanFile plan{.schedule = params.schedule,
                                       .timesteps = tau,
                                       .ddim = sampler->ddim,
                                       .eta = params.eta,
                                       .variance = sampler->variance,
                                       .clipFirst = *clipFirst,
                                       .gammaSource = gamma->source,
                                       .range = run->range,
                                       .steps = std::move(steps).value()};
    if (core::Status s = core::io::writeFileAtomically(
            *out, core::io::dumpJson(core::project::planFileJson(plan, schedule)));
        !s) {
        return fail(s.error());
    }
    if (!trajectory->endsNote.empty()) std::cerr << "note: " << trajectory->endsNote << '\n';
    std::cout << "wrote " << *out << ": " << tau.size() << " steps, "
              << (sampler->ddim ? "ddim" : "ddpm") << ", " << varianceName << " variance\n";
    if (!gamma->gamma.empty()) warnGammaOverBound(schedule, gamma->gamma);  // after the plan
    return 0;
}

}  // namespace app::cli
