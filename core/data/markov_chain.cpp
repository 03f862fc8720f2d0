// SPDX-License-Identifier: MIT
#include "core/data/markov_chain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "core/io/csv.h"
#include "core/io/json.h"
#include "core/util/limits.h"

namespace core::data {

namespace {

// A probability vector read from JSON: finite entries ≥ 0 summing to 1 within the tolerance,
// kept as written (a chain reopens to the bit). `field` names it in errors
// ("chain.json: transition[3]").
Status checkProbabilities(std::vector<double>& p, const std::string& field) {
    double sum = 0.0;
    for (size_t i = 0; i < p.size(); ++i) {
        if (!std::isfinite(p[i]) || p[i] < 0.0) {
            return makeError(ErrorCode::ParseError, field + "[" + std::to_string(i) + "]", formatValue(p[i]),
                             "a probability must be finite and ≥ 0");
        }
        sum += p[i];
    }
    if (std::abs(sum - 1.0) > kChainSumTolerance) {
        char text[32];
        std::snprintf(text, sizeof text, "%.10g", sum);  // 1.1, not 1.1000000000000001
        return makeError(ErrorCode::ParseError, field, std::string("sum ") + text,
                         "the entries must sum to 1 (within 1e-9)");
    }
    return {};
}

double entropyOf(const double* p, int k) {
    double h = 0.0;
    for (int i = 0; i < k; ++i) {
        if (p[i] > 0.0) h -= p[i] * std::log(p[i]);
    }
    return h;
}

}  // namespace

Result<MarkovChain> parseMarkovChain(const std::string& text, const std::string& where) {
    Result<io::Json> json = io::parseJsonStrict(text, where);
    if (!json) return json.error();
    if (!json->is_object()) {
        return makeError(ErrorCode::ParseError, where, io::jsonValueText(*json),
                         "a Markov chain is an object {\"states\", \"initial\", \"transition\"}");
    }
    const io::JsonFields fields(*json, where + ": ");
    MarkovChain chain;
    Result<std::vector<std::string>> states = fields.strings("states");
    if (!states) return states.error();
    chain.states = std::move(*states);
    const int k = chain.numStates();
    if (k < limits::kChainStates.min || k > limits::kChainStates.max) {
        return makeError(ErrorCode::ParseError, where + ": states", std::to_string(k) + " states",
                         std::string(limits::kChainStates.what) + " must lie in " +
                             std::to_string(limits::kChainStates.min) + ".." +
                             std::to_string(limits::kChainStates.max));
    }
    std::set<std::string> seen;
    for (int i = 0; i < k; ++i) {
        const std::string& name = chain.states[static_cast<size_t>(i)];
        const std::string field = where + ": states[" + std::to_string(i) + "]";
        if (name.empty()) return makeError(ErrorCode::ParseError, field, "\"\"", "a state needs a name");
        if (!seen.insert(name).second) {
            return makeError(ErrorCode::ParseError, field, "\"" + name + "\"", "this name is given twice");
        }
    }
    Result<std::vector<double>> initial = fields.numbers("initial");
    if (!initial) return initial.error();
    if (initial->size() != static_cast<size_t>(k)) {
        return makeError(ErrorCode::ParseError, where + ": initial", std::to_string(initial->size()) + " entries",
                         "one probability per state is expected (" + std::to_string(k) + ")");
    }
    if (Status s = checkProbabilities(*initial, where + ": initial"); !s) return s.error();
    chain.initial = std::move(*initial);
    const io::Json* rows = fields.raw("transition");
    if (rows == nullptr || !rows->is_array() || rows->size() != static_cast<size_t>(k)) {
        return makeError(ErrorCode::ParseError, where + ": transition",
                         rows == nullptr ? "missing" : io::jsonValueText(*rows).substr(0, 40),
                         "a list of K = " + std::to_string(k) + " rows of K probabilities is expected");
    }
    chain.transition.reserve(static_cast<size_t>(k) * k);
    for (int a = 0; a < k; ++a) {
        const std::string field = where + ": transition[" + std::to_string(a) + "]";
        Result<std::vector<double>> row = io::jsonNumbers((*rows)[static_cast<size_t>(a)], field);
        if (!row) return row.error();
        if (row->size() != static_cast<size_t>(k)) {
            return makeError(ErrorCode::ParseError, field, std::to_string(row->size()) + " entries",
                             "one probability per state is expected (" + std::to_string(k) + ")");
        }
        if (Status s = checkProbabilities(*row, field); !s) return s.error();
        chain.transition.insert(chain.transition.end(), row->begin(), row->end());
    }
    if (fields.has("source")) {
        Result<std::string> source = fields.string("source");
        if (!source) return source.error();
        chain.source = *source;
    }
    return chain;
}

Result<MarkovChain> readMarkovChain(const std::string& path) {
    Result<std::string> text = io::readTextFile(path);
    if (!text) return text.error();
    return parseMarkovChain(*text, path);
}

std::string markovChainJsonText(const MarkovChain& chain) {
    io::Json json;
    if (!chain.source.empty()) json["source"] = chain.source;
    json["states"] = chain.states;
    json["initial"] = chain.initial;
    const int k = chain.numStates();
    io::Json rows = io::Json::array();
    for (int a = 0; a < k; ++a) {
        rows.push_back(std::vector<double>(chain.transition.begin() + static_cast<std::ptrdiff_t>(a) * k,
                                           chain.transition.begin() + static_cast<std::ptrdiff_t>(a + 1) * k));
    }
    json["transition"] = std::move(rows);
    return io::dumpJson(json);
}

std::vector<double> chainMarginals(const MarkovChain& chain, int length) {
    const int k = chain.numStates();
    std::vector<double> p(static_cast<size_t>(length) * k, 0.0);
    std::copy(chain.initial.begin(), chain.initial.end(), p.begin());
    for (int d = 1; d < length; ++d) {
        const double* prev = p.data() + static_cast<size_t>(d - 1) * k;
        double* next = p.data() + static_cast<size_t>(d) * k;
        for (int a = 0; a < k; ++a) {
            for (int b = 0; b < k; ++b) next[b] += prev[a] * chain.at(a, b);
        }
    }
    return p;
}

double chainEntropyPerToken(const MarkovChain& chain, int length) {
    const int k = chain.numStates();
    const std::vector<double> p = chainMarginals(chain, length);
    std::vector<double> rowEntropy(static_cast<size_t>(k));
    for (int a = 0; a < k; ++a) rowEntropy[static_cast<size_t>(a)] = entropyOf(chain.transition.data() + static_cast<size_t>(a) * k, k);
    double h = entropyOf(chain.initial.data(), k);
    for (int d = 1; d < length; ++d) {
        for (int a = 0; a < k; ++a) h += p[static_cast<size_t>(d - 1) * k + a] * rowEntropy[static_cast<size_t>(a)];
    }
    return h / length;
}

double chainNegativeLogLikelihood(const MarkovChain& chain, const uint8_t* x, int length) {
    double nll = -std::log(chain.initial[x[0]]);
    for (int d = 1; d < length; ++d) nll -= std::log(chain.at(x[d - 1], x[d]));
    return nll;
}

Result<ChainFit> fitEnglishChain(std::string_view text, double alpha, const std::string& where) {
    if (!std::isfinite(alpha) || alpha < 0.0) {
        return invalidArgument("--alpha", formatValue(alpha), "the smoothing α must be finite and ≥ 0");
    }
    ChainFit fit;
    MarkovChain& chain = fit.chain;
    for (char c = 'a'; c <= 'z'; ++c) chain.states.emplace_back(1, c);
    chain.states.emplace_back(" ");
    chain.states.emplace_back(".");
    const int k = chain.numStates();
    const int space = k - 2;
    const int stop = k - 1;
    std::vector<int> folded;
    folded.reserve(text.size());
    const auto push = [&](int state) {
        if (state == space && (folded.empty() || folded.back() == space)) return;  // runs: one space
        folded.push_back(state);
    };
    for (size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x80) {
            const char c = static_cast<char>(byte);
            if (c >= 'a' && c <= 'z') {
                push(c - 'a');
            } else if (c >= 'A' && c <= 'Z') {
                push(c - 'A');
            } else if (c == '.' || c == '!' || c == '?') {
                push(stop);
            } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
                push(space);
            } else {
                ++fit.outside[std::string(1, c)];
            }
            ++i;
            continue;
        }
        // A UTF-8 sequence is one character outside the alphabet; a byte that starts none (a
        // stray continuation byte, a cut sequence) is named as \xNN.
        const size_t length = byte >= 0xF8 ? 0 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 0;
        bool whole = length > 0 && i + length <= text.size();
        for (size_t j = 1; whole && j < length; ++j) whole = (static_cast<unsigned char>(text[i + j]) & 0xC0) == 0x80;
        if (whole) {
            ++fit.outside[std::string(text.substr(i, length))];
            i += length;
        } else {
            static constexpr char kHex[] = "0123456789abcdef";
            ++fit.outside[std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15]];
            ++i;
        }
    }
    if (folded.size() < 2) {
        return makeError(ErrorCode::InvalidArgument, where, std::to_string(folded.size()) + " characters",
                         "the text needs at least 2 characters of the alphabet a–z, space and . ! ?");
    }
    fit.characters = static_cast<int64_t>(folded.size());
    std::vector<double> pairs(static_cast<size_t>(k) * k, 0.0), from(static_cast<size_t>(k), 0.0),
        count(static_cast<size_t>(k), 0.0);
    for (size_t i = 0; i < folded.size(); ++i) {
        count[static_cast<size_t>(folded[i])] += 1.0;
        if (i + 1 < folded.size()) {
            pairs[static_cast<size_t>(folded[i]) * k + folded[i + 1]] += 1.0;
            from[static_cast<size_t>(folded[i])] += 1.0;
        }
    }
    chain.initial.resize(static_cast<size_t>(k));
    for (int a = 0; a < k; ++a) {
        chain.initial[static_cast<size_t>(a)] = (count[static_cast<size_t>(a)] + alpha) / (static_cast<double>(folded.size()) + k * alpha);
    }
    chain.transition.resize(static_cast<size_t>(k) * k);
    for (int a = 0; a < k; ++a) {
        const double total = from[static_cast<size_t>(a)] + k * alpha;
        for (int b = 0; b < k; ++b) {
            // A state never followed by another (α = 0) stays where it is: rows must sum to 1.
            chain.transition[static_cast<size_t>(a) * k + b] =
                total > 0.0 ? (pairs[static_cast<size_t>(a) * k + b] + alpha) / total : (a == b ? 1.0 : 0.0);
        }
    }
    return fit;
}

}  // namespace core::data
