// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/io/checkpoint_metadata.h"
#include "core/util/result.h"

// The contract of a TorchScript model file (docs/models.md): a module saved with
// torch.jit.save(module, path, _extra_files={"diffuscope.json": …}). The JSON is read and
// checked here, from the ZIP archive itself, before LibTorch sees the file, so a file without
// it, or with a wrong field, is refused with the field and the reason, in every build.
namespace core::model {

inline constexpr const char* kTorchContractFile = "diffuscope.json";
// The longest schedule a contract may name (a csv:FILE path at most).
inline constexpr size_t kMaxContractScheduleBytes = 4096;

enum class TorchPrediction { Epsilon, Sample, VPrediction };

struct TorchContract {
    std::string process;                   // "gaussian" | "categorical"
    TorchPrediction prediction = TorchPrediction::Epsilon;  // Gaussian only
    std::string schedule;                  // as the project spells it, without N
    int numSteps = 0;                      // N
    std::vector<int> shape;                // one data point: [d], [C, H, W], …; categorical [D]
    int numClasses = 0;                    // categorical K
    int numConditions = 0;                 // 0 = unconditional

    int elements() const {                 // the product of shape: d, or D
        long long product = 1;
        for (int s : shape) product *= s;
        return static_cast<int>(product);
    }
};

const char* predictionName(TorchPrediction prediction);

// Parses and checks the contract's JSON text; errors name "<path>: diffuscope.json: <field>"
// and the value.
Result<TorchContract> parseTorchContract(const std::string& json, const std::string& path);

// Finds diffuscope.json in the archive `bytes` and parses it. Refuses a file that is not a ZIP
// archive, is not a TorchScript archive (no data.pkl), or has no contract.
Result<TorchContract> readTorchContract(std::string_view bytes, const std::string& path);

// The contract as checkpoint metadata, so `info`, the fit checks and the GUI treat a
// TorchScript model like a checkpoint: the schedule gains ",N=<num_steps>", numPositions is
// the number of elements, and the architecture is {"kind":"torchscript", …the contract}.
io::CheckpointInfo checkpointInfo(const TorchContract& contract);

}  // namespace core::model
