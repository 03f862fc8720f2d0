// SPDX-License-Identifier: MIT
#include "core/data/bundled_files.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace core::data {

namespace fs = std::filesystem;

namespace {

// The folders to look in, in order; `why` says what each one is, for the error message.
struct Place {
    fs::path folder;
    std::string why;
};

std::vector<Place> places() {
    if (const char* dir = std::getenv("DIFFUSCOPE_DATA_DIR"); dir != nullptr && *dir != '\0') {
        return {{fs::path(dir), "DIFFUSCOPE_DATA_DIR"}};
    }
    std::error_code error;
    const fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (error || exe.empty()) {
        return {};
    }
    return {{(exe.parent_path() / ".." / "share" / "diffuscope").lexically_normal(),
             "beside the executable " + exe.string()}};
}

}  // namespace

Result<std::string> bundledDataPath(const std::string& name) {
    const std::vector<Place> folders = places();
    std::string looked;
    for (const Place& place : folders) {
        const fs::path candidate = place.folder / name;
        std::error_code error;
        if (fs::is_regular_file(candidate, error)) {
            return candidate.string();
        }
        looked += (looked.empty() ? "" : ", ") + candidate.string() + " (" + place.why + ")";
    }
    if (folders.empty()) {
        looked = "nowhere (/proc/self/exe could not be read)";
    }
    return makeError(ErrorCode::IoError, "bundled file", name,
                     "not found; looked in " + looked +
                         "; set DIFFUSCOPE_DATA_DIR to the folder holding data/ and models/");
}

Result<Digits> readDigitsOrBundled(const std::string& path) {
    if (!path.empty()) {
        return readDigits(path);
    }
    Result<std::string> bundled = bundledDataPath("data/digits.csv.gz");
    if (!bundled) {
        Error error = bundled.error();
        error.message += ", or pass --digits PATH";
        return error;
    }
    return readDigits(*bundled);
}

}  // namespace core::data
