// SPDX-License-Identifier: MIT
#include "app/cli/args.h"

#include <cassert>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>

#include "core/io/reader_text.h"
#include "core/util/parallel.h"

namespace app::cli {

namespace {

bool isOption(const std::string& word) { return word.rfind("--", 0) == 0 && word.size() > 2; }

// The values a flag may be given explicitly; "" is a bare --flag.
std::optional<bool> flagValue(const std::string& value) {
    if (value.empty() || value == "1" || value == "true") {
        return true;
    }
    if (value == "0" || value == "false") {
        return false;
    }
    return std::nullopt;
}

}  // namespace

core::Result<Args> Args::parse(const std::vector<std::string>& argv, const CommandSpec& spec) {
    Args args;
    args.m_spec = &spec;
    if (!argv.empty()) {
        args.m_command = argv[0];
    }
    for (size_t i = 1; i < argv.size(); ++i) {
        const std::string& word = argv[i];
        if (!isOption(word)) {
            // -h as well as --help, as for `diffuscope -h`.
            if (word == "-h") {
                args.m_help = true;
            } else {
                args.m_positionals.push_back(word);
            }
            continue;
        }
        std::string key = word.substr(2);
        std::string value;
        if (const size_t eq = key.find('='); eq != std::string::npos) {
            value = key.substr(eq + 1);
            key = key.substr(0, eq);
        } else if (i + 1 < argv.size() && !isOption(argv[i + 1])) {
            // Any option takes the next word that is not an option, a flag too (--frames 1):
            // check() then refuses what does not fit rather than leaving a stray positional.
            value = argv[++i];
        }
        const Option* option = spec.find(key);
        if (option != nullptr && option->kind == OptionKind::Repeated) {
            args.m_repeats[key].push_back(value);
            if (args.m_options.count(key) > 0) {
                if (value.empty()) {  // the first one is checked by check()
                    return core::makeError(
                        core::ErrorCode::ParseError, "--" + key, "",
                        "a value is expected (--" + key + " " + option->placeholder + ")");
                }
                continue;
            }
        } else if (args.m_options.count(key) > 0) {
            return core::makeError(core::ErrorCode::ParseError, "--" + key, value,
                                   "the option is given twice");
        }
        args.m_options[key] = value;
        args.m_order.push_back(key);
        args.m_help = args.m_help || key == "help";
    }
    if (!args.m_help) {
        if (core::Status valid = args.check(); !valid) {
            return valid.error();
        }
    }
    return args;
}

core::Status Args::check() const {
    for (const std::string& key : m_order) {
        const std::string& value = m_options.at(key);
        const Option* option = m_spec->find(key);
        if (option == nullptr) {
            return core::makeError(core::ErrorCode::ParseError, "--" + key, value,
                                   "unknown option for '" + m_command + "'");
        }
        if (option->kind == OptionKind::Flag && !flagValue(value)) {
            return core::makeError(core::ErrorCode::ParseError, "--" + key, value,
                                   "a flag takes no value, or 1/0, true/false");
        }
        // A seed keys counter-based draws as an unsigned number: -1 would wrap to 2⁶⁴ − 1.
        if (key == "seed" && !value.empty() && value.find_first_not_of("0123456789") == 0) {
            return core::makeError(core::ErrorCode::InvalidArgument, "--seed", value,
                                   "a seed is a whole number from 0 to " +
                                       std::to_string(std::numeric_limits<long long>::max()));
        }
        // "--steps=" or "--steps" with nothing after it: refused here, naming the option,
        // rather than read as an empty spec or file name further on.
        if (option->kind != OptionKind::Flag && value.empty()) {
            return core::makeError(core::ErrorCode::ParseError, "--" + key, "",
                                   "a value is expected (--" + key + " " + option->placeholder +
                                       " or --" + key + "=" + option->placeholder + ")");
        }
    }
    if (!m_positionals.empty() && m_spec->operands.empty()) {
        return core::makeError(core::ErrorCode::ParseError, "", "",
                               "unexpected argument '" + m_positionals.front() + "' for '" +
                                   m_command + "' (options start with --)");
    }
    return {};
}

bool Args::flag(const std::string& key) const {
    const auto it = m_options.find(key);
    return it != m_options.end() && flagValue(it->second).value_or(false);
}

std::string Args::get(const std::string& key) const {
    const auto it = m_options.find(key);
    if (it != m_options.end()) {
        return it->second;
    }
    const Option* option = m_spec != nullptr ? m_spec->find(key) : nullptr;
    assert(option != nullptr && "every option a command reads is in its table");
    return option != nullptr ? option->defaultValue : std::string();
}

std::vector<std::string> Args::getAll(const std::string& key) const {
    const auto it = m_repeats.find(key);
    return it != m_repeats.end() ? it->second : std::vector<std::string>{};
}

std::string Args::getOr(const std::string& key, const std::string& fallback) const {
    return has(key) ? get(key) : fallback;
}

core::Result<std::string> Args::require(const std::string& key) const {
    std::string value = get(key);
    if (value.empty()) {
        return core::makeError(core::ErrorCode::ParseError, "--" + key, "",
                               "this option is required");
    }
    return value;
}

core::Result<int> Args::getInt(const std::string& key) const {
    core::Result<long long> value = getInt64(key);
    if (!value) {
        return value.error();
    }
    if (*value < -2147483647LL || *value > 2147483647LL) {
        return core::makeError(core::ErrorCode::ParseError, "--" + key, get(key),
                               "the number is too large");
    }
    return static_cast<int>(*value);
}

core::Result<long long> Args::getInt64(const std::string& key) const {
    core::Result<std::string> text = require(key);
    if (!text) {
        return text.error();
    }
    return parseInt(*text, "--" + key);
}

core::Result<double> Args::getDouble(const std::string& key) const {
    core::Result<std::string> text = require(key);
    if (!text) {
        return text.error();
    }
    return parseDouble(*text, "--" + key);
}

core::Result<int> Args::getBounded(const std::string& key,
                                   const core::limits::IntRange& range) const {
    core::Result<std::string> text = require(key);
    if (!text) {
        return text.error();
    }
    return parseBounded(*text, "--" + key, range);
}

core::Result<int> Args::getBounded(const std::string& key,
                                   const core::limits::IntRange& range,
                                   int fallback) const {
    return has(key) ? getBounded(key, range) : fallback;
}

core::Result<int> parseBounded(const std::string& text,
                               const std::string& field,
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
        return core::makeError(core::ErrorCode::ParseError, field, text, "the number is too large");
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
    // One line of valid UTF-8 whatever a file put into the message.
    std::cerr << "diffuscope: " << core::io::printable(message, message.size()) << '\n';
    return kExitError;
}

std::vector<std::pair<std::string, std::string>> Args::given() const {
    std::vector<std::pair<std::string, std::string>> all;
    for (const std::string& key : m_order) {
        if (auto repeated = m_repeats.find(key); repeated != m_repeats.end()) {
            for (const std::string& value : repeated->second) all.emplace_back(key, value);
        } else if (auto single = m_options.find(key); single != m_options.end()) {
            all.emplace_back(key, single->second);
        }
    }
    return all;
}

core::Result<int> threadCount(const Args& args) {
    return args.getBounded("threads", core::limits::kThreads, core::defaultThreads());
}

}  // namespace app::cli
