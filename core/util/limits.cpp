// SPDX-License-Identifier: MIT
#include "core/util/limits.h"

#include <cstdio>

namespace core::limits {

std::string formatBytes(double bytes) {
    const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
    int unit = 0;
    while (bytes >= 1000.0 && unit < 5) {
        bytes /= 1000.0;
        ++unit;
    }
    char buffer[48];
    if (unit == 0) {
        std::snprintf(buffer, sizeof buffer, "%.0f bytes", bytes);
    } else {
        std::snprintf(buffer, sizeof buffer, bytes < 10 ? "%.1f %s" : "%.0f %s", bytes,
                      units[unit]);
    }
    return buffer;
}


Status checkRange(const IntRange& range, const std::string& field, long long value) {
    if (value < range.min || value > range.max) {
        return invalidArgument(field, std::to_string(value),
                               std::string(range.what) + " must lie between " +
                                   std::to_string(range.min) + " and " +
                                   std::to_string(range.max));
    }
    return {};
}

Status checkMemory(const std::string& field, const std::string& value, const std::string& formula,
                   double bytes) {
    if (!(bytes <= kMaxWorkingBytes)) {
        return invalidArgument(field, value,
                               "needs " + formula + " = " + formatBytes(bytes) +
                                   " of memory, more than the " +
                                   formatBytes(kMaxWorkingBytes) +
                                   " one computation may use");
    }
    return {};
}

}  // namespace core::limits
