// SPDX-License-Identifier: MIT
#include "core/io/checkpoint_metadata.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/io/json.h"

namespace core::io {
namespace {

std::string numberText(double v) { return std::isfinite(v) ? formatValue(v) : "null"; }

Error badValue(const std::string& path, const std::string& key, const std::string& value,
               const std::string& message) {
    return makeError(ErrorCode::ParseError,
                     (path.empty() ? "" : path + ": ") + "__metadata__ '" + key + "'", value,
                     message);
}

// Strict integer text: an optional '-', then digits only, within [lo, hi].
bool parseInteger(const std::string& text, long long lo, unsigned long long hi, bool& negative,
                  unsigned long long& magnitude) {
    negative = !text.empty() && text[0] == '-';
    const std::string digits = negative ? text.substr(1) : text;
    if (digits.empty() || digits.size() > 20 ||
        digits.find_first_not_of("0123456789") != std::string::npos) {
        return false;
    }
    errno = 0;
    magnitude = std::strtoull(digits.c_str(), nullptr, 10);
    if (errno == ERANGE) {
        return false;
    }
    if (negative) {
        return magnitude <= static_cast<unsigned long long>(-(lo + 1)) + 1;
    }
    return magnitude <= hi;
}

}  // namespace

std::map<std::string, std::string> toMetadata(const CheckpointInfo& info) {
    std::map<std::string, std::string> m;
    m["format_version"] = std::to_string(info.formatVersion);
    m["process"] = info.process;
    m["architecture"] = info.architecture.empty() ? "{}" : info.architecture;
    m["num_classes"] = std::to_string(info.numClasses);
    m["num_positions"] = std::to_string(info.numPositions);
    m["num_conditions"] = std::to_string(info.numConditions);
    m["pi"] = Json(info.pi).dump();  // a non-finite entry becomes null
    m["schedule"] = info.schedule;
    m["data_set"] = info.dataSet;
    if (info.maskState) m["mask_state"] = "true";
    m["training_steps"] = std::to_string(info.trainingSteps);
    m["train_loss"] = numberText(info.trainLoss);
    m["held_out_loss"] = numberText(info.heldOutLoss);
    m["seed"] = std::to_string(info.seed);
    if (!info.trainParams.empty()) m["train_params"] = info.trainParams;
    return m;
}

Result<CheckpointInfo> checkpointInfoFromMetadata(
    const std::map<std::string, std::string>& metadata, const std::string& path) {
    CheckpointInfo info;
    info.formatVersion = 0;
    const auto text = [&](const char* key) -> const std::string* {
        const auto it = metadata.find(key);
        return it == metadata.end() ? nullptr : &it->second;
    };
    // Integers, each with its range.
    struct IntKey {
        const char* key;
        long long lo;
        unsigned long long hi;
    };
    const IntKey intKeys[] = {
        {"format_version", 0, 1'000'000}, {"num_classes", 0, 1 << 24},
        {"num_positions", 0, 1 << 24},     {"num_conditions", 0, 1 << 24},
        {"training_steps", 0, 1ull << 62}, {"seed", 0, ~0ull},
    };
    for (const IntKey& k : intKeys) {
        const std::string* v = text(k.key);
        if (v == nullptr) {
            continue;
        }
        bool negative = false;
        unsigned long long magnitude = 0;
        if (!parseInteger(*v, k.lo, k.hi, negative, magnitude) || (negative && magnitude != 0)) {
            return badValue(path, k.key, *v,
                            "expected an integer in [" + std::to_string(k.lo) + ", " +
                                std::to_string(k.hi) + "]");
        }
        const std::string key = k.key;
        if (key == "format_version") {
            info.formatVersion = static_cast<int>(magnitude);
        } else if (key == "num_classes") {
            info.numClasses = static_cast<int>(magnitude);
        } else if (key == "num_positions") {
            info.numPositions = static_cast<int>(magnitude);
        } else if (key == "num_conditions") {
            info.numConditions = static_cast<int>(magnitude);
        } else if (key == "training_steps") {
            info.trainingSteps = static_cast<long long>(magnitude);
        } else {
            info.seed = magnitude;
        }
    }
    if (info.formatVersion > kCheckpointFormatVersion) {
        return makeError(ErrorCode::Unsupported,
                         (path.empty() ? "" : path + ": ") + "__metadata__ 'format_version'",
                         std::to_string(info.formatVersion),
                         "the checkpoint is newer than this build (format " +
                             std::to_string(kCheckpointFormatVersion) + ")");
    }
    if (const std::string* v = text("process")) {
        if (*v != "categorical" && *v != "gaussian") {
            return badValue(path, "process", *v, "expected categorical or gaussian");
        }
        info.process = *v;
    }
    if (const std::string* v = text("architecture")) {
        Result<Json> json = parseJsonStrict(*v, "architecture");
        if (!json || !json->is_object()) {
            return badValue(path, "architecture", v->substr(0, 60),
                            "expected a JSON object" +
                                (json ? std::string() : " (" + json.error().message + ")"));
        }
        info.architecture = *v;
    }
    if (const std::string* v = text("train_params")) {
        Result<Json> json = parseJsonStrict(*v, "train_params");
        if (!json || !json->is_object()) {
            return badValue(path, "train_params", v->substr(0, 60), "expected a JSON object");
        }
        info.trainParams = *v;
    }
    for (const char* key : {"train_loss", "held_out_loss"}) {
        const std::string* v = text(key);
        if (v == nullptr || *v == "null") {
            continue;
        }
        errno = 0;
        char* end = nullptr;
        const double d = std::strtod(v->c_str(), &end);
        if (v->empty() || end != v->c_str() + v->size() || !std::isfinite(d)) {
            return badValue(path, key, *v, "expected a finite number or null");
        }
        (std::string(key) == "train_loss" ? info.trainLoss : info.heldOutLoss) = d;
    }
    if (const std::string* v = text("pi")) {
        Result<Json> json = parseJsonStrict(*v, "pi");
        bool ok = json && json->is_array();
        if (ok) {
            for (const Json& p : *json) {
                ok = ok && p.is_number() && p.get<double>() >= 0.0;
                info.pi.push_back(ok ? p.get<double>() : 0.0);
            }
        }
        if (!ok) {
            return badValue(path, "pi", v->substr(0, 60),
                            "expected a JSON array of non-negative numbers");
        }
    }
    if (const std::string* v = text("schedule")) {
        info.schedule = *v;
    }
    if (const std::string* v = text("data_set")) {
        info.dataSet = *v;
    }
    if (const std::string* v = text("mask_state")) {
        if (*v != "true" && *v != "false") {
            return badValue(path, "mask_state", v->substr(0, 60), "expected true or false");
        }
        info.maskState = *v == "true";
    }
    return info;
}

}  // namespace core::io
