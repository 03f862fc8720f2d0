// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

// Γ files (docs/gaussian.md#gamma): CSV with columns `n,gamma` or `n,ms_eps` (n = 1..N; never
// both), and NPY arrays (float32 or float64, little-endian, 1-D) of length N + 1 with entry 0
// unused — as the Analytic-DPM code saves `ms_eps` — or of length N. ms_eps_n = β̄_n Γ_n.
namespace core::io {

enum class GammaKind {
    Gamma,  // Γ_n, the mean squared score
    MsEps,  // β̄_n Γ_n, the mean squared ε-prediction per dimension
};

const char* gammaKindName(GammaKind kind);  // "gamma" / "ms_eps"

struct GammaFile {
    std::vector<double> values;  // N + 1 entries, entry 0 unused (0)
    GammaKind kind = GammaKind::Gamma;
};

// Reads a .csv or .npy file (by extension) holding `expectedSteps` = N values. A CSV's header
// decides its kind; for NPY, which carries no names, `npyKind` says what it holds. When
// `requiredKind` is given (not null) a CSV of the other kind is an error. Corrupt files, wrong
// lengths and non-finite or negative values are errors naming the file.
Result<GammaFile> readGammaFile(const std::string& path,
                                int expectedSteps,
                                GammaKind npyKind,
                                const GammaKind* requiredKind = nullptr);

// The same for bytes already in memory (what readGammaFile reads); `path` only names them in
// messages.
Result<GammaFile> parseGammaCsv(const std::string& text,
                                const std::string& path,
                                int expectedSteps,
                                const GammaKind* requiredKind = nullptr);
Result<GammaFile> parseGammaNpy(const std::string& bytes,
                                const std::string& path,
                                int expectedSteps,
                                GammaKind kind);

// Writes N values (values[1..N]; values[0] is ignored) atomically: CSV `n,<kind>` with 17
// significant digits, or NPY float64 (or float32) of length N + 1 with entry 0 = 0.
Status writeGammaCsv(const std::string& path, const std::vector<double>& values, GammaKind kind);
Status writeGammaNpy(const std::string& path,
                     const std::vector<double>& values,
                     bool float32 = false,
                     bool leadingZero = true);
// By extension: .csv or .npy (float64, length N + 1).
Status writeGammaFile(const std::string& path, const std::vector<double>& values, GammaKind kind);

}  // namespace core::io
