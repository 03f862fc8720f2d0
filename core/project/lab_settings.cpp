// SPDX-License-Identifier: MIT
#include "core/project/lab_settings.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include "core/gaussian/spacing.h"
#include "core/project/gaussian_params.h"
#include "core/project/palette.h"
#include "core/schedule/diffusers_config.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/limits.h"

namespace core::project {

namespace {

const char* const kFamilies[] = {"even",     "quadratic", "dp",       "linspace", "leading",
                                 "trailing", "logsnr",    "karras",   "ays:sd15", "ays:sdxl"};

// The family and its options ("leading", ",offset=1") of a trajectory without K.
std::pair<std::string, std::string> splitFamily(const std::string& trajectory) {
    const size_t comma = trajectory.find(',');
    if (comma == std::string::npos) return {trajectory, ""};
    return {trajectory.substr(0, comma), trajectory.substr(comma)};
}

// The trajectory's family is known and its options parse at K (numSteps ≥ K).
Status checkTrajectory(const std::string& trajectory, const std::string& field, int k,
                       int numSteps) {
    const auto [family, options] = splitFamily(trajectory);
    if (std::find(std::begin(kFamilies), std::end(kFamilies), family) == std::end(kFamilies)) {
        return invalidArgument(field, trajectory,
                               "expected even, quadratic, dp, linspace, leading[,offset=O], "
                               "trailing, logsnr, karras[,rho=ρ], ays:sd15 or ays:sdxl "
                               "(without K)");
    }
    if (!gaussian::isSpacingKind(family)) {
        if (!options.empty()) return invalidArgument(field, trajectory, family + " takes no options");
        return {};
    }
    auto spec = gaussian::parseSpacing(family, std::to_string(k) + options, numSteps);
    if (!spec) return invalidArgument(field, trajectory, spec.error().toString());
    return {};
}

// The schedule's syntax (a csv file is read only when the lab runs).
Status checkSchedule(const std::string& schedule, const std::string& field) {
    if (schedule.empty() || schedule == schedule::kZeroSnrSuffix) return {};
    const std::string base = schedule::splitScheduleSpec(schedule).base;
    if (schedule::isFileScheduleSpec(base)) return {};
    for (const char* known : {"linear", "cosine", "scaled-linear", "sigmoid"}) {
        if (base == known) return {};
    }
    return invalidArgument(field, schedule,
                           "expected linear, cosine, scaled-linear, sigmoid, csv:FILE or "
                           "diffusers:FILE, each optionally with ,zero-snr; or ,zero-snr alone "
                           "for the project's");
}

// Every field of one configuration; errors name `prefix` + the field.
Status checkConfig(const LabConfig& c, const std::string& prefix) {
    // Sizes first: a 100 000-character name would reach every legend and CSV row.
    if (Status s = limits::checkText(limits::kNameText, prefix + "name", c.name); !s) return s;
    if (Status s = limits::checkText(limits::kSpecText, prefix + "schedule", c.schedule); !s) {
        return s;
    }
    if (Status s = limits::checkText(limits::kSpecText, prefix + "trajectory", c.trajectory); !s) {
        return s;
    }
    if (c.name.find(';') != std::string::npos) {
        return invalidArgument(prefix + "name", c.name, "may not contain ';'");
    }
    if (!c.colour.empty() && !isColour(c.colour)) {
        return invalidArgument(prefix + "colour", c.colour, "expected #rrggbb or empty");
    }
    if (c.schedule.find(';') != std::string::npos) {
        return invalidArgument(prefix + "schedule", c.schedule, "may not contain ';'");
    }
    if (Status s = checkSchedule(c.schedule, prefix + "schedule"); !s) return s;
    return checkTrajectory(c.trajectory, prefix + "trajectory", 2, limits::kSteps.max);
}

}  // namespace

std::string LabConfig::trajectorySpec(int k) const {
    const auto [family, options] = splitFamily(trajectory);
    return family + ":" + std::to_string(k) + options;
}

std::string labSchedule(const LabConfig& config, const std::string& projectSchedule) {
    if (config.schedule.empty()) return projectSchedule;
    if (config.schedule == schedule::kZeroSnrSuffix) {
        const auto parts = schedule::splitScheduleSpec(projectSchedule);
        return parts.base + schedule::kZeroSnrSuffix;
    }
    return config.schedule;
}

std::string labName(const LabConfig& config) {
    if (!config.name.empty()) return config.name;
    std::string name = config.trajectory + " · " + choiceId(kReverseVariances, config.variance) +
                       " · " + choiceId(kSamplers, config.sampler);
    if (!config.schedule.empty()) name = config.schedule + " · " + name;
    return name;
}

std::string labColour(const LabConfig& config, int index) {
    if (!config.colour.empty()) return config.colour;
    return paletteColour(index);
}

Status LabSettings::validate(int numSteps) const {
    if (configs.size() > static_cast<size_t>(kMaxLabConfigs)) {
        return invalidArgument("lab.configs", std::to_string(configs.size()) + " configurations",
                               "at most " + std::to_string(kMaxLabConfigs));
    }
    std::set<std::string> names;
    for (size_t i = 0; i < configs.size(); ++i) {
        const std::string prefix = "lab.configs[" + std::to_string(i) + "].";
        if (Status s = checkConfig(configs[i], prefix); !s) return s;
        if (!names.insert(labName(configs[i])).second) {
            return invalidArgument(prefix + "name", labName(configs[i]),
                                   "another configuration has this name");
        }
    }
    std::string list;
    for (int k : ks) list += (list.empty() ? "" : ",") + std::to_string(k);
    if (ks.empty() || ks.size() > static_cast<size_t>(kMaxLabKs)) {
        return invalidArgument("lab.ks", list,
                               "expected 1 to " + std::to_string(kMaxLabKs) + " values of K");
    }
    for (size_t i = 0; i < ks.size(); ++i) {
        if (ks[i] < 2 || (i > 0 && ks[i] <= ks[i - 1])) {
            return invalidArgument("lab.ks", list, "expected increasing K, each at least 2");
        }
        if (numSteps > 0 && ks[i] > numSteps) {
            return invalidArgument("lab.ks", list,
                                   "K = " + std::to_string(ks[i]) + " exceeds N = " +
                                       std::to_string(numSteps));
        }
    }
    if (qualitySamples != 0 && (qualitySamples < 2 || qualitySamples > kMaxLabQualitySamples)) {
        return invalidArgument("lab.qualitySamples", std::to_string(qualitySamples),
                               "expected 0 (no quality) or 2.." +
                                   std::to_string(kMaxLabQualitySamples));
    }
    if (nllPoints < 1 || nllPoints > kMaxLabNllPoints) {
        return invalidArgument("lab.nllPoints", std::to_string(nllPoints),
                               "expected 1.." + std::to_string(kMaxLabNllPoints));
    }
    if (numSteps > 0) {
        // Options that depend on K (leading's offset) at every K of the sweep.
        for (size_t i = 0; i < configs.size(); ++i) {
            for (int k : ks) {
                const std::string field = "lab.configs[" + std::to_string(i) + "].trajectory";
                if (Status s = checkTrajectory(configs[i].trajectory, field, k, numSteps); !s) {
                    return s;
                }
            }
        }
    }
    return {};
}

io::Json LabSettings::toJson() const {
    io::Json list = io::Json::array();
    for (const auto& c : configs) {
        io::Json o = {{"name", c.name},
                      {"trajectory", c.trajectory},
                      {"variance", choiceId(kReverseVariances, c.variance)},
                      {"sampler", choiceId(kSamplers, c.sampler)}};
        if (!c.colour.empty()) o["colour"] = c.colour;
        if (!c.schedule.empty()) o["schedule"] = c.schedule;
        list.push_back(std::move(o));
    }
    return {{"configs", std::move(list)},
            {"ks", ks},
            {"qualitySamples", qualitySamples},
            {"nllPoints", nllPoints}};
}

Result<LabSettings> LabSettings::fromJson(const io::Json& json) {
    if (!json.is_object()) {
        return makeError(ErrorCode::ParseError, "lab", io::jsonValueText(json), "expected an object");
    }
    const io::JsonFields read(json, "lab.");
    LabSettings s;
    for (Status st : {read.integerOr("qualitySamples", s.qualitySamples),
                      read.integerOr("nllPoints", s.nllPoints)}) {
        if (!st) return st.error();
    }
    if (read.has("ks")) {
        if (const io::Json* raw = read.raw("ks"); raw->is_array()) {
            if (Status st = limits::checkCount(limits::kLabKs, "lab.ks", raw->size()); !st) {
                return st.error();
            }
        }
        auto values = read.numbers("ks");
        if (!values) return values.error();
        s.ks.clear();
        for (double v : *values) {
            if (v != static_cast<double>(static_cast<int>(v))) {
                return makeError(ErrorCode::ParseError, "lab.ks", shortestText(v),
                                 "expected whole numbers");
            }
            s.ks.push_back(static_cast<int>(v));
        }
    }
    if (const io::Json* configs = read.raw("configs")) {
        if (!configs->is_array()) {
            return makeError(ErrorCode::ParseError, "lab.configs", io::jsonValueText(*configs),
                             "expected an array");
        }
        if (Status st = limits::checkCount(limits::kLabConfigs, "lab.configs", configs->size());
            !st) {
            return st.error();
        }
        for (size_t i = 0; i < configs->size(); ++i) {
            const std::string prefix = "lab.configs[" + std::to_string(i) + "].";
            if (!(*configs)[i].is_object()) {
                return makeError(ErrorCode::ParseError, prefix, io::jsonValueText((*configs)[i]),
                                 "expected an object");
            }
            const io::JsonFields c(( *configs)[i], prefix);
            LabConfig config;
            for (Status st : {c.stringOr("name", config.name), c.stringOr("colour", config.colour),
                              c.stringOr("schedule", config.schedule),
                              c.stringOr("trajectory", config.trajectory),
                              readChoice(c, "variance", kReverseVariances, config.variance),
                              readChoice(c, "sampler", kSamplers, config.sampler)}) {
                if (!st) return st.error();
            }
            s.configs.push_back(std::move(config));
        }
    }
    if (Status valid = s.validate(0); !valid) return valid.error();
    return s;
}

Result<LabConfig> parseLabConfig(const std::string& text) {
    LabConfig c;
    std::set<std::string> seen;
    size_t begin = 0;
    while (begin <= text.size()) {
        size_t end = text.find(';', begin);
        if (end == std::string::npos) end = text.size();
        const std::string part = text.substr(begin, end - begin);
        begin = end + 1;
        if (part.empty()) continue;  // "a=1;" and an empty spec are fine
        const size_t eq = part.find('=');
        const std::string key = part.substr(0, eq);
        if (eq == std::string::npos) {
            return invalidArgument("config", part, "expected key=value");
        }
        const std::string value = part.substr(eq + 1);
        if (!seen.insert(key).second) return invalidArgument(key, value, "given twice");
        if (key == "name") {
            c.name = value;
        } else if (key == "colour" || key == "color") {
            c.colour = value;
        } else if (key == "schedule") {
            c.schedule = value;
        } else if (key == "trajectory") {
            c.trajectory = value;
        } else if (key == "variance") {
            auto v = parseChoice(kReverseVariances, value, "variance");
            if (!v) return v.error();
            c.variance = *v;
        } else if (key == "sampler") {
            auto v = parseChoice(kSamplers, value, "sampler");
            if (!v) return v.error();
            c.sampler = *v;
        } else {
            return invalidArgument(key, value,
                                   "unknown key; expected name, colour, schedule, trajectory, "
                                   "variance or sampler");
        }
    }
    if (Status s = checkConfig(c, ""); !s) return s.error();
    return c;
}

std::string formatLabConfig(const LabConfig& c) {
    std::string text;
    auto add = [&](const char* key, const std::string& value) {
        text += (text.empty() ? "" : ";") + std::string(key) + "=" + value;
    };
    if (!c.name.empty()) add("name", c.name);
    if (!c.colour.empty()) add("colour", c.colour);
    if (!c.schedule.empty()) add("schedule", c.schedule);
    add("trajectory", c.trajectory);
    add("variance", choiceId(kReverseVariances, c.variance));
    add("sampler", choiceId(kSamplers, c.sampler));
    return text;
}

const std::vector<LabPreset>& labPresets() {
    using gaussian::SamplerKind;
    static const std::vector<LabPreset> presets = {
        {.id = "leading-without-zero-snr",
         .title = "Leading spacing without zero SNR",
         .explanation =
             "Leading spacing stops short of the last timestep, so sampling starts from pure noise "
             "at a step where the data still leave a trace, and the NLL's prior term says what "
             "that costs; trailing spacing reaches the last step but then leaves its first steps "
             "out, so its decoder reads a noisier x, and zero terminal SNR makes the start exact.",
         .configs = {{.name = "leading", .trajectory = "leading"},
                     {.name = "trailing", .trajectory = "trailing"},
                     {.name = "linspace", .trajectory = "linspace"},
                     {.name = "trailing, zero SNR", .schedule = ",zero-snr",
                      .trajectory = "trailing"}},
         .schedule = "",
         .ks = {}},
        {.id = "ddpm-small-k",
         .title = "DDPM's β̃ with few steps",
         .explanation =
             "With few steps the DDPM reverse variance β̃ is far too small and the likelihood "
             "bound explodes; β is much better and the analytic variance, fitted to the model, "
             "better still. The gap closes as the number of steps grows.",
         .configs = {{.name = "DDPM, β̃", .trajectory = "even", .variance = gaussian::ReverseVariance::Small,
                      .sampler = SamplerKind::Ddpm},
                     {.name = "DDPM, β", .trajectory = "even", .variance = gaussian::ReverseVariance::Large,
                      .sampler = SamplerKind::Ddpm},
                     {.name = "Analytic-DDPM", .trajectory = "even",
                      .variance = gaussian::ReverseVariance::Analytic, .sampler = SamplerKind::AnalyticDdpm}},
         .schedule = "",
         .ks = {5, 10, 25, 50, 100}},
        {.id = "karras-on-linear",
         .title = "Karras spacing on a linear-β model",
         .explanation =
             "Karras spacing places the steps evenly in σ to the power 1/ρ, a rule made for "
             "models whose noise level spans a huge range; here it runs on a linear-β schedule, "
             "next to uniform log-SNR, even spacing and the DP optimum, to see where it puts its "
             "steps and what they cost.",
         .configs = {{.name = "karras", .trajectory = "karras"},
                     {.name = "logsnr", .trajectory = "logsnr"},
                     {.name = "even", .trajectory = "even"},
                     {.name = "dp", .trajectory = "dp"}},
         .schedule = "linear",
         .ks = {}},
    };
    return presets;
}

}  // namespace core::project
