// SPDX-License-Identifier: MIT
#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>
#include <new>

#include "app/cli/commands.h"

namespace app::cli {

const char* usage() {
    return R"(Diffuscope — an explorer for categorical and Gaussian diffusion processes.

Usage:
  diffuscope                      open the GUI with the example project
  diffuscope FILE.json            open the GUI with a project file
  diffuscope <command> [options]  run headless

Categorical diffusion (docs/categorical.md):
  kernel       --pi P --beta-s X --beta-t Y --denoiser F.csv [--form closed|direct|d3pm]
  categorical  --table T.csv --pi P --schedule S --steps N [--condition C] [--dp K]
               [--samples M --seed S] [--threads T] --format json|csv
Analytic-DPM (docs/gaussian.md):
  gamma        --data D --model oracle --schedule S --steps N --samples M --seed X --out FILE
               [--estimator score|denoising|error]
  variance     --schedule S --steps N --gamma FILE --trajectory T [--forward ddpm|ddim|eta:V]
  nll          --data D --model oracle --schedule S --steps N --trajectory T --variance V
  sample       --data D --model oracle --sampler S --trajectory T --count B --seed X --out FILE
               D is toy:moons|checkerboard|swissroll|ring[,n=,seed=], gaussian:d=D,s=S,
               gmm:FILE.json, mixture:w,mx,my,s;… (2-D), csv:FILE or digits[:test];
               --model oracle or MODEL.safetensors

  train        --process categorical|gaussian --data digits:levels=4|toy:moons|gmm:FILE|csv:FILE
               [--arch mlp:width=256,depth=3] --steps S --batch B --lr X --seed N --out MODEL
               [--resume STOPPED] [--save-state]   Ctrl+C stops and saves a resumable checkpoint
  info         MODEL.safetensors   a checkpoint's metadata and tensors (name, dtype, shape)
  evaluate     --model DIGITS.safetensors [--per-class 200] [--steps 50] [--seed S]
               a conditional categorical digits model: generation accuracy and bits/dim

  export       --view trajectories|schedule|step-costs|matrices|kernels|particles|gamma|
               variance|gaussian-trajectory|compare|animation|all
               --out FILE [--project FILE | --example 1..4] [--width W --height H --dpi D]
  help         this text

The formulas, defaults and output columns are in docs/ (README.md, categorical.md,
gaussian.md, conventions.md) beside this program's source, and in the GUI's Help ▸ Mathematics.
Errors are one line on stderr and exit code 2.
)";
}

int dispatch(const std::vector<std::string>& argv) {
    using Command = int (*)(const Args&);
    static const std::map<std::string, Command> kCommands = {
        {"kernel", runKernel},   {"categorical", runCategorical}, {"gamma", runGamma},
        {"variance", runVariance}, {"nll", runNll},               {"sample", runSample},
        {"info", runInfo},         {"train", runTrain},             {"evaluate", runEvaluate},
    };
    if (argv.empty() || argv[0] == "help" || argv[0] == "--help" || argv[0] == "-h") {
        std::cout << usage();
        return 0;
    }
    const auto it = kCommands.find(argv[0]);
    if (it == kCommands.end()) {
        return fail("unknown command '" + argv[0] + "' (see 'diffuscope help')");
    }
    core::Result<Args> args = Args::parse(argv);
    if (!args) {
        return fail(args.error());
    }
    try {
        const int code = it->second(*args);
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
    } catch (const std::exception& e) {
        // A subcommand must never end in an uncaught exception: report it as one line.
        return fail(std::string("internal error: ") + e.what());
    }
}

}  // namespace app::cli
