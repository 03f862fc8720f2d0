// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/util/result.h"

// Typed access to the `__metadata__` of a Diffuscope checkpoint. safetensors allows
// only string values, so numbers are written as JSON numbers in text (the losses with 17
// significant digits, π in the shortest form that reads back exactly), lists as JSON arrays and
// the architecture as a JSON object, each under the key named beside its field below.
namespace core::io {

// The metadata layout this build writes ("format_version").
constexpr int kCheckpointFormatVersion = 1;

struct CheckpointInfo {
    int formatVersion = kCheckpointFormatVersion;  // "format_version"; 0 when absent
    std::string process;       // "process": "categorical" or "gaussian"; empty when absent
    std::string architecture;  // "architecture": a JSON object as text, e.g.
                               // {"kind":"mlp","width":512,"depth":3}; empty when absent
    int numClasses = 0;        // "num_classes": K (categorical), 0 for Gaussian
    int numPositions = 0;      // "num_positions": D
    int numConditions = 0;     // "num_conditions": labels C (0 = unconditional)
    std::vector<double> pi;    // "pi": the stationary distribution π as a JSON array
    std::string schedule;      // "schedule": the schedule spec as the CLI spells it
    std::string dataSet;       // "data_set": the data spec, e.g. "digits:levels=4"
    bool maskState = false;    // "mask_state": "true" when class K − 1 is a mask state that the
                               // data never use (written only then; absent reads as false)
    long long trainingSteps = 0;  // "training_steps"
    double trainLoss = std::numeric_limits<double>::quiet_NaN();    // "train_loss"; NaN = null
    double heldOutLoss = std::numeric_limits<double>::quiet_NaN();  // "held_out_loss"
    uint64_t seed = 0;         // "seed"
    std::string trainParams;   // "train_params": the training run's parameters as JSON
                               // (core/model/trainer.h trainParamsToJson); empty when absent
};

// The metadata strings for `info` (non-finite losses become "null").
std::map<std::string, std::string> toMetadata(const CheckpointInfo& info);

// Reads the keys above from `metadata`. Absent keys keep their defaults (format_version 0), so
// a PyTorch export without metadata still reads; a present but malformed value is an error
// naming the key and the value. Unknown keys are ignored. `path` labels the messages.
Result<CheckpointInfo> checkpointInfoFromMetadata(
    const std::map<std::string, std::string>& metadata, const std::string& path = {});

}  // namespace core::io
