// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

#include "core/model/checkpoint.h"
#include "core/model/torch_contract.h"
#include "core/util/result.h"

// TorchScript networks behind the engines' model interfaces, through LibTorch. LibTorch lives in
// a plugin (plugins/torch, torch_plugin_api.h) opened on first use; a build without it refuses
// every .pt with the reason. The module runs on the CPU, on the calling thread (LibTorch's own
// thread pool would compete with the core's), without gradients; batches of columns go through
// the network as batches of data points.
namespace core::model {

// Whether this build can run TorchScript models (opens the plugin, which takes a moment).
bool torchModelsAvailable();

// Why the plugin at `path` could not be opened, from dlopen's error text `why`: the plugin's own
// file missing means it is not installed (the package diffuscope-torch; a build from source
// without LibTorch has none), anything else (a library of LibTorch missing) is dlopen's reason.
std::string torchPluginOpenError(const std::string& path, const std::string& why);

// The module of an archive whose contract was read (readTorchContract), checked by a forward
// pass on a batch of two: the output must be a float tensor of the contract's shape. Errors name
// the file and LibTorch's reason; no LibTorch exception leaves this function. The models it
// returns throw ModelError (core/util/model_error.h) if the network fails later.
Result<LoadedModel> loadTorchModel(std::string_view bytes, const TorchContract& contract,
                                   const std::string& path);

}  // namespace core::model
