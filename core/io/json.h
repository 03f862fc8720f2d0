// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/util/result.h"

// JSON through nlohmann-json, kept as strict as the files deserve: a key repeated within an
// object is refused (nlohmann would keep the last silently), so is nesting deeper than 64 levels,
// errors give line and column, and fields are read with errors that name their path and the
// value found.
namespace core::io {

using Json = nlohmann::ordered_json;  // keys stay in the order written

// Parses `text` (a leading UTF-8 byte order mark is skipped). `where` names the source in
// errors: "FILE: not valid JSON (line 3, column 7: …)", "FILE:4:3 = "pi": a key appears twice
// in one object (first at 2:3)". Strings must be UTF-8; numbers beyond a double are refused.
Result<Json> parseJsonStrict(const std::string& text, const std::string& where);

// Indented text with a final newline, as the project files are written.
std::string dumpJson(const Json& json);

// A value as it appears in a file, short enough for a one-line message.
std::string jsonValueText(const Json& value);

// Reads the members of one JSON object; every error names "<prefix><key>" and the value.
// Absent members: the *Or readers keep the default (fields added to a format later).
class JsonFields {
public:
    JsonFields(const Json& object, std::string prefix);

    bool has(const char* key) const;
    Result<double> number(const char* key) const;
    Result<int> integer(const char* key) const;                 // whole, |v| ≤ 10⁹
    Result<std::string> string(const char* key) const;
    Result<bool> boolean(const char* key) const;
    Result<std::vector<double>> numbers(const char* key) const;  // an array of numbers
    Result<std::vector<std::string>> strings(const char* key) const;
    // An unsigned 64-bit integer written as text (a JSON double cannot hold every one).
    Result<uint64_t> textUint64(const char* key) const;

    Status numberOr(const char* key, double& out) const;
    Status integerOr(const char* key, int& out) const;
    Status stringOr(const char* key, std::string& out) const;
    Status booleanOr(const char* key, bool& out) const;

    // A member object (or an empty one when absent), its fields prefixed "<prefix><key>.".
    Result<JsonFields> object(const char* key) const;
    const Json* raw(const char* key) const;  // nullptr when absent
    Error error(const std::string& path, const Json* value, const std::string& message) const;
    const std::string& prefix() const { return m_prefix; }

private:
    const Json& m_object;
    std::string m_prefix;
};

// A non-negative whole number, exactly: an integer as written (up to 2^64 − 1), or a number
// written with a fraction or an exponent ("8.0", "1e3") that is whole and at most 2^53, where
// doubles stop being exact. nullopt for anything else.
std::optional<uint64_t> jsonUint64(const Json& value);

// Numbers of a JSON array, errors naming "<path>[i]".
Result<std::vector<double>> jsonNumbers(const Json& array, const std::string& path);

}  // namespace core::io
