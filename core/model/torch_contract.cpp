// SPDX-License-Identifier: MIT
#include "core/model/torch_contract.h"

#include <cmath>
#include <cstdint>

#include "core/io/json.h"
#include "core/io/reader_text.h"
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

// A value as a message shows it: at most 80 bytes of it, then its size, with control
// characters and invalid UTF-8 escaped (the file's text is anyone's).
std::string shortValue(const std::string& value) {
    if (value.size() <= 80) return io::printable(value);
    return io::printable(value, 77) + " (" + std::to_string(value.size()) + " bytes)";
}

// A whole number within `range`: the message names the rule that was broken (a number, a whole
// one, the lower or the upper limit) and the value as the file wrote it. `what` names the
// number in the messages, by default the range's own name.
Result<int> contractInteger(const io::Json* value, const char* key, const limits::IntRange& range,
                            const std::string& path, std::string what = "") {
    const bool own = what.empty();
    if (own) what = range.what;
    if (value == nullptr) {
        return contractError(path, key, "missing", "a number is expected");
    }
    const std::string text = io::jsonValueText(*value);
    if (!value->is_number()) return contractError(path, key, text, "a number is expected");
    const double v = value->get<double>();
    if (v != std::floor(v)) return contractError(path, key, text, "a whole number is expected");
    if (v < static_cast<double>(range.min)) {
        return contractError(path, key, text, what + " must be at least " + std::to_string(range.min));
    }
    if (v > static_cast<double>(range.max)) {
        return contractError(path, key, text,
                             what + " must be at most " + std::to_string(range.max) +
                                 (own ? "" : std::string(", the limit of ") + range.what));
    }
    return static_cast<int>(v);
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
        return contractError(path, "schedule", shortValue(schedule),
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
    // The parser's own field is the option it was written for; here it is the contract's. Its
    // field and message may quote the schedule's file name, which is the contract's text too.
    std::string reason = error.message;
    if (error.field != "schedule" && !error.field.empty()) {
        reason = error.field + (error.value.empty() ? "" : " = " + shortValue(error.value)) + ": " +
                 reason;
    }
    return contractError(path, "schedule", shortValue(schedule), io::printable(reason, 1000));
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
        return contractError(path, "process", shortValue(*process),
                             "must be gaussian or categorical");
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
            return contractError(path, "prediction", shortValue(prediction),
                                 "must be epsilon, sample or v_prediction");
        }
    }
    auto schedule = fields.string("schedule");
    if (!schedule) return schedule.error();
    c.schedule = *schedule;
    auto steps = contractInteger(fields.raw("num_steps"), "num_steps", limits::kSteps, path);
    if (!steps) return steps.error();
    c.numSteps = *steps;
    if (Status ok = checkContractSchedule(c.process, c.schedule, c.numSteps, path); !ok) {
        return ok.error();
    }
    const io::Json* shape = fields.raw("shape");
    if (shape == nullptr || !shape->is_array() || shape->empty() || shape->size() > 4) {
        return contractError(path, "shape", shape ? shortValue(shape->dump()) : "absent",
                             "must be a list of 1 to 4 sizes, e.g. [2] or [1, 28, 28]");
    }
    const bool gaussian = c.process == "gaussian";
    if (!gaussian && shape->size() != 1) {
        return contractError(path, "shape", shortValue(shape->dump()),
                             "a categorical model's data point is [D]");
    }
    // One size is at most what all of them may hold together: d for a Gaussian model, D for a
    // categorical one.
    const limits::IntRange& total = gaussian ? limits::kDimension : limits::kPositions;
    for (size_t i = 0; i < shape->size(); ++i) {
        auto n = contractInteger(&(*shape)[i], "", total, path, "a size");
        if (!n) {
            Error error = n.error();
            error.field += "shape[" + std::to_string(i) + "]";
            return error;
        }
        c.shape.push_back(*n);
    }
    // At most 4 factors of at most 2^16 each: the product overflows 64 bits only at 2^64 itself.
    uint64_t elements = 1;
    bool overflow = false;
    for (int n : c.shape) {
        overflow = overflow || __builtin_mul_overflow(elements, static_cast<uint64_t>(n), &elements);
    }
    if (overflow || elements > static_cast<uint64_t>(total.max)) {
        return contractError(path, "shape", shortValue(shape->dump()),
                             std::string(total.what) + ", the product of the sizes (" +
                                 (overflow ? std::string("18446744073709551616")
                                           : std::to_string(elements)) +
                                 "), must be at most " + std::to_string(total.max));
    }
    if (!gaussian) {
        auto classes = contractInteger(fields.raw("num_classes"), "num_classes",
                                       limits::kClasses, path);
        if (!classes) return classes.error();
        c.numClasses = *classes;
    }
    if (const io::Json* conditions = fields.raw("num_conditions"); conditions != nullptr) {
        auto read = contractInteger(conditions, "num_conditions", limits::kConditions, path);
        if (!read) return read.error();
        c.numConditions = *read;
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
