// SPDX-License-Identifier: MIT
#include "core/project/lab_settings.h"

namespace core::project {

const std::vector<Choice<LabVariance>> kLabVariances = {
    {LabVariance::Small, "small", "β̃ (small)"},
    {LabVariance::Large, "large", "β (large)"},
    {LabVariance::Analytic, "analytic", "analytic optimum"},
};

std::string LabConfig::trajectorySpec(int k) const {
    const auto comma = trajectory.find(',');
    if (comma == std::string::npos) return trajectory + ":" + std::to_string(k);
    return trajectory.substr(0, comma) + ":" + std::to_string(k) + trajectory.substr(comma);
}

Status LabSettings::validate(int) const { return {}; }
io::Json LabSettings::toJson() const { return io::Json::object(); }
Result<LabSettings> LabSettings::fromJson(const io::Json&) { return LabSettings{}; }
Result<LabConfig> parseLabConfig(const std::string&) { return LabConfig{}; }
std::string formatLabConfig(const LabConfig&) { return {}; }
std::string labColour(const LabConfig& config, int) { return config.colour; }
const std::vector<LabPreset>& labPresets() {
    static const std::vector<LabPreset> presets;
    return presets;
}

}  // namespace core::project
