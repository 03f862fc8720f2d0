// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "core/data/digits.h"
#include "core/util/result.h"

// Where the command line finds the bundled files (resources/data, resources/models).
//
// One mechanism for the build tree and an installed copy: the files live in
// <exe dir>/../share/diffuscope/, which is <prefix>/share/diffuscope/ once installed
// (bin/diffuscope) and <build>/share/diffuscope/ in the build tree, where CMake copies them
// (build/app/diffuscope; test executables in build/tests/ see the same folder). The binary
// holds no path into the source tree, so it keeps working when the sources are gone.
// DIFFUSCOPE_DATA_DIR, when set, replaces that folder (tests, unusual layouts).
// The GUI does not use this: it embeds the same files as Qt resources (ui/CMakeLists.txt).
namespace core::data {

// The full path of `name` (e.g. "data/digits.csv.gz", "models/moons-gaussian.safetensors"),
// or an IoError naming every place looked in.
Result<std::string> bundledDataPath(const std::string& name);

// `path` when it is not empty (`--digits PATH`), otherwise the bundled digits.
Result<Digits> readDigitsOrBundled(const std::string& path);

}  // namespace core::data
