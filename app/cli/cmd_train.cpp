// SPDX-License-Identifier: MIT
// `diffuscope train`: trains an MLP denoiser and saves it as a safetensors checkpoint.
#include <atomic>
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/model_file_errors.h"
#include "app/cli/terminal_progress.h"
#include "core/io/file_io.h"
#include "core/project/setup_sources.h"
#include "core/project/training_setup.h"
#include "core/util/parallel.h"

namespace app::cli {
namespace {

using core::Result;

constexpr core::limits::IntRange kNormFlag{"norm (0 or 1)", 0, 1};

// "mlp:width=512,depth=3[,activation=gelu][,norm=1]" → the architecture fields it sets.
Result<core::model::MlpConfig> parseArchitecture(const std::string& spec) {
    core::model::MlpConfig config;
    config.width = 256;
    config.depth = 3;
    if (spec.rfind("mlp", 0) != 0) {
        return core::invalidArgument("--arch", spec, "expected mlp:width=W,depth=D");
    }
    std::string rest = spec.size() > 4 ? spec.substr(4) : std::string();
    size_t start = 0;
    while (start < rest.size()) {
        const size_t comma = rest.find(',', start);
        const std::string part =
            rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        start = comma == std::string::npos ? rest.size() : comma + 1;
        const size_t eq = part.find('=');
        const std::string key = part.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : part.substr(eq + 1);
        if (key == "activation") {
            auto activation = core::model::parseActivation(value, "--arch activation");
            if (!activation) return activation.error();
            config.activation = *activation;
            continue;
        }
        const core::limits::IntRange* range = key == "width"   ? &core::limits::kWidth
                                              : key == "depth" ? &core::limits::kDepth
                                              : key == "temb"  ? &core::limits::kEmbedding
                                              : key == "norm"  ? &kNormFlag
                                                               : nullptr;
        if (range == nullptr) {
            return core::invalidArgument("--arch", part,
                                         "takes width=, depth=, activation=, norm=, temb=");
        }
        auto number = parseBounded(value, "--arch " + key, *range);
        if (!number) return number.error();
        if (key == "width")
            config.width = *number;
        else if (key == "depth")
            config.depth = *number;
        else if (key == "norm")
            config.layerNorm = *number != 0;
        else
            config.timeEmbedding = *number;
    }
    return config;
}

Result<core::model::TrainParams> parseTrainParams(const Args& args) {
    core::model::TrainParams params;
    auto steps = args.getBounded("steps", core::limits::kTrainingSteps);
    auto batch = args.getBounded("batch", core::limits::kBatch);
    auto lr = args.getDouble("lr");
    auto seed = args.getInt64("seed");
    auto threads = threadCount(args);
    auto warmup = args.getBounded("warmup", core::limits::kTrainingInterval);
    auto every = args.getBounded("eval-every", core::limits::kTrainingInterval);
    auto decay = args.getDouble("weight-decay");
    auto dropout = args.getDouble("condition-dropout");
    for (const core::Error* e :
         {decay ? nullptr : &decay.error(), dropout ? nullptr : &dropout.error(),
          steps ? nullptr : &steps.error(), batch ? nullptr : &batch.error(),
          lr ? nullptr : &lr.error(), seed ? nullptr : &seed.error(),
          threads ? nullptr : &threads.error(), warmup ? nullptr : &warmup.error(),
          every ? nullptr : &every.error()}) {
        if (e != nullptr) return *e;
    }
    params.steps = *steps;
    params.batch = *batch;
    params.learningRate = *lr;
    params.seed = static_cast<uint64_t>(*seed);
    params.parallel.numThreads = *threads;
    params.warmupSteps = std::min(*warmup, std::max(0, *steps / 10));
    params.evalEvery = *every;
    params.weightDecay = *decay;
    params.conditionDropout = *dropout;
    if (auto valid = params.validate(); !valid) return valid.error();
    return params;
}

void printSummary(const core::model::TrainSummary& summary, const std::string& out) {
    for (const auto& point : summary.heldOut) {
        std::cout << "step " << point.step << ": held-out loss " << point.loss << '\n';
    }
    std::cout << (summary.cancelled ? "stopped after " : "trained ") << summary.stepsDone
              << " steps in " << summary.elapsedSeconds << " s; final train loss "
              << summary.finalTrainLoss << "; wrote " << out << '\n';
    if (summary.cancelled) {
        std::cout << "to continue, run the same command with --resume " << out << '\n';
    }
}

// Ctrl+C during training stops at the next step and saves a checkpoint that can be resumed.
std::atomic<bool> g_interrupted{false};

class InterruptGuard {
public:
    // The first Ctrl+C asks for a stop after the current step; a second one ends the program
    // at once (the default action), so a stuck save can still be interrupted.
    InterruptGuard() {
        m_previous = std::signal(SIGINT, [](int) {
            g_interrupted.store(true);
            std::signal(SIGINT, SIG_DFL);
        });
    }
    ~InterruptGuard() { std::signal(SIGINT, m_previous); }

private:
    void (*m_previous)(int);
};

// Said once the Ctrl+C handler is in place (scripts and tests wait for this line).
void announce(const core::model::TrainParams& params) {
    std::cout << "training " << params.steps << " steps"
              << (params.resume ? " from step " + std::to_string(params.resume->stepsDone) : "")
              << "; Ctrl+C stops and saves a checkpoint that --resume continues" << std::endl;
}

// --resume FILE: the training state saved by a stopped run (null without --resume).
Result<std::shared_ptr<const core::model::TrainState>> loadResume(const Args& args) {
    if (!args.has("resume")) return std::shared_ptr<const core::model::TrainState>();
    const std::string path = args.get("resume");
    auto loaded = core::model::loadMlpCheckpoint(path);
    if (!loaded) {
        return notACheckpoint("--resume", path,
                              "--resume expects the .safetensors checkpoint that a stopped "
                              "`diffuscope train` run wrote",
                              loaded.error());
    }
    if (loaded->trainState == nullptr) {
        return core::invalidArgument(
            "--resume", path,
            "the checkpoint holds no training state (only a stopped run's, "
            "or one saved with --save-state, does)");
    }
    return loaded->trainState;
}

// The data of the run as the options spell them (core reads the data spec itself).
Result<core::project::TrainingDataSpec> dataSpec(const Args& args,
                                                 core::project::ProcessKind process,
                                                 const std::string& data) {
    core::project::TrainingDataSpec spec{.process = process, .data = data};
    spec.schedule = args.get("schedule");
    spec.pi = args.get("pi");
    if (process == core::project::ProcessKind::Categorical) {
        if (data.rfind("csv:", 0) == 0 && args.has("classes")) {
            auto k = args.getBounded("classes", core::limits::kClasses);
            if (!k) return k.error();
            spec.numClasses = *k;
        }
        return spec;
    }
    auto numSteps = args.getBounded("num-steps", core::limits::kSteps);
    if (!numSteps) return numSteps.error();
    auto count = args.getBounded("points", core::limits::kSamples);
    if (!count) return count.error();
    spec.numSteps = *numSteps;
    spec.points = *count;
    return spec;
}

int train(const Args& args,
          core::project::ProcessKind process,
          const std::string& data,
          const std::string& out) {
    const bool categorical = process == core::project::ProcessKind::Categorical;
    auto spec = dataSpec(args, process, data);
    if (!spec) return fail(spec.error());
    auto set = core::project::trainingSet(*spec, core::project::fileSources(args.get("digits")));
    if (!set) return fail(set.error());
    auto architecture = parseArchitecture(
        args.getOr("arch", categorical ? "mlp:width=256,depth=3" : "mlp:width=128,depth=3"));
    if (!architecture) return fail(architecture.error());
    auto params = parseTrainParams(args);
    if (!params) return fail(params.error());
    if (auto fits = core::project::checkTrainingMemory(*architecture, params->batch,
                                                       set->networkInputs(), "--batch");
        !fits) {
        return fail(fits.error());
    }
    auto resume = loadResume(args);
    if (!resume) return fail(resume.error());
    params->resume = resume->get();
    // Refused before anything is printed: the same run, network and training parameters.
    if (params->resume != nullptr) {
        if (auto same = core::project::checkResume(*params->resume, *set, *architecture, *params);
            !same) {
            return fail(
                core::invalidArgument("--resume", args.get("resume"), same.error().message));
        }
    }

    InterruptGuard interrupt;
    announce(*params);
    TerminalProgress observer(&g_interrupted);
    core::Progress progress(&observer, "train");
    auto summary = core::project::trainAndSave(*set, *architecture, *params, out,
                                               args.flag("save-state"), &progress);
    if (!summary) return fail(summary.error());
    printSummary(*summary, out);
    // A Ctrl+C that came after the last step (during the save, say) still says "interrupted".
    return summary->cancelled || g_interrupted.load() ? kExitInterrupted : 0;
}

}  // namespace

const CommandSpec& trainSpec() {
    static const CommandSpec spec{
        "train",
        "train an MLP denoiser and save it as a safetensors checkpoint",
        "",
        {required("process", "categorical|gaussian", "the diffusion process"),
         required("data", "D",
                  "categorical: digits:levels=L or csv:FILE; gaussian: a data spec (see below)"),
         valued("arch", "mlp:width=W,depth=D", "",
                "the network, also activation=, norm=0|1, temb= (default: width=256 categorical, "
                "128 gaussian; depth=3)"),
         valued("steps", "S", "2000", "training steps"),
         valued("batch", "B", "128", "the batch size"),
         valued("lr", "X", "1e-3", "the learning rate"),
         seedOption("0", "the seed"),
         required("out", "MODEL", "the checkpoint to write (.safetensors)"),
         threadsOption(),
         valued("schedule", "S", "", "the schedule (default: cosine categorical, linear gaussian)"),
         valued("pi", "P", "",
                "categorical: the prior π (default: uniform over the levels; masked:K adds a mask "
                "state)"),
         valued("num-steps", "N", "1000", "gaussian: the number of timesteps N"),
         valued("points", "N", "4000", "gaussian: the number of training points drawn from D"),
         valued("warmup", "S", "100", "learning-rate warm-up steps (at most a tenth of --steps)"),
         valued("eval-every", "S", "500", "steps between held-out evaluations"),
         valued("digits", "FILE", "",
                "the digits file for digits data (default: the bundled copy)"),
         valued("classes", "K", "",
                "categorical csv: the number of classes (default: from the data)"),
         valued("resume", "STOPPED", "", "continue a stopped run from its checkpoint"),
         flag("save-state",
              "keep the training state in the checkpoint, so --resume can continue it"),
         valued("weight-decay", "X", "0", "AdamW's weight decay"),
         valued("condition-dropout", "P", "0",
                "the probability of dropping the condition (label)")},
        "Gaussian data: toy:moons|checkerboard|swissroll|ring[,n=,seed=], gaussian:d=D,s=S,\n"
        "gmm:FILE.json, mixture:w,mx,my,s;…, csv:FILE or digits. Ctrl+C stops after the current\n"
        "step and saves a checkpoint that --resume continues (exit code 130).\n"};
    return spec;
}

int runTrain(const Args& args) {
    auto process = args.require("process");
    auto data = args.require("data");
    auto out = args.require("out");
    if (!process) return fail(process.error());
    if (!data) return fail(data.error());
    if (!out) return fail(out.error());
    // Minutes of training must not end in "cannot write": check the output first.
    if (auto writable = core::io::checkWritablePath(*out); !writable) {
        return fail(writable.error());
    }
    using core::project::ProcessKind;
    // An option of the other process is not used: refused, naming it, rather than ignored.
    const bool categorical = *process == "categorical";
    for (const char* option : categorical ? std::vector<const char*>{"num-steps", "points"}
                                          : std::vector<const char*>{"pi", "classes"}) {
        if (args.has(option)) {
            return fail(core::invalidArgument(
                std::string("--") + option, args.get(option),
                std::string("is an option of ") + (categorical ? "gaussian" : "categorical") +
                    " training, not used with --process " + *process));
        }
    }
    if (*process == "categorical") return train(args, ProcessKind::Categorical, *data, *out);
    if (*process == "gaussian") return train(args, ProcessKind::Gaussian, *data, *out);
    return fail(core::invalidArgument("--process", *process, "expected categorical or gaussian"));
}

}  // namespace app::cli
