// SPDX-License-Identifier: MIT
// The Analytic-DPM subcommands gamma and variance (docs/gaussian.md): Γ estimated and written,
// and the optimal reverse variances along a trajectory.
#include <iostream>

#include "app/cli/commands.h"
#include "app/cli/gaussian_run.h"
#include "app/cli/output_format.h"
#include "app/cli/terminal_progress.h"
#include "core/io/file_io.h"

namespace app::cli {

using core::Result;
using namespace gaussian_options;

namespace {

// variance's output: one row or object per pair (s, t), in sampling order.
void printVariances(const std::string& format,
                    const core::gaussian::ResolvedTrajectory& trajectory,
                    const std::vector<core::gaussian::PairVariance>& pairs,
                    double eta,
                    core::io::GammaKind kind,
                    const std::vector<int>& over) {
    if (format == "csv") {
        std::cout << "s,t,lambda2,sigma2_unclipped,lower,upper,upper_bounded,sigma2\n";
        for (const auto& p : pairs) {
            std::cout << p.s << ',' << p.t;
            for (const double v :
                 {p.lambda2, p.sigma2Unclipped, p.lower, p.upper, p.upperBounded, p.sigma2}) {
                std::cout << ',' << csvNumber(v);
            }
            std::cout << '\n';
        }
        return;
    }
    nlohmann::ordered_json json;
    json["trajectory"] = trajectory.timesteps;
    json["forward"] = eta;
    json["gamma_kind"] = core::io::gammaKindName(kind);
    json["pairs"] = nlohmann::ordered_json::array();
    for (const auto& p : pairs) {
        json["pairs"].push_back({{"s", p.s},
                                 {"t", p.t},
                                 {"lambda2", p.lambda2},
                                 {"sigma2_unclipped", p.sigma2Unclipped},
                                 {"lower", p.lower},
                                 {"upper", p.upper},
                                 {"upper_bounded", p.upperBounded},
                                 {"sigma2", p.sigma2}});
    }
    if (trajectory.hasCost) {
        json["cost"] = trajectory.cost;
    }
    if (!trajectory.note.empty()) {
        json["note"] = trajectory.note;
    }
    if (!trajectory.endsNote.empty()) json["ends_note"] = trajectory.endsNote;
    json["gamma_over_bound"] = over;
    printJson(std::cout, json);
}

}  // namespace

const CommandSpec& gammaSpec() {
    static const CommandSpec spec{
        "gamma",
        "estimate Γ_n (the score's mean square) for every timestep and write it",
        "",
        {kDigits, kData, kModel, kSchedule, kSteps,
         valued("samples", "M", "100", "samples per timestep"), seedOption("0", "the seed"),
         required("out", "FILE",
                  "FILE.csv (Γ) or FILE.npy (ms_eps, as the paper's code writes it)"),
         kThreads, estimatorOption(), kDataRange, kProject},
        kDataNotes};
    return spec;
}

const CommandSpec& varianceSpec() {
    static const CommandSpec spec{
        "variance",
        "the optimal reverse variances along a trajectory, from a Γ file",
        "",
        {kSchedule, kSteps,
         valued("gamma", "FILE", "",
                "Γ as written by `diffuscope gamma` (.csv or .npy); with --project, default: the "
                "project's Γ"),
         kGammaKind,
         valued("forward", "ddpm|ddim|eta:V", "ddpm", "the forward process (η = 1, 0 or V)"),
         kTrajectory, dpVariantOption(), kDataRange, kClipFirst,
         formatOption("json|csv", "json", "the output format"), kThreads, kProject},
        "The formulas and defaults are in docs/gaussian.md, the output's keys and columns in\n"
        "docs/conventions.md.\n"};
    return spec;
}

int runGamma(const Args& args) {
    Result<GaussianRun> run = loadGaussianRun(args, {.trajectory = false, .samplesKey = "samples"});
    if (!run) {
        return fail(run.error());
    }
    Result<std::string> out = args.require("out");
    if (!out) {
        return fail(out.error());
    }
    if (core::Status writable = core::io::checkWritablePath(*out); !writable) {
        return fail(writable.error());
    }
    Result<core::project::GaussianSetup> setup = buildGaussianSetup(*run);
    if (!setup) {
        return fail(setup.error());
    }
    Result<std::vector<double>> table = computeGamma(*run, *setup, true);
    if (!table) {
        return fail(table.error());
    }
    // NPY holds ms_eps as the paper's code writes it; CSV holds Γ.
    Result<core::io::GammaKind> written =
        core::project::writeGammaTable(*out, *table, setup->schedule);
    if (!written) {
        return fail(written.error());
    }
    std::cout << "wrote " << *out << ": " << core::io::gammaKindName(*written)
              << " for N = " << run->params.numSteps << ", M = " << run->params.gammaSamples
              << '\n';
    return 0;
}

// --forward ddpm|ddim|eta:V as η.
Result<double> parseForward(const std::string& text) {
    if (text == "ddpm") return 1.0;
    if (text == "ddim") return 0.0;
    if (text.rfind("eta:", 0) == 0) {
        Result<double> eta = parseDouble(text.substr(4), "--forward");
        if (!eta) return eta.error();
        if (core::Status s = core::gaussian::ForwardProcess{*eta}.validate(); !s) {
            core::Error error = s.error();
            error.field = "--forward";
            error.value = text;
            return error;
        }
        return *eta;
    }
    return core::invalidArgument("--forward", text, "expected ddpm, ddim or eta:V");
}

int runVariance(const Args& args) {
    Result<GaussianRun> run =
        loadGaussianRun(args, {.data = false, .seed = false, .samplesKey = ""});
    if (!run) {
        return fail(run.error());
    }
    if (run->fromProject && !args.has("forward")) {
        // η is the project's
    } else if (Result<double> eta = parseForward(args.get("forward")); !eta) {
        return fail(eta.error());
    } else {
        run->params.eta = *eta;
    }
    // The project's first-step clip is the samplers'; the variances are shown unclipped, as in
    // the GUI's variance view, unless --clip-first asks.
    Result<double> clipFirst = args.getDouble("clip-first");
    if (clipFirst && *clipFirst < 0.0) {
        clipFirst = core::invalidArgument("--clip-first", args.get("clip-first"), "y must be ≥ 0");
    }
    if (!clipFirst) {
        return fail(clipFirst.error());
    }
    const std::string format = args.get("format");
    if (format != "json" && format != "csv") {
        return fail(core::invalidArgument("--format", format, "expected json or csv"));
    }
    // Γ: the file given, else the project's.
    std::vector<double> gamma;
    core::io::GammaKind kind = core::io::GammaKind::MsEps;  // NPY default: the paper's layout
    core::schedule::GaussianSchedule schedule;
    if (args.has("gamma") || !run->fromProject) {
        Result<std::string> gammaPath = args.require("gamma");
        if (!gammaPath) {
            return fail(core::invalidArgument("--gamma", "", "give Γ as a file, or --project"));
        }
        auto built = buildGaussianSetup(*run, false);
        if (!built) {
            return fail(built.error());
        }
        schedule = built->schedule;
        Result<core::project::GammaTable> table = readGammaOption(args, *gammaPath, schedule);
        if (!table) {
            return fail(table.error());
        }
        gamma = std::move(table->gamma);
        kind = table->kind;
    } else {
        Result<core::project::GaussianSetup> setup = buildGaussianSetup(*run);
        if (!setup) {
            return fail(setup.error());
        }
        schedule = setup->schedule;
        Result<std::vector<double>> table = computeGamma(*run, *setup, true);
        if (!table) {
            return fail(table.error());
        }
        gamma = std::move(table).value();
        kind = core::io::GammaKind::Gamma;
    }
    TerminalProgress observer;
    core::Progress progress(&observer, "trajectory");
    Result<core::gaussian::ResolvedTrajectory> trajectory = core::project::projectTrajectory(
        run->params, schedule, gamma, run->threads, &progress, run->range);
    if (!trajectory) {
        return fail(trajectory.error());
    }
    Result<std::vector<core::gaussian::PairVariance>> pairs = core::project::projectVariances(
        run->params, schedule, gamma, trajectory->timesteps, run->range);
    if (!pairs) {
        return fail(pairs.error());
    }
    if (*clipFirst > 0.0 && !pairs->empty()) {
        pairs->back().sigma2 =
            std::min(pairs->back().sigma2, core::gaussian::firstPairClipThreshold(*clipFirst));
    }
    if (!trajectory->note.empty()) {
        std::cerr << "note: " << trajectory->note << '\n';
    }
    const std::vector<int> over = warnGammaOverBound(schedule, gamma);
    if (format == "csv" && !trajectory->endsNote.empty()) {
        std::cerr << "note: " << trajectory->endsNote << '\n';
    }
    printVariances(format, *trajectory, *pairs, run->params.eta, kind, over);
    return 0;
}

}  // namespace app::cli
