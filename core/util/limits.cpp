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

Status checkText(const TextLimit& limit, const std::string& field, const std::string& text) {
    if (static_cast<long long>(text.size()) <= limit.maxBytes) return {};
    // The first 40 bytes, cut at a character boundary, so that the message stays one line.
    size_t cut = 40;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    std::string start;
    for (size_t i = 0; i < cut; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        start += (c < 0x20 || c == 0x7F) ? '?' : text[i];
    }
    return invalidArgument(field, "\"" + start + "…\" (" + std::to_string(text.size()) + " bytes)",
                           std::string(limit.what) + " has at most " +
                               std::to_string(limit.maxBytes) + " bytes");
}

Status checkCount(const IntRange& range, const std::string& field, size_t count) {
    if (static_cast<long long>(count) >= range.min && static_cast<long long>(count) <= range.max) {
        return {};
    }
    return invalidArgument(field, std::to_string(count) + " entries",
                           std::string(range.what) + " must lie between " +
                               std::to_string(range.min) + " and " + std::to_string(range.max));
}

Status checkImage(const std::string& what, long long width, long long height, double dpi) {
    const double scale = dpi / 96.0;
    const double bytes = static_cast<double>(width) * static_cast<double>(height) * scale * scale * 4.0;
    if (bytes <= kMaxImageBytes) return {};
    char dpiText[32];
    std::snprintf(dpiText, sizeof dpiText, "%g", dpi);
    const std::string formula =
        std::to_string(width) + "·" + std::to_string(height) +
        (dpi == 96.0 ? std::string() : "·(" + std::string(dpiText) + "/96)²") + "·4 bytes";
    return invalidArgument("--width × --height",
                           std::to_string(width) + " × " + std::to_string(height) + " px at " +
                               dpiText + " dpi",
                           what + " needs " + formula + " = " + formatBytes(bytes) +
                               ", more than the 1 GiB (" + formatBytes(kMaxImageBytes) +
                               ") one image may use; make it smaller or lower --dpi");
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
