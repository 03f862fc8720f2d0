// SPDX-License-Identifier: MIT
#pragma once

#include <QPointer>
#include <QWidget>
#include <map>

#include "ui/document/project_document.h"
#include "ui/panels/field_errors.h"
#include "ui/panels/param_edits.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

// The parameter editors of the Gaussian explorer (the part the Γ and
// Variance views need): schedule and N, forward process (DDPM, DDIM or η), data (with a plane
// editor for `mixture:` data), Γ's Monte Carlo setting, the trajectory and the samplers of the
// Particles view. Edits go to the document as undo commands; refused input is marked beside its
// field.
namespace ui::panels {

class MixtureEditor;

class GaussianPanel : public QWidget {
    Q_OBJECT
public:
    // The panel's file reads and its check of an imported Γ run as jobs of `files` and
    // `checks`, which its explorer owns (GaussianExplorer::fileRunner, checkRunner).
    GaussianPanel(document::ProjectDocument* document,
                  jobs::JobRunner* files,
                  jobs::JobRunner* checks,
                  QWidget* parent = nullptr);
    ~GaussianPanel() override;  // cancels its jobs: their results would reach a dead panel

    QString fieldError(const QString& field) const;
    // As typing a data spec and pressing Enter (for tests).
    void editDataSpec(const QString& spec);
    // The plane editor shown while the data is a `mixture:` spec.
    MixtureEditor* mixtureEditor() const { return m_mixture; }
    // Uses the checkpoint (after checking it fits N and the data); false and a message beside
    // the field when it does not. Also what dropping a file on the window does.
    bool loadModel(const QString& path);
    // Uses a CSV table of β_n (or ᾱ_n) as the schedule, N from its length; false, with the
    // reason beside the field, when it cannot be read.
    bool loadScheduleFile(const QString& path);
    // Uses the typed timesteps as the trajectory; refused with the reason beside the field.
    void editTrajectoryList(const QString& text);
    // Reads a Γ file (CSV by its header, NPY as ms_eps) for this N and uses it.
    bool importGammaFile(const QString& path);
    // The same four edits with the file read off the GUI thread (what the buttons, the typed
    // data spec and a dropped file use); the result is applied when it arrives.
    void loadModelInBackground(const QString& path);
    void loadScheduleFileInBackground(const QString& path);
    // Uses a diffusers scheduler_config.json as the schedule ("diffusers:FILE", N from it); a
    // config naming timestep_spacing also sets the trajectory to it at the project's K. One undo
    // step; the config's unused keys are said by statusNote() (as whenever the schedule becomes
    // a config).
    bool loadDiffusersConfig(const QString& path);
    void loadDiffusersConfigInBackground(const QString& path);
    void importGammaFileInBackground(const QString& path);
    void editDataSpecInBackground(const QString& spec);
    // Replaces each imported Γ_n by min(Γ_n, 1/β̄_n) (the warning's "clip" link).
    void clipImportedGamma();
    // The warning shown when an imported Γ exceeds its bound (empty when hidden); for tests.
    QString gammaWarning() const;
    jobs::JobRunner* checkRunner() { return m_checks; }
    jobs::JobRunner* fileRunner() { return m_files; }

signals:
    // A line for the status bar (the unused keys of a diffusers config).
    void statusNote(const QString& note);
    void trainRequested();
    void exportGammaRequested();

private slots:
    void onDocumentChanged();
    void showSchedule(const document::GaussianParams& p);

private:
    bool applyDataSpec(const QString& spec, const QString& text, int mergeId);
    QLabel* errorLabel(const QString& field);
    // On import and on every change of the schedule or N: checks the imported Γ against its
    // bound off the GUI thread and shows what to do about it.
    void checkImportedGamma();
    void showGammaWarning(const core::Result<std::vector<int>>& over);
    // The five groups of editors, each with its wiring.
    QGroupBox* createProcessBox();
    QGroupBox* createDataBox();
    QGroupBox* createGammaBox();
    QGroupBox* createTrajectoryBox();
    QComboBox* createDiffusersClassCombo();
    QGroupBox* createSamplerBox();
    void showError(const QString& field, const QString& message);

    document::ProjectDocument* m_document;
    bool m_refreshing = false;  // filling the widgets from the document: no edits
    FieldErrors m_errors;
    ParamEdits<document::GaussianParams> m_edits;
    QComboBox* m_schedule;
    std::string m_notedSchedule;       // the schedule whose config note was last said
    QLabel* m_scheduleNote = nullptr;  // the config's unused keys, while it is the schedule
    QSpinBox* m_numSteps;
    QComboBox* m_forward;
    QDoubleSpinBox* m_eta;
    QComboBox* m_data;
    QLineEdit* m_dataSpec;
    MixtureEditor* m_mixture;
    QComboBox* m_model;
    QLabel* m_gammaSource;
    QPushButton* m_estimateGamma;
    QSpinBox* m_samples;
    QComboBox* m_estimator;
    QSpinBox* m_seed;
    QComboBox* m_trajectory;
    QSpinBox* m_pathSteps;
    QComboBox* m_dpVariant;
    QLabel* m_gammaWarning;
    std::string m_gammaCheckKey;   // what the last check was for
    std::string m_keptGammaCheck;  // a warning answered "keep"
    QSpinBox* m_leadingOffset;
    QDoubleSpinBox* m_karrasRho;
    QComboBox* m_diffusersClass;
    QLineEdit* m_trajectoryList;
    QComboBox* m_sampler;
    QComboBox* m_compareSampler;
    QCheckBox* m_clipFirst;
    QSpinBox* m_particles;
    // Guarded: the explorer that owns them may go first (the main window deletes it early).
    QPointer<jobs::JobRunner> m_files;
    QPointer<jobs::JobRunner> m_checks;
};

}  // namespace ui::panels
