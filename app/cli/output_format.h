// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

// How the subcommands print numbers, in one place: CSV cells with 17 significant digits and
// JSON through nlohmann-json. Both read back to the same double exactly.
namespace app::cli {

// A CSV cell: %.17g (1 for 1.0, 1e+20), and an empty cell for a value that is not finite, as
// the GUI's exported tables have.
inline std::string csvNumber(double v) {
    if (!std::isfinite(v)) {
        return {};
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

// `json` on one line and a newline. Keys keep their insertion order (ordered_json); doubles are
// written in the shortest form that reads back exactly (1.0 stays 1.0), a non-finite one as
// null; a string that is not valid UTF-8 has its bad bytes replaced rather than throwing.
inline void printJson(std::ostream& out, const nlohmann::ordered_json& json) {
    out << json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

}  // namespace app::cli
