// SPDX-License-Identifier: MIT
#include "app/cli/model_file_errors.h"

#include "core/io/file_io.h"
#include "core/io/zip_archive.h"

namespace app::cli {

core::Error notACheckpoint(const std::string& option,
                           const std::string& path,
                           const std::string& expected,
                           const core::Error& error,
                           bool zipAllowed) {
    core::Result<std::string> head = core::io::readRegularFileHead(path, 16);
    if (!head) return error;
    // A project file, JSON from elsewhere (a byte-order mark or blanks may come first).
    const size_t first = head->find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    std::string what;
    if (first != std::string::npos && ((*head)[first] == '{' || (*head)[first] == '[')) {
        what = "JSON text (such as a project file), not a safetensors checkpoint";
    } else if (core::io::looksLikeZip(*head)) {
        if (zipAllowed) return error;
        what = "a ZIP archive (such as a TorchScript .pt network), not a safetensors checkpoint";
    } else if (error.message.find("not a safetensors file") != std::string::npos) {
        what = "not a safetensors checkpoint";
    } else {
        return error;
    }
    return core::invalidArgument(option, path, "the file is " + what + "; " + expected);
}

}  // namespace app::cli
