// SPDX-License-Identifier: MIT
#include "ui/document/project_document.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUndoCommand>
#include <cmath>

#include "core/io/file_io.h"
#include "ui/document/model_files.h"

namespace ui::document {

// An undo step that later steps with its merge id may join until the drag that made it ends.
class MergeableCommand : public QUndoCommand {
public:
    using QUndoCommand::QUndoCommand;
    void closeMerging() { m_closed = true; }

protected:
    bool m_closed = false;
};

// One undoable edit of one process's parameters; the steps of one drag merge into one.
template <typename Params>
class SetParamsCommand : public MergeableCommand {
public:
    SetParamsCommand(
        ProjectDocument* document, Params before, Params after, const QString& text, int mergeId)
        : MergeableCommand(text),
          m_document(document),
          m_before(std::move(before)),
          m_after(std::move(after)),
          m_mergeId(mergeId) {}

    void redo() override { m_document->apply(m_after); }
    void undo() override { m_document->apply(m_before); }
    int id() const override { return m_mergeId == 0 ? -1 : m_mergeId; }
    bool mergeWith(const QUndoCommand* other) override {
        // Ids are shared between the two processes' commands: compare the types too.
        const auto* same = dynamic_cast<const SetParamsCommand*>(other);
        if (m_closed || same == nullptr || other->id() != id()) {
            return false;
        }
        m_after = same->m_after;
        // A drag back to where it started is no step at all: QUndoStack then drops it.
        setObsolete(m_after == m_before);
        return true;
    }

private:
    ProjectDocument* m_document;
    Params m_before;
    Params m_after;
    int m_mergeId;
};

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

// Far above any project (parameters and a Γ cache), far below what would hurt to load.
constexpr uint64_t kMaxProjectFileBytes = 64ull << 20;

core::Result<Project> readProjectFile(const QString& path) {
    auto bytes = core::io::readRegularFile(path.toStdString(), kMaxProjectFileBytes);
    if (!bytes) {
        return bytes.error();
    }
    return projectFromJson(QByteArray::fromStdString(*bytes), path);
}

core::Status writeAtomically(const QString& path, const QByteArray& bytes) {
    return core::io::writeFileAtomically(
        path.toStdString(), std::string(bytes.constData(), static_cast<size_t>(bytes.size())));
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

core::Result<Project> projectFromJson(const QByteArray& bytes, const QString& path) {
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

ProjectDocument::ProjectDocument(QObject* parent) : QObject(parent) {}

void ProjectDocument::endDrag() {
    if (m_undo.index() == 0) return;
    // Only our own commands are pushed on this stack.
    auto* top = static_cast<MergeableCommand*>(
        const_cast<QUndoCommand*>(m_undo.command(m_undo.index() - 1)));
    top->closeMerging();
}

core::Status ProjectDocument::setCategorical(const CategoricalParams& params,
                                             const QString& text,
                                             int mergeId) {
    if (auto valid = params.validate(); !valid) {
        return valid;
    }
    if (params == m_project.categorical) {
        return {};
    }
    m_undo.push(new SetParamsCommand<CategoricalParams>(this, m_project.categorical, params, text,
                                                        mergeId));
    return {};
}

core::Status ProjectDocument::setGaussian(const GaussianParams& params,
                                          const QString& text,
                                          int mergeId) {
    if (auto valid = params.validate(); !valid) {
        return valid;
    }
    if (params == m_project.gaussian) {
        return {};
    }
    m_undo.push(
        new SetParamsCommand<GaussianParams>(this, m_project.gaussian, params, text, mergeId));
    return {};
}

void ProjectDocument::apply(const CategoricalParams& params) {
    m_project.categorical = params;
    emit categoricalChanged();
}

void ProjectDocument::apply(const GaussianParams& params) {
    m_project.gaussian = params;
    emit gaussianChanged();
}

void ProjectDocument::setProcess(ProcessKind process) {
    if (m_project.process != process) {
        m_project.process = process;
        emit processChanged();
    }
}

void ProjectDocument::newProject() { loadExample(Project{}); }

void ProjectDocument::loadExample(const Project& project) {
    m_project = project;
    m_undo.clear();
    m_filePath.clear();
    emit filePathChanged(m_filePath);
    emit projectReplaced();
}

std::vector<Example> examples() {
    std::vector<Example> out;
    out.push_back({"Categorical: a two-condition table (K = 4)", Project{}});
    {
        Project p;
        p.categorical = CategoricalParams::example().withDigits(4);
        p.categorical.pi.assign(4, 0.25);  // what the bundled network was trained with
        p.categorical.schedule = "cosine";
        p.categorical.numSteps = 50;
        p.categorical.pathSteps = 50;
        p.categorical.condition = 3;
        p.categorical.model = kBundledDigitsCategorical;
        out.push_back({"Categorical: 8×8 digits (L = 4) with the trained network", p});
    }
    {
        Project p;
        p.process = ProcessKind::Gaussian;
        p.gaussian.data = "toy:moons,n=4000";  // the network's training points
        p.gaussian.model = kBundledMoons;
        p.gaussian.gammaSamples = 50;
        out.push_back({"Gaussian: two moons with the trained network", p});
    }
    {
        Project p;
        p.process = ProcessKind::Gaussian;
        p.gaussian.data = "digits";
        p.gaussian.model = kBundledDigitsGaussian;
        p.gaussian.gammaSamples = 20;
        p.gaussian.pathSteps = 25;
        p.gaussian.particleCount = 36;
        out.push_back({"Gaussian: 8×8 digits with the trained network", p});
    }
    return out;
}

core::Status ProjectDocument::open(const QString& path) {
    auto project = readProjectFile(path);
    if (!project) {
        return project.error();
    }
    m_project = *project;
    m_undo.clear();
    m_filePath = path;
    emit filePathChanged(m_filePath);
    emit projectReplaced();
    return {};
}

core::Status ProjectDocument::recover(const QString& path) {
    auto project = readProjectFile(path);
    if (!project) {
        return project.error();
    }
    m_project = *project;
    m_undo.clear();
    // Recovered work exists in no file of its own: untitled and unsaved until saved.
    m_undo.resetClean();
    m_filePath.clear();
    emit filePathChanged(m_filePath);
    emit projectReplaced();
    return {};
}

core::Status ProjectDocument::saveAs(const QString& path) {
    if (auto status = writeAtomically(path, projectToJson(m_project, path)); !status) {
        return status;
    }
    m_undo.setClean();
    if (m_filePath != path) {
        m_filePath = path;
        emit filePathChanged(m_filePath);
    }
    emit saved(path);
    return {};
}

core::Status ProjectDocument::writeRecoveryCopy(const QString& path) const {
    return writeAtomically(path, projectToJson(m_project));
}

}  // namespace ui::document
