// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include "ui/charts/chart_export.h"

class QWidget;

// The dialogs of File ▸ Export view: where to write (the folder and the format of the last
// export are remembered) and the figure's size in px, cm or in, its resolution and font scale
// (remembered too).
namespace ui::charts {

// A save dialog for a view named `baseName`; empty when cancelled.
QString askExportPath(QWidget* parent, const QString& baseName);

// Asks for the figure's size, DPI (PNG) and font scale, starting from the last export's
// values; false when cancelled.
bool askExportOptions(QWidget* parent, const QString& path, ExportOptions* options);

}  // namespace ui::charts
