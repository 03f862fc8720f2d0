// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/io/json.h"
#include "core/util/result.h"

// The enumerated parameters of a project as tables: each value with its identifier in files
// and on the command line, and the label the GUI shows. The GUI fills its combo boxes from
// these tables and the CLI parses its options with them, so the two accept the same words.
namespace core::project {

// One choice of an enumerated parameter.
template <typename Enum>
struct Choice {
    Enum value;
    std::string_view id;
    std::string_view label;
};

// The identifier of `value` in `choices` (empty when absent), and back (an error naming
// `field`, the text and the identifiers accepted).
template <typename Enum>
std::string choiceId(const std::vector<Choice<Enum>>& choices, Enum value) {
    for (const auto& c : choices) {
        if (c.value == value) return std::string(c.id);
    }
    return {};
}
template <typename Enum>
Result<Enum> parseChoice(const std::vector<Choice<Enum>>& choices, const std::string& text,
                         const std::string& field) {
    std::string accepted;
    for (const auto& c : choices) {
        if (c.id == text) return c.value;
        accepted += (accepted.empty() ? "" : ", ") + std::string(c.id);
    }
    return invalidArgument(field, text, "expected one of " + accepted);
}

// The member `key` of a project file's object as one of `choices` (absent: `out` unchanged);
// the error names the JSON path and the text found.
template <typename Enum>
Status readChoice(const io::JsonFields& read, const char* key,
                  const std::vector<Choice<Enum>>& choices, Enum& out) {
    if (!read.has(key)) return {};
    auto text = read.string(key);
    if (!text) return text.error();
    auto value = parseChoice(choices, *text, read.prefix() + key);
    if (!value) {
        Error error = value.error();
        error.code = ErrorCode::ParseError;
        error.value = "\"" + error.value + "\"";
        return error;
    }
    out = *value;
    return {};
}

}  // namespace core::project
