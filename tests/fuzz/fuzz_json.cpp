// SPDX-License-Identifier: MIT
// libFuzzer target for the shared JSON reader (nlohmann-json made strict, core/io/json.h) and
// the Gaussian-mixture spec read from it
// (gmm:FILE.json). Any text must give a value or a one-line error naming the place, never a
// crash, a sanitizer report or a hang.
#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_set>

#include <unistd.h>

#include "core/io/json.h"
#include "core/model/gaussian_oracles.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

// Member names are unique in every object the reader returns.
void checkUnique(const core::io::Json& value) {
    if (value.is_object()) {
        std::unordered_set<std::string> names;
        for (const auto& [name, member] : value.items()) {
            if (!names.insert(name).second) {
                std::abort();
            }
            checkUnique(member);
        }
    }
    if (value.is_array()) {
        for (const core::io::Json& element : value) {
            checkUnique(element);
        }
    }
}

// The mixture reader takes a path only: one scratch file per process, removed at exit. Written
// plainly (writeFileAtomically syncs to disk, far too slow per input).
struct Scratch {
    std::string path;
    Scratch() {
        const char* dir = std::getenv("TMPDIR");
        path = std::string(dir != nullptr ? dir : "/tmp") + "/diffuscope-fuzz-gmm-" +
               std::to_string(::getpid()) + ".json";
    }
    ~Scratch() { std::remove(path.c_str()); }
    void write(const std::string& text) const {
        std::FILE* file = std::fopen(path.c_str(), "wb");
        if (file == nullptr || std::fwrite(text.data(), 1, text.size(), file) != text.size() ||
            std::fclose(file) != 0) {
            std::abort();
        }
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    core::Result<core::io::Json> json = core::io::parseJsonStrict(text, "fuzz.json");
    fuzz::check(json);
    if (!json.ok()) {
        return 0;
    }
    checkUnique(*json);
    // Only texts that parse reach the mixture reader (the rest fail the same way there).
    static const Scratch scratch;
    scratch.write(text);
    fuzz::check(core::model::GaussianMixtureOracle::fromJsonFile(scratch.path));
    return 0;
}
