// SPDX-License-Identifier: MIT
#include "core/model/torch_contract.h"

#include "core/io/json.h"
#include "core/io/zip_archive.h"
#include "core/schedule/beta_curve.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/limits.h"

namespace core::model {
namespace {

// The contract is a few hundred bytes; anything near this is not one.
constexpr uint64_t kMaxContractBytes = 1 << 20;

Error contractError(const std::string& path, const std::string& field, const std::string& value,
                    const std::string& message) {
    return makeError(ErrorCode::ParseError, path + ": " + kTorchContractFile + ": " + field,
                     value, message);
}

// A value as a message shows it: at most 80 bytes of it, then its size.
std::string shortValue(const std::string& value) {
    if (value.size() <= 80) return value;
    size_t cut = 77;
    while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
    return value.substr(0, cut) + "… (" + std::to_string(value.size()) + " bytes)";
}

// The contract's schedule, parsed and built by the parsers every schedule goes through: a
// Gaussian spec (linear, cosine, scaled-linear, sigmoid, csv:FILE, each optionally ,zero-snr)
// for num_steps, or a categorical β(t) (linear, cosine, power:P, custom:FILE, info-linear).
Status checkContractSchedule(const std::string& process, const std::string& schedule,
                             int numSteps, const std::string& path) {
    if (schedule.size() > kMaxContractScheduleBytes) {
        return contractError(path, "schedule", shortValue(schedule),
                             "longer than " + std::to_string(kMaxContractScheduleBytes) +
                                 " bytes; a schedule's name is a few letters");
    }
    if (schedule.empty() || schedule.find("N=") != std::string::npos) {
        return contractError(path, "schedule", schedule,
                             "must name the schedule (e.g. linear or cosine,zero-snr); N goes in "
                             "num_steps");
    }
    Error error;
    if (process == "gaussian") {
        auto built = schedule::gaussianScheduleFromSpec(schedule, numSteps);
        if (built) return {};
        error = built.error();
    } else {
        if (schedule == "info-linear") return {};  // built from the data it is used with
        auto curve = schedule::parseBetaCurve(schedule, {}, "schedule");
        if (curve) return {};
        error = curve.error();
    }
    // The parser's own field is the option it was written for; here it is the contract's.
    std::string reason = error.message;
    if (error.field != "schedule" && !error.field.empty()) {
        reason = error.field + (error.value.empty() ? "" : " = " + shortValue(error.value)) + ": " +
                 reason;
    }
    return contractError(path, "schedule", shortValue(schedule), reason);
}

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

const char* predictionName(TorchPrediction prediction) {
    switch (prediction) {
        case TorchPrediction::Epsilon: return "epsilon";
        case TorchPrediction::Sample: return "sample";
        case TorchPrediction::VPrediction: return "v_prediction";
    }
    return "?";
}

Result<TorchContract> parseTorchContract(const std::string& text, const std::string& path) {
    auto json = io::parseJsonStrict(text, path + ": " + kTorchContractFile);
    if (!json) return json.error();
    if (!json->is_object()) {
        return contractError(path, "", "", "must be a JSON object");
    }
    const io::JsonFields fields(*json, path + ": " + kTorchContractFile + ": ");
    TorchContract c;
    auto process = fields.string("process");
    if (!process) return process.error();
    if (*process != "gaussian" && *process != "categorical") {
        return contractError(path, "process", *process, "must be gaussian or categorical");
    }
    c.process = *process;
    if (c.process == "gaussian") {
        std::string prediction = "epsilon";
        if (auto read = fields.stringOr("prediction", prediction); !read) return read.error();
        if (prediction == "epsilon") {
            c.prediction = TorchPrediction::Epsilon;
        } else if (prediction == "sample") {
            c.prediction = TorchPrediction::Sample;
        } else if (prediction == "v_prediction") {
            c.prediction = TorchPrediction::VPrediction;
        } else {
            return contractError(path, "prediction", prediction,
                                 "must be epsilon, sample or v_prediction");
        }
    }
    auto schedule = fields.string("schedule");
    if (!schedule) return schedule.error();
    c.schedule = *schedule;
    auto steps = fields.integer("num_steps");
    if (!steps) return steps.error();
    if (auto ok = limits::checkRange(limits::kSteps, path + ": " + kTorchContractFile + ": num_steps",
                                     *steps);
        !ok) {
        return ok.error();
    }
    c.numSteps = *steps;
    if (Status ok = checkContractSchedule(c.process, c.schedule, c.numSteps, path); !ok) {
        return ok.error();
    }
    const io::Json* shape = fields.raw("shape");
    if (shape == nullptr || !shape->is_array() || shape->empty() || shape->size() > 4) {
        return contractError(path, "shape", shape ? shape->dump() : "absent",
                             "must be a list of 1 to 4 sizes, e.g. [2] or [1, 28, 28]");
    }
    long long elements = 1;
    for (const io::Json& size : *shape) {
        const auto n = io::jsonUint64(size);
        if (!n || *n < 1 || *n > static_cast<uint64_t>(limits::kDimension.max)) {
            return contractError(path, "shape", shape->dump(),
                                 "every size must be a whole number ≥ 1");
        }
        c.shape.push_back(static_cast<int>(*n));
        elements *= static_cast<long long>(*n);
        if (elements > limits::kDimension.max) break;
    }
    const std::string shapeField = path + ": " + kTorchContractFile + ": shape";
    if (c.process == "gaussian") {
        if (auto ok = limits::checkRange(limits::kDimension, shapeField, elements); !ok) {
            return ok.error();
        }
    } else {
        if (c.shape.size() != 1) {
            return contractError(path, "shape", shape->dump(),
                                 "a categorical model's data point is [D]");
        }
        if (auto ok = limits::checkRange(limits::kPositions, shapeField, elements); !ok) {
            return ok.error();
        }
        auto classes = fields.integer("num_classes");
        if (!classes) return classes.error();
        if (auto ok = limits::checkRange(
                limits::kClasses, path + ": " + kTorchContractFile + ": num_classes", *classes);
            !ok) {
            return ok.error();
        }
        c.numClasses = *classes;
    }
    if (auto read = fields.integerOr("num_conditions", c.numConditions); !read) return read.error();
    if (auto ok = limits::checkRange(limits::kConditions,
                                     path + ": " + kTorchContractFile + ": num_conditions",
                                     c.numConditions);
        !ok) {
        return ok.error();
    }
    return c;
}

Result<TorchContract> readTorchContract(std::string_view bytes, const std::string& path) {
    if (!io::looksLikeZip(bytes)) {
        return makeError(ErrorCode::ParseError, path, "",
                         "not a TorchScript archive (it does not start as a ZIP file)");
    }
    auto entries = io::listZip(bytes, path);
    if (!entries) return entries.error();
    // torch.jit.save writes "<archive>/data.pkl", "<archive>/extra/<name>", … under one folder.
    const io::ZipEntry* contract = nullptr;
    bool hasData = false;
    for (const io::ZipEntry& e : *entries) {
        if (endsWith(e.name, "/data.pkl")) hasData = true;
        if (endsWith(e.name, std::string("/extra/") + kTorchContractFile)) {
            if (contract != nullptr) {
                return makeError(ErrorCode::ParseError, path, "",
                                 std::string("the archive holds two ") + kTorchContractFile);
            }
            contract = &e;
        }
    }
    if (!hasData) {
        return makeError(ErrorCode::ParseError, path, "",
                         "a ZIP file but not a TorchScript archive (no data.pkl; save the "
                         "model with torch.jit.save)");
    }
    if (contract == nullptr) {
        return makeError(ErrorCode::ParseError, path, "",
                         std::string("a TorchScript archive without ") + kTorchContractFile +
                             ": save it with torch.jit.save(module, path, _extra_files={\"" +
                             kTorchContractFile + "\": …}) (see python/diffuscope_torch)");
    }
    // LibTorch's reader trusts the archive's bytes; a damaged one is refused here instead.
    for (const io::ZipEntry& e : *entries) {
        if (Status intact = io::checkZipEntry(bytes, e, path); !intact) return intact.error();
    }
    auto text = io::readZipEntry(bytes, *contract, kMaxContractBytes, path);
    if (!text) return text.error();
    return parseTorchContract(*text, path);
}

io::CheckpointInfo checkpointInfo(const TorchContract& c) {
    io::CheckpointInfo info;
    info.process = c.process;
    info.schedule = c.schedule + ",N=" + std::to_string(c.numSteps);
    info.numClasses = c.numClasses;
    info.numPositions = c.elements();
    info.numConditions = c.numConditions;
    io::Json architecture = io::Json::object();
    architecture["kind"] = "torchscript";
    if (c.process == "gaussian") architecture["prediction"] = predictionName(c.prediction);
    architecture["shape"] = c.shape;
    info.architecture = architecture.dump();
    return info;
}

}  // namespace core::model
