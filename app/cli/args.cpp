// SPDX-License-Identifier: MIT
#include "app/cli/args.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace app::cli {

core::Result<Args> Args::parse(const std::vector<std::string>& argv) {
    Args args;
    if (!argv.empty()) {
        args.m_command = argv[0];
    }
    for (size_t i = 1; i < argv.size(); ++i) {
        const std::string& word = argv[i];
        if (word.rfind("--", 0) == 0 && word.size() > 2) {
            std::string key = word.substr(2);
            std::string value;
            if (const size_t eq = key.find('='); eq != std::string::npos) {
                value = key.substr(eq + 1);
                key = key.substr(0, eq);
            } else if (i + 1 < argv.size() &&
                       !(argv[i + 1].rfind("--", 0) == 0 && argv[i + 1].size() > 2)) {
                value = argv[++i];
            }
            if (args.m_options.count(key) > 0) {
                return core::makeError(core::ErrorCode::ParseError, "--" + key, value,
                                       "the option is given twice");
            }
            args.m_options[key] = value;
        } else {
            args.m_positionals.push_back(word);
        }
    }
    return args;
}

std::string Args::get(const std::string& key, const std::string& fallback) const {
    const auto it = m_options.find(key);
    return it == m_options.end() ? fallback : it->second;
}

core::Result<std::string> Args::require(const std::string& key) const {
    const auto it = m_options.find(key);
    if (it == m_options.end() || it->second.empty()) {
        return core::makeError(core::ErrorCode::ParseError, "--" + key, "",
                               "this option is required");
    }
    return it->second;
}

core::Result<int> Args::getInt(const std::string& key, int fallback) const {
    if (!has(key)) {
        return fallback;
    }
    core::Result<long long> value = parseInt(get(key), "--" + key);
    if (!value) {
        return value.error();
    }
    if (*value < -2147483647LL || *value > 2147483647LL) {
        return core::makeError(core::ErrorCode::ParseError, "--" + key, get(key),
                               "the number is too large");
    }
    return static_cast<int>(*value);
}

core::Result<long long> Args::getInt64(const std::string& key, long long fallback) const {
    if (!has(key)) {
        return fallback;
    }
    return parseInt(get(key), "--" + key);
}

core::Result<double> Args::getDouble(const std::string& key, double fallback) const {
    if (!has(key)) {
        return fallback;
    }
    return parseDouble(get(key), "--" + key);
}

core::Result<int> Args::getBounded(const std::string& key, int fallback,
                                   const core::limits::IntRange& range) const {
    if (!has(key)) {
        return fallback;
    }
    return parseBounded(get(key), "--" + key, range);
}

core::Result<int> parseBounded(const std::string& text, const std::string& field,
                               const core::limits::IntRange& range) {
    core::Result<long long> value = parseInt(text, field);
    if (!value) {
        return value.error();
    }
    if (core::Status s = core::limits::checkRange(range, field, *value); !s) {
        core::Error error = s.error();
        error.value = text;
        return error;
    }
    return static_cast<int>(*value);
}

core::Status Args::checkKnown(const std::vector<std::string>& known) const {
    for (const auto& [key, value] : m_options) {
        bool found = false;
        for (const auto& k : known) {
            found = found || (k == key);
        }
        if (!found) {
            return core::makeError(core::ErrorCode::ParseError, "--" + key, value,
                                   "unknown option for '" + m_command + "'");
        }
    }
    return {};
}

core::Result<double> parseDouble(const std::string& text, const std::string& field) {
    if (text.empty()) {
        return core::makeError(core::ErrorCode::ParseError, field, text, "a number is expected");
    }
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) {
        return core::makeError(core::ErrorCode::ParseError, field, text, "not a number");
    }
    // ERANGE also flags underflow: a denormal such as 1e-310 is a number like any other (as in
    // every other reader); only an overflow to ±HUGE_VAL is refused.
    if (errno == ERANGE && std::isinf(value)) {
        return core::makeError(core::ErrorCode::ParseError, field, text,
                               "the number is too large for a double");
    }
    if (!std::isfinite(value)) {
        return core::makeError(core::ErrorCode::ParseError, field, text,
                               "the number must be finite");
    }
    return value;
}

core::Result<long long> parseInt(const std::string& text, const std::string& field) {
    if (text.empty()) {
        return core::makeError(core::ErrorCode::ParseError, field, text,
                               "a whole number is expected");
    }
    errno = 0;
    char* end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (errno == ERANGE) {
        return core::makeError(core::ErrorCode::ParseError, field, text,
                               "the number is too large");
    }
    if (end != text.c_str() + text.size()) {
        return core::makeError(core::ErrorCode::ParseError, field, text,
                               "not a whole number (write digits only, e.g. 1000000, not 1e6)");
    }
    return value;
}

namespace {
std::vector<std::string> splitCommas(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream stream(text);
    std::string part;
    while (std::getline(stream, part, ',')) {
        parts.push_back(part);
    }
    return parts;
}
}  // namespace

core::Result<std::vector<double>> parseDoubleList(const std::string& text,
                                                  const std::string& field) {
    std::vector<double> values;
    const auto parts = splitCommas(text);
    for (size_t i = 0; i < parts.size(); ++i) {
        core::Result<double> v = parseDouble(parts[i], field + "[" + std::to_string(i) + "]");
        if (!v) {
            return v.error();
        }
        values.push_back(*v);
    }
    if (values.empty()) {
        return core::makeError(core::ErrorCode::ParseError, field, text, "the list is empty");
    }
    return values;
}

core::Result<std::vector<int>> parseIntList(const std::string& text, const std::string& field) {
    std::vector<int> values;
    const auto parts = splitCommas(text);
    for (size_t i = 0; i < parts.size(); ++i) {
        core::Result<long long> v = parseInt(parts[i], field + "[" + std::to_string(i) + "]");
        if (!v) {
            return v.error();
        }
        if (*v < -2147483647LL || *v > 2147483647LL) {
            return core::makeError(core::ErrorCode::ParseError,
                                   field + "[" + std::to_string(i) + "]", parts[i],
                                   "the number is too large");
        }
        values.push_back(static_cast<int>(*v));
    }
    if (values.empty()) {
        return core::makeError(core::ErrorCode::ParseError, field, text, "the list is empty");
    }
    return values;
}

int fail(const core::Error& error) { return fail(error.toString()); }

int fail(const std::string& message) {
    std::cerr << "diffuscope: " << message << '\n';
    return kExitError;
}

}  // namespace app::cli
