// SPDX-License-Identifier: MIT
#include "core/project/palette.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace core::project {

std::string paletteColour(int index) {
    static constexpr std::array<const char*, 8> kPalette = {
        "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#F0E442", "#999999"};
    return kPalette[static_cast<size_t>(std::max(index, 0)) % kPalette.size()];
}

bool isColour(const std::string& text) {
    if (text.size() != 7 || text[0] != '#') return false;
    return std::all_of(text.begin() + 1, text.end(),
                       [](unsigned char c) { return std::isxdigit(c) != 0; });
}

}  // namespace core::project
