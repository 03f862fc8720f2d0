// SPDX-License-Identifier: MIT
#include "ui/panels/categorical_panel.h"

#include "ui/document/project_model.h"
#include "ui/document/model_files.h"
#include "ui/panels/choice_combo.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/data/categorical_table.h"
#include "ui/panels/pi_editor.h"
#include "ui/panels/schedule_editor.h"

namespace ui::panels {

using document::CategoricalParams;
using document::CategoricalTrajectory;

namespace {

// Merge ids: consecutive drag steps of one control collapse into one undo step.
constexpr int kMergePiDrag = 101;
constexpr int kMergeScheduleDrag = 102;

QString joinNumbers(const std::vector<double>& values) {
    QStringList parts;
    for (double v : values) {
        parts << QString::number(v, 'g', 10);
    }
    return parts.join(", ");
}

}  // namespace

CategoricalPanel::CategoricalPanel(document::ProjectDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);

    // Classes and prior.
    auto* priorBox = new QGroupBox("Classes and prior π");
    auto* priorLayout = new QVBoxLayout(priorBox);
    auto* kRow = new QFormLayout;
    m_numClasses = new QSpinBox;
    m_numClasses->setRange(2, 256);
    m_numClasses->setToolTip("K, the number of classes (2..256).");
    kRow->addRow("K", m_numClasses);
    priorLayout->addLayout(kRow);
    priorLayout->addWidget(errorLabel("K"));
    m_piBars = new ProbabilityBars;
    priorLayout->addWidget(m_piBars);
    auto* piRow = new QHBoxLayout;
    m_piText = new QLineEdit;
    m_piText->setToolTip("π as a comma list; it must be non-negative and sum to 1.");
    auto* presets = new QToolButton;
    presets->setText("Presets");
    presets->setPopupMode(QToolButton::InstantPopup);
    auto* presetMenu = new QMenu(presets);
    presets->setMenu(presetMenu);
    piRow->addWidget(m_piText, 1);
    piRow->addWidget(presets);
    priorLayout->addLayout(piRow);
    m_piSum = new QLabel;
    priorLayout->addWidget(m_piSum);
    priorLayout->addWidget(errorLabel("pi"));
    layout->addWidget(priorBox);

    // Schedule.
    auto* scheduleBox = new QGroupBox("Schedule β(t)");
    auto* scheduleLayout = new QVBoxLayout(scheduleBox);
    auto* scheduleForm = new QFormLayout;
    m_schedule = new QComboBox;
    addChoices(m_schedule, core::project::kCategoricalSchedules);
    m_schedule->setToolTip("The noise schedule; information-linear makes I(X₀;Xₜ) fall "
                           "linearly in t for the current data.");
    m_exponent = new QDoubleSpinBox;
    m_exponent->setRange(0.05, 20.0);
    m_exponent->setSingleStep(0.25);
    m_exponent->setDecimals(3);
    m_exponent->setToolTip("The exponent p of β(t) = tᵖ.");
    m_numSteps = new QSpinBox;
    m_numSteps->setRange(1, 10000);
    m_numSteps->setToolTip("N, the number of grid steps t = 0, 1/N, …, 1.");
    scheduleForm->addRow("kind", m_schedule);
    scheduleForm->addRow("p", m_exponent);
    scheduleForm->addRow("steps N", m_numSteps);
    scheduleLayout->addLayout(scheduleForm);
    m_curveEditor = new ScheduleCurveEditor;
    scheduleLayout->addWidget(m_curveEditor);
    scheduleLayout->addWidget(errorLabel("schedule"));
    scheduleLayout->addWidget(errorLabel("N"));
    layout->addWidget(scheduleBox);

    // Data.
    auto* dataBox = new QGroupBox("Data P(X₀ | C)");
    auto* dataLayout = new QVBoxLayout(dataBox);
    auto* sourceForm = new QFormLayout;
    m_dataSource = new QComboBox;
    addChoices(m_dataSource, core::project::kCategoricalDataSources);
    m_dataSource->setToolTip("The data: a small table, the bundled handwritten digits (64 "
                             "positions, conditioned on the label), or a CSV table file with "
                             "columns x1..xD, p and optionally c.");
    m_levels = new QComboBox;
    for (int levels : {2, 4, 8, 17}) {
        m_levels->addItem(QString::number(levels), levels);
    }
    m_levels->setToolTip("Grey levels of the digits: the number of classes K.");
    m_csvLabel = new QLabel;
    m_csvLabel->setWordWrap(true);
    m_position = new QSpinBox;
    m_position->setToolTip("With several positions (pixels), the matrices and the kernel "
                           "comparison show this one.");
    sourceForm->addRow("source", m_dataSource);
    sourceForm->addRow("levels", m_levels);
    sourceForm->addRow("file", m_csvLabel);
    sourceForm->addRow("position", m_position);
    dataLayout->addLayout(sourceForm);
    m_table = new QTableWidget;
    m_table->setToolTip("Rows are classes, columns are conditions; each column sums to 1.");
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->setMinimumHeight(120);
    dataLayout->addWidget(m_table);
    m_tableButtons = new QWidget;
    auto* tableButtons = new QHBoxLayout(m_tableButtons);
    tableButtons->setContentsMargins(0, 0, 0, 0);
    auto* addCondition = new QPushButton("Add condition");
    auto* removeCondition = new QPushButton("Remove");
    auto* normalise = new QPushButton("Normalise");
    normalise->setToolTip("Scale each column so it sums to 1.");
    tableButtons->addWidget(addCondition);
    tableButtons->addWidget(removeCondition);
    tableButtons->addWidget(normalise);
    dataLayout->addWidget(m_tableButtons);
    auto* conditionForm = new QFormLayout;
    m_condition = new QComboBox;
    m_condition->setToolTip("The condition C whose data the views show and the chains sample.");
    conditionForm->addRow("condition C", m_condition);
    dataLayout->addLayout(conditionForm);
    dataLayout->addWidget(errorLabel("table"));
    layout->addWidget(dataBox);

    // Sampling.
    auto* samplingBox = new QGroupBox("Reverse process");
    auto* samplingForm = new QFormLayout(samplingBox);
    m_model = new QComboBox;
    m_model->addItem("exact oracle", QString());
    m_model->setToolTip("The denoiser F: the exact posterior of the data (what a network that "
                        "memorises its data would learn), or a trained network (a .safetensors "
                        "checkpoint; you can also drop one on the window).");
    auto* openModel = new QPushButton("Open…");
    openModel->setToolTip("Load a categorical checkpoint trained for this K, D and conditions.");
    auto* trainModel = new QPushButton("Train…");
    trainModel->setToolTip("Train a network on this data and schedule, then use it.");
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(openModel);
    modelRow->addWidget(trainModel);
    connect(m_model, &QComboBox::currentIndexChanged, this, [this] {
        if (m_refreshing) return;
        CategoricalParams p = m_document->categorical();
        p.model = m_model->currentData().toString().toStdString();
        apply(p, p.model.empty() ? "Use the exact oracle" : "Use a checkpoint", "model");
    });
    connect(openModel, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, "Open a categorical checkpoint",
                                                          {}, "Checkpoints (*.safetensors)");
        if (!path.isEmpty()) loadModel(path);
    });
    connect(trainModel, &QPushButton::clicked, this, [this] { emit trainRequested(); });
    m_trajectory = new QComboBox;
    addChoices(m_trajectory, core::project::kCategoricalTrajectories);
    m_trajectory->setToolTip("Which grid nodes the reverse chain visits.");
    m_pathSteps = new QSpinBox;
    m_pathSteps->setRange(1, 10000);
    m_pathSteps->setToolTip("K, the number of denoising steps.");
    m_trajectoryList = new QLineEdit;
    m_trajectoryList->setPlaceholderText("0, 10, 40, 100");
    m_trajectoryList->setToolTip("Grid nodes from 0 to N, strictly increasing.");
    m_kernel = new QComboBox;
    m_kernel->addItem("closed form (source)", "closed");
    m_kernel->addItem("D3PM-style (comparison)", "d3pm");
    m_kernel->setToolTip("The closed form reproduces the data exactly; the D3PM-style "
                         "parameterisation does not for non-absorbing π.");
    m_numChains = new QSpinBox;
    m_numChains->setRange(1, 5000);
    m_numChains->setToolTip("Chains drawn in the Trajectories view.");
    samplingForm->addRow("model", modelRow);
    samplingForm->addRow(errorLabel("model"));
    samplingForm->addRow("trajectory", m_trajectory);
    samplingForm->addRow("steps K", m_pathSteps);
    samplingForm->addRow("nodes", m_trajectoryList);
    samplingForm->addRow("kernel", m_kernel);
    samplingForm->addRow("chains", m_numChains);
    samplingForm->addRow(errorLabel("trajectory"));
    layout->addWidget(samplingBox);
    layout->addStretch(1);

    // Wiring: every widget edits a copy of the document's params.
    auto params = [this] { return m_document->categorical(); };
    connect(m_numClasses, &QSpinBox::valueChanged, this, [=, this](int k) {
        if (!m_refreshing) {
            apply(params().withNumClasses(k), "Change K", "K");
        }
    });
    connect(m_piBars, &ProbabilityBars::valuesEdited, this,
            [=, this](const std::vector<double>& values, bool finished) {
                CategoricalParams p = params();
                p.pi = values;
                apply(p, "Drag π", "pi", kMergePiDrag);
                if (finished) m_document->endDrag();
            });
    connect(m_piText, &QLineEdit::editingFinished, this, [this] { editPiText(m_piText->text()); });
    presetMenu->addAction("Uniform", this, [=, this] {
        CategoricalParams p = params();
        p.pi.assign(p.numClasses, 1.0 / p.numClasses);
        apply(p, "π uniform", "pi");
    });
    presetMenu->addAction("Absorbing (mask = last class)", this, [=, this] {
        CategoricalParams p = params();
        p.pi.assign(p.numClasses, 0.0);
        p.pi.back() = 1.0;
        apply(p, "π absorbing", "pi");
    });
    presetMenu->addAction("Data marginal", this, [=, this] {
        CategoricalParams p = params();
        p.pi.assign(p.numClasses, 0.0);
        for (const auto& column : p.table) {
            for (int k = 0; k < p.numClasses; ++k) {
                p.pi[k] += column[k] / p.table.size();
            }
        }
        apply(p, "π = data marginal", "pi");
    });
    connect(m_schedule, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        CategoricalParams p = params();
        p.schedule = chosen(m_schedule, core::project::kCategoricalSchedules);
        apply(p, "Change schedule", "schedule");
    });
    connect(m_exponent, &QDoubleSpinBox::valueChanged, this, [=, this](double v) {
        if (m_refreshing) return;
        CategoricalParams p = params();
        p.powerExponent = v;
        apply(p, "Change exponent", "schedule");
    });
    connect(m_curveEditor, &ScheduleCurveEditor::controlPointsEdited, this,
            [=, this](const std::vector<core::schedule::ControlPoint>& points, bool finished) {
                CategoricalParams p = params();
                p.controlPoints = points;
                apply(p, "Drag control point", "schedule", kMergeScheduleDrag);
                if (finished) m_document->endDrag();
            });
    connect(m_numSteps, &QSpinBox::valueChanged, this, [=, this](int n) {
        if (m_refreshing) return;
        CategoricalParams p = params();
        p.numSteps = n;
        p.pathSteps = std::min(p.pathSteps, n);
        if (p.trajectory == CategoricalTrajectory::List) {
            p.trajectory = CategoricalTrajectory::Even;  // a typed list is tied to the old N
        }
        apply(p, "Change N", "N");
    });
    connect(m_table, &QTableWidget::cellChanged, this, [this](int row, int column) {
        if (!m_refreshing) {
            editTableCell(row, column, m_table->item(row, column)->text());
        }
    });
    connect(addCondition, &QPushButton::clicked, this, [=, this] {
        CategoricalParams p = params();
        p.table.push_back(std::vector<double>(p.numClasses, 1.0 / p.numClasses));
        p.conditionNames.push_back(std::string(1, static_cast<char>('A' + p.table.size() - 1)));
        apply(p, "Add condition", "table");
    });
    connect(removeCondition, &QPushButton::clicked, this, [=, this] {
        CategoricalParams p = params();
        if (p.table.size() <= 1) {
            showError("table", "the data needs at least one condition");
            return;
        }
        p.table.erase(p.table.begin() + p.condition);
        p.conditionNames.erase(p.conditionNames.begin() + p.condition);
        p.condition = std::min<int>(p.condition, static_cast<int>(p.table.size()) - 1);
        apply(p, "Remove condition", "table");
    });
    connect(normalise, &QPushButton::clicked, this, [=, this] {
        CategoricalParams p = params();
        for (auto& column : p.table) {
            double sum = 0.0;
            for (double v : column) sum += std::max(0.0, v);
            for (double& v : column) v = sum > 0 ? std::max(0.0, v) / sum : 1.0 / p.numClasses;
        }
        apply(p, "Normalise data", "table");
    });
    connect(m_dataSource, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        const QString source = m_dataSource->currentData().toString();
        if (source == "digits") {
            apply(params().withDigits(m_levels->currentData().toInt()), "Use the digits", "table");
        } else if (source == "csv") {
            const QString path = QFileDialog::getOpenFileName(this, "Open a table file", {},
                                                              "CSV tables (*.csv);;All files (*)");
            if (path.isEmpty()) {
                onDocumentChanged();
                return;
            }
            chooseCsvFile(path);
        } else {
            CategoricalParams p = params();
            CategoricalParams example = CategoricalParams::example();
            p.dataSource = document::CategoricalData::Table;
            p = p.withNumClasses(example.numClasses);
            p.table = example.table;
            p.conditionNames = example.conditionNames;
            p.condition = 0;
            p.position = 0;
            apply(p, "Use the table", "table");
        }
    });
    connect(m_levels, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        apply(params().withDigits(m_levels->currentData().toInt()), "Change levels", "table");
    });
    connect(m_position, &QSpinBox::valueChanged, this, [=, this](int position) {
        if (m_refreshing) return;
        CategoricalParams p = params();
        p.position = position;
        apply(p, "Change position", "table");
    });
    connect(m_condition, &QComboBox::currentIndexChanged, this, [=, this](int index) {
        if (m_refreshing || index < 0) return;
        CategoricalParams p = params();
        p.condition = index;
        apply(p, "Change condition", "table");
    });
    connect(m_trajectory, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        CategoricalParams p = params();
        const QString kind = m_trajectory->currentData().toString();
        if (kind == "list") {
            if (p.trajectoryList.empty()) {
                p.trajectoryList = {0, p.numSteps};
            }
            p.trajectory = CategoricalTrajectory::List;
        } else {
            p.trajectory = kind == "dp" ? CategoricalTrajectory::Dp : CategoricalTrajectory::Even;
        }
        apply(p, "Change trajectory", "trajectory");
    });
    connect(m_pathSteps, &QSpinBox::valueChanged, this, [=, this](int k) {
        if (m_refreshing) return;
        CategoricalParams p = params();
        p.pathSteps = k;
        apply(p, "Change steps K", "trajectory");
    });
    connect(m_trajectoryList, &QLineEdit::editingFinished, this,
            [this] { editTrajectoryList(m_trajectoryList->text()); });
    connect(m_kernel, &QComboBox::currentIndexChanged, this, [=, this] {
        if (m_refreshing) return;
        CategoricalParams p = params();
        auto form = core::categorical::parseKernelForm(m_kernel->currentData().toString().toStdString());
        p.kernel = form ? *form : core::categorical::KernelForm::Closed;
        apply(p, "Change kernel", "trajectory");
    });
    connect(m_numChains, &QSpinBox::valueChanged, this, [=, this](int b) {
        if (m_refreshing) return;
        CategoricalParams p = params();
        p.numChains = b;
        apply(p, "Change chains", "trajectory");
    });

    connect(m_document, &document::ProjectDocument::categoricalChanged, this,
            &CategoricalPanel::onDocumentChanged);
    connect(m_document, &document::ProjectDocument::projectReplaced, this,
            &CategoricalPanel::onDocumentChanged);
    onDocumentChanged();
}

QLabel* CategoricalPanel::errorLabel(const QString& field) { return m_errors.create(field); }

void CategoricalPanel::showError(const QString& field, const QString& message) {
    m_errors.show(field, message);
}

QString CategoricalPanel::fieldError(const QString& field) const { return m_errors.message(field); }

bool CategoricalPanel::apply(const CategoricalParams& params,
                             const QString& text,
                             const QString& field,
                             int mergeId) {
    const core::Status status = m_document->setCategorical(params, text, mergeId);
    if (!status) {
        showError(field, QString::fromStdString(status.error().toString()));
        // Put the widgets back to what the document holds, keeping the message.
        const QString message = fieldError(field);
        onDocumentChanged();
        showError(field, message);
        return false;
    }
    showError(field, {});
    return true;
}

void CategoricalPanel::editPiText(const QString& text) {
    CategoricalParams p = m_document->categorical();
    std::vector<double> values;
    const QStringList parts = text.split(',', Qt::SkipEmptyParts);
    for (int i = 0; i < parts.size(); ++i) {
        bool ok = false;
        const double v = parts[i].trimmed().toDouble(&ok);
        if (!ok) {
            showError("pi", QString("pi[%1] = %2: not a number").arg(i).arg(parts[i].trimmed()));
            return;
        }
        values.push_back(v);
    }
    if (static_cast<int>(values.size()) != p.numClasses) {
        showError("pi", QString("π has %1 entries but K = %2").arg(values.size()).arg(p.numClasses));
        return;
    }
    p.pi = values;
    apply(p, "Edit π", "pi");
}

void CategoricalPanel::editTableCell(int row, int column, const QString& text) {
    CategoricalParams p = m_document->categorical();
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok) {
        showError("table", QString("table[%1][%2] = %3: not a number").arg(column).arg(row).arg(text));
        refreshTable();
        return;
    }
    if (column < 0 || column >= static_cast<int>(p.table.size()) || row < 0 ||
        row >= p.numClasses) {
        return;
    }
    p.table[column][row] = v;
    apply(p, "Edit data", "table");
}

void CategoricalPanel::editTrajectoryList(const QString& text) {
    CategoricalParams p = m_document->categorical();
    std::vector<int> nodes;
    const QStringList parts = text.split(',', Qt::SkipEmptyParts);
    for (int i = 0; i < parts.size(); ++i) {
        bool ok = false;
        const int v = parts[i].trimmed().toInt(&ok);
        if (!ok) {
            showError("trajectory",
                      QString("trajectoryList[%1] = %2: not a whole number").arg(i).arg(parts[i]));
            return;
        }
        nodes.push_back(v);
    }
    p.trajectoryList = nodes;
    p.trajectory = CategoricalTrajectory::List;
    apply(p, "Edit trajectory", "trajectory");
}

void CategoricalPanel::chooseCsvFile(const QString& path) {
    // Read the file once here for its shape (K, D, conditions); the setup reads it again.
    CategoricalParams p = m_document->categorical();
    auto table = core::data::readCategoricalTable(path.toStdString(), 256);
    if (!table) {
        showError("table", QString::fromStdString(table.error().toString()));
        onDocumentChanged();
        showError("table", QString::fromStdString(table.error().toString()));
        return;
    }
    int maxClass = 1;
    for (int c : table->classes) {
        maxClass = std::max(maxClass, c);
    }
    p = p.withNumClasses(std::max(p.numClasses, maxClass + 1));
    p.dataSource = document::CategoricalData::CsvFile;
    p.csvPath = path.toStdString();
    p.conditionNames.clear();
    for (const std::string& name : table->conditionNames) {
        p.conditionNames.push_back(name.empty() ? "all" : name);
    }
    p.condition = 0;
    p.position = 0;
    apply(p, "Use a table file", "table");
}

void CategoricalPanel::setCurvePreview(const core::schedule::BetaCurve& curve) {
    m_curveEditor->setCurve(curve);
}

void CategoricalPanel::refreshTable() {
    const CategoricalParams& p = m_document->categorical();
    const bool old = m_refreshing;
    m_refreshing = true;
    m_table->setRowCount(p.table.empty() ? 0 : p.numClasses);
    m_table->setColumnCount(static_cast<int>(p.table.size()));
    QStringList headers;
    for (size_t c = 0; c < p.table.size() && c < p.conditionNames.size(); ++c) {
        headers << QString("C = %1").arg(document::qs(p.conditionNames[c]));
    }
    m_table->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < static_cast<int>(p.table.size()); ++c) {
        for (int k = 0; k < p.numClasses; ++k) {
            auto* item = m_table->item(k, c);
            if (item == nullptr) {
                item = new QTableWidgetItem;
                m_table->setItem(k, c, item);
            }
            item->setText(QString::number(p.table[c][k], 'g', 8));
        }
    }
    m_refreshing = old;
}

bool CategoricalPanel::loadModel(const QString& path) {
    CategoricalParams p = m_document->categorical();
    auto setup = document::buildCategoricalSetup(p);
    if (!setup) {
        showError("model", QString::fromStdString(setup.error().toString()));
        return false;
    }
    const auto& table = (*setup)->table;
    auto network = document::loadCategoricalModel(path, table.numClasses, table.numPositions,
                                                   table.numConditions());
    if (!network) {
        showError("model", QString::fromStdString(network.error().toString()));
        return false;
    }
    p.model = (path.startsWith(':') ? path : QFileInfo(path).absoluteFilePath()).toStdString();
    return apply(p, "Use a checkpoint", "model");
}

void CategoricalPanel::onDocumentChanged() {
    const CategoricalParams& p = m_document->categorical();
    m_refreshing = true;
    while (m_model->count() > 1) m_model->removeItem(1);
    if (!p.model.empty()) {
        const QString model = document::qs(p.model);
        m_model->addItem(QFileInfo(model).fileName(), model);
        m_model->setItemData(1, model, Qt::ToolTipRole);
    }
    m_model->setCurrentIndex(p.model.empty() ? 0 : 1);
    m_numClasses->setValue(p.numClasses);
    m_piBars->setValues(p.pi);
    m_piText->setText(joinNumbers(p.pi));
    double sum = 0.0;
    for (double v : p.pi) sum += v;
    m_piSum->setText(QString("Σπ = %1").arg(sum, 0, 'g', 12));
    showChoice(m_schedule, core::project::kCategoricalSchedules, p.schedule);
    m_exponent->setValue(p.powerExponent);
    m_exponent->setEnabled(p.schedule == core::schedule::BetaCurveKind::Power);
    m_numSteps->setValue(p.numSteps);
    if (auto curve = p.betaCurve({}); curve) {
        m_curveEditor->setCurve(*curve);  // info-linear arrives from the explorer
    }
    const bool isTable = p.dataSource == document::CategoricalData::Table;
    showChoice(m_dataSource, core::project::kCategoricalDataSources, p.dataSource);
    m_levels->setCurrentIndex(std::max(0, m_levels->findData(p.digitLevels)));
    m_levels->setEnabled(p.dataSource == document::CategoricalData::Digits);
    m_csvLabel->setText(p.dataSource == document::CategoricalData::CsvFile
                            ? QFileInfo(document::qs(p.csvPath)).fileName()
                            : QString("—"));
    m_csvLabel->setToolTip(document::qs(p.csvPath));
    const int positions = p.dataSource == document::CategoricalData::Digits ? 64 : 1024;
    m_position->setRange(0, positions - 1);
    m_position->setValue(p.position);
    m_position->setEnabled(!isTable);
    m_table->setVisible(isTable);
    m_tableButtons->setVisible(isTable);
    m_numClasses->setEnabled(p.dataSource != document::CategoricalData::Digits);
    m_curveEditor->setControlPoints(p.controlPoints,
                                    p.schedule == core::schedule::BetaCurveKind::Custom);
    refreshTable();
    m_condition->clear();
    for (const std::string& name : p.conditionNames) {
        m_condition->addItem(document::qs(name));
    }
    m_condition->setCurrentIndex(p.condition);
    const char* kind = p.trajectory == CategoricalTrajectory::Dp     ? "dp"
                       : p.trajectory == CategoricalTrajectory::List ? "list"
                                                                     : "even";
    m_trajectory->setCurrentIndex(m_trajectory->findData(kind));
    m_pathSteps->setMaximum(p.numSteps);
    m_pathSteps->setValue(p.pathSteps);
    m_pathSteps->setEnabled(p.trajectory != CategoricalTrajectory::List);
    QStringList nodes;
    for (int n : p.trajectoryList) nodes << QString::number(n);
    m_trajectoryList->setText(nodes.join(", "));
    m_trajectoryList->setEnabled(p.trajectory == CategoricalTrajectory::List);
    m_kernel->setCurrentIndex(std::max(0, m_kernel->findData(core::categorical::kernelFormName(p.kernel))));
    m_numChains->setValue(p.numChains);
    m_refreshing = false;
    m_errors.hideAll();
}

}  // namespace ui::panels
