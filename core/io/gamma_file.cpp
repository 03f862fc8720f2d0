// SPDX-License-Identifier: MIT
#include "core/io/gamma_file.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "core/io/csv.h"
#include "core/io/reader_text.h"

namespace core::io {
namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Error corrupt(const std::string& path, const std::string& message) {
    return makeError(ErrorCode::ParseError, path, "", message);
}

Status checkValues(const std::string& path, const std::vector<double>& values) {
    for (size_t n = 1; n < values.size(); ++n) {
        if (!(std::isfinite(values[n]) && values[n] >= 0.0)) {
            return makeError(ErrorCode::ParseError, path + ": n = " + std::to_string(n),
                             formatValue(values[n]),
                             "Γ values must be finite and non-negative");
        }
    }
    return {};
}

Status checkSteps(int expectedSteps) {
    if (expectedSteps < 1) {
        return invalidArgument("N", std::to_string(expectedSteps), "needs at least 1 timestep");
    }
    return {};
}

}  // namespace

Result<GammaFile> parseGammaCsv(const std::string& text,
                                const std::string& path,
                                int expectedSteps,
                                const GammaKind* requiredKind) {
    if (Status s = checkSteps(expectedSteps); !s) {
        return s.error();
    }
    Result<CsvTable> table = parseCsv(text, path);
    if (!table) {
        return table.error();
    }
    Result<int> nColumn = findColumn(*table, "n");
    if (!nColumn) {
        return nColumn.error();
    }
    GammaFile file;
    int gammaColumn = -1;
    int msEpsColumn = -1;
    for (size_t c = 0; c < table->header.size(); ++c) {
        if (table->header[c] == "gamma") {
            gammaColumn = static_cast<int>(c);
        } else if (table->header[c] == "ms_eps") {
            msEpsColumn = static_cast<int>(c);
        }
    }
    if (gammaColumn >= 0 && msEpsColumn >= 0) {
        // Which one holds the values would be a guess; they differ by the factor β̄_n.
        return makeError(
            ErrorCode::ParseError, path + ":" + std::to_string(table->headerLine), "gamma, ms_eps",
            "a Γ file holds either a 'gamma' column (position " + std::to_string(gammaColumn + 1) +
                ") or an 'ms_eps' column (position " + std::to_string(msEpsColumn + 1) +
                "), not both");
    }
    const int valueColumn = gammaColumn >= 0 ? gammaColumn : msEpsColumn;
    file.kind = gammaColumn >= 0 ? GammaKind::Gamma : GammaKind::MsEps;
    if (valueColumn < 0) {
        return corrupt(path, "a Γ file needs a 'gamma' or an 'ms_eps' column");
    }
    if (requiredKind != nullptr && *requiredKind != file.kind) {
        return invalidArgument("gamma-kind", gammaKindName(*requiredKind),
                               path + " holds '" + gammaKindName(file.kind) + "'");
    }
    if (static_cast<int>(table->rows.size()) != expectedSteps) {
        return corrupt(path, "has " + std::to_string(table->rows.size()) +
                                 " rows, expected N = " + std::to_string(expectedSteps));
    }
    file.values.assign(static_cast<size_t>(expectedSteps) + 1, 0.0);
    for (size_t r = 0; r < table->rows.size(); ++r) {
        Result<long long> n = fieldAsInt(*table, r, *nColumn);
        if (!n) {
            return n.error();
        }
        if (*n != static_cast<long long>(r) + 1) {
            return makeError(ErrorCode::ParseError,
                             path + ":" + std::to_string(table->lineNumbers[r]),
                             std::to_string(*n),
                             "n must run 1..N in order (expected " + std::to_string(r + 1) + ")");
        }
        Result<double> v = fieldAsDouble(*table, r, static_cast<size_t>(valueColumn));
        if (!v) {
            return v.error();
        }
        file.values[r + 1] = *v;
    }
    if (Status s = checkValues(path, file.values); !s) {
        return s.error();
    }
    return file;
}

// NPY format 1.0–3.0 (numpy.lib.format): magic, version, header length, a Python dict literal.
Result<GammaFile> parseGammaNpy(const std::string& data,
                                const std::string& path,
                                int expectedSteps,
                                GammaKind kind) {
    if (Status s = checkSteps(expectedSteps); !s) {
        return s.error();
    }
    if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0) {
        return corrupt(path, "not an NPY file (bad magic)");
    }
    const int major = static_cast<unsigned char>(data[6]);
    size_t headerLength = 0;
    size_t offset = 0;
    if (major == 1) {
        headerLength = static_cast<unsigned char>(data[8]) |
                       (static_cast<size_t>(static_cast<unsigned char>(data[9])) << 8);
        offset = 10;
    } else if (major == 2 || major == 3) {
        if (data.size() < 12) {
            return corrupt(path, "truncated NPY header");
        }
        for (int i = 0; i < 4; ++i) {
            headerLength |= static_cast<size_t>(static_cast<unsigned char>(data[8 + i])) << (8 * i);
        }
        offset = 12;
    } else {
        return corrupt(path, "unsupported NPY version " + std::to_string(major));
    }
    if (offset + headerLength > data.size()) {
        return corrupt(path, "truncated NPY header");
    }
    const std::string header = data.substr(offset, headerLength);
    offset += headerLength;
    size_t itemSize = 0;
    if (header.find("'descr': '<f8'") != std::string::npos) {
        itemSize = 8;
    } else if (header.find("'descr': '<f4'") != std::string::npos) {
        itemSize = 4;
    } else {
        return corrupt(path, "the NPY array must be little-endian float32 or float64");
    }
    if (header.find("'fortran_order': False") == std::string::npos &&
        header.find("'fortran_order': True") == std::string::npos) {
        return corrupt(path, "the NPY header has no fortran_order");
    }
    const size_t shapeAt = header.find("'shape': (");
    if (shapeAt == std::string::npos) {
        return corrupt(path, "the NPY header has no shape");
    }
    const size_t shapeEnd = header.find(')', shapeAt);
    if (shapeEnd == std::string::npos) {
        return corrupt(path, "the NPY header's shape has no closing ')'");
    }
    const std::string shape = header.substr(shapeAt + 10, shapeEnd - shapeAt - 10);
    char* end = nullptr;
    const long long length = std::strtoll(shape.c_str(), &end, 10);
    // A 1-D shape reads "L," — anything after the comma means more dimensions.
    std::string tail(end);
    while (!tail.empty() && (tail.back() == ' ' || tail.back() == ',')) {
        tail.pop_back();
    }
    if (end == shape.c_str() || !tail.empty() || length < 1) {
        return corrupt(path, "the NPY array must be one-dimensional, shape (" + printable(shape) +
                                 ")");
    }
    // Compared by division: length · itemSize may not fit in size_t.
    const size_t dataBytes = data.size() - offset;
    if (dataBytes % itemSize != 0 ||
        dataBytes / itemSize != static_cast<unsigned long long>(length)) {
        return corrupt(path, "the NPY data is truncated or too long: " +
                                 std::to_string(data.size() - offset) + " bytes for " +
                                 std::to_string(length) + " values");
    }
    size_t skip = 0;
    const long long steps = expectedSteps;
    if (length == steps + 1) {
        skip = 1;  // the paper code's layout: entry 0 unused
    } else if (length != steps) {
        return corrupt(path, "holds " + std::to_string(length) + " values, expected N = " +
                                 std::to_string(steps) + " or N + 1 = " +
                                 std::to_string(steps + 1));
    }
    GammaFile file;
    file.kind = kind;
    file.values.assign(static_cast<size_t>(expectedSteps) + 1, 0.0);
    for (int n = 1; n <= expectedSteps; ++n) {
        const size_t at = offset + (static_cast<size_t>(n) - 1 + skip) * itemSize;
        if (itemSize == 8) {
            double v;
            std::memcpy(&v, data.data() + at, 8);
            file.values[n] = v;
        } else {
            float v;
            std::memcpy(&v, data.data() + at, 4);
            file.values[n] = v;
        }
    }
    if (Status s = checkValues(path, file.values); !s) {
        return s.error();
    }
    return file;
}

const char* gammaKindName(GammaKind kind) {
    return kind == GammaKind::Gamma ? "gamma" : "ms_eps";
}

Result<GammaFile> readGammaFile(const std::string& path,
                                int expectedSteps,
                                GammaKind npyKind,
                                const GammaKind* requiredKind) {
    if (Status s = checkSteps(expectedSteps); !s) {
        return s.error();
    }
    const bool npy = endsWith(path, ".npy");
    if (!npy && !endsWith(path, ".csv")) {
        return invalidArgument("gamma", path, "a Γ file must end in .csv or .npy");
    }
    Result<std::string> bytes = readTextFile(path);
    if (!bytes) {
        return bytes.error();
    }
    if (npy) {
        return parseGammaNpy(*bytes, path, expectedSteps,
                             requiredKind != nullptr ? *requiredKind : npyKind);
    }
    return parseGammaCsv(*bytes, path, expectedSteps, requiredKind);
    return invalidArgument("gamma", path, "a Γ file must end in .csv or .npy");
}

Status writeGammaCsv(const std::string& path, const std::vector<double>& values, GammaKind kind) {
    std::string text = std::string("n,") + gammaKindName(kind) + "\n";
    char buffer[64];
    for (size_t n = 1; n < values.size(); ++n) {
        std::snprintf(buffer, sizeof buffer, "%zu,%.17g\n", n, values[n]);
        text += buffer;
    }
    return writeFileAtomically(path, text);
}

Status writeGammaNpy(const std::string& path,
                     const std::vector<double>& values,
                     bool float32,
                     bool leadingZero) {
    const size_t count = leadingZero ? values.size() : values.size() - 1;
    std::string header = std::string("{'descr': '") + (float32 ? "<f4" : "<f8") +
                         "', 'fortran_order': False, 'shape': (" + std::to_string(count) +
                         ",), }";
    // Pad with spaces so that magic + version + length + header + '\n' is a multiple of 64.
    while ((10 + header.size() + 1) % 64 != 0) {
        header += ' ';
    }
    header += '\n';
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xFF);
    out += static_cast<char>((header.size() >> 8) & 0xFF);
    out += header;
    for (size_t n = leadingZero ? 0 : 1; n < values.size(); ++n) {
        const double v = n == 0 ? 0.0 : values[n];
        if (float32) {
            const float f = static_cast<float>(v);
            char bytes[4];
            std::memcpy(bytes, &f, 4);
            out.append(bytes, 4);
        } else {
            char bytes[8];
            std::memcpy(bytes, &v, 8);
            out.append(bytes, 8);
        }
    }
    return writeFileAtomically(path, out);
}

Status writeGammaFile(const std::string& path, const std::vector<double>& values, GammaKind kind) {
    if (endsWith(path, ".npy")) {
        return writeGammaNpy(path, values);
    }
    if (endsWith(path, ".csv")) {
        return writeGammaCsv(path, values, kind);
    }
    return invalidArgument("out", path, "a Γ file must end in .csv or .npy");
}

}  // namespace core::io
