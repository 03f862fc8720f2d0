// SPDX-License-Identifier: MIT
#include "core/model/model_file.h"

#include "core/data/bundled_files.h"
#include "core/io/file_io.h"
#include "core/io/safetensors.h"
#include "core/io/zip_archive.h"
#include "core/model/torch_contract.h"
#include "core/model/torch_model.h"
#include "core/util/limits.h"

#include <filesystem>

namespace core::model {
namespace {

// Opening a TorchScript archive costs about three times its size (1.9 GB took 5.7 GB): the
// bytes read, LibTorch's copy of them and the tensors it builds. Checked before the first byte
// is read, with the arithmetic in the refusal.
Status checkTorchLoadMemory(uint64_t fileBytes, const std::string& path) {
    return limits::checkMemory(path, "",
                               "3 × the file's " + limits::formatBytes(static_cast<double>(fileBytes)) +
                                   " (the file, LibTorch's copy of it and its tensors)",
                               3.0 * static_cast<double>(fileBytes));
}

}  // namespace

Result<std::string> readModelFileBytes(const std::string& path) {
    Result<std::string> head = io::readRegularFileHead(path, 4);
    if (!head) return head.error();
    if (io::looksLikeZip(*head)) {
        std::error_code error;
        const uintmax_t size = std::filesystem::file_size(path, error);
        if (!error && size <= io::kMaxCheckpointFileBytes) {
            if (Status fits = checkTorchLoadMemory(size, path); !fits) return fits.error();
        }
        return io::readRegularFile(path, io::kMaxCheckpointFileBytes);
    }
    return io::readSafetensorsBytes(path);
}

Result<LoadedModel> parseModelFile(std::string_view bytes, const std::string& path) {
    if (!io::looksLikeZip(bytes)) {
        return parseMlpCheckpoint(bytes, path);
    }
    if (Status fits = checkTorchLoadMemory(bytes.size(), path); !fits) return fits.error();
    auto contract = readTorchContract(bytes, path);
    if (!contract) return contract.error();
    return loadTorchModel(bytes, *contract, path);
}

Result<LoadedModel> loadModelFile(const std::string& path) {
    // "bundled:<file>": the installed copy; messages still name what the user wrote.
    auto onDisk = data::modelFileOnDisk(path);
    if (!onDisk) return onDisk.error();
    auto bytes = readModelFileBytes(*onDisk);
    if (!bytes) return bytes.error();
    return parseModelFile(*bytes, *onDisk);
}

}  // namespace core::model
