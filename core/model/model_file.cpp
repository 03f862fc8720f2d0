// SPDX-License-Identifier: MIT
#include "core/model/model_file.h"

#include "core/io/file_io.h"
#include "core/io/safetensors.h"
#include "core/io/zip_archive.h"
#include "core/model/torch_contract.h"
#include "core/model/torch_model.h"

namespace core::model {

Result<std::string> readModelFileBytes(const std::string& path) {
    Result<std::string> head = io::readRegularFileHead(path, 4);
    if (!head) return head.error();
    if (io::looksLikeZip(*head)) {
        return io::readRegularFile(path, io::kMaxCheckpointFileBytes);
    }
    return io::readSafetensorsBytes(path);
}

Result<LoadedModel> parseModelFile(std::string_view bytes, const std::string& path) {
    if (!io::looksLikeZip(bytes)) {
        return parseMlpCheckpoint(bytes, path);
    }
    auto contract = readTorchContract(bytes, path);
    if (!contract) return contract.error();
    return loadTorchModel(bytes, *contract, path);
}

Result<LoadedModel> loadModelFile(const std::string& path) {
    auto bytes = readModelFileBytes(path);
    if (!bytes) return bytes.error();
    return parseModelFile(*bytes, path);
}

}  // namespace core::model
