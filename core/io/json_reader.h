// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/util/result.h"

// A small, strict JSON reader (RFC 8259) for specification files such as the Gaussian-mixture
// spec. Numbers are doubles; errors name the file, line and column.
namespace core::io {

class JsonValue {
public:
    enum class Type { Null, Bool, Number, String, Array, Object };

    // Declared here, defined in the .cpp: clang with libstdc++ 12 cannot instantiate
    // std::pair<std::string, JsonValue> inside the class otherwise (C++20 conditional explicit).
    JsonValue();
    JsonValue(const JsonValue&);
    JsonValue(JsonValue&&) noexcept;
    JsonValue& operator=(const JsonValue&);
    JsonValue& operator=(JsonValue&&) noexcept;
    ~JsonValue();

    Type type = Type::Null;
    bool boolean = false;
    double number = 0.0;
    std::string string;
    std::vector<JsonValue> array;
    std::vector<std::pair<std::string, JsonValue>> object;  // in file order

    bool isNumber() const { return type == Type::Number; }
    bool isArray() const { return type == Type::Array; }
    bool isObject() const { return type == Type::Object; }
    // The member named `key` of an object, or nullptr.
    const JsonValue* find(const std::string& key) const;
};

Result<JsonValue> parseJson(const std::string& text, const std::string& path);
Result<JsonValue> readJsonFile(const std::string& path);

}  // namespace core::io
