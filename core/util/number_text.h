// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/util/result.h"

// Numbers as people read and type them. Files keep every digit (shortestText); what a field or a
// caption shows is the fewest significant digits that read back to the same value, up to
// rounding noise (0.1 + 0.2 shows as 0.3, not 0.30000000000000004), and a value with no short
// form (1/3) is shown with `fallbackDigits` significant digits (0.3333).
namespace core {

inline std::string readableText(double v, int fallbackDigits = 4) {
    if (!std::isfinite(v) || v == 0.0) return shortestText(v);
    char buffer[64];
    for (int digits = 1; digits <= 12; ++digits) {
        std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
        const double back = std::strtod(buffer, nullptr);
        if (std::abs(back - v) <= 4e-16 * std::abs(v)) return buffer;  // a few ulps: rounding noise
    }
    std::snprintf(buffer, sizeof buffer, "%.*g", fallbackDigits, v);
    return buffer;
}

}  // namespace core
