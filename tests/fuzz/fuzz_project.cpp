// SPDX-License-Identifier: MIT
// libFuzzer target for the project-file reader (what File ▸ Open, `export --project` and crash
// recovery read). Any bytes must give a project or a one-line error, never a crash, a sanitizer
// report or a hang; a project that reads must write and read back to the same project, since
// files must reopen exactly.
#include <cstdint>
#include <cstdlib>

#include <string>

#include "core/project/project_file.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const std::string path = "/fuzz/project.diffuscope.json";
    const auto project = core::project::projectFromJson(bytes, path);
    fuzz::check(project);
    if (project.ok()) {
        const std::string written = core::project::projectToJson(*project, path);
        const auto again = core::project::projectFromJson(written, path);
        if (!again.ok() || !(*again == *project)) {
            std::abort();  // a project that does not reopen as it was saved
        }
    }
    return 0;
}
