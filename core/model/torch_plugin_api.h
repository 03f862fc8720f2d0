// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/categorical_denoiser.h"
#include "core/model/gaussian_eps_model.h"
#include "core/model/torch_contract.h"

// The boundary between the core and the LibTorch plugin (plugins/torch), a shared library
// the core opens with dlopen the first time a TorchScript model is loaded. LibTorch's ~300
// libraries take seconds to load and initialise; linked into the program, every start of
// every command paid for them. The two sides are built together from the same headers, so
// C++ types cross; kTorchPluginAbi guards against a plugin left from another build.
namespace core::model {

inline constexpr int kTorchPluginAbi = 1;
inline constexpr const char* kTorchPluginAbiSymbol = "diffuscope_torch_plugin_abi";
inline constexpr const char* kTorchPluginLoadSymbol = "diffuscope_torch_plugin_load";
inline constexpr const char* kTorchPluginFile = "libdiffuscope_torch.so";

// What the plugin gives back: a model for the contract's process, or an error (a sentence; the
// core adds the file's path).
struct TorchPluginResult {
    std::string error;
    std::shared_ptr<const GaussianEpsModel> gaussian;
    std::shared_ptr<const CategoricalDenoiser> categorical;
    std::vector<std::pair<std::string, std::vector<int64_t>>> parameters;  // name, shape
};

using TorchPluginAbiFunction = int (*)();
// Loads the module in `bytes` (a TorchScript archive whose contract was read) and checks it
// with one forward pass. Never throws. The models it returns throw ModelError when the
// network fails later, with `path` in the message.
using TorchPluginLoadFunction = void (*)(std::string_view bytes, const TorchContract& contract,
                                         const std::string& path, TorchPluginResult& out);

}  // namespace core::model
