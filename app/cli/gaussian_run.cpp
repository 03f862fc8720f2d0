// SPDX-License-Identifier: MIT
#include "app/cli/gaussian_run.h"

#include <iostream>
#include <map>

#include "app/cli/terminal_progress.h"

namespace app::cli {

using core::Result;
using core::project::GaussianParams;

namespace {

// The option that sets a project field, for errors about values given on the command line.
std::string optionOf(const std::string& field, const GaussianFields& fields) {
    static const std::map<std::string, std::string> options = {
        {"N", "--steps"},           {"K", "--trajectory"},       {"trajectory", "--trajectory"},
        {"schedule", "--schedule"}, {"data", "--data"},          {"model", "--model"},
        {"eta", "--eta"},           {"estimator", "--estimator"}};
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

}  // namespace

core::Status loadTrajectoryOptions(const Args& args,
                                   bool fromProject,
                                   core::project::GaussianParams& p) {
    const auto sets = [&](const char* key) { return !fromProject || args.has(key); };
    // A diffusers config given with --schedule names the trajectory unless --trajectory does
    // (the project's K), as picking the config in the GUI does.
    const std::string named = args.has("schedule") && !args.has("trajectory")
                                  ? p.scheduleTrajectorySpec()
                                  : std::string();
    if (!named.empty()) {
        if (core::Status s = p.setTrajectorySpec(named, "--schedule"); !s) return s;
    } else if (sets("trajectory")) {
        Result<std::string> spec = args.require("trajectory");
        if (!spec) return spec.error();
        if (core::Status s = p.setTrajectorySpec(*spec, "--trajectory"); !s) return s;
    }
    if (sets("dp-variant")) {
        auto variant = getChoice(args, "dp-variant", core::project::kDpVariants);
        if (!variant) return variant.error();
        p.dpVariant = *variant;
    }
    return {};
}

Result<GaussianRun> loadGaussianRun(const Args& args, const GaussianFields& fields) {
    GaussianRun run;
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
            auto estimator = getChoice(args, "estimator", core::project::kGammaEstimators);
            if (!estimator) return estimator.error();
            p.estimator = *estimator;
        }
    }
    if (fields.trajectory) {
        if (core::Status s = loadTrajectoryOptions(args, run.fromProject, p); !s) return s.error();
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
    Result<int> threads = threadCount(args);
    if (!threads) return threads.error();
    run.threads = *threads;
    run.sources = core::project::fileSources(fields.data ? args.get("digits") : std::string());
    return run;
}

Result<core::project::GaussianSetup> buildGaussianSetup(const GaussianRun& run, bool withData) {
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

Result<core::project::ProjectGamma> runProjectGamma(const GaussianRun& run,
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
    auto gamma =
        core::project::projectGamma(run.params, setup, run.fromProject ? &run.saved : nullptr,
                                    nullptr, run.threads, progress, only);
    if (!gamma) return gamma.error();
    if (gamma->source == core::project::GammaSource::Imported) {
        std::cerr << "note: Γ is the project's, imported from " << run.params.importedGammaName
                  << '\n';
    }
    return gamma;
}

Result<std::vector<double>> computeGamma(const GaussianRun& run,
                                         const core::project::GaussianSetup& setup,
                                         bool needsAllTimesteps) {
    Result<core::project::ProjectGamma> gamma = runProjectGamma(run, setup, needsAllTimesteps);
    if (!gamma) return gamma.error();
    return std::move(gamma->table);
}

Result<core::project::GammaTable> readGammaOption(
    const Args& args, const std::string& path, const core::schedule::GaussianSchedule& schedule) {
    const std::string kindName = args.get("gamma-kind");
    if (kindName.empty()) return core::project::readGammaTable(path, schedule);
    auto kind = getChoice(args, "gamma-kind", core::project::kGammaKinds);
    if (!kind) return kind.error();
    return core::project::readGammaTable(path, schedule, &*kind);
}

Result<double> loadClipFirst(const Args& args, const GaussianRun& run) {
    if (run.fromProject && !args.has("clip-first")) {
        return run.params.clipFirst ? core::project::kClipFirstY : 0.0;
    }
    Result<double> y = args.getDouble("clip-first");
    if (y && *y < 0.0) {
        return core::invalidArgument("--clip-first", args.get("clip-first"), "y must be ≥ 0");
    }
    return y;
}

core::Status loadEta(const Args& args, GaussianRun& run) {
    if (run.fromProject && !args.has("eta")) return {};
    Result<double> eta = args.getDouble("eta");
    if (!eta) return eta.error();
    if (!(*eta >= 0.0 && *eta <= 1.0)) {
        return core::invalidArgument("--eta", args.get("eta"), "η must lie in [0, 1]");
    }
    run.params.eta = *eta;
    return {};
}

Result<core::gaussian::ReverseVariance> parseReverseVariance(const std::string& name) {
    return core::project::parseChoice(core::project::kReverseVariances, name, "--variance");
}

std::vector<int> warnGammaOverBound(const core::schedule::GaussianSchedule& schedule,
                                    const std::vector<double>& gamma) {
    std::vector<int> over = core::gaussian::gammaOverBound(schedule, gamma);
    if (!over.empty()) {
        std::cerr << "warning: β̄_nΓ_n > 1 at " << over.size()
                  << (over.size() == 1 ? " timestep" : " timesteps")
                  << " (first n = " << over.front()
                  << "): Γ is over its bound there, an estimator's error; the analytic variance "
                     "is clipped to its bounds and a dp:K path there is unreliable\n";
    }
    return over;
}

namespace gaussian_options {

// The options the four subcommands share (loadRun reads them).
const Option kData = required("data", "D", "the data, see below (or the project's)");
const Option kModel =
    valued("model",
           "M",
           "oracle",
           "the ε-model: oracle (exact for D), MODEL.safetensors or MODEL.pt (TorchScript)");
const Option kDigits =
    valued("digits", "FILE", "", "the digits file for --data digits (default: the bundled copy)");
const Option kSchedule =
    valued("schedule",
           "S",
           "linear",
           "β_n: linear, cosine, scaled-linear, sigmoid or csv:FILE, each optionally followed by "
           ",zero-snr (ᾱ_N = 0), or diffusers:FILE (a diffusers scheduler_config.json, whose "
           "timestep_spacing is the trajectory when --trajectory is not given)");
const Option kSteps = valued("steps", "N", "1000", "the number of timesteps N");
const Option kThreads = threadsOption();
const Option kDataRange = valued(
    "data-range", "A,B", "-1,1", "the data's range [a, b] (the variance bounds, the decoder)");
const Option kTrajectory = required(
    "trajectory",
    "T",
    "(or the project's) the timesteps: even:K, quadratic:K, list:n1,n2,…, dp:K (the DP on Γ), or a "
    "diffusers/EDM/DPM-Solver spacing: linspace:K, leading:K[,offset=O], trailing:K (each "
    "[,class=C]: a diffusers scheduler class, e.g. DPMSolverMultistepScheduler), logsnr:K, "
    "karras:K[,rho=ρ], or Align Your Steps: ays:sd15[:K], ays:sdxl[:K]");
Option dpVariantOption() {
    return choiceOption("dp-variant", core::project::kDpVariants, "clipped",
                        "the DP's cost for dp:K", "gaussian.dpVariant");
}
Option estimatorOption() {
    return choiceOption("estimator", core::project::kGammaEstimators, "auto",
                        "Γ's estimator (auto: denoising for the oracle, error for a "
                        "network; denoising: the oracle only)",
                        "gaussian.estimator");
}
const Option kProject = valued("project",
                               "FILE",
                               "",
                               "a project file: runs its Gaussian set-up as the GUI does (its "
                               "schedule, steps, data, model, estimator, trajectory, Γ and its "
                               "source, seed, sampler, η, clip); the options given override its "
                               "settings");
const Option kClipFirst = valued(
    "clip-first", "Y", "0", "cap the first step's variance at (y·(2/255)·√(π/2))² (0: no cap)");
// One seed keys every draw of a run: Γ's, the data points', the samplers'.
const Option kSeed = seedOption("0", "the seed (of Γ and of the run's own draws)");
const Option kGammaSamples = valued("gamma-samples", "M", "100", "samples per timestep for Γ");

// What a --gamma file holds (readGammaOption reads it).
const Option kGammaKind =
    choiceOption("gamma-kind",
                 core::project::kGammaKinds,
                 "",
                 "what the Γ file holds (default: a CSV's header; ms_eps for .npy)");

const char* const kDataNotes =
    "D is toy:moons|checkerboard|swissroll|ring[,n=,seed=], gaussian:d=D,s=S, gmm:FILE.json,\n"
    "mixture:w,mx,my,s;… (2-D), csv:FILE or digits[:test]. The formulas and defaults are in\n"
    "docs/gaussian.md, the output's keys and columns in docs/conventions.md.\n";

}  // namespace gaussian_options

}  // namespace app::cli
