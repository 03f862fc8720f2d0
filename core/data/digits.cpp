// SPDX-License-Identifier: MIT
#include "core/data/digits.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "core/io/csv.h"

namespace core::data {

Result<std::string> gunzip(const std::string& compressed, const std::string& path) {
    z_stream stream{};
    // 16 + MAX_WBITS: expect a gzip header, not a raw zlib stream.
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {
        return makeError(ErrorCode::IoError, path, "", "the decompressor could not start");
    }
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    stream.avail_in = static_cast<uInt>(compressed.size());
    std::string out;
    char buffer[1 << 15];
    int status = Z_OK;
    while (status == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef*>(buffer);
        stream.avail_out = sizeof buffer;
        status = inflate(&stream, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - stream.avail_out);
        if (status == Z_BUF_ERROR && stream.avail_in == 0) {
            break;  // input ended before the stream did
        }
    }
    inflateEnd(&stream);
    if (status != Z_STREAM_END) {
        return makeError(ErrorCode::ParseError, path, "",
                         "not a complete gzip file (truncated or corrupt)");
    }
    return out;
}

Result<Digits> parseDigits(const std::string& text, const std::string& path) {
    Digits digits;
    std::istringstream in(text);
    std::string line;
    int lineNumber = 0;
    while (std::getline(in, line)) {
        ++lineNumber;
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const std::string where = path + ":" + std::to_string(lineNumber);
        const char* p = line.c_str();
        for (int column = 0; column <= kDigitsPixels; ++column) {
            errno = 0;
            char* end = nullptr;
            const long value = std::strtol(p, &end, 10);
            if (end == p || errno == ERANGE) {
                return makeError(ErrorCode::ParseError, where + " column " + std::to_string(column + 1),
                                 "", "a whole number is expected (65 per line: 64 pixels, a label)");
            }
            const bool isLabel = column == kDigitsPixels;
            const long top = isLabel ? 9 : kDigitsMaxIntensity;
            if (value < 0 || value > top) {
                return makeError(ErrorCode::ParseError, where + " column " + std::to_string(column + 1),
                                 std::to_string(value),
                                 isLabel ? "a label must lie in 0..9" : "a pixel must lie in 0..16");
            }
            (isLabel ? digits.labels : digits.pixels).push_back(static_cast<int>(value));
            p = end;
            while (*p == ' ' || *p == '\t' || *p == '\r') {
                ++p;
            }
            if (!isLabel) {
                if (*p != ',') {
                    return makeError(ErrorCode::ParseError, where, "",
                                     "the line has " + std::to_string(column + 1) +
                                         " fields, 65 are expected");
                }
                ++p;
            }
        }
        if (*p != '\0') {
            return makeError(ErrorCode::ParseError, where, "", "the line has more than 65 fields");
        }
    }
    if (digits.labels.empty()) {
        return makeError(ErrorCode::ParseError, path, "", "the file holds no images");
    }
    return digits;
}

Result<Digits> readDigits(const std::string& path) {
    Result<std::string> bytes = io::readTextFile(path);
    if (!bytes) {
        return bytes.error();
    }
    const bool gzip = bytes->size() >= 2 && static_cast<unsigned char>((*bytes)[0]) == 0x1f &&
                      static_cast<unsigned char>((*bytes)[1]) == 0x8b;
    if (!gzip) {
        return parseDigits(*bytes, path);
    }
    Result<std::string> text = gunzip(*bytes, path);
    if (!text) {
        return text.error();
    }
    return parseDigits(*text, path);
}

Result<std::vector<int>> quantiseDigits(const std::vector<int>& pixels, int levels) {
    if (levels < 2 || levels > kDigitsMaxIntensity + 1) {
        return invalidArgument("levels", std::to_string(levels), "levels must lie in 2..17");
    }
    std::vector<int> classes(pixels.size());
    for (size_t i = 0; i < pixels.size(); ++i) {
        classes[i] = pixels[i] * levels / (kDigitsMaxIntensity + 1);
    }
    return classes;
}

std::vector<double> scaleDigits(const std::vector<int>& pixels) {
    std::vector<double> values(pixels.size());
    for (size_t i = 0; i < pixels.size(); ++i) {
        values[i] = pixels[i] / 8.0 - 1.0;
    }
    return values;
}

Result<QuantisedDigits> quantisedSplit(const Digits& digits, int levels, bool trainSplit) {
    auto classes = quantiseDigits(digits.pixels, levels);
    if (!classes) return classes.error();
    const size_t split = static_cast<size_t>(digits.numTrain());
    QuantisedDigits out;
    const auto rowsBegin = classes->begin() + (trainSplit ? 0 : split * kDigitsPixels);
    const auto rowsEnd = trainSplit ? classes->begin() + split * kDigitsPixels : classes->end();
    out.rows.assign(rowsBegin, rowsEnd);
    out.labels.assign(digits.labels.begin() + (trainSplit ? 0 : split),
                      trainSplit ? digits.labels.begin() + split : digits.labels.end());
    return out;
}

Result<CategoricalTable> digitsTable(const QuantisedDigits& split, int levels) {
    std::vector<int> perLabel(10, 0);
    for (int label : split.labels) ++perLabel[label];
    std::vector<int> classes;
    std::vector<double> probability;
    std::vector<std::string> conditions;
    classes.reserve(split.rows.size());
    for (int label = 0; label < 10; ++label) {
        for (size_t i = 0; i < split.labels.size(); ++i) {
            if (split.labels[i] != label) continue;
            classes.insert(classes.end(), split.rows.begin() + i * kDigitsPixels,
                           split.rows.begin() + (i + 1) * kDigitsPixels);
            probability.push_back(1.0 / perLabel[label]);
            conditions.push_back(std::to_string(label));
        }
    }
    return makeCategoricalTable(kDigitsPixels, levels, std::move(classes), std::move(probability),
                                std::move(conditions));
}

}  // namespace core::data
