// SPDX-License-Identifier: MIT
#include "ui/document/project_file.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

#include "core/io/file_io.h"
#include "core/io/reader_text.h"

namespace ui::document {
namespace {

// A file path as the project file stores it: relative to the project's folder when the file
// lies in it or below (so a folder of project + models can be moved), else unchanged.
QString storedPath(const QString& file, const QString& projectPath) {
    if (file.isEmpty() || projectPath.isEmpty() || file.startsWith(':') ||
        QDir::isRelativePath(file)) {
        return file;
    }
    const QString relative = QFileInfo(projectPath).absoluteDir().relativeFilePath(file);
    return relative.startsWith("..") ? file : relative;
}

// The inverse: relative paths are relative to the project's folder.
QString resolvedPath(const QString& stored, const QString& projectPath) {
    if (stored.isEmpty() || stored.startsWith(':') || !QDir::isRelativePath(stored) ||
        projectPath.isEmpty()) {
        return stored;
    }
    return QDir::cleanPath(QFileInfo(projectPath).absoluteDir().filePath(stored));
}

QJsonArray doubles(const std::vector<double>& values) {
    QJsonArray array;
    for (double v : values) array.append(v);
    return array;
}

QJsonObject gammaCacheToJson(const GammaCache& cache) {
    QJsonArray timesteps;
    for (int n : cache.estimate.timesteps) timesteps.append(n);
    return {{"key", cache.key},
            {"timesteps", timesteps},
            {"gamma", doubles(cache.estimate.gamma)},
            {"standardError", doubles(cache.estimate.standardError)},
            {"msEps", doubles(cache.estimate.msEps)},
            {"numSamples", cache.estimate.numSamples},
            {"dataVariance", cache.dataVariance}};
}

// A damaged cache is dropped (Γ is then estimated again), never an error: it is derived data.
GammaCache gammaCacheFromJson(const QJsonObject& o) {
    GammaCache cache;
    const QJsonArray timesteps = o.value("timesteps").toArray();
    const QJsonArray gamma = o.value("gamma").toArray();
    const QJsonArray se = o.value("standardError").toArray();
    const QJsonArray msEps = o.value("msEps").toArray();
    if (timesteps.isEmpty() || gamma.size() != timesteps.size() || se.size() != timesteps.size() ||
        msEps.size() != timesteps.size()) {
        return {};
    }
    int previous = 0;
    for (qsizetype i = 0; i < timesteps.size(); ++i) {
        const double n = timesteps[i].toDouble(-1);
        const double g = gamma[i].toDouble(-1);
        const double e = se[i].toDouble(-1);
        if (n <= previous || n != std::floor(n) || !(g >= 0) || !std::isfinite(g) || !(e >= 0) ||
            !std::isfinite(e)) {
            return {};
        }
        previous = static_cast<int>(n);
        cache.estimate.timesteps.push_back(previous);
        cache.estimate.gamma.push_back(g);
        cache.estimate.standardError.push_back(e);
        cache.estimate.msEps.push_back(msEps[i].toDouble());
    }
    cache.estimate.numSamples = o.value("numSamples").toInt();
    cache.dataVariance = o.value("dataVariance").toDouble();
    cache.key = o.value("key").toString();
    return cache;
}

// A JSON value as it appears in the file, for error messages.
std::string jsonValueText(const QJsonValue& value) {
    switch (value.type()) {
    case QJsonValue::Double: return core::shortestText(value.toDouble());
    case QJsonValue::String: return "\"" + value.toString().toStdString() + "\"";
    case QJsonValue::Bool: return value.toBool() ? "true" : "false";
    case QJsonValue::Null: return "null";
    case QJsonValue::Array: return "an array";
    case QJsonValue::Object: return "an object";
    default: return "";
    }
}

}  // namespace

QByteArray projectToJson(const Project& project, const QString& path) {
    QJsonObject root;
    root["format"] = "diffuscope-project";
    root["formatVersion"] = kProjectFormatVersion;
    root["process"] = project.process == ProcessKind::Categorical ? "categorical" : "gaussian";
    CategoricalParams categorical = project.categorical;
    categorical.model = storedPath(categorical.model, path);
    categorical.csvPath = storedPath(categorical.csvPath, path);
    GaussianParams gaussian = project.gaussian;
    gaussian.model = storedPath(gaussian.model, path);
    if (gaussian.schedule.startsWith("csv:")) {
        gaussian.schedule = "csv:" + storedPath(gaussian.schedule.mid(4), path);
    }
    root["categorical"] = categorical.toJson();
    root["gaussian"] = gaussian.toJson();
    if (!project.gammaCache.key.isEmpty()) {
        root["gammaCache"] = gammaCacheToJson(project.gammaCache);
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

namespace {

// The reader proper; projectFromJson makes its errors safe to print.
core::Result<Project> readProject(const QByteArray& bytes, const QString& path) {
    const std::string where = path.toStdString();
    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        return core::makeError(
            core::ErrorCode::ParseError, where, "offset " + std::to_string(parseError.offset),
            "not a valid project file (" + parseError.errorString().toStdString() +
                "); the file may be truncated");
    }
    const QJsonObject root = json.object();
    if (root.value("format").toString() != "diffuscope-project") {
        return core::makeError(core::ErrorCode::ParseError, where, "",
                               "not a Diffuscope project file");
    }
    const QJsonValue versionValue = root.value("formatVersion");
    if (versionValue.isUndefined()) {
        return core::makeError(core::ErrorCode::ParseError, where + ": formatVersion", "",
                               "the format version is missing");
    }
    const double versionNumber = versionValue.toDouble(-1);
    if (!versionValue.isDouble() || versionNumber < 1 || versionNumber != std::floor(versionNumber)) {
        return core::makeError(core::ErrorCode::ParseError, where + ": formatVersion",
                               jsonValueText(versionValue),
                               "must be a whole number from 1 to " +
                                   std::to_string(kProjectFormatVersion));
    }
    if (versionNumber > kProjectFormatVersion) {
        return core::makeError(core::ErrorCode::Unsupported, where + ": formatVersion",
                               core::shortestText(versionNumber),
                               "the file was written by a newer Diffuscope (this one reads "
                               "version " +
                                   std::to_string(kProjectFormatVersion) + ")");
    }
    Project project;
    const QString process = root.value("process").toString();
    if (process == "categorical") {
        project.process = ProcessKind::Categorical;
    } else if (process == "gaussian") {
        project.process = ProcessKind::Gaussian;
    } else {
        return core::makeError(core::ErrorCode::ParseError, where + ": process",
                               process.toStdString(), "expected categorical or gaussian");
    }
    auto categorical = CategoricalParams::fromJson(root.value("categorical").toObject());
    if (!categorical) {
        core::Error error = categorical.error();
        error.field = where + ": " + error.field;
        return error;
    }
    project.categorical = *categorical;
    project.categorical.model = resolvedPath(project.categorical.model, path);
    project.categorical.csvPath = resolvedPath(project.categorical.csvPath, path);
    auto gaussian = GaussianParams::fromJson(root.value("gaussian").toObject());
    if (!gaussian) {
        core::Error error = gaussian.error();
        error.field = where + ": " + error.field;
        return error;
    }
    project.gaussian = *gaussian;
    project.gaussian.model = resolvedPath(project.gaussian.model, path);
    if (project.gaussian.schedule.startsWith("csv:")) {
        project.gaussian.schedule = "csv:" + resolvedPath(project.gaussian.schedule.mid(4), path);
    }
    if (root.value("gammaCache").isObject()) {
        project.gammaCache = gammaCacheFromJson(root.value("gammaCache").toObject());
    }
    return project;
}

}  // namespace

core::Result<Project> projectFromJson(const QByteArray& bytes, const QString& path) {
    auto project = readProject(bytes, path);
    if (!project) {
        // A value from the file (a name with a newline, say) must not break the one-line
        // message; the path is the user's own and stays as it is.
        core::Error error = project.error();
        error.value = core::io::printable(error.value);
        error.message = core::io::printable(error.message, 400);
        const std::string where = path.toStdString();
        if (error.field.rfind(where, 0) == 0) {
            error.field = where + core::io::printable(error.field.substr(where.size()), 200);
        } else {
            error.field = core::io::printable(error.field, 200);
        }
        return error;
    }
    return project;
}

core::Result<Project> readProjectFile(const QString& path) {
    auto bytes = core::io::readRegularFile(path.toStdString(), kMaxProjectFileBytes);
    if (!bytes) {
        return bytes.error();
    }
    return projectFromJson(QByteArray::fromStdString(*bytes), path);
}

}  // namespace ui::document
