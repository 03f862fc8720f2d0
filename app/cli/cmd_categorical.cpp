// SPDX-License-Identifier: MIT
// `diffuscope kernel` and `diffuscope categorical`: the categorical engine (docs/categorical.md)
// from the command line.
#include <cmath>
#include <iostream>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/output_format.h"
#include "app/cli/terminal_progress.h"
#include "core/categorical/information.h"
#include "core/categorical/prior.h"
#include "core/categorical/reverse_kernel.h"
#include "core/data/categorical_table.h"
#include "core/io/csv.h"
#include "core/model/categorical_oracles.h"
#include "core/model/checkpoint.h"
#include "core/trajectory/least_cost_path.h"

namespace app::cli {
namespace {

using core::Result;

// F.csv: K rows of K numbers, no header; row j = F(· | j). Rows are normalised.
Result<core::Matrix> readDenoiserRows(const std::string& path, int numClasses) {
    Result<core::io::CsvTable> csv = core::io::readCsv(path, false);
    if (!csv) {
        return csv.error();
    }
    if (static_cast<int>(csv->rows.size()) != numClasses || static_cast<int>(csv->rows[0].size()) != numClasses) {
        return core::invalidArgument(path, std::to_string(csv->rows.size()) + "x" + std::to_string(csv->rows[0].size()),
                                     "the denoiser must have K = " + std::to_string(numClasses) +
                                         " rows of K numbers (K from --pi)");
    }
    core::Matrix f(numClasses, numClasses);
    for (int j = 0; j < numClasses; ++j) {
        for (int i = 0; i < numClasses; ++i) {
            Result<double> v = core::io::fieldAsDouble(*csv, j, i);
            if (!v) {
                return v.error();
            }
            if (*v < 0.0) {
                return core::invalidArgument(path + ":" + std::to_string(csv->lineNumbers[j]) + " column " +
                                                 std::to_string(i + 1),
                                             csv->rows[j][i], "a probability must be ≥ 0");
            }
            f(j, i) = *v;
        }
        // Scale by the largest entry before summing: a row of 1e308s would overflow to inf and
        // normalise to zeros. The closed form assumes F_j sums to 1.
        const double largest = f.row(j).maxCoeff();
        if (!(largest > 0.0)) {
            return core::invalidArgument(path + ":" + std::to_string(csv->lineNumbers[j]), "0",
                                         "a row of F must have positive mass");
        }
        f.row(j) /= largest;
        f.row(j) /= f.row(j).sum();
    }
    return f;
}

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

const Option kPi = required("pi", "P", "the prior π: uniform:K, absorbing:K or p1,p2,…");

}  // namespace

const CommandSpec& kernelSpec() {
    static const CommandSpec spec{
        "kernel",
        "the reverse kernel q(x_s | x_t) of one step for a denoiser F",
        "",
        {kPi,
         required("beta-s", "X", "β_s, the earlier time's β in [0, 1]"),
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
         kPi,
         required("schedule", "S", "β(t): linear, cosine, power:P, info-linear or custom:FILE"),
         required("steps", "N", "the number of steps of the grid"),
         valued("condition", "C", "", "the condition to score (default: all conditions averaged)"),
         valued("dp", "K", "", "also the least-cost trajectory of K steps"),
         valued("samples", "M", "", "Monte Carlo step costs with M ≥ 2 samples (default: exact)"),
         valued("seed", "S", "0", "the Monte Carlo seed"),
         valued("threads", "T", "", "worker threads (default: all cores)"),
         valued("format", "json|csv", "json", "the output format"),
         valued("model", "M", "oracle",
                "the denoiser: oracle (the table's exact one) or MODEL.safetensors")},
        "The output's keys and columns are in docs/conventions.md (CLI outputs).\n"};
    return spec;
}

int runKernel(const Args& args) {
    Result<std::string> piSpec = args.require("pi");
    if (!piSpec) {
        return fail(piSpec.error());
    }
    Result<core::Vector> pi = core::categorical::parsePrior(*piSpec, "--pi");
    if (!pi) {
        return fail(pi.error());
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
    Result<core::Matrix> f = readDenoiserRows(*denoiserPath, static_cast<int>(pi->size()));
    if (!f) {
        return fail(f.error());
    }
    const core::Matrix q = core::categorical::reverseKernelMatrix(*form, *f, *pi, *betaS, *betaT);
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

int runCategorical(const Args& args) {
    using namespace core::categorical;
    const std::string format = args.get("format");
    if (format != "json" && format != "csv") {
        return fail(core::makeError(core::ErrorCode::ParseError, "--format", format, "expected json or csv"));
    }
    Result<std::string> piSpec = args.require("pi");
    if (!piSpec) {
        return fail(piSpec.error());
    }
    Result<core::Vector> pi = parsePrior(*piSpec, "--pi");
    if (!pi) {
        return fail(pi.error());
    }
    Result<std::string> tablePath = args.require("table");
    if (!tablePath) {
        return fail(tablePath.error());
    }
    Result<core::data::CategoricalTable> table =
        core::data::readCategoricalTable(*tablePath, static_cast<int>(pi->size()));
    if (!table) {
        return fail(table.error());
    }
    int condition = -1;
    if (args.has("condition")) {
        Result<int> index = table->conditionIndex(args.get("condition"), "--condition");
        if (!index) {
            return fail(index.error());
        }
        condition = *index;
    }
    Result<int> steps = args.getBounded("steps", core::limits::kSteps);
    if (!steps) {
        return fail(steps.error());
    }
    Result<int> dp = args.has("dp") ? args.getInt("dp") : Result<int>(0);
    if (!dp) {
        return fail(dp.error());
    }
    if (args.has("dp") && (*dp < 1 || *dp > *steps)) {
        return fail(core::invalidArgument("--dp", args.get("dp"),
                                          "K must lie in 1..N = " + std::to_string(*steps)));
    }
    Result<long long> samples =
        args.has("samples") ? args.getInt64("samples") : Result<long long>(0);
    if (!samples) {
        return fail(samples.error());
    }
    if (*samples < 0 || (args.has("samples") && *samples < 2)) {
        return fail(core::invalidArgument("--samples", args.get("samples"), "M must be ≥ 2"));
    }
    Result<long long> seed = args.getInt64("seed");
    if (!seed) {
        return fail(seed.error());
    }
    Result<int> threads =
        args.getBounded("threads", core::limits::kThreads, core::hardwareThreads());
    if (!threads) {
        return fail(threads.error());
    }
    if (*threads < 1) {
        return fail(core::invalidArgument("--threads", args.get("threads"), "must be ≥ 1"));
    }
    Result<std::string> scheduleSpec = args.require("schedule");
    if (!scheduleSpec) {
        return fail(scheduleSpec.error());
    }
    const core::data::CategoricalTable& data = *table;
    const core::Vector& prior = *pi;
    Result<core::schedule::BetaCurve> curve = core::schedule::parseBetaCurve(
        *scheduleSpec,
        [&data, &prior, condition](double beta) { return tableMutualInformation(data, prior, beta, condition); },
        "--schedule");
    if (!curve) {
        return fail(curve.error());
    }
    const TimeGrid grid = evenTimeGrid(*curve, *steps);
    if (core::Status valid = validateTimeGrid(grid, "--schedule"); !valid) {
        return fail(valid.error());
    }
    const InformationCurves curves = informationCurves(data, prior, grid, condition);

    // The denoiser: the table's exact oracle, or a trained network (--model FILE.safetensors).
    core::model::TableOracle oracle(data, prior);
    const core::model::CategoricalDenoiser* denoiser = &oracle;
    std::shared_ptr<const core::model::CategoricalMlpDenoiser> network;
    if (const std::string model = args.get("model"); model != "oracle") {
        Result<core::model::LoadedModel> loaded = core::model::loadMlpCheckpoint(model);
        if (!loaded) {
            return fail(loaded.error());
        }
        if (core::Status fits = core::model::checkCategoricalFit(
                *loaded, model, data.numClasses, data.numPositions, data.numConditions());
            !fits) {
            return fail(fits.error());
        }
        network = loaded->categorical;
        denoiser = network.get();
    }
    TerminalProgress terminal;
    core::Progress progress(&terminal, "step costs");
    const StepCostOptions costOptions{.condition = condition,
                                      .samples = *samples,
                                      .seed = static_cast<uint64_t>(*seed),
                                      .parallel = {*threads},
                                      .progress = &progress};
    Result<StepCosts> costs = computeStepCosts(data, *denoiser, prior, grid,
                                               args.has("dp") ? CostPairs::All : CostPairs::Consecutive,
                                               costOptions);
    if (!costs) {
        core::Error error = costs.error();
        if (error.field == "samples") {
            error.field = "--samples";
        } else if (error.field == "N") {
            error.field = "--steps";
        }
        return fail(error);
    }
    std::vector<double> stepCosts;
    std::vector<double> stepErrors;
    double elbo = 0.0;
    double elboVariance = 0.0;
    for (int n = 1; n <= *steps; ++n) {
        stepCosts.push_back(costs->cost(n - 1, n));
        stepErrors.push_back(costs->standardError(n - 1, n));
        elbo += stepCosts.back();
        elboVariance += stepErrors.back() * stepErrors.back();  // columns use independent draws
    }
    core::trajectory::LeastCostPath path;
    if (args.has("dp")) {
        progress.setStage("trajectory");
        Result<core::trajectory::LeastCostPath> best =
            core::trajectory::leastCostPath(costs->cost, *dp, {*threads}, &progress);
        if (!best) {
            return fail(best.error());
        }
        path = *best;
    }

    std::ostringstream out;
    if (format == "json") {
        nlohmann::ordered_json json;
        json["t"] = curves.t;
        json["beta"] = curves.beta;
        json["mutual_information"] = curves.mutualInformation;
        json["impurity"] = curves.impurity;
        json["step_costs"] = stepCosts;
        json["elbo"] = elbo;
        if (costs->monteCarlo) {
            json["step_costs_stderr"] = stepErrors;
            json["elbo_stderr"] = std::sqrt(elboVariance);
            json["samples"] = *samples;
            json["seed"] = *seed;
        }
        if (args.has("dp")) {
            std::vector<double> times;
            for (int node : path.nodes) {
                times.push_back(grid.t[node]);
            }
            json["dp"] = {{"K", *dp}, {"trajectory", times}, {"cost", path.cost}};
        }
        printJson(out, json);
    } else {
        // One row per grid time; step_cost (J(n−1, n)) is empty at n = 0.
        out << "t,beta,mutual_information,impurity,step_cost" << (costs->monteCarlo ? ",step_cost_stderr" : "")
            << (args.has("dp") ? ",on_dp_path" : "") << '\n';
        size_t onPath = 0;
        for (int n = 0; n <= *steps; ++n) {
            out << csvNumber(curves.t[n]) << ',' << csvNumber(curves.beta[n]) << ','
                << csvNumber(curves.mutualInformation[n]) << ',' << csvNumber(curves.impurity[n])
                << ',' << (n > 0 ? csvNumber(stepCosts[n - 1]) : "");
            if (costs->monteCarlo) {
                out << ',' << (n > 0 ? csvNumber(stepErrors[n - 1]) : "");
            }
            if (args.has("dp")) {
                const bool on = onPath < path.nodes.size() && path.nodes[onPath] == n;
                onPath += on ? 1 : 0;
                out << ',' << (on ? 1 : 0);
            }
            out << '\n';
        }
        out << "# elbo," << csvNumber(elbo) << '\n';
        if (args.has("dp")) {
            out << "# dp_cost," << csvNumber(path.cost) << '\n';
        }
    }
    std::cout << out.str();
    return 0;
}

}  // namespace app::cli
