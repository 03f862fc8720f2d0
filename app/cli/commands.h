// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/cli/args.h"
#include "core/util/result.h"

// The headless subcommands. Each prints its result on stdout and returns 0, or prints one
// line on stderr and returns kExitError (2).
namespace core::schedule {
class GaussianSchedule;
}

namespace app::cli {

// Categorical diffusion (docs/categorical.md): cmd_categorical.cpp.
int runKernel(const Args& args);
int runCategorical(const Args& args);
int runDecode(const Args& args);
int runChain(const Args& args);  // cmd_chain.cpp

// Analytic-DPM (docs/gaussian.md): cmd_gamma.cpp (gamma, variance), cmd_nll.cpp, cmd_sample.cpp.
int runGamma(const Args& args);
int runVariance(const Args& args);
int runNll(const Args& args);
int runSample(const Args& args);

// Checkpoints: cmd_info.cpp, cmd_train.cpp.
int runInfo(const Args& args);
int runTrain(const Args& args);
int runEvaluate(const Args& args);  // cmd_evaluate.cpp
int runQuality(const Args& args);   // cmd_quality.cpp

// Project files: cmd_project.cpp.
int runProject(const Args& args);

// The schedule lab: cmd_lab.cpp.
int runLab(const Args& args);

// Where β̄ₙΓₙ > 1 (an estimator's error: Γ over its bound), one warning line on stderr naming
// how many timesteps and the first; returns those n. Every command that uses Γ says it.
std::vector<int> warnGammaOverBound(const core::schedule::GaussianSchedule& schedule,
                                    const std::vector<double>& gamma);

// A sampling plan for python3 -m diffuscope_torch sample: cmd_plan.cpp.
int runPlan(const Args& args);

// A trajectory's timesteps in diffusers' or k-diffusion's convention: cmd_timesteps.cpp.
int runTimesteps(const Args& args);

// Runs the subcommand named by argv[0] after reading its options against its table; unknown
// names are an error. `help`, `help CMD` and `CMD --help` print the help. `export` needs the GUI
// library, which app/cli does not link: main() passes its runner.
int dispatch(const std::vector<std::string>& argv, int (*runExport)(const Args&) = nullptr);

// The usage text printed by `diffuscope help`.
std::string usage();

// Every subcommand's table of options, in the order of `diffuscope help`.
std::vector<const CommandSpec*> commandSpecs();

}  // namespace app::cli
