// SPDX-License-Identifier: MIT
// libFuzzer target for the small texts a user types or points to: the Gaussian data's point
// files (csv:FILE) and inline mixtures, a custom β(t) file and the schedule specs, the
// trajectory specs, a decoding sampler as a project stores it, and a lab row. Each must give a
// value or a one-line error, never a crash, a sanitizer report or a hang; a value written back
// as text must read back to itself. The file readers read the input from a scratch file.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "core/data/gaussian_data.h"
#include "core/gaussian/spacing.h"
#include "core/project/decoding_runs.h"
#include "core/project/lab_settings.h"
#include "core/schedule/beta_curve.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

// One scratch file per process, rewritten for every input.
const std::string& scratchPath() {
    static const std::string path = (std::filesystem::temp_directory_path() /
                                     ("diffuscope-fuzz-specs-" + std::to_string(getpid()) + ".csv"))
                                        .string();
    return path;
}

void writeScratch(const std::string& text) {
    std::FILE* file = std::fopen(scratchPath().c_str(), "wb");
    if (file == nullptr) std::abort();
    if (std::fwrite(text.data(), 1, text.size(), file) != text.size()) std::abort();
    std::fclose(file);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);

    // Files: the Gaussian data's points and a custom β(t) (columns t, beta).
    writeScratch(text);
    auto points = core::data::readGaussianPointsCsv(scratchPath());
    fuzz::check(points);
    if (points.ok() && !points->allFinite()) std::abort();
    fuzz::check(core::schedule::readCustomCurve(scratchPath()));

    // Specs, each read back from what it writes.
    auto mixture = core::data::parseMixtureSpec(text);
    fuzz::check(mixture);
    if (mixture.ok()) {
        auto again = core::data::parseMixtureSpec(core::data::formatMixtureSpec(*mixture));
        if (!again.ok() || *again != *mixture) std::abort();
    }
    auto sampler = core::project::parseSamplerSpec(text);
    fuzz::check(sampler);
    if (sampler.ok()) {
        auto again = core::project::parseSamplerSpec(core::project::samplerSpec(*sampler));
        if (!again.ok() || *again != *sampler) std::abort();
    }
    auto lab = core::project::parseLabConfig(text);
    fuzz::check(lab);
    if (lab.ok()) {
        auto again = core::project::parseLabConfig(core::project::formatLabConfig(*lab));
        if (!again.ok() || *again != *lab) std::abort();
    }
    // A custom:FILE spec would read whatever file the input names.
    if (text.rfind("custom:", 0) != 0) {
        auto curve = core::schedule::parseBetaCurve(text);
        fuzz::check(curve);
    }
    const auto [kind, rest] = core::gaussian::splitTrajectoryKind(text);
    for (const int numSteps : {1, 1000}) {
        fuzz::check(core::gaussian::parseSpacing(kind, rest, numSteps));
    }
    return 0;
}
