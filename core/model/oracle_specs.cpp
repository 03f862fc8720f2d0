// SPDX-License-Identifier: MIT
#include "core/model/oracle_specs.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include "core/data/toys.h"
#include "core/util/rng.h"

namespace core::model {

using data::Digits;
using data::MixtureComponent2d;

namespace {

// A finite number (denormals included) for a `gaussian:` spec parameter.
Result<double> parseParameter(const std::string& key, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    const double v = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) {
        return invalidArgument("data " + key, text, "a finite number is expected");
    }
    return v;
}

}  // namespace

Result<std::shared_ptr<GaussianMixtureOracle>> mixtureOracle(
    std::span<const MixtureComponent2d> components) {
    std::vector<GaussianComponent> list;
    list.reserve(components.size());
    for (const MixtureComponent2d& c : components) {
        GaussianComponent g;
        g.weight = c.weight;
        g.mean = Vector2(c.meanX, c.meanY);
        g.diagonal = Vector::Constant(2, c.stddev * c.stddev);
        g.isDiagonal = true;
        list.push_back(std::move(g));
    }
    return GaussianMixtureOracle::create(std::move(list));
}

Result<std::shared_ptr<GaussianOracle>> gaussianOracleFromSpec(const std::string& spec,
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
        Result<std::shared_ptr<IsotropicGaussianOracle>> oracle =
            IsotropicGaussianOracle::create(Vector::Constant(d, m), s);
        if (!oracle) {
            return oracle.error();
        }
        return std::shared_ptr<GaussianOracle>(*oracle);
    }
    if (kind == "gmm") {
        Result<std::shared_ptr<GaussianMixtureOracle>> oracle =
            GaussianMixtureOracle::fromJsonFile(rest);
        if (!oracle) {
            return oracle.error();
        }
        return std::shared_ptr<GaussianOracle>(*oracle);
    }
    if (kind == "mixture") {
        Result<std::vector<MixtureComponent2d>> components = data::parseMixtureSpec(spec);
        if (!components) {
            return components.error();
        }
        Result<std::shared_ptr<GaussianMixtureOracle>> oracle = mixtureOracle(*components);
        if (!oracle) {
            return oracle.error();
        }
        return std::shared_ptr<GaussianOracle>(*oracle);
    }
    // A file's rows, or a 2-D toy's points (core/data/toys.h), as an empirical distribution.
    if (kind == "csv" || kind == "toy") {
        Result<Matrix> points =
            kind == "csv" ? data::readGaussianPointsCsv(rest) : data::toyFromSpec(spec);
        if (!points) {
            return points.error();
        }
        Result<std::shared_ptr<GaussianEmpiricalOracle>> oracle =
            GaussianEmpiricalOracle::create(std::move(points).value());
        if (!oracle) {
            return oracle.error();
        }
        return std::shared_ptr<GaussianOracle>(*oracle);
    }
    if (kind == "digits") {
        if (rest != "" && rest != "train" && rest != "test") {
            return invalidArgument("data", spec, "digits takes :train or :test");
        }
        if (digits == nullptr) {
            return invalidArgument("data", spec, "the digits data set is not available here");
        }
        Result<std::shared_ptr<GaussianEmpiricalOracle>> oracle =
            GaussianEmpiricalOracle::create(data::digitsPoints(*digits, rest != "test"));
        if (!oracle) {
            return oracle.error();
        }
        return std::shared_ptr<GaussianOracle>(*oracle);
    }
    return invalidArgument(
        "data", spec,
        "expected gaussian:d=D,s=S, gmm:FILE.json, mixture:w,mx,my,s;…, csv:FILE, "
        "toy:NAME or digits");
}

Result<GaussianTrainingData> gaussianTrainingData(const std::string& spec,
                                                  int count,
                                                  const Digits* digits) {
    GaussianTrainingData out;
    if (data::isDigitsSpec(spec)) {
        if (digits == nullptr) {
            return invalidArgument("data", spec, "the digits data set is not available here");
        }
        out.train = data::digitsPoints(*digits, true);
        out.heldOut = data::digitsPoints(*digits, false);
        return out;
    }
    if (spec.rfind("toy:", 0) == 0) {
        Result<Matrix> points = data::toyFromSpec(spec);
        if (!points) return points.error();
        out.train = std::move(points).value();
        const size_t comma = spec.find(',');
        Result<data::Toy> toy = data::parseToy(
            spec.substr(4, comma == std::string::npos ? std::string::npos : comma - 4));
        if (!toy) return toy.error();
        out.heldOut =
            data::makeToy(*toy, std::max(1, static_cast<int>(out.train.cols() / 10)), 0xBEEF);
        return out;
    }
    if (count < 1) {
        return invalidArgument("points", std::to_string(count), "at least one point is needed");
    }
    Result<std::shared_ptr<GaussianOracle>> oracle = gaussianOracleFromSpec(spec, digits);
    if (!oracle) return oracle.error();
    const GaussianDataSampler& sampler = **oracle;
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

}  // namespace core::model
