// SPDX-License-Identifier: MIT
#pragma once

#include <QPointer>
#include <QWidget>

#include "ui/document/project_document.h"
#include "ui/panels/field_errors.h"
#include "ui/panels/param_edits.h"

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;

// The parameter editors of the categorical explorer. Every
// edit builds a new CategoricalParams and hands it to the document as one undo command; input
// the document refuses is marked beside its field with the message and never applied.
namespace ui::panels {

class ProbabilityBars;
class ScheduleCurveEditor;

class CategoricalPanel : public QWidget {
    Q_OBJECT
public:
    // The panel's file reads run as jobs of `files`, which its explorer owns
    // (CategoricalExplorer::fileRunner).
    CategoricalPanel(document::ProjectDocument* document,
                     jobs::JobRunner* files,
                     QWidget* parent = nullptr);
    ~CategoricalPanel() override;  // cancels its jobs: their results would reach a dead panel

    // The error shown beside a field ("pi", "schedule", "table", "trajectory", "K", "N"),
    // empty when it is fine; for tests.
    QString fieldError(const QString& field) const;

    // Entry points the widgets use, public so tests can drive the panel like a user.
    void editPiText(const QString& text);
    // Uses the π last typed with entries that do not sum to 1, divided by their sum (the
    // "normalise" link beside the field).
    void normaliseTypedPi();
    void editTableCell(int row, int column, const QString& text);
    void editTrajectoryList(const QString& text);
    // Switches the data to a table file; the file dialog reads it in the background.
    void chooseCsvFile(const QString& path);
    void chooseCsvFileInBackground(const QString& path);
    // Uses a categorical checkpoint as the denoiser after checking it fits K, D and the
    // conditions of the data; false and a message beside the field when it does not. The
    // background variant (Open…, a dropped file) reads it off the GUI thread.
    bool loadModel(const QString& path);
    void loadModelInBackground(const QString& path);
    // Reads the files of those edits.
    jobs::JobRunner* fileRunner() { return m_files; }

signals:
    void trainRequested();

public slots:
    // The β(t) curve of the current setup (info-linear depends on the data, so the explorer
    // that builds it sends it here).
    void setCurvePreview(const core::schedule::BetaCurve& curve);

private slots:
    void onDocumentChanged();

private:
    void showError(const QString& field, const QString& message);
    QLabel* errorLabel(const QString& field);
    void refreshTable();
    // The four groups of editors, each with its wiring.
    QGroupBox* createPriorBox();
    QGroupBox* createScheduleBox();
    QGroupBox* createDataBox();
    QWidget* createTableButtons();
    QGroupBox* createSamplingBox();
    // The data-source combo's choice: the digits, a table file (asks for it) or the table.
    void chooseDataSource();

    document::ProjectDocument* m_document;
    bool m_refreshing = false;  // filling the widgets from the document: no edits
    FieldErrors m_errors;
    std::vector<double> m_typedPi;  // typed weights awaiting "normalise"
    ParamEdits<document::CategoricalParams> m_edits;

    QSpinBox* m_numClasses;
    ProbabilityBars* m_piBars;
    QLineEdit* m_piText;
    QLabel* m_piSum;
    QComboBox* m_schedule;
    QDoubleSpinBox* m_exponent;
    ScheduleCurveEditor* m_curveEditor;
    QSpinBox* m_numSteps;
    QComboBox* m_dataSource;
    QComboBox* m_levels;
    QLabel* m_csvLabel;
    QSpinBox* m_position;
    QWidget* m_tableButtons;
    QTableWidget* m_table;
    QComboBox* m_condition;
    QComboBox* m_model;
    QComboBox* m_trajectory;
    QSpinBox* m_pathSteps;
    QLineEdit* m_trajectoryList;
    QComboBox* m_kernel;
    QSpinBox* m_numChains;
    QPointer<jobs::JobRunner> m_files;  // guarded: the explorer that owns it may go first
};

}  // namespace ui::panels
