// SPDX-License-Identifier: MIT
#include "ui/panels/lab_config_table.h"

#include <QColorDialog>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPixmap>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "core/project/gaussian_params.h"
#include "core/project/lab.h"
#include "ui/panels/choice_combo.h"

namespace ui::panels {

using core::project::LabConfig;
using document::GaussianParams;

namespace {

const QString kField = "lab";

// A name not yet used in the lab: "config 3", or `base (2)` for a duplicate.
std::string uniqueName(const std::vector<LabConfig>& configs, const std::string& base) {
    auto taken = [&](const std::string& name) {
        return std::any_of(configs.begin(), configs.end(),
                           [&](const LabConfig& c) { return c.name == name; });
    };
    if (!taken(base)) return base;
    for (int i = 2;; ++i) {
        const std::string name = base + " (" + std::to_string(i) + ")";
        if (!taken(name)) return name;
    }
}

QIcon swatch(const QString& colour) {
    QPixmap pixmap(28, 14);
    pixmap.fill(QColor(colour));
    return QIcon(pixmap);
}

// Shows `value` in a combo whose items carry ids as data; an id the list lacks (a csv: schedule,
// a family with options) is added, so that it shows as it is.
void showId(QComboBox* box, const QString& value, const QString& label = {}) {
    int index = box->findData(value);
    if (index < 0) {
        box->addItem(label.isEmpty() ? value : label, value);
        index = box->count() - 1;
    }
    box->setCurrentIndex(index);
}

}  // namespace

core::Result<std::vector<int>> parseKList(const QString& text) {
    std::vector<int> ks;
    const QStringList items = text.split(QRegularExpression("[,\\s]+"), Qt::SkipEmptyParts);
    for (const QString& item : items) {
        bool ok = false;
        const int k = item.toInt(&ok);
        if (!ok) {
            return core::invalidArgument("lab.ks", item.toStdString(), "K must be an integer");
        }
        ks.push_back(k);
    }
    if (ks.empty()) {
        return core::invalidArgument("lab.ks", text.toStdString(), "give at least one K");
    }
    return ks;
}

QString formatKList(const std::vector<int>& ks) {
    QStringList items;
    for (int k : ks) items << QString::number(k);
    return items.join(", ");
}

LabConfigTable::LabConfigTable(document::ProjectDocument* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_edits(
          this,
          &m_refreshing,
          [this] { return m_document->gaussian(); },
          [this](const GaussianParams& p, const QString& text, int mergeId) {
              return m_document->setGaussian(p, text, mergeId);
          },
          [this] { onDocumentChanged(); },
          &m_errors),
      m_table(new QTableWidget(0, NumColumns)),
      m_presets(new QToolButton),
      m_ks(new QLineEdit),
      m_quality(new QSpinBox) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Colour"), tr("Schedule"), tr("Trajectory"),
                                        tr("Variance"), tr("Sampler")});
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Stretch);
    // Room for four configurations before the table scrolls; the charts get the rest.
    m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() +
                            4 * m_table->verticalHeader()->defaultSectionSize() + 8);
    m_table->setToolTip(
        tr("The lab's configurations. Schedule: the project's or another; trajectory: "
           "a family without its number of steps, options after a comma (leading,offset=1; "
           "karras,rho=7); variance: β̃ (small), β (large) or the analytic optimum."));
    layout->addWidget(m_table, 1);
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (m_refreshing || item->column() != Name) return;
        const std::string name = item->text().trimmed().toStdString();
        editConfig(item->row(), tr("Rename lab configuration"),
                   [name](LabConfig& c) { c.name = name; });
    });

    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add"));
    auto* duplicate = new QPushButton(tr("Duplicate"));
    auto* remove = new QPushButton(tr("Remove"));
    createPresetsMenu();
    for (QWidget* w : std::initializer_list<QWidget*>{add, duplicate, remove, m_presets}) {
        buttons->addWidget(w);
    }
    layout->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, [this] { addConfig(); });
    connect(duplicate, &QPushButton::clicked, this, [this] { duplicateConfig(selectedRow()); });
    connect(remove, &QPushButton::clicked, this, [this] { removeConfig(selectedRow()); });

    m_ks->setToolTip(
        tr("The numbers of steps (timesteps, 2..N) of every sweep, e.g. 5, 10, 25, 50, 100."));
    m_ks->setMinimumWidth(140);
    m_quality->setRange(0, core::project::kMaxLabQualitySamples);
    m_quality->setKeyboardTracking(false);
    m_quality->setToolTip(
        tr("Samples drawn per configuration and number of steps for the sample quality "
           "(0: no quality, only the NLL)."));
    // The sweep on a line of its own under the buttons: one line for both was 763 px.
    buttons->addStretch(1);
    auto* sweep = new QHBoxLayout;
    sweep->addWidget(new QLabel(tr("Numbers of steps")));
    sweep->addWidget(m_ks, 1);
    sweep->addWidget(new QLabel(tr("Quality samples")));
    sweep->addWidget(m_quality);
    layout->addLayout(sweep);
    layout->addWidget(m_errors.create(kField));
    m_edits.bind(m_ks, &QLineEdit::editingFinished, tr("Change the lab's numbers of steps"), kField,
                 [this](GaussianParams& p) {
                     auto ks = parseKList(m_ks->text());
                     if (!ks) {
                         m_edits.refuse(kField, QString::fromStdString(ks.error().toString()));
                         return false;
                     }
                     if (*ks == p.lab.ks) return false;
                     p.lab.ks = *ks;
                     return true;
                 });
    m_edits.bind(m_quality, &QSpinBox::valueChanged, tr("Change lab quality samples"), kField,
                 [this](GaussianParams& p) {
                     if (p.lab.qualitySamples == m_quality->value()) return false;
                     p.lab.qualitySamples = m_quality->value();
                     return true;
                 });
    connect(m_document, &document::ProjectDocument::gaussianChanged, this,
            &LabConfigTable::onDocumentChanged);
    connect(m_document, &document::ProjectDocument::projectReplaced, this,
            &LabConfigTable::onDocumentChanged);
    onDocumentChanged();
}

// The Presets button's menu: each preset by its title, its explanation as the tooltip.
void LabConfigTable::createPresetsMenu() {
    m_presets->setText(tr("Presets"));
    m_presets->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_presets);
    for (const auto& preset : core::project::labPresets()) {
        QAction* action =
            menu->addAction(QCoreApplication::translate("ui::labPresets", preset.title.c_str()));
        action->setToolTip(
            QCoreApplication::translate("ui::labPresets", preset.explanation.c_str()));
        connect(action, &QAction::triggered, this, [this, id = preset.id] { applyPreset(id); });
    }
    m_presets->setMenu(menu);
}

template <typename Edit>
bool LabConfigTable::editConfig(int row, const QString& undoText, Edit edit) {
    return m_edits.edit(undoText, kField, [row, &edit](GaussianParams& p) {
        if (row < 0 || row >= static_cast<int>(p.lab.configs.size())) return false;
        LabConfig& config = p.lab.configs[static_cast<size_t>(row)];
        const LabConfig before = config;
        edit(config);
        return !(config == before);
    });
}

int LabConfigTable::selectedRow() const {
    const auto rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? m_table->rowCount() - 1 : rows.front().row();
}

bool LabConfigTable::addConfig() {
    return m_edits.edit(tr("Add lab configuration"), kField, [](GaussianParams& p) {
        LabConfig config;
        config.name =
            uniqueName(p.lab.configs, "config " + std::to_string(p.lab.configs.size() + 1));
        p.lab.configs.push_back(config);
    });
}

bool LabConfigTable::duplicateConfig(int row) {
    return m_edits.edit(tr("Duplicate lab configuration"), kField, [row](GaussianParams& p) {
        if (row < 0 || row >= static_cast<int>(p.lab.configs.size())) return false;
        LabConfig copy = p.lab.configs[static_cast<size_t>(row)];
        copy.name = uniqueName(p.lab.configs, copy.name);
        copy.colour.clear();  // the palette's next colour, so the two can be told apart
        p.lab.configs.insert(p.lab.configs.begin() + row + 1, copy);
        return true;
    });
}

bool LabConfigTable::removeConfig(int row) {
    return m_edits.edit(tr("Remove lab configuration"), kField, [row](GaussianParams& p) {
        if (row < 0 || row >= static_cast<int>(p.lab.configs.size())) return false;
        p.lab.configs.erase(p.lab.configs.begin() + row);
        return true;
    });
}

bool LabConfigTable::setColour(int row, const QString& colour) {
    const std::string value = colour.toStdString();
    return editConfig(row, tr("Change lab colour"), [value](LabConfig& c) { c.colour = value; });
}

bool LabConfigTable::applyPreset(const std::string& id) {
    const core::project::LabPreset* preset = core::project::findLabPreset(id);
    if (preset == nullptr) {
        m_errors.show(kField,
                      tr("lab preset = %1: unknown preset").arg(QString::fromStdString(id)));
        return false;
    }
    // Refused as a whole (a network trained on another schedule) before anything changes.
    GaussianParams trial = m_document->gaussian();
    if (core::Status s = core::project::applyLabPreset(*preset, trial); !s) {
        m_errors.show(kField, QString::fromStdString(s.error().toString()));
        return false;
    }
    return m_edits.edit(
        tr("Apply lab preset “%1”")
            .arg(QCoreApplication::translate("ui::labPresets", preset->title.c_str())),
        kField,
        [preset](GaussianParams& p) { return core::project::applyLabPreset(*preset, p).ok(); });
}

void LabConfigTable::pickColour(int row) {
    const auto& configs = m_document->gaussian().lab.configs;
    if (row < 0 || row >= static_cast<int>(configs.size())) return;
    const QColor current(
        QString::fromStdString(core::project::labColour(configs[static_cast<size_t>(row)], row)));
    const QColor picked = QColorDialog::getColor(current, this, "Configuration colour");
    if (picked.isValid()) setColour(row, picked.name());
}

// The widgets of `row`, created once: combos keep their row, since rows are only added or
// removed at the end.
void LabConfigTable::ensureRow(int row) {
    auto* swatchButton = new QToolButton;
    swatchButton->setToolTip(tr("Pick the configuration's colour"));
    connect(swatchButton, &QToolButton::clicked, this, [this, row] { pickColour(row); });
    m_table->setCellWidget(row, Colour, swatchButton);

    auto* schedule = new QComboBox;
    schedule->addItem(tr("project's"), QString());
    schedule->addItem(tr("project's, zero terminal SNR"), QString(",zero-snr"));
    addChoices(schedule, core::project::kGaussianSchedules);
    connect(schedule, &QComboBox::activated, this, [this, row, schedule] {
        if (m_refreshing) return;
        const std::string value = schedule->currentData().toString().toStdString();
        editConfig(row, tr("Change lab schedule"), [value](LabConfig& c) { c.schedule = value; });
    });
    m_table->setCellWidget(row, Schedule, schedule);

    auto* trajectory = new QComboBox;
    trajectory->setEditable(true);  // options after a comma: leading,offset=1
    for (const auto& c : core::project::kGaussianTrajectories) {
        if (c.id != "list")
            trajectory->addItem(QString::fromUtf8(c.id.data(), c.id.size()),
                                QString::fromUtf8(c.id.data(), c.id.size()));
    }
    auto commitTrajectory = [this, row, trajectory] {
        if (m_refreshing) return;
        const std::string value = trajectory->currentText().trimmed().toStdString();
        editConfig(row, tr("Change lab trajectory"),
                   [value](LabConfig& c) { c.trajectory = value; });
    };
    connect(trajectory, &QComboBox::activated, this, commitTrajectory);
    connect(trajectory->lineEdit(), &QLineEdit::editingFinished, this, commitTrajectory);
    m_table->setCellWidget(row, Trajectory, trajectory);

    auto* variance = new QComboBox;
    addChoices(variance, core::project::kReverseVariances);
    connect(variance, &QComboBox::activated, this, [this, row, variance] {
        if (m_refreshing) return;
        const auto value = chosen(variance, core::project::kReverseVariances);
        editConfig(row, tr("Change lab variance"), [value](LabConfig& c) { c.variance = value; });
    });
    m_table->setCellWidget(row, Variance, variance);

    auto* sampler = new QComboBox;
    addChoices(sampler, core::project::kSamplers);
    connect(sampler, &QComboBox::activated, this, [this, row, sampler] {
        if (m_refreshing) return;
        const auto value = chosen(sampler, core::project::kSamplers);
        editConfig(row, tr("Change lab sampler"), [value](LabConfig& c) { c.sampler = value; });
    });
    m_table->setCellWidget(row, Sampler, sampler);
}

void LabConfigTable::fillRow(int row, const LabConfig& config) {
    QTableWidgetItem* name = m_table->item(row, Name);
    if (name == nullptr) {
        name = new QTableWidgetItem;
        m_table->setItem(row, Name, name);
    }
    name->setText(QString::fromStdString(config.name));
    const QString colour = QString::fromStdString(core::project::labColour(config, row));
    auto* swatchButton = static_cast<QToolButton*>(m_table->cellWidget(row, Colour));
    swatchButton->setIcon(swatch(colour));
    swatchButton->setText(colour);
    auto* schedule = static_cast<QComboBox*>(m_table->cellWidget(row, Schedule));
    showId(schedule, QString::fromStdString(config.schedule));
    auto* trajectory = static_cast<QComboBox*>(m_table->cellWidget(row, Trajectory));
    showId(trajectory, QString::fromStdString(config.trajectory));
    showChoice(static_cast<QComboBox*>(m_table->cellWidget(row, Variance)),
               core::project::kReverseVariances, config.variance);
    showChoice(static_cast<QComboBox*>(m_table->cellWidget(row, Sampler)), core::project::kSamplers,
               config.sampler);
}

void LabConfigTable::onDocumentChanged() {
    const auto& lab = m_document->gaussian().lab;
    m_refreshing = true;
    const int rows = static_cast<int>(lab.configs.size());
    const int before = m_table->rowCount();
    m_table->setRowCount(rows);
    for (int row = before; row < rows; ++row) {
        ensureRow(row);
    }
    for (int row = 0; row < rows; ++row) {
        fillRow(row, lab.configs[static_cast<size_t>(row)]);
    }
    m_ks->setText(formatKList(lab.ks));
    m_quality->setValue(lab.qualitySamples);
    m_refreshing = false;
}

}  // namespace ui::panels
