// SPDX-License-Identifier: MIT
#include "core/io/json_reader.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

#include "core/io/csv.h"
#include "core/io/reader_text.h"

namespace core::io {
namespace {

constexpr int kMaxDepth = 64;

class Parser {
public:
    Parser(const std::string& text, const std::string& path) : m_text(text), m_path(path) {}

    Result<JsonValue> parseDocument() {
        m_pos = m_text.size() - withoutBom(m_text).size();
        JsonValue value;
        if (!parseValue(value, 0)) {
            return m_error;
        }
        skipSpace();
        if (m_pos != m_text.size()) {
            fail("unexpected text after the JSON value");
            return m_error;
        }
        return value;
    }

private:
    // "line:column" (1-based, columns in bytes) of the byte at `pos`.
    std::string lineColumn(size_t pos) const {
        int line = 1;
        int column = 1;
        for (size_t i = 0; i < pos && i < m_text.size(); ++i) {
            if (m_text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        return std::to_string(line) + ":" + std::to_string(column);
    }

    bool fail(const std::string& message, const std::string& value = "") {
        m_error = makeError(ErrorCode::ParseError, m_path + ":" + lineColumn(m_pos), value,
                            message);
        return false;
    }

    // Four hex digits at m_pos (a \u escape), or false.
    bool hex4(unsigned& code) {
        if (m_pos + 4 > m_text.size()) {
            return fail("a short \\u escape");
        }
        code = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = m_text[m_pos + i];
            if (!std::isxdigit(static_cast<unsigned char>(h))) {
                return fail("a \\u escape needs four hex digits");
            }
            code = code * 16 + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(h))
                                                         ? h - '0'
                                                         : (h | 0x20) - 'a' + 10);
        }
        m_pos += 4;
        return true;
    }

    void skipSpace() {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' ||
                                         m_text[m_pos] == '\n' || m_text[m_pos] == '\r')) {
            ++m_pos;
        }
    }

    bool literal(const char* word) {
        const std::string w(word);
        if (m_text.compare(m_pos, w.size(), w) != 0) {
            return fail("unknown literal");
        }
        m_pos += w.size();
        return true;
    }

    bool parseValue(JsonValue& out, int depth) {
        if (depth > kMaxDepth) {
            return fail("nesting is too deep");
        }
        skipSpace();
        if (m_pos >= m_text.size()) {
            return fail("unexpected end of file");
        }
        const char c = m_text[m_pos];
        if (c == '{') {
            return parseObject(out, depth);
        }
        if (c == '[') {
            return parseArray(out, depth);
        }
        if (c == '"') {
            out.type = JsonValue::Type::String;
            return parseString(out.string);
        }
        if (c == 't') {
            out.type = JsonValue::Type::Bool;
            out.boolean = true;
            return literal("true");
        }
        if (c == 'f') {
            out.type = JsonValue::Type::Bool;
            return literal("false");
        }
        if (c == 'n') {
            out.type = JsonValue::Type::Null;
            return literal("null");
        }
        return parseNumber(out);
    }

    bool parseNumber(JsonValue& out) {
        const size_t start = m_pos;
        while (m_pos < m_text.size() &&
               (std::isdigit(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '-' ||
                m_text[m_pos] == '+' || m_text[m_pos] == '.' || m_text[m_pos] == 'e' ||
                m_text[m_pos] == 'E')) {
            ++m_pos;
        }
        if (start == m_pos) {
            return fail("a value is expected");
        }
        const std::string token = m_text.substr(start, m_pos - start);
        errno = 0;
        char* end = nullptr;
        const double v = std::strtod(token.c_str(), &end);
        if (end != token.c_str() + token.size() || !std::isfinite(v)) {
            m_pos = start;
            return fail("'" + token + "' is not a finite number");
        }
        out.type = JsonValue::Type::Number;
        out.number = v;
        return true;
    }

    bool parseString(std::string& out) {
        ++m_pos;  // opening quote
        out.clear();
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos++];
            if (c == '"') {
                return true;
            }
            if (c == '\\') {
                if (m_pos >= m_text.size()) {
                    break;
                }
                const char e = m_text[m_pos++];
                switch (e) {
                    case '"': out += '"'; break;
                    case '\\': out += '\\'; break;
                    case '/': out += '/'; break;
                    case 'b': out += '\b'; break;
                    case 'f': out += '\f'; break;
                    case 'n': out += '\n'; break;
                    case 'r': out += '\r'; break;
                    case 't': out += '\t'; break;
                    case 'u': {
                        unsigned code = 0;
                        if (!hex4(code)) {
                            return false;
                        }
                        if (code >= 0xD800 && code <= 0xDBFF) {
                            // A UTF-16 surrogate pair: the low half must follow as \uDC00..DFFF.
                            unsigned low = 0;
                            if (m_text.compare(m_pos, 2, "\\u") != 0) {
                                return fail("a lone UTF-16 surrogate in a \\u escape");
                            }
                            m_pos += 2;
                            if (!hex4(low)) {
                                return false;
                            }
                            if (low < 0xDC00 || low > 0xDFFF) {
                                return fail("a lone UTF-16 surrogate in a \\u escape");
                            }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                        } else if (code >= 0xDC00 && code <= 0xDFFF) {
                            return fail("a lone UTF-16 surrogate in a \\u escape");
                        }
                        if (code < 0x80) {
                            out += static_cast<char>(code);
                        } else if (code < 0x800) {
                            out += static_cast<char>(0xC0 | (code >> 6));
                            out += static_cast<char>(0x80 | (code & 0x3F));
                        } else if (code < 0x10000) {
                            out += static_cast<char>(0xE0 | (code >> 12));
                            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
                            out += static_cast<char>(0x80 | (code & 0x3F));
                        } else {
                            out += static_cast<char>(0xF0 | (code >> 18));
                            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
                            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
                            out += static_cast<char>(0x80 | (code & 0x3F));
                        }
                        break;
                    }
                    default: return fail("an unknown escape in a string");
                }
            } else if (static_cast<unsigned char>(c) < 0x20) {
                --m_pos;
                return fail("a control character inside a string (it must be escaped)");
            } else {
                out += c;
            }
        }
        return fail("a string is not closed");
    }

    bool parseArray(JsonValue& out, int depth) {
        out.type = JsonValue::Type::Array;
        ++m_pos;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            return true;
        }
        while (true) {
            JsonValue element;
            if (!parseValue(element, depth + 1)) {
                return false;
            }
            out.array.push_back(std::move(element));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == ']') {
                ++m_pos;
                return true;
            }
            return fail("',' or ']' expected in an array");
        }
    }

    bool parseObject(JsonValue& out, int depth) {
        out.type = JsonValue::Type::Object;
        ++m_pos;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return true;
        }
        // Where each name was first seen: a repeated name is refused, since readers that take
        // the first and readers that take the last would see different files.
        std::unordered_map<std::string, size_t> seen;
        while (true) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"') {
                return fail("a member name in quotes expected");
            }
            const size_t keyAt = m_pos;
            std::string key;
            if (!parseString(key)) {
                return false;
            }
            if (const auto [at, inserted] = seen.emplace(key, keyAt); !inserted) {
                m_pos = keyAt;
                return fail("the member name appears twice in an object (first at " +
                                lineColumn(at->second) + ")",
                            "\"" + printable(key) + "\"");
            }
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != ':') {
                return fail("':' expected after a member name");
            }
            ++m_pos;
            JsonValue member;
            if (!parseValue(member, depth + 1)) {
                return false;
            }
            out.object.emplace_back(std::move(key), std::move(member));
            skipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                ++m_pos;
                continue;
            }
            if (m_pos < m_text.size() && m_text[m_pos] == '}') {
                ++m_pos;
                return true;
            }
            return fail("',' or '}' expected in an object");
        }
    }

    const std::string& m_text;
    const std::string& m_path;
    size_t m_pos = 0;
    Error m_error;
};

}  // namespace

JsonValue::JsonValue() = default;
JsonValue::JsonValue(const JsonValue&) = default;
JsonValue::JsonValue(JsonValue&&) noexcept = default;
JsonValue& JsonValue::operator=(const JsonValue&) = default;
JsonValue& JsonValue::operator=(JsonValue&&) noexcept = default;
JsonValue::~JsonValue() = default;

const JsonValue* JsonValue::find(const std::string& key) const {
    for (const auto& [name, value] : object) {
        if (name == key) {
            return &value;
        }
    }
    return nullptr;
}

Result<JsonValue> parseJson(const std::string& text, const std::string& path) {
    return Parser(text, path).parseDocument();
}

Result<JsonValue> readJsonFile(const std::string& path) {
    Result<std::string> text = readTextFile(path);
    if (!text) {
        return text.error();
    }
    return parseJson(*text, path);
}

}  // namespace core::io
