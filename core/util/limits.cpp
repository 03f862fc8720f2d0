// SPDX-License-Identifier: MIT
#include "core/util/limits.h"

#include "core/io/file_io.h"

namespace core::limits {

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
                               "needs " + formula + " = " + io::formatBytes(bytes) +
                                   " of memory, more than the " +
                                   io::formatBytes(kMaxWorkingBytes) +
                                   " one computation may use");
    }
    return {};
}

}  // namespace core::limits
