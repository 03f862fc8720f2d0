// SPDX-License-Identifier: MIT
// `diffuscope kernel` and `diffuscope categorical`: the categorical engine (docs/categorical.md)
// from the command line.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/model_file_errors.h"
#include "app/cli/output_format.h"
#include "app/cli/terminal_progress.h"
#include "core/categorical/information.h"
#include "core/categorical/masked_elbo.h"
#include "core/categorical/prior.h"
#include "core/categorical/reverse_kernel.h"
#include "core/data/categorical_table.h"
#include "core/io/csv.h"
#include "core/model/categorical_oracles.h"
#include "core/model/checkpoint.h"
#include "core/project/categorical_runs.h"
#include "core/project/categorical_setup.h"
#include "core/project/decoding_runs.h"
#include "core/project/project_file.h"
#include "core/trajectory/least_cost_path.h"

namespace app::cli {

namespace {
// decode --sweep-steps: one decoding run per value (the view's own sweep has at most 15).
constexpr size_t kMaxSweepSteps = 64;
}  // namespace
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

const Option kPi = required("pi", "P",
                            "the prior π: uniform:K, absorbing:K (the last of K classes is the "
                            "mask), masked:K (K data classes and a mask state K + 1) or p1,p2,…");

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
         valued("project", "FILE", "",
                "a project file: its categorical set-up (data, π, schedule, N, condition, model, "
                "DP trajectory) stands in for the options not given"),
         valued("condition", "C", "", "the condition to score (default: all conditions averaged)"),
         valued("dp", "K", "", "also the least-cost trajectory of K steps"),
         valued("samples", "M", "", "Monte Carlo step costs with M ≥ 2 samples (default: exact)"),
         seedOption("0", "the Monte Carlo seed"),
         threadsOption(),
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

namespace {

// What the printer needs of a set-up: the data, π, the grid and the condition scored (−1: all
// conditions averaged), and the DP's K (0: no DP shown).
struct CategoricalInputs {
    core::data::CategoricalTable table;
    core::Vector pi;
    core::categorical::TimeGrid grid;
    int condition = core::project::kAllConditions;
    int dp = 0;
};

// A --model file that is no model at all (a project's JSON) is said plainly.
core::Error modelError(const std::string& path, const core::Error& error) {
    if (error.field.rfind(path, 0) != 0) return error;
    return notACheckpoint("--model", path,
                          "--model expects oracle, a .safetensors checkpoint or a TorchScript .pt "
                          "network",
                          error, true);
}

// --schedule as the parameters' schedule: custom:FILE becomes the file's control points (the
// ends (0, 0) and (1, 1), which the curve adds itself, left out as the GUI leaves them out).
core::Status applySchedule(const std::string& spec, core::project::CategoricalParams& p) {
    using core::schedule::BetaCurveKind;
    const size_t colon = spec.find(':');
    const std::string id = spec.substr(0, colon);
    if (id == "custom" && colon != std::string::npos && colon + 1 < spec.size()) {
        // Checked (errors name the file's line) before its points are taken as they are written.
        const std::string path = spec.substr(colon + 1);
        if (auto curve = core::schedule::readCustomCurve(path); !curve) return curve.error();
        Result<core::io::CsvTable> csv = core::io::readCsv(path);
        if (!csv) return csv.error();
        const int tColumn = *core::io::findColumn(*csv, "t");
        const int betaColumn = *core::io::findColumn(*csv, "beta");
        p.schedule = BetaCurveKind::Custom;
        p.controlPoints.clear();
        for (size_t row = 0; row < csv->rows.size(); ++row) {
            const core::schedule::ControlPoint point{
                *core::io::fieldAsDouble(*csv, row, tColumn),
                *core::io::fieldAsDouble(*csv, row, betaColumn)};
            if (point.t > 0.0 && point.t < 1.0) p.controlPoints.push_back(point);
        }
        return {};
    }
    if (spec == "info-linear") {
        p.schedule = BetaCurveKind::InformationLinear;
        return {};
    }
    // linear, cosine and power:P, checked and named as the other commands check them.
    auto curve = core::schedule::parseBetaCurve(spec, {}, "--schedule");
    if (!curve) return curve.error();
    p.schedule = curve->kind();
    if (p.schedule == BetaCurveKind::Power)
        p.powerExponent = std::strtod(spec.c_str() + colon + 1, nullptr);
    return {};
}

// The options without --project as the core's parameters, the defaults as documented: all
// conditions averaged, the exact oracle, no DP.
// With stepsOptional (decode's --sweep-steps) --steps may be absent.
Result<core::project::CategoricalParams> paramsFromOptions(const Args& args, bool stepsOptional = false) {
    using namespace core::categorical;
    core::project::CategoricalParams p;
    Result<std::string> piSpec = args.require("pi");
    if (!piSpec) return piSpec.error();
    Result<core::Vector> pi = parsePrior(*piSpec, "--pi");
    if (!pi) return pi.error();
    Result<std::string> tablePath = args.require("table");
    if (!tablePath) return tablePath.error();
    // masked:K: the table's classes are 0..K − 1, and the process has the mask state K besides
    // (π's entries are then unused: uniform keeps them valid).
    const int maskedClasses = maskedPriorClasses(*piSpec);
    p.maskState = maskedClasses > 0;
    p.numClasses = p.maskState ? maskedClasses : static_cast<int>(pi->size());
    p.pi = p.maskState ? std::vector<double>(static_cast<size_t>(p.numClasses), 1.0 / p.numClasses)
                       : std::vector<double>(pi->data(), pi->data() + pi->size());
    // Read here for its conditions (the set-up reads it again).
    Result<core::data::CategoricalTable> table =
        core::data::readCategoricalTable(*tablePath, p.numClasses);
    if (!table) return table.error();
    p.dataSource = core::project::CategoricalData::CsvFile;
    p.csvPath = *tablePath;
    p.conditionNames = table->conditionNames;
    p.table.clear();
    p.condition = core::project::kAllConditions;
    if (args.has("condition")) {
        Result<int> condition = table->conditionIndex(args.get("condition"), "--condition");
        if (!condition) return condition.error();
        p.condition = *condition;
    }
    Result<int> steps = stepsOptional ? args.getBounded("steps", core::limits::kSteps, 1)
                                      : args.getBounded("steps", core::limits::kSteps);
    if (!steps) return steps.error();
    p.numSteps = *steps;
    p.trajectory = core::project::CategoricalTrajectory::Even;
    p.pathSteps = 1;  // the even path is not shown; --dp sets the DP's K
    Result<std::string> scheduleSpec = args.require("schedule");
    if (!scheduleSpec) return scheduleSpec.error();
    if (core::Status s = applySchedule(*scheduleSpec, p); !s) return s.error();
    p.model = args.get("model") == "oracle" ? "" : args.get("model");
    Result<long long> seed = args.getInt64("seed");
    if (!seed) return seed.error();
    p.seed = static_cast<uint64_t>(*seed);
    return p;
}

// decode --model NET with neither --table nor --project: the digits that a network with a mask
// state was trained on (its data_set digits:levels=L), under its schedule unless --schedule.
bool decodesModelDigits(const Args& args) {
    return !args.has("project") && !args.has("table") && args.has("model") && args.get("model") != "oracle";
}

Result<core::project::CategoricalParams> digitsParamsFromModel(const Args& args, bool stepsOptional) {
    const std::string path = args.get("model");
    auto loaded = core::model::loadMlpCheckpoint(path);
    if (!loaded) return modelError(path, loaded.error());
    const core::io::CheckpointInfo& info = loaded->info;
    const std::string prefix = "digits:levels=";
    // Strictly: a data_set "digits:levels=4abc" is not a digits network's (atoi read 4).
    int levels = 0;
    if (info.dataSet.rfind(prefix, 0) == 0) {
        auto parsed = parseBounded(info.dataSet.substr(prefix.size()), path + ": data_set",
                                   core::limits::kClasses);
        if (!parsed) return parsed.error();
        levels = *parsed;
    }
    if (!info.maskState || levels < 2 || info.numClasses != levels + 1) {
        return core::invalidArgument("--table", "",
                                     "needed unless --model is a digits network with a mask state "
                                     "(train --data digits:levels=L --pi masked:L); " + path + " has data_set " +
                                         (info.dataSet.empty() ? std::string("(none)") : info.dataSet));
    }
    core::project::CategoricalParams p = core::project::CategoricalParams{}.withDigits(levels);
    p.maskState = true;
    p.condition = core::project::kAllConditions;
    if (args.has("condition")) {
        const std::string name = args.get("condition");
        const auto named = std::find(p.conditionNames.begin(), p.conditionNames.end(), name);
        if (named == p.conditionNames.end()) {
            return core::invalidArgument("--condition", name, "the digits' conditions are the labels 0..9");
        }
        p.condition = static_cast<int>(named - p.conditionNames.begin());
    }
    Result<int> steps = stepsOptional ? args.getBounded("steps", core::limits::kSteps, 1)
                                      : args.getBounded("steps", core::limits::kSteps);
    if (!steps) return steps.error();
    p = p.withNumSteps(*steps);
    if (core::Status s = applySchedule(args.has("schedule") ? args.get("schedule") : info.schedule, p); !s) {
        return s.error();
    }
    p.model = path;
    return p;
}

// The project's categorical parameters with the options given on the command line applied.
Result<core::project::CategoricalParams> projectParams(const Args& args) {
    auto project = core::project::readProjectFile(args.get("project"));
    if (!project) return project.error();
    core::project::CategoricalParams p = project->categorical;
    if (args.has("pi")) {
        Result<core::Vector> pi = core::categorical::parsePrior(args.get("pi"), "--pi");
        if (!pi) return pi.error();
        // masked:K turns the project's mask state on (its π is then unused), anything else off.
        const int maskedClasses = core::categorical::maskedPriorClasses(args.get("pi"));
        const int dataClasses = maskedClasses > 0 ? maskedClasses : static_cast<int>(pi->size());
        if (dataClasses != p.numClasses) {
            return core::invalidArgument("--pi", args.get("pi"),
                                         "the project's data has K = " +
                                             std::to_string(p.numClasses) + " classes");
        }
        p.maskState = maskedClasses > 0;
        if (!p.maskState) p.pi.assign(pi->data(), pi->data() + pi->size());
    }
    if (args.has("schedule")) {
        if (core::Status s = applySchedule(args.get("schedule"), p); !s) return s.error();
    }
    if (args.has("steps")) {
        Result<int> steps = args.getBounded("steps", core::limits::kSteps);
        if (!steps) return steps.error();
        p = p.withNumSteps(*steps);
    }
    if (args.has("table")) {
        p.dataSource = core::project::CategoricalData::CsvFile;
        p.csvPath = args.get("table");
    }
    if (args.has("model")) {
        p.model = args.get("model") == "oracle" ? "" : args.get("model");
    }
    if (args.has("condition")) {
        // By the names the project gives its conditions (the GUI's labels).
        const std::string name = args.get("condition");
        const auto& names = p.conditionNames;
        const auto named = std::find(names.begin(), names.end(), name);
        if (named == names.end()) {
            return core::invalidArgument("--condition", name,
                                         core::data::noSuchCondition(names, "the project"));
        }
        p.condition = static_cast<int>(named - names.begin());
    }
    return p;
}

// What the printer needs of a set-up; the DP's K when `dp` (0: no DP shown).
CategoricalInputs inputsOf(const core::project::CategoricalSetup& setup, bool dp) {
    CategoricalInputs inputs;
    inputs.table = setup.table;
    inputs.pi = setup.pi;
    inputs.grid = setup.grid;
    inputs.condition = setup.params.condition;
    if (dp) inputs.dp = setup.params.pathSteps;
    return inputs;
}

// The step costs' two outputs, JSON or CSV (docs/conventions.md).
struct CategoricalResults {
    core::categorical::InformationCurves curves;
    core::categorical::DataEntropy entropy;  // H(X₀|C) and Σ_d H(X₀,d|C)
    std::vector<double> stepCosts, stepErrors;
    double elbo = 0.0, elboStderr = 0.0;
    bool monteCarlo = false;
    core::trajectory::LeastCostPath path;  // empty without a DP
    // With an absorbing π: −ELBO_∞ (docs/categorical.md#masked-diffusion), or why not.
    bool absorbing = false;
    std::optional<core::categorical::ContinuousElbo> continuousElbo;
    std::string continuousElboRefused;
};

void printCategorical(const CategoricalResults& r, const CategoricalInputs& in,
                      const std::string& format, long long samples, long long seed) {
    std::ostringstream out;
    const bool dp = !r.path.nodes.empty();
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
            json["samples"] = samples;
            json["seed"] = seed;
        }
        if (dp) {
            std::vector<double> times;
            for (int node : r.path.nodes) {
                times.push_back(in.grid.t[node]);
            }
            json["dp"] = {{"K", in.dp}, {"trajectory", times}, {"cost", r.path.cost}};
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
        for (int n = 0; n <= in.grid.numSteps(); ++n) {
            out << csvNumber(r.curves.t[n]) << ',' << csvNumber(r.curves.beta[n]) << ','
                << csvNumber(r.curves.mutualInformation[n]) << ','
                << csvNumber(r.curves.impurity[n]) << ','
                << (n > 0 ? csvNumber(r.stepCosts[n - 1]) : "");
            if (r.monteCarlo) {
                out << ',' << (n > 0 ? csvNumber(r.stepErrors[n - 1]) : "");
            }
            if (dp) {
                const bool on = onPath < r.path.nodes.size() && r.path.nodes[onPath] == n;
                onPath += on ? 1 : 0;
                out << ',' << (on ? 1 : 0);
            }
            out << '\n';
        }
        out << "# elbo," << csvNumber(r.elbo) << '\n';
        if (dp) {
            out << "# dp_cost," << csvNumber(r.path.cost) << '\n';
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

}  // namespace

namespace {

// --samples M (0 without it) and --threads T (all cores without it), checked.
Result<std::pair<long long, int>> samplesAndThreads(const Args& args) {
    Result<long long> samples =
        args.has("samples") ? args.getInt64("samples") : Result<long long>(0);
    if (!samples) return samples.error();
    if (*samples < 0 || (args.has("samples") && *samples < 2)) {
        return core::invalidArgument("--samples", args.get("samples"), "M must be ≥ 2");
    }
    Result<int> threads =
        threadCount(args);
    if (!threads) return threads.error();
    if (*threads < 1) {
        return core::invalidArgument("--threads", args.get("threads"), "must be ≥ 1");
    }
    return std::pair{*samples, *threads};
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
    auto setup = core::project::CategoricalSetup::build(params, core::project::fileSources(), true);
    if (!setup) {
        core::Error error = setup.error();
        if (args.has("model") && !params.model.empty()) error = modelError(params.model, error);
        if (error.field == "schedule") error.field = "--schedule";
        return fail(error);
    }
    if (core::Status valid = core::categorical::validateTimeGrid((*setup)->grid, "--schedule");
        !valid) {
        return fail(valid.error());
    }
    const bool dp = params.trajectory == core::project::CategoricalTrajectory::Dp;
    const CategoricalInputs in = inputsOf(**setup, dp);
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
    CategoricalResults r;
    r.curves = core::categorical::informationCurves(in.table, in.pi, in.grid, in.condition);
    r.entropy = core::categorical::dataEntropy(in.table, in.condition);
    r.monteCarlo = costs->costs.monteCarlo;
    double elboVariance = 0.0;
    for (int n = 1; n <= in.grid.numSteps(); ++n) {
        r.stepCosts.push_back(costs->costs.cost(n - 1, n));
        r.stepErrors.push_back(costs->costs.standardError(n - 1, n));
        elboVariance += r.stepErrors.back() * r.stepErrors.back();  // independent columns
    }
    r.elbo = costs->elboFull;
    r.elboStderr = std::sqrt(elboVariance);
    if (dp) {
        r.path.nodes = costs->dpNodes;
        r.path.cost = costs->elboDp;
    }
    r.absorbing = core::categorical::absorbingMaskClass(in.pi) >= 0;
    r.continuousElbo = costs->continuousElbo;
    r.continuousElboRefused = costs->maskedNote;
    printCategorical(r, in, format, costs->samples, static_cast<long long>(costs->seed));
    return 0;
}

}  // namespace

int runCategorical(const Args& args) {
    const std::string format = args.get("format");
    if (format != "json" && format != "csv") {
        return fail(core::makeError(core::ErrorCode::ParseError, "--format", format, "expected json or csv"));
    }
    // From the project (the options given override its values) or from the options alone.
    auto params = args.has("project") ? projectParams(args) : paramsFromOptions(args);
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

const CommandSpec& decodeSpec() {
    static const CommandSpec spec{
        "decode",
        "the output distribution of a decoding sampler of masked diffusion",
        "",
        {required("table", "T.csv", "the data table (columns x1..xD and p, optionally c)"),
         required("pi", "masked:K", "the prior: masked:K (K data classes and a mask state K + 1)"),
         required("schedule", "S", "β(t): linear, cosine, power:P, info-linear or custom:FILE"),
         valued("steps", "N", "", "the number of decoding steps (required without --sweep-steps)"),
         valued("order", "O", "ancestral",
                "ancestral, random, confidence, margin or entropy (which masked positions unmask)"),
         valued("values", "V", "sample", "sample, argmax or temperature:τ (how a value is drawn)"),
         valued("remask", "R", "none", "none, cap:η, rescale:η or conf (ReMDM; with --order ancestral)"),
         valued("gumbel", "float64|float32", "float64", "the precision of the Gumbel-max draws"),
         valued("sweep-steps", "N1,N2,…", "", "one result per N instead of --steps"),
         valued("project", "FILE", "",
                "a project file: its categorical set-up (data, π, schedule, N, condition, model, "
                "seed) stands in for the options not given"),
         valued("condition", "C", "", "the condition decoded (default: all conditions averaged)"),
         valued("samples", "M", "", "Monte Carlo with M ≥ 2 chains per condition (default: exact)"),
         seedOption("0", "the Monte Carlo seed"),
         threadsOption(),
         formatOption("json|csv", "json", "the output format"),
         valued("model", "M", "oracle",
                "the denoiser: oracle (the table's exact joint posterior), MODEL.safetensors or MODEL.pt")},
        "Without --samples the output distribution is propagated exactly ((K + 1)^D ≤ 2^24 partially\n"
        "masked sequences). JSON: exact, sampler, steps, tokens_per_step (step N first; expected\n"
        "counts for ancestral), entropy, kl_data_output, kl_output_data, total_variation,\n"
        "position_entropy (numbers, null when infinite; with --samples each is an object\n"
        "{\"value\": …, \"standard_error\": …}), row_probability (per table row), distribution\n"
        "(exact only: [{\"x\": […], \"p\": …}]). With --sweep-steps: {\"sweep\": [one per N]}.\n"
        "CSV: a header and one row per N. Details in docs/categorical.md (Decoding samplers).\n"
        "On the digits (a project on them, or --model a digits network with a mask state and no\n"
        "--table) with --samples the JSON adds accuracy, accuracy_standard_error and\n"
        "accuracy_per_condition: the share of decoded images that a nearest-class-mean classifier\n"
        "labels as their condition.\n"};
    return spec;
}

int runDecode(const Args& args) {
    using namespace core::categorical;
    const std::string format = args.get("format");
    if (format != "json" && format != "csv") {
        return fail(core::makeError(core::ErrorCode::ParseError, "--format", format, "expected json or csv"));
    }
    core::project::DecodeRequest request;
    Result<DecodeOrder> order = parseDecodeOrder(args.get("order"), "--order");
    if (!order) return fail(order.error());
    request.sampler.order = *order;
    if (core::Status s = parseDecodeValues(args.get("values"), request.sampler, "--values"); !s) return fail(s.error());
    if (core::Status s = parseDecodeRemask(args.get("remask"), request.sampler, "--remask"); !s) return fail(s.error());
    Result<GumbelPrecision> gumbel = parseGumbelPrecision(args.get("gumbel"), "--gumbel");
    if (!gumbel) return fail(gumbel.error());
    request.sampler.gumbel = *gumbel;
    if (core::Status s = validateDecodingSampler(request.sampler); !s) return fail(s.error());
    std::vector<int> sweep;
    if (args.has("sweep-steps")) {
        std::stringstream in(args.get("sweep-steps"));
        std::string item;
        while (std::getline(in, item, ',')) {
            Result<int> n = parseBounded(item, "--sweep-steps", core::limits::kSteps);
            if (!n) {
                core::Error error = n.error();
                error.value = args.get("sweep-steps");
                return fail(error);
            }
            sweep.push_back(*n);
            // Each N is a whole decoding run: the list is bounded before any of them starts.
            if (sweep.size() > kMaxSweepSteps) {
                const std::string list = args.get("sweep-steps");
                const auto count = std::count(list.begin(), list.end(), ',') + 1;
                return fail(core::invalidArgument("--sweep-steps", std::to_string(count) + " values",
                                                  "at most " + std::to_string(kMaxSweepSteps) +
                                                      " values of N"));
            }
        }
        if (sweep.empty()) return fail(core::invalidArgument("--sweep-steps", args.get("sweep-steps"), "no N given"));
        if (args.has("steps")) {
            return fail(core::invalidArgument("--steps", args.get("steps"),
                                              "not used beside --sweep-steps, which gives every N; "
                                              "give one of them"));
        }
    }
    auto params = args.has("project")        ? projectParams(args)
                  : decodesModelDigits(args) ? digitsParamsFromModel(args, !sweep.empty())
                                             : paramsFromOptions(args, !sweep.empty());
    if (!params) return fail(params.error());
    if (args.has("seed")) {
        Result<long long> seed = args.getInt64("seed");
        if (!seed) return fail(seed.error());
        params->seed = static_cast<uint64_t>(*seed);
    }
    auto run = samplesAndThreads(args);
    if (!run) return fail(run.error());
    request.samples = run->first;
    auto setup = core::project::CategoricalSetup::build(*params, core::project::fileSources(), true);
    if (!setup) {
        core::Error error = setup.error();
        if (args.has("model") && !params->model.empty()) error = modelError(params->model, error);
        if (error.field == "schedule") error.field = "--schedule";
        return fail(error);
    }
    TerminalProgress terminal;
    core::Progress progress(&terminal, "decoding");
    // The core names its inputs; the command line names its options.
    auto rename = [&](core::Error error) {
        if (error.field == "pi") {
            error.field = "--pi";
            error.value = args.has("pi") ? args.get("pi") : "(the project's)";
        } else if (error.field == "steps") {
            error.field = args.has("sweep-steps") ? "--sweep-steps" : "--steps";
        } else if (error.field == "samples") {
            error.field = "--samples";
        } else if (error.field == "condition") {
            error.field = "--condition";
        }
        return error;
    };
    // On the digits with Monte Carlo, every chain's image is classified too (accuracy).
    std::shared_ptr<const core::data::Digits> digits;
    if (core::project::decodesDigits(**setup) && request.samples > 0) {
        auto read = core::project::fileSources().digits();
        if (!read) return fail(read.error());
        digits = *read;
    }
    auto sweepRun = core::project::projectDecodeSweep(
        **setup, request, sweep.empty() ? std::vector<int>{params->numSteps} : sweep,
        run->second, &progress, digits.get());
    if (!sweepRun) return fail(rename(sweepRun.error()));
    const std::vector<DecodeResult>& results = sweepRun->results;
    const std::vector<core::project::DigitsDecodeMeasures>& digitsMeasures = sweepRun->digits;
    std::ostringstream out;
    if (format == "json") {
        auto one = [&](size_t i) {
            auto json = core::project::decodeResultJson(results[i]);
            if (i < digitsMeasures.size()) core::project::addDigitsMeasuresJson(digitsMeasures[i], json);
            return json;
        };
        if (sweep.empty()) {
            printJson(out, one(0));
        } else {
            nlohmann::ordered_json all;
            all["sweep"] = nlohmann::ordered_json::array();
            for (size_t i = 0; i < results.size(); ++i) all["sweep"].push_back(one(i));
            printJson(out, all);
        }
    } else {
        out << core::project::decodeCsvHeader() << '\n';
        for (const DecodeResult& r : results) out << core::project::decodeCsvRow(r) << '\n';
    }
    std::cout << out.str();
    return 0;
}

}  // namespace app::cli
