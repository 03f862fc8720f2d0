// SPDX-License-Identifier: MIT
#include "core/project/decoding_settings.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/project/chain_decoding.h"
#include "core/project/decoding_runs.h"
#include "core/project/palette.h"
#include "core/util/limits.h"

namespace core::project {

std::vector<DecodingConfig> DecodingSettings::defaultConfigs() {
    return {{"ancestral", "", "order=ancestral;values=sample"},
            {"confidence", "", "order=confidence;values=sample"},
            {"confidence, argmax", "", "order=confidence;values=argmax"},
            {"margin", "", "order=margin;values=sample"},
            {"entropy", "", "order=entropy;values=sample"},
            {"random", "", "order=random;values=sample"}};
}

Status DecodingSettings::validate() const {
    if (Status s = limits::checkCount({"the number of decoding samplers", 0, kMaxDecodingConfigs},
                                      "decoding.configs", configs.size());
        !s) {
        return s;
    }
    for (size_t i = 0; i < configs.size(); ++i) {
        const std::string prefix = "decoding.configs[" + std::to_string(i) + "].";
        const DecodingConfig& c = configs[i];
        if (Status s = limits::checkText(limits::kNameText, prefix + "name", c.name); !s) return s;
        if (Status s = limits::checkText(limits::kSpecText, prefix + "sampler", c.sampler); !s) {
            return s;
        }
        // A spec that does not parse is refused where it is read, naming its key, rather than
        // the sampler vanishing from the view and its export without a word.
        if (auto parsed = parseSamplerSpec(c.sampler, prefix + "sampler"); !parsed) {
            return parsed.error();
        }
        if (!c.colour.empty() && !isColour(c.colour)) {
            return invalidArgument(prefix + "colour", c.colour, "expected #rrggbb or empty");
        }
        for (size_t j = 0; j < i; ++j) {
            if (!c.name.empty() && configs[j].name == c.name) {
                return invalidArgument(prefix + "name", c.name,
                                       "another sampler has this name (decoding.configs[" +
                                           std::to_string(j) + "])");
            }
        }
    }
    if (chain.active()) {
        if (Status s = limits::checkText(limits::kSpecText, "decoding.chain.source", chain.source); !s) return s;
        if (Status s = limits::checkRange(limits::kChainLength, "decoding.chain.length", chain.length); !s) {
            return s;
        }
        if (chain.samples < 2 || chain.samples > limits::kSamples.max) {
            return invalidArgument("decoding.chain.samples", std::to_string(chain.samples),
                                   "Monte Carlo needs M in 2.." + std::to_string(limits::kSamples.max) +
                                       " sequences");
        }
        const long long tokens = static_cast<long long>(chain.samples) * chain.length;
        if (tokens > kChainDecodeTokens) {
            return invalidArgument("decoding.chain.samples", std::to_string(chain.samples),
                                   "M·D = " + std::to_string(tokens) + " decoded letters is more than the limit " +
                                       std::to_string(kChainDecodeTokens));
        }
    }
    if (animated < -1 || animated >= static_cast<int>(configs.size())) {
        return invalidArgument("decoding.animated", std::to_string(animated),
                               "expected -1 (the reverse sampler) or a sampler's index below " +
                                   std::to_string(configs.size()));
    }
    return {};
}

io::Json DecodingSettings::toJson() const {
    io::Json list = io::Json::array();
    for (const auto& c : configs) {
        io::Json o = {{"name", c.name}, {"sampler", c.sampler}};
        if (!c.colour.empty()) o["colour"] = c.colour;
        list.push_back(std::move(o));
    }
    io::Json out = {{"configs", std::move(list)}, {"animated", animated}};
    if (chain.active()) {
        out["chain"] = {{"source", chain.source}, {"length", chain.length}, {"samples", chain.samples}};
    }
    return out;
}

Result<DecodingSettings> DecodingSettings::fromJson(const io::Json& json) {
    if (!json.is_object()) {
        return makeError(ErrorCode::ParseError, "decoding", io::jsonValueText(json),
                         "expected an object");
    }
    const io::JsonFields read(json, "decoding.");
    DecodingSettings s;
    if (Status st = read.integerOr("animated", s.animated); !st) return st.error();
    if (const io::Json* configs = read.raw("configs")) {
        if (!configs->is_array()) {
            return makeError(ErrorCode::ParseError, "decoding.configs",
                             io::jsonValueText(*configs), "expected an array");
        }
        if (Status st = limits::checkCount({"the number of decoding samplers", 0,
                                            kMaxDecodingConfigs},
                                           "decoding.configs", configs->size());
            !st) {
            return st.error();
        }
        s.configs.clear();
        for (size_t i = 0; i < configs->size(); ++i) {
            const std::string prefix = "decoding.configs[" + std::to_string(i) + "].";
            if (!(*configs)[i].is_object()) {
                return makeError(ErrorCode::ParseError, prefix, io::jsonValueText((*configs)[i]),
                                 "expected an object");
            }
            const io::JsonFields c((*configs)[i], prefix);
            DecodingConfig config;
            for (Status st : {c.stringOr("name", config.name), c.stringOr("colour", config.colour),
                              c.stringOr("sampler", config.sampler)}) {
                if (!st) return st.error();
            }
            s.configs.push_back(std::move(config));
        }
    }
    if (const io::Json* chain = read.raw("chain")) {
        if (!chain->is_object()) {
            return makeError(ErrorCode::ParseError, "decoding.chain", io::jsonValueText(*chain),
                             "expected an object");
        }
        const io::JsonFields c(*chain, "decoding.chain.");
        for (Status st : {c.stringOr("source", s.chain.source), c.integerOr("length", s.chain.length),
                          c.integerOr("samples", s.chain.samples)}) {
            if (!st) return st.error();
        }
        if (s.chain.source.empty()) {
            return makeError(ErrorCode::ParseError, "decoding.chain.source", "\"\"",
                             "expected \"english\" or a chain file");
        }
    }
    if (Status valid = s.validate(); !valid) return valid.error();
    return s;
}

std::string decodingColour(const DecodingConfig& config, int index) {
    if (!config.colour.empty()) return config.colour;
    return paletteColour(index);
}

std::string decodingName(const DecodingConfig& config) {
    return config.name.empty() ? config.sampler : config.name;
}

std::vector<int> chainSweepSteps(int length) {
    std::vector<int> steps;
    const auto fits = [length](long long n) { return n * length <= kChainDecodeStepPositions; };
    for (long long n = 1; n < length && fits(n); n *= 2) steps.push_back(static_cast<int>(n));
    if (fits(length)) steps.push_back(length);
    return steps;
}

std::vector<int> decodingSweepSteps(int positions) {
    std::vector<int> steps;
    const long long top = 4LL * std::max(1, positions);
    for (long long n = 1;; n *= 2) {
        steps.push_back(static_cast<int>(n));
        if (n >= top) break;
    }
    return steps;
}

}  // namespace core::project
