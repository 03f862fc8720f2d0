// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <memory>
#include <optional>

class QWidget;

// Offscreen export of a chart widget, shared by the GUI and the headless
// `export` subcommand: PNG at a chosen size and DPI, SVG, PDF. The format follows the file
// extension; a missing extension gets ".png".
namespace ui::charts {

struct ExportOptions {
    // The figure's size in CSS pixels, 96 to the inch (12 cm is 454 px): the PDF page and the
    // SVG canvas have this physical size, a PNG has size × dpi/96 pixels.
    QSize size{1200, 800};
    int dpi = 96;            // PNG only: 192 doubles the pixel count for print
    // Text, lines and markers drawn this many times larger (the figure is laid out at
    // size/fontScale and scaled up): 1.5–2 for a slide or a two-column paper.
    double fontScale = 1.0;
};

// A length typed as "12cm", "120mm", "4.5in", "800px" or "800" (pixels), in CSS pixels (96 to
// the inch); an error names the text.
std::optional<int> parseLength(const QString& text, QString* error = nullptr);

// Renders `widget` into `path`; returns an empty string or a message naming the problem.
// A ViewPanel is rendered as its figure: its controls and message footer are hidden meanwhile.
// The file is written through a temporary file and an atomic rename.
QString exportWidget(QWidget* widget, const QString& path, const ExportOptions& options = {});

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

// "chart.png" / "chart.svg" / "chart.pdf", adding ".png" when there is no known extension.
QString withImageExtension(const QString& path);

}  // namespace ui::charts
