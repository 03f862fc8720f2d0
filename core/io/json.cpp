// SPDX-License-Identifier: MIT
#include "core/io/json.h"

#include <cmath>
#include <iterator>
#include <unordered_map>

#include "core/io/reader_text.h"

namespace core::io {
namespace {

// nlohmann's messages begin "[json.exception.parse_error.101] parse error at line 3, column 7:
// syntax error while parsing value - …"; the tag means nothing to a user.
std::string plainMessage(const std::string& what) {
    std::string text = what;
    if (text.rfind("[json.exception.", 0) == 0) {
        if (const size_t end = text.find("] "); end != std::string::npos) {
            text = text.substr(end + 2);
        }
    }
    if (text.rfind("parse error at ", 0) == 0) {
        text = text.substr(15);
    }
    return text;
}

// Nesting deeper than this is refused: no file of ours comes near it, and a value nested
// thousands deep would only exhaust the stack of whoever walks it.
constexpr int kMaxDepth = 64;

// Hands the text to nlohmann one byte at a time and remembers how far it got: the SAX events
// do not say where they are, and a refusal should name the line and column.
class TrackingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    TrackingIterator(const char* at, const char** furthest) : m_at(at), m_furthest(furthest) {}
    reference operator*() const { return *m_at; }
    TrackingIterator& operator++() {
        *m_furthest = ++m_at;
        return *this;
    }
    TrackingIterator operator++(int) {
        TrackingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const TrackingIterator& other) const { return m_at == other.m_at; }

private:
    const char* m_at;
    const char** m_furthest;
};

// "3:7": the line and column (1-based, columns in bytes) of the byte at `pos`.
std::string lineColumn(std::string_view text, size_t pos) {
    int line = 1;
    int column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

// Where the key that ends just before `end` begins. The lexer reads a string up to its closing
// quote and no further; the opening quote is the nearest one before it that no backslash
// escapes (a key holds no other).
size_t keyStart(std::string_view text, size_t end) {
    size_t i = end > 0 ? end - 1 : 0;
    while (i > 0) {
        --i;
        if (text[i] != '"') continue;
        size_t slashes = 0;
        while (slashes < i && text[i - 1 - slashes] == '\\') ++slashes;
        if (slashes % 2 == 0) return i;
    }
    return i;
}

// Builds the value from nlohmann's SAX events, refusing a key repeated within one object
// (nlohmann's own builder would keep the last silently) and nesting deeper than kMaxDepth
// (nlohmann sets no limit). Members are appended without ordered_map's linear search for the
// key, which made an object of n keys cost n²; the hash maps here find repeats instead.
class StrictBuilder {
public:
    StrictBuilder(std::string_view text, const char* const* furthest)
        : m_text(text), m_furthest(furthest) {}

    bool null() { return add(nullptr); }
    bool boolean(bool value) { return add(value); }
    bool number_integer(Json::number_integer_t value) { return add(value); }
    bool number_unsigned(Json::number_unsigned_t value) { return add(value); }
    bool number_float(Json::number_float_t value, const Json::string_t&) { return add(value); }
    bool string(Json::string_t& value) { return add(std::move(value)); }
    bool binary(Json::binary_t& value) { return add(std::move(value)); }  // not in JSON text
    bool start_object(size_t) {
        m_keys.emplace_back();
        return add(Json::object());
    }
    bool end_object() {
        m_keys.pop_back();
        m_open.pop_back();
        return true;
    }
    bool start_array(size_t) { return add(Json::array()); }
    bool end_array() {
        m_open.pop_back();
        return true;
    }
    bool key(Json::string_t& key);
    bool parse_error(size_t, const std::string&, const nlohmann::detail::exception& e);

    Json& result() { return m_root; }
    // The refusal, or nlohmann's message ("line 1, column 3: syntax error …").
    const Error& error() const { return m_error; }
    bool refused() const { return m_refused; }

private:
    size_t read() const { return static_cast<size_t>(*m_furthest - m_text.data()); }
    bool refuse(size_t at, std::string value, std::string message) {
        m_error = makeError(ErrorCode::ParseError, lineColumn(m_text, at), std::move(value),
                            std::move(message));
        m_refused = true;
        return false;
    }
    bool add(Json value);

    std::string_view m_text;
    const char* const* m_furthest;
    Json m_root;
    std::vector<Json*> m_open;  // the arrays and objects being filled, innermost last
    std::vector<std::unordered_map<std::string, size_t>> m_keys;  // per open object: key → where
    std::string m_key;  // the key of the member to come
    Error m_error;
    bool m_refused = false;
};

bool StrictBuilder::add(Json value) {
    if (m_open.size() > static_cast<size_t>(kMaxDepth)) {
        return refuse(read() > 0 ? read() - 1 : 0, "",
                      "nesting is too deep (at most " + std::to_string(kMaxDepth) + " levels)");
    }
    const bool container = value.is_object() || value.is_array();
    Json* added = &m_root;
    if (m_open.empty()) {
        m_root = std::move(value);
    } else if (m_open.back()->is_array()) {
        auto& array = m_open.back()->get_ref<Json::array_t&>();
        added = &array.emplace_back(std::move(value));
    } else {
        // ordered_map is a vector of pairs: appending to it skips its search for the key.
        auto& object = m_open.back()->get_ref<Json::object_t&>();
        added = &object.emplace_back(std::move(m_key), std::move(value)).second;
    }
    if (container) m_open.push_back(added);
    return true;
}

bool StrictBuilder::key(Json::string_t& key) {
    // The lexer has read the key up to its closing quote and no further.
    const size_t at = keyStart(m_text, read());
    const auto [first, inserted] = m_keys.back().emplace(key, at);
    if (!inserted) {
        return refuse(at, "\"" + printable(key) + "\"",
                      "a key appears twice in one object (first at " +
                          lineColumn(m_text, first->second) + ")");
    }
    m_key = std::move(key);
    return true;
}

bool StrictBuilder::parse_error(size_t, const std::string&, const nlohmann::detail::exception& e) {
    std::string what = plainMessage(e.what());
    if (what.rfind("line ", 0) != 0) {
        // A number beyond a double: nlohmann gives no place.
        what = "at " + lineColumn(m_text, read()) + ": " + what;
    }
    m_error = makeError(ErrorCode::ParseError, "", "", what);
    return false;
}

}  // namespace

Result<Json> parseJsonStrict(const std::string& text, const std::string& where) {
    const std::string_view body = withoutBom(text);
    const char* furthest = body.data();
    StrictBuilder builder(text, &furthest);
    if (Json::sax_parse(TrackingIterator(body.data(), &furthest),
                        TrackingIterator(body.data() + body.size(), &furthest), &builder)) {
        return std::move(builder.result());
    }
    Error error = builder.error();
    if (builder.refused()) {
        error.field = where + ":" + error.field;
        return error;
    }
    // Text after a complete value is not a truncation, nor is a string that is not UTF-8 (or
    // escapes half a UTF-16 pair); say what it is.
    const bool trailing = error.message.find("; expected end of input") != std::string::npos;
    const bool badString = error.message.find("invalid string: ill-formed UTF-8") !=
                               std::string::npos ||
                           error.message.find("invalid string: surrogate") != std::string::npos;
    return makeError(ErrorCode::ParseError, where, "",
                     "not valid JSON (" + printable(error.message, 300) + ")" +
                         (trailing    ? "; unexpected text after the JSON value"
                          : badString ? "; a string is not UTF-8 text"
                                      : "; the file may be truncated"));
}

std::string dumpJson(const Json& json) {
    // Invalid UTF-8 in a string (a path from a foreign file system) is replaced, not thrown.
    return json.dump(4, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string jsonValueText(const Json& value) {
    // Integers as written: a double would round those beyond 2^53.
    if (value.is_number_unsigned()) return std::to_string(value.get<uint64_t>());
    if (value.is_number_integer()) return std::to_string(value.get<int64_t>());
    if (value.is_number()) return shortestText(value.get<double>());
    if (value.is_string()) return "\"" + printable(value.get<std::string>()) + "\"";
    if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
    if (value.is_null()) return "null";
    if (value.is_array()) return "an array";
    if (value.is_object()) return "an object";
    return "";
}

JsonFields::JsonFields(const Json& object, std::string prefix)
    : m_object(object), m_prefix(std::move(prefix)) {}

bool JsonFields::has(const char* key) const { return raw(key) != nullptr; }

const Json* JsonFields::raw(const char* key) const {
    if (!m_object.is_object()) return nullptr;
    const auto it = m_object.find(key);
    return it == m_object.end() ? nullptr : &*it;
}

Error JsonFields::error(const std::string& path, const Json* value,
                        const std::string& message) const {
    return makeError(ErrorCode::ParseError, m_prefix + path,
                     value != nullptr ? jsonValueText(*value) : "missing", message);
}

Result<double> JsonFields::number(const char* key) const {
    const Json* v = raw(key);
    if (v == nullptr || !v->is_number()) return error(key, v, "a number is expected");
    return v->get<double>();
}

Result<int> JsonFields::integer(const char* key) const {
    auto v = number(key);
    if (!v) return v.error();
    if (*v != std::floor(*v) || std::abs(*v) > 1e9) {
        return error(key, raw(key), "a whole number is expected");
    }
    return static_cast<int>(*v);
}

Result<std::string> JsonFields::string(const char* key) const {
    const Json* v = raw(key);
    if (v == nullptr || !v->is_string()) return error(key, v, "a string is expected");
    return v->get<std::string>();
}

Result<bool> JsonFields::boolean(const char* key) const {
    const Json* v = raw(key);
    if (v == nullptr || !v->is_boolean()) return error(key, v, "true or false is expected");
    return v->get<bool>();
}

std::optional<uint64_t> jsonUint64(const Json& value) {
    if (value.is_number_unsigned()) return value.get<uint64_t>();
    if (value.is_number_integer()) {
        const int64_t v = value.get<int64_t>();
        if (v < 0) return std::nullopt;
        return static_cast<uint64_t>(v);
    }
    constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53
    if (value.is_number_float()) {
        const double v = value.get<double>();
        if (v >= 0.0 && v <= kMaxExactInteger && v == std::floor(v)) {
            return static_cast<uint64_t>(v);
        }
    }
    return std::nullopt;
}

Result<std::vector<double>> jsonNumbers(const Json& array, const std::string& path) {
    if (!array.is_array()) {
        return makeError(ErrorCode::ParseError, path, jsonValueText(array),
                         "a list of numbers is expected");
    }
    std::vector<double> out;
    out.reserve(array.size());
    for (size_t i = 0; i < array.size(); ++i) {
        if (!array[i].is_number()) {
            return makeError(ErrorCode::ParseError, path + "[" + std::to_string(i) + "]",
                             jsonValueText(array[i]), "a number is expected");
        }
        out.push_back(array[i].get<double>());
    }
    return out;
}

Result<std::vector<double>> JsonFields::numbers(const char* key) const {
    const Json* v = raw(key);
    if (v == nullptr) return error(key, v, "a list of numbers is expected");
    return jsonNumbers(*v, m_prefix + key);
}

Result<std::vector<std::string>> JsonFields::strings(const char* key) const {
    const Json* v = raw(key);
    if (v == nullptr || !v->is_array()) return error(key, v, "a list of strings is expected");
    std::vector<std::string> out;
    for (size_t i = 0; i < v->size(); ++i) {
        if (!(*v)[i].is_string()) {
            return error(std::string(key) + "[" + std::to_string(i) + "]", &(*v)[i],
                         "a string is expected");
        }
        out.push_back((*v)[i].get<std::string>());
    }
    return out;
}

Result<uint64_t> JsonFields::textUint64(const char* key) const {
    auto text = string(key);
    if (!text) return text.error();
    uint64_t value = 0;
    const char* end = text->data() + text->size();
    const auto [ptr, ec] = std::from_chars(text->data(), end, value);
    if (text->empty() || ec != std::errc() || ptr != end) {
        return error(key, raw(key), "a whole number is expected");
    }
    return value;
}

Status JsonFields::numberOr(const char* key, double& out) const {
    if (!has(key)) return {};
    auto v = number(key);
    if (!v) return v.error();
    out = *v;
    return {};
}

Status JsonFields::integerOr(const char* key, int& out) const {
    if (!has(key)) return {};
    auto v = integer(key);
    if (!v) return v.error();
    out = *v;
    return {};
}

Status JsonFields::stringOr(const char* key, std::string& out) const {
    if (!has(key)) return {};
    auto v = string(key);
    if (!v) return v.error();
    out = *v;
    return {};
}

Status JsonFields::booleanOr(const char* key, bool& out) const {
    if (!has(key)) return {};
    auto v = boolean(key);
    if (!v) return v.error();
    out = *v;
    return {};
}

Result<JsonFields> JsonFields::object(const char* key) const {
    static const Json kEmpty = Json::object();
    const Json* v = raw(key);
    if (v == nullptr) return JsonFields(kEmpty, m_prefix + key + ".");
    if (!v->is_object()) return error(key, v, "an object is expected");
    return JsonFields(*v, m_prefix + key + ".");
}

}  // namespace core::io
