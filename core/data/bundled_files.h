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

// Bundled models as projects and options name them: "bundled:<file>" (for example
// "bundled:moons-gaussian.safetensors") stands for models/<file> of the bundled files, which
// each front end finds its own way (the GUI's embedded copies, the command line's
// share/diffuscope), so a project saved by either, installed or not, opens in the other.
inline constexpr const char* kBundledPrefix = "bundled:";
bool isBundledName(const std::string& path);
// "bundled:" + file.
std::string bundledModelName(const std::string& file);
// The file part of a bundled name ("moons-gaussian.safetensors").
std::string bundledModelFile(const std::string& name);
// A model path as a project stores it: the GUI's resource paths of older versions
// (":/models/<file>") become "bundled:<file>"; anything else is returned unchanged.
std::string portableModelPath(const std::string& path);
// The file on disk that a bundled name stands for (share/diffuscope/models/<file>), or an
// error naming the bundled name and where it was looked for; `path` itself when it is not a
// bundled name.
Result<std::string> modelFileOnDisk(const std::string& path);

// `path` when it is not empty (`--digits PATH`), otherwise the bundled digits.
Result<Digits> readDigitsOrBundled(const std::string& path);

}  // namespace core::data
