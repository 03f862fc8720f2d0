// SPDX-License-Identifier: MIT
// The core's side of TorchScript models: finds the LibTorch plugin beside the program, opens it
// once, and hands it the archive.
#include "core/model/torch_model.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "core/model/torch_plugin_api.h"

namespace core::model {
namespace {

namespace fs = std::filesystem;

// LibTorch's matrix products run in OpenBLAS, which splits every call across a thread per core
// of its own; the engines already call the network from one worker thread per core, and the two
// pools fought (Γ of the digits U-Net on 2 threads: 8.5 s; with one OpenBLAS thread 6.7 s).
// Set before main, while the program has one thread and before the plugin loads OpenBLAS; the
// user's own setting wins.
const bool kOneBlasThread = [] {
    ::setenv("OPENBLAS_NUM_THREADS", "1", /*overwrite=*/0);
    return true;
}();

struct Plugin {
    TorchPluginLoadFunction load = nullptr;
    std::string error;  // why it could not be opened
};

// <exe dir>/../lib/diffuscope/libdiffuscope_torch.so: build/lib/diffuscope in the build tree
// (beside build/app and build/tests), <prefix>/lib/diffuscope once installed.
// DIFFUSCOPE_TORCH_PLUGIN, when set, names the file instead.
fs::path pluginPath() {
    if (const char* file = std::getenv("DIFFUSCOPE_TORCH_PLUGIN"); file != nullptr && *file != '\0') {
        return file;
    }
    std::error_code error;
    const fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (error || exe.empty()) return {};
    return (exe.parent_path() / ".." / "lib" / "diffuscope" / kTorchPluginFile).lexically_normal();
}

std::string notInstalled(const std::string& path) {
    return "the TorchScript plugin is not installed (no " + path +
           "): install the package diffuscope-torch, or, if this Diffuscope was built from "
           "source, it was built without LibTorch (build it with libtorch-dev installed)";
}

const Plugin& plugin() {
    static Plugin opened;
    static std::once_flag once;
    std::call_once(once, [] {
        const fs::path path = pluginPath();
        std::error_code error;
        if (path.empty() || !fs::is_regular_file(path, error)) {
            opened.error = notInstalled(path.empty() ? std::string(kTorchPluginFile) : path.string());
            return;
        }
        // Local: LibTorch's symbols stay out of the program's namespace.
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) {
            const char* why = dlerror();
            opened.error = torchPluginOpenError(path.string(), why ? why : "unknown error");
            return;
        }
        auto abi = reinterpret_cast<TorchPluginAbiFunction>(dlsym(handle, kTorchPluginAbiSymbol));
        auto load = reinterpret_cast<TorchPluginLoadFunction>(dlsym(handle, kTorchPluginLoadSymbol));
        if (abi == nullptr || load == nullptr || abi() != kTorchPluginAbi) {
            opened.error = path.string() + " is from another build of Diffuscope";
            return;
        }
        opened.load = load;  // never closed: its models may live until the program ends
    });
    return opened;
}

}  // namespace

bool torchModelsAvailable() { return plugin().load != nullptr; }

std::string torchPluginOpenError(const std::string& path, const std::string& why) {
    // glibc names the file it could not open first; the plugin's own name there means the
    // plugin itself is missing (removed between the check above and dlopen).
    if (why.starts_with(path + ": cannot open shared object file")) return notInstalled(path);
    return "LibTorch could not be loaded (" + path + ": " + why + ")";
}

Result<LoadedModel> loadTorchModel(std::string_view bytes, const TorchContract& contract,
                                   const std::string& path) {
    const Plugin& p = plugin();
    if (p.load == nullptr) {
        return makeError(ErrorCode::InvalidArgument, path, "",
                         "a TorchScript model, but " + p.error);
    }
    TorchPluginResult result;
    p.load(bytes, contract, path, result);
    if (!result.error.empty()) {
        return makeError(ErrorCode::InvalidArgument, path, "", result.error);
    }
    LoadedModel loaded;
    loaded.info = checkpointInfo(contract);
    loaded.shape = contract.shape;
    loaded.gaussian = std::move(result.gaussian);
    loaded.categorical = std::move(result.categorical);
    loaded.parameters = std::move(result.parameters);
    loaded.contractSchedule = contract.schedule;
    return loaded;
}

}  // namespace core::model
