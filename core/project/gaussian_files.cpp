// SPDX-License-Identifier: MIT
#include "core/project/gaussian_files.h"

#include "core/gaussian/gamma.h"
#include "core/gaussian/variance.h"

namespace core::project {

Result<GammaTable> readGammaTable(const std::string& path,
                                  const schedule::GaussianSchedule& schedule,
                                  const io::GammaKind* required) {
    const io::GammaKind npyKind = required != nullptr ? *required : io::GammaKind::MsEps;
    auto file = io::readGammaFile(path, schedule.numSteps(), npyKind, required);
    if (!file) return file.error();
    GammaTable table;
    table.kind = file->kind;
    table.gamma = file->kind == io::GammaKind::Gamma
                      ? std::move(file->values)
                      : gaussian::gammaFromMsEps(file->values, schedule);
    return table;
}

Result<io::GammaKind> writeGammaTable(const std::string& path,
                                      const std::vector<double>& gamma,
                                      const schedule::GaussianSchedule& schedule) {
    const bool npy = path.size() >= 4 && (path.compare(path.size() - 4, 4, ".npy") == 0 ||
                                          path.compare(path.size() - 4, 4, ".NPY") == 0);
    const io::GammaKind kind = npy ? io::GammaKind::MsEps : io::GammaKind::Gamma;
    const Status written = npy ? io::writeGammaNpy(path, gaussian::msEpsFromGamma(gamma, schedule))
                               : io::writeGammaCsv(path, gamma, kind);
    if (!written) return written.error();
    return kind;
}

nlohmann::ordered_json planStepsJson(const std::vector<gaussian::PlanStep>& steps) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const gaussian::PlanStep& step : steps) {
        const auto coefficient = [&](double c) {
            return step.linear ? nlohmann::ordered_json(c) : nlohmann::ordered_json(nullptr);
        };
        out.push_back({{"t", step.t},
                       {"s", step.s},
                       {"variance", step.variance},
                       {"x0", coefficient(step.x0)},
                       {"xt", coefficient(step.xt)},
                       {"eps", coefficient(step.eps)}});
    }
    return out;
}

nlohmann::ordered_json planFileJson(const PlanFile& plan,
                                    const schedule::GaussianSchedule& schedule) {
    const int numSteps = schedule.numSteps();
    const double threshold =
        plan.clipFirst > 0.0 ? gaussian::firstPairClipThreshold(plan.clipFirst) : 0.0;
    nlohmann::ordered_json json;
    json["format"] = "diffuscope-plan";
    json["version"] = 1;
    json["schedule"] = plan.schedule;
    json["N"] = numSteps;
    nlohmann::ordered_json alphaBar = nlohmann::ordered_json::array();
    nlohmann::ordered_json betaBar = nlohmann::ordered_json::array();
    for (int n = 1; n <= numSteps; ++n) {
        alphaBar.push_back(schedule.alphaBar(n));
        betaBar.push_back(schedule.betaBar(n));
    }
    json["alpha_bar"] = std::move(alphaBar);
    json["beta_bar"] = std::move(betaBar);
    json["timesteps"] = plan.timesteps;
    json["sampler"] = plan.ddim ? "ddim" : "ddpm";
    json["eta"] = plan.eta;
    json["variance"] = choiceId(kReverseVariances, plan.variance);
    json["clip"] = plan.clipFirst;
    json["clip_threshold"] = threshold > 0.0 ? nlohmann::ordered_json(threshold) : nullptr;
    json["gamma_source"] = plan.gammaSource;
    json["data_range"] = {plan.range.low, plan.range.high};
    json["steps"] = planStepsJson(plan.steps);
    return json;
}

}  // namespace core::project
