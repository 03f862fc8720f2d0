// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

#include "core/model/checkpoint.h"
#include "core/util/result.h"

// Model files as every part of the program opens them: our safetensors checkpoints and
// TorchScript archives (torch_model.h), told apart by their first bytes, not by their names.
namespace core::model {

// The bytes of a model file, checked like every input file (a regular file, at most
// kMaxCheckpointFileBytes), refused early when they start like neither kind.
Result<std::string> readModelFileBytes(const std::string& path);

// A model from its bytes; `path` labels the messages.
Result<LoadedModel> parseModelFile(std::string_view bytes, const std::string& path);

// readModelFileBytes, then parseModelFile; a bundled name ("bundled:<file>", core/data/
// bundled_files.h) reads the installed copy.
Result<LoadedModel> loadModelFile(const std::string& path);

}  // namespace core::model
