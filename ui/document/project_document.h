// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <vector>

#include "core/util/result.h"
#include "ui/document/project_model.h"

// The project: every parameter the user sets, the undo stack of their edits and the file they
// live in. Panels edit it only through setCategorical(),
// which pushes an undo command; views listen to categoricalChanged().
namespace ui::document {

// The example projects of File ▸ Examples, three of them with the bundled trained networks.
struct Example {
    QString title;
    Project project;
};
std::vector<Example> examples();

class ProjectDocument : public QObject {
    Q_OBJECT
public:
    explicit ProjectDocument(QObject* parent = nullptr);

    const Project& project() const { return m_project; }
    const CategoricalParams& categorical() const { return m_project.categorical; }
    const GaussianParams& gaussian() const { return m_project.gaussian; }
    QUndoStack* undoStack() { return &m_undo; }
    const QString& filePath() const { return m_filePath; }
    bool isModified() const { return !m_undo.isClean(); }

    // Replaces the categorical parameters through an undo command named `text`. Invalid
    // parameters are refused (the error is returned, nothing changes). Consecutive edits with
    // the same nonzero mergeId (a drag) collapse into one undo step.
    core::Status setCategorical(const CategoricalParams& params,
                                const QString& text,
                                int mergeId = 0);
    // The same for the Gaussian parameters.
    core::Status setGaussian(const GaussianParams& params, const QString& text, int mergeId = 0);
    // Ends a drag: the next edit with the same merge id starts a new undo step (also after an
    // undo, when the step below the new one came from an earlier drag).
    void endDrag();
    void setProcess(ProcessKind process);
    // Keeps a finished Γ estimate with the project (saved with it; not an undo step).
    void setGammaCache(GammaCache cache) { m_project.gammaCache = std::move(cache); }

    // Starts a new project with the example parameters; clears undo.
    void newProject();
    // Starts an unsaved project from an example; clears undo.
    void loadExample(const Project& project);
    // Replaces the project by the file's; on any error the document is left unchanged.
    core::Status open(const QString& path);
    // Replaces the project by one already read from `path` (a background read); clears undo.
    void adopt(Project project, const QString& path);
    // Loads a recovery copy as an untitled, modified project (so saving asks for a name and
    // closing asks to save); on any error the document is left unchanged.
    core::Status recover(const QString& path);
    // Writes the project atomically (all or nothing: on failure the previous file is intact)
    // and marks the document clean on success; on failure it stays modified.
    core::Status saveAs(const QString& path);

    // Writes a recovery copy (not marking the document clean).
    core::Status writeRecoveryCopy(const QString& path) const;

signals:
    void categoricalChanged();
    void gaussianChanged();
    void processChanged();
    void projectReplaced();  // new or opened: every view refreshes
    void filePathChanged(const QString& path);
    void saved(const QString& path);  // after a successful saveAs()

private:
    template <typename Params>
    friend class SetParamsCommand;
    void apply(const CategoricalParams& params);
    void apply(const GaussianParams& params);

    Project m_project;
    QUndoStack m_undo;
    QString m_filePath;
};

}  // namespace ui::document
