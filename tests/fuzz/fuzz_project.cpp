// SPDX-License-Identifier: MIT
// libFuzzer target for the project-file reader (what File ▸ Open, `export --project` and crash
// recovery read). Any bytes must give a project or a one-line error, never a crash, a sanitizer
// report or a hang; a project that reads must write and read back to the same project, since
// files must reopen exactly.
#include <cstdint>
#include <cstdlib>

#include <QByteArray>

#include "tests/fuzz/fuzz_common.h"
#include "ui/document/project_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString path = "/fuzz/project.diffuscope.json";
    const auto project = ui::document::projectFromJson(bytes, path);
    fuzz::check(project);
    if (project.ok()) {
        const QByteArray written = ui::document::projectToJson(*project, path);
        const auto again = ui::document::projectFromJson(written, path);
        if (!again.ok() || !(*again == *project)) {
            std::abort();  // a project that does not reopen as it was saved
        }
    }
    return 0;
}
