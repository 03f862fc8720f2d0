// SPDX-License-Identifier: MIT
#include "ui/document/model_files.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <map>
#include <mutex>

#include "core/data/bundled_files.h"
#include "core/io/file_io.h"
#include "core/model/model_file.h"
#include "ui/document/project_model.h"

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

// The cached model of path if the file has not changed since it was loaded.
LoadedModelPtr cachedModel(const QString& path, const QFileInfo& info) {
    std::lock_guard lock(cacheMutex());
    auto it = cache().find(path);
    if (it != cache().end() && it->second.size == info.size() &&
        it->second.modified == info.lastModified()) {
        return it->second.model;
    }
    return nullptr;
}

}  // namespace

QString embeddedPath(const QString& path) {
    const std::string name = path.toStdString();
    if (!core::data::isBundledName(name)) return path;
    return ":/models/" + QString::fromStdString(core::data::bundledModelFile(name));
}

bool isModelLoaded(const QString& name) {
    const QString path = embeddedPath(name);
    const QFileInfo info(path);
    return info.exists() && cachedModel(path, info) != nullptr;
}

core::Result<LoadedModelPtr> loadModelFile(const QString& name) {
    // A bundled network is read from the copy compiled into the program.
    const QString path = embeddedPath(name);
    const QFileInfo info(path);
    if (!info.exists()) {
        return core::makeError(core::ErrorCode::IoError, name.toStdString(), "",
                               path == name ? "the checkpoint file does not exist"
                                            : "no bundled network of that name");
    }
    if (LoadedModelPtr model = cachedModel(path, info)) {
        return model;
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
        auto read = core::model::readModelFileBytes(path.toStdString());
        if (!read) {
            return read.error();
        }
        bytes = std::move(read).value();
    }
    auto loaded = core::model::parseModelFile(bytes, path.toStdString());
    if (!loaded) {
        return loaded.error();
    }
    auto model = std::make_shared<const core::model::LoadedModel>(std::move(loaded).value());
    std::lock_guard lock(cacheMutex());
    cache()[path] = {info.size(), info.lastModified(), model};
    return LoadedModelPtr(model);
}

core::Result<std::shared_ptr<const core::model::GaussianEpsModel>> loadGaussianModel(
    const QString& path, int numSteps, int dimension, const std::string& schedule) {
    return core::project::gaussianNetwork(path.toStdString(), numSteps, dimension, appSources(),
                                          schedule);
}

core::Result<std::shared_ptr<const core::model::CategoricalDenoiser>> loadCategoricalModel(
    const QString& path,
    int numClasses,
    int numPositions,
    int numConditions,
    const std::string& schedule) {
    return core::project::categoricalNetwork(path.toStdString(), numClasses, numPositions,
                                             numConditions, appSources(), schedule);
}

}  // namespace ui::document
