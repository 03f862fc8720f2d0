// SPDX-License-Identifier: MIT
#include "ui/panels/categorical_panel.h"

#include <QComboBox>
#include <QCoreApplication>
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

#include "core/categorical/prior.h"
#include "core/data/bundled_files.h"
#include "core/data/categorical_table.h"
#include "core/project/categorical_setup.h"
#include "core/util/limits.h"
#include "core/util/number_text.h"
#include "ui/document/model_files.h"
#include "ui/document/project_model.h"
#include "ui/panels/choice_combo.h"
#include "ui/panels/input_guard.h"
#include "ui/panels/param_edits.h"
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
        parts << QString::fromStdString(core::readableText(v));  // 0.3, not 0.30000000000000004
    }
    return parts.join(", ");
}

// The params with the table file as the data, read here for its shape (K, D, conditions);
// the set-up reads it again.
core::Result<CategoricalParams> withTableFile(CategoricalParams p, const QString& path) {
    auto table = core::data::readCategoricalTable(path.toStdString(), 256);
    if (!table) {
        return table.error();
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
    return p;
}

// The params with the checkpoint as the denoiser, once it is known to fit K, D and the
// conditions of the data.
core::Result<CategoricalParams> withCheckpoint(CategoricalParams p, const QString& path) {
    auto setup = document::buildCategoricalSetup(p);
    if (!setup) {
        return setup.error();
    }
    const auto& table = (*setup)->table;
    auto network = document::loadCategoricalModel(path, table.numClasses, table.numPositions,
                                                  table.numConditions(), p.scheduleSpec());
    if (!network) {
        return network.error();
    }
    p.model = core::data::portableModelPath(
        (path.startsWith(':') || path.startsWith(core::data::kBundledPrefix)
             ? path
             : QFileInfo(path).absoluteFilePath())
            .toStdString());
    return p;
}

}  // namespace

CategoricalPanel::CategoricalPanel(document::ProjectDocument* document,
                                   jobs::JobRunner* files,
                                   QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_edits(
          this,
          &m_refreshing,
          [this] { return m_document->categorical(); },
          [this](const CategoricalParams& p, const QString& text, int mergeId) {
              return m_document->setCategorical(p, text, mergeId);
          },
          [this] { onDocumentChanged(); },
          &m_errors) {
    m_files = files;
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(createPriorBox());
    layout->addWidget(createScheduleBox());
    layout->addWidget(createDataBox());
    layout->addWidget(createSamplingBox());
    layout->addStretch(1);
    InputGuard::install(this, [this] { m_document->endDrag(); });

    connect(m_document, &document::ProjectDocument::categoricalChanged, this,
            &CategoricalPanel::onDocumentChanged);
    connect(m_document, &document::ProjectDocument::projectReplaced, this,
            &CategoricalPanel::onDocumentChanged);
    onDocumentChanged();
}

CategoricalPanel::~CategoricalPanel() {
    if (m_files) m_files->cancel();
}

QGroupBox* CategoricalPanel::createPriorBox() {
    auto* box = new QGroupBox(tr("Classes and prior π"));
    auto* boxLayout = new QVBoxLayout(box);
    auto* kRow = new QFormLayout;
    m_numClasses = new QSpinBox;
    m_numClasses->setObjectName("numClasses");
    m_numClasses->setRange(2, 256);
    m_numClasses->setToolTip(tr("K, the number of classes (2..256)."));
    kRow->addRow(tr("K"), m_numClasses);
    boxLayout->addLayout(kRow);
    boxLayout->addWidget(errorLabel("K"));
    m_piBars = new ProbabilityBars;
    boxLayout->addWidget(m_piBars);
    auto* piRow = new QHBoxLayout;
    m_piText = new QLineEdit;
    m_piText->setToolTip(tr("π as a comma list; it must be non-negative and sum to 1."));
    auto* presets = new QToolButton;
    presets->setText(tr("Presets"));
    presets->setPopupMode(QToolButton::InstantPopup);
    auto* presetMenu = new QMenu(presets);
    presets->setMenu(presetMenu);
    piRow->addWidget(m_piText, 1);
    piRow->addWidget(presets);
    boxLayout->addLayout(piRow);
    m_piSum = new QLabel;
    boxLayout->addWidget(m_piSum);
    QLabel* piError = errorLabel("pi");
    piError->setTextFormat(Qt::RichText);
    connect(piError, &QLabel::linkActivated, this, [this] { normaliseTypedPi(); });
    boxLayout->addWidget(piError);

    m_edits.bind(m_numClasses, &QSpinBox::valueChanged, tr("Change K"), "K",
                 [](CategoricalParams& p, int k) { p = p.withNumClasses(k); });
    m_edits.bind(
        m_piBars, &ProbabilityBars::valuesEdited, tr("Drag π"), "pi",
        [](CategoricalParams& p, const std::vector<double>& values, bool) {
            p.pi = values;
            p.maskState = false;
        },
        kMergePiDrag);
    connect(m_piBars, &ProbabilityBars::valuesEdited, this,
            [this](const std::vector<double>&, bool finished) {
                if (finished) m_document->endDrag();
            });
    connect(m_piText, &QLineEdit::editingFinished, this, [this] { editPiText(m_piText->text()); });
    auto preset = [this, presetMenu](const QString& name, const QString& undoText, auto edit) {
        QAction* action = presetMenu->addAction(name);
        m_edits.bind(action, &QAction::triggered, undoText, "pi", edit);
    };
    preset(tr("Uniform"), tr("π uniform"), [](CategoricalParams& p) {
        p.maskState = false;
        p.pi.assign(p.numClasses, 1.0 / p.numClasses);
    });
    preset(tr("Absorbing (mask = last class)"), tr("π absorbing"), [](CategoricalParams& p) {
        p.maskState = false;
        p.pi.assign(p.numClasses, 0.0);
        p.pi.back() = 1.0;
    });
    preset(tr("Masked (a mask state of its own)"), tr("π masked"), [](CategoricalParams& p) {
        p.maskState = true;  // class K, which the data never use, takes all of π
    });
    preset(tr("Data marginal"), tr("π = data marginal"), [](CategoricalParams& p) {
        p.maskState = false;
        p.pi.assign(p.numClasses, 0.0);
        for (const auto& column : p.table) {
            for (int k = 0; k < p.numClasses; ++k) p.pi[k] += column[k] / p.table.size();
        }
    });
    return box;
}

QGroupBox* CategoricalPanel::createScheduleBox() {
    auto* box = new QGroupBox(tr("Schedule β(t)"));
    auto* boxLayout = new QVBoxLayout(box);
    auto* form = new QFormLayout;
    m_schedule = new QComboBox;
    addChoices(m_schedule, core::project::kCategoricalSchedules);
    m_schedule->setToolTip(
        tr("The noise schedule; information-linear makes I(X₀;Xₜ) fall "
           "linearly in t for the current data."));
    m_exponent = new QDoubleSpinBox;
    m_exponent->setRange(0.05, 20.0);
    m_exponent->setSingleStep(0.25);
    m_exponent->setDecimals(3);
    m_exponent->setToolTip(tr("The exponent p of β(t) = tᵖ."));
    m_numSteps = new QSpinBox;
    m_numSteps->setObjectName("numSteps");
    m_numSteps->setRange(1, core::limits::kSteps.max);
    m_numSteps->setToolTip(tr("N, the number of grid steps t = 0, 1/N, …, 1."));
    form->addRow(tr("kind"), m_schedule);
    form->addRow(tr("p"), m_exponent);
    form->addRow(tr("steps N"), m_numSteps);
    boxLayout->addLayout(form);
    m_curveEditor = new ScheduleCurveEditor;
    boxLayout->addWidget(m_curveEditor);
    boxLayout->addWidget(errorLabel("schedule"));
    boxLayout->addWidget(errorLabel("N"));

    m_edits.bind(m_schedule, &QComboBox::currentIndexChanged, tr("Change schedule"), "schedule",
                 [this](CategoricalParams& p) {
                     p.schedule = chosen(m_schedule, core::project::kCategoricalSchedules);
                 });
    m_edits.bind(m_exponent, &QDoubleSpinBox::valueChanged, tr("Change exponent"), "schedule",
                 [](CategoricalParams& p, double v) { p.powerExponent = v; });
    m_edits.bind(
        m_curveEditor, &ScheduleCurveEditor::controlPointsEdited, tr("Drag control point"),
        "schedule",
        [](CategoricalParams& p, const std::vector<core::schedule::ControlPoint>& points, bool) {
            p.controlPoints = points;
        },
        kMergeScheduleDrag);
    connect(m_curveEditor, &ScheduleCurveEditor::controlPointsEdited, this,
            [this](const std::vector<core::schedule::ControlPoint>&, bool finished) {
                if (finished) m_document->endDrag();
            });
    m_edits.bind(m_numSteps, &QSpinBox::valueChanged, tr("Change N"), "N",
                 [](CategoricalParams& p, int n) { p = p.withNumSteps(n); });
    return box;
}

// The table's buttons (shown for the small table only): add a condition, remove the chosen
// one, normalise every column.
QWidget* CategoricalPanel::createTableButtons() {
    m_tableButtons = new QWidget;
    auto* tableButtons = new QHBoxLayout(m_tableButtons);
    tableButtons->setContentsMargins(0, 0, 0, 0);
    auto* addCondition = new QPushButton(tr("Add condition"));
    auto* removeCondition = new QPushButton(tr("Remove"));
    auto* normalise = new QPushButton(tr("Normalise"));
    normalise->setToolTip(tr("Scale each column so it sums to 1."));
    tableButtons->addWidget(addCondition);
    tableButtons->addWidget(removeCondition);
    tableButtons->addWidget(normalise);
    m_edits.bind(
        addCondition, &QPushButton::clicked, tr("Add condition"), "table",
        [](CategoricalParams& p) {
            p.table.push_back(std::vector<double>(p.numClasses, 1.0 / p.numClasses));
            p.conditionNames.push_back(std::string(1, static_cast<char>('A' + p.table.size() - 1)));
        });
    m_edits.bind(removeCondition, &QPushButton::clicked, tr("Remove condition"), "table",
                 [this](CategoricalParams& p) {
                     if (p.table.size() <= 1) {
                         showError("table", tr("the data needs at least one condition"));
                         return false;
                     }
                     if (p.condition == core::project::kAllConditions) {
                         showError("table", tr("choose the condition to remove"));
                         return false;
                     }
                     p.table.erase(p.table.begin() + p.condition);
                     p.conditionNames.erase(p.conditionNames.begin() + p.condition);
                     p.condition = std::min<int>(p.condition, static_cast<int>(p.table.size()) - 1);
                     return true;
                 });
    m_edits.bind(normalise, &QPushButton::clicked, tr("Normalise data"), "table",
                 [](CategoricalParams& p) {
                     for (auto& column : p.table) {
                         double sum = 0.0;
                         for (double v : column) sum += std::max(0.0, v);
                         for (double& v : column)
                             v = sum > 0 ? std::max(0.0, v) / sum : 1.0 / p.numClasses;
                     }
                 });
    return m_tableButtons;
}

QGroupBox* CategoricalPanel::createDataBox() {
    auto* box = new QGroupBox(tr("Data P(X₀ | C)"));
    auto* boxLayout = new QVBoxLayout(box);
    auto* sourceForm = new QFormLayout;
    m_dataSource = new QComboBox;
    m_dataSource->setObjectName("dataSource");
    addChoices(m_dataSource, core::project::kCategoricalDataSources);
    m_dataSource->setToolTip(
        tr("The data: a small table, the bundled handwritten digits (64 "
           "positions, conditioned on the label), or a CSV table file with "
           "columns x1..xD, p and optionally c."));
    m_levels = new QComboBox;
    for (int levels : {2, 4, 8, 17}) {
        m_levels->addItem(QString::number(levels), levels);
    }
    m_levels->setToolTip(tr("Grey levels of the digits: the number of classes K."));
    m_csvLabel = new QLabel;
    m_csvLabel->setWordWrap(true);
    m_position = new QSpinBox;
    m_position->setToolTip(
        tr("With several positions (pixels), the matrices and the kernel "
           "comparison show this one."));
    sourceForm->addRow(tr("source"), m_dataSource);
    sourceForm->addRow(tr("levels"), m_levels);
    sourceForm->addRow(tr("file"), m_csvLabel);
    sourceForm->addRow(tr("position"), m_position);
    boxLayout->addLayout(sourceForm);
    m_table = new QTableWidget;
    m_table->setToolTip(
        tr("Rows are classes (numbered from 0), columns are conditions; each column sums to 1."));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->setMinimumHeight(120);
    boxLayout->addWidget(m_table);
    boxLayout->addWidget(createTableButtons());
    auto* conditionForm = new QFormLayout;
    m_condition = new QComboBox;
    m_condition->setObjectName("condition");
    m_condition->setToolTip(tr("The condition C whose data the views show and the chains sample."));
    conditionForm->addRow(tr("condition C"), m_condition);
    boxLayout->addLayout(conditionForm);
    boxLayout->addWidget(errorLabel("table"));

    connect(m_table, &QTableWidget::cellChanged, this, [this](int row, int column) {
        if (!m_refreshing) editTableCell(row, column, m_table->item(row, column)->text());
    });
    connect(m_dataSource, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_refreshing) chooseDataSource();
    });
    m_edits.bind(
        m_levels, &QComboBox::currentIndexChanged, tr("Change levels"), "table",
        [this](CategoricalParams& p) { p = p.withDigits(m_levels->currentData().toInt()); });
    m_edits.bind(m_position, &QSpinBox::valueChanged, tr("Change position"), "table",
                 [](CategoricalParams& p, int position) { p.position = position; });
    m_edits.bind(m_condition, &QComboBox::currentIndexChanged, tr("Change condition"), "table",
                 [](CategoricalParams& p, int index) {
                     // The item after the conditions: all of them, averaged.
                     p.condition = index == static_cast<int>(p.conditionNames.size())
                                       ? core::project::kAllConditions
                                       : index;
                     return index >= 0;
                 });
    return box;
}

void CategoricalPanel::chooseDataSource() {
    switch (chosen(m_dataSource, core::project::kCategoricalDataSources)) {
        case document::CategoricalData::Digits:
            m_edits.edit(tr("Use the digits"), "table", [this](CategoricalParams& p) {
                p = p.withDigits(m_levels->currentData().toInt());
            });
            return;
        case document::CategoricalData::CsvFile: {
            const QString path = QFileDialog::getOpenFileName(this, tr("Open a table file"), {},
                                                              "CSV tables (*.csv);;All files (*)");
            if (path.isEmpty()) {
                onDocumentChanged();
            } else {
                chooseCsvFileInBackground(path);
            }
            return;
        }
        case document::CategoricalData::Table:
            m_edits.edit(tr("Use the table"), "table", [](CategoricalParams& p) {
                const CategoricalParams example = CategoricalParams::example();
                p.dataSource = document::CategoricalData::Table;
                p = p.withNumClasses(example.numClasses);
                p.table = example.table;
                p.conditionNames = example.conditionNames;
                p.condition = 0;
                p.position = 0;
            });
            return;
    }
}

QGroupBox* CategoricalPanel::createSamplingBox() {
    auto* box = new QGroupBox(tr("Reverse process"));
    auto* form = new QFormLayout(box);
    m_model = new QComboBox;
    m_model->addItem(tr("exact oracle"), QString());
    m_model->setToolTip(
        tr("The denoiser F: the exact posterior of the data (what a network that "
           "memorises its data would learn), or a trained network (a .safetensors "
           "checkpoint or a TorchScript .pt model; you can also drop one on the window)."));
    auto* openModel = new QPushButton(tr("Open…"));
    openModel->setToolTip(
        tr("Load a categorical checkpoint trained for these classes (K), positions (D) and "
           "conditions."));
    auto* trainModel = new QPushButton(tr("Train…"));
    trainModel->setToolTip(tr("Train a network on this data and schedule, then use it."));
    // The buttons under the model's name: beside it they made the panel 370 px wide, too
    // wide for a 1280 × 720 projector with the Explanation open.
    auto* modelButtons = new QHBoxLayout;
    modelButtons->addWidget(openModel);
    modelButtons->addWidget(trainModel);
    modelButtons->addStretch(1);
    m_trajectory = new QComboBox;
    addChoices(m_trajectory, core::project::kCategoricalTrajectories);
    m_trajectory->setToolTip(tr("Which grid nodes the reverse chain visits."));
    m_pathSteps = new QSpinBox;
    m_pathSteps->setObjectName("pathSteps");
    m_pathSteps->setRange(1, 10000);
    m_pathSteps->setToolTip(tr("The number of denoising steps."));
    m_trajectoryList = new QLineEdit;
    m_trajectoryList->setPlaceholderText("0, 10, 40, 100");
    m_trajectoryList->setToolTip(tr("Grid nodes from 0 to N, strictly increasing."));
    m_kernel = new QComboBox;
    m_kernel->addItem(tr("closed form (source)"), "closed");
    m_kernel->addItem(tr("D3PM-style (comparison)"), "d3pm");
    m_kernel->setToolTip(
        tr("The closed form reproduces the data exactly; the D3PM-style "
           "parameterisation does not for non-absorbing π."));
    m_numChains = new QSpinBox;
    m_numChains->setRange(1, 5000);
    m_numChains->setToolTip(tr("Chains drawn in the Trajectories view."));
    form->addRow(tr("model"), m_model);
    form->addRow(QString(), modelButtons);
    form->addRow(errorLabel("model"));
    form->addRow(tr("trajectory"), m_trajectory);
    form->addRow(tr("path steps"), m_pathSteps);
    form->addRow(tr("nodes"), m_trajectoryList);
    form->addRow(tr("kernel"), m_kernel);
    form->addRow(tr("chains"), m_numChains);
    form->addRow(errorLabel("trajectory"));

    connect(m_model, &QComboBox::currentIndexChanged, this, [this] {
        if (m_refreshing) return;
        const std::string model = m_model->currentData().toString().toStdString();
        m_edits.edit(model.empty() ? tr("Use the exact oracle") : tr("Use a checkpoint"), "model",
                     [&](CategoricalParams& p) { p.model = model; });
    });
    connect(openModel, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a categorical checkpoint"),
                                                          {}, tr("Models (*.safetensors *.pt)"));
        if (!path.isEmpty()) loadModelInBackground(path);
    });
    connect(trainModel, &QPushButton::clicked, this, [this] { emit trainRequested(); });
    m_edits.bind(m_trajectory, &QComboBox::currentIndexChanged, tr("Change trajectory"),
                 "trajectory", [this](CategoricalParams& p) {
                     p.trajectory = chosen(m_trajectory, core::project::kCategoricalTrajectories);
                     if (p.trajectory == CategoricalTrajectory::List && p.trajectoryList.empty()) {
                         p.trajectoryList = {0, p.numSteps};
                     }
                 });
    m_edits.bind(m_pathSteps, &QSpinBox::valueChanged, tr("Change path steps"), "trajectory",
                 [](CategoricalParams& p, int k) {
                     p.pathSteps = k;
                     p.pathStepsAsked = 0;  // the user's own K now
                 });
    connect(m_trajectoryList, &QLineEdit::editingFinished, this,
            [this] { editTrajectoryList(m_trajectoryList->text()); });
    m_edits.bind(m_kernel, &QComboBox::currentIndexChanged, tr("Change kernel"), "trajectory",
                 [this](CategoricalParams& p) {
                     auto form = core::categorical::parseKernelForm(
                         m_kernel->currentData().toString().toStdString());
                     p.kernel = form ? *form : core::categorical::KernelForm::Closed;
                 });
    m_edits.bind(m_numChains, &QSpinBox::valueChanged, tr("Change chains"), "trajectory",
                 [](CategoricalParams& p, int b) { p.numChains = b; });
    return box;
}

QLabel* CategoricalPanel::errorLabel(const QString& field) { return m_errors.create(field); }

void CategoricalPanel::showError(const QString& field, const QString& message) {
    m_errors.show(field, message);
}

QString CategoricalPanel::fieldError(const QString& field) const { return m_errors.message(field); }

void CategoricalPanel::editPiText(const QString& text) {
    CategoricalParams p = m_document->categorical();
    std::vector<double> values;
    const QStringList parts = text.split(',', Qt::SkipEmptyParts);
    for (int i = 0; i < parts.size(); ++i) {
        bool ok = false;
        const double v = parts[i].trimmed().toDouble(&ok);
        if (!ok) {
            showError("pi", tr("pi[%1] = %2: not a number").arg(i).arg(parts[i].trimmed()));
            return;
        }
        values.push_back(v);
    }
    if (static_cast<int>(values.size()) != p.numClasses) {
        showError("pi", tr("π has %1 entries but K = %2").arg(values.size()).arg(p.numClasses));
        return;
    }
    double sum = 0.0;
    bool nonNegative = true;
    for (double v : values) {
        sum += v;
        nonNegative = nonNegative && v >= 0.0;
    }
    if (nonNegative && sum > 0.0 && std::abs(sum - 1.0) > core::categorical::kPriorSumTolerance) {
        // Weights rather than probabilities: offer to divide by their sum instead of refusing.
        m_typedPi = values;
        m_piSum->setText(tr("Σπ = %1 (typed)").arg(sum, 0, 'g', 12));
        showError("pi", tr("pi = %1: the entries sum to %2, not 1 — "
                           "<a href=\"normalise\">normalise</a> (divide each by %2)")
                            .arg(text.toHtmlEscaped())
                            .arg(sum, 0, 'g', 12));
        return;
    }
    p.pi = values;
    p.maskState = false;
    m_edits.apply(p, tr("Edit π"), "pi");
}

void CategoricalPanel::normaliseTypedPi() {
    CategoricalParams p = m_document->categorical();
    if (static_cast<int>(m_typedPi.size()) != p.numClasses) return;
    double sum = 0.0;
    for (double v : m_typedPi) sum += v;
    p.pi.clear();
    for (double v : m_typedPi) p.pi.push_back(v / sum);
    p.maskState = false;
    m_typedPi.clear();
    m_edits.apply(p, tr("Normalise π"), "pi");
}

void CategoricalPanel::editTableCell(int row, int column, const QString& text) {
    CategoricalParams p = m_document->categorical();
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok) {
        showError("table", tr("table[%1][%2] = %3: not a number").arg(column).arg(row).arg(text));
        refreshTable();
        return;
    }
    if (column < 0 || column >= static_cast<int>(p.table.size()) || row < 0 ||
        row >= p.numClasses) {
        return;
    }
    p.table[column][row] = v;
    m_edits.apply(p, tr("Edit data"), "table");
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
                      tr("trajectoryList[%1] = %2: not a whole number").arg(i).arg(parts[i]));
            return;
        }
        nodes.push_back(v);
    }
    p.trajectoryList = nodes;
    p.trajectory = CategoricalTrajectory::List;
    m_edits.apply(p, tr("Edit trajectory"), "trajectory");
}

void CategoricalPanel::chooseCsvFile(const QString& path) {
    m_edits.applyPrepared(withTableFile(m_document->categorical(), path), tr("Use a table file"),
                          "table");
}

void CategoricalPanel::chooseCsvFileInBackground(const QString& path) {
    m_edits.prepareInBackground(
        *m_files, tr("Reading %1").arg(QFileInfo(path).fileName()), tr("Use a table file"), "table",
        [path](CategoricalParams p) { return withTableFile(std::move(p), path); });
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
    // Rows are classes, numbered from 0 like the lanes, the π bars and every class index.
    QStringList classes;
    for (int k = 0; k < p.numClasses; ++k) classes << QString::number(k);
    m_table->setVerticalHeaderLabels(classes);
    for (int c = 0; c < static_cast<int>(p.table.size()); ++c) {
        for (int k = 0; k < p.numClasses; ++k) {
            auto* item = m_table->item(k, c);
            if (item == nullptr) {
                item = new QTableWidgetItem;
                m_table->setItem(k, c, item);
            }
            item->setText(QString::fromStdString(core::readableText(p.table[c][k])));
        }
    }
    m_refreshing = old;
}

bool CategoricalPanel::loadModel(const QString& path) {
    return m_edits.applyPrepared(withCheckpoint(m_document->categorical(), path),
                                 tr("Use a checkpoint"), "model");
}

void CategoricalPanel::loadModelInBackground(const QString& path) {
    m_edits.prepareInBackground(
        *m_files, tr("Loading %1").arg(QFileInfo(path).fileName()), tr("Use a checkpoint"), "model",
        [path](CategoricalParams p) { return withCheckpoint(std::move(p), path); });
}

void CategoricalPanel::onDocumentChanged() {
    const CategoricalParams& p = m_document->categorical();
    m_refreshing = true;
    while (m_model->count() > 1) m_model->removeItem(1);
    if (!p.model.empty()) {
        const QString model = document::qs(p.model);
        // A bundled network by its file name, as on disk.
        m_model->addItem(
            QFileInfo(QString::fromStdString(core::data::bundledModelFile(model.toStdString())))
                .fileName(),
            model);
        m_model->setItemData(1, model, Qt::ToolTipRole);
    }
    m_model->setCurrentIndex(p.model.empty() ? 0 : 1);
    m_numClasses->setValue(p.numClasses);
    m_piBars->setValues(p.pi);
    m_piText->setText(joinNumbers(p.pi));
    double sum = 0.0;
    for (double v : p.pi) sum += v;
    m_piSum->setText(p.maskState ? tr("π: all on the mask state, class %1 (the data never "
                                      "use it); the bars are the π kept for later")
                                       .arg(p.numClasses)
                                 : QString("Σπ = %1").arg(sum, 0, 'g', 12));
    m_piSum->setWordWrap(true);
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
    m_condition->addItem(tr("all, averaged"));
    m_condition->setCurrentIndex(p.condition == core::project::kAllConditions
                                     ? static_cast<int>(p.conditionNames.size())
                                     : p.condition);
    showChoice(m_trajectory, core::project::kCategoricalTrajectories, p.trajectory);
    m_pathSteps->setMaximum(p.numSteps);
    m_pathSteps->setValue(p.pathSteps);
    m_pathSteps->setEnabled(p.trajectory != CategoricalTrajectory::List);
    QStringList nodes;
    for (int n : p.trajectoryList) nodes << QString::number(n);
    m_trajectoryList->setText(nodes.join(", "));
    m_trajectoryList->setEnabled(p.trajectory == CategoricalTrajectory::List);
    m_kernel->setCurrentIndex(
        std::max(0, m_kernel->findData(core::categorical::kernelFormName(p.kernel))));
    m_numChains->setValue(p.numChains);
    m_refreshing = false;
    m_errors.hideAll();
}

}  // namespace ui::panels
