// SPDX-License-Identifier: MIT
#include "core/categorical/prior.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/util/limits.h"

namespace core::categorical {
namespace {

Result<int> parseClassCount(const std::string& text, const std::string& field, const std::string& spec) {
    char* end = nullptr;
    errno = 0;
    const long long k = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || end != text.c_str() + text.size() || errno != 0) {
        return makeError(ErrorCode::ParseError, field, spec, "the number of classes K is not an integer");
    }
    if (Status s = limits::checkRange(limits::kClasses, field, k); !s) {
        return invalidArgument(field, spec, s.error().message);
    }
    return static_cast<int>(k);
}

}  // namespace

Result<Vector> validatePrior(const std::vector<double>& entries, const std::string& field) {
    if (entries.size() < 2) {
        return invalidArgument(field, std::to_string(entries.size()) + " entries",
                               "π needs at least 2 classes");
    }
    if (entries.size() > static_cast<size_t>(limits::kClasses.max)) {
        return invalidArgument(field, std::to_string(entries.size()) + " entries",
                               "π has at most K = " + std::to_string(limits::kClasses.max) +
                                   " classes");
    }
    double sum = 0.0;
    for (size_t i = 0; i < entries.size(); ++i) {
        const std::string name = field + "[" + std::to_string(i) + "]";
        if (std::isnan(entries[i])) {
            return invalidArgument(name, "nan", "a probability is not a number");
        }
        if (!std::isfinite(entries[i])) {
            return invalidArgument(name, formatValue(entries[i]), "a probability must be finite");
        }
        if (entries[i] < 0.0) {
            return invalidArgument(name, formatValue(entries[i]), "a probability must be ≥ 0");
        }
        sum += entries[i];
    }
    if (std::abs(sum - 1.0) > kPriorSumTolerance) {
        const size_t last = entries.size() - 1;
        return invalidArgument(field + "[" + std::to_string(last) + "]", formatValue(entries[last]),
                               "the entries of π sum to " + formatValue(sum) +
                                   ", not 1 (tolerance 1e-9)");
    }
    Vector pi(static_cast<Eigen::Index>(entries.size()));
    for (size_t i = 0; i < entries.size(); ++i) {
        pi[static_cast<Eigen::Index>(i)] = entries[i] / sum;
    }
    return pi;
}

Result<Vector> parsePrior(const std::string& spec, const std::string& field) {
    const size_t colon = spec.find(':');
    if (colon != std::string::npos) {
        const std::string kind = spec.substr(0, colon);
        if (kind != "uniform" && kind != "absorbing" && kind != "masked") {
            return makeError(ErrorCode::ParseError, field, spec,
                             "unknown prior (expected uniform:K, absorbing:K or a comma list)");
        }
        Result<int> k = parseClassCount(spec.substr(colon + 1), field, spec);
        if (!k) {
            return k.error();
        }
        if (kind == "masked") {
            if (*k + 1 > limits::kClasses.max) {
                return invalidArgument(field, spec,
                                       "masked:K adds a mask state, so K must be at most " +
                                           std::to_string(limits::kClasses.max - 1));
            }
            Vector pi = Vector::Zero(*k + 1);
            pi[*k] = 1.0;  // the mask state, a class of its own
            return pi;
        }
        if (kind == "uniform") {
            return Vector(Vector::Constant(*k, 1.0 / *k));
        }
        Vector pi = Vector::Zero(*k);
        pi[*k - 1] = 1.0;  // the last class is the mask
        return pi;
    }
    std::vector<double> entries;
    std::stringstream stream(spec);
    std::string item;
    size_t index = 0;
    while (std::getline(stream, item, ',')) {
        const size_t begin = item.find_first_not_of(" \t");
        const size_t end = item.find_last_not_of(" \t");
        const std::string text = begin == std::string::npos ? "" : item.substr(begin, end - begin + 1);
        char* stop = nullptr;
        const double v = std::strtod(text.c_str(), &stop);
        if (text.empty() || stop != text.c_str() + text.size()) {
            return makeError(ErrorCode::ParseError, field + "[" + std::to_string(index) + "]", text,
                             "not a number");
        }
        entries.push_back(v);
        ++index;
    }
    if (!spec.empty() && spec.back() == ',') {
        return makeError(ErrorCode::ParseError, field + "[" + std::to_string(index) + "]", "",
                         "not a number");
    }
    return validatePrior(entries, field);
}

int maskedPriorClasses(const std::string& spec) {
    if (spec.rfind("masked:", 0) != 0) return 0;
    auto pi = parsePrior(spec);
    return pi ? static_cast<int>(pi->size()) - 1 : 0;
}

}  // namespace core::categorical
