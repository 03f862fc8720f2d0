// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/gaussian/sampler.h"
#include "core/io/json.h"
#include "core/project/choice.h"
#include "core/util/limits.h"
#include "core/util/result.h"

// The schedule lab's configurations (docs/gaussian.md, "Schedule lab"): several (schedule ×
// trajectory family × reverse variance × sampler) set side by side on the same data and model,
// swept over the same K. Stored in GaussianParams::lab and in the project file's Gaussian
// object as "lab" (optional on reading).
namespace core::project {


struct LabConfig {
    std::string name;        // legend label, unique in the lab
    std::string colour;      // "#rrggbb"; empty: the lab palette's colour for its index
    // Empty: the project's schedule; ",zero-snr": the project's with zero terminal SNR; else the
    // project's schedule syntax (linear, cosine, scaled-linear, sigmoid, csv:FILE,
    // diffusers:FILE, each [,zero-snr]).
    std::string schedule;
    // The family with its options, without K: even, quadratic, dp, linspace, leading[,offset=O],
    // trailing, logsnr, karras[,rho=ρ], ays:sd15, ays:sdxl.
    std::string trajectory = "even";
    gaussian::ReverseVariance variance = gaussian::ReverseVariance::Analytic;
    gaussian::SamplerKind sampler = gaussian::SamplerKind::AnalyticDdpm;

    bool operator==(const LabConfig&) const = default;
    // The spec resolveTrajectory takes at K = k: "trailing:25", "leading:25,offset=1",
    // "ays:sd15:25", …
    std::string trajectorySpec(int k) const;
};

// Bounds checked by validate() (and before any allocation by runLab).
inline constexpr int kMaxLabConfigs = static_cast<int>(limits::kLabConfigs.max);
inline constexpr int kMaxLabKs = static_cast<int>(limits::kLabKs.max);
inline constexpr int kMaxLabQualitySamples = 10000;
inline constexpr int kMaxLabNllPoints = 100000;

struct LabSettings {
    std::vector<LabConfig> configs;
    std::vector<int> ks = {5, 10, 25, 50, 100};  // the K of every sweep (increasing, each in 2..N)
    int qualitySamples = 1000;                  // samples per (configuration, K); 0: no quality
    int nllPoints = 1000;                       // data points of the NLL (the same for every run)

    bool operator==(const LabSettings&) const = default;
    // Errors name "lab.configs[i].field" / "lab.ks" / "lab.qualitySamples" / "lab.nllPoints"
    // and the value. numSteps ≤ 0 skips the check K ≤ N (a project file is read before N is
    // known to be final; runLab checks it).
    Status validate(int numSteps) const;
    io::Json toJson() const;
    static Result<LabSettings> fromJson(const io::Json& json);
};

// "name=…;schedule=…;trajectory=…;variance=…;sampler=…" (';'-separated key=value, every key
// optional, defaults as in LabConfig; also "colour=#rrggbb"). Unknown keys and bad values are
// refused naming the key and the value. formatLabConfig writes it back (round trip).
Result<LabConfig> parseLabConfig(const std::string& text);
std::string formatLabConfig(const LabConfig& config);

// The schedule spec a configuration runs on, given the project's (see LabConfig::schedule).
std::string labSchedule(const LabConfig& config, const std::string& projectSchedule);
// The legend label: the name, or when empty "trajectory · variance · sampler" (with the
// schedule when it is not the project's).
std::string labName(const LabConfig& config);

// The configuration's colour, or the palette's for `index` (8 distinct colour-blind-safe
// colours: Okabe–Ito's seven colours and a grey, cycled). The reference's colour is
// kLabReferenceColour.
inline constexpr const char* kLabReferenceColour = "#000000";
std::string labColour(const LabConfig& config, int index);

struct LabPreset {
    std::string id;
    std::string title;
    std::string explanation;          // one or two sentences a teacher can read aloud
    std::vector<LabConfig> configs;
    std::string schedule;             // for the project; "" keeps the project's
    std::vector<int> ks;              // the sweep's K; empty keeps the project's
};
const std::vector<LabPreset>& labPresets();

}  // namespace core::project
