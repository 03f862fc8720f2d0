// SPDX-License-Identifier: MIT
#include "ui/document/project_document.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QUndoCommand>

#include "core/io/file_io.h"
#include "core/model/checkpoint.h"
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

core::Status writeAtomically(const QString& path, const QByteArray& bytes) {
    return core::io::writeFileAtomically(
        path.toStdString(), std::string(bytes.constData(), static_cast<size_t>(bytes.size())));
}

}  // namespace

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

namespace {

// A network under the project refuses a schedule or N it was not trained for, by the check the
// command line and the lab run (the window used to go on with the exact oracle and a warning
// where they refuse). Only a network already loaded is checked, so the GUI thread reads no file;
// one that is not (its file moved) falls back to the oracle with a message when analysed.
core::Status networkKeepsFitting(const GaussianParams& before, const GaussianParams& after) {
    if (after.model.empty() || (after.schedule == before.schedule &&
                                after.numSteps == before.numSteps && after.model == before.model)) {
        return {};
    }
    const QString model = QString::fromStdString(after.model);
    if (!isModelLoaded(model)) return {};
    auto loaded = loadModelFile(model);
    if (!loaded) return {};
    return core::model::checkGaussianSchedule(**loaded, after.model, after.numSteps,
                                              after.schedule);
}

}  // namespace

core::Status ProjectDocument::setGaussian(const GaussianParams& params,
                                          const QString& text,
                                          int mergeId) {
    if (auto valid = params.validate(); !valid) {
        return valid;
    }
    if (params == m_project.gaussian) {
        return {};
    }
    if (auto fits = networkKeepsFitting(m_project.gaussian, params); !fits) {
        return fits;
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

namespace {
// core's titles (English, as the command line prints them), for lupdate.
[[maybe_unused]] constexpr const char* kExampleTitles[] = {
    QT_TRANSLATE_NOOP("ui::document::examples",
                      "Categorical: a two-condition table (K = 4 classes)"),
    QT_TRANSLATE_NOOP("ui::document::examples",
                      "Categorical: 8×8 digits (L = 4) with the trained network"),
    QT_TRANSLATE_NOOP("ui::document::examples", "Gaussian: two moons with the trained network"),
    QT_TRANSLATE_NOOP("ui::document::examples", "Gaussian: 8×8 digits with the trained network"),
    QT_TRANSLATE_NOOP("ui::document::examples",
                      "Gaussian: 8×8 digits with a convolutional U-Net (PyTorch)"),
    QT_TRANSLATE_NOOP("ui::document::examples",
                      "Masked diffusion: 8×8 digits, which pixel first? (trained network)"),
    QT_TRANSLATE_NOOP("ui::document::examples", "Masked diffusion on text: which letter first?")};
}  // namespace

std::vector<Example> examples() {
    std::vector<Example> out;
    for (int number = 1; number <= core::project::kNumExamples; ++number) {
        auto project = core::project::exampleProject(number);
        out.push_back({QCoreApplication::translate("ui::document::examples",
                                                   core::project::exampleTitle(number)),
                       *project});
    }
    return out;
}

core::Status ProjectDocument::open(const QString& path) {
    auto project = readProjectFile(path);
    if (!project) {
        return project.error();
    }
    adopt(std::move(project).value(), path);
    return {};
}

void ProjectDocument::adopt(Project project, const QString& path) {
    m_project = std::move(project);
    m_undo.clear();
    m_filePath = path;
    emit filePathChanged(m_filePath);
    emit projectReplaced();
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
    if (auto status = writeAtomically(path, ui::document::projectToJson(m_project, path));
        !status) {
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
    return writeAtomically(path, ui::document::projectToJson(m_project));
}

}  // namespace ui::document
