// SPDX-License-Identifier: MIT
#pragma once

#include <QSize>
#include <QString>

class QWidget;

// Offscreen export of a chart widget, shared by the GUI and the headless
// `export` subcommand: PNG at a chosen size and DPI, SVG, PDF. The format follows the file
// extension; a missing extension gets ".png".
namespace ui::charts {

struct ExportOptions {
    QSize size{1200, 800};  // logical size in pixels (the widget is laid out at this size)
    int dpi = 96;           // PNG only: 192 doubles the pixel count for print
};

// Renders `widget` into `path`; returns an empty string or a message naming the problem.
// The file is written through a temporary file and an atomic rename.
QString exportWidget(QWidget* widget, const QString& path, const ExportOptions& options = {});

// "chart.png" / "chart.svg" / "chart.pdf", adding ".png" when there is no known extension.
QString withImageExtension(const QString& path);

}  // namespace ui::charts
