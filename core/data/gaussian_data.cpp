// SPDX-License-Identifier: MIT
#include "core/data/gaussian_data.h"

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "core/data/toys.h"
#include "core/io/csv.h"
#include "core/io/reader_text.h"
#include "core/util/rng.h"

namespace core::data {
namespace {

bool isNumber(const std::string& text) {
    if (text.empty()) {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(v);  // denormals are numbers
}

constexpr std::string_view kMixturePrefix = "mixture:";

std::string_view trimmed(std::string_view text) {
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// std::from_chars, unlike strtod, ignores the locale and reads back to_chars' digits exactly.
bool parseFinite(std::string_view text, double& out) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return !text.empty() && ec == std::errc() && ptr == end && std::isfinite(out);
}

// The pieces of `text` between `separator`s (as many as separators + 1).
std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (size_t at = text.find(separator); at != std::string_view::npos;
         at = text.find(separator, start)) {
        parts.push_back(text.substr(start, at - start));
        start = at + 1;
    }
    parts.push_back(text.substr(start));
    return parts;
}

Result<MixtureComponent2d> parseMixtureComponent(std::string_view text, size_t k) {
    const std::string field = "data mixture[" + std::to_string(k) + "]";
    if (trimmed(text).empty()) {
        return invalidArgument(field, "", "the component is empty; expected w,mx,my,s");
    }
    const std::vector<std::string_view> parts = split(text, ',');
    if (parts.size() != 4) {
        return invalidArgument(field, io::printable(std::string(text)),
                               "a component is 4 numbers w,mx,my,s; found " +
                                   std::to_string(parts.size()) + " fields");
    }
    static constexpr std::array<const char*, 4> kNames{"weight", "mx", "my", "s"};
    std::array<double, 4> values{};
    for (size_t i = 0; i < parts.size(); ++i) {
        if (!parseFinite(trimmed(parts[i]), values[i])) {
            return invalidArgument(field + "." + kNames[i], io::printable(std::string(trimmed(parts[i]))),
                                   "a finite number is expected");
        }
    }
    const MixtureComponent2d c{values[0], values[1], values[2], values[3]};
    if (!(c.weight > 0.0)) {
        return invalidArgument(field + ".weight", io::printable(std::string(trimmed(parts[0]))),
                               "the weight must be > 0");
    }
    // s² is what the oracle uses: it must neither underflow to 0 nor overflow.
    const double variance = c.stddev * c.stddev;
    if (!(c.stddev > 0.0 && variance > 0.0 && std::isfinite(variance))) {
        return invalidArgument(field + ".s", io::printable(std::string(trimmed(parts[3]))),
                               "the standard deviation must be > 0");
    }
    return c;
}

}  // namespace

bool isMixtureSpec(const std::string& spec) { return spec.starts_with(kMixturePrefix); }

Result<std::vector<MixtureComponent2d>> parseMixtureSpec(const std::string& spec) {
    if (!isMixtureSpec(spec)) {
        return invalidArgument("data", io::printable(spec), "a mixture spec starts with mixture:");
    }
    const std::string_view list = std::string_view(spec).substr(kMixturePrefix.size());
    if (trimmed(list).empty()) {
        return invalidArgument("data", io::printable(spec),
                               "a mixture needs 1 to " + std::to_string(kMaxMixtureComponents) +
                                   " components w,mx,my,s separated by ;");
    }
    const std::vector<std::string_view> parts = split(list, ';');
    if (parts.size() > static_cast<size_t>(kMaxMixtureComponents)) {
        return invalidArgument(
            "data", std::to_string(parts.size()) + " components",
            "a mixture has at most " + std::to_string(kMaxMixtureComponents) + " components");
    }
    std::vector<MixtureComponent2d> components;
    double totalWeight = 0.0;
    for (size_t k = 0; k < parts.size(); ++k) {
        Result<MixtureComponent2d> c = parseMixtureComponent(parts[k], k);
        if (!c) {
            return c.error();
        }
        totalWeight += c->weight;
        components.push_back(*c);
    }
    // The oracle normalises by the sum, which must itself be a finite number.
    if (!std::isfinite(totalWeight)) {
        return invalidArgument("data mixture weights", formatValue(totalWeight),
                               "the sum of the weights must be finite");
    }
    return components;
}

std::string formatMixtureSpec(std::span<const MixtureComponent2d> components) {
    std::string out(kMixturePrefix);
    auto append = [&](double v) { out += shortestText(v); };
    for (size_t k = 0; k < components.size(); ++k) {
        const MixtureComponent2d& c = components[k];
        if (k > 0) {
            out += ';';
        }
        append(c.weight);
        out += ',';
        append(c.meanX);
        out += ',';
        append(c.meanY);
        out += ',';
        append(c.stddev);
    }
    return out;
}

Result<Matrix> readGaussianPointsCsv(const std::string& path) {
    Result<io::CsvTable> table = io::readCsv(path, /*hasHeader=*/false);
    if (!table) {
        return table.error();
    }
    size_t first = 0;
    if (!table->rows.empty()) {
        bool numeric = true;
        for (const std::string& field : table->rows.front()) {
            numeric = numeric && isNumber(field);
        }
        first = numeric ? 0 : 1;  // a header line
    }
    if (first == 1) {
        // A header names the coordinates in order, each once: x1..xd (or x, y, z for d ≤ 3).
        const std::vector<std::string>& header = table->rows.front();
        const char* const xyz[] = {"x", "y", "z"};
        for (size_t c = 0; c < header.size(); ++c) {
            const std::string numbered = "x" + std::to_string(c + 1);
            if (header[c] == numbered || (header.size() <= 3 && header[c] == xyz[c])) continue;
            const std::string where = path + ": column " + std::to_string(c + 1);
            const std::string value = "\"" + io::printable(header[c]) + "\"";
            for (size_t e = 0; e < c; ++e) {
                if (header[e] == header[c]) {
                    return makeError(ErrorCode::ParseError, where, value,
                                     "the column name repeats column " + std::to_string(e + 1) +
                                         "; the columns are the coordinates x1..xd, each once");
                }
            }
            return makeError(ErrorCode::ParseError, where, value,
                             "expected " + numbered +
                                 (header.size() <= 3 ? " or " + std::string(xyz[c]) : "") +
                                 ": the columns are the coordinates x1..xd, in order");
        }
    }
    if (table->rows.size() <= first) {
        return makeError(ErrorCode::ParseError, path, "", "the file holds no data rows");
    }
    const Eigen::Index d = static_cast<Eigen::Index>(table->rows.front().size());
    Matrix points(d, static_cast<Eigen::Index>(table->rows.size() - first));
    for (size_t r = first; r < table->rows.size(); ++r) {
        for (Eigen::Index c = 0; c < d; ++c) {
            Result<double> v = io::fieldAsDouble(*table, r, static_cast<size_t>(c));
            if (!v) {
                return v.error();
            }
            points(c, static_cast<Eigen::Index>(r - first)) = *v;
        }
    }
    return points;
}

bool isDigitsSpec(const std::string& spec) { return spec.rfind("digits", 0) == 0; }

Matrix digitsPoints(const Digits& digits, bool trainSplit) {
    const int first = trainSplit ? 0 : digits.numTrain();
    const int last = trainSplit ? digits.numTrain() : digits.numImages();
    Matrix points(kDigitsPixels, std::max(0, last - first));
    for (int i = first; i < last; ++i) {
        const int* image = digits.image(i);
        for (int p = 0; p < kDigitsPixels; ++p) {
            points(p, i - first) = image[p] / 8.0 - 1.0;  // scaleDigits: the 17-level grid
        }
    }
    return points;
}

}  // namespace core::data
