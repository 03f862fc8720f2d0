// SPDX-License-Identifier: MIT
// The Analytic-DPM subcommands (docs/gaussian.md): gamma, variance, nll, sample.
#include <iostream>
#include <map>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/output_format.h"
#include "app/cli/sample_quality_json.h"
#include "app/cli/terminal_progress.h"
#include "core/data/bundled_files.h"
#include "core/data/gaussian_data.h"
#include "core/gaussian/gamma.h"
#include "core/gaussian/nll.h"
#include "core/gaussian/reverse_step.h"
#include "core/gaussian/sampler.h"
#include "core/gaussian/spacing.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/schedule/diffusers_config.h"
#include "core/gaussian/variance.h"
#include "core/io/csv.h"
#include "core/io/gamma_file.h"
#include "core/io/json.h"
#include "core/model/checkpoint.h"
#include "core/model/oracle_specs.h"
#include "core/project/gaussian_runs.h"
#include "core/project/gaussian_setup.h"
#include "core/project/project_file.h"
#include "core/schedule/gaussian_schedule.h"

namespace app::cli {
namespace {

using core::Result;
using core::project::GaussianParams;

// What a Gaussian subcommand runs on: the project's parameters (--project) with the options given
// on the command line overriding their fields, or the options alone; the core runs them as the
// GUI does.
struct Run {
    GaussianParams params;
    bool fromProject = false;
    core::project::GammaCache saved;  // the Γ saved with the project
    core::project::SetupSources sources;
    core::gaussian::DataRange range;
    int threads = 1;
};

// Which of the project's fields a subcommand's options set.
struct Fields {
    bool data = true;           // --data, --model, --estimator (and --digits)
    bool trajectory = true;     // --trajectory, --dp-variant
    bool seed = true;           // --seed
    const char* samplesKey = "gamma-samples";  // the option that holds Γ's M ("" : none)
};

// The option that sets a project field, for errors about values given on the command line.
std::string optionOf(const std::string& field, const Fields& fields) {
    static const std::map<std::string, std::string> options = {
        {"N", "--steps"}, {"K", "--trajectory"}, {"trajectory", "--trajectory"},
        {"schedule", "--schedule"}, {"data", "--data"}, {"model", "--model"},
        {"eta", "--eta"}, {"estimator", "--estimator"}};
    if (field == "M") return std::string("--") + fields.samplesKey;
    const auto it = options.find(field);
    return it == options.end() ? field : it->second;
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

// The worker threads: --threads, else all cores (OMP_NUM_THREADS when set).
Result<int> loadThreads(const Args& args) {
    return threadCount(args);
}

Result<Run> loadRun(const Args& args, const Fields& fields) {
    Run run;
    if (args.has("project")) {
        auto project = core::project::readProjectFile(args.get("project"));
        if (!project) {
            return project.error();
        }
        run.params = project->gaussian;
        run.saved = project->gammaCache;
        run.fromProject = true;
    }
    // An option sets its field when given, and with no project also by its default.
    const auto sets = [&](const char* key) { return !run.fromProject || args.has(key); };
    GaussianParams& p = run.params;
    if (sets("schedule")) p.schedule = args.get("schedule");
    if (sets("steps")) {
        Result<int> steps = args.getBounded("steps", core::limits::kGaussianSteps);
        if (!steps) return steps.error();
        // A project's N changes by the project's rule (its imported Γ and a typed list that no
        // longer fits go), as when N is edited in the GUI.
        p = p.withNumSteps(*steps);
    }
    if (fields.data) {
        if (sets("data")) {
            Result<std::string> data = args.require("data");
            if (!data) return data.error();
            p.data = *data;
        }
        if (sets("model")) {
            const std::string model = args.get("model");
            p.model = model == "oracle" ? "" : model;
        }
        if (sets("estimator")) {
            auto estimator = core::project::parseChoice(core::project::kGammaEstimators,
                                                        args.get("estimator"), "--estimator");
            if (!estimator) return estimator.error();
            p.estimator = *estimator;
        }
    }
    if (fields.trajectory) {
        // A diffusers config given with --schedule names the trajectory unless --trajectory
        // does (the project's K), as picking the config in the GUI does.
        const std::string named =
            args.has("schedule") && !args.has("trajectory")
                ? core::schedule::scheduleSpecTrajectory(p.schedule, p.pathSteps)
                : std::string();
        if (!named.empty()) {
            if (core::Status s = p.setTrajectorySpec(named, "--schedule"); !s) return s.error();
        } else if (sets("trajectory")) {
            Result<std::string> spec = args.require("trajectory");
            if (!spec) return spec.error();
            if (core::Status s = p.setTrajectorySpec(*spec, "--trajectory"); !s) return s.error();
        }
        if (sets("dp-variant")) {
            auto variant = core::project::parseChoice(core::project::kDpVariants,
                                                      args.get("dp-variant"), "--dp-variant");
            if (!variant) return variant.error();
            p.dpVariant = *variant;
        }
    }
    if (fields.seed && sets("seed")) {
        Result<long long> seed = args.getInt64("seed");
        if (!seed) return seed.error();
        p.seed = static_cast<uint64_t>(*seed);
    }
    if (*fields.samplesKey != '\0' && sets(fields.samplesKey)) {
        Result<int> samples = args.getBounded(fields.samplesKey, core::limits::kGammaSamples);
        if (!samples) return samples.error();
        p.gammaSamples = *samples;
    }
    if (core::Status s = p.validate(); !s) {
        core::Error error = s.error();
        if (!run.fromProject || args.has(optionOf(error.field, fields).substr(2))) {
            error.field = optionOf(error.field, fields);
        }
        return error;
    }
    Result<core::gaussian::DataRange> range = loadRange(args);
    if (!range) return range.error();
    run.range = *range;
    Result<int> threads = loadThreads(args);
    if (!threads) return threads.error();
    run.threads = *threads;
    run.sources = core::project::fileSources(fields.data ? args.get("digits") : std::string());
    return run;
}

// The set-up of the run (schedule, data, model, estimator), built by the core as the GUI builds
// it; a model that cannot be used is an error here.
Result<core::project::GaussianSetup> buildSetup(const Run& run, bool withData = true) {
    auto setup = core::project::GaussianSetup::build(run.params, run.sources, true, withData);
    if (!setup && setup.error().field == "estimator") {
        core::Error error = setup.error();
        error.field = "--estimator";
        return error;
    }
    if (!setup && setup.error().field == "prediction_type") {
        core::Error error = setup.error();
        error.field = "--model";
        error.message = "prediction_type: " + error.message +
                        "; give the --schedule config the model was trained with";
        return error;
    }
    return setup;
}

// Γ of the run as the project defines it (its import, its saved estimate, or estimated with its
// M and seed). Without a project and for a trajectory that is not dp:K, only the trajectory's
// timesteps are estimated (the values there are the full estimate's).
Result<core::project::ProjectGamma> runProjectGamma(const Run& run,
                                                    const core::project::GaussianSetup& setup,
                                                    bool needsAllTimesteps) {
    std::vector<int> only;
    if (!run.fromProject && !needsAllTimesteps &&
        run.params.trajectory != core::project::GaussianTrajectory::Dp) {
        auto t = core::project::projectTrajectory(run.params, setup.schedule, {}, run.threads);
        if (!t) return t.error();
        only = t->timesteps;
    }
    TerminalProgress observer;
    core::Progress progress(&observer, "gamma");
    auto gamma = core::project::projectGamma(run.params, setup, run.fromProject ? &run.saved : nullptr,
                                             nullptr, run.threads, progress, only);
    if (!gamma) return gamma.error();
    if (gamma->source == core::project::GammaSource::Imported) {
        std::cerr << "note: Γ is the project's, imported from " << run.params.importedGammaName
                  << '\n';
    }
    return gamma;
}

Result<std::vector<double>> computeGamma(const Run& run, const core::project::GaussianSetup& setup,
                                         bool needsAllTimesteps) {
    Result<core::project::ProjectGamma> gamma = runProjectGamma(run, setup, needsAllTimesteps);
    if (!gamma) return gamma.error();
    return std::move(gamma->table);
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

// The options the four subcommands share (loadRun reads them).
const Option kData = required("data", "D", "the data, see below (or the project's)");
const Option kModel =
    valued("model", "M", "oracle", "the ε-model: oracle (exact for D), MODEL.safetensors or MODEL.pt (TorchScript)");
const Option kDigits =
    valued("digits", "FILE", "", "the digits file for --data digits (default: the bundled copy)");
const Option kSchedule =
    valued("schedule", "S", "linear",
           "β_n: linear, cosine, scaled-linear, sigmoid or csv:FILE, each optionally followed by "
           ",zero-snr (ᾱ_N = 0), or diffusers:FILE (a diffusers scheduler_config.json, whose "
           "timestep_spacing is the trajectory when --trajectory is not given)");
const Option kSteps = valued("steps", "N", "1000", "the number of timesteps N");
const Option kThreads = threadsOption();
const Option kDataRange = valued(
    "data-range", "A,B", "-1,1", "the data's range [a, b] (the variance bounds, the decoder)");
const Option kTrajectory = required(
    "trajectory", "T", "(or the project's) the timesteps: even:K, quadratic:K, list:n1,n2,…, dp:K (the DP on Γ), or a "
    "diffusers/EDM/DPM-Solver spacing: linspace:K, leading:K[,offset=O], trailing:K, "
    "logsnr:K, karras:K[,rho=ρ], or Align Your Steps: ays:sd15[:K], ays:sdxl[:K]");
const Option kDpVariant =
    valued("dp-variant", "clipped|segmented", "clipped", "the DP's cost for dp:K");
const Option kEstimator = valued("estimator", "auto|score|denoising|error", "auto",
                                 "Γ's estimator (auto: denoising for the oracle, error for a "
                                 "network; denoising: the oracle only)");
const Option kProject = valued("project", "FILE",  "",
                               "a project file: runs its Gaussian set-up as the GUI does (its "
                               "schedule, steps, data, model, estimator, trajectory, Γ and its "
                               "source, seed, sampler, η, clip); the options given override its "
                               "settings");
const Option kClipFirst = valued(
    "clip-first", "Y", "0", "cap the first step's variance at (y·(2/255)·√(π/2))² (0: no cap)");
// One seed keys every draw of a run: Γ's, the data points', the samplers'.
const Option kSeed = seedOption("0", "the seed (of Γ and of the run's own draws)");
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
         seedOption("0", "the seed"),
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
         valued("gamma", "FILE", "",
                "Γ as written by `diffuscope gamma` (.csv or .npy); with --project, default: the "
                "project's Γ"),
         valued("gamma-kind", "gamma|ms_eps", "",
                "what the file holds (default: a CSV's header; ms_eps for .npy)"),
         valued("forward", "ddpm|ddim|eta:V", "ddpm", "the forward process (η = 1, 0 or V)"),
         kTrajectory, kDpVariant, kDataRange, kClipFirst,
         formatOption("json|csv", "json", "the output format"), kThreads, kProject},
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
         valued("levels", "L", "",
                "the decoder's number of levels (default: 17 for the digits, else 256)"),
         valued("samples", "M", std::to_string(core::project::kNllPoints),
                "data points averaged"),
         kGammaSamples,
         valued("sweep", "K1,K2,…", "",
                "the NLL against the number of steps instead: the even and the DP trajectory at "
                "each K, with the analytic, small and large variance (--trajectory is not used)"),
         valued("gamma-data", "D", "", "the data Γ is estimated on (default: --data)"), kEstimator,
         kSeed,
         formatOption("json", "json", "the output format (nll writes json)"), kThreads,
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
         formatOption("csv|json", "csv",
                      "csv: write the file and say so; json: write it and print the run and the "
                      "samples' quality against held-out data of --data"),
         kEstimator, kThreads, kDataRange, kDpVariant, kProject},
        kDataNotes};
    return spec;
}

const CommandSpec& planSpec() {
    static const CommandSpec spec{
        "plan",
        "write a sampling plan (timesteps, variances, mean coefficients) for the GPU sampler",
        "",
        {kSchedule, kSteps, kTrajectory, kDpVariant,
         valued("variance", "analytic|small|large", "analytic",
                "each step's σ²: analytic (from Γ), small (β̃) or large (β; the DDPM sampler "
                "only)"),
         valued("sampler", "ddpm|ddim", "ddpm",
                "the mean (or the project's: its DDPM or DDIM kind)"),
         valued("eta", "V", "0", "η of the DDIM sampler (or the project's)"), kClipFirst,
         valued("gamma", "FILE", "",
                "Γ as written by `diffuscope gamma` (.csv or .npy); default: the project's, or "
                "estimated with --data and --model"),
         valued("gamma-kind", "gamma|ms_eps", "",
                "what the file holds (default: a CSV's header; ms_eps for .npy)"),
         valued("data", "D", "", "the data Γ is estimated on (or the project's)"), kModel,
         kDigits, kEstimator, kGammaSamples, kSeed,
         required("out", "FILE", "the plan (JSON)"), kDataRange, kThreads, kProject},
        "Sample on the plan with python3 -m diffuscope_torch sample --plan FILE. Γ is needed for\n"
        "--variance analytic and for dp:K. The plan's keys are in docs/gaussian.md.\n"};
    return spec;
}

Result<std::shared_ptr<core::model::GaussianOracle>> gaussianDataFromSpec(const Args& args,
                                                                          const std::string& spec) {
    return core::project::gaussianData(spec, core::project::fileSources(args.get("digits")));
}

std::vector<int> warnGammaOverBound(const core::schedule::GaussianSchedule& schedule,
                                    const std::vector<double>& gamma) {
    std::vector<int> over = core::gaussian::gammaOverBound(schedule, gamma);
    if (!over.empty()) {
        std::cerr << "warning: β̄_nΓ_n > 1 at " << over.size()
                  << (over.size() == 1 ? " timestep" : " timesteps") << " (first n = " << over.front()
                  << "): Γ is over its bound there, an estimator's error; the analytic variance "
                     "is clipped to its bounds and a dp:K path there is unreliable\n";
    }
    return over;
}

int runGamma(const Args& args) {
    Result<Run> run = loadRun(args, {.trajectory = false, .samplesKey = "samples"});
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
    Result<core::project::GaussianSetup> setup = buildSetup(*run);
    if (!setup) {
        return fail(setup.error());
    }
    Result<std::vector<double>> table = computeGamma(*run, *setup, true);
    if (!table) {
        return fail(table.error());
    }
    // NPY holds ms_eps as the paper's code writes it; CSV holds Γ.
    const bool npy = out->size() >= 4 && out->compare(out->size() - 4, 4, ".npy") == 0;
    const core::Status written =
        npy ? core::io::writeGammaNpy(*out, core::gaussian::msEpsFromGamma(*table, setup->schedule))
            : core::io::writeGammaCsv(*out, *table, core::io::GammaKind::Gamma);
    if (!written) {
        return fail(written.error());
    }
    std::cout << "wrote " << *out << ": " << (npy ? "ms_eps" : "gamma") << " for N = "
              << run->params.numSteps << ", M = " << run->params.gammaSamples << '\n';
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

// --clip-first Y (a number ≥ 0), or the project's first-step clip when not given.
Result<double> loadClipFirst(const Args& args, const Run& run) {
    if (run.fromProject && !args.has("clip-first")) {
        return run.params.clipFirst ? core::project::kClipFirstY : 0.0;
    }
    Result<double> y = args.getDouble("clip-first");
    if (y && *y < 0.0) {
        return core::invalidArgument("--clip-first", args.get("clip-first"), "y must be ≥ 0");
    }
    return y;
}

// --eta into params.eta: the option when given, else the project's η (without a project, the
// option's default).
core::Status loadEta(const Args& args, const Run& run, GaussianParams& params) {
    if (run.fromProject && !args.has("eta")) return {};
    Result<double> eta = args.getDouble("eta");
    if (!eta) return eta.error();
    if (!(*eta >= 0.0 && *eta <= 1.0)) {
        return core::invalidArgument("--eta", args.get("eta"), "η must lie in [0, 1]");
    }
    params.eta = *eta;
    return {};
}

// Γ from the file `path` (--gamma) with --gamma-kind: the table, and in `kind` what the file
// held.
Result<std::vector<double>> readGammaOption(const Args& args, const std::string& path,
                                            const core::schedule::GaussianSchedule& schedule,
                                            core::io::GammaKind& kind) {
    const std::string kindName = args.get("gamma-kind");
    const core::io::GammaKind* required = nullptr;
    if (!kindName.empty()) {
        if (kindName != "gamma" && kindName != "ms_eps") {
            return core::invalidArgument("--gamma-kind", kindName, "expected gamma or ms_eps");
        }
        kind = kindName == "gamma" ? core::io::GammaKind::Gamma : core::io::GammaKind::MsEps;
        required = &kind;
    }
    Result<core::io::GammaFile> file =
        core::io::readGammaFile(path, schedule.numSteps(), kind, required);
    if (!file) {
        return file.error();
    }
    kind = file->kind;
    return file->kind == core::io::GammaKind::Gamma
               ? file->values
               : core::gaussian::gammaFromMsEps(file->values, schedule);
}

int runVariance(const Args& args) {
    Result<Run> run = loadRun(args, {.data = false, .seed = false, .samplesKey = ""});
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
        auto built = buildSetup(*run, false);
        if (!built) {
            return fail(built.error());
        }
        schedule = built->schedule;
        Result<std::vector<double>> table = readGammaOption(args, *gammaPath, schedule, kind);
        if (!table) {
            return fail(table.error());
        }
        gamma = std::move(table).value();
    } else {
        Result<core::project::GaussianSetup> setup = buildSetup(*run);
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
    const std::string ends = core::gaussian::trajectoryEndsNote(trajectory->timesteps,
                                                                schedule.numSteps());
    if (format == "csv" && !ends.empty()) {
        std::cerr << "note: " << ends << '\n';
    }
    printVariances(format, *trajectory, *pairs, run->params.eta, kind, over, schedule.numSteps());
    return 0;
}

// --variance analytic|small|large of nll, plan and sample.
Result<core::gaussian::ReverseVariance> parseReverseVariance(const std::string& name) {
    return core::project::parseChoice(core::project::kReverseVariances, name, "--variance");
}

// The Γ data of nll: --gamma-data (a network's Γ comes from its training data), else --data's.
Result<core::project::GaussianSetup> withGammaData(const Args& args,
                                                   const core::project::GaussianSetup& setup,
                                                   const Run& run) {
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

int runNll(const Args& args) {
    Result<Run> run = loadRun(args, {.trajectory = !args.has("sweep")});
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
    Result<core::project::GaussianSetup> setup = buildSetup(*run);
    if (!setup) {
        return fail(setup.error());
    }
    Result<core::project::GaussianSetup> gammaSetup = withGammaData(args, *setup, *run);
    if (!gammaSetup) {
        return fail(gammaSetup.error());
    }
    // --gamma-data changes what Γ is estimated on: the project's saved Γ is not that one.
    Run gammaRun = *run;
    if (args.has("gamma-data")) gammaRun.saved = {};
    if (args.has("sweep")) {
        Result<std::vector<int>> ks = parseIntList(args.get("sweep"), "--sweep");
        if (!ks) {
            return fail(ks.error());
        }
        Result<std::vector<double>> gamma = computeGamma(gammaRun, *gammaSetup, true);
        if (!gamma) {
            return fail(gamma.error());
        }
        TerminalProgress observer;
        core::Progress progress(&observer, "nll");
        auto sweep = core::project::nllSweep(run->params, *setup, run->sources, *gamma, *ks,
                                             *points, run->threads, progress);
        if (!sweep) {
            core::Error error = sweep.error();
            if (error.field == "K") error.field = "--sweep";
            return fail(error);
        }
        printJson(std::cout, sweepJson(*sweep));
        warnGammaOverBound(setup->schedule, *gamma);
        return 0;
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
    nlohmann::ordered_json json;
    json["bpd"] = nll->bitsPerDim;
    json["standard_error"] = nll->standardError;
    json["variance"] = args.get("variance");
    json["trajectory"] = trajectory->timesteps;
    json["prior"] = nll->prior.bitsPerDim;
    json["decoder"] = nll->decoder.bitsPerDim;
    json["decoder_variance"] =
        core::gaussian::decoderVariance(setup->schedule, trajectory->timesteps);
    if (!trajectory->note.empty()) {
        json["note"] = trajectory->note;
    }
    if (const std::string ends = core::gaussian::trajectoryEndsNote(trajectory->timesteps,
                                                                    run->params.numSteps);
        !ends.empty()) {
        json["ends_note"] = ends;
    }
    json["terms"] = nlohmann::ordered_json::array();
    for (const auto& term : nll->pairs) {
        json["terms"].push_back({{"s", term.s}, {"t", term.t}, {"bpd", term.bitsPerDim}});
    }
    printJson(std::cout, json);
    if (!gamma.empty()) warnGammaOverBound(setup->schedule, gamma);
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

// Each step's mean x_s = x0·x̂_0 + xt·x_t + eps·ε̂, then + √variance·z; the last step (s = 0)
// outputs x̂_0. The DPM-Solvers' multistep updates have no such coefficients: null.
static nlohmann::ordered_json planStepsJson(const std::vector<core::gaussian::PlanStep>& plan) {
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const core::gaussian::PlanStep& step : plan) {
        const auto coefficient = [&](double c) {
            return step.linear ? nlohmann::ordered_json(c) : nlohmann::ordered_json(nullptr);
        };
        steps.push_back({{"t", step.t},
                         {"s", step.s},
                         {"variance", step.variance},
                         {"x0", coefficient(step.x0)},
                         {"xt", coefficient(step.xt)},
                         {"eps", coefficient(step.eps)}});
    }
    return steps;
}

// What `sample --format json` prints: the run, and the final samples' quality against the
// held-out data of --data (null with a note when there are none, as for csv: data).
static nlohmann::ordered_json sampleJson(const Run& run, const core::gaussian::SampleResult& result,
                                         const std::vector<int>& timesteps,
                                         const std::string& out) {
    const core::Matrix& samples = result.samples;
    const long long seed = static_cast<long long>(run.params.seed);
    nlohmann::ordered_json json;
    json["sampler"] = core::project::choiceId(core::project::kSamplers, run.params.sampler);
    json["trajectory"] = timesteps;
    json["steps"] = planStepsJson(result.plan);  // as `plan` writes them
    json["count"] = samples.cols();
    json["seed"] = seed;
    json["out"] = out;
    const std::string& data = run.params.data;
    if (data.rfind("csv:", 0) == 0) {
        json["quality"] = nullptr;
        json["quality_note"] = "a csv: data set has no held-out split to compare the samples with";
        return json;
    }
    Result<core::evaluation::SampleQuality> quality = core::project::sampleQuality(
        samples, data, run.params.seed, run.sources, {.numThreads = run.threads});
    if (quality) {
        json["quality"] = sampleQualityJson(*quality);
    } else {
        json["quality"] = nullptr;
        json["quality_note"] = quality.error().toString();
    }
    return json;
}

int runSample(const Args& args) {
    Result<Run> run = loadRun(args, {});
    if (!run) {
        return fail(run.error());
    }
    Result<std::string> out = args.require("out");
    if (!out) {
        return fail(out.error());
    }
    const bool projectValue = run->fromProject;
    GaussianParams& params = run->params;
    if (!projectValue || args.has("sampler")) {
        auto kind = core::project::parseChoice(core::project::kSamplers, args.get("sampler"),
                                               "--sampler");
        if (!kind) {
            return fail(kind.error());
        }
        params.sampler = *kind;
    }
    if (core::Status s = loadEta(args, *run, params); !s) {
        return fail(s.error());
    }
    // With a project its particle count is the default; without one, the option's.
    Result<int> count = projectValue
                            ? args.getBounded("count", core::limits::kParticles, params.particleCount)
                            : args.getBounded("count", core::limits::kParticles);
    Result<double> clipFirst = loadClipFirst(args, *run);
    if (!count || !clipFirst) {
        return fail(!count ? count.error() : clipFirst.error());
    }
    // The analytic variance is a sampler of its own (--sampler analytic-ddpm).
    Result<core::gaussian::ReverseVariance> variance = parseReverseVariance(args.get("variance"));
    if (variance && *variance == core::gaussian::ReverseVariance::Analytic) {
        variance = core::invalidArgument("--variance", "analytic",
                                         "expected small or large: the analytic variance is "
                                         "--sampler analytic-ddpm or analytic-ddim");
    }
    if (!variance) {
        return fail(variance.error());
    }
    const std::string format = args.get("format");
    if (format != "csv" && format != "json") {
        return fail(core::invalidArgument("--format", format, "expected csv or json"));
    }
    Result<core::project::GaussianSetup> setup = buildSetup(*run);
    if (!setup) {
        return fail(setup.error());
    }
    const bool analytic = params.sampler == core::gaussian::SamplerKind::AnalyticDdpm ||
                          params.sampler == core::gaussian::SamplerKind::AnalyticDdim;
    std::vector<double> gamma;
    if (analytic || params.trajectory == core::project::GaussianTrajectory::Dp) {
        Result<std::vector<double>> table = computeGamma(*run, *setup, false);
        if (!table) {
            return fail(table.error());
        }
        gamma = std::move(table).value();
    }
    Result<core::gaussian::ResolvedTrajectory> trajectory = core::project::projectTrajectory(
        params, setup->schedule, gamma, run->threads, nullptr, run->range);
    if (!trajectory) {
        return fail(trajectory.error());
    }
    const bool frames = args.flag("frames");
    {
        // The samples (and with --frames one copy per step) as doubles, and their CSV text.
        const core::model::GaussianDataSampler& data = *setup->data;
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
    core::gaussian::SamplerParams samplerParams =
        core::project::projectSamplerParams(params, params.sampler, *count, run->threads, frames);
    samplerParams.clipFirst = *clipFirst;
    samplerParams.range = run->range;
    samplerParams.ddpmVariance = *variance == core::gaussian::ReverseVariance::Small
                                     ? core::gaussian::BaselineVariance::Small
                                     : core::gaussian::BaselineVariance::Large;
    TerminalProgress observer;
    core::Progress progress(&observer, "sample");
    Result<core::gaussian::SampleResult> result = core::gaussian::sampleReverse(
        *setup->model, setup->schedule, gamma, trajectory->timesteps, samplerParams, &progress);
    if (!result) {
        return fail(result.error());
    }
    if (core::Status s = core::io::writeFileAtomically(*out, samplesCsv(*result, frames)); !s) {
        return fail(s.error());
    }
    if (const std::string ends = core::gaussian::trajectoryEndsNote(trajectory->timesteps,
                                                                    params.numSteps);
        !ends.empty()) {
        std::cerr << "note: " << ends << '\n';
    }
    if (format == "json") {
        printJson(std::cout, sampleJson(*run, *result, trajectory->timesteps, *out));
    } else {
        std::cout << "wrote " << *count << " samples to " << *out << '\n';
    }
    if (!gamma.empty()) warnGammaOverBound(setup->schedule, gamma);  // after the samples are written
    return 0;
}

// Where the plan's Γ came from, in words.
static std::string gammaSourceText(const Run& run, const core::project::GaussianSetup& setup,
                                   const core::project::ProjectGamma& gamma) {
    const GaussianParams& p = run.params;
    const std::string model = p.model.empty() ? "oracle" : p.model;
    std::string how = "estimator ";
    if (auto estimator = core::project::resolveEstimator(p.estimator, !setup.usesNetwork);
        estimator) {
        how += *estimator == core::gaussian::GammaEstimator::Score       ? "score"
               : *estimator == core::gaussian::GammaEstimator::Denoising ? "denoising"
                                                                        : "error";
    } else {
        how += core::project::choiceId(core::project::kGammaEstimators, p.estimator);
    }
    how += ", M = " + std::to_string(p.gammaSamples) + ", seed " + std::to_string(p.seed) +
           ", model " + model + ", data " + p.data;
    switch (gamma.source) {
        case core::project::GammaSource::Imported: return "imported from " + p.importedGammaName;
        case core::project::GammaSource::SavedWithProject:
            return "saved with the project (" + how + ")";
        case core::project::GammaSource::Estimated: break;
    }
    return (setup.usesNetwork ? "estimated (" : "oracle: estimated with the exact oracle (") + how +
           ")";
}

int runPlan(const Args& args) {
    const bool withData = args.has("data") || args.has("model") || args.has("project");
    Result<Run> run = loadRun(args, {.data = withData});
    if (!run) {
        return fail(run.error());
    }
    Result<std::string> out = args.require("out");
    if (!out) {
        return fail(out.error());
    }
    // The file is what its name says: a plan is JSON, and only JSON is written.
    if (!out->ends_with(".json")) {
        return fail(core::invalidArgument("--out", *out, "a plan is written as JSON: name it *.json"));
    }
    GaussianParams& params = run->params;
    // The sampler: --sampler, else the project's DDPM or DDIM kind.
    bool ddim = false;
    if (args.has("sampler") || !run->fromProject) {
        const std::string name = args.get("sampler");
        if (name != "ddpm" && name != "ddim") {
            return fail(core::invalidArgument("--sampler", name, "expected ddpm or ddim"));
        }
        ddim = name == "ddim";
    } else {
        using core::gaussian::SamplerKind;
        if (core::gaussian::isDpmSolver(params.sampler)) {
            return fail(core::invalidArgument(
                "--sampler", core::project::choiceId(core::project::kSamplers, params.sampler),
                "the project's sampler is an ODE solver; a plan is ddpm or ddim: give --sampler"));
        }
        ddim = params.sampler == SamplerKind::Ddim || params.sampler == SamplerKind::AnalyticDdim;
    }
    if (core::Status s = loadEta(args, *run, params); !s) {
        return fail(s.error());
    }
    // The DDPM mean is the η = 1 forward process's.
    if (!ddim) params.eta = 1.0;
    const std::string varianceName = args.get("variance");
    Result<core::gaussian::ReverseVariance> variance = parseReverseVariance(varianceName);
    if (!variance) {
        return fail(variance.error());
    }
    if (ddim && *variance == core::gaussian::ReverseVariance::Large) {
        return fail(core::invalidArgument("--variance", varianceName,
                                          "the DDIM sampler's variance is analytic or small "
                                          "(η²β̃); large is the DDPM sampler's"));
    }
    Result<double> clipFirst = loadClipFirst(args, *run);
    if (!clipFirst) {
        return fail(clipFirst.error());
    }
    if (core::Status writable = core::io::checkWritablePath(*out); !writable) {
        return fail(writable.error());
    }
    const bool analytic = *variance == core::gaussian::ReverseVariance::Analytic;
    const bool needsGamma = analytic || params.trajectory == core::project::GaussianTrajectory::Dp;
    if (!needsGamma && args.has("gamma")) {
        std::cerr << "note: --gamma is not used: the " << varianceName
                  << " variance and this trajectory need no Γ\n";
    }
    core::schedule::GaussianSchedule schedule;
    std::vector<double> gamma;
    nlohmann::ordered_json gammaSource = nullptr;
    if (needsGamma && args.has("gamma")) {
        auto built = buildSetup(*run, false);
        if (!built) {
            return fail(built.error());
        }
        schedule = built->schedule;
        core::io::GammaKind kind = core::io::GammaKind::MsEps;
        Result<std::vector<double>> table =
            readGammaOption(args, args.get("gamma"), schedule, kind);
        if (!table) {
            return fail(table.error());
        }
        gamma = std::move(table).value();
        gammaSource = "file " + args.get("gamma") + " (" + core::io::gammaKindName(kind) + ")";
    } else if (needsGamma) {
        if (!withData) {
            return fail(core::invalidArgument(
                "--variance", varianceName,
                params.trajectory == core::project::GaussianTrajectory::Dp && !analytic
                    ? "dp:K needs Γ: give --project, --gamma FILE or --data D"
                    : "the analytic variance needs Γ: give --project, --gamma FILE or --data D"));
        }
        Result<core::project::GaussianSetup> setup = buildSetup(*run);
        if (!setup) {
            return fail(setup.error());
        }
        schedule = setup->schedule;
        Result<core::project::ProjectGamma> table = runProjectGamma(*run, *setup, false);
        if (!table) {
            return fail(table.error());
        }
        gammaSource = gammaSourceText(*run, *setup, *table);
        gamma = std::move(table->table);
    } else {
        auto built = buildSetup(*run, false);
        if (!built) {
            return fail(built.error());
        }
        schedule = built->schedule;
    }
    Result<core::gaussian::ResolvedTrajectory> trajectory = core::project::projectTrajectory(
        params, schedule, gamma, run->threads, nullptr, run->range);
    if (!trajectory) {
        return fail(trajectory.error());
    }
    if (!trajectory->note.empty()) std::cerr << "note: " << trajectory->note << '\n';
    const std::vector<int>& tau = trajectory->timesteps;
    Result<std::vector<core::gaussian::PlanStep>> plan = core::project::projectSamplingPlan(
        params, ddim, *variance, *clipFirst, schedule, gamma, tau, run->range);
    if (!plan) {
        return fail(plan.error());
    }
    const double threshold =
        *clipFirst > 0.0 ? core::gaussian::firstPairClipThreshold(*clipFirst) : 0.0;
    const int numSteps = schedule.numSteps();
    nlohmann::ordered_json json;
    json["format"] = "diffuscope-plan";
    json["version"] = 1;
    json["schedule"] = params.schedule;
    json["N"] = numSteps;
    nlohmann::ordered_json alphaBar = nlohmann::ordered_json::array();
    nlohmann::ordered_json betaBar = nlohmann::ordered_json::array();
    for (int n = 1; n <= numSteps; ++n) {
        alphaBar.push_back(schedule.alphaBar(n));
        betaBar.push_back(schedule.betaBar(n));
    }
    json["alpha_bar"] = std::move(alphaBar);
    json["beta_bar"] = std::move(betaBar);
    json["timesteps"] = tau;
    json["sampler"] = ddim ? "ddim" : "ddpm";
    json["eta"] = params.eta;
    json["variance"] = varianceName;
    json["clip"] = *clipFirst;
    json["clip_threshold"] = threshold > 0.0 ? nlohmann::ordered_json(threshold) : nullptr;
    json["gamma_source"] = gammaSource;
    json["data_range"] = {run->range.low, run->range.high};
    json["steps"] = planStepsJson(*plan);
    if (core::Status s = core::io::writeFileAtomically(*out, core::io::dumpJson(json)); !s) {
        return fail(s.error());
    }
    if (const std::string ends = core::gaussian::trajectoryEndsNote(tau, numSteps); !ends.empty()) {
        std::cerr << "note: " << ends << '\n';
    }
    std::cout << "wrote " << *out << ": " << tau.size() << " steps, " << (ddim ? "ddim" : "ddpm")
              << ", " << varianceName << " variance\n";
    if (!gamma.empty()) warnGammaOverBound(schedule, gamma);  // after the plan is written
    return 0;
}

}  // namespace app::cli
