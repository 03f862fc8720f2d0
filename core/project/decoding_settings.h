// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/io/json.h"
#include "core/util/result.h"

// The Decoding view's samplers (docs/categorical.md, "Decoding samplers"): masked-diffusion
// decoders set side by side on the project's data and denoiser, each swept over the number of
// steps N. Stored in CategoricalParams::decoding and in the project file's categorical object as
// "decoding" (optional on reading; absent: the default set).
namespace core::project {

struct DecodingConfig {
    std::string name;    // legend label, unique among the samplers
    std::string colour;  // "#rrggbb"; empty: the palette's colour for its index
    // The sampler spec "order=confidence;values=argmax;remask=cap:0.02;gumbel=float64"
    // (parseSamplerSpec of core/project/decoding_runs.h).
    std::string sampler = "order=ancestral";

    bool operator==(const DecodingConfig&) const = default;
};

inline constexpr int kMaxDecodingConfigs = 16;

// Decoding on sequences of a Markov chain instead of the project's data (docs/categorical.md,
// "Decoding on a Markov chain"): the chain's exact denoiser, measures against its own law.
// Stored as the decoding object's "chain" (written only when `source` is set).
struct DecodingChain {
    // "english" (the bundled chain of letters) or a chain file; empty: the project's data.
    std::string source;
    int length = 128;          // D, the letters of each sequence
    int samples = 200;         // M, the sequences decoded per sampler and N

    bool operator==(const DecodingChain&) const = default;
    bool active() const { return !source.empty(); }
};

struct DecodingSettings {
    // The default set: ancestral; confidence with sampled values; confidence with argmax;
    // margin; entropy; random.
    std::vector<DecodingConfig> configs = defaultConfigs();
    // The sampler the Trajectories view animates: an index into configs, or −1 for the
    // project's reverse sampler.
    int animated = -1;
    DecodingChain chain;

    bool operator==(const DecodingSettings&) const = default;
    static std::vector<DecodingConfig> defaultConfigs();
    // Errors name "decoding.configs[i].field" / "decoding.animated" and the value; a sampler
    // spec that parseSamplerSpec refuses is refused here, naming decoding.configs[i].sampler.
    Status validate() const;
    io::Json toJson() const;
    static Result<DecodingSettings> fromJson(const io::Json& json);
};

// The configuration's colour, or the palette's for `index` (the Lab's eight colours).
std::string decodingColour(const DecodingConfig& config, int index);
// The legend label: the name, or the sampler spec when the name is empty.
std::string decodingName(const DecodingConfig& config);

// The N of a chain's sweep of length D: 1, 2, 4, … below D, then D itself (one letter per step
// with a linear schedule), each with N·D within a chain decode's limit.
std::vector<int> chainSweepSteps(int length);

// The N of the Decoding view's sweep for D positions: 1, 2, 4, … up to the first power of two
// at least 4·D (so N = D, one token per step for a linear schedule, is always in it; for D = 1
// that is 1, 2, 4).
std::vector<int> decodingSweepSteps(int positions);

}  // namespace core::project
