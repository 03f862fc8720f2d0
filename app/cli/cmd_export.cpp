// SPDX-License-Identifier: MIT
// `diffuscope export`'s options. The command renders the GUI's views, so it runs in the GUI
// library (ui/main/headless_export.h), which main.cpp links and app/cli does not.
#include "app/cli/options.h"

namespace app::cli {

const CommandSpec& exportSpec() {
    static const CommandSpec spec{
        "export",
        "render a project's views to files without a window, with the GUI's export code",
        "",
        {required(
             "view", "V",
             "trajectories, schedule, step-costs, matrices, kernels, particles, gamma, variance, "
             "gaussian-trajectory, compare, lab, animation or all"),
         required("out", "FILE",
                  "png, svg, pdf or csv by extension; a GIF or frames.png for "
                  "animation; a folder for all"),
         valued("project", "FILE", "", "the project to render (default: the example project)"),
         valued("example", "1..4", "", "File ▸ Examples' project of that number instead"),
         valued("width", "W", "1200", "the image width in pixels"),
         valued("height", "H", "800", "the image height in pixels"),
         valued("dpi", "D", "96", "the resolution written into the images")},
        ""};
    return spec;
}

}  // namespace app::cli
