// SPDX-License-Identifier: MIT
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include "app/cli/commands.h"
#include "core/project/gaussian_params.h"
#include "core/project/project_file.h"
#include "core/util/model_error.h"

namespace app::cli {

namespace {

using Runner = int (*)(const Args&);

struct Command {
    const CommandSpec& (*spec)();
    Runner run;  // null for export, whose runner main() passes
};

// `diffuscope help` lists the commands in these groups, in this order.
struct Group {
    const char* title;
    std::vector<Command> commands;
};

const std::vector<Group>& groups() {
    static const std::vector<Group> kGroups = {
        {"Categorical diffusion (docs/categorical.md)",
         {{kernelSpec, runKernel}, {categoricalSpec, runCategorical}, {decodeSpec, runDecode}, {chainSpec, runChain}}},
        {"Analytic-DPM (docs/gaussian.md)",
         {{gammaSpec, runGamma},
          {varianceSpec, runVariance},
          {nllSpec, runNll},
          {sampleSpec, runSample},
          {qualitySpec, runQuality},
          {labSpec, runLab},
          {timestepsSpec, runTimesteps},
          {planSpec, runPlan}}},
        {"Trained models",
         {{trainSpec, runTrain}, {infoSpec, runInfo}, {evaluateSpec, runEvaluate}}},
        {"Project files", {{projectSpec, runProject}}},
        {"Figures", {{exportSpec, nullptr}}},
    };
    return kGroups;
}

const Command* findCommand(const std::string& name) {
    for (const Group& group : groups()) {
        for (const Command& command : group.commands) {
            if (command.spec().name == name) {
                return &command;
            }
        }
    }
    return nullptr;
}

std::string unknownCommand(const std::string& name) {
    return "unknown command '" + name + "' (see 'diffuscope help')";
}

// The file an option's value names, if any: the value itself, or what follows a spec's prefix
// (csv:FILE, diffusers:FILE, gmm:FILE), without a schedule's ",zero-snr".
std::string fileNamedBy(std::string value) {
    for (const char* prefix : {"csv:", "diffusers:", "gmm:"}) {
        if (value.rfind(prefix, 0) == 0) {
            value = value.substr(std::strlen(prefix));
            break;
        }
    }
    if (const size_t at = value.rfind(",zero-snr");
        at != std::string::npos && at + 9 == value.size()) {
        value.resize(at);
    }
    return value;
}

bool sameFile(const struct stat& a, const std::string& path) {
    struct stat b {};
    return !path.empty() && ::stat(path.c_str(), &b) == 0 && S_ISREG(b.st_mode) &&
           a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// An output that is also one of the command's inputs (links followed: the same device and
// inode) would be overwritten by its own result: refused before any work, naming both.
core::Status outputIsNoInput(const Args& args) {
    if (!args.has("out")) return {};
    const std::string out = args.get("out");
    struct stat target {};
    if (::stat(out.c_str(), &target) != 0 || !S_ISREG(target.st_mode)) return {};
    const auto refuse = [&out](const std::string& what) {
        return core::makeError(
            core::ErrorCode::InvalidArgument, "--out", out,
            "is also " + what + ": an output never replaces an input; choose another --out");
    };
    for (const auto& [key, value] : args.given()) {
        if (key == "out") continue;
        if (sameFile(target, value) || sameFile(target, fileNamedBy(value))) {
            return refuse("the --" + key + " file");
        }
    }
    for (const std::string& operand : args.positionals()) {
        if (sameFile(target, operand)) return refuse("the file " + operand);
    }
    // The files a project names are read too.
    if (args.has("project")) {
        if (auto project = core::project::readProjectFile(args.get("project")); project) {
            for (const auto& [what, path] :
                 {std::pair{"model", project->categorical.model},
                  std::pair{"model", project->gaussian.model},
                  std::pair{"table", project->categorical.csvPath},
                  std::pair{"data", fileNamedBy(project->gaussian.data)},
                  std::pair{"schedule", fileNamedBy(project->gaussian.schedule)}}) {
                if (sameFile(target, path)) {
                    return refuse(std::string("the project's ") + what + " file (" + path + ")");
                }
            }
        }
    }
    return {};
}

}  // namespace

std::vector<const CommandSpec*> commandSpecs() {
    std::vector<const CommandSpec*> specs;
    for (const Group& group : groups()) {
        for (const Command& command : group.commands) {
            specs.push_back(&command.spec());
        }
    }
    return specs;
}

std::string usage() {
    std::string text = R"(Diffuscope — an explorer for categorical and Gaussian diffusion processes.

Usage:
  diffuscope                      open the GUI with the example project
  diffuscope FILE.json            open the GUI with a project file
  diffuscope <command> [options]  run headless; options are --key value or --key=value
  diffuscope help <command>       every option of a command with its default (or <command> --help)
)";
    for (const Group& group : groups()) {
        text += std::string("\n") + group.title + ":\n";
        for (const Command& command : group.commands) {
            const CommandSpec& spec = command.spec();
            text += "  " + spec.name +
                    std::string(13 - std::min<size_t>(spec.name.size(), 12), ' ') + spec.summary +
                    '\n';
        }
    }
    text += R"(
Gaussian data specs D: toy:moons|checkerboard|swissroll|ring[,n=,seed=], gaussian:d=D,s=S,
gmm:FILE.json, mixture:w,mx,my,s;… (2-D), csv:FILE or digits[:test]; --model oracle,
MODEL.safetensors or MODEL.pt (a TorchScript model, see docs/research.md).

The formulas, defaults and output columns are in docs/ (README.md, categorical.md,
gaussian.md, conventions.md) beside this program's source, and in the GUI's Help ▸ Mathematics.
Errors are one line on stderr and exit code 2.
)";
    return text;
}

int dispatch(const std::vector<std::string>& argv, int (*runExport)(const Args&)) {
    if (argv.empty() || argv[0] == "help" || argv[0] == "--help" || argv[0] == "-h") {
        if (argv.size() < 2) {
            std::cout << usage();
            return 0;
        }
        const Command* command = findCommand(argv[1]);
        if (command == nullptr) {
            return fail(unknownCommand(argv[1]));
        }
        std::cout << commandHelp(command->spec());
        return 0;
    }
    const Command* command = findCommand(argv[0]);
    if (command == nullptr) {
        return fail(unknownCommand(argv[0]));
    }
    core::Result<Args> args = Args::parse(argv, command->spec());
    if (!args) {
        return fail(args.error());
    }
    if (args->helpRequested()) {
        std::cout << commandHelp(command->spec());
        return 0;
    }
    if (core::Status distinct = outputIsNoInput(*args); !distinct) {
        return fail(distinct.error());
    }
    // A diffusers config's keys that are not used are listed, never silently dropped.
    if (args->has("schedule")) {
        core::project::GaussianParams named;
        named.schedule = args->get("schedule");
        if (const std::string note = named.scheduleNote(); !note.empty()) {
            std::cerr << "note: " << note << '\n';
        }
    }
    const Runner run = command->run != nullptr ? command->run : runExport;
    if (run == nullptr) {
        return fail("'" + argv[0] + "' is not available in this program");
    }
    try {
        const int code = run(*args);
        // Results printed on stdout count as much as files: redirected to a full disk, the
        // failed write must not end in exit code 0.
        errno = 0;
        std::cout.flush();
        if (!std::cout) {
            const int error = errno;
            return fail(std::string("standard output: writing the result failed") +
                        (error != 0 ? std::string(" (") + std::strerror(error) + ")" : ""));
        }
        return code;
    } catch (const std::bad_alloc&) {
        return fail(
            "out of memory: the request needs more memory than this machine has; "
            "use fewer samples, steps or particles");
    } catch (const core::model::ModelError& e) {
        return fail(e.what());  // a network that failed: its message names the file
    } catch (const std::exception& e) {
        // A subcommand must never end in an uncaught exception: report it as one line.
        return fail(std::string("internal error: ") + e.what());
    }
}

}  // namespace app::cli
