// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QWidget;

// Offscreen export of a chart widget, shared by the GUI and the headless
// `export` subcommand: PNG at a chosen size and DPI, SVG, PDF. The format follows the file
// extension; a name without one of these extensions is refused, never given one of its own.
namespace ui::charts {

class ViewPanel;

// The range of ExportOptions::fontScale.
constexpr double kMinFontScale = 0.5;
constexpr double kMaxFontScale = 4.0;

struct ExportOptions {
    // The figure's size in CSS pixels, 96 to the inch (12 cm is 454 px): the PDF page and the
    // SVG canvas have this physical size, a PNG has size × dpi/96 pixels.
    QSize size{1200, 800};
    int dpi = 96;  // PNG only: 192 doubles the pixel count for print
    // Text, lines and markers drawn this many times larger (the figure is laid out at
    // size/fontScale and scaled up): 1.5–2 for a slide or a two-column paper.
    double fontScale = 1.0;
    // The size as typed, in CSS pixels before rounding (8.5 cm is 321.26 px): an SVG states
    // this physical size; invalid (the default): `size`.
    QSizeF typedSize;
};

// A length typed as "12cm", "120mm", "4.5in", "800px" or "800" (pixels), in CSS pixels (96 to
// the inch); an error names the text.
std::optional<int> parseLength(const QString& text, QString* error = nullptr);
// The same length before it is rounded to whole pixels.
std::optional<double> parseLengthExact(const QString& text, QString* error = nullptr);

// Renders `widget` into `path` (.png, .svg or .pdf, in any case; any other name is refused,
// naming the formats); returns an empty string or a message naming the problem.
// A ViewPanel is rendered as its figure: its controls and message footer are hidden meanwhile.
// The file is written through a temporary file and an atomic rename.
QString exportWidget(QWidget* widget, const QString& path, const ExportOptions& options = {});

// Writes each view of `views` (name, view) to folder/name.ext for each of `formats` ("png",
// "svg", "pdf", "csv"), all or nothing: every file is rendered into a staging folder first and
// moved into place only when all of them are ready (core::io::StagedFiles). On any failure the
// folder holds what it held before, and a folder this call created is removed again. Returns
// the first error, prefixed with the view's name; empty when every file was written.
QString exportViewsToFolder(const QString& folder,
                            const std::vector<std::pair<QString, ViewPanel*>>& views,
                            const QStringList& formats,
                            const ExportOptions& options);

// Holds `widget` laid out at `size` as a figure (a ViewPanel's controls and message footer
// hidden) while it lives, and renders it as often as asked: one frame per call for animation
// export. Restores the widget's size and controls when destroyed.
class FigureRenderer {
public:
    FigureRenderer(QWidget* widget, QSize size);
    ~FigureRenderer();
    FigureRenderer(const FigureRenderer&) = delete;
    FigureRenderer& operator=(const FigureRenderer&) = delete;
    // The widget as it is now, on white, `size` pixels.
    QImage render() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// The format a chart view is written in by the extension of `path` (any case): "png", "svg",
// "pdf" or "csv"; empty for any other name.
QString chartFormat(const QString& path);

}  // namespace ui::charts
