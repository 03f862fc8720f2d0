// SPDX-License-Identifier: MIT
#include "ui/charts/export_dialog.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

namespace ui::charts {
namespace {

constexpr const char* kFilters[] = {QT_TRANSLATE_NOOP("ui::export_dialog", "PNG image (*.png)"),
                                    QT_TRANSLATE_NOOP("ui::export_dialog", "SVG drawing (*.svg)"),
                                    QT_TRANSLATE_NOOP("ui::export_dialog", "PDF document (*.pdf)"),
                                    QT_TRANSLATE_NOOP("ui::export_dialog", "Data as CSV (*.csv)")};
QString translatedFilter(int index) {
    return QCoreApplication::translate("ui::export_dialog", kFilters[index]);
}
constexpr const char* kSuffixes[] = {".png", ".svg", ".pdf", ".csv"};

struct Unit {
    const char* name;
    double pixels;  // CSS pixels per unit
    int decimals;
};
// The units `diffuscope export --width` takes, in the same arithmetic (parseLength).
constexpr Unit kUnits[] = {
    {"px", 1.0, 0}, {"mm", 96.0 / 25.4, 1}, {"cm", 96.0 / 2.54, 2}, {"in", 96.0, 3}};
constexpr int kNumUnits = static_cast<int>(std::size(kUnits));

int unitIndex(const QString& name) {
    for (int i = 0; i < kNumUnits; ++i) {
        if (name == kUnits[i].name) return i;
    }
    return -1;
}

// The resolution, remembered; PNG only (SVG and PDF are vectors).
QSpinBox* dpiBox(const QSettings& settings, const QString& path) {
    auto* dpi = new QSpinBox;
    dpi->setRange(24, 1200);
    dpi->setValue(settings.value("export/dpi", 192).toInt());
    dpi->setToolTip(QCoreApplication::translate(
        "ui::export_dialog",
        "96 is the screen; 192 or 300 for print (PNG only: SVG and PDF are vectors)."));
    dpi->setEnabled(chartFormat(path) == "png");
    return dpi;
}

QDoubleSpinBox* fontScaleBox(const QSettings& settings) {
    auto* fontScale = new QDoubleSpinBox;
    fontScale->setRange(0.5, 4.0);
    fontScale->setSingleStep(0.25);
    fontScale->setValue(settings.value("export/fontScale", 1.0).toDouble());
    fontScale->setToolTip(QCoreApplication::translate(
        "ui::export_dialog",
        "Text and lines this many times larger than on screen, at the same "
        "figure size: 1.5–2 for slides and two-column papers."));
    return fontScale;
}

// width × height and their unit on one row.
QHBoxLayout* sizeRow(QDoubleSpinBox* width, QDoubleSpinBox* height, QComboBox* unit) {
    width->setToolTip(QCoreApplication::translate(
        "ui::export_dialog",
        "The figure's size on paper; text keeps its size in points, so a "
        "smaller figure has relatively larger text (8.5 cm: a paper column)."));
    height->setToolTip(width->toolTip());
    auto* row = new QHBoxLayout;
    row->addWidget(width);
    row->addWidget(new QLabel("×"));
    row->addWidget(height);
    row->addWidget(unit);
    return row;
}

QDialogButtonBox* okCancelButtons() {
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    // Translated here too: Qt's own translation (qtbase_*.qm) may not be installed.
    buttons->button(QDialogButtonBox::Ok)
        ->setText(QCoreApplication::translate("ui::export_dialog", "OK"));
    buttons->button(QDialogButtonBox::Cancel)
        ->setText(QCoreApplication::translate("ui::export_dialog", "Cancel"));
    return buttons;
}

// Hidden until an export is refused; selectable, so that the size it names can be copied.
QLabel* refusalLabel() {
    auto* refusal = new QLabel;
    refusal->setObjectName("exportRefusal");
    refusal->setWordWrap(true);
    refusal->setTextInteractionFlags(Qt::TextSelectableByMouse);
    refusal->setStyleSheet("color: #b00020;");
    refusal->setMaximumWidth(480);
    refusal->hide();
    return refusal;
}

}  // namespace

QString askExportPath(QWidget* parent, const QString& baseName) {
    QSettings settings;
    const QString folder = settings.value("export/folder", QDir::homePath()).toString();
    QString filter = settings.value("export/filter", translatedFilter(0)).toString();
    int format = 0;
    for (int i = 0; i < 4; ++i) {
        if (filter == translatedFilter(i)) format = i;
    }
    QStringList filters;
    for (int i = 0; i < 4; ++i) filters << translatedFilter(i);
    const QString typed = QFileDialog::getSaveFileName(
        parent, QCoreApplication::translate("ui::export_dialog", "Export view"),
        QDir(folder).filePath(baseName + kSuffixes[format]), filters.join(";;"), &filter);
    const QString path = typed.isEmpty() ? typed : withFilterSuffix(typed, filter);
    if (!path.isEmpty()) {
        settings.setValue("export/folder", QFileInfo(path).absolutePath());
        settings.setValue("export/filter", filter);
    }
    return path;
}

QString withFilterSuffix(const QString& path, const QString& filter) {
    if (!QFileInfo(path).suffix().isEmpty()) return path;
    static const QRegularExpression pattern(R"(\(\*(\.[A-Za-z0-9]+)\))");
    const QRegularExpressionMatch match = pattern.match(filter);
    return match.hasMatch() ? path + match.captured(1) : path;
}

bool askExportOptions(QWidget* parent,
                      const QString& path,
                      ExportOptions* options,
                      const std::function<QString(const ExportOptions&)>& write) {
    QSettings settings;
    QDialog dialog(parent);
    dialog.setWindowTitle(QCoreApplication::translate("ui::export_dialog", "Export options"));
    auto* form = new QFormLayout(&dialog);
    auto* width = new QDoubleSpinBox;
    auto* height = new QDoubleSpinBox;
    auto* unit = new QComboBox;
    for (const Unit& u : kUnits) unit->addItem(u.name);
    QSpinBox* dpi = dpiBox(settings, path);
    QDoubleSpinBox* fontScale = fontScaleBox(settings);
    // The size is kept as typed, in its unit (8.5 × 6 cm stays 8.5 × 6 cm); pixels are worked
    // out from it as the command line's --width 8.5cm does.
    int shownUnit = unitIndex(settings.value("export/unitName").toString());
    double shownWidth = settings.value("export/width").toDouble();
    double shownHeight = settings.value("export/height").toDouble();
    if (shownUnit < 0 || !(shownWidth > 0.0) || !(shownHeight > 0.0)) {
        shownUnit = 0;  // first use: the view's size on screen, in pixels
        shownWidth = options->size.width();
        shownHeight = options->size.height();
    }
    auto showIn = [&](int index, double w, double h) {
        const Unit& u = kUnits[index];
        for (const auto& [box, value] : {std::pair{width, w}, std::pair{height, h}}) {
            box->blockSignals(true);
            box->setDecimals(u.decimals);
            box->setRange(16 / u.pixels, 16384 / u.pixels);
            box->setSuffix(QString(" ") + u.name);
            box->setValue(value);
            box->blockSignals(false);
        }
    };
    int currentUnit = shownUnit;
    // Another unit shows the same size converted (rounded to that unit's decimals).
    QObject::connect(unit, &QComboBox::currentIndexChanged, &dialog, [&](int index) {
        if (index < 0) return;
        const double factor = kUnits[currentUnit].pixels / kUnits[index].pixels;
        const double w = width->value() * factor, h = height->value() * factor;
        currentUnit = index;
        showIn(index, w, h);
    });
    unit->blockSignals(true);
    unit->setCurrentIndex(shownUnit);
    unit->blockSignals(false);
    showIn(shownUnit, shownWidth, shownHeight);
    form->addRow(QCoreApplication::translate("ui::export_dialog", "size"),
                 sizeRow(width, height, unit));
    form->addRow(QCoreApplication::translate("ui::export_dialog", "resolution (DPI)"), dpi);
    form->addRow(QCoreApplication::translate("ui::export_dialog", "font scale"), fontScale);
    QDialogButtonBox* buttons = okCancelButtons();
    // A refusal is said here, with the dialog still open and the size as typed, so that the size
    // it names can be typed in place (it used to close the dialog: path and size asked again).
    QLabel* refusal = refusalLabel();
    form->addRow(refusal);
    const auto chosen = [&] {
        ExportOptions chosenOptions = *options;
        const Unit& u = kUnits[unit->currentIndex()];
        chosenOptions.size = QSize(static_cast<int>(std::lround(width->value() * u.pixels)),
                                   static_cast<int>(std::lround(height->value() * u.pixels)));
        chosenOptions.typedSize = QSizeF(width->value() * u.pixels, height->value() * u.pixels);
        chosenOptions.dpi = dpi->value();
        chosenOptions.fontScale = fontScale->value();
        return chosenOptions;
    };
    // Remembered on every OK, written or refused: the next export starts from what was typed
    // (a refusal then Cancel had sent the dialog back to pixels).
    const auto remember = [&] {
        const ExportOptions typed = chosen();
        settings.setValue("export/unitName", QString(kUnits[unit->currentIndex()].name));
        settings.setValue("export/width", width->value());
        settings.setValue("export/height", height->value());
        settings.setValue("export/dpi", typed.dpi);
        settings.setValue("export/fontScale", typed.fontScale);
    };
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        remember();
        if (write) {
            const QString error = write(chosen());
            if (!error.isEmpty()) {
                refusal->setText(error);
                refusal->show();
                dialog.adjustSize();  // the dialog grows to show the whole refusal
                return;
            }
        }
        dialog.accept();
    });
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) {
        return false;
    }
    *options = chosen();
    return true;
}

}  // namespace ui::charts
