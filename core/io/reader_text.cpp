// SPDX-License-Identifier: MIT
#include "core/io/reader_text.h"

#include <algorithm>

namespace core::io {

namespace {

// The length of the well-formed UTF-8 character at the start of `text` (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF), or 0 when its first byte starts none.
size_t utf8Length(std::string_view text) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char c = byte(0);
    size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        if (c == 0xE0) low = 0xA0;
        if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        if (c == 0xF0) low = 0x90;
        if (c == 0xF4) high = 0x8F;
    } else {
        return 0;
    }
    if (text.size() < length || byte(1) < low || byte(1) > high) return 0;
    for (size_t i = 2; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80) return 0;
    }
    return length;
}

// The code point of the well-formed character at the start of `text`.
char32_t codePoint(std::string_view text) {
    const auto c = static_cast<unsigned char>(text[0]);
    if (c < 0x80) return c;
    const size_t length = c < 0xE0 ? 2 : (c < 0xF0 ? 3 : 4);
    char32_t code = c & (0x7F >> length);
    for (size_t i = 1; i < length; ++i) {
        code = (code << 6) | (static_cast<unsigned char>(text[i]) & 0x3F);
    }
    return code;
}

}  // namespace

std::string printable(std::string_view text, size_t maxBytes) {
    static constexpr char kHex[] = "0123456789abcdef";
    const auto escape = [](std::string& out, unsigned char c) {
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
    };
    std::string out;
    out.reserve(std::min(text.size(), maxBytes) + 4);
    size_t at = 0;
    while (at < text.size()) {
        // A byte that starts no character (a file in another encoding, or cut in the middle of
        // one) is shown as \xNN: passed on raw, it makes the whole message invalid UTF-8.
        const size_t length = utf8Length(text.substr(at));
        const size_t take = length == 0 ? 1 : length;
        if (at + take > maxBytes) break;  // whole characters only
        const auto c = static_cast<unsigned char>(text[at]);
        if (length == 0) {
            escape(out, c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7F) {
            escape(out, c);
        } else if (const char32_t code = codePoint(text.substr(at, length));
                   (code >= 0x80 && code <= 0x9F) || code == 0x2028 || code == 0x2029) {
            // C1 controls (a terminal may take U+009B as an escape) and the Unicode line breaks.
            out += "\\u";
            for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 0xF];
        } else {
            out.append(text.substr(at, length));
        }
        at += take;
    }
    if (at < text.size()) {
        out += "…";
    }
    return out;
}

std::string_view withoutBom(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") {
        text.remove_prefix(3);
    }
    return text;
}

}  // namespace core::io
