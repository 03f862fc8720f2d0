// SPDX-License-Identifier: MIT
#include "core/io/json.h"

#include <cmath>
#include <set>

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

// Thrown from the parser callback, which cannot return an error.
struct DuplicateKey {
    std::string key;
};

}  // namespace

Result<Json> parseJsonStrict(const std::string& text, const std::string& where) {
    std::vector<std::set<std::string>> keysByDepth;
    const Json::parser_callback_t refuseDuplicates =
        [&keysByDepth](int depth, Json::parse_event_t event, Json& parsed) {
            const size_t level = static_cast<size_t>(depth);
            if (event == Json::parse_event_t::object_start) {
                // The object's keys arrive one level deeper.
                keysByDepth.resize(std::max(keysByDepth.size(), level + 2));
                keysByDepth[level + 1].clear();
            } else if (event == Json::parse_event_t::key) {
                if (keysByDepth.size() <= level) keysByDepth.resize(level + 1);
                if (!keysByDepth[level].insert(parsed.get<std::string>()).second) {
                    throw DuplicateKey{parsed.get<std::string>()};
                }
            }
            return true;
        };
    const std::string_view body = withoutBom(text);
    try {
        return Json::parse(body.begin(), body.end(), refuseDuplicates);
    } catch (const DuplicateKey& duplicate) {
        return makeError(ErrorCode::ParseError, where, "\"" + printable(duplicate.key) + "\"",
                         "a key appears twice in one object");
    } catch (const nlohmann::json::exception& e) {
        return makeError(ErrorCode::ParseError, where, "",
                         "not valid JSON (" + printable(plainMessage(e.what()), 300) +
                             "); the file may be truncated");
    }
}

std::string dumpJson(const Json& json) {
    // Invalid UTF-8 in a string (a path from a foreign file system) is replaced, not thrown.
    return json.dump(4, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string jsonValueText(const Json& value) {
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
