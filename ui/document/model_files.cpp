// SPDX-License-Identifier: MIT
#include "ui/document/model_files.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>

#include <map>
#include <mutex>

#include "core/io/file_io.h"

namespace ui::document {
namespace {

struct CacheEntry {
    qint64 size = -1;
    QDateTime modified;
    LoadedModelPtr model;
};

std::mutex& cacheMutex() {
    static std::mutex mutex;
    return mutex;
}

std::map<QString, CacheEntry>& cache() {
    static std::map<QString, CacheEntry> entries;
    return entries;
}

core::Error modelError(const QString& path, const std::string& message) {
    return core::makeError(core::ErrorCode::InvalidArgument, path.toStdString(), "", message);
}

}  // namespace

core::Result<LoadedModelPtr> loadModelFile(const QString& path) {
    const QFileInfo info(path);
    if (!info.exists()) {
        return core::makeError(core::ErrorCode::IoError, path.toStdString(), "",
                               "the checkpoint file does not exist");
    }
    {
        std::lock_guard lock(cacheMutex());
        auto it = cache().find(path);
        if (it != cache().end() && it->second.size == info.size() &&
            it->second.modified == info.lastModified()) {
            return it->second.model;
        }
    }
    std::string bytes;
    if (path.startsWith(':')) {
        // A bundled network: compiled into the program, of known size.
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            return core::makeError(core::ErrorCode::IoError, path.toStdString(), "",
                                   "cannot open the file: " + file.errorString().toStdString());
        }
        bytes = file.readAll().toStdString();
    } else {
        // Refuses devices, FIFOs and oversize files before allocating anything.
        auto read = core::io::readRegularFile(path.toStdString(), core::io::kMaxCheckpointFileBytes);
        if (!read) {
            return read.error();
        }
        bytes = std::move(read).value();
    }
    auto loaded = core::model::parseMlpCheckpoint(bytes, path.toStdString());
    if (!loaded) {
        return loaded.error();
    }
    auto model = std::make_shared<const core::model::LoadedModel>(std::move(loaded).value());
    std::lock_guard lock(cacheMutex());
    cache()[path] = {info.size(), info.lastModified(), model};
    return LoadedModelPtr(model);
}

core::Result<std::shared_ptr<const core::model::GaussianEpsModel>> loadGaussianModel(
    const QString& path, int numSteps, int dimension) {
    auto loaded = loadModelFile(path);
    if (!loaded) return loaded.error();
    const auto& network = (*loaded)->gaussian;
    if (!network) {
        return modelError(path, "a categorical checkpoint: the Gaussian explorer needs a Gaussian one");
    }
    if (network->numSteps() != numSteps) {
        return modelError(path, "the network was trained for N = " +
                                    std::to_string(network->numSteps()) + " (schedule " +
                                    (*loaded)->info.schedule + "); set N to match");
    }
    if (network->dimension() != dimension) {
        return modelError(path, "the network has dimension " + std::to_string(network->dimension()) +
                                    " but the data have " + std::to_string(dimension));
    }
    return std::shared_ptr<const core::model::GaussianEpsModel>(network);
}

core::Result<std::shared_ptr<const core::model::CategoricalDenoiser>> loadCategoricalModel(
    const QString& path, int numClasses, int numPositions, int numConditions) {
    auto loaded = loadModelFile(path);
    if (!loaded) return loaded.error();
    const auto& network = (*loaded)->categorical;
    if (!network) {
        return modelError(path, "a Gaussian checkpoint: the categorical explorer needs a categorical one");
    }
    const auto& info = (*loaded)->info;
    if (info.numClasses != numClasses || info.numPositions != numPositions) {
        return modelError(path, "the network is for K = " + std::to_string(info.numClasses) +
                                    ", D = " + std::to_string(info.numPositions) +
                                    " but the data have K = " + std::to_string(numClasses) +
                                    ", D = " + std::to_string(numPositions));
    }
    if (info.numConditions != 0 && info.numConditions != numConditions) {
        return modelError(path, "the network knows " + std::to_string(info.numConditions) +
                                    " conditions but the data have " + std::to_string(numConditions));
    }
    return std::shared_ptr<const core::model::CategoricalDenoiser>(network);
}

}  // namespace ui::document
