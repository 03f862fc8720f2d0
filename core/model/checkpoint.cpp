// SPDX-License-Identifier: MIT
#include "core/model/checkpoint.h"

#include <sstream>

#include "core/data/bundled_files.h"

#include <cmath>
#include <tuple>

#include "core/io/json.h"
#include "core/io/reader_text.h"
#include "core/io/safetensors.h"
#include "core/schedule/diffusers_config.h"
#include "core/schedule/gaussian_schedule.h"

namespace core::model {
namespace {

Error checkpointError(const std::string& path, const std::string& field, const std::string& message) {
    return makeError(ErrorCode::ParseError, path + (field.empty() ? "" : ": " + field), "", message);
}

// The tensors of a resumable checkpoint's training state (saveMlpCheckpoint).
constexpr const char* kStateOnline = "train_state.online";
constexpr const char* kStateMoment1 = "train_state.moment1";
constexpr const char* kStateMoment2 = "train_state.moment2";
constexpr const char* kStateLoss = "train_state.train_loss";

bool isStateTensor(const std::string& name) { return name.rfind("train_state.", 0) == 0; }

// N from a Gaussian schedule field such as "linear,N=1000".
int stepsFromSchedule(const std::string& schedule) {
    const size_t at = schedule.find("N=");
    return at == std::string::npos ? 0 : std::atoi(schedule.c_str() + at + 2);
}

}  // namespace

std::string architectureToJson(const MlpConfig& c) {
    io::Json json = io::Json::object();
    json["kind"] = "mlp";
    json["inputs"] = c.inputs;
    json["outputs"] = c.outputs;
    json["width"] = c.width;
    json["depth"] = c.depth;
    json["activation"] = activationName(c.activation);
    json["layer_norm"] = c.layerNorm;
    json["time_embedding"] = c.timeEmbedding;
    json["time_scale"] = c.timeScale;
    json["num_conditions"] = c.numConditions;
    json["condition_embedding"] = c.conditionEmbedding;
    return json.dump();
}

Result<MlpConfig> architectureFromJson(const std::string& json) {
    auto value = io::parseJsonStrict(json, "architecture");
    if (!value) {
        return value.error();
    }
    if (!value->is_object()) {
        return invalidArgument("architecture", json, "a JSON object is expected");
    }
    const io::JsonFields fields(*value, "architecture.");
    const io::Json* kind = fields.raw("kind");
    if (kind == nullptr || !kind->is_string() || kind->get<std::string>() != "mlp") {
        return invalidArgument("architecture.kind", json, "only \"mlp\" networks are supported");
    }
    MlpConfig config;
    auto integer = [&](const char* key, int& out) -> Status {
        if (!fields.has(key)) {
            return invalidArgument(std::string("architecture.") + key, "", "missing");
        }
        auto v = fields.integer(key);
        if (!v) {
            Error e = v.error();
            e.code = ErrorCode::InvalidArgument;  // as every other architecture error
            return e;
        }
        out = *v;
        return {};
    };
    for (auto [key, field] : {std::pair{"inputs", &config.inputs}, std::pair{"outputs", &config.outputs},
                              std::pair{"width", &config.width}, std::pair{"depth", &config.depth},
                              std::pair{"time_embedding", &config.timeEmbedding},
                              std::pair{"num_conditions", &config.numConditions},
                              std::pair{"condition_embedding", &config.conditionEmbedding}}) {
        if (Status s = integer(key, *field); !s) {
            return s.error();
        }
    }
    if (const io::Json* scale = fields.raw("time_scale"); scale != nullptr && scale->is_number()) {
        config.timeScale = scale->get<double>();
    }
    if (const io::Json* norm = fields.raw("layer_norm"); norm != nullptr) {
        config.layerNorm = norm->is_boolean() && norm->get<bool>();
    }
    const io::Json* activation = fields.raw("activation");
    if (activation == nullptr || !activation->is_string()) {
        return invalidArgument("architecture.activation", "", "silu or gelu is expected");
    }
    auto parsed = parseActivation(activation->get<std::string>(), "architecture.activation");
    if (!parsed) {
        return parsed.error();
    }
    config.activation = *parsed;
    if (Status s = config.validate(); !s) {
        return s.error();
    }
    return config;
}

Status saveMlpCheckpoint(const std::string& path, const Mlp& mlp, io::CheckpointInfo info,
                         const TrainState* state) {
    info.architecture = architectureToJson(mlp.config());
    if (state != nullptr) {
        info.trainingSteps = state->stepsDone;
        info.trainParams = state->trainParams;
    }
    io::Checkpoint checkpoint;
    checkpoint.metadata = io::toMetadata(info);
    for (NamedTensor& tensor : mlp.parameters()) {
        checkpoint.set(tensor.name, io::makeF32Tensor(tensor.shape, std::move(tensor.data)));
    }
    if (state != nullptr) {
        const int64_t p = mlp.numParameters();
        checkpoint.set(kStateOnline, io::makeF32Tensor({p}, state->online));
        checkpoint.set(kStateMoment1, io::makeF32Tensor({p}, state->moment1));
        checkpoint.set(kStateMoment2, io::makeF32Tensor({p}, state->moment2));
        checkpoint.set(kStateLoss, io::makeF64Tensor({static_cast<int64_t>(state->trainLoss.size())},
                                                     state->trainLoss));
    }
    return io::writeSafetensors(path, checkpoint);
}

Status sameRun(const TrainState& state, const std::string& process, const std::string& dataSet,
               const std::string& schedule) {
    for (auto [key, saved, now] : {std::tuple{"process", &state.process, &process},
                                   std::tuple{"data", &state.dataSet, &dataSet},
                                   std::tuple{"schedule", &state.schedule, &schedule}}) {
        if (*saved != *now) {
            return invalidArgument("resume", *now,
                                   std::string("the stopped run was trained with ") + key + " '" +
                                       *saved + "', not '" + *now + "'");
        }
    }
    return {};
}

std::string scheduleKind(const std::string& process, const std::string& spec) {
    if (process == "gaussian") {
        const schedule::ScheduleSpecParts parts = schedule::splitScheduleSpec(spec);
        const std::string base = parts.base.rfind("csv:", 0) == 0         ? "csv"
                                 : parts.base.rfind("diffusers:", 0) == 0 ? "diffusers"
                                                                          : parts.base;
        return base + (parts.zeroSnr ? schedule::kZeroSnrSuffix : "");
    }
    return spec.rfind("custom", 0) == 0 ? "custom" : spec;
}

namespace {

// A TorchScript network runs under the schedule its contract names, or is refused naming both.
Status checkContractSchedule(const LoadedModel& model, const std::string& path,
                             const std::string& process, const std::string& schedule) {
    if (model.contractSchedule.empty() || schedule.empty()) return {};
    if (scheduleKind(process, model.contractSchedule) == scheduleKind(process, schedule)) return {};
    // The contract's schedule is the file's text: up to 4096 bytes of anything valid in JSON.
    return invalidArgument(path, "",
                           "the network was trained under the schedule " +
                               io::printable(model.contractSchedule, 300) +
                               " (diffuscope.json) but the schedule here is " +
                               io::printable(schedule, 300) + "; set the schedule to match");
}

// The ᾱ_n a network without a contract was fitted to (its training schedule, "linear,N=1000")
// against the set-up's, by value: the same ᾱ from another spelling (diffusers' linear β in
// float32 against linear) passes, another schedule (Stable Diffusion's scaled_linear under a
// network trained on linear) is refused, as the lab refuses another schedule under a network.
// A training schedule that cannot be built here (its csv or diffusers file gone) is compared
// by kind.
Status checkTrainedAlphaBar(const LoadedModel& model, const std::string& path, int numSteps,
                            const std::string& schedule) {
    constexpr double kTolerance = 1e-4;  // float32 tables agree to ~1e-7; other schedules differ by 1e-3 or more
    const std::string& trainedWith = model.info.schedule;
    const std::string trained = trainedWith.substr(0, trainedWith.rfind(",N="));
    auto here = schedule::gaussianScheduleFromSpec(schedule, numSteps);
    if (!here) return {};  // the set-up refuses its own schedule
    const auto refuse = [&](const std::string& detail) {
        return invalidArgument(path, "",
                               "the network was trained under the schedule " +
                                   io::printable(trained, 300) + " but the schedule here is " +
                                   io::printable(schedule, 300) + detail +
                                   "; set the schedule to match, or use the exact oracle");
    };
    auto fitted = schedule::gaussianScheduleFromSpec(trained, numSteps);
    if (!fitted) {
        return scheduleKind("gaussian", trained) == scheduleKind("gaussian", schedule) ? Status{}
                                                                                       : refuse("");
    }
    int worst = 0;
    double gap = 0.0;
    for (int n = 1; n <= numSteps; ++n) {
        const double d = std::abs(fitted->alphaBar(n) - here->alphaBar(n));
        if (d > gap) {
            gap = d;
            worst = n;
        }
    }
    if (gap <= kTolerance) return {};
    // Six significant digits: the two differ by more than the tolerance, so they show it.
    const auto shown = [](double v) {
        std::ostringstream out;
        out.precision(6);
        out << v;
        return out.str();
    };
    return refuse(" (ᾱ at n = " + std::to_string(worst) + ": " + shown(here->alphaBar(worst)) +
                  " here against " + shown(fitted->alphaBar(worst)) + ")");
}

}  // namespace

Status checkGaussianFit(const LoadedModel& model, const std::string& path, int numSteps,
                        int dimension, const std::string& schedule) {
    if (Status s = checkGaussianSchedule(model, path, numSteps, schedule); !s) return s;
    if (model.gaussian->dimension() != dimension) {
        return invalidArgument(path, "",
                               "the network has dimension " +
                                   std::to_string(model.gaussian->dimension()) +
                                   " but the data have " + std::to_string(dimension));
    }
    return {};
}

Status checkGaussianSchedule(const LoadedModel& model, const std::string& path, int numSteps,
                             const std::string& schedule) {
    const auto refuse = [&](const std::string& message) {
        return invalidArgument(path, "", message);
    };
    if (!model.gaussian) {
        return refuse("a categorical checkpoint: a Gaussian set-up needs a Gaussian one");
    }
    const int trained = stepsFromSchedule(model.info.schedule);
    if (trained < 1) {
        return refuse("the checkpoint's schedule '" + model.info.schedule +
                      "' does not say N (…,N=…), so its fit cannot be checked");
    }
    if (trained != numSteps) {
        return refuse("the network was trained for N = " + std::to_string(trained) +
                      " (schedule " + model.info.schedule + ") but N = " +
                      std::to_string(numSteps) + " here; set N to match");
    }
    if (Status s = checkContractSchedule(model, path, "gaussian", schedule); !s) return s;
    if (model.contractSchedule.empty() && !schedule.empty()) {
        if (Status s = checkTrainedAlphaBar(model, path, numSteps, schedule); !s) return s;
    }
    // A diffusers config says what its network predicts; a contract that says otherwise would
    // run every sampler on the wrong quantity.
    if (!model.contractSchedule.empty() && !schedule.empty()) {
        const io::Json architecture = io::Json::parse(model.info.architecture, nullptr, false);
        if (architecture.is_object() && architecture.contains("prediction") &&
            architecture["prediction"].is_string()) {
            const std::string mismatch = schedule::predictionTypeMismatch(
                schedule, architecture["prediction"].get<std::string>(), path);
            if (!mismatch.empty()) return invalidArgument("prediction_type", "", mismatch);
        }
    }
    return {};
}

Status checkCategoricalFit(const LoadedModel& model, const std::string& path, int numClasses,
                           int numPositions, int numConditions, const std::string& schedule) {
    const auto refuse = [&](const std::string& message) {
        return invalidArgument(path, "", message);
    };
    if (!model.categorical) {
        return refuse("a Gaussian checkpoint: a categorical set-up needs a categorical one");
    }
    const io::CheckpointInfo& info = model.info;
    if (info.numClasses != numClasses || info.numPositions != numPositions) {
        return refuse("the network is for K = " + std::to_string(info.numClasses) + ", D = " +
                      std::to_string(info.numPositions) + " but the data have K = " +
                      std::to_string(numClasses) + ", D = " + std::to_string(numPositions));
    }
    // Data without labels (one implicit condition) use a conditional network's "no condition"
    // row; labelled data need the network's own labels.
    if (info.numConditions != 0 && numConditions > 1 && info.numConditions != numConditions) {
        return refuse("the network knows " + std::to_string(info.numConditions) +
                      " conditions but the data have " + std::to_string(numConditions));
    }
    return checkContractSchedule(model, path, "categorical", schedule);
}

Result<LoadedModel> loadMlpCheckpoint(const std::string& path, int numSteps) {
    auto onDisk = data::modelFileOnDisk(path);  // "bundled:<file>": the installed copy
    if (!onDisk) return onDisk.error();
    return loadMlpCheckpoint(io::readSafetensors(*onDisk), *onDisk, numSteps);
}

Result<LoadedModel> parseMlpCheckpoint(std::string_view bytes, const std::string& path,
                                       int numSteps) {
    return loadMlpCheckpoint(io::parseSafetensors(bytes, path), path, numSteps);
}

Result<LoadedModel> loadMlpCheckpoint(Result<io::Checkpoint> checkpoint, const std::string& path,
                                      int numSteps) {
    if (!checkpoint) {
        return checkpoint.error();
    }
    auto info = io::checkpointInfoFromMetadata(checkpoint->metadata, path);
    if (!info) {
        return info.error();
    }
    if (info->process != "categorical" && info->process != "gaussian") {
        return checkpointError(path, "process", "the metadata must say process categorical or gaussian");
    }
    if (info->architecture.empty()) {
        return checkpointError(path, "architecture", "the metadata has no architecture");
    }
    auto config = architectureFromJson(info->architecture);
    if (!config) {
        core::Error error = config.error();
        error.field = path + ": " + error.field;
        return error;
    }
    // The trainer writes both from one value: a file where they differ was edited, and which
    // one the network's label embedding follows cannot be told.
    if (info->numConditions != config->numConditions) {
        return checkpointError(path, "num_conditions",
                               "the metadata says " + std::to_string(info->numConditions) +
                                   " conditions but the architecture has " +
                                   std::to_string(config->numConditions));
    }
    if (Status finite = io::checkFinite(*checkpoint, path); !finite) {
        return finite.error();
    }
    auto mlp = Mlp::create(*config, 0);
    if (!mlp) {
        return mlp.error();
    }
    std::vector<NamedTensor> tensors;
    bool hasState = false;
    for (const auto& [name, tensor] : checkpoint->tensors) {
        if (isStateTensor(name)) {
            hasState = true;
        } else {
            tensors.push_back({name, tensor.shape, tensor.data});
        }
    }
    if (Status set = mlp->setParameters(tensors); !set) {
        core::Error error = set.error();
        error.field = path + ": " + error.field;
        return error;
    }
    LoadedModel loaded;
    loaded.info = *info;
    if (hasState) {
        // Every part must be there with the network's parameter count and the run's step count.
        auto state = std::make_shared<TrainState>();
        const int64_t p = mlp->numParameters();
        for (auto [name, out] : {std::pair{kStateOnline, &state->online},
                                 std::pair{kStateMoment1, &state->moment1},
                                 std::pair{kStateMoment2, &state->moment2}}) {
            const io::Tensor* t = checkpoint->find(name);
            if (t == nullptr || t->shape != std::vector<int64_t>{p}) {
                return checkpointError(path, name, "the training state needs this tensor with shape [" +
                                                       std::to_string(p) + "]");
            }
            *out = t->data;
        }
        const io::Tensor* loss = checkpoint->find(kStateLoss);
        if (loss == nullptr || loss->dtype != io::DType::F64 ||
            loss->shape != std::vector<int64_t>{info->trainingSteps} || info->trainParams.empty()) {
            return checkpointError(path, kStateLoss,
                                   "the training state needs an F64 loss history of training_steps = " +
                                       std::to_string(info->trainingSteps) +
                                       " entries and train_params in the metadata");
        }
        state->trainLoss = loss->data64;
        state->stepsDone = static_cast<int>(info->trainingSteps);
        state->trainParams = info->trainParams;
        state->process = info->process;
        state->dataSet = info->dataSet;
        state->schedule = info->schedule;
        state->ema.assign(mlp->flat().begin(), mlp->flat().end());
        loaded.trainState = std::move(state);
    }
    if (info->process == "categorical") {
        auto model = CategoricalMlpDenoiser::create(std::move(mlp).value(), info->numClasses,
                                                    info->numPositions);
        if (!model) {
            return model.error();
        }
        if (info->maskState) {
            // The mask state is the last class and carries all of π.
            const int last = info->numClasses - 1;
            if (static_cast<int>(info->pi.size()) != info->numClasses || info->pi[last] != 1.0) {
                return checkpointError(path, "mask_state",
                                       "a mask state needs π with all its mass on the last class");
            }
            model->setMaskClass(last);
        }
        loaded.categorical = std::make_shared<const CategoricalMlpDenoiser>(std::move(model).value());
    } else {
        const int steps = numSteps > 0 ? numSteps : stepsFromSchedule(info->schedule);
        if (steps < 1) {
            return checkpointError(path, "schedule", "N is unknown: the schedule field needs ,N=…");
        }
        auto model = GaussianMlpEpsModel::create(std::move(mlp).value(), steps);
        if (!model) {
            return model.error();
        }
        loaded.gaussian = std::make_shared<const GaussianMlpEpsModel>(std::move(model).value());
    }
    return loaded;
}

}  // namespace core::model
