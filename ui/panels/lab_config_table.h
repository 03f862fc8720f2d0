// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include "core/project/lab_settings.h"
#include "ui/document/project_document.h"
#include "ui/panels/field_errors.h"
#include "ui/panels/param_edits.h"

class QLineEdit;
class QSpinBox;
class QTableWidget;
class QToolButton;
class QPushButton;

// The schedule lab's editor: one table row per configuration (name, colour, schedule,
// trajectory family, reverse variance, sampler), Add / Duplicate / Remove, the presets, the K
// list and the quality sample count. Every change is one undo step on the document's
// GaussianParams::lab (a preset may also set the project's schedule, in the same step).
namespace ui::panels {

class LabConfigTable : public QWidget {
    Q_OBJECT
public:
    explicit LabConfigTable(document::ProjectDocument* document, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    QLineEdit* ksField() const { return m_ks; }
    QSpinBox* qualityField() const { return m_quality; }
    const FieldErrors& errors() const { return m_errors; }

    // The same edits as the buttons and the colour dialog, for tests and scripts.
    bool addConfig();
    bool duplicateConfig(int row);
    bool removeConfig(int row);
    bool setColour(int row, const QString& colour);
    bool applyPreset(const std::string& id);

    // The column of each field.
    enum Column { Name, Colour, Schedule, Trajectory, Variance, Sampler, NumColumns };

private:
    void onDocumentChanged();
    void ensureRow(int row);
    void fillRow(int row, const core::project::LabConfig& config);
    void pickColour(int row);
    // Edits configuration `row` of the document's lab with `edit` as one undo step.
    void createPresetsMenu();
    template <typename Edit>
    bool editConfig(int row, const QString& undoText, Edit edit);
    int selectedRow() const;

    document::ProjectDocument* m_document;
    bool m_refreshing = false;
    FieldErrors m_errors;
    ParamEdits<document::GaussianParams> m_edits;
    QTableWidget* m_table;
    QToolButton* m_presets;
    QLineEdit* m_ks;
    QSpinBox* m_quality;
};

// "5, 10, 25" (commas and/or spaces) as integers; the error names lab.ks and the bad item.
core::Result<std::vector<int>> parseKList(const QString& text);
QString formatKList(const std::vector<int>& ks);

}  // namespace ui::panels
