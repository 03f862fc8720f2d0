// SPDX-License-Identifier: MIT
// `diffuscope project`: writes one of the example projects to a file, to edit and to pass to
// the engine subcommands with --project (or to open in the GUI).
#include <iostream>

#include "app/cli/commands.h"
#include "core/io/file_io.h"
#include "core/project/project_file.h"

namespace app::cli {

namespace {

// "Examples:" and one line per example, from the examples themselves.
std::string exampleList() {
    std::string text = "Examples:\n";
    for (int n = 1; n <= core::project::kNumExamples; ++n) {
        text += "  " + std::to_string(n) + "  " + core::project::exampleTitle(n) + "\n";
    }
    return text +
           "Bundled networks are named \"bundled:FILE\", which the window, the "
           "command line\nand an installed program all find.\n";
}

}  // namespace

const CommandSpec& projectSpec() {
    static const CommandSpec spec{
        "project",
        "write an example project file (File ▸ Examples in the GUI)",
        "",
        {required("example", "N",
                  "the example, 1 to " + std::to_string(core::project::kNumExamples) +
                      " (listed below)"),
         required("out", "FILE", "the project file to write")},
        exampleList()};
    return spec;
}

int runProject(const Args& args) {
    static constexpr core::limits::IntRange kExamples{"the example number", 1,
                                                      core::project::kNumExamples};
    core::Result<int> number = args.getBounded("example", kExamples);
    if (!number) {
        return fail(number.error());
    }
    core::Result<std::string> out = args.require("out");
    if (!out) {
        return fail(out.error());
    }
    auto project = core::project::exampleProject(*number);
    if (!project) {
        return fail(project.error());
    }
    if (core::Status written =
            core::io::writeFileAtomically(*out, core::project::projectToJson(*project, *out));
        !written) {
        return fail(written.error());
    }
    std::cout << core::project::exampleTitle(*number) << " → " << *out << '\n';
    return 0;
}

}  // namespace app::cli
