// SPDX-License-Identifier: MIT
// `diffuscope info MODEL`: a checkpoint's metadata and tensors, or a TorchScript model's contract
// and parameters.
#include <iostream>

#include "app/cli/commands.h"
#include "core/io/safetensors.h"
#include "core/project/model_files.h"

namespace app::cli {
namespace {

// One line per value: newlines and other control characters are shown escaped.
std::string printable(const std::string& s) {
    std::string out;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (ch == '\n') {
            out += "\\n";
        } else if (ch == '\\') {
            out += "\\\\";
        } else if (c < 0x20 || c == 0x7F) {
            static const char* kHex = "0123456789abcdef";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
        } else {
            out += ch;
        }
    }
    return out;
}

// A TorchScript model: loaded and checked as every command would, then described.
void infoTorch(const std::string& named, const core::model::LoadedModel& loaded) {
    const core::io::CheckpointInfo& info = loaded.info;
    std::cout << "file = " << printable(named) << "\n";
    std::cout << "# TorchScript model (its forward pass was checked against the contract)\n";
    std::cout << "process = " << info.process << "\n";
    std::cout << "architecture = " << printable(info.architecture) << "\n";
    std::cout << "schedule = " << printable(info.schedule) << "\n";
    std::cout << "num_positions = " << info.numPositions << "\n";
    if (info.process == "categorical") std::cout << "num_classes = " << info.numClasses << "\n";
    std::cout << "num_conditions = " << info.numConditions << "\n";
    int64_t parameters = 0;
    for (const auto& [name, shape] : loaded.parameters) {
        int64_t count = 1;
        for (int64_t s : shape) count *= s;
        parameters += count;
    }
    std::cout << "# parameters (" << loaded.parameters.size() << " tensors, " << parameters
              << " values)\n";
    for (const auto& [name, shape] : loaded.parameters) {
        std::cout << printable(name) << " " << core::io::formatShape(shape) << "\n";
    }
}

}  // namespace

const CommandSpec& infoSpec() {
    static const CommandSpec spec{"info",
                                  "a model file's metadata and tensors (name, dtype, shape)",
                                  "MODEL.safetensors|MODEL.pt",
                                  {},
                                  ""};
    return spec;
}

int runInfo(const Args& args) {
    if (args.positionals().size() != 1) {
        return fail(core::makeError(core::ErrorCode::ParseError, "info",
                                    std::to_string(args.positionals().size()) + " files",
                                    "expected exactly one MODEL.safetensors or MODEL.pt"));
    }
    // "bundled:<file>" is read from the installed copy; messages and the listing name it as given.
    const std::string& named = args.positionals()[0];
    const core::Result<core::project::ModelFileListing> listing =
        core::project::readModelFileListing(named);
    if (!listing) return fail(listing.error());
    if (listing->torchScript) {
        infoTorch(named, *listing->model);
        return 0;
    }
    const core::io::Checkpoint* checkpoint = &listing->checkpoint;
    std::cout << "file = " << printable(named) << "\n";
    std::cout << "# metadata (" << checkpoint->metadata.size() << " keys)\n";
    for (const auto& [key, value] : checkpoint->metadata) {
        std::cout << printable(key) << " = " << printable(value) << "\n";
    }
    int64_t parameters = 0;
    for (const auto& [name, tensor] : checkpoint->tensors) {
        parameters += tensor.numElements();
    }
    std::cout << "# tensors (" << checkpoint->tensors.size() << " tensors, " << parameters
              << " values)\n";
    for (const auto& [name, tensor] : checkpoint->tensors) {
        std::cout << printable(name) << " " << core::io::dtypeName(tensor.dtype) << " "
                  << core::io::formatShape(tensor.shape);
        if (const int64_t bad = core::io::countNonFinite(tensor); bad > 0) {
            std::cout << " (" << bad << " non-finite)";
        }
        std::cout << "\n";
    }
    return 0;
}

}  // namespace app::cli
