// SPDX-License-Identifier: MIT
// The Analytic-DPM subcommands (docs/gaussian.md): gamma, variance, nll, sample.
#include <iostream>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/output_format.h"
#include "app/cli/sample_quality_json.h"
#include "app/cli/terminal_progress.h"
#include "core/data/bundled_files.h"
#include "core/data/gaussian_data.h"
#include "core/gaussian/gamma.h"
#include "core/gaussian/nll.h"
#include "core/gaussian/sampler.h"
#include "core/gaussian/spacing.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/gaussian/variance.h"
#include "core/io/csv.h"
#include "core/io/gamma_file.h"
#include "core/model/checkpoint.h"
#include "core/model/oracle_specs.h"
#include "core/project/gaussian_setup.h"
#include "core/project/project_file.h"
#include "core/schedule/gaussian_schedule.h"

namespace app::cli {
namespace {

using core::Result;

// Shared options of the four subcommands.
struct Common {
    core::schedule::GaussianSchedule schedule;
    std::shared_ptr<core::model::GaussianOracle> oracle;  // the data (and the exact model)
    // The ε-model: the oracle, or a network from --model FILE.safetensors.
    std::shared_ptr<const core::model::GaussianEpsModel> model;
    // The data Γ is estimated on (--gamma-data; default: the oracle's): a network is evaluated
    // on held-out data but its Γ comes from the training data, as in the paper.
    std::shared_ptr<core::model::GaussianOracle> gammaData;
    bool exactModel = true;  // the denoising Γ estimator is valid for exact oracles only
    // nll and sample: --estimator score|denoising|error; by default denoising for the oracle,
    // error for a network (with score, a Monte Carlo Γ in low dimension exceeds its bound at
    // hundreds of timesteps and the DP trajectory collapses through them).
    core::gaussian::GammaEstimator gammaEstimator = core::gaussian::GammaEstimator::Denoising;
    core::gaussian::DataRange range;
    int threads = 1;
};

Result<core::schedule::GaussianSchedule> loadSchedule(const Args& args) {
    Result<int> steps = args.getBounded("steps", core::limits::kSteps);
    if (!steps) {
        return steps.error();
    }
    return core::schedule::gaussianScheduleFromSpec(args.get("schedule"), *steps);
}

Result<core::gaussian::DataRange> loadRange(const Args& args) {
    Result<std::vector<double>> values = parseDoubleList(args.get("data-range"), "--data-range");
    if (!values) {
        return values.error();
    }
    if (values->size() != 2) {
        return core::invalidArgument("--data-range", args.get("data-range"), "expected A,B");
    }
    const core::gaussian::DataRange range{(*values)[0], (*values)[1]};
    if (core::Status s = range.validate(); !s) {
        return s.error();
    }
    return range;
}

// The Gaussian set-up the options describe, built by the core as the GUI builds it: the
// schedule, the data, the model (fit-checked; a model that cannot be used is an error here)
// and the Γ estimator.
Result<core::project::GaussianSetup> buildSetup(const Args& args, int numSteps) {
    Result<std::string> data = args.require("data");
    if (!data) {
        return data.error();
    }
    core::project::GaussianParams params;
    params.schedule = args.get("schedule");
    params.numSteps = numSteps;
    params.data = *data;
    const std::string model = args.get("model");
    params.model = model == "oracle" ? "" : model;
    auto estimator = core::project::parseChoice(core::project::kGammaEstimators,
                                                args.get("estimator"), "--estimator");
    if (!estimator) {
        return estimator.error();
    }
    params.estimator = *estimator;
    auto setup = core::project::GaussianSetup::build(
        params, core::project::fileSources(args.get("digits")), true);
    if (!setup && setup.error().field == "estimator") {
        core::Error error = setup.error();
        error.field = "--estimator";
        return error;
    }
    return setup;
}

Result<Common> loadCommon(const Args& args, bool needsData) {
    Common common;
    Result<core::schedule::GaussianSchedule> schedule = loadSchedule(args);
    if (!schedule) {
        return schedule.error();
    }
    common.schedule = std::move(schedule).value();
    Result<core::gaussian::DataRange> range = loadRange(args);
    if (!range) {
        return range.error();
    }
    common.range = *range;
    Result<int> threads = args.getBounded("threads", core::limits::kThreads);
    if (!threads) {
        return threads.error();
    }
    if (*threads < 1) {
        return core::invalidArgument("--threads", args.get("threads"), "must be at least 1");
    }
    common.threads = *threads;
    if (needsData) {
        Result<core::project::GaussianSetup> setup = buildSetup(args, common.schedule.numSteps());
        if (!setup) {
            return setup.error();
        }
        common.oracle = setup->data;
        common.model = setup->model;
        common.exactModel = !setup->usesNetwork;
        common.gammaEstimator = setup->estimator;
        common.gammaData = common.oracle;
        if (args.has("gamma-data")) {
            auto gammaData = gaussianDataFromSpec(args, args.get("gamma-data"));
            if (!gammaData) {
                return gammaData.error();
            }
            const core::model::GaussianDataSampler& a = **gammaData;
            const core::model::GaussianDataSampler& b = *common.oracle;
            if (a.dimension() != b.dimension()) {
                return core::invalidArgument("--gamma-data", args.get("gamma-data"),
                                             "its dimension differs from --data's");
            }
            common.gammaData = *gammaData;
        }
    }
    return common;
}

// Γ on all N timesteps from the oracle (M samples, Denoising estimator: exact for oracles).
Result<std::vector<double>> oracleGamma(const Common& common,
                                        int samples,
                                        uint64_t seed,
                                        const std::vector<int>& timesteps) {
    TerminalProgress observer;
    core::Progress progress(&observer, "gamma");
    core::gaussian::GammaParams params{.numSamples = samples,
                                       .seed = seed,
                                       .timesteps = timesteps,
                                       .estimator = common.gammaEstimator,
                                       .parallel = {.numThreads = common.threads}};
    Result<core::gaussian::GammaEstimate> estimate = core::gaussian::estimateGamma(
        *common.model, *common.gammaData, common.schedule, params, &progress);
    if (!estimate) {
        return estimate.error();
    }
    return core::gaussian::gammaTable(*estimate, common.schedule.numSteps());
}

Result<core::gaussian::DpVariant> parseDpVariant(const std::string& text) {
    if (text == "clipped") {
        return core::gaussian::DpVariant::Clipped;
    }
    if (text == "segmented") {
        return core::gaussian::DpVariant::Segmented;
    }
    return core::invalidArgument("--dp-variant", text, "expected clipped or segmented");
}

// Γ for a trajectory spec: needed on all n for dp:K, on the trajectory's n otherwise.
Result<std::vector<double>> gammaForTrajectory(const Common& common,
                                               const std::string& spec,
                                               int samples,
                                               uint64_t seed) {
    std::vector<int> timesteps;
    if (spec.rfind("dp:", 0) != 0) {
        Result<core::gaussian::ResolvedTrajectory> t =
            core::gaussian::resolveTrajectory(spec, common.schedule, nullptr);
        if (!t) {
            return t.error();
        }
        timesteps = t->timesteps;
        if (timesteps.back() != common.schedule.numSteps()) {
            timesteps.push_back(common.schedule.numSteps());  // gammaTable needs n = N
        }
        if (timesteps.front() != 1) {
            timesteps.insert(timesteps.begin(), 1);  // and n = 1
        }
    }
    return oracleGamma(common, samples, seed, timesteps);
}

// Γ (when the variance or a dp: trajectory needs it) and the resolved trajectory: the shared
// first half of `nll` and `sample`. gamma stays empty when not needed.
struct TrajectoryWithGamma {
    std::vector<double> gamma;
    core::gaussian::ResolvedTrajectory trajectory;
};

Result<TrajectoryWithGamma> resolveWithGamma(const Common& common,
                                             const std::string& spec,
                                             bool varianceNeedsGamma,
                                             int gammaSamples,
                                             uint64_t gammaSeed,
                                             core::gaussian::DpVariant variant) {
    TrajectoryWithGamma result;
    if (varianceNeedsGamma || spec.rfind("dp:", 0) == 0) {
        Result<std::vector<double>> g = gammaForTrajectory(common, spec, gammaSamples, gammaSeed);
        if (!g) {
            return g.error();
        }
        result.gamma = std::move(g).value();
    }
    core::gaussian::DpOptions options{.variant = variant,
                                      .range = common.range,
                                      .parallel = {.numThreads = common.threads}};
    Result<core::gaussian::ResolvedTrajectory> trajectory = core::gaussian::resolveTrajectory(
        spec, common.schedule, result.gamma.empty() ? nullptr : &result.gamma, options);
    if (!trajectory) {
        return trajectory.error();
    }
    result.trajectory = std::move(trajectory).value();
    return result;
}

// variance's output: one row or object per pair (s, t), in sampling order.
void printVariances(const std::string& format,
                    const core::gaussian::ResolvedTrajectory& trajectory,
                    const std::vector<core::gaussian::PairVariance>& pairs,
                    double eta,
                    core::io::GammaKind kind,
                    const std::vector<int>& over,
                    int numSteps) {
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
    if (const std::string ends = core::gaussian::trajectoryEndsNote(trajectory.timesteps, numSteps);
        !ends.empty()) {
        json["ends_note"] = ends;
    }
    json["gamma_over_bound"] = over;
    printJson(std::cout, json);
}

// --project FILE: the project's Gaussian settings stand in for the options not given on the
// command line (which override them). `samplesKey` is the option that holds Γ's M.
Result<Args> withProject(const Args& args, const std::string& samplesKey) {
    if (!args.has("project")) {
        return args;
    }
    auto project = core::project::readProjectFile(args.get("project"));
    if (!project) {
        return project.error();
    }
    const core::project::GaussianParams& g = project->gaussian;
    Args out = args;
    out.setProjectValues(
        {{"schedule", g.schedule},
         {"steps", std::to_string(g.numSteps)},
         {"data", g.data},
         {"model", g.model.empty() ? "oracle" : g.model},
         {"estimator", core::project::choiceId(core::project::kGammaEstimators, g.estimator)},
         {"trajectory", g.trajectorySpec()},
         {"dp-variant", core::project::choiceId(core::project::kDpVariants, g.dpVariant)},
         {samplesKey, std::to_string(g.gammaSamples)},
         {"seed", std::to_string(g.seed)},
         {"sampler", core::project::choiceId(core::project::kSamplers, g.sampler)}});
    return out;
}

// The options the four subcommands share (loadCommon reads them).
const Option kData = required("data", "D", "the data, see below");
const Option kModel =
    valued("model", "M", "oracle", "the ε-model: oracle (exact for D), MODEL.safetensors or MODEL.pt (TorchScript)");
const Option kDigits =
    valued("digits", "FILE", "", "the digits file for --data digits (default: the bundled copy)");
const Option kSchedule =
    valued("schedule", "S", "linear",
           "β_n: linear, cosine, scaled-linear, sigmoid or csv:FILE, each optionally followed by "
           ",zero-snr (ᾱ_N = 0)");
const Option kSteps = valued("steps", "N", "1000", "the number of timesteps N");
const Option kThreads = valued("threads", "T", "1", "worker threads");
const Option kDataRange = valued(
    "data-range", "A,B", "-1,1", "the data's range [a, b] (the variance bounds, the decoder)");
const Option kTrajectory = required(
    "trajectory", "T", "the timesteps: even:K, quadratic:K, list:n1,n2,…, dp:K (the DP on Γ), or a "
    "diffusers/EDM/DPM-Solver spacing: linspace:K, leading:K[,offset=O], trailing:K, "
    "logsnr:K, karras:K[,rho=ρ]");
const Option kDpVariant =
    valued("dp-variant", "clipped|segmented", "clipped", "the DP's cost for dp:K");
const Option kEstimator = valued("estimator", "auto|score|denoising|error", "auto",
                                 "Γ's estimator (auto: denoising for the oracle, error for a "
                                 "network; denoising: the oracle only)");
const Option kProject = valued("project", "FILE",  "",
                               "a project file: its Gaussian settings stand in for the options "
                               "not given (schedule, steps, data, model, estimator, trajectory, "
                               "Γ samples, seed, sampler)");
const Option kClipFirst = valued(
    "clip-first", "Y", "0", "cap the first step's variance at (y·(2/255)·√(π/2))² (0: no cap)");
// nll and sample estimate Γ, when they need it, with the next seed.
const Option kSeed = valued("seed", "X", "0", "the seed (Γ uses seed + 1)");
const Option kGammaSamples = valued("gamma-samples", "M", "100", "samples per timestep for Γ");

const char* kDataNotes =
    "D is toy:moons|checkerboard|swissroll|ring[,n=,seed=], gaussian:d=D,s=S, gmm:FILE.json,\n"
    "mixture:w,mx,my,s;… (2-D), csv:FILE or digits[:test]. The formulas and defaults are in\n"
    "docs/gaussian.md, the output's keys and columns in docs/conventions.md.\n";

}  // namespace

const CommandSpec& gammaSpec() {
    static const CommandSpec spec{
        "gamma",
        "estimate Γ_n (the score's mean square) for every timestep and write it",
        "",
        {kDigits, kData, kModel, kSchedule, kSteps,
         valued("samples", "M", "100", "samples per timestep"),
         valued("seed", "X", "0", "the seed"),
         required("out", "FILE",
                  "FILE.csv (Γ) or FILE.npy (ms_eps, as the paper's code writes it)"),
         kThreads, kEstimator, kDataRange, kProject},
        kDataNotes};
    return spec;
}

const CommandSpec& varianceSpec() {
    static const CommandSpec spec{
        "variance",
        "the optimal reverse variances along a trajectory, from a Γ file",
        "",
        {kSchedule, kSteps,
         required("gamma", "FILE", "Γ as written by `diffuscope gamma` (.csv or .npy)"),
         valued("gamma-kind", "gamma|ms_eps", "",
                "what the file holds (default: a CSV's header; ms_eps for .npy)"),
         valued("forward", "ddpm|ddim|eta:V", "ddpm", "the forward process (η = 1, 0 or V)"),
         kTrajectory, kDpVariant, kDataRange, kClipFirst,
         valued("format", "json|csv", "json", "the output format"), kThreads, kProject},
        "The formulas and defaults are in docs/gaussian.md, the output's keys and columns in\n"
        "docs/conventions.md.\n"};
    return spec;
}

const CommandSpec& nllSpec() {
    static const CommandSpec spec{
        "nll",
        "the negative ELBO in bits/dim along a trajectory",
        "",
        {kDigits, kData, kModel, kSchedule, kSteps, kTrajectory,
         valued("variance", "analytic|small|large", "analytic", "the reverse variance"),
         valued("levels", "L", "256", "the decoder's number of levels"),
         valued("samples", "M", "1000", "data points averaged"), kGammaSamples,
         valued("gamma-data", "D", "", "the data Γ is estimated on (default: --data)"), kEstimator,
         kSeed,
         valued("format", "json", "json", "the output format (nll writes json)"), kThreads,
         kDataRange, kDpVariant, kProject},
        kDataNotes};
    return spec;
}

const CommandSpec& sampleSpec() {
    static const CommandSpec spec{
        "sample",
        "draw samples with a reverse sampler along a trajectory and write them as CSV",
        "",
        {kDigits, kData, kModel, kSchedule, kSteps,
         valued("sampler", "S", "analytic-ddpm",
                "ddpm, ddim, analytic-ddpm, analytic-ddim, or the deterministic ODE solvers "
                "dpm-solver-1 (= ddim with η = 0), dpm-solver++2m, dpm-solver++3m"),
         kTrajectory, valued("count", "B", "16", "the number of samples"),
         kSeed,
         required("out", "FILE", "the CSV file (columns x1..xd)"),
         valued("eta", "V", "0", "η of the DDIM samplers (the DPM-Solvers ignore it)"), kClipFirst,
         valued("variance", "small|large", "small", "the DDPM sampler's variance (β̃ or β)"),
         kGammaSamples, flag("frames", "write every step's samples, with columns frame,t,sample"),
         valued("format", "csv|json", "csv",
                "csv: write the file and say so; json: write it and print the run and the "
                "samples' quality against held-out data of --data"),
         kEstimator, kThreads, kDataRange, kDpVariant, kProject},
        kDataNotes};
    return spec;
}

Result<std::shared_ptr<core::model::GaussianOracle>> gaussianDataFromSpec(const Args& args,
                                                                          const std::string& spec) {
    return core::project::gaussianData(spec, core::project::fileSources(args.get("digits")));
}

// `gamma` on the options with --project's settings filled in (runGamma below).
static int gammaCommand(const Args& args) {
    Result<Common> common = loadCommon(args, true);
    if (!common) {
        return fail(common.error());
    }
    Result<std::string> out = args.require("out");
    if (!out) {
        return fail(out.error());
    }
    if (core::Status writable = core::io::checkWritablePath(*out); !writable) {
        return fail(writable.error());
    }
    Result<int> samples = args.getBounded("samples", core::limits::kGammaSamples);
    Result<long long> seed = args.getInt64("seed");
    if (!samples || !seed) {
        return fail(!samples ? samples.error() : seed.error());
    }
    TerminalProgress observer;
    core::Progress progress(&observer, "gamma");
    core::gaussian::GammaParams params{
        .numSamples = *samples,
        .seed = static_cast<uint64_t>(*seed),
        .estimator = common->gammaEstimator,
        .parallel = {.numThreads = common->threads}};
    Result<core::gaussian::GammaEstimate> estimate = core::gaussian::estimateGamma(
        *common->model, *common->oracle, common->schedule, params, &progress);
    if (!estimate) {
        return fail(estimate.error());
    }
    Result<std::vector<double>> table = core::gaussian::gammaTable(*estimate,
                                                                   common->schedule.numSteps());
    if (!table) {
        return fail(table.error());
    }
    // NPY holds ms_eps as the paper's code writes it; CSV holds Γ.
    const bool npy = out->size() >= 4 && out->compare(out->size() - 4, 4, ".npy") == 0;
    const core::Status written =
        npy ? core::io::writeGammaNpy(*out, core::gaussian::msEpsFromGamma(*table,
                                                                           common->schedule))
            : core::io::writeGammaCsv(*out, *table, core::io::GammaKind::Gamma);
    if (!written) {
        return fail(written.error());
    }
    std::cout << "wrote " << *out << ": " << (npy ? "ms_eps" : "gamma") << " for N = "
              << common->schedule.numSteps() << ", M = " << *samples << '\n';
    return 0;
}

// `variance` on the options with --project's settings filled in (runVariance below).
static int varianceCommand(const Args& args) {
    Result<Common> common = loadCommon(args, false);
    if (!common) {
        return fail(common.error());
    }
    Result<std::string> gammaPath = args.require("gamma");
    Result<std::string> spec = args.require("trajectory");
    if (!gammaPath || !spec) {
        return fail(!gammaPath ? gammaPath.error() : spec.error());
    }
    const std::string kindName = args.get("gamma-kind");
    core::io::GammaKind kind = core::io::GammaKind::MsEps;  // NPY default: the paper's layout
    const core::io::GammaKind* required = nullptr;
    if (!kindName.empty()) {
        if (kindName != "gamma" && kindName != "ms_eps") {
            return fail(core::invalidArgument("--gamma-kind", kindName, "expected gamma or ms_eps"));
        }
        kind = kindName == "gamma" ? core::io::GammaKind::Gamma : core::io::GammaKind::MsEps;
        required = &kind;
    }
    Result<core::io::GammaFile> file =
        core::io::readGammaFile(*gammaPath, common->schedule.numSteps(), kind, required);
    if (!file) {
        return fail(file.error());
    }
    const std::vector<double> gamma =
        file->kind == core::io::GammaKind::Gamma
            ? file->values
            : core::gaussian::gammaFromMsEps(file->values, common->schedule);
    // --forward ddpm|ddim|eta:V
    const std::string forwardText = args.get("forward");
    core::gaussian::ForwardProcess forward{1.0};
    if (forwardText == "ddim") {
        forward.eta = 0.0;
    } else if (forwardText.rfind("eta:", 0) == 0) {
        Result<double> eta = parseDouble(forwardText.substr(4), "--forward");
        if (!eta) {
            return fail(eta.error());
        }
        forward.eta = *eta;
    } else if (forwardText != "ddpm") {
        return fail(core::invalidArgument("--forward", forwardText, "expected ddpm, ddim or eta:V"));
    }
    if (core::Status s = forward.validate(); !s) {
        return fail(s.error());
    }
    Result<core::gaussian::DpVariant> variant = parseDpVariant(args.get("dp-variant"));
    if (!variant) {
        return fail(variant.error());
    }
    Result<double> clipFirst = args.getDouble("clip-first");
    if (!clipFirst || *clipFirst < 0.0) {
        return fail(!clipFirst ? clipFirst.error()
                               : core::invalidArgument("--clip-first", args.get("clip-first"),
                                                       "y must be ≥ 0"));
    }
    const std::string format = args.get("format");
    if (format != "json" && format != "csv") {
        return fail(core::invalidArgument("--format", format, "expected json or csv"));
    }
    core::gaussian::DpOptions options{.variant = *variant,
                                      .range = common->range,
                                      .parallel = {.numThreads = common->threads}};
    TerminalProgress observer;
    core::Progress progress(&observer, "trajectory");
    Result<core::gaussian::ResolvedTrajectory> trajectory =
        core::gaussian::resolveTrajectory(*spec, common->schedule, &gamma, options, &progress);
    if (!trajectory) {
        return fail(trajectory.error());
    }
    Result<std::vector<core::gaussian::PairVariance>> pairs = core::gaussian::trajectoryVariances(
        common->schedule, gamma, trajectory->timesteps, forward, common->range);
    if (!pairs) {
        return fail(pairs.error());
    }
    if (*clipFirst > 0.0 && !pairs->empty()) {
        pairs->back().sigma2 =
            std::min(pairs->back().sigma2, core::gaussian::firstPairClipThreshold(*clipFirst));
    }
    const std::vector<int> over = core::gaussian::gammaOverBound(common->schedule, gamma);
    if (!trajectory->note.empty()) {
        std::cerr << "note: " << trajectory->note << '\n';
    }
    if (!over.empty()) {
        std::cerr << "warning: β̄_nΓ_n > 1 at " << over.size() << " timesteps (first n = "
                  << over.front() << "); see gamma_over_bound\n";
    }
    const std::string ends =
        core::gaussian::trajectoryEndsNote(trajectory->timesteps, common->schedule.numSteps());
    if (format == "csv" && !ends.empty()) {
        std::cerr << "note: " << ends << '\n';
    }
    printVariances(format, *trajectory, *pairs, forward.eta, file->kind, over,
                   common->schedule.numSteps());
    return 0;
}

// `nll` on the options with --project's settings filled in (runNll below).
static int nllCommand(const Args& args) {
    Result<Common> common = loadCommon(args, true);
    if (!common) {
        return fail(common.error());
    }
    Result<std::string> spec = args.require("trajectory");
    if (!spec) {
        return fail(spec.error());
    }
    Result<int> samples = args.getBounded("samples", core::limits::kSamples);
    Result<int> gammaSamples = args.getBounded("gamma-samples", core::limits::kGammaSamples);
    Result<int> levels = args.getBounded("levels", core::limits::kLevels);
    Result<long long> seed = args.getInt64("seed");
    if (!samples || !gammaSamples || !levels || !seed) {
        return fail(!samples        ? samples.error()
                    : !gammaSamples ? gammaSamples.error()
                    : !levels       ? levels.error()
                                    : seed.error());
    }
    const std::string varianceName = args.get("variance");
    core::gaussian::NllVariance variance = core::gaussian::NllVariance::Analytic;
    if (varianceName == "small") {
        variance = core::gaussian::NllVariance::Small;
    } else if (varianceName == "large") {
        variance = core::gaussian::NllVariance::Large;
    } else if (varianceName != "analytic") {
        return fail(core::invalidArgument("--variance", varianceName,
                                          "expected analytic, small or large"));
    }
    if (args.get("format") != "json") {
        return fail(core::invalidArgument("--format", args.get("format"), "nll writes json"));
    }
    Result<core::gaussian::DpVariant> variant = parseDpVariant(args.get("dp-variant"));
    if (!variant) {
        return fail(variant.error());
    }
    Result<TrajectoryWithGamma> resolved =
        resolveWithGamma(*common, *spec, variance == core::gaussian::NllVariance::Analytic,
                         *gammaSamples, static_cast<uint64_t>(*seed) + 1, *variant);
    if (!resolved) {
        return fail(resolved.error());
    }
    const std::vector<double>& gamma = resolved->gamma;
    const core::gaussian::ResolvedTrajectory* trajectory = &resolved->trajectory;
    TerminalProgress observer;
    core::Progress progress(&observer, "nll");
    core::gaussian::NllParams params{.variance = variance,
                                     .levels = *levels,
                                     .range = common->range,
                                     .numSamples = *samples,
                                     .seed = static_cast<uint64_t>(*seed),
                                     .parallel = {.numThreads = common->threads}};
    Result<core::gaussian::NllResult> nll =
        core::gaussian::negativeElbo(*common->model, *common->oracle, common->schedule, gamma,
                                     trajectory->timesteps, params, &progress);
    if (!nll) {
        return fail(nll.error());
    }
    nlohmann::ordered_json json;
    json["bpd"] = nll->bitsPerDim;
    json["standard_error"] = nll->standardError;
    json["variance"] = varianceName;
    json["trajectory"] = trajectory->timesteps;
    json["prior"] = nll->prior.bitsPerDim;
    json["decoder"] = nll->decoder.bitsPerDim;
    json["decoder_variance"] =
        core::gaussian::decoderVariance(common->schedule, trajectory->timesteps);
    if (!trajectory->note.empty()) {
        json["note"] = trajectory->note;
    }
    if (const std::string ends = core::gaussian::trajectoryEndsNote(
            trajectory->timesteps, common->schedule.numSteps());
        !ends.empty()) {
        json["ends_note"] = ends;
    }
    json["terms"] = nlohmann::ordered_json::array();
    for (const auto& term : nll->pairs) {
        json["terms"].push_back({{"s", term.s}, {"t", term.t}, {"bpd", term.bitsPerDim}});
    }
    printJson(std::cout, json);
    return 0;
}

// The samples as CSV, one row per sample (x1..xd); with frames, every frame with its timestep.
static std::string samplesCsv(const core::gaussian::SampleResult& result, bool frames) {
    std::ostringstream text;
    const int d = static_cast<int>(result.samples.rows());
    if (frames) {
        text << "frame,t,sample";
    }
    for (int i = 0; i < d; ++i) {
        text << (frames || i > 0 ? "," : "") << 'x' << (i + 1);
    }
    text << '\n';
    auto writeMatrix = [&](const core::Matrix& m, int frame, int t) {
        for (Eigen::Index b = 0; b < m.cols(); ++b) {
            if (frames) {
                text << frame << ',' << t << ',' << b;
            }
            for (int i = 0; i < d; ++i) {
                text << (frames || i > 0 ? "," : "") << csvNumber(m(i, b));
            }
            text << '\n';
        }
    };
    if (frames) {
        for (size_t f = 0; f < result.frames.size(); ++f) {
            writeMatrix(result.frames[f], static_cast<int>(f), result.frameSteps[f]);
        }
    } else {
        writeMatrix(result.samples, 0, 0);
    }
    return text.str();
}

// What `sample --format json` prints: the run, and the final samples' quality against the
// held-out data of --data (null with a note when there are none, as for csv: data).
static nlohmann::ordered_json sampleJson(const Args& args, const core::Matrix& samples,
                                         const std::vector<int>& timesteps, long long seed,
                                         const std::string& out, int threads) {
    nlohmann::ordered_json json;
    json["sampler"] = args.get("sampler");
    json["trajectory"] = timesteps;
    json["count"] = samples.cols();
    json["seed"] = seed;
    json["out"] = out;
    const std::string data = args.get("data");
    if (data.rfind("csv:", 0) == 0) {
        json["quality"] = nullptr;
        json["quality_note"] = "a csv: data set has no held-out split to compare the samples with";
        return json;
    }
    Result<core::evaluation::SampleQuality> quality = core::evaluation::sampleQuality(
        samples, data, static_cast<uint64_t>(seed), core::project::fileSources(args.get("digits")),
        {.numThreads = threads});
    if (quality) {
        json["quality"] = sampleQualityJson(*quality);
    } else {
        json["quality"] = nullptr;
        json["quality_note"] = quality.error().toString();
    }
    return json;
}

// `sample` on the options with --project's settings filled in (runSample below).
static int sampleCommand(const Args& args) {
    Result<Common> common = loadCommon(args, true);
    if (!common) {
        return fail(common.error());
    }
    Result<std::string> spec = args.require("trajectory");
    Result<std::string> out = args.require("out");
    if (!spec || !out) {
        return fail(!spec ? spec.error() : out.error());
    }
    Result<core::gaussian::SamplerKind> kind =
        core::gaussian::parseSamplerKind(args.get("sampler"));
    if (!kind) {
        return fail(kind.error());
    }
    Result<int> count = args.getBounded("count", core::limits::kParticles);
    Result<long long> seed = args.getInt64("seed");
    Result<double> eta = args.getDouble("eta");
    Result<double> clipFirst = args.getDouble("clip-first");
    Result<int> gammaSamples = args.getBounded("gamma-samples", core::limits::kGammaSamples);
    if (!count || !seed || !eta || !clipFirst || !gammaSamples) {
        return fail(!count ? count.error()
                    : !seed ? seed.error()
                    : !eta  ? eta.error()
                    : !clipFirst ? clipFirst.error()
                                 : gammaSamples.error());
    }
    const std::string varianceName = args.get("variance");
    if (varianceName != "small" && varianceName != "large") {
        return fail(core::invalidArgument("--variance", varianceName, "expected small or large"));
    }
    const std::string format = args.get("format");
    if (format != "csv" && format != "json") {
        return fail(core::invalidArgument("--format", format, "expected csv or json"));
    }
    Result<core::gaussian::DpVariant> variant = parseDpVariant(args.get("dp-variant"));
    if (!variant) {
        return fail(variant.error());
    }
    const bool analytic = *kind == core::gaussian::SamplerKind::AnalyticDdpm ||
                          *kind == core::gaussian::SamplerKind::AnalyticDdim;
    Result<TrajectoryWithGamma> resolved = resolveWithGamma(
        *common, *spec, analytic, *gammaSamples, static_cast<uint64_t>(*seed) + 1, *variant);
    if (!resolved) {
        return fail(resolved.error());
    }
    const std::vector<double>& gamma = resolved->gamma;
    const core::gaussian::ResolvedTrajectory* trajectory = &resolved->trajectory;
    const bool frames = args.flag("frames");
    {
        // The samples (and with --frames one copy per step) as doubles, and their CSV text.
        const core::model::GaussianDataSampler& data = *common->oracle;
        const double copies = frames ? trajectory->timesteps.size() + 1.0 : 1.0;
        if (core::Status fits = core::limits::checkMemory(
                "--count", std::to_string(*count),
                "count × d × " + std::string(frames ? "(K + 1) frames × " : "") +
                    "(8 bytes + 25 characters of text)",
                33.0 * *count * data.dimension() * copies);
            !fits) {
            return fail(fits.error());
        }
    }
    if (core::Status writable = core::io::checkWritablePath(*out); !writable) {
        return fail(writable.error());
    }
    core::gaussian::SamplerParams params{
        .kind = *kind,
        .eta = *eta,
        .ddpmVariance = varianceName == "small" ? core::gaussian::BaselineVariance::Small
                                                : core::gaussian::BaselineVariance::Large,
        .clipFirst = *clipFirst,
        .range = common->range,
        .count = *count,
        .seed = static_cast<uint64_t>(*seed),
        .recordFrames = frames,
        .parallel = {.numThreads = common->threads}};
    TerminalProgress observer;
    core::Progress progress(&observer, "sample");
    Result<core::gaussian::SampleResult> result = core::gaussian::sampleReverse(
        *common->model, common->schedule, gamma, trajectory->timesteps, params, &progress);
    if (!result) {
        return fail(result.error());
    }
    if (core::Status s = core::io::writeFileAtomically(*out, samplesCsv(*result, frames)); !s) {
        return fail(s.error());
    }
    if (const std::string ends = core::gaussian::trajectoryEndsNote(
            trajectory->timesteps, common->schedule.numSteps());
        !ends.empty()) {
        std::cerr << "note: " << ends << '\n';
    }
    if (format == "json") {
        printJson(std::cout, sampleJson(args, result->samples, trajectory->timesteps, *seed, *out,
                                        common->threads));
    } else {
        std::cout << "wrote " << *count << " samples to " << *out << '\n';
    }
    return 0;
}

// The four subcommands read --project the same way: its settings stand in for the options not
// given, then the command runs.
static int withProjectSettings(const Args& given, const std::string& samplesKey,
                               int (*command)(const Args&)) {
    const Result<Args> args = withProject(given, samplesKey);
    return args ? command(*args) : fail(args.error());
}

int runGamma(const Args& args) { return withProjectSettings(args, "samples", gammaCommand); }
int runVariance(const Args& args) {
    return withProjectSettings(args, "gamma-samples", varianceCommand);
}
int runNll(const Args& args) { return withProjectSettings(args, "gamma-samples", nllCommand); }
int runSample(const Args& args) {
    return withProjectSettings(args, "gamma-samples", sampleCommand);
}

}  // namespace app::cli
