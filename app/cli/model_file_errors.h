// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "core/util/result.h"

namespace app::cli {

// The error for a file given to `option` that did not load as a model: a file that is no
// checkpoint at all (a project's JSON, a ZIP archive where only safetensors will do, any other
// bytes) is said plainly, naming the option, the file, what it is and `expected`; any other
// error (missing, unreadable, a damaged checkpoint) is returned unchanged.
core::Error notACheckpoint(const std::string& option,
                           const std::string& path,
                           const std::string& expected,
                           const core::Error& error,
                           bool zipAllowed = false);

}  // namespace app::cli
