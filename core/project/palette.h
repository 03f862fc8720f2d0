// SPDX-License-Identifier: MIT
#pragma once

#include <string>

// The colours of the Lab's and the decoding lab's configurations.
namespace core::project {

// The colour of the configuration at `index` when it names none: Okabe & Ito (2008), "Color
// Universal Design", distinguishable with every common colour-vision deficiency; their black
// is kept for the reference, a grey takes its place here. Cycles after 8.
std::string paletteColour(int index);

// Whether `text` is a colour as the files write it: "#" and six hexadecimal digits.
bool isColour(const std::string& text);

}  // namespace core::project
