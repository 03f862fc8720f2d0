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

Result<double> parseParameter(const std::string& key, const std::string& text) {
    if (!isNumber(text)) {
        return invalidArgument("data " + key, text, "a finite number is expected");
    }
    return std::strtod(text.c_str(), nullptr);
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
        return invalidArgument(field, std::string(text),
                               "a component is 4 numbers w,mx,my,s; found " +
                                   std::to_string(parts.size()) + " fields");
    }
    static constexpr std::array<const char*, 4> kNames{"weight", "mx", "my", "s"};
    std::array<double, 4> values{};
    for (size_t i = 0; i < parts.size(); ++i) {
        if (!parseFinite(trimmed(parts[i]), values[i])) {
            return invalidArgument(field + "." + kNames[i], std::string(trimmed(parts[i])),
                                   "a finite number is expected");
        }
    }
    const MixtureComponent2d c{values[0], values[1], values[2], values[3]};
    if (!(c.weight > 0.0)) {
        return invalidArgument(field + ".weight", std::string(trimmed(parts[0])),
                               "the weight must be > 0");
    }
    // s² is what the oracle uses: it must neither underflow to 0 nor overflow.
    const double variance = c.stddev * c.stddev;
    if (!(c.stddev > 0.0 && variance > 0.0 && std::isfinite(variance))) {
        return invalidArgument(field + ".s", std::string(trimmed(parts[3])),
                               "the standard deviation must be > 0");
    }
    return c;
}

}  // namespace

bool isMixtureSpec(const std::string& spec) { return spec.starts_with(kMixturePrefix); }

Result<std::vector<MixtureComponent2d>> parseMixtureSpec(const std::string& spec) {
    if (!isMixtureSpec(spec)) {
        return invalidArgument("data", spec, "a mixture spec starts with mixture:");
    }
    const std::string_view list = std::string_view(spec).substr(kMixturePrefix.size());
    if (trimmed(list).empty()) {
        return invalidArgument("data", spec,
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

Result<std::shared_ptr<model::GaussianMixtureOracle>> mixtureOracle(
    std::span<const MixtureComponent2d> components) {
    std::vector<model::GaussianComponent> list;
    list.reserve(components.size());
    for (const MixtureComponent2d& c : components) {
        model::GaussianComponent g;
        g.weight = c.weight;
        g.mean = Vector2(c.meanX, c.meanY);
        g.diagonal = Vector::Constant(2, c.stddev * c.stddev);
        g.isDiagonal = true;
        list.push_back(std::move(g));
    }
    return model::GaussianMixtureOracle::create(std::move(list));
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

Result<std::shared_ptr<model::GaussianOracle>> gaussianOracleFromSpec(const std::string& spec,
                                                                      const Digits* digits) {
    const size_t colon = spec.find(':');
    const std::string kind = spec.substr(0, colon);
    const std::string rest = colon == std::string::npos ? std::string() : spec.substr(colon + 1);
    if (kind == "gaussian") {
        int d = 2;
        double s = 1.0;
        double m = 0.0;
        std::stringstream stream(rest);
        std::string part;
        while (std::getline(stream, part, ',')) {
            if (part.empty()) {
                continue;
            }
            const size_t eq = part.find('=');
            const std::string key = part.substr(0, eq);
            const std::string value = eq == std::string::npos ? std::string() : part.substr(eq + 1);
            Result<double> number = parseParameter(key, value);
            if (!number) {
                return number.error();
            }
            if (key == "d") {
                if (*number < 1 || *number > 1e6 || *number != std::floor(*number)) {
                    return invalidArgument("data d", value, "a whole dimension ≥ 1 is expected");
                }
                d = static_cast<int>(*number);
            } else if (key == "s") {
                s = *number;
            } else if (key == "m") {
                m = *number;
            } else {
                return invalidArgument("data", part, "gaussian: takes d=, s= and m=");
            }
        }
        Result<std::shared_ptr<model::IsotropicGaussianOracle>> oracle =
            model::IsotropicGaussianOracle::create(Vector::Constant(d, m), s);
        if (!oracle) {
            return oracle.error();
        }
        return std::shared_ptr<model::GaussianOracle>(*oracle);
    }
    if (kind == "gmm") {
        Result<std::shared_ptr<model::GaussianMixtureOracle>> oracle =
            model::GaussianMixtureOracle::fromJsonFile(rest);
        if (!oracle) {
            return oracle.error();
        }
        return std::shared_ptr<model::GaussianOracle>(*oracle);
    }
    if (kind == "mixture") {
        Result<std::vector<MixtureComponent2d>> components = parseMixtureSpec(spec);
        if (!components) {
            return components.error();
        }
        Result<std::shared_ptr<model::GaussianMixtureOracle>> oracle = mixtureOracle(*components);
        if (!oracle) {
            return oracle.error();
        }
        return std::shared_ptr<model::GaussianOracle>(*oracle);
    }
    // A file's rows, or a 2-D toy's points (core/data/toys.h), as an empirical distribution.
    if (kind == "csv" || kind == "toy") {
        Result<Matrix> points = kind == "csv" ? readGaussianPointsCsv(rest) : toyFromSpec(spec);
        if (!points) {
            return points.error();
        }
        Result<std::shared_ptr<model::GaussianEmpiricalOracle>> oracle =
            model::GaussianEmpiricalOracle::create(std::move(points).value());
        if (!oracle) {
            return oracle.error();
        }
        return std::shared_ptr<model::GaussianOracle>(*oracle);
    }
    if (kind == "digits") {
        if (rest != "" && rest != "train" && rest != "test") {
            return invalidArgument("data", spec, "digits takes :train or :test");
        }
        if (digits == nullptr) {
            return invalidArgument("data", spec, "the digits data set is not available here");
        }
        Result<std::shared_ptr<model::GaussianEmpiricalOracle>> oracle =
            model::GaussianEmpiricalOracle::create(digitsPoints(*digits, rest != "test"));
        if (!oracle) {
            return oracle.error();
        }
        return std::shared_ptr<model::GaussianOracle>(*oracle);
    }
    return invalidArgument(
        "data", spec,
        "expected gaussian:d=D,s=S, gmm:FILE.json, mixture:w,mx,my,s;…, csv:FILE, "
        "toy:NAME or digits");
}

Result<GaussianTrainingData> gaussianTrainingData(const std::string& spec, int count,
                                                  const Digits* digits) {
    GaussianTrainingData out;
    if (isDigitsSpec(spec)) {
        if (digits == nullptr) {
            return invalidArgument("data", spec, "the digits data set is not available here");
        }
        out.train = digitsPoints(*digits, true);
        out.heldOut = digitsPoints(*digits, false);
        return out;
    }
    if (spec.rfind("toy:", 0) == 0) {
        Result<Matrix> points = toyFromSpec(spec);
        if (!points) return points.error();
        out.train = std::move(points).value();
        const size_t comma = spec.find(',');
        Result<Toy> toy = parseToy(spec.substr(4, comma == std::string::npos ? std::string::npos
                                                                             : comma - 4));
        if (!toy) return toy.error();
        out.heldOut = makeToy(*toy, std::max(1, static_cast<int>(out.train.cols() / 10)), 0xBEEF);
        return out;
    }
    if (count < 1) {
        return invalidArgument("points", std::to_string(count), "at least one point is needed");
    }
    Result<std::shared_ptr<model::GaussianOracle>> oracle = gaussianOracleFromSpec(spec, digits);
    if (!oracle) return oracle.error();
    const model::GaussianDataSampler& sampler = **oracle;
    const int d = sampler.dimension();
    auto draw = [&](int points, uint64_t key) {
        Matrix m(d, points);
        Vector x(d);
        for (int i = 0; i < points; ++i) {
            CounterRng rng(key, static_cast<uint64_t>(i), 0xDA7A);
            sampler.sampleData(static_cast<uint64_t>(i), rng, x);
            m.col(i) = x;
        }
        return m;
    };
    out.train = draw(count, 1);
    out.heldOut = draw(std::max(1, count / 10), 2);
    return out;
}

}  // namespace core::data
