// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

// Helpers the readers share for text that comes from a file.
namespace core::io {

// `text` fit for a one-line message: control characters (and DEL) become \n, \r, \t or \xNN,
// the C1 controls and U+2028, U+2029 become \uXXXX, each byte of invalid UTF-8 becomes \xNN,
// and at most `maxBytes` bytes of `text` are kept (whole characters, then "…"), so that a
// corrupt file can neither break a message over lines, nor make it invalid UTF-8, nor flood it.
std::string printable(std::string_view text, size_t maxBytes = 80);

// `text` without a leading UTF-8 byte order mark (which some editors write at the start of a
// CSV or JSON file, where it would otherwise become part of the first column name).
std::string_view withoutBom(std::string_view text);

}  // namespace core::io
