// SPDX-License-Identifier: MIT
#include "core/schedule/diffusers_config.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/io/file_io.h"
#include "core/io/json.h"
#include "core/util/limits.h"
#include "core/util/torch_linspace.h"

// Built with -ffp-contract=off (core/CMakeLists.txt): each float operation rounds as torch's do.
namespace core::schedule {
namespace {

const char* const kBetaSchedules[] = {"linear", "scaled_linear", "squaredcos_cap_v2", "sigmoid"};
const char* const kSpacings[] = {"linspace", "leading", "trailing"};
const char* const kPredictionTypes[] = {"epsilon", "sample", "v_prediction"};

template <size_t M>
bool oneOf(const std::string& value, const char* const (&allowed)[M]) {
    for (const char* a : allowed) {
        if (value == a) return true;
    }
    return false;
}

template <size_t M>
std::string listOf(const char* const (&allowed)[M]) {
    std::string out;
    for (size_t i = 0; i < M; ++i) {
        out += std::string(i == 0 ? "" : i + 1 == M ? " or " : ", ") + allowed[i];
    }
    return out;
}

// torch.cumprod of a float tensor on the CPU: the running product is a double (acc_type),
// each entry rounded to float as it is stored.
std::vector<float> torchCumprod(const std::vector<float>& x) {
    std::vector<float> out(x.size());
    double product = 1.0;
    for (size_t i = 0; i < x.size(); ++i) {
        product *= static_cast<double>(x[i]);
        out[i] = static_cast<float>(product);
    }
    return out;
}

// diffusers' rescale_zero_terminal_snr (Lin et al. 2024, Algorithm 1), in float32.
std::vector<float> rescaleZeroTerminalSnr(const std::vector<float>& betas) {
    std::vector<float> alphas(betas.size());
    for (size_t i = 0; i < betas.size(); ++i) alphas[i] = 1.0f - betas[i];
    const std::vector<float> alphasCumprod = torchCumprod(alphas);
    std::vector<float> s(betas.size());
    for (size_t i = 0; i < s.size(); ++i) s[i] = std::sqrt(alphasCumprod[i]);
    const float s0 = s.front();
    const float sT = s.back();
    const float factor = s0 / (s0 - sT);
    for (float& v : s) {
        v = v - sT;
        v = v * factor;
    }
    std::vector<float> alphaBar(s.size());
    for (size_t i = 0; i < s.size(); ++i) alphaBar[i] = s[i] * s[i];
    std::vector<float> out(betas.size());
    out[0] = 1.0f - alphaBar[0];
    for (size_t i = 1; i < s.size(); ++i) out[i] = 1.0f - alphaBar[i] / alphaBar[i - 1];
    return out;
}

Error keyError(const std::string& where, const std::string& key, const io::Json& value,
               const std::string& why) {
    return invalidArgument(where + ": " + key, io::jsonValueText(value), why);
}

}  // namespace

bool isDiffusersClass(const std::string& name) {
    for (const char* c : kDiffusersClasses) {
        if (name == c) return true;
    }
    return false;
}

bool dropsLastPoint(const std::string& diffusersClass) {
    return diffusersClass == "DPMSolverMultistepScheduler" ||
           diffusersClass == "UniPCMultistepScheduler";
}

Result<DiffusersConfig> parseDiffusersConfig(const std::string& text, const std::string& where) {
    Result<io::Json> parsed = io::parseJsonStrict(text, where);
    if (!parsed) return parsed.error();
    const io::Json& json = *parsed;
    if (!json.is_object()) {
        return invalidArgument(where, io::jsonValueText(json),
                               "a diffusers scheduler config is a JSON object");
    }
    DiffusersConfig config;
    for (const auto& [key, value] : json.items()) {
        if (key == "num_train_timesteps") {
            const std::optional<uint64_t> n = io::jsonUint64(value);
            if (!n || *n < static_cast<uint64_t>(limits::kGaussianSteps.min) ||
                *n > static_cast<uint64_t>(limits::kGaussianSteps.max)) {
                return keyError(where, key, value,
                                "expected a whole number in " +
                                    std::to_string(limits::kGaussianSteps.min) + ".." +
                                    std::to_string(limits::kGaussianSteps.max));
            }
            config.numTrainTimesteps = static_cast<int>(*n);
        } else if (key == "beta_start" || key == "beta_end") {
            if (!value.is_number() || !(value.get<double>() > 0.0 && value.get<double>() < 1.0)) {
                return keyError(where, key, value, "expected a number in (0, 1)");
            }
            (key == "beta_start" ? config.betaStart : config.betaEnd) = value.get<double>();
        } else if (key == "beta_schedule") {
            if (!value.is_string() || !oneOf(value.get<std::string>(), kBetaSchedules)) {
                return keyError(where, key, value, "expected " + listOf(kBetaSchedules));
            }
            config.betaSchedule = value.get<std::string>();
        } else if (key == "trained_betas") {
            if (value.is_null()) continue;
            if (!value.is_array() || value.empty()) {
                return keyError(where, key, value, "expected null or a list of numbers");
            }
            Result<std::vector<double>> betas = io::jsonNumbers(value, where + ": " + key);
            if (!betas) return betas.error();
            config.trainedBetas = *betas;
        } else if (key == "rescale_betas_zero_snr") {
            if (!value.is_boolean()) return keyError(where, key, value, "expected true or false");
            config.rescaleBetasZeroSnr = value.get<bool>();
        } else if (key == "timestep_spacing") {
            if (!value.is_string() || !oneOf(value.get<std::string>(), kSpacings)) {
                return keyError(where, key, value, "expected " + listOf(kSpacings));
            }
            config.timestepSpacing = value.get<std::string>();
        } else if (key == "steps_offset") {
            const std::optional<uint64_t> o = io::jsonUint64(value);
            if (!o || *o > static_cast<uint64_t>(limits::kGaussianSteps.max)) {
                return keyError(where, key, value, "expected a whole number ≥ 0");
            }
            config.stepsOffset = static_cast<int>(*o);
        } else if (key == "_class_name") {
            if (!value.is_string() || value.get<std::string>().empty()) {
                return keyError(where, key, value, "expected the scheduler's class name");
            }
            config.className = value.get<std::string>();
        } else if (key == "prediction_type") {
            if (!value.is_string() || !oneOf(value.get<std::string>(), kPredictionTypes)) {
                return keyError(where, key, value, "expected " + listOf(kPredictionTypes));
            }
            config.predictionType = value.get<std::string>();
        } else {
            config.unknownKeys.push_back(key);
        }
    }
    if (!config.trainedBetas.empty() &&
        static_cast<int>(config.trainedBetas.size()) != config.numTrainTimesteps) {
        return invalidArgument(where + ": trained_betas",
                               std::to_string(config.trainedBetas.size()) + " values",
                               "num_train_timesteps is " +
                                   std::to_string(config.numTrainTimesteps));
    }
    if (config.trainedBetas.empty() && config.betaSchedule != "squaredcos_cap_v2" &&
        !(config.betaStart <= config.betaEnd)) {
        return invalidArgument(where + ": beta_start",
                               formatValue(config.betaStart),
                               "beta_start must not exceed beta_end = " +
                                   formatValue(config.betaEnd));
    }
    return config;
}

Result<DiffusersConfig> readDiffusersConfig(const std::string& path) {
    Result<std::string> text = io::readRegularFile(path, kMaxDiffusersConfigBytes);
    if (!text) return text.error();
    return parseDiffusersConfig(*text, path);
}

Result<DiffusersTables> diffusersTables(const DiffusersConfig& config, const std::string& where) {
    const int n = config.numTrainTimesteps;
    std::vector<float> betas;
    if (!config.trainedBetas.empty()) {
        // torch.tensor(trained_betas, dtype=torch.float32)
        for (double b : config.trainedBetas) betas.push_back(static_cast<float>(b));
    } else if (config.betaSchedule == "linear") {
        betas = torchLinspace(static_cast<float>(config.betaStart),
                              static_cast<float>(config.betaEnd), n);
    } else if (config.betaSchedule == "scaled_linear") {
        // linspace(beta_start**0.5, beta_end**0.5) ** 2: the roots in double, the rest in float.
        betas = torchLinspace(static_cast<float>(std::sqrt(config.betaStart)),
                              static_cast<float>(std::sqrt(config.betaEnd)), n);
        for (float& b : betas) b = b * b;
    } else if (config.betaSchedule == "squaredcos_cap_v2") {
        // betas_for_alpha_bar: Python floats (double), min(·, 0.999), then float32.
        auto alphaBar = [](double t) {
            const double c = std::cos((t + 0.008) / 1.008 * std::numbers::pi / 2.0);
            return c * c;
        };
        for (int i = 0; i < n; ++i) {
            const double t1 = static_cast<double>(i) / n;
            const double t2 = static_cast<double>(i + 1) / n;
            betas.push_back(static_cast<float>(std::min(1.0 - alphaBar(t2) / alphaBar(t1), 0.999)));
        }
    } else {
        // sigmoid: torch.sigmoid(linspace(−6, 6)) · (beta_end − beta_start) + beta_start, the
        // Python scalars rounded to float. σ is taken in double and rounded (torch's float
        // sigmoid may differ from it in the last bit).
        const float scale = static_cast<float>(config.betaEnd - config.betaStart);
        const float offset = static_cast<float>(config.betaStart);
        for (float x : torchLinspace(-6.0f, 6.0f, n)) {
            const float s = static_cast<float>(1.0 / (1.0 + std::exp(-static_cast<double>(x))));
            betas.push_back(s * scale + offset);
        }
    }
    if (config.rescaleBetasZeroSnr) {
        if (n < 2) {
            return invalidArgument(where + ": rescale_betas_zero_snr", "true",
                                   "the rescale needs num_train_timesteps ≥ 2");
        }
        betas = rescaleZeroTerminalSnr(betas);
    }
    std::vector<float> alphas(betas.size());
    for (size_t i = 0; i < betas.size(); ++i) alphas[i] = 1.0f - betas[i];
    DiffusersTables tables;
    tables.alphasCumprod = torchCumprod(alphas);
    tables.betas = std::move(betas);
    return tables;
}

Result<GaussianSchedule> diffusersSchedule(const DiffusersConfig& config, const std::string& where) {
    Result<DiffusersTables> tables = diffusersTables(config, where);
    if (!tables) return tables.error();
    const std::vector<double> betas(tables->betas.begin(), tables->betas.end());
    const std::vector<double> alphaBars(tables->alphasCumprod.begin(), tables->alphasCumprod.end());
    return GaussianSchedule::fromTables(betas, alphaBars, where);
}

std::string diffusersConfigNote(const DiffusersConfig& config, const std::string& where) {
    const bool unknownClass = !config.className.empty() && !isDiffusersClass(config.className);
    if (config.unknownKeys.empty() && !unknownClass) return {};
    std::string keys;
    for (size_t i = 0; i < config.unknownKeys.size(); ++i) {
        keys += (i == 0 ? "" : ", ") + config.unknownKeys[i];
    }
    std::string note = where + ": ";
    if (!keys.empty()) note += "keys not used here: " + keys;
    if (unknownClass) {
        note += std::string(keys.empty() ? "" : "; ") + "_class_name " + config.className +
                " has no spacing arithmetic here: DDIMScheduler's is used";
    }
    return note;
}

std::string diffusersTrajectorySpec(const DiffusersConfig& config, int numTimesteps) {
    if (config.timestepSpacing.empty()) return {};
    std::string spec = config.timestepSpacing + ":" + std::to_string(numTimesteps);
    // Only leading adds steps_offset in diffusers' set_timesteps.
    if (config.timestepSpacing == "leading" && config.stepsOffset != 0) {
        spec += ",offset=" + std::to_string(config.stepsOffset);
    }
    // The class where its arithmetic (or Euler's float32 sigmas) differs from DDIMScheduler's.
    const bool differs = config.className == kEulerClass ||
                         (dropsLastPoint(config.className) && config.timestepSpacing != "trailing");
    if (differs) spec += ",class=" + config.className;
    return spec;
}

std::string scheduleSpecNote(const std::string& spec) {
    const std::string base = splitScheduleSpec(spec).base;
    const std::string prefix = kDiffusersPrefix;
    if (base.rfind(prefix, 0) != 0) return {};
    const std::string path = base.substr(prefix.size());
    Result<DiffusersConfig> config = readDiffusersConfig(path);
    return config ? diffusersConfigNote(*config, path) : std::string();
}

namespace {

std::string diffusersPath(const std::string& spec) {
    const std::string base = splitScheduleSpec(spec).base;
    const std::string prefix = kDiffusersPrefix;
    return base.rfind(prefix, 0) == 0 ? base.substr(prefix.size()) : std::string();
}

}  // namespace

std::string scheduleSpecTrajectory(const std::string& spec, int numTimesteps) {
    const std::string path = diffusersPath(spec);
    if (path.empty()) return {};
    Result<DiffusersConfig> config = readDiffusersConfig(path);
    return config ? diffusersTrajectorySpec(*config, numTimesteps) : std::string();
}

std::string predictionTypeMismatch(const std::string& spec, const std::string& modelPrediction,
                                   const std::string& modelPath) {
    const std::string path = diffusersPath(spec);
    if (path.empty() || modelPrediction.empty()) return {};
    Result<DiffusersConfig> config = readDiffusersConfig(path);
    if (!config || config->predictionType.empty() || config->predictionType == modelPrediction) {
        return {};
    }
    return path + " says " + config->predictionType + " but the model " + modelPath +
           " predicts " + modelPrediction + " (its diffuscope.json)";
}

namespace {

// ᾱ_N = 2⁻²⁴ under zero terminal SNR keeps σ_N finite (σ = 4096), as diffusers does.
constexpr double kZeroSnrAlphaBar = 1.0 / 16777216.0;

// DDIMScheduler.step goes from t to t − ⌊N/K⌋: "previous" for each listed t (descending), and
// a note when that is not the next listed timestep (for the last: not below 0, the end).
nlohmann::ordered_json ddimPrevious(const std::vector<int>& n, int numSteps, bool warn,
                                    std::vector<std::string>& notes) {
    const int k = static_cast<int>(n.size());
    const int ratio = numSteps / k;
    nlohmann::ordered_json previous = nlohmann::ordered_json::array();
    int differ = 0;
    std::string first;
    for (int i = 0; i < k; ++i) {
        const int t = n[static_cast<size_t>(k - 1 - i)] - 1;
        const int prev = t - ratio;
        previous.push_back(prev);
        const bool last = i == k - 1;
        const int next = last ? -1 : n[static_cast<size_t>(k - 2 - i)] - 1;
        if (last ? prev >= 0 : prev != next) {
            if (differ++ == 0) {
                first = "t = " + std::to_string(t) + " → " + std::to_string(prev) + ", " +
                        (last ? std::string("not the end") : "next listed " + std::to_string(next));
            }
        }
    }
    if (warn && differ > 0) {
        notes.push_back("DDIMScheduler.step goes from t to t − N//K = t − " +
                        std::to_string(ratio) + ", which is not the next listed timestep at " +
                        std::to_string(differ) + " of " + std::to_string(k) + " steps (" + first +
                        "); pass this list to a scheduler that steps through it");
    }
    return previous;
}

// EulerDiscreteScheduler's σ at its own t: its table √((1 − ᾱ)/ᾱ) in float32, np.interp at t
// in double, then float32. Adds the note of the largest difference from σ at the nearest whole
// timesteps `n` (increasing), which the analyses use.
nlohmann::ordered_json eulerSigmas(const std::vector<double>& t, const std::vector<int>& n,
                                   const GaussianSchedule& schedule,
                                   std::vector<std::string>& notes) {
    const int numSteps = schedule.numSteps();
    const auto table = [&](int index) {  // 0-based t
        float a = static_cast<float>(schedule.alphaBar(index + 1));
        if (a == 0.0f) a = static_cast<float>(kZeroSnrAlphaBar);
        return static_cast<double>(std::sqrt((1.0f - a) / a));
    };
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    double largest = 0.0;
    size_t where = 0;
    for (size_t i = 0; i < t.size(); ++i) {
        const int low = std::clamp(static_cast<int>(std::floor(t[i])), 0, numSteps - 1);
        const int high = std::min(low + 1, numSteps - 1);
        const double slope = table(high) - table(low);
        const double sigma = static_cast<float>(slope * (t[i] - low) + table(low));
        values.push_back(sigma);
        const int whole = n[n.size() - 1 - i];
        const double a = schedule.alphaBar(whole);
        const double exact = a == 0.0 ? std::sqrt((1.0 - kZeroSnrAlphaBar) / kZeroSnrAlphaBar)
                                      : std::sqrt(schedule.betaBar(whole) / a);
        if (std::abs(sigma - exact) > largest) {
            largest = std::abs(sigma - exact);
            where = i;
        }
    }
    values.push_back(0.0);
    if (!t.empty()) {
        notes.push_back("EulerDiscreteScheduler's own σ (float32, at its t) differ from σ at the "
                        "nearest whole timesteps, which the analyses use, by at most " +
                        formatValue(largest) + " (t = " + formatValue(t[where]) + ", n = " +
                        std::to_string(n[n.size() - 1 - where]) + ")");
    }
    return values;
}

}  // namespace

PipelineTimesteps pipelineTimesteps(const std::vector<int>& n, const GaussianSchedule& schedule,
                                    TimestepConvention convention, bool json,
                                    const PipelineClass& pipelineClass) {
    PipelineTimesteps out;
    const bool euler =
        !n.empty() && pipelineClass.eulerTimesteps.size() == n.size();
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    nlohmann::ordered_json previous;
    const char* key = "n";
    if (convention == TimestepConvention::Diffuscope) {
        for (int v : n) values.push_back(v);
    } else if (convention == TimestepConvention::Diffusers) {
        key = "timesteps";
        if (euler) {
            for (double t : pipelineClass.eulerTimesteps) {
                if (t == std::floor(t)) values.push_back(static_cast<long long>(t));
                else values.push_back(t);
            }
        } else {
            for (auto it = n.rbegin(); it != n.rend(); ++it) values.push_back(*it - 1);
        }
        if (!n.empty()) {
            const bool ddimSteps = pipelineClass.spacingClass.empty() ||
                                   pipelineClass.spacingClass == "DDIMScheduler";
            previous = ddimPrevious(n, schedule.numSteps(), ddimSteps, out.notes);
        }
    } else {
        key = "sigmas";
        if (euler) {
            values = eulerSigmas(pipelineClass.eulerTimesteps, n, schedule, out.notes);
        } else {
            for (auto it = n.rbegin(); it != n.rend(); ++it) {
                const double alphaBar = schedule.alphaBar(*it);
                if (alphaBar == 0.0) {
                    out.notes.push_back("ᾱ_" + std::to_string(*it) +
                                        " = 0 (zero terminal SNR): σ is taken at ᾱ = 2⁻²⁴ as "
                                        "diffusers' Euler scheduler does");
                    values.push_back(std::sqrt((1.0 - kZeroSnrAlphaBar) / kZeroSnrAlphaBar));
                } else {
                    values.push_back(std::sqrt(schedule.betaBar(*it) / alphaBar));
                }
            }
            values.push_back(0.0);
        }
    }
    const auto dump = [](const nlohmann::ordered_json& j) {
        return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    };
    if (json) {
        nlohmann::ordered_json object{{key, values}};
        if (!previous.is_null()) object["previous"] = previous;
        out.text = dump(object) + '\n';
    } else {
        for (size_t i = 0; i < values.size(); ++i) out.text += (i == 0 ? "" : ", ") + dump(values[i]);
        out.text += '\n';
    }
    return out;
}

bool isFileScheduleSpec(const std::string& base) {
    for (const std::string prefix : {"csv:", kDiffusersPrefix}) {
        if (base.size() > prefix.size() && base.rfind(prefix, 0) == 0) return true;
    }
    return false;
}

}  // namespace core::schedule
