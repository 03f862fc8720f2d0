// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>

#include "app/cli/args.h"
#include "core/project/categorical_params.h"
#include "core/project/categorical_setup.h"

// What the categorical subcommands (categorical, decode) share: their options read into a
// project's categorical parameters, which core/project then sets up and runs as the GUI does.
namespace app::cli {

// The options without --project as the core's parameters, the defaults as documented: all
// conditions averaged, the exact oracle, no DP. With stepsOptional (decode's --sweep-steps)
// --steps may be absent.
core::Result<core::project::CategoricalParams> categoricalParamsFromOptions(
    const Args& args, bool stepsOptional = false);

// The project's categorical parameters (--project) with the options given applied.
core::Result<core::project::CategoricalParams> categoricalParamsFromProject(const Args& args);

// decode --model NET with neither --table nor --project: the digits that a network with a mask
// state was trained on, under its schedule unless --schedule.
bool decodesModelDigits(const Args& args);
core::Result<core::project::CategoricalParams> digitsParamsFromModel(const Args& args,
                                                                     bool stepsOptional);

// --samples M (0 without it) and --threads T (all cores without it), checked.
core::Result<std::pair<long long, int>> samplesAndThreads(const Args& args);

// The set-up of `params` as the GUI builds it; an error names the option (--model, --schedule).
core::Result<std::shared_ptr<const core::project::CategoricalSetup>> buildCategoricalSetup(
    const Args& args, const core::project::CategoricalParams& params);

// The option of the prior, shared by kernel, categorical and decode.
extern const Option kPriorOption;

}  // namespace app::cli
