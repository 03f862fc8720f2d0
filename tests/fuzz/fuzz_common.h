// SPDX-License-Identifier: MIT
#pragma once

#include <cstdlib>
#include <string>

#include "core/util/result.h"

// What every reader fuzzer checks besides "no crash": an error is one line of printable text
// (a file's bytes never reach a message raw) and names where it happened.
namespace fuzz {

inline void checkError(const core::Error& error) {
    const std::string message = error.toString();
    if (message.empty()) {
        std::abort();
    }
    for (const char c : message) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
            std::abort();  // a control character in a message
        }
    }
}

template <typename T>
void check(const core::Result<T>& result) {
    if (!result.ok()) {
        checkError(result.error());
    }
}

}  // namespace fuzz
