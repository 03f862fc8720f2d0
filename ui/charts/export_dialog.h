// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <functional>

#include "ui/charts/chart_export.h"

class QWidget;

// The dialogs of File ▸ Export view: where to write (the folder and the format of the last
// export are remembered) and the figure's size in px, mm, cm or in (kept as typed), its
// resolution and font scale (remembered too).
namespace ui::charts {

// A save dialog for a view named `baseName`; empty when cancelled. A name typed without an
// extension gets the one of the format chosen in the dialog (withFilterSuffix); any other name
// is returned as typed, and the export refuses it if it is not one of the formats.
QString askExportPath(QWidget* parent, const QString& baseName);

// `path` with the extension a file dialog's `filter` names ("PNG image (*.png)" → ".png") when
// it has none; `path` itself otherwise.
QString withFilterSuffix(const QString& path, const QString& filter);

// Asks for the figure's size, DPI (PNG) and font scale, starting from the last export's
// values; false when cancelled. `write`, when given, exports with the options on OK: its
// refusal is shown in the dialog, which stays open with the size as typed.
bool askExportOptions(QWidget* parent,
                      const QString& path,
                      ExportOptions* options,
                      const std::function<QString(const ExportOptions&)>& write = {});

}  // namespace ui::charts
