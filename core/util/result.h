// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <sstream>
#include <string>
#include <utility>
#include <variant>

// Failures are values: a Result<T> holds either a T or an Error that names the
// field and the offending value, so the UI can show the message beside the field.
namespace core {

enum class ErrorCode {
    InvalidArgument,  // a parameter is out of its domain
    ParseError,       // a file or a command-line value could not be read
    IoError,          // a file could not be opened, read or written
    NumericalError,   // a computation produced a non-finite value
    Cancelled,        // the observer asked to stop
    Unsupported,      // a valid request this build cannot serve
};

struct Error {
    ErrorCode code = ErrorCode::InvalidArgument;  // what kind of failure
    std::string field;                            // which parameter or file location, may be empty
    std::string value;                            // the offending value as text, may be empty
    std::string message;                          // a sentence for people

    // One line: "field = value: message" with the empty parts left out. Whatever the parts
    // hold (a line break typed into a spec), control characters come out as \n, \r, \t or
    // \xNN, as core/io's printable() writes them, so the line stays one line.
    std::string toString() const {
        std::string s;
        if (!field.empty()) {
            s += field;
            if (!value.empty()) {
                s += " = " + value;
            }
            s += ": ";
        }
        s += message;
        const auto isControl = [](char c) {
            const auto byte = static_cast<unsigned char>(c);
            return byte < 0x20 || byte == 0x7F;
        };
        if (std::none_of(s.begin(), s.end(), isControl)) return s;
        std::string line;
        for (const char c : s) {
            if (!isControl(c)) {
                line += c;
            } else if (c == '\n') {
                line += "\\n";
            } else if (c == '\r') {
                line += "\\r";
            } else if (c == '\t') {
                line += "\\t";
            } else {
                static constexpr char kHex[] = "0123456789abcdef";
                const auto byte = static_cast<unsigned char>(c);
                line += std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
            }
        }
        return line;
    }
};

// A double in the fewest digits that read back to it exactly (std::to_chars; 0.9, not
// 0.90000000000000002), independent of the locale: for files and specs.
inline std::string shortestText(double v) {
    std::array<char, 32> buffer{};  // any double's shortest form fits in 24 characters
    return std::string(buffer.data(), std::to_chars(buffer.data(), buffer.data() + buffer.size(), v).ptr);
}

// A double as error-message text, with all 17 significant digits so the value can be found.
inline std::string formatValue(double v) {
    std::ostringstream out;
    out.precision(17);
    out << v;
    return out.str();
}

inline Error makeError(ErrorCode code,
                       std::string field,
                       std::string value,
                       std::string message) {
    return Error{code, std::move(field), std::move(value), std::move(message)};
}

inline Error invalidArgument(std::string field, std::string value, std::string message) {
    return makeError(ErrorCode::InvalidArgument, std::move(field), std::move(value),
                     std::move(message));
}

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_data(std::move(value)) {}  // NOLINT: implicit by design
    Result(Error error) : m_data(std::move(error)) {}  // NOLINT

    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }

    const T& value() const& {
        assert(ok());
        return std::get<T>(m_data);
    }
    T& value() & {
        assert(ok());
        return std::get<T>(m_data);
    }
    T&& value() && {
        assert(ok());
        return std::get<T>(std::move(m_data));
    }
    const Error& error() const {
        assert(!ok());
        return std::get<Error>(m_data);
    }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }

private:
    std::variant<T, Error> m_data;
};

// Success or an Error, for operations with no value.
template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)), m_ok(false) {}  // NOLINT

    bool ok() const { return m_ok; }
    explicit operator bool() const { return m_ok; }
    const Error& error() const {
        assert(!m_ok);
        return m_error;
    }

private:
    Error m_error;
    bool m_ok = true;
};

using Status = Result<void>;

}  // namespace core
