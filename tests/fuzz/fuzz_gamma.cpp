// SPDX-License-Identifier: MIT
// libFuzzer target for the Γ file readers: the same bytes as an NPY array and as a CSV, for a
// few N. Any bytes must give N + 1 finite, non-negative values or a one-line error.
#include <cmath>
#include <cstdint>
#include <string>

#include "core/io/gamma_file.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

void checkFile(const core::Result<core::io::GammaFile>& file, int steps) {
    fuzz::check(file);
    if (!file.ok()) {
        return;
    }
    if (file->values.size() != static_cast<size_t>(steps) + 1) {
        std::abort();
    }
    for (size_t n = 1; n < file->values.size(); ++n) {
        if (!std::isfinite(file->values[n]) || file->values[n] < 0.0) {
            std::abort();
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const core::io::GammaKind gamma = core::io::GammaKind::Gamma;
    for (const int steps : {1, 3, 8, 37}) {
        checkFile(core::io::parseGammaNpy(bytes, "fuzz.npy", steps, core::io::GammaKind::MsEps),
                  steps);
        checkFile(core::io::parseGammaCsv(bytes, "fuzz.csv", steps), steps);
        checkFile(core::io::parseGammaCsv(bytes, "fuzz.csv", steps, &gamma), steps);
    }
    return 0;
}
