// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

// Helpers the readers share for text that comes from a file.
namespace core::io {

// `text` fit for a one-line message: control characters (and DEL) become \n, \r, \t or \xNN,
// and at most `maxBytes` bytes are kept (cut at a UTF-8 boundary, then "…"), so that a corrupt
// file can neither break a message over lines nor flood it.
std::string printable(std::string_view text, size_t maxBytes = 80);

// `text` without a leading UTF-8 byte order mark (which some editors write at the start of a
// CSV or JSON file, where it would otherwise become part of the first column name).
std::string_view withoutBom(std::string_view text);

}  // namespace core::io
