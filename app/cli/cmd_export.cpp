// SPDX-License-Identifier: MIT
// `diffuscope export`'s options. The command renders the GUI's views, so it runs in the GUI
// library (ui/main/headless_export.h), which main.cpp links and app/cli does not.
#include <string>

#include "app/cli/options.h"
#include "core/project/project_file.h"

namespace app::cli {

const CommandSpec& exportSpec() {
    static const CommandSpec spec{
        "export",
        "render a project's views to files without a window, with the GUI's export code",
        "",
        {required(
             "view", "V",
             "trajectories, schedule, step-costs, matrices, kernels, decoding, particles, gamma, "
             "variance, gaussian-trajectory, compare, lab, animation (the chains), "
             "particles-animation or all"),
         required("out", "FILE",
                  "png, svg, pdf or csv by extension; a GIF or frames.png for "
                  "animation; a folder for all"),
         valued("project", "FILE", "", "the project to render (default: the example project)"),
         valued("example", "1.." + std::to_string(core::project::kNumExamples), "",
                "File ▸ Examples' project of that number instead"),
         valued(
             "width", "W", "1200",
             "the figure's width: pixels, or with a unit (12cm, 120mm, 4.5in; 96 px to the inch)"),
         valued("height", "H", "800", "the figure's height, as --width"),
         valued("dpi", "D", "96",
                "PNG: pixels per inch (the PNG has width × dpi/96 pixels); PDF and SVG pages have "
                "the figure's size"),
         valued("font-scale", "S", "1",
                "text and lines S times larger at the same figure size (0.5 to 4)"),
         valued("fps", "F", "25", "animations: frames per second (1 to 50)"),
         valued("hold", "S", "1.5", "animations: seconds the last frame stays (0 to 20)"),
         valued("language", "L", "system",
                "the figures' language: en, ja, or system (the system locale's, as the GUI)")},
        ""};
    return spec;
}

}  // namespace app::cli
