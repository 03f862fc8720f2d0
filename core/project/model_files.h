// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include "core/io/safetensors.h"
#include "core/model/checkpoint.h"
#include "core/util/result.h"

// Model files as `info` lists them.
namespace core::project {

// A safetensors checkpoint's metadata and tensors, its Diffuscope keys checked as the loaders
// check them (a file they would refuse is refused here too); or a TorchScript model, loaded and
// its forward pass checked against its contract, with its parameters. "bundled:<file>" reads
// the installed copy.
struct ModelFileListing {
    bool torchScript = false;
    io::Checkpoint checkpoint;                        // safetensors
    std::shared_ptr<const model::LoadedModel> model;  // TorchScript
};
Result<ModelFileListing> readModelFileListing(const std::string& named);

}  // namespace core::project
