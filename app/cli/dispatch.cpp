// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

#include "app/cli/commands.h"
#include "core/model/model_error.h"
#include "core/schedule/diffusers_config.h"

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
         {{kernelSpec, runKernel}, {categoricalSpec, runCategorical}, {decodeSpec, runDecode}}},
        {"Analytic-DPM (docs/gaussian.md)",
         {{gammaSpec, runGamma},
          {varianceSpec, runVariance},
          {nllSpec, runNll},
          {sampleSpec, runSample},
          {qualitySpec, runQuality},
          {labSpec, runLab},
          {timestepsSpec, runTimesteps}}},
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
MODEL.safetensors or MODEL.pt (a TorchScript model, see the README).

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
    // A diffusers config's keys that are not used are listed, never silently dropped.
    if (args->has("schedule")) {
        if (const std::string note = core::schedule::scheduleSpecNote(args->get("schedule"));
            !note.empty()) {
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
        return fail("out of memory: the request needs more memory than this machine has; "
                    "use fewer samples, steps or particles");
    } catch (const core::model::ModelError& e) {
        return fail(e.what());  // a network that failed: its message names the file
    } catch (const std::exception& e) {
        // A subcommand must never end in an uncaught exception: report it as one line.
        return fail(std::string("internal error: ") + e.what());
    }
}

}  // namespace app::cli
