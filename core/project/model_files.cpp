// SPDX-License-Identifier: MIT
#include "core/project/model_files.h"

#include "core/data/bundled_files.h"
#include "core/io/checkpoint_metadata.h"
#include "core/io/file_io.h"
#include "core/io/zip_archive.h"
#include "core/model/model_file.h"

namespace core::project {

Result<ModelFileListing> readModelFileListing(const std::string& named) {
    const Result<std::string> onDisk = data::modelFileOnDisk(named);
    if (!onDisk) return onDisk.error();
    const std::string& path = *onDisk;
    ModelFileListing listing;
    if (auto head = io::readRegularFileHead(path, 4); head && io::looksLikeZip(*head)) {
        auto loaded = model::loadModelFile(path);
        if (!loaded) return loaded.error();
        listing.torchScript = true;
        listing.model = std::make_shared<const model::LoadedModel>(std::move(loaded).value());
        return listing;
    }
    Result<io::Checkpoint> checkpoint = io::readSafetensors(path);
    if (!checkpoint) return checkpoint.error();
    if (auto info = io::checkpointInfoFromMetadata(checkpoint->metadata, path); !info) {
        return info.error();
    }
    listing.checkpoint = std::move(checkpoint).value();
    return listing;
}

}  // namespace core::project
