// SPDX-License-Identifier: MIT
// `diffuscope kernel` and `diffuscope categorical`: the categorical engine (docs/categorical.md)
// from the command line.
#include <iostream>
#include <sstream>

#include "app/cli/categorical_run.h"
#include "app/cli/commands.h"
#include "app/cli/output_format.h"
#include "app/cli/terminal_progress.h"
#include "core/project/categorical_runs.h"

namespace app::cli {

using core::Result;

namespace {

Result<double> betaOption(const Args& args, const std::string& key) {
    Result<std::string> text = args.require(key);
    if (!text) {
        return text.error();
    }
    Result<double> beta = parseDouble(*text, "--" + key);
    if (!beta) {
        return beta.error();
    }
    if (*beta < 0.0 || *beta > 1.0) {
        return core::invalidArgument("--" + key, *text, "β must lie in [0, 1]");
    }
    return beta;
}

}  // namespace

const CommandSpec& kernelSpec() {
    static const CommandSpec spec{
        "kernel",
        "the reverse kernel q(x_s | x_t) of one step for a denoiser F",
        "",
        {kPriorOption, required("beta-s", "X", "β_s, the earlier time's β in [0, 1]"),
         required("beta-t", "Y", "β_t ≥ β_s, the later time's β"),
         required("denoiser", "F.csv",
                  "K rows of K numbers, row j = F(· | j); rows are normalised"),
         valued("form", "closed|direct|d3pm", "closed", "how the kernel is computed")},
        "Prints K lines of K comma-separated numbers: line j is q(X_s = · | X_t = j).\n"};
    return spec;
}

const CommandSpec& categoricalSpec() {
    static const CommandSpec spec{
        "categorical",
        "information curves, step costs and the DP trajectory of a data table",
        "",
        {required("table", "T.csv", "the data table (columns x1..xD and p, optionally c)"),
         kPriorOption,
         required("schedule", "S", "β(t): linear, cosine, power:P, info-linear or custom:FILE"),
         required("steps", "N", "the number of steps of the grid"),
         valued("project", "FILE", "",
                "a project file: its categorical set-up (data, π, schedule, N, condition, model, "
                "DP trajectory) stands in for the options not given"),
         valued("condition", "C", "", "the condition to score (default: all conditions averaged)"),
         valued("dp", "K", "", "also the least-cost trajectory of K steps"),
         valued("samples", "M", "", "Monte Carlo step costs with M ≥ 2 samples (default: exact)"),
         seedOption("0", "the Monte Carlo seed"), threadsOption(),
         formatOption("json|csv", "json", "the output format"),
         valued("model", "M", "oracle",
                "the denoiser: oracle (the table's exact one), MODEL.safetensors or MODEL.pt")},
        "The output's keys and columns are in docs/conventions.md (CLI outputs).\n"};
    return spec;
}

int runKernel(const Args& args) {
    Result<std::string> piSpec = args.require("pi");
    if (!piSpec) {
        return fail(piSpec.error());
    }
    Result<double> betaS = betaOption(args, "beta-s");
    if (!betaS) {
        return fail(betaS.error());
    }
    Result<double> betaT = betaOption(args, "beta-t");
    if (!betaT) {
        return fail(betaT.error());
    }
    if (*betaS > *betaT) {
        return fail(core::invalidArgument("--beta-s", args.get("beta-s"),
                                          "β_s must not exceed β_t = " + args.get("beta-t")));
    }
    Result<core::categorical::KernelForm> form =
        core::categorical::parseKernelForm(args.get("form"), "--form");
    if (!form) {
        return fail(form.error());
    }
    Result<std::string> denoiserPath = args.require("denoiser");
    if (!denoiserPath) {
        return fail(denoiserPath.error());
    }
    Result<core::Matrix> kernel =
        core::project::reverseKernelOf(*piSpec, "--pi", *betaS, *betaT, *form, *denoiserPath);
    if (!kernel) {
        return fail(kernel.error());
    }
    const core::Matrix& q = *kernel;
    std::ostringstream out;
    for (Eigen::Index j = 0; j < q.rows(); ++j) {
        for (Eigen::Index k = 0; k < q.cols(); ++k) {
            out << (k > 0 ? "," : "") << csvNumber(q(j, k));
        }
        out << '\n';
    }
    std::cout << out.str();
    return 0;
}

namespace {

void printCategorical(const core::project::CategoricalReport& r, const std::string& format) {
    std::ostringstream out;
    const bool dp = !r.dpNodes.empty();
    if (format == "json") {
        nlohmann::ordered_json json;
        json["t"] = r.curves.t;
        json["beta"] = r.curves.beta;
        json["mutual_information"] = r.curves.mutualInformation;
        json["impurity"] = r.curves.impurity;
        // The table's rows are its support, so the joint entropy is always exact here.
        json["entropy"] = r.entropy.joint;
        json["entropy_positions"] = r.entropy.positions;
        json["step_costs"] = r.stepCosts;
        json["elbo"] = r.elbo;
        if (r.monteCarlo) {
            json["step_costs_stderr"] = r.stepErrors;
            json["elbo_stderr"] = r.elboStderr;
            json["samples"] = r.samples;
            json["seed"] = static_cast<long long>(r.seed);
        }
        if (dp) {
            json["dp"] = {{"K", r.dpSteps}, {"trajectory", r.dpTimes}, {"cost", r.dpCost}};
        }
        if (r.continuousElbo) {
            json["continuous_elbo"] = r.continuousElbo->value;
            if (r.continuousElbo->monteCarlo) {
                json["continuous_elbo_stderr"] = r.continuousElbo->standardError;
            } else {
                json["continuous_elbo_quadrature_error"] = r.continuousElbo->quadratureError;
            }
        } else if (r.absorbing) {
            json["continuous_elbo"] = nullptr;
            json["continuous_elbo_refused"] = r.continuousElboRefused;
        }
        printJson(out, json);
    } else {
        // One row per grid time; step_cost (J(n−1, n)) is empty at n = 0.
        out << "t,beta,mutual_information,impurity,step_cost"
            << (r.monteCarlo ? ",step_cost_stderr" : "") << (dp ? ",on_dp_path" : "") << '\n';
        size_t onPath = 0;
        for (size_t n = 0; n < r.curves.t.size(); ++n) {
            out << csvNumber(r.curves.t[n]) << ',' << csvNumber(r.curves.beta[n]) << ','
                << csvNumber(r.curves.mutualInformation[n]) << ','
                << csvNumber(r.curves.impurity[n]) << ','
                << (n > 0 ? csvNumber(r.stepCosts[n - 1]) : "");
            if (r.monteCarlo) {
                out << ',' << (n > 0 ? csvNumber(r.stepErrors[n - 1]) : "");
            }
            if (dp) {
                const bool on =
                    onPath < r.dpNodes.size() && r.dpNodes[onPath] == static_cast<int>(n);
                onPath += on ? 1 : 0;
                out << ',' << (on ? 1 : 0);
            }
            out << '\n';
        }
        out << "# elbo," << csvNumber(r.elbo) << '\n';
        if (dp) {
            out << "# dp_cost," << csvNumber(r.dpCost) << '\n';
        }
        if (r.absorbing) {
            out << "# continuous_elbo,"
                << (r.continuousElbo ? csvNumber(r.continuousElbo->value) : "") << '\n';
        }
    }
    if (r.absorbing && !r.continuousElbo) {
        std::cerr << "continuous_elbo refused: " << r.continuousElboRefused << '\n';
    }
    std::cout << out.str();
}

Result<int> dpOption(const Args& args, int steps) {
    Result<int> dp = args.getInt("dp");
    if (!dp) return dp.error();
    if (*dp < 1 || *dp > steps) {
        return core::invalidArgument("--dp", args.get("dp"),
                                     "K must lie in 1..N = " + std::to_string(steps));
    }
    return dp;
}

// The parameters set up and run by the core as the GUI runs them (computeCategoricalCosts), so
// the numbers are the GUI's to the bit.
int runCategoricalParams(const Args& args,
                         const core::project::CategoricalParams& params,
                         const std::string& format) {
    auto run = samplesAndThreads(args);
    if (!run) return fail(run.error());
    auto setup = buildCategoricalSetup(args, params);
    if (!setup) return fail(setup.error());
    if (core::Status valid = core::categorical::validateTimeGrid((*setup)->grid, "--schedule");
        !valid) {
        return fail(valid.error());
    }
    const bool dp = params.trajectory == core::project::CategoricalTrajectory::Dp;
    if (dp && !(*setup)->exactCosts()) {
        return fail(core::invalidArgument(
            args.has("dp") ? "--dp" : "trajectory", args.has("dp") ? args.get("dp") : "dp",
            "the DP needs the step costs of every pair of steps, which are not computed for data "
            "whose joint states are too many to enumerate"));
    }
    TerminalProgress terminal;
    core::Progress progress(&terminal, "step costs");
    // The command line prints no N-ladder of ELBOs, and enumerates as far as the core allows.
    auto costs = core::project::computeCategoricalCosts(
        **setup, progress, run->second, run->first, dp,
        {.continuousEnumeration = 1000000, .elboLadder = false});
    if (!costs) {
        core::Error error = costs.error();
        if (error.field == "samples") error.field = "--samples";
        if (error.field == "N") error.field = "--steps";
        return fail(error);
    }
    printCategorical(core::project::categoricalReport(**setup, *costs, dp), format);
    return 0;
}

}  // namespace

int runCategorical(const Args& args) {
    const std::string format = args.get("format");
    if (format != "json" && format != "csv") {
        return fail(core::makeError(core::ErrorCode::ParseError, "--format", format,
                                    "expected json or csv"));
    }
    // From the project (the options given override its values) or from the options alone.
    auto params = args.has("project") ? categoricalParamsFromProject(args)
                                      : categoricalParamsFromOptions(args);
    if (!params) return fail(params.error());
    if (args.has("dp")) {
        Result<int> dp = dpOption(args, params->numSteps);
        if (!dp) return fail(dp.error());
        params->trajectory = core::project::CategoricalTrajectory::Dp;
        params->pathSteps = *dp;
    } else if (!args.has("project")) {
        params->trajectory = core::project::CategoricalTrajectory::Even;
    }
    if (args.has("project") && args.has("seed")) {
        Result<long long> seed = args.getInt64("seed");
        if (!seed) return fail(seed.error());
        params->seed = static_cast<uint64_t>(*seed);
    }
    return runCategoricalParams(args, *params, format);
}

}  // namespace app::cli
