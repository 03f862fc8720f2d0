// SPDX-License-Identifier: MIT
// The Analytic-DPM subcommand nll (docs/gaussian.md): the negative ELBO along a trajectory,
// or against the number of steps.
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/gaussian_run.h"
#include "app/cli/output_format.h"
#include "app/cli/terminal_progress.h"

namespace app::cli {

using core::Result;
using namespace gaussian_options;

namespace {

// The Γ data of nll: --gamma-data (a network's Γ comes from its training data), else --data's.
Result<core::project::GaussianSetup> withGammaData(const Args& args,
                                                   const core::project::GaussianSetup& setup,
                                                   const GaussianRun& run) {
    core::project::GaussianSetup out = setup;
    if (!args.has("gamma-data")) return out;
    auto gammaData = core::project::gaussianData(args.get("gamma-data"), run.sources);
    if (!gammaData) return gammaData.error();
    const core::model::GaussianDataSampler& a = **gammaData;
    const core::model::GaussianDataSampler& b = *setup.data;
    if (a.dimension() != b.dimension()) {
        return core::invalidArgument("--gamma-data", args.get("gamma-data"),
                                     "its dimension differs from --data's");
    }
    out.data = *gammaData;
    return out;
}

// The NLL-against-K table as JSON: one curve per (trajectory kind, variance).
nlohmann::ordered_json sweepJson(const core::project::NllSweep& sweep) {
    nlohmann::ordered_json json;
    json["ks"] = sweep.ks;
    json["points"] = sweep.points;
    json["seed"] = sweep.seed;
    json["curves"] = nlohmann::ordered_json::array();
    const char* kinds[] = {"even", "dp"};
    const char* variances[] = {"analytic", "small", "large"};
    for (size_t kind = 0; kind < 2; ++kind) {
        for (size_t v = 0; v < 3; ++v) {
            json["curves"].push_back({{"trajectory", kinds[kind]},
                                      {"variance", variances[v]},
                                      {"bpd", sweep.bitsPerDim[kind][v]},
                                      {"standard_error", sweep.standardError[kind][v]}});
        }
    }
    json["trajectories"] = {{"even", sweep.trajectories[0]}, {"dp", sweep.trajectories[1]}};
    return json;
}

// nll's output for one trajectory: the total, its terms, the prior and the decoder.
nlohmann::ordered_json nllJson(const core::gaussian::NllResult& nll,
                               const core::gaussian::ResolvedTrajectory& trajectory,
                               const std::string& variance,
                               const core::schedule::GaussianSchedule& schedule) {
    nlohmann::ordered_json json;
    json["bpd"] = nll.bitsPerDim;
    json["standard_error"] = nll.standardError;
    json["variance"] = variance;
    json["trajectory"] = trajectory.timesteps;
    json["prior"] = nll.prior.bitsPerDim;
    json["decoder"] = nll.decoder.bitsPerDim;
    json["decoder_variance"] = core::gaussian::decoderVariance(schedule, trajectory.timesteps);
    if (!trajectory.note.empty()) {
        json["note"] = trajectory.note;
    }
    if (!trajectory.endsNote.empty()) json["ends_note"] = trajectory.endsNote;
    json["terms"] = nlohmann::ordered_json::array();
    for (const auto& term : nll.pairs) {
        json["terms"].push_back({{"s", term.s}, {"t", term.t}, {"bpd", term.bitsPerDim}});
    }
    return json;
}

// nll --sweep K1,K2,…: the NLL against the number of steps, on Γ of the whole grid.
int runNllSweep(const Args& args,
                const GaussianRun& run,
                const core::project::GaussianSetup& setup,
                const GaussianRun& gammaRun,
                const core::project::GaussianSetup& gammaSetup,
                int points) {
    Result<std::vector<int>> ks = parseIntList(args.get("sweep"), "--sweep");
    if (!ks) {
        return fail(ks.error());
    }
    Result<std::vector<double>> gamma = computeGamma(gammaRun, gammaSetup, true);
    if (!gamma) {
        return fail(gamma.error());
    }
    TerminalProgress observer;
    core::Progress progress(&observer, "nll");
    auto sweep = core::project::nllSweep(run.params, setup, run.sources, *gamma, *ks, points,
                                         run.threads, progress);
    if (!sweep) {
        core::Error error = sweep.error();
        if (error.field == "K") error.field = "--sweep";
        return fail(error);
    }
    printJson(std::cout, sweepJson(*sweep));
    warnGammaOverBound(setup.schedule, *gamma);
    return 0;
}

}  // namespace

const CommandSpec& nllSpec() {
    static const CommandSpec spec{
        "nll",
        "the negative ELBO in bits/dim along a trajectory",
        "",
        {kDigits, kData, kModel, kSchedule, kSteps, kTrajectory,
         valued("variance", "analytic|small|large", "analytic", "the reverse variance"),
         valued("levels", "L", "",
                "the decoder's number of levels (default: 17 for the digits, else 256)"),
         valued("samples", "M", std::to_string(core::project::kNllPoints), "data points averaged"),
         kGammaSamples,
         valued("sweep", "K1,K2,…", "",
                "the NLL against the number of steps instead: the even and the DP trajectory at "
                "each K, with the analytic, small and large variance (--trajectory is not used)"),
         valued("gamma-data", "D", "", "the data Γ is estimated on (default: --data)"),
         estimatorOption(), kSeed,
         formatOption("json", "json", "the output format (nll writes json)"), kThreads, kDataRange,
         dpVariantOption(), kProject},
        kDataNotes};
    return spec;
}

int runNll(const Args& args) {
    Result<GaussianRun> run = loadGaussianRun(args, {.trajectory = !args.has("sweep")});
    if (!run) {
        return fail(run.error());
    }
    Result<int> points = args.getBounded("samples", core::limits::kSamples);
    if (!points) {
        return fail(points.error());
    }
    Result<core::gaussian::ReverseVariance> variance = parseReverseVariance(args.get("variance"));
    if (!variance) {
        return fail(variance.error());
    }
    if (args.get("format") != "json") {
        return fail(core::invalidArgument("--format", args.get("format"), "nll writes json"));
    }
    Result<core::project::GaussianSetup> setup = buildGaussianSetup(*run);
    if (!setup) {
        return fail(setup.error());
    }
    Result<core::project::GaussianSetup> gammaSetup = withGammaData(args, *setup, *run);
    if (!gammaSetup) {
        return fail(gammaSetup.error());
    }
    // --gamma-data changes what Γ is estimated on: the project's saved Γ is not that one.
    GaussianRun gammaRun = *run;
    if (args.has("gamma-data")) gammaRun.saved = {};
    if (args.has("sweep")) {
        return runNllSweep(args, *run, *setup, gammaRun, *gammaSetup, *points);
    }
    std::vector<double> gamma;
    const bool needsGamma = *variance == core::gaussian::ReverseVariance::Analytic ||
                            run->params.trajectory == core::project::GaussianTrajectory::Dp;
    if (needsGamma) {
        Result<std::vector<double>> table = computeGamma(gammaRun, *gammaSetup, false);
        if (!table) {
            return fail(table.error());
        }
        gamma = std::move(table).value();
    }
    Result<core::gaussian::ResolvedTrajectory> trajectory = core::project::projectTrajectory(
        run->params, setup->schedule, gamma, run->threads, nullptr, run->range);
    if (!trajectory) {
        return fail(trajectory.error());
    }
    auto heldOut = core::project::heldOutData(run->params.data, run->sources);
    if (!heldOut) {
        return fail(heldOut.error());
    }
    Result<int> levels = args.getBounded("levels", core::limits::kLevels,
                                         core::project::heldOutLevels(run->params.data));
    if (!levels) {
        return fail(levels.error());
    }
    TerminalProgress observer;
    core::Progress progress(&observer, "nll");
    const core::model::GaussianDataSampler& data = **heldOut;
    Result<core::gaussian::NllResult> nll = core::project::projectNll(
        run->params, *setup, data, gamma, trajectory->timesteps,
        {.variance = *variance, .levels = *levels, .points = *points, .range = run->range},
        run->threads, progress);
    if (!nll) {
        return fail(nll.error());
    }
    printJson(std::cout, nllJson(*nll, *trajectory, args.get("variance"), setup->schedule));
    if (!gamma.empty()) warnGammaOverBound(setup->schedule, gamma);
    return 0;
}

}  // namespace app::cli
