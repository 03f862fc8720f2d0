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

bool isBundledName(const std::string& path) { return path.rfind(kBundledPrefix, 0) == 0; }

std::string bundledModelName(const std::string& file) { return kBundledPrefix + file; }

std::string bundledModelFile(const std::string& name) {
    return isBundledName(name) ? name.substr(std::string(kBundledPrefix).size()) : name;
}

std::string portableModelPath(const std::string& path) {
    static const std::string kOldResource = ":/models/";
    if (path.rfind(kOldResource, 0) == 0 && path.size() > kOldResource.size()) {
        return bundledModelName(path.substr(kOldResource.size()));
    }
    return path;
}

Result<std::string> modelFileOnDisk(const std::string& path) {
    if (!isBundledName(path)) {
        return path;
    }
    const std::string file = bundledModelFile(path);
    // A bare file name: "bundled:../x" must not reach outside models/.
    if (file.empty() || file.find('/') != std::string::npos || file == "." || file == "..") {
        return makeError(ErrorCode::InvalidArgument, "bundled model", path,
                         "a bundled model is named bundled:<file name>, without folders");
    }
    auto found = bundledDataPath("models/" + file);
    if (!found) {
        Error error = found.error();
        error.field = "bundled model";
        error.value = path;
        return error;
    }
    return found;
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
