// SPDX-License-Identifier: MIT
#include "core/data/gaussian_data.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

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
    return end == text.c_str() + text.size() && errno != ERANGE && std::isfinite(v);
}

Result<double> parseParameter(const std::string& key, const std::string& text) {
    if (!isNumber(text)) {
        return invalidArgument("data " + key, text, "a finite number is expected");
    }
    return std::strtod(text.c_str(), nullptr);
}

}  // namespace

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
        "data", spec, "expected gaussian:d=D,s=S, gmm:FILE.json, csv:FILE, toy:NAME or digits");
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
