// SPDX-License-Identifier: MIT
#include "app/cli/categorical_run.h"

#include "app/cli/model_file_errors.h"
#include "core/project/categorical_runs.h"
#include "core/project/project_file.h"

namespace app::cli {

using core::Result;

namespace {

// A --model file that is no model at all (a project's JSON) is said plainly.
core::Error modelError(const std::string& path, const core::Error& error) {
    if (error.field.rfind(path, 0) != 0) return error;
    return notACheckpoint("--model", path,
                          "--model expects oracle, a .safetensors checkpoint or a TorchScript .pt "
                          "network",
                          error, true);
}

}  // namespace

Result<core::project::CategoricalParams> categoricalParamsFromOptions(const Args& args,
                                                                      bool stepsOptional) {
    core::project::CategoricalParams p;
    Result<std::string> piSpec = args.require("pi");
    if (!piSpec) return piSpec.error();
    // masked:K: the table's classes are 0..K − 1, and the process has the mask state K besides.
    if (core::Status s = p.setPriorSpec(*piSpec, "--pi"); !s) return s.error();
    Result<std::string> tablePath = args.require("table");
    if (!tablePath) return tablePath.error();
    if (core::Status s = p.useCsvTable(*tablePath); !s) return s.error();
    if (args.has("condition")) {
        if (core::Status s = p.selectCondition(args.get("condition"), "--condition", "the table");
            !s) {
            return s.error();
        }
    }
    Result<int> steps = stepsOptional ? args.getBounded("steps", core::limits::kSteps, 1)
                                      : args.getBounded("steps", core::limits::kSteps);
    if (!steps) return steps.error();
    p.numSteps = *steps;
    p.trajectory = core::project::CategoricalTrajectory::Even;
    p.pathSteps = 1;  // the even path is not shown; --dp sets the DP's K
    Result<std::string> scheduleSpec = args.require("schedule");
    if (!scheduleSpec) return scheduleSpec.error();
    if (core::Status s = p.setScheduleSpec(*scheduleSpec, "--schedule"); !s) return s.error();
    p.model = args.get("model") == "oracle" ? "" : args.get("model");
    Result<long long> seed = args.getInt64("seed");
    if (!seed) return seed.error();
    p.seed = static_cast<uint64_t>(*seed);
    return p;
}

bool decodesModelDigits(const Args& args) {
    return !args.has("project") && !args.has("table") && args.has("model") &&
           args.get("model") != "oracle";
}

Result<core::project::CategoricalParams> digitsParamsFromModel(const Args& args,
                                                               bool stepsOptional) {
    const std::string path = args.get("model");
    auto network = core::project::digitsParamsOfNetwork(path, "--table");
    if (!network) return modelError(path, network.error());
    core::project::CategoricalParams p = *network;
    if (args.has("condition")) {
        if (core::Status s = p.selectCondition(args.get("condition"), "--condition", "the digits");
            !s) {
            return s.error();
        }
    }
    Result<int> steps = stepsOptional ? args.getBounded("steps", core::limits::kSteps, 1)
                                      : args.getBounded("steps", core::limits::kSteps);
    if (!steps) return steps.error();
    p = p.withNumSteps(*steps);
    if (args.has("schedule")) {
        if (core::Status s = p.setScheduleSpec(args.get("schedule"), "--schedule"); !s) {
            return s.error();
        }
    }
    return p;
}

Result<core::project::CategoricalParams> categoricalParamsFromProject(const Args& args) {
    auto project = core::project::readProjectFile(args.get("project"));
    if (!project) return project.error();
    core::project::CategoricalParams p = project->categorical;
    if (args.has("pi")) {
        // masked:K turns the project's mask state on (its π is then unused), anything else off.
        if (core::Status s = p.setPriorSpec(args.get("pi"), "--pi", p.numClasses); !s) {
            return s.error();
        }
    }
    if (args.has("schedule")) {
        if (core::Status s = p.setScheduleSpec(args.get("schedule"), "--schedule"); !s) {
            return s.error();
        }
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
        if (core::Status s = p.selectCondition(args.get("condition"), "--condition", "the project");
            !s) {
            return s.error();
        }
    }
    return p;
}

Result<std::pair<long long, int>> samplesAndThreads(const Args& args) {
    Result<long long> samples =
        args.has("samples") ? args.getInt64("samples") : Result<long long>(0);
    if (!samples) return samples.error();
    if (*samples < 0 || (args.has("samples") && *samples < 2)) {
        return core::invalidArgument("--samples", args.get("samples"), "M must be ≥ 2");
    }
    Result<int> threads = threadCount(args);
    if (!threads) return threads.error();
    if (*threads < 1) {
        return core::invalidArgument("--threads", args.get("threads"), "must be ≥ 1");
    }
    return std::pair{*samples, *threads};
}

Result<std::shared_ptr<const core::project::CategoricalSetup>> buildCategoricalSetup(
    const Args& args, const core::project::CategoricalParams& params) {
    auto setup = core::project::CategoricalSetup::build(params, core::project::fileSources(), true);
    if (!setup) {
        core::Error error = setup.error();
        if (args.has("model") && !params.model.empty()) error = modelError(params.model, error);
        if (error.field == "schedule") error.field = "--schedule";
        return error;
    }
    return setup;
}

const Option kPriorOption =
    required("pi",
             "P",
             "the prior π: uniform:K, absorbing:K (the last of K classes is the mask), masked:K "
             "(K data classes and a mask state K + 1) or p1,p2,…");

}  // namespace app::cli
