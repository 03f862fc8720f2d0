// SPDX-License-Identifier: MIT
// `diffuscope project`: writes one of the example projects to a file, to edit and to pass to
// the engine subcommands with --project (or to open in the GUI).
#include <iostream>

#include "app/cli/commands.h"
#include "core/data/bundled_files.h"
#include "core/io/file_io.h"
#include "core/project/project_file.h"

namespace app::cli {

const CommandSpec& projectSpec() {
    static const CommandSpec spec{
        "project",
        "write an example project file (File ▸ Examples in the GUI)",
        "",
        {required("example", "N",
                  "the example, 1 to " + std::to_string(core::project::kNumExamples) + " (listed below)"),
         required("out", "FILE", "the project file to write")},
        "Examples: 1 categorical table (K = 4); 2 categorical 8×8 digits with the trained\n"
        "network; 3 Gaussian two moons with the trained network; 4 Gaussian 8×8 digits with the\n"
        "trained network. Bundled networks are named by their installed path.\n"};
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
