// SPDX-License-Identifier: MIT
#include "core/categorical/decoding.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include <algorithm>
#include <array>
#include <functional>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <cstring>
#include <tuple>

#include "core/categorical/masked_elbo.h"
#include "core/util/limits.h"
#include "core/util/rng.h"
#include "core/util/torch_linspace.h"

namespace core::categorical {

namespace {
// The tempered weights are log p / τ: below this τ they overflow for the smallest p a double
// holds (log p ≥ −745), and every weight became −∞ (an empty law, exit 0). τ → 0 is argmax.
constexpr double kMinTemperature = 1e-300;
// Exact decoding's work limit in enumerated outcomes (exactRunOutcomes): minutes at most.
constexpr double kExactOutcomes = 8589934592.0;  // 2^33
// Monte Carlo adds the commit scores as integers in units of 2^−32 (about 2·10⁻¹⁰): sums that
// do not depend on the order of the chains, room for 2^31 (scores are ≤ log K each).
constexpr double kScoreUnit = 4294967296.0;
constexpr const char* kTemperatureUnderflow =
    "τ below 1e-300 makes log p/τ overflow; use argmax for the limit τ → 0";
}  // namespace

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Result<double> parseNumber(std::string_view text, const std::string& field, const std::string& whole) {
    const std::string s(text);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v)) {
        return makeError(ErrorCode::ParseError, field, whole, "expected a number after the colon");
    }
    return v;
}

// The largest Gumbel noise float32 gives: u = 1 − 2^−24, the largest float below 1 on the grid.
double gumbelMaxFloat32() { return -std::log(-std::log1p(-0x1.0p-24)); }

}  // namespace

Result<DecodeOrder> parseDecodeOrder(std::string_view text, const std::string& field) {
    static const std::pair<const char*, DecodeOrder> kNames[] = {
        {"ancestral", DecodeOrder::Ancestral}, {"random", DecodeOrder::Random},
        {"confidence", DecodeOrder::Confidence}, {"margin", DecodeOrder::Margin},
        {"entropy", DecodeOrder::Entropy}, {"low-confidence", DecodeOrder::LowConfidence}};
    for (const auto& [name, order] : kNames) {
        if (text == name) return order;
    }
    return makeError(ErrorCode::ParseError, field, std::string(text),
                     "expected ancestral, random, confidence, margin, entropy or low-confidence");
}

Status parseDecodeCount(std::string_view text, DecodingSampler& sampler, const std::string& field) {
    const std::string whole(text);
    for (const auto& [name, count] : {std::pair{"schedule", DecodeCount::Schedule},
                                      std::pair{"llada", DecodeCount::Llada},
                                      std::pair{"dream", DecodeCount::Dream}}) {
        if (text == name) {
            sampler.count = count;
            sampler.bound = 0.0;
            return {};
        }
    }
    for (const auto& [prefix, count] : {std::pair{std::string_view("threshold:"), DecodeCount::Threshold},
                                        std::pair{std::string_view("eb:"), DecodeCount::EntropyBound}}) {
        if (text.rfind(prefix, 0) == 0) {
            Result<double> bound = parseNumber(text.substr(prefix.size()), field, whole);
            if (!bound) return bound.error();
            if (*bound < 0.0) {
                return invalidArgument(field, whole,
                                       count == DecodeCount::Threshold ? "the threshold τ must be ≥ 0"
                                                                       : "the entropy bound γ must be ≥ 0");
            }
            sampler.count = count;
            sampler.bound = *bound;
            return {};
        }
    }
    return makeError(ErrorCode::ParseError, field, whole, "expected schedule, llada, dream, threshold:τ or eb:γ");
}

Result<DecodeTimes> parseDecodeTimes(std::string_view text, const std::string& field) {
    if (text == "schedule") return DecodeTimes::Schedule;
    if (text == "dream") return DecodeTimes::Dream;
    if (text == "mdlm") return DecodeTimes::Mdlm;
    return makeError(ErrorCode::ParseError, field, std::string(text), "expected schedule, dream or mdlm");
}

Status parseDecodeScores(std::string_view text, DecodingSampler& sampler, const std::string& field) {
    if (text != "plain" && text != "tempered") {
        return makeError(ErrorCode::ParseError, field, std::string(text), "expected plain or tempered");
    }
    sampler.temperedScores = text == "tempered";
    return {};
}

std::string decodeTimesText(DecodeTimes times) {
    switch (times) {
    case DecodeTimes::Dream: return "dream";
    case DecodeTimes::Mdlm: return "mdlm";
    default: return "schedule";
    }
}

std::vector<float> dreamTimes(int numSteps) { return torchLinspace(1.0f, 1e-3f, numSteps + 1); }

std::vector<float> mdlmTimes(int numSteps) { return torchLinspace(1.0f, 1e-5f, numSteps + 1); }

double gridUnmaskProbability(DecodeTimes times, const std::vector<float>& grid, int i) {
    const int numSteps = static_cast<int>(grid.size()) - 1;
    const float t = grid[static_cast<size_t>(i)];
    if (times == DecodeTimes::Dream) {
        // p_transfer = 1 - s / t, every token left at the last step.
        if (i + 1 == numSteps) return 1.0;
        return static_cast<double>(1.0f - grid[static_cast<size_t>(i) + 1] / t);
    }
    // move_chance_t = t, move_chance_s = t − dt (float32 tensor minus the Python float dt):
    // q ∝ p_x0·(t − s) for the values and s for the mask.
    const float dt = static_cast<float>((1.0 - 1e-5) / numSteps);
    const float s = t - dt;
    const double gap = static_cast<double>(t - s);
    return gap / (gap + static_cast<double>(s));
}

Status parseDecodeBlocks(std::string_view text, DecodingSampler& sampler, const std::string& field) {
    const std::string whole(text);
    char* end = nullptr;
    errno = 0;
    const long long b = std::strtoll(whole.c_str(), &end, 10);
    if (whole.empty() || end != whole.c_str() + whole.size() || errno == ERANGE) {
        return makeError(ErrorCode::ParseError, field, whole, "expected a whole number of blocks");
    }
    if (b < 1 || b > limits::kSteps.max) {
        return invalidArgument(field, whole,
                               "the number of blocks must lie in 1.." + std::to_string(limits::kSteps.max));
    }
    sampler.blocks = static_cast<int>(b);
    return {};
}

namespace {

// Each preset's building blocks (docs/categorical.md, "Sampler presets"). A name ending in ':'
// takes its numbers after it: the remask text (ReMDM's) or the count's bound.
struct PresetBlocks {
    const char* name;
    DecodeOrder order;
    DecodeCount count;
    DecodeTimes times;
    bool temperedScores;
    bool takesBlocks;
    bool takesTemperature;
    const char* remask;  // the remask text, the numbers appended for names ending in ':'
};
constexpr PresetBlocks kPresetBlocks[] = {
    {"llada:low_confidence", DecodeOrder::LowConfidence, DecodeCount::Llada, DecodeTimes::Schedule, false, true, true, "none"},
    {"llada:random", DecodeOrder::Random, DecodeCount::Llada, DecodeTimes::Schedule, false, true, true, "none"},
    {"dream:origin", DecodeOrder::Ancestral, DecodeCount::Schedule, DecodeTimes::Dream, false, false, true, "none"},
    {"dream:maskgit_plus", DecodeOrder::LowConfidence, DecodeCount::Dream, DecodeTimes::Schedule, true, false, true, "none"},
    {"dream:topk_margin", DecodeOrder::Margin, DecodeCount::Dream, DecodeTimes::Schedule, true, false, true, "none"},
    {"dream:entropy", DecodeOrder::Entropy, DecodeCount::Dream, DecodeTimes::Schedule, true, false, true, "none"},
    {"mdlm", DecodeOrder::Ancestral, DecodeCount::Schedule, DecodeTimes::Mdlm, false, false, false, "none"},
    {"remdm:cap:", DecodeOrder::Ancestral, DecodeCount::Schedule, DecodeTimes::Mdlm, false, false, false, "cap:"},
    {"remdm:rescale:", DecodeOrder::Ancestral, DecodeCount::Schedule, DecodeTimes::Mdlm, false, false, false, "rescale:"},
    {"remdm:conf", DecodeOrder::Ancestral, DecodeCount::Schedule, DecodeTimes::Mdlm, false, false, false, "conf"},
    {"remdm:loop:", DecodeOrder::Ancestral, DecodeCount::Schedule, DecodeTimes::Mdlm, false, false, false, "loop:"},
    {"fast-dllm:", DecodeOrder::LowConfidence, DecodeCount::Threshold, DecodeTimes::Schedule, false, true, true, "none"},
    {"eb:", DecodeOrder::Entropy, DecodeCount::EntropyBound, DecodeTimes::Schedule, true, true, true, "none"},
};
constexpr const char* kPresetForms =
    "llada:low_confidence, llada:random, dream:origin, dream:maskgit_plus, dream:topk_margin, "
    "dream:entropy, mdlm, remdm:cap:η, remdm:rescale:η, remdm:conf, remdm:loop:η,t_on,t_off,α_on, "
    "fast-dllm:τ or eb:γ";

}  // namespace

Status applyDecodePreset(std::string_view name, double temperature, DecodingSampler& sampler,
                         const std::string& field) {
    const PresetBlocks* found = nullptr;
    std::string_view numbers;
    for (const PresetBlocks& p : kPresetBlocks) {
        const std::string_view form(p.name);
        if (form.back() == ':' ? name.size() > form.size() && name.rfind(form, 0) == 0 : name == form) {
            found = &p;
            numbers = name.substr(form.back() == ':' ? form.size() : name.size());
        }
    }
    if (found == nullptr) {
        return makeError(ErrorCode::ParseError, field, std::string(name), std::string("expected ") + kPresetForms);
    }
    if (!(std::isfinite(temperature) && temperature >= 0.0)) {
        return invalidArgument("--temperature", shortestText(temperature), "τ must be finite and ≥ 0 (0: argmax)");
    }
    if (temperature > 0.0 && temperature < kMinTemperature) {
        return invalidArgument("--temperature", shortestText(temperature), kTemperatureUnderflow);
    }
    // MDLM's and ReMDM's samplers have no temperature: their values come from F itself.
    if (!found->takesTemperature && temperature != 1.0) {
        return invalidArgument("--temperature", shortestText(temperature),
                               std::string(name) + " takes no temperature (it samples from F)");
    }
    if (!found->takesBlocks && sampler.blocks != 1) {
        return invalidArgument("--blocks", std::to_string(sampler.blocks),
                               std::string(name) + " takes no blocks (it decodes the whole sequence)");
    }
    DecodingSampler preset;
    preset.order = found->order;
    preset.times = found->times;
    preset.temperedScores = found->temperedScores;
    preset.gumbel = GumbelPrecision::Float64;
    preset.values = temperature == 0.0   ? DecodeValues::Argmax
                    : temperature == 1.0 ? DecodeValues::Sample
                                         : DecodeValues::Temperature;
    preset.temperature = preset.values == DecodeValues::Temperature ? temperature : 1.0;
    preset.blocks = sampler.blocks;
    const std::string remask = std::string(found->remask) + (std::string_view(found->remask).back() == ':'
                                                                 ? std::string(numbers) : std::string());
    if (Status s = parseDecodeRemask(remask, preset, std::string(field)); !s) {
        Error error = s.error();
        error.value = std::string(name);
        return error;
    }
    preset.count = found->count;
    if (found->count == DecodeCount::Threshold || found->count == DecodeCount::EntropyBound) {
        const std::string text = std::string(found->count == DecodeCount::Threshold ? "threshold:" : "eb:") +
                                 std::string(numbers);
        if (Status s = parseDecodeCount(text, preset, field); !s) {
            Error error = s.error();
            error.value = std::string(name);
            return error;
        }
    }
    sampler = preset;
    return {};
}

std::string decodeCountText(const DecodingSampler& sampler) {
    switch (sampler.count) {
    case DecodeCount::Llada: return "llada";
    case DecodeCount::Dream: return "dream";
    case DecodeCount::Threshold: return "threshold:" + shortestText(sampler.bound);
    case DecodeCount::EntropyBound: return "eb:" + shortestText(sampler.bound);
    default: return "schedule";
    }
}

Status parseDecodeValues(std::string_view text, DecodingSampler& sampler, const std::string& field) {
    const std::string whole(text);
    if (text == "sample") {
        sampler.values = DecodeValues::Sample;
        sampler.temperature = 1.0;
        return {};
    }
    if (text == "argmax") {
        sampler.values = DecodeValues::Argmax;
        sampler.temperature = 1.0;
        return {};
    }
    if (text.rfind("temperature:", 0) == 0) {
        Result<double> tau = parseNumber(text.substr(12), field, whole);
        if (!tau) return tau.error();
        if (!(*tau > 0.0)) return invalidArgument(field, whole, "the temperature τ must be > 0");
        if (*tau < kMinTemperature) return invalidArgument(field, whole, kTemperatureUnderflow);
        sampler.values = DecodeValues::Temperature;
        sampler.temperature = *tau;
        return {};
    }
    return makeError(ErrorCode::ParseError, field, whole, "expected sample, argmax or temperature:τ");
}

Status parseDecodeRemask(std::string_view text, DecodingSampler& sampler, const std::string& field) {
    const std::string whole(text);
    sampler.loopOn = sampler.loopOff = sampler.loopAlpha = 0.0;
    if (text == "none") {
        sampler.remask = DecodeRemask::None;
        sampler.eta = 0.0;
        return {};
    }
    if (text == "conf") {
        sampler.remask = DecodeRemask::Confidence;
        sampler.eta = 0.0;
        return {};
    }
    for (const auto& [prefix, kind] : {std::pair{std::string_view("cap:"), DecodeRemask::Cap},
                                       std::pair{std::string_view("rescale:"), DecodeRemask::Rescale}}) {
        if (text.rfind(prefix, 0) == 0) {
            Result<double> eta = parseNumber(text.substr(prefix.size()), field, whole);
            if (!eta) return eta.error();
            if (*eta < 0.0 || *eta > 1.0) return invalidArgument(field, whole, "η must lie in [0, 1]");
            sampler.remask = kind;
            sampler.eta = *eta;
            return {};
        }
    }
    if (text.rfind("loop:", 0) == 0) {
        // η, t_on, t_off, α_on.
        std::array<double, 4> v{};
        std::string_view rest = text.substr(5);
        for (size_t i = 0; i < v.size(); ++i) {
            const size_t comma = rest.find(',');
            if ((comma == std::string_view::npos) != (i + 1 == v.size())) {
                return makeError(ErrorCode::ParseError, field, whole, "expected loop:η,t_on,t_off,α_on");
            }
            Result<double> x = parseNumber(rest.substr(0, comma), field, whole);
            if (!x) return x.error();
            v[i] = *x;
            if (comma != std::string_view::npos) rest = rest.substr(comma + 1);
        }
        if (v[0] < 0.0 || v[0] > 1.0) return invalidArgument(field, whole, "η must lie in [0, 1]");
        if (!(v[2] >= 0.0 && v[2] < v[1] && v[1] < 1.0)) {
            return invalidArgument(field, whole, "the loop's times must satisfy 0 ≤ t_off < t_on < 1");
        }
        if (!(v[3] > 0.0 && v[3] <= 1.0)) return invalidArgument(field, whole, "α_on must lie in (0, 1]");
        sampler.remask = DecodeRemask::Loop;
        sampler.eta = v[0];
        sampler.loopOn = v[1];
        sampler.loopOff = v[2];
        sampler.loopAlpha = v[3];
        return {};
    }
    return makeError(ErrorCode::ParseError, field, whole,
                     "expected none, cap:η, rescale:η, conf or loop:η,t_on,t_off,α_on");
}

Result<GumbelPrecision> parseGumbelPrecision(std::string_view text, const std::string& field) {
    if (text == "float64") return GumbelPrecision::Float64;
    if (text == "float32") return GumbelPrecision::Float32;
    return makeError(ErrorCode::ParseError, field, std::string(text), "expected float64 or float32");
}

std::string decodeOrderText(DecodeOrder order) {
    switch (order) {
    case DecodeOrder::Ancestral: return "ancestral";
    case DecodeOrder::Random: return "random";
    case DecodeOrder::Confidence: return "confidence";
    case DecodeOrder::Margin: return "margin";
    case DecodeOrder::Entropy: return "entropy";
    case DecodeOrder::LowConfidence: return "low-confidence";
    }
    return "ancestral";
}

std::string decodeValuesText(const DecodingSampler& sampler) {
    switch (sampler.values) {
    case DecodeValues::Sample: return "sample";
    case DecodeValues::Argmax: return "argmax";
    case DecodeValues::Temperature: return "temperature:" + shortestText(sampler.temperature);
    }
    return "sample";
}

std::string decodeRemaskText(const DecodingSampler& sampler) {
    switch (sampler.remask) {
    case DecodeRemask::None: return "none";
    case DecodeRemask::Cap: return "cap:" + shortestText(sampler.eta);
    case DecodeRemask::Rescale: return "rescale:" + shortestText(sampler.eta);
    case DecodeRemask::Confidence: return "conf";
    case DecodeRemask::Loop:
        return "loop:" + shortestText(sampler.eta) + "," + shortestText(sampler.loopOn) + "," +
               shortestText(sampler.loopOff) + "," + shortestText(sampler.loopAlpha);
    }
    return "none";
}

std::string gumbelPrecisionText(GumbelPrecision precision) {
    return precision == GumbelPrecision::Float32 ? "float32" : "float64";
}

Status validateDecodingSampler(const DecodingSampler& sampler) {
    if (sampler.values == DecodeValues::Temperature && !(sampler.temperature > 0.0 && std::isfinite(sampler.temperature))) {
        return invalidArgument("--values", decodeValuesText(sampler), "the temperature τ must be > 0");
    }
    if (sampler.values == DecodeValues::Temperature && sampler.temperature < kMinTemperature) {
        return invalidArgument("--values", decodeValuesText(sampler), kTemperatureUnderflow);
    }
    if ((sampler.remask == DecodeRemask::Cap || sampler.remask == DecodeRemask::Rescale ||
         sampler.remask == DecodeRemask::Loop) &&
        !(sampler.eta >= 0.0 && sampler.eta <= 1.0)) {
        return invalidArgument("--remask", decodeRemaskText(sampler), "η must lie in [0, 1]");
    }
    if (sampler.remask != DecodeRemask::None && sampler.order != DecodeOrder::Ancestral) {
        return invalidArgument("--remask", decodeRemaskText(sampler),
                               "remasking goes with --order ancestral, not " + decodeOrderText(sampler.order));
    }
    if (sampler.blocks < 1) {
        return invalidArgument("--blocks", std::to_string(sampler.blocks), "the number of blocks must be ≥ 1");
    }
    if (sampler.order == DecodeOrder::Ancestral && sampler.blocks != 1) {
        return invalidArgument("--blocks", std::to_string(sampler.blocks),
                               "blocks go with an ordered kind (random, confidence, margin, entropy, "
                               "low-confidence), not ancestral");
    }
    if (sampler.times != DecodeTimes::Schedule && sampler.order != DecodeOrder::Ancestral) {
        return invalidArgument("--times", decodeTimesText(sampler.times), "these times go with --order ancestral");
    }
    if (sampler.times == DecodeTimes::Dream && sampler.remask != DecodeRemask::None) {
        return invalidArgument("--times", "dream", "Dream's times go without remasking");
    }
    if (sampler.remask == DecodeRemask::Loop && sampler.times != DecodeTimes::Mdlm) {
        return invalidArgument("--remask", decodeRemaskText(sampler),
                               "ReMDM's loop goes with --times mdlm, the times it is written for");
    }
    if (sampler.count == DecodeCount::Threshold && sampler.order != DecodeOrder::LowConfidence &&
        sampler.order != DecodeOrder::Confidence) {
        return invalidArgument("--per-step", decodeCountText(sampler),
                               "a threshold compares a confidence: it goes with --order low-confidence or "
                               "confidence, not " + decodeOrderText(sampler.order));
    }
    if (sampler.count == DecodeCount::EntropyBound && sampler.order != DecodeOrder::Entropy &&
        sampler.order != DecodeOrder::Confidence && sampler.order != DecodeOrder::Margin) {
        return invalidArgument("--per-step", decodeCountText(sampler),
                               "the entropy bound takes the positions in a score's order: it goes with "
                               "--order entropy, confidence or margin, not " + decodeOrderText(sampler.order));
    }
    if ((sampler.count == DecodeCount::Threshold || sampler.count == DecodeCount::EntropyBound) &&
        !(sampler.bound >= 0.0 && std::isfinite(sampler.bound))) {
        return invalidArgument("--per-step", decodeCountText(sampler), "the bound must be finite and ≥ 0");
    }
    if (sampler.temperedScores &&
        (sampler.order == DecodeOrder::Ancestral || sampler.order == DecodeOrder::Random)) {
        return invalidArgument("--scores", "tempered",
                               "scores rank positions: confidence, margin, entropy or low-confidence, not " +
                                   decodeOrderText(sampler.order));
    }
    if (sampler.order == DecodeOrder::Ancestral && sampler.count != DecodeCount::Schedule) {
        return invalidArgument("--per-step", decodeCountText(sampler),
                               "the ancestral sampler's count is the schedule's, not " +
                                   decodeCountText(sampler));
    }
    return {};
}

Status checkDecodeBlocks(const DecodingSampler& sampler, int numSteps, int numPositions) {
    const int b = sampler.blocks;
    if (numPositions % b != 0 || numSteps % b != 0) {
        return invalidArgument("--blocks", std::to_string(b),
                               "D = " + std::to_string(numPositions) + " positions and N = " +
                                   std::to_string(numSteps) + " steps must both be divisible by B = " +
                                   std::to_string(b));
    }
    return {};
}

std::vector<int> samplerTokensPerStep(const DecodingSampler& sampler, const schedule::BetaCurve& curve,
                                      int numSteps, int numPositions) {
    const int b = sampler.blocks;
    const int length = numPositions / b;
    const int stepsPerBlock = numSteps / b;
    std::vector<int> perBlock;
    if (sampler.count == DecodeCount::Llada) {
        for (int i = 0; i < stepsPerBlock; ++i) {
            perBlock.push_back(length / stepsPerBlock + (i < length % stepsPerBlock ? 1 : 0));
        }
    } else if (sampler.count == DecodeCount::Dream) {
        // number_transfer_tokens = int(num_mask_token * (1 - s / t)), all in float32.
        const std::vector<float> grid = dreamTimes(stepsPerBlock);
        int masked = length;
        for (int i = 0; i < stepsPerBlock; ++i) {
            const float t = grid[static_cast<size_t>(i)];
            const float s = grid[static_cast<size_t>(i) + 1];
            const int take = i + 1 < stepsPerBlock
                                 ? static_cast<int>(static_cast<float>(masked) * (1.0f - s / t))
                                 : masked;
            perBlock.push_back(std::clamp(take, 0, masked));
            masked -= perBlock.back();
        }
    } else if (sampler.count == DecodeCount::Threshold || sampler.count == DecodeCount::EntropyBound) {
        // Decided step by step; a step takes at most a block.
        return std::vector<int>(static_cast<size_t>(numSteps), length);
    } else {
        perBlock = orderedTokensPerStep(curve, stepsPerBlock, length);
    }
    std::vector<int> out;
    for (int block = 0; block < b; ++block) out.insert(out.end(), perBlock.begin(), perBlock.end());
    return out;
}

std::vector<int> orderedTokensPerStep(const schedule::BetaCurve& curve, int numSteps, int numPositions) {
    // std::nearbyint rounds half to even in the default rounding mode.
    auto decoded = [&](int n) {
        return static_cast<int>(std::nearbyint(numPositions * (1.0 - curve(static_cast<double>(n) / numSteps))));
    };
    std::vector<int> out;
    int total = 0;
    for (int n = numSteps; n >= 1; --n) {
        const int k = std::max(0, decoded(n - 1) - decoded(n));
        out.push_back(std::min(k, numPositions - total));
        total += out.back();
    }
    out.back() += numPositions - total;
    return out;
}

std::vector<double> ancestralTokensPerStep(const schedule::BetaCurve& curve, int numSteps, int numPositions) {
    std::vector<double> out;
    for (int n = numSteps; n >= 1; --n) {
        const double bt = curve(static_cast<double>(n) / numSteps);
        const double bs = n == 1 ? 0.0 : curve(static_cast<double>(n - 1) / numSteps);
        out.push_back(numPositions * (bt - bs));
    }
    return out;
}

std::vector<double> valueLaw(std::span<const double> probabilities, const DecodingSampler& sampler) {
    const size_t k = probabilities.size();
    std::vector<double> law(k, 0.0);
    if (sampler.values == DecodeValues::Argmax) {
        size_t best = 0;
        for (size_t i = 1; i < k; ++i) {
            if (probabilities[i] > probabilities[best]) best = i;
        }
        law[best] = 1.0;
        return law;
    }
    const double tau = sampler.values == DecodeValues::Temperature ? sampler.temperature : 1.0;
    std::vector<double> logw(k, -std::numeric_limits<double>::infinity());
    double top = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < k; ++i) {
        if (probabilities[i] > 0.0) {
            logw[i] = std::log(probabilities[i]) / tau;
            top = std::max(top, logw[i]);
        }
    }
    if (sampler.gumbel == GumbelPrecision::Float64) {
        double sum = 0.0;
        for (size_t i = 0; i < k; ++i) {
            law[i] = std::exp(logw[i] - top);
            sum += law[i];
        }
        for (double& v : law) v /= sum;
        return law;
    }
    // Float32: G = min(Gumbel, g_max). P(i wins) = ∫_{g < g_max} f(g) Π_{j≠i} F̃(g + l_i − l_j) dg
    // + P(G = g_max) Π_{j≠i} F̃(g_max + l_i − l_j), F̃ the CDF of G (1 from g_max on).
    const double gmax = gumbelMaxFloat32();
    auto cdf = [&](double x) { return x >= gmax ? 1.0 : std::exp(-std::exp(-x)); };
    const double atom = 1.0 - cdf(std::nextafter(gmax, 0.0));
    static const QuadratureRule rule = gaussLegendre01(16);
    for (size_t i = 0; i < k; ++i) {
        if (!(probabilities[i] > 0.0)) continue;
        auto others = [&](double g) {
            double prod = 1.0;
            for (size_t j = 0; j < k; ++j) {
                if (j != i && probabilities[j] > 0.0) prod *= cdf(g + logw[i] - logw[j]);
            }
            return prod;
        };
        // Breakpoints where another class's F̃ reaches 1; pieces of width ≤ 0.25 from g = −6
        // (below it the Gumbel density is under e^{−400}).
        std::vector<double> cuts{-6.0, gmax};
        for (size_t j = 0; j < k; ++j) {
            const double c = gmax - (logw[i] - logw[j]);
            if (j != i && probabilities[j] > 0.0 && c > -6.0 && c < gmax) cuts.push_back(c);
        }
        std::sort(cuts.begin(), cuts.end());
        double integral = 0.0;
        for (size_t c = 0; c + 1 < cuts.size(); ++c) {
            const double a = cuts[c];
            const double b = cuts[c + 1];
            const int pieces = std::max(1, static_cast<int>(std::ceil((b - a) / 0.25)));
            const double h = (b - a) / pieces;
            for (int p = 0; p < pieces; ++p) {
                for (size_t q = 0; q < rule.nodes.size(); ++q) {
                    const double g = a + h * (p + rule.nodes[q]);
                    integral += h * rule.weights[q] * std::exp(-g - std::exp(-g)) * others(g);
                }
            }
        }
        law[i] = integral + atom * others(gmax);
    }
    return law;
}

namespace {

// The second members of the first `count` (score, index) pairs in the stable order by decreasing
// score, ties to the smaller index (the callers fill the indices increasing), without sorting
// the rest: one token a step over hundreds of positions stays linear.
template <typename Index>
std::vector<int> firstByScore(std::vector<std::pair<double, Index>>& scored, int count) {
    const size_t take = std::min(static_cast<size_t>(std::max(count, 0)), scored.size());
    std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(take), scored.end(),
                      [](const auto& a, const auto& b) {
                          return a.first > b.first || (a.first == b.first && a.second < b.second);
                      });
    std::vector<int> out;
    out.reserve(take);
    for (size_t i = 0; i < take; ++i) out.push_back(static_cast<int>(scored[i].second));
    return out;
}

// Everything one decoding run needs, shared (read-only) by the chains and the exact steps.
struct Engine {
    const data::CategoricalTable& table;
    const model::CategoricalDenoiser& denoiser;
    const schedule::BetaCurve& curve;
    const DecodeOptions& options;
    int dims = 0;
    int k = 0;          // data classes
    int mask = 0;       // = k
    int n = 0;          // steps
    std::vector<int> ordered;  // k_n, element 0 = step N
    std::vector<float> grid;  // DecodeTimes Dream or Mdlm: dreamTimes(n), mdlmTimes(n)

    // The probabilities the scores read: F, or with tempered scores w ∝ F^{1/τ} of the values
    // rule (τ = 1 for sample; argmax ranks by F, as Dream at τ = 0 does).
    const double* scoreRow(const double* f, std::vector<double>& tempered) const {
        const DecodingSampler& s = options.sampler;
        if (!s.temperedScores || s.values != DecodeValues::Temperature) return f;
        tempered.assign(f, f + k);
        double top = 0.0;
        for (double v : tempered) top = std::max(top, v);
        double sum = 0.0;
        for (double& v : tempered) {
            v = v > 0.0 ? std::exp((std::log(v) - std::log(top)) / s.temperature) : 0.0;
            sum += v;
        }
        for (double& v : tempered) v /= sum;
        return tempered.data();
    }

    double t(int step) const { return static_cast<double>(step) / n; }
    double beta(int step) const { return step == 0 ? 0.0 : curve(t(step)); }
    int denoiserCondition(int c) const { return c < denoiser.numConditions() ? c : 0; }

    // F over the data classes (mask entry dropped, renormalised), D × K.
    void predict(const std::vector<int>& x, int condition, int step, std::vector<double>& f,
                 std::vector<double>& raw) const {
        predictAt(x, condition, {t(step), beta(step)}, f, raw);
    }
    void predictAt(const std::vector<int>& x, int condition, model::DenoiserTime time,
                   std::vector<double>& f, std::vector<double>& raw) const {
        denoiser.predict(x, denoiserCondition(condition), time, raw);
        const int kk = k + 1;
        for (int d = 0; d < dims; ++d) {
            double sum = 0.0;
            for (int i = 0; i < k; ++i) sum += std::max(0.0, raw[static_cast<size_t>(d) * kk + i]);
            for (int i = 0; i < k; ++i) {
                f[static_cast<size_t>(d) * k + i] =
                    sum > 0.0 ? std::max(0.0, raw[static_cast<size_t>(d) * kk + i]) / sum : 1.0 / k;
            }
        }
    }

    // MDLM's and ReMDM's α_t = 1 − t and α_s = 1 − s on mdlmTimes at step index i (from the
    // start), in float32 as their code computes them: s = t − dt, dt = (1 − 10⁻⁵)/N.
    std::pair<double, double> gridAlphas(int i) const {
        const float t = grid[static_cast<size_t>(i)];
        const float s = t - static_cast<float>((1.0 - 1e-5) / n);
        return {static_cast<double>(1.0f - t), static_cast<double>(1.0f - s)};
    }
    // ReMDM's loop at step index i: its MDLM phases' move chances (t, s) in float32 as its code
    // computes them, or nullopt between t_off and t_on, where it remasks.
    std::optional<std::pair<float, float>> loopMoveChances(int i) const {
        const DecodingSampler& sp = options.sampler;
        const float t = grid[static_cast<size_t>(i)];
        const float dt = static_cast<float>((1.0 - 1e-5) / n);
        const double time = static_cast<double>(t);
        if (time > sp.loopOn) {
            // 1 − (1 − t)·α_on/(1 − t_on) and 1 − (1 − t + dt)·α_on/(1 − t_on).
            const float alpha = static_cast<float>(sp.loopAlpha);
            const float span = static_cast<float>(1.0 - sp.loopOn);
            return std::pair{1.0f - (1.0f - t) * alpha / span, 1.0f - (1.0f - t + dt) * alpha / span};
        }
        if (time <= sp.loopOff) {
            // t·(1 − α_on)/t_off and (t − dt)·(1 − α_on)/t_off.
            const float rest = static_cast<float>(1.0 - sp.loopAlpha);
            const float off = static_cast<float>(sp.loopOff);
            return std::pair{t * rest / off, (t - dt) * rest / off};
        }
        return std::nullopt;
    }

    // σ^max = min(1, (1 − α_s)/α_t) and the base σ of the remasking rule at step `step`.
    double sigma(int step) const {
        const DecodeRemask remask = options.sampler.remask;
        if (remask == DecodeRemask::None) return 0.0;
        if (remask == DecodeRemask::Loop) return loopMoveChances(n - step) ? 0.0 : options.sampler.eta;
        double alphaT = 1.0 - beta(step);
        double alphaS = 1.0 - beta(step - 1);
        if (options.sampler.times == DecodeTimes::Mdlm) std::tie(alphaT, alphaS) = gridAlphas(n - step);
        const double sigmaMax = alphaT <= 0.0 ? 1.0 : std::min(1.0, (1.0 - alphaS) / alphaT);
        switch (remask) {
        case DecodeRemask::Cap: return std::min(options.sampler.eta, sigmaMax);
        case DecodeRemask::Rescale: return options.sampler.eta * sigmaMax;
        case DecodeRemask::Confidence: return sigmaMax;
        default: return 0.0;
        }
    }
    // The probability a masked token unmasks at `step`: (α_s − (1 − σ)α_t)/(1 − α_t); on Dream's
    // times 1 − s/t in float32, as its `origin` compares torch.rand with it; on MDLM's times
    // without remasking q ∝ p·(t − s) against s for the mask, as MDLM's code weighs them.
    double unmaskProbability(int step, double sigmaT) const {
        const DecodingSampler& sp = options.sampler;
        if (sp.remask == DecodeRemask::Loop) {
            if (const auto chances = loopMoveChances(n - step)) {
                // The Gumbel race never picks a negative weight: a step past the phase's end
                // (s < 0 when N is small) unmasks every masked token.
                const float gap = chances->first - chances->second;
                if (!(gap > 0.0f)) return 0.0;
                if (!(chances->second > 0.0f)) return 1.0;
                return static_cast<double>(gap) / (static_cast<double>(gap) + static_cast<double>(chances->second));
            }
            // ReMDM's loop phase writes α = 0.9 into its weights, whatever α_on.
            const float unmask = static_cast<float>((0.9 - (1.0 - sigmaT) * 0.9) / (1.0 - 0.9));
            const float stay = static_cast<float>((1.0 - 0.9 - 0.9 * sigmaT) / (1.0 - 0.9));
            if (!(stay > 0.0f)) return 1.0;
            return static_cast<double>(unmask) / (static_cast<double>(unmask) + static_cast<double>(stay));
        }
        if (sp.times == DecodeTimes::Dream || (sp.times == DecodeTimes::Mdlm && sp.remask == DecodeRemask::None)) {
            return gridUnmaskProbability(sp.times, grid, n - step);
        }
        double alphaT = 1.0 - beta(step);
        double alphaS = 1.0 - beta(step - 1);
        if (sp.times == DecodeTimes::Mdlm) {
            std::tie(alphaT, alphaS) = gridAlphas(n - step);
        } else if (step == 1) {
            return 1.0;
        }
        if (alphaT >= 1.0) return 1.0;
        return std::clamp((alphaS - (1.0 - sigmaT) * alphaT) / (1.0 - alphaT), 0.0, 1.0);
    }

    double score(const double* row) const {
        std::vector<double> tempered;
        const double* f = scoreRow(row, tempered);
        switch (options.sampler.order) {
        case DecodeOrder::Confidence: return *std::max_element(f, f + k);
        case DecodeOrder::Margin: {
            double a = -1.0, b = -1.0;
            for (int i = 0; i < k; ++i) {
                if (f[i] > a) {
                    b = a;
                    a = f[i];
                } else if (f[i] > b) {
                    b = f[i];
                }
            }
            return a - b;
        }
        case DecodeOrder::Entropy: {
            double h = 0.0;
            for (int i = 0; i < k; ++i) {
                if (f[i] > 0.0) h -= f[i] * std::log(f[i]);
            }
            return -h;  // lowest entropy first
        }
        default: return 0.0;
        }
    }

    // The score a position is committed with: what the order ranks by (confidence and
    // low-confidence the probability, margin top-1 − top-2, entropy H in nats), or for the
    // orders that do not rank (ancestral, random) F's probability of the value drawn.
    double commitScore(const double* row, int value) const {
        std::vector<double> tempered;
        switch (options.sampler.order) {
        case DecodeOrder::Confidence:
        case DecodeOrder::Margin: return score(row);
        case DecodeOrder::Entropy: return -score(row);
        case DecodeOrder::LowConfidence: return scoreRow(row, tempered)[value];
        default: return row[value];
        }
    }
    // Its mean over the values' law.
    double expectedCommitScore(const double* row, const std::vector<double>& law) const {
        double mean = 0.0;
        for (int v = 0; v < k; ++v) {
            if (law[static_cast<size_t>(v)] > 0.0) mean += law[static_cast<size_t>(v)] * commitScore(row, v);
        }
        return mean;
    }

    // MDLM's noise_removal: the positions still masked after the last step take F's argmax
    // (the lowest class at a tie), F predicted once for the whole sequence at MDLM's t = 10⁻⁵
    // (where β must leave both masked and decoded tokens possible: 1/2 if β(10⁻⁵) does not).
    void fillMasks(std::vector<int>& x, int condition, std::vector<double>& f, std::vector<double>& raw) const {
        if (options.sampler.times != DecodeTimes::Mdlm || std::find(x.begin(), x.end(), mask) == x.end()) return;
        const double t = static_cast<double>(grid.back());
        const double b = curve(t);
        predictAt(x, condition, {t, b > 0.0 && b < 1.0 ? b : 0.5}, f, raw);
        for (int d = 0; d < dims; ++d) {
            if (x[static_cast<size_t>(d)] != mask) continue;
            const double* row = f.data() + static_cast<size_t>(d) * k;
            x[static_cast<size_t>(d)] = static_cast<int>(std::max_element(row, row + k) - row);
        }
    }

    bool variableCount() const {
        return options.sampler.count == DecodeCount::Threshold || options.sampler.count == DecodeCount::EntropyBound;
    }
    int blocksLeft(const std::vector<int>& x) const {
        const int length = dims / options.sampler.blocks;
        int left = 0;
        for (int b = 0; b < options.sampler.blocks; ++b) {
            if (std::find(x.begin() + b * length, x.begin() + (b + 1) * length, mask) != x.begin() + (b + 1) * length) ++left;
        }
        return left;
    }

    // The masked positions an ordered step chooses among: those of the step's block (with a
    // variable count, the leftmost block that has masked positions).
    std::vector<int> candidates(const std::vector<int>& x, int step) const {
        const int blocks = options.sampler.blocks;
        const int length = dims / blocks;
        int block = (n - step) / (n / blocks);
        if (variableCount()) {
            const auto first = std::find(x.begin(), x.end(), mask);
            if (first == x.end()) return {};
            block = static_cast<int>(first - x.begin()) / length;
        }
        std::vector<int> out;
        for (int d = block * length; d < (block + 1) * length; ++d) {
            if (x[static_cast<size_t>(d)] == mask) out.push_back(d);
        }
        return out;
    }

    // LLaDA's low_confidence: the first `count` of `positions` by F's probability of the value
    // drawn there (values[i] at positions[i]); ties go to the lower position (stable order).
    std::vector<int> lowConfidenceChoice(const std::vector<int>& positions, const std::vector<int>& values,
                                         const std::vector<double>& f, int count) const {
        std::vector<std::pair<double, size_t>> scored;
        std::vector<double> tempered;
        for (size_t i = 0; i < positions.size(); ++i) {
            const double* row = scoreRow(f.data() + static_cast<size_t>(positions[i]) * k, tempered);
            scored.push_back({row[values[i]], i});
        }
        return firstByScore(scored, count);
    }

    // Threshold and EntropyBound: how many of the step's candidates `block` it takes; `values`
    // the values drawn there (low-confidence, which compares F of the drawn value).
    int variableTake(const std::vector<int>& x, int step, const std::vector<int>& block,
                     const std::vector<int>& values, const std::vector<double>& f) const {
        const int size = static_cast<int>(block.size());
        if (size == 0) return 0;
        if (step <= blocksLeft(x)) return size;  // the steps left are the blocks left: finish this one
        const DecodingSampler& sp = options.sampler;
        std::vector<double> tempered;
        if (sp.count == DecodeCount::Threshold) {
            int above = 0;
            for (int i = 0; i < size; ++i) {
                const double* row = f.data() + static_cast<size_t>(block[static_cast<size_t>(i)]) * k;
                const double confidence = sp.order == DecodeOrder::LowConfidence
                                              ? scoreRow(row, tempered)[values[static_cast<size_t>(i)]]
                                              : score(row);
                if (confidence >= sp.bound) ++above;
            }
            return std::max(1, above);
        }
        // Σ H − max H over the ranked prefix grows with the prefix: take it while ≤ γ.
        double sum = 0.0;
        double top = -std::numeric_limits<double>::infinity();
        int take = 0;
        for (int d : rankedPositions(block, f, size)) {
            const double* p = scoreRow(f.data() + static_cast<size_t>(d) * k, tempered);
            double h = 0.0;
            for (int i = 0; i < k; ++i) {
                if (p[i] > 0.0) h -= p[i] * std::log(p[i]);
            }
            sum += h;
            top = std::max(top, h);
            if (sum - top > sp.bound) break;
            ++take;
        }
        return std::max(1, take);
    }

    // The masked positions to unmask in a deterministic order, the first `count`.
    std::vector<int> rankedPositions(const std::vector<int>& masked, const std::vector<double>& f, int count) const {
        std::vector<std::pair<double, int>> scored;
        for (int d : masked) scored.push_back({score(f.data() + static_cast<size_t>(d) * k), d});
        return firstByScore(scored, count);  // masked is increasing: ties go to the lower position
    }

    // One value by the Gumbel-max trick (argmax without noise), as the sampler draws it.
    int drawValue(const double* f, CounterRng& rng) const {
        const DecodingSampler& s = options.sampler;
        if (s.values == DecodeValues::Argmax) {
            return static_cast<int>(std::max_element(f, f + k) - f);
        }
        const double tau = s.values == DecodeValues::Temperature ? s.temperature : 1.0;
        int best = 0;
        if (s.gumbel == GumbelPrecision::Float64 && options.inverseCdfDraws) {
            // The same categorical law with one uniform instead of K Gumbel draws.
            double sum = 0.0;
            if (tau == 1.0) {
                for (int i = 0; i < k; ++i) sum += f[i] > 0.0 ? f[i] : 0.0;
                const double u = rng.uniform() * sum;
                double cumulative = 0.0;
                for (int i = 0; i < k; ++i) {
                    if (!(f[i] > 0.0)) continue;
                    best = i;
                    cumulative += f[i];
                    if (u < cumulative) break;
                }
                return best;
            }
            thread_local std::vector<double> w;
            w.resize(static_cast<size_t>(k));
            {
                double top = 0.0;
                for (int i = 0; i < k; ++i) top = std::max(top, f[i]);
                for (int i = 0; i < k; ++i) {
                    sum += w[static_cast<size_t>(i)] = f[i] > 0.0 ? std::exp((std::log(f[i]) - std::log(top)) / tau) : 0.0;
                }
            }
            const double u = rng.uniform() * sum;
            double cumulative = 0.0;
            for (int i = 0; i < k; ++i) {
                if (w[static_cast<size_t>(i)] <= 0.0) continue;
                best = i;
                cumulative += w[static_cast<size_t>(i)];
                if (u < cumulative) break;
            }
            return best;
        }
        if (s.gumbel == GumbelPrecision::Float64) {
            double top = -std::numeric_limits<double>::infinity();
            for (int i = 0; i < k; ++i) {
                if (!(f[i] > 0.0)) continue;
                const double g = -std::log(-std::log(rng.uniform()));
                const double v = std::log(f[i]) / tau + g;
                if (v > top) {
                    top = v;
                    best = i;
                }
            }
            return best;
        }
        float top = -std::numeric_limits<float>::infinity();
        bool any = false;
        for (int i = 0; i < k; ++i) {
            if (!(f[i] > 0.0)) continue;
            // torch.rand's float32: 24 random bits, u = j·2^−24 in [0, 1).
            const float u = static_cast<float>(rng.nextU64() >> 40) * 0x1.0p-24f;
            const float g = -std::log(-std::log(u));
            const float v = static_cast<float>(std::log(f[i]) / tau) + g;
            if (!any || v > top) {
                top = v;
                best = i;
                any = true;
            }
        }
        return best;
    }

    // One chain of `condition`; writes its output into `out` (D values) and, when `states` is
    // not null, every state ((N + 1) × D).
    // `unmasked` (N × D, or null): +1 where a position is unmasked after each step. `scores`
    // (2 × D, or null): per position the commit scores in fixed point (kScoreUnit) and the
    // number of commits, integers so that their sums do not depend on the order of the chains.
    void runChain(int condition, uint64_t stream, uint8_t* out, std::vector<int>* states,
                  int64_t* unmasked = nullptr, int64_t* scores = nullptr) const {
        const auto record = [&](int d, double value) {
            if (scores == nullptr) return;
            scores[d] += std::llround(value * kScoreUnit);
            ++scores[dims + d];
        };
        const auto tally = [&](const std::vector<int>& x, int step) {
            if (unmasked == nullptr) return;
            for (int d = 0; d < dims; ++d) {
                if (x[static_cast<size_t>(d)] != mask) ++unmasked[static_cast<size_t>(n - step) * dims + d];
            }
        };
        std::vector<int> x(static_cast<size_t>(dims), mask);
        std::vector<double> psi(static_cast<size_t>(dims), 0.0);
        std::vector<double> f(static_cast<size_t>(dims) * k), raw(static_cast<size_t>(dims) * (k + 1));
        if (states) {
            states->assign(x.begin(), x.end());
        }
        for (int step = n; step >= 1; --step) {
            CounterRng rng(options.seed, stream, static_cast<uint64_t>(step));
            // An ordered step that unmasks nothing needs no prediction.
            if (options.sampler.order != DecodeOrder::Ancestral &&
                (ordered[static_cast<size_t>(n - step)] == 0 ||
                 (variableCount() && std::find(x.begin(), x.end(), mask) == x.end()))) {
                if (states) states->insert(states->end(), x.begin(), x.end());
                if (step > 1) tally(x, step);
                continue;
            }
            predict(x, condition, step, f, raw);
            std::vector<int> masked;
            for (int d = 0; d < dims; ++d) {
                if (x[d] == mask) masked.push_back(d);
            }
            std::vector<int> next = x;
            if (options.sampler.order == DecodeOrder::Ancestral) {
                const double sigmaT = sigma(step);
                // Confidence remasking: ReMDM's code gives masked positions η = 0, so they unmask
                // as without remasking.
                const double a = unmaskProbability(
                    step, options.sampler.remask == DecodeRemask::Confidence ? 0.0 : sigmaT);
                // Confidence remasking: σ_ℓ = σ_t softmax(−ψ) over the decoded positions.
                double softmaxSum = 0.0;
                if (options.sampler.remask == DecodeRemask::Confidence) {
                    for (int d = 0; d < dims; ++d) {
                        if (x[d] != mask) softmaxSum += std::exp(-psi[d]);
                    }
                }
                for (int d = 0; d < dims; ++d) {
                    const double u = rng.uniform();
                    if (x[d] == mask) {
                        if (u < a) {
                            next[d] = drawValue(f.data() + static_cast<size_t>(d) * k, rng);
                            psi[d] = f[static_cast<size_t>(d) * k + next[d]];
                            record(d, psi[d]);
                        }
                    } else {
                        const double s = options.sampler.remask == DecodeRemask::Confidence
                                             ? sigmaT * std::exp(-psi[d]) / softmaxSum
                                             : sigmaT;
                        if (u < s) next[d] = mask;
                    }
                }
            } else if (options.sampler.order == DecodeOrder::LowConfidence) {
                masked = candidates(x, step);
                std::vector<int> values;
                for (int d : masked) values.push_back(drawValue(f.data() + static_cast<size_t>(d) * k, rng));
                const int count = variableCount() ? variableTake(x, step, masked, values, f)
                                                  : std::min<int>(ordered[static_cast<size_t>(n - step)],
                                                                  static_cast<int>(masked.size()));
                for (int i : lowConfidenceChoice(masked, values, f, count)) {
                    next[masked[i]] = values[i];
                    record(masked[i], commitScore(f.data() + static_cast<size_t>(masked[i]) * k, values[i]));
                }
            } else {
                masked = candidates(x, step);
                const int count = variableCount() ? variableTake(x, step, masked, {}, f)
                                                  : std::min<int>(ordered[static_cast<size_t>(n - step)],
                                                                  static_cast<int>(masked.size()));
                std::vector<int> chosen;
                if (options.sampler.order == DecodeOrder::Random) {
                    // Partial Fisher–Yates: a uniformly random count-subset.
                    std::vector<int> pool = masked;
                    for (int i = 0; i < count; ++i) {
                        const int remaining = static_cast<int>(pool.size()) - i;
                        const int j = i + static_cast<int>(std::min<double>(remaining - 1, std::floor(rng.uniform() * remaining)));
                        std::swap(pool[i], pool[j]);
                        chosen.push_back(pool[i]);
                    }
                } else {
                    chosen = rankedPositions(masked, f, count);
                }
                for (int d : chosen) {
                    next[d] = drawValue(f.data() + static_cast<size_t>(d) * k, rng);
                    record(d, commitScore(f.data() + static_cast<size_t>(d) * k, next[d]));
                }
            }
            x = std::move(next);
            if (states) states->insert(states->end(), x.begin(), x.end());
            if (step > 1) tally(x, step);
        }
        const std::vector<int> beforeFill = x;
        fillMasks(x, condition, f, raw);
        for (int d = 0; d < dims; ++d) {
            if (beforeFill[d] == mask && x[d] != mask) record(d, f[static_cast<size_t>(d) * k + x[d]]);
        }
        if (states) std::copy(x.begin(), x.end(), states->end() - dims);
        tally(x, 1);
        for (int d = 0; d < dims; ++d) out[d] = static_cast<uint8_t>(x[d]);
    }
};

// State codes of the exact propagation: Σ_d x_d (K + 1)^d.
struct Codec {
    int dims;
    int base;
    std::vector<int64_t> power;
    Codec(int d, int b) : dims(d), base(b), power(static_cast<size_t>(d) + 1, 1) {
        for (int i = 1; i <= d; ++i) power[i] = power[i - 1] * b;
    }
    void decode(int64_t code, std::vector<int>& x) const {
        for (int d = 0; d < dims; ++d) {
            x[d] = static_cast<int>(code % base);
            code /= base;
        }
    }
};

using StateList = std::vector<std::pair<int64_t, double>>;

// Sorted by code, duplicates summed in list order (deterministic for a given list).
StateList mergeStates(StateList list) {
    std::stable_sort(list.begin(), list.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    StateList out;
    for (const auto& [code, p] : list) {
        if (!out.empty() && out.back().first == code) {
            out.back().second += p;
        } else {
            out.push_back({code, p});
        }
    }
    return out;
}

// Every subset of `items` of size `count`, in lexicographic order.
void forEachSubset(const std::vector<int>& items, int count, const std::function<void(const std::vector<int>&)>& body) {
    std::vector<int> index(static_cast<size_t>(count));
    std::iota(index.begin(), index.end(), 0);
    const int m = static_cast<int>(items.size());
    std::vector<int> chosen(static_cast<size_t>(count));
    while (true) {
        for (int i = 0; i < count; ++i) chosen[i] = items[index[i]];
        body(chosen);
        int i = count - 1;
        while (i >= 0 && index[i] == m - count + i) --i;
        if (i < 0) return;
        ++index[i];
        for (int j = i + 1; j < count; ++j) index[j] = index[j - 1] + 1;
    }
}

double binomial(int m, int c) {
    double r = 1.0;
    for (int i = 1; i <= c; ++i) r = r * (m - c + i) / i;
    return r;
}

// The outcomes one exact step enumerates from a state with `masked` masked positions: each
// masked position stays masked or takes one of K values (ancestral), a decoded one may be
// remasked (σ > 0, or confidence remasking); the ordered samplers choose c positions (random:
// any c of them) and give each one of K values.
double exactStateOutcomes(const Engine& e, int step, int masked) {
    const double k = e.k;
    const int decoded = e.dims - masked;
    if (e.options.sampler.order == DecodeOrder::Ancestral) {
        const bool remasks = e.options.sampler.remask == DecodeRemask::Confidence || e.sigma(step) > 0.0;
        return std::pow(k + 1.0, masked) * (remasks ? std::pow(2.0, decoded) : 1.0);
    }
    const int c = std::min(e.ordered[static_cast<size_t>(e.n - step)], masked);
    if (e.options.sampler.order == DecodeOrder::LowConfidence) {
        return std::pow(k, std::min(masked, e.dims / e.options.sampler.blocks));  // every value drawn
    }
    const double values = std::pow(k, c);
    return e.options.sampler.order == DecodeOrder::Random ? binomial(masked, c) * values : values;
}

// An upper bound on the outcomes of the whole exact run: per step, over every state it may
// start from, Σ_m C(D, m)·K^(D−m)·outcomes(m).
double exactRunOutcomes(const Engine& e) {
    double total = 0.0;
    for (int step = e.n; step >= 1; --step) {
        if (e.options.sampler.order != DecodeOrder::Ancestral && e.ordered[static_cast<size_t>(e.n - step)] == 0) {
            continue;
        }
        for (int m = 0; m <= e.dims; ++m) {
            total += binomial(e.dims, m) * std::pow(static_cast<double>(e.k), e.dims - m) *
                     exactStateOutcomes(e, step, m);
        }
    }
    return total;
}

// The exact commit scores: per position Σ P(commit)·score and Σ P(commit) over the commits.
struct CommitScores {
    std::vector<double> sum, weight;
    explicit CommitScores(int dims) : sum(static_cast<size_t>(dims), 0.0), weight(static_cast<size_t>(dims), 0.0) {}
    void add(int d, double w, double score) {
        sum[static_cast<size_t>(d)] += w * score;
        weight[static_cast<size_t>(d)] += w;
    }
    void merge(const CommitScores& other) {
        for (size_t d = 0; d < sum.size(); ++d) {
            sum[d] += other.sum[d];
            weight[d] += other.weight[d];
        }
    }
};

// One exact step from every state of `states` (of one condition); the commits' scores are added
// into `scores` in block order (the same for any thread count).
Result<StateList> exactStep(const Engine& e, const Codec& codec, const StateList& states, int condition, int step,
                            CommitScores& scores) {
    // The states are taken in chunks whose outcomes together stay within kChunkOutcomes (at
    // least one state); a chunk's blocks run in parallel, and their outcomes are added into a
    // dense table over every code in block order: the sums are those of merging all outcomes
    // in block order (the same for any thread count), and the memory is the table plus one
    // chunk's outcomes. Holding every block's outcomes until the end took gigabytes.
    constexpr double kChunkOutcomes = 1 << 22;
    const int64_t blockSize = 16;
    std::vector<double> next(static_cast<size_t>(codec.power[e.dims]), 0.0);
    std::vector<int> x0(static_cast<size_t>(e.dims));
    const auto outcomesOf = [&](int64_t code) {
        codec.decode(code, x0);
        const int masked = static_cast<int>(std::count(x0.begin(), x0.end(), e.mask));
        return exactStateOutcomes(e, step, masked);
    };
    const int64_t total = static_cast<int64_t>(states.size());
    for (int64_t first = 0; first < total;) {
        int64_t last = first;
        for (double outcomes = 0.0; last < total;) {
            outcomes += outcomesOf(states[static_cast<size_t>(last)].first);
            if (last > first && outcomes > kChunkOutcomes) break;
            ++last;
        }
        const int64_t count = last - first;
        std::vector<StateList> produced(static_cast<size_t>(numBlocks(count, blockSize)));
        std::vector<CommitScores> producedScores(produced.size(), CommitScores(e.dims));
    parallelForBlocks(
        count, blockSize, e.options.parallel,
        [&](int64_t block, int64_t begin, int64_t end) {
            StateList& out = produced[static_cast<size_t>(block)];
            CommitScores& blockScores = producedScores[static_cast<size_t>(block)];
            std::vector<int> x(static_cast<size_t>(e.dims));
            std::vector<double> f(static_cast<size_t>(e.dims) * e.k), raw(static_cast<size_t>(e.dims) * (e.k + 1));
            std::vector<std::vector<double>> law(static_cast<size_t>(e.dims));
            for (int64_t s = first + begin; s < first + end; ++s) {
                const int64_t code = states[static_cast<size_t>(s)].first;
                const double p = states[static_cast<size_t>(s)].second;
                codec.decode(code, x);
                e.predict(x, condition, step, f, raw);
                std::vector<int> masked;
                for (int d = 0; d < e.dims; ++d) {
                    if (x[d] == e.mask) {
                        masked.push_back(d);
                        law[d] = valueLaw(std::span<const double>(f.data() + static_cast<size_t>(d) * e.k, e.k),
                                          e.options.sampler);
                    }
                }
                // Per position: (code change, probability) options, expanded as a product.
                auto expand = [&](const std::vector<std::vector<std::pair<int64_t, double>>>& choices, double weight) {
                    StateList partial{{code, p * weight}};
                    for (const auto& options : choices) {
                        StateList grown;
                        grown.reserve(partial.size() * options.size());
                        for (const auto& [c, q] : partial) {
                            for (const auto& [delta, r] : options) {
                                if (r > 0.0) grown.push_back({c + delta, q * r});
                            }
                        }
                        partial = std::move(grown);
                    }
                    out.insert(out.end(), partial.begin(), partial.end());
                };
                auto unmaskOptions = [&](int d, double keepMasked, double scale) {
                    std::vector<std::pair<int64_t, double>> o;
                    if (keepMasked > 0.0) o.push_back({0, keepMasked});
                    for (int v = 0; v < e.k; ++v) {
                        o.push_back({static_cast<int64_t>(v - e.mask) * codec.power[d], scale * law[d][v]});
                    }
                    return o;
                };
                std::vector<std::vector<std::pair<int64_t, double>>> choices;
                if (e.options.sampler.order == DecodeOrder::Ancestral) {
                    const double sigmaT = e.sigma(step);
                    const double a = e.unmaskProbability(step, sigmaT);
                    for (int d = 0; d < e.dims; ++d) {
                        if (x[d] == e.mask) {
                            choices.push_back(unmaskOptions(d, 1.0 - a, a));
                            blockScores.add(d, p * a, e.expectedCommitScore(f.data() + static_cast<size_t>(d) * e.k, law[d]));
                        } else if (sigmaT > 0.0) {
                            choices.push_back({{0, 1.0 - sigmaT},
                                               {static_cast<int64_t>(e.mask - x[d]) * codec.power[d], sigmaT}});
                        }
                    }
                    expand(choices, 1.0);
                } else if (e.options.sampler.order == DecodeOrder::LowConfidence) {
                    // Every joint draw of the block's masked positions, then the top `count`.
                    const std::vector<int> block = e.candidates(x, step);
                    const int fixedCount = std::min<int>(e.ordered[static_cast<size_t>(e.n - step)],
                                                         static_cast<int>(block.size()));
                    std::vector<int> values(block.size(), 0);
                    while (true) {
                        double weight = p;
                        for (size_t i = 0; i < block.size() && weight > 0.0; ++i) {
                            weight *= law[static_cast<size_t>(block[i])][static_cast<size_t>(values[i])];
                        }
                        if (weight > 0.0) {
                            const int count = e.variableCount() ? e.variableTake(x, step, block, values, f) : fixedCount;
                            int64_t to = code;
                            for (int i : e.lowConfidenceChoice(block, values, f, count)) {
                                const int d = block[static_cast<size_t>(i)];
                                to += static_cast<int64_t>(values[static_cast<size_t>(i)] - e.mask) * codec.power[d];
                                blockScores.add(d, weight,
                                                e.commitScore(f.data() + static_cast<size_t>(d) * e.k,
                                                              values[static_cast<size_t>(i)]));
                            }
                            out.push_back({to, weight});
                        }
                        size_t i = 0;
                        while (i < values.size() && ++values[i] == e.k) values[i++] = 0;
                        if (i == values.size()) break;
                    }
                } else {
                    masked = e.candidates(x, step);
                    const int count = e.variableCount() ? e.variableTake(x, step, masked, {}, f)
                                                        : std::min<int>(e.ordered[static_cast<size_t>(e.n - step)],
                                                                        static_cast<int>(masked.size()));
                    auto subset = [&](const std::vector<int>& chosen, double weight) {
                        choices.clear();
                        for (int d : chosen) {
                            choices.push_back(unmaskOptions(d, 0.0, 1.0));
                            blockScores.add(d, p * weight,
                                            e.expectedCommitScore(f.data() + static_cast<size_t>(d) * e.k, law[d]));
                        }
                        expand(choices, weight);
                    };
                    if (e.options.sampler.order == DecodeOrder::Random) {
                        const double weight = 1.0 / binomial(static_cast<int>(masked.size()), count);
                        forEachSubset(masked, count, [&](const std::vector<int>& chosen) { subset(chosen, weight); });
                    } else {
                        subset(e.rankedPositions(masked, f, count), 1.0);
                    }
                }
            }
            out = mergeStates(std::move(out));
        },
        e.options.progress);
        if (e.options.progress != nullptr && e.options.progress->cancelled()) {
            return makeError(ErrorCode::Cancelled, "", "", "cancelled");
        }
        for (const StateList& part : produced) {
            for (const auto& [code, p] : part) next[static_cast<size_t>(code)] += p;
        }
        for (const CommitScores& part : producedScores) scores.merge(part);
        first = last;
    }
    StateList out;
    for (size_t code = 0; code < next.size(); ++code) {
        if (next[code] != 0.0) out.push_back({static_cast<int64_t>(code), next[code]});
    }
    return out;
}

// Confidence remasking exactly: a state is x and, per decoded position, ψ (F's probability of its
// token when it was decoded; 0 at masked positions), kept as bytes: D classes then D doubles.
struct ConfState {
    std::vector<int> x;
    std::vector<double> psi;
};
std::string confKey(const ConfState& s) {
    std::string key(s.x.size() * (1 + sizeof(double)), '\0');
    for (size_t d = 0; d < s.x.size(); ++d) {
        key[d] = static_cast<char>(static_cast<uint8_t>(s.x[d]));
        std::memcpy(key.data() + s.x.size() + d * sizeof(double), &s.psi[d], sizeof(double));
    }
    return key;
}
ConfState confState(const std::string& key, int dims) {
    ConfState s{std::vector<int>(static_cast<size_t>(dims)), std::vector<double>(static_cast<size_t>(dims))};
    for (int d = 0; d < dims; ++d) {
        s.x[d] = static_cast<uint8_t>(key[static_cast<size_t>(d)]);
        std::memcpy(&s.psi[d], key.data() + dims + static_cast<size_t>(d) * sizeof(double), sizeof(double));
    }
    return s;
}
using ConfList = std::vector<std::pair<std::string, double>>;

Result<ConfList> exactConfStep(const Engine& e, const ConfList& states, int condition, int step,
                               CommitScores& scores) {
    const int64_t blockSize = 16;
    std::vector<ConfList> produced(static_cast<size_t>(numBlocks(static_cast<int64_t>(states.size()), blockSize)));
    std::vector<CommitScores> producedScores(produced.size(), CommitScores(e.dims));
    parallelForBlocks(
        static_cast<int64_t>(states.size()), blockSize, e.options.parallel,
        [&](int64_t block, int64_t begin, int64_t end) {
            ConfList& out = produced[static_cast<size_t>(block)];
            CommitScores& blockScores = producedScores[static_cast<size_t>(block)];
            std::vector<double> f(static_cast<size_t>(e.dims) * e.k), raw(static_cast<size_t>(e.dims) * (e.k + 1));
            for (int64_t i = begin; i < end; ++i) {
                const ConfState state = confState(states[static_cast<size_t>(i)].first, e.dims);
                e.predict(state.x, condition, step, f, raw);
                const double sigmaT = e.sigma(step);
                // ReMDM's code gives masked positions η = 0: they unmask as without remasking.
                const double a = e.unmaskProbability(step, 0.0);
                double softmaxSum = 0.0;
                for (int d = 0; d < e.dims; ++d) {
                    if (state.x[d] != e.mask) softmaxSum += std::exp(-state.psi[d]);
                }
                // Position by position: (class, ψ, probability) options, expanded as a product.
                std::vector<std::pair<ConfState, double>> partial{{state, states[static_cast<size_t>(i)].second}};
                for (int d = 0; d < e.dims; ++d) {
                    std::vector<std::tuple<int, double, double>> options;
                    if (state.x[d] == e.mask) {
                        const auto law = valueLaw(std::span<const double>(f.data() + static_cast<size_t>(d) * e.k, e.k),
                                                  e.options.sampler);
                        options.emplace_back(e.mask, 0.0, 1.0 - a);
                        for (int v = 0; v < e.k; ++v) {
                            options.emplace_back(v, f[static_cast<size_t>(d) * e.k + v], a * law[v]);
                        }
                        blockScores.add(d, states[static_cast<size_t>(i)].second * a,
                                        e.expectedCommitScore(f.data() + static_cast<size_t>(d) * e.k, law));
                    } else {
                        const double sd = sigmaT * std::exp(-state.psi[d]) / softmaxSum;
                        options.emplace_back(state.x[d], state.psi[d], 1.0 - sd);
                        options.emplace_back(e.mask, 0.0, sd);
                    }
                    std::vector<std::pair<ConfState, double>> grown;
                    for (const auto& [partialState, q] : partial) {
                        for (const auto& [v, psi, r] : options) {
                            if (!(r > 0.0)) continue;
                            ConfState next = partialState;
                            next.x[d] = v;
                            next.psi[d] = psi;
                            grown.emplace_back(std::move(next), q * r);
                        }
                    }
                    partial = std::move(grown);
                }
                for (const auto& [next, q] : partial) out.emplace_back(confKey(next), q);
            }
        },
        e.options.progress);
    if (e.options.progress != nullptr && e.options.progress->cancelled()) {
        return makeError(ErrorCode::Cancelled, "", "", "cancelled");
    }
    for (const CommitScores& part : producedScores) scores.merge(part);
    ConfList all;
    for (auto& part : produced) all.insert(all.end(), part.begin(), part.end());
    std::stable_sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    ConfList merged;
    for (auto& [key, p] : all) {
        if (!merged.empty() && merged.back().first == key) {
            merged.back().second += p;
        } else {
            merged.emplace_back(std::move(key), p);
        }
    }
    return merged;
}

// The conditions decoded: the one chosen, or all.
std::vector<int> decodedConditions(const data::CategoricalTable& table, int condition) {
    std::vector<int> out;
    for (int c = 0; c < table.numConditions(); ++c) {
        if (condition < 0 || c == condition) out.push_back(c);
    }
    return out;
}

// An output sequence as bytes (classes 0..255), the key of the laws.
using Sequence = std::string;
inline int classAt(const Sequence& x, int d) { return static_cast<uint8_t>(x[static_cast<size_t>(d)]); }
Sequence sequenceOf(const int* x, int dims) {
    Sequence s(static_cast<size_t>(dims), '\0');
    for (int d = 0; d < dims; ++d) s[static_cast<size_t>(d)] = static_cast<char>(static_cast<uint8_t>(x[d]));
    return s;
}

// The data averaged over the decoded conditions.
std::map<Sequence, double> dataLaw(const data::CategoricalTable& table, const std::vector<int>& conditions) {
    std::map<Sequence, double> out;
    const double weight = 1.0 / static_cast<double>(conditions.size());
    for (int r = 0; r < table.numRows(); ++r) {
        if (table.probability[r] <= 0.0 ||
            std::find(conditions.begin(), conditions.end(), table.condition[r]) == conditions.end()) {
            continue;
        }
        out[sequenceOf(table.row(r), table.numPositions)] += weight * table.probability[r];
    }
    return out;
}

// The five measures of an output law `q` (conditions averaged) against the data `p`, with their
// delta-method standard errors when `groups` (the empirical law of each condition, M draws each)
// are given: Var ≈ Σ_c Var_{q_c}(g)/(C² M), g the functional's gradient.
void measure(const std::map<Sequence, double>& q, const std::map<Sequence, double>& p, int dims, int k,
             const std::vector<std::map<Sequence, double>>* groups, int64_t draws, DecodeResult& r) {
    // Per-position marginals of q.
    std::vector<double> marginal(static_cast<size_t>(dims) * k, 0.0);
    for (const auto& [x, v] : q) {
        for (int d = 0; d < dims; ++d) marginal[static_cast<size_t>(d) * k + classAt(x, d)] += v;
    }
    double entropy = 0.0, klQp = 0.0, tv = 0.0, positions = 0.0;
    bool qOutside = false;
    for (const auto& [x, v] : q) {
        if (v <= 0.0) continue;
        entropy -= v * std::log(v);
        const auto found = p.find(x);
        if (found == p.end()) {
            qOutside = true;
        } else {
            klQp += v * std::log(v / found->second);
        }
        tv += std::abs(v - (found == p.end() ? 0.0 : found->second));
    }
    double klPq = 0.0;
    bool pOutside = false;
    for (const auto& [x, v] : p) {
        const auto found = q.find(x);
        const double qv = found == q.end() ? 0.0 : found->second;
        if (qv <= 0.0) {
            pOutside = true;
            tv += v;
        } else {
            klPq += v * std::log(v / qv);
        }
    }
    for (double m : marginal) {
        if (m > 0.0) positions -= m * std::log(m);
    }
    positions /= dims;
    r.entropy.value = entropy;
    // A KL is ≥ 0; sums of terms of both signs can round to −1e−16.
    r.klDataOutput.value = pOutside ? std::nullopt : std::optional<double>(std::max(0.0, klPq));
    r.klOutputData.value = qOutside ? std::nullopt : std::optional<double>(std::max(0.0, klQp));
    r.totalVariation.value = 0.5 * tv;
    r.positionEntropy.value = positions;
    if (groups == nullptr) return;
    // Gradients at x: entropy −log q − 1, KL(p‖q) −p/q, KL(q‖p) log(q/p) + 1, TV ½ sign(q − p),
    // positions (1/D) Σ_d (−log q_d(x_d) − 1); constants drop out of the variances.
    auto gradients = [&](const Sequence& x, double qv) {
        const auto found = p.find(x);
        const double pv = found == p.end() ? 0.0 : found->second;
        double pos = 0.0;
        for (int d = 0; d < dims; ++d) pos -= std::log(marginal[static_cast<size_t>(d) * k + classAt(x, d)]);
        return std::array<double, 5>{-std::log(qv), pv > 0.0 ? -pv / qv : 0.0,
                                     pv > 0.0 ? std::log(qv / pv) : 0.0, qv > pv ? 0.5 : -0.5, pos / dims};
    };
    std::array<double, 5> variance{};
    const double c = static_cast<double>(groups->size());
    for (const auto& group : *groups) {
        std::array<double, 5> mean{}, square{};
        for (const auto& [x, w] : group) {
            const auto g = gradients(x, q.at(x));
            for (int i = 0; i < 5; ++i) {
                mean[i] += w * g[i];
                square[i] += w * g[i] * g[i];
            }
        }
        for (int i = 0; i < 5; ++i) {
            variance[i] += std::max(0.0, square[i] - mean[i] * mean[i]) / (c * c * static_cast<double>(draws));
        }
    }
    r.entropy.standardError = std::sqrt(variance[0]);
    r.klDataOutput.standardError = std::sqrt(variance[1]);
    r.klOutputData.standardError = std::sqrt(variance[2]);
    r.totalVariation.standardError = std::sqrt(variance[3]);
    r.positionEntropy.standardError = std::sqrt(variance[4]);
}

}  // namespace

Result<DecodeResult> decode(const data::CategoricalTable& table,
                            const model::CategoricalDenoiser& denoiser,
                            const Vector& pi,
                            const schedule::BetaCurve& curve,
                            const DecodeOptions& options) {
    const int mask = absorbingMaskClass(pi);
    if (mask < 0 || mask != static_cast<int>(pi.size()) - 1) {
        return invalidArgument("pi", "", "decoding needs masked diffusion: π must be the mask state (--pi masked:K)");
    }
    if (table.numClasses != static_cast<int>(pi.size()) || denoiser.numClasses() != table.numClasses ||
        denoiser.numPositions() != table.numPositions) {
        return invalidArgument("denoiser", std::to_string(denoiser.numPositions()) + " positions × " +
                                               std::to_string(denoiser.numClasses()) + " classes",
                               "does not fit the data's D = " + std::to_string(table.numPositions) +
                                   " positions of K + 1 = " + std::to_string(table.numClasses) + " classes");
    }
    if (mask > 256) {
        return invalidArgument("pi", std::to_string(mask), "decoding supports at most 256 data classes");
    }
    if (Status s = limits::checkRange(limits::kSteps, "steps", options.numSteps); !s) return s.error();
    if (Status s = validateDecodingSampler(options.sampler); !s) return s.error();
    if (options.condition < -1 || options.condition >= table.numConditions()) {
        return invalidArgument("condition", std::to_string(options.condition),
                               "no such condition (the data have " + std::to_string(table.numConditions()) + ")");
    }
    if (Status s = checkMaskUnused(table, mask, options.condition); !s) return s.error();
    if (options.samples < 0 || (options.samples > 0 && options.samples > limits::kSamples.max)) {
        return invalidArgument("samples", std::to_string(options.samples),
                               "the number of samples must lie in 1.." + std::to_string(limits::kSamples.max));
    }
    Engine e{table, denoiser, curve, options};
    e.dims = table.numPositions;
    e.k = mask;
    e.mask = mask;
    e.n = options.numSteps;
    if (Status s = checkDecodeBlocks(options.sampler, e.n, e.dims); !s) return s.error();
    e.ordered = samplerTokensPerStep(options.sampler, curve, e.n, e.dims);
    if (options.sampler.times == DecodeTimes::Dream) e.grid = dreamTimes(e.n);
    if (options.sampler.times == DecodeTimes::Mdlm) e.grid = mdlmTimes(e.n);

    const std::vector<int> conditions = decodedConditions(table, options.condition);
    const int numConditions = static_cast<int>(conditions.size());
    const bool exact = options.samples == 0;
    if (exact) {
        const double states = std::pow(static_cast<double>(mask + 1), e.dims);
        if (states > static_cast<double>(limits::kDecodeExactStates)) {
            return invalidArgument("D", std::to_string(e.dims),
                                   "exact decoding enumerates (K + 1)^D = " + std::to_string(mask + 1) + "^" +
                                       std::to_string(e.dims) + " partially masked sequences, more than the limit " +
                                       std::to_string(limits::kDecodeExactStates) + "; use --samples M");
        }
        // The work, bounded before anything runs: every outcome of every step is a product
        // and a sum (about 10⁸ a second on two cores).
        if (const double work = exactRunOutcomes(e); work > kExactOutcomes) {
            char text[64];
            std::snprintf(text, sizeof text, "%.3g", work);
            return invalidArgument(
                "--steps", std::to_string(e.n),
                std::string("exact decoding would enumerate up to ") + text +
                    " outcomes over its steps (Σ over steps and masked counts m of C(D,m)·K^(D−m)·"
                    "outcomes per state, D = " + std::to_string(e.dims) + ", K = " +
                    std::to_string(e.k) + "), more than the limit 2^33 ≈ 8.6e9; use --samples M");
        }
    }

    DecodeResult r;
    r.exact = exact;
    r.numSteps = e.n;
    r.samples = options.samples;
    r.sampler = options.sampler;
    if (options.sampler.times != DecodeTimes::Schedule) {
        // D·P(still masked)·p_i at each step; MDLM's argmax fill counts with the last step.
        double masked = e.dims;
        for (int step = e.n; step >= 1; --step) {
            const double a = e.unmaskProbability(step, 0.0);
            r.tokensPerStep.push_back(masked * a);
            masked -= masked * a;
        }
        r.tokensPerStep.back() += masked;
    } else if (options.sampler.order == DecodeOrder::Ancestral) {
        r.tokensPerStep = ancestralTokensPerStep(curve, e.n, e.dims);
    } else {
        r.tokensPerStep.assign(e.ordered.begin(), e.ordered.end());
    }
    const std::map<Sequence, double> p = dataLaw(table, conditions);
    std::map<Sequence, double> q;
    std::vector<std::map<Sequence, double>> perCondition(static_cast<size_t>(numConditions));

    const size_t commitSize = static_cast<size_t>(e.n) * e.dims;
    r.commit.assign(commitSize, 0.0);
    if (exact) {
        const Codec codec(e.dims, mask + 1);
        // P(unmasked after the step) of each position, conditions averaged.
        const auto addCommit = [&](int step, const std::vector<int>& x, double prob) {
            for (int d = 0; d < e.dims; ++d) {
                if (x[static_cast<size_t>(d)] != mask) {
                    r.commit[static_cast<size_t>(e.n - step) * e.dims + d] += prob / numConditions;
                }
            }
        };
        if (options.progress != nullptr) options.progress->setTotal(static_cast<int64_t>(e.n) * numConditions);
        CommitScores scores(e.dims);
        // MDLM's argmax fill commits too, with F's probability of the argmax.
        const auto fill = [&](std::vector<int>& x, int condition, double prob, std::vector<double>& f,
                              std::vector<double>& raw) {
            const std::vector<int> before = x;
            e.fillMasks(x, condition, f, raw);
            for (int d = 0; d < e.dims; ++d) {
                if (before[static_cast<size_t>(d)] == mask && x[static_cast<size_t>(d)] != mask) {
                    scores.add(d, prob, f[static_cast<size_t>(d) * e.k + x[static_cast<size_t>(d)]]);
                }
            }
        };
        for (int ci = 0; ci < numConditions; ++ci) {
            if (options.sampler.remask == DecodeRemask::Confidence) {
                ConfList states{{confKey({std::vector<int>(static_cast<size_t>(e.dims), mask),
                                          std::vector<double>(static_cast<size_t>(e.dims), 0.0)}),
                                 1.0}};
                for (int step = e.n; step >= 1; --step) {
                    Result<ConfList> next = exactConfStep(e, states, conditions[ci], step, scores);
                    if (!next) return next.error();
                    states = std::move(*next);
                    if (step > 1) {
                        for (const auto& [key, prob] : states) addCommit(step, confState(key, e.dims).x, prob);
                    }
                    // ψ multiplies the states beyond (K + 1)^D.
                    if (states.size() > static_cast<size_t>(limits::kDecodeExactStates)) {
                        return invalidArgument("--remask", "conf",
                                               "exact confidence remasking reached more than " +
                                                   std::to_string(limits::kDecodeExactStates) +
                                                   " (sequence, confidence) states; use --samples M");
                    }
                    if (options.progress != nullptr && !options.progress->advance()) {
                        return makeError(ErrorCode::Cancelled, "", "", "cancelled");
                    }
                }
                std::vector<double> f(static_cast<size_t>(e.dims) * e.k), raw(static_cast<size_t>(e.dims) * (e.k + 1));
                for (const auto& [key, prob] : states) {
                    std::vector<int> x = confState(key, e.dims).x;
                    fill(x, conditions[ci], prob, f, raw);  // MDLM's times: the argmax fill
                    addCommit(1, x, prob);
                    if (prob <= 0.0) continue;
                    const Sequence seq = sequenceOf(x.data(), e.dims);
                    perCondition[ci][seq] += prob;
                    q[seq] += prob / numConditions;
                }
                continue;
            }
            StateList states{{(codec.power[e.dims] - 1), 1.0}};  // every digit = mask = base − 1
            for (int step = e.n; step >= 1; --step) {
                if (options.sampler.order == DecodeOrder::Ancestral || e.ordered[static_cast<size_t>(e.n - step)] > 0) {
                    Result<StateList> next = exactStep(e, codec, states, conditions[ci], step, scores);
                    if (!next) return next.error();
                    states = std::move(*next);
                }
                if (step > 1) {
                    std::vector<int> x(static_cast<size_t>(e.dims));
                    for (const auto& [code, prob] : states) {
                        codec.decode(code, x);
                        addCommit(step, x, prob);
                    }
                }
                if (options.progress != nullptr && !options.progress->advance()) {
                    return makeError(ErrorCode::Cancelled, "", "", "cancelled");
                }
            }
            std::vector<int> x(static_cast<size_t>(e.dims));
            if (options.sampler.times == DecodeTimes::Mdlm) {
                std::vector<double> f(static_cast<size_t>(e.dims) * e.k), raw(static_cast<size_t>(e.dims) * (e.k + 1));
                StateList filled;
                for (const auto& [code, prob] : states) {
                    codec.decode(code, x);
                    fill(x, conditions[ci], prob, f, raw);
                    int64_t to = 0;
                    for (int d = 0; d < e.dims; ++d) to += static_cast<int64_t>(x[static_cast<size_t>(d)]) * codec.power[d];
                    filled.push_back({to, prob});
                }
                states = mergeStates(std::move(filled));
            }
            for (const auto& [code, prob] : states) {
                codec.decode(code, x);
                addCommit(1, x, prob);
            }
            for (const auto& [code, prob] : states) {
                if (prob <= 0.0) continue;
                codec.decode(code, x);
                const Sequence s = sequenceOf(x.data(), e.dims);
                perCondition[ci][s] += prob;
                q[s] += prob / numConditions;
            }
        }
        measure(q, p, e.dims, e.k, nullptr, 0, r);
        r.commitScore.assign(static_cast<size_t>(e.dims), kNaN);
        for (size_t d = 0; d < r.commitScore.size(); ++d) {
            if (scores.weight[d] > 0.0) r.commitScore[d] = scores.sum[d] / scores.weight[d];
        }
        for (const auto& [x, v] : q) {
            DecodeRow row{std::vector<int>(static_cast<size_t>(e.dims)), v};
            for (int d = 0; d < e.dims; ++d) row.x[d] = classAt(x, d);
            r.distribution.push_back(std::move(row));
        }
    } else {
        const int64_t m = options.samples;
        const int64_t total = m * numConditions;
        std::vector<uint8_t> outputs(static_cast<size_t>(total) * e.dims);
        // The first chains are also the animation's trajectories (the same keys): kept whole
        // here instead of being run again.
        const int64_t kept = std::min<int64_t>(options.trajectories, m) * numConditions;
        r.trajectories.resize(static_cast<size_t>(kept));
        if (options.progress != nullptr) options.progress->setTotal(total);
        // Blocks small enough that every thread gets several (a network's chain is slow), at
        // most 256 chains; each chain has its own key, so the results do not depend on them.
        const int64_t block = std::clamp<int64_t>(total / (8 * std::max(1, options.parallel.numThreads)), 1, 256);
        // Unmasked counts per condition, added under a lock: integer sums, so the same for any
        // order of the blocks.
        std::vector<int64_t> unmasked(static_cast<size_t>(numConditions) * commitSize, 0);
        std::vector<int64_t> scores(2 * static_cast<size_t>(e.dims), 0);  // fixed-point sums, counts
        std::mutex unmaskedLock;
        parallelForBlocks(
            total, block, options.parallel,
            [&](int64_t, int64_t begin, int64_t end) {
                std::vector<int64_t> local(unmasked.size(), 0);
                std::vector<int64_t> localScores(scores.size(), 0);
                for (int64_t i = begin; i < end; ++i) {
                    const int c = conditions[static_cast<size_t>(i % numConditions)];
                    const uint64_t stream = static_cast<uint64_t>(i / numConditions) * table.numConditions() + c;
                    DecodeTrajectory* whole = i < kept ? &r.trajectories[static_cast<size_t>(i)] : nullptr;
                    if (whole != nullptr) whole->condition = c;
                    e.runChain(c, stream, outputs.data() + static_cast<size_t>(i) * e.dims,
                               whole != nullptr ? &whole->states : nullptr,
                               local.data() + static_cast<size_t>(i % numConditions) * commitSize,
                               localScores.data());
                }
                {
                    const std::lock_guard<std::mutex> hold(unmaskedLock);
                    for (size_t j = 0; j < local.size(); ++j) unmasked[j] += local[j];
                    for (size_t j = 0; j < localScores.size(); ++j) scores[j] += localScores[j];
                }
                if (options.progress != nullptr) options.progress->advance(end - begin);
            },
            options.progress);
        if (options.progress != nullptr && options.progress->cancelled()) {
            return makeError(ErrorCode::Cancelled, "", "", "cancelled");
        }
        for (int64_t i = 0; i < total; ++i) {
            const auto* o = outputs.data() + static_cast<size_t>(i) * e.dims;
            const Sequence s(reinterpret_cast<const char*>(o), static_cast<size_t>(e.dims));
            perCondition[static_cast<size_t>(i % numConditions)][s] += 1.0 / static_cast<double>(m);
            q[s] += 1.0 / static_cast<double>(total);
        }
        measure(q, p, e.dims, e.k, &perCondition, m, r);
        r.commitScore.assign(static_cast<size_t>(e.dims), kNaN);
        for (int d = 0; d < e.dims; ++d) {
            const int64_t commits = scores[static_cast<size_t>(e.dims + d)];
            if (commits > 0) r.commitScore[d] = static_cast<double>(scores[static_cast<size_t>(d)]) / kScoreUnit / commits;
        }
        r.commitStandardError.assign(commitSize, 0.0);
        for (size_t j = 0; j < commitSize; ++j) {
            double variance = 0.0;
            for (int ci = 0; ci < numConditions; ++ci) {
                const double share = static_cast<double>(unmasked[static_cast<size_t>(ci) * commitSize + j]) / m;
                r.commit[j] += share / numConditions;
                variance += share * (1.0 - share);
            }
            r.commitStandardError[j] = std::sqrt(variance / m) / numConditions;
        }
        if (options.keepOutputs) {
            r.outputConditions.resize(static_cast<size_t>(total));
            for (int64_t i = 0; i < total; ++i) {
                r.outputConditions[static_cast<size_t>(i)] = conditions[static_cast<size_t>(i % numConditions)];
            }
            r.outputs = std::move(outputs);
        }
    }
    if (e.variableCount() || (options.sampler.times == DecodeTimes::Mdlm && options.sampler.remask != DecodeRemask::None)) {
        // Decided per state, or undone by remasking: the expected change in unmasked positions.
        r.tokensPerStep.assign(static_cast<size_t>(e.n), 0.0);
        double before = 0.0;
        for (int i = 0; i < e.n; ++i) {
            const auto row = r.commit.begin() + static_cast<std::ptrdiff_t>(i) * e.dims;
            const double after = std::accumulate(row, row + e.dims, 0.0);
            r.tokensPerStep[static_cast<size_t>(i)] = after - before;
            before = after;
        }
    }
    r.rowProbability.assign(static_cast<size_t>(table.numRows()), kNaN);
    for (int row = 0; row < table.numRows(); ++row) {
        const auto at = std::find(conditions.begin(), conditions.end(), table.condition[row]);
        if (at == conditions.end()) continue;
        const auto& law = perCondition[static_cast<size_t>(at - conditions.begin())];
        const auto found = law.find(sequenceOf(table.row(row), e.dims));
        r.rowProbability[row] = found == law.end() ? 0.0 : found->second;
    }
    // Chains kept whole for animation: the first `trajectories` of each condition (those the
    // Monte Carlo run kept already excepted).
    for (int i = static_cast<int>(r.trajectories.size() / conditions.size()); i < options.trajectories; ++i) {
        for (int c : conditions) {
            DecodeTrajectory trajectory;
            trajectory.condition = c;
            std::vector<uint8_t> out(static_cast<size_t>(e.dims));
            e.runChain(c, static_cast<uint64_t>(i) * table.numConditions() + c, out.data(), &trajectory.states);
            r.trajectories.push_back(std::move(trajectory));
        }
    }
    return r;
}

}  // namespace core::categorical
