// SPDX-License-Identifier: MIT
#include "ui/document/gaussian_params.h"

#include <QJsonArray>

#include <cmath>

#include <QStringList>

#include "core/gaussian/trajectory_dp.h"
#include "core/schedule/gaussian_schedule.h"

namespace ui::document {

using core::invalidArgument;

core::Status GaussianParams::validate() const {
    // A custom table ("csv:FILE") is read by the panel before it is applied and by the job;
    // here only its form is checked, so that a project whose file moved still opens.
    const bool custom = schedule.startsWith("csv:") && schedule.size() > 4;
    if (!custom && schedule != "linear" && schedule != "cosine" && schedule != "scaled-linear" &&
        schedule != "sigmoid") {
        return invalidArgument("schedule", schedule.toStdString(),
                               "expected linear, cosine, scaled-linear or sigmoid");
    }
    if (numSteps < 2 || numSteps > 10000) {
        return invalidArgument("N", std::to_string(numSteps), "N must lie in 2..10000");
    }
    if (!(eta >= 0.0 && eta <= 1.0)) {
        return invalidArgument("eta", core::formatValue(eta), "η must lie in [0, 1]");
    }
    if (data.isEmpty()) {
        return invalidArgument("data", "", "choose a data set");
    }
    if (gammaSamples < 1 || gammaSamples > 100000) {
        return invalidArgument("M", std::to_string(gammaSamples), "M must lie in 1..100000");
    }
    if (trajectory != "even" && trajectory != "quadratic" && trajectory != "dp" &&
        trajectory != "list") {
        return invalidArgument("trajectory", trajectory.toStdString(),
                               "expected even, quadratic, dp or list");
    }
    if (trajectory == "list") {
        // The core's own check: whole timesteps, strictly increasing, from 1 to N.
        auto steps = core::schedule::gaussianScheduleFromSpec("linear", numSteps);  // N only
        if (!steps) return steps.error();
        auto resolved = core::gaussian::resolveTrajectory(trajectorySpec(), *steps, nullptr);
        if (!resolved) return resolved.error();
    }
    if (pathSteps < 2 || pathSteps > numSteps) {
        return invalidArgument("K", std::to_string(pathSteps),
                               "K must lie in 2..N = " + std::to_string(numSteps));
    }
    if (!importedGamma.empty()) {
        if (static_cast<int>(importedGamma.size()) != numSteps) {
            return invalidArgument("gamma", std::to_string(importedGamma.size()),
                                   "the imported Γ has " + std::to_string(importedGamma.size()) +
                                       " entries but N = " + std::to_string(numSteps));
        }
        for (size_t i = 0; i < importedGamma.size(); ++i) {
            if (!std::isfinite(importedGamma[i]) || importedGamma[i] < 0.0) {
                return invalidArgument("gamma[" + std::to_string(i + 1) + "]",
                                       core::formatValue(importedGamma[i]),
                                       "Γ must be finite and ≥ 0");
            }
        }
    }
    const QStringList samplers{"ddpm", "ddim", "analytic-ddpm", "analytic-ddim"};
    if (!samplers.contains(sampler)) {
        return invalidArgument("sampler", sampler.toStdString(),
                               "expected ddpm, ddim, analytic-ddpm or analytic-ddim");
    }
    if (compareSampler != "none" && !samplers.contains(compareSampler)) {
        return invalidArgument("compareSampler", compareSampler.toStdString(),
                               "expected none, ddpm, ddim, analytic-ddpm or analytic-ddim");
    }
    if (particleCount < 1 || particleCount > 20000) {
        return invalidArgument("particles", std::to_string(particleCount),
                               "the particle count must lie in 1..20000");
    }
    return {};
}

QString GaussianParams::gammaKey() const {
    QString key = QString("%1|%2|%3|%4|%5|%6|%7")
                      .arg(schedule)
                      .arg(numSteps)
                      .arg(data, model)
                      .arg(gammaSamples)
                      .arg(denoisingEstimator ? "denoising" : "score")
                      .arg(seed);
    if (!importedGamma.empty()) {
        // The values themselves: two imports of different files must not share a result.
        QByteArray bytes(reinterpret_cast<const char*>(importedGamma.data()),
                         static_cast<qsizetype>(importedGamma.size() * sizeof(double)));
        key += "|import:" + QString::number(qHash(bytes), 16);
    }
    return key;
}

std::string GaussianParams::trajectorySpec() const {
    if (trajectory == "list") return "list:" + trajectoryList.toStdString();
    return trajectory.toStdString() + ":" + std::to_string(pathSteps);
}

QJsonObject GaussianParams::toJson() const {
    QJsonObject o{{"schedule", schedule},
            {"numSteps", numSteps},
            {"eta", eta},
            {"data", data},
            {"gammaSamples", gammaSamples},
            {"denoisingEstimator", denoisingEstimator},
            {"trajectory", trajectory},
            {"pathSteps", pathSteps},
            {"seed", QString::number(seed)},  // 64 bits do not fit a JSON double
            {"sampler", sampler},
            {"compareSampler", compareSampler},
            {"clipFirst", clipFirst},
            {"particleCount", particleCount}};
    if (!model.isEmpty()) {
        o["model"] = model;
    }
    if (!trajectoryList.isEmpty()) {
        o["trajectoryList"] = trajectoryList;
    }
    if (!importedGamma.empty()) {
        QJsonArray values;
        for (double v : importedGamma) values.append(v);
        o["importedGamma"] = values;
        o["importedGammaName"] = importedGammaName;
    }
    return o;
}

core::Result<GaussianParams> GaussianParams::fromJson(const QJsonObject& o) {
    // Every field is optional (absent → the default), so a project that never used the
    // Gaussian explorer opens; present fields must have the right type.
    GaussianParams p;
    auto error = [](const char* key, const char* what) {
        return core::makeError(core::ErrorCode::ParseError, std::string("gaussian.") + key, "",
                               what);
    };
    auto readString = [&](const char* key, QString& out) -> core::Status {
        if (!o.contains(key)) return {};
        if (!o.value(key).isString()) return error(key, "a string is expected");
        out = o.value(key).toString();
        return {};
    };
    auto readNumber = [&](const char* key, double& out) -> core::Status {
        if (!o.contains(key)) return {};
        if (!o.value(key).isDouble()) return error(key, "a number is expected");
        out = o.value(key).toDouble();
        return {};
    };
    auto readInt = [&](const char* key, int& out) -> core::Status {
        double v = out;
        if (auto s = readNumber(key, v); !s) return s;
        if (v != std::floor(v) || std::abs(v) > 1e9) return error(key, "a whole number is expected");
        out = static_cast<int>(v);
        return {};
    };
    QString seed = QString::number(p.seed);
    for (core::Status s : {readString("schedule", p.schedule), readInt("numSteps", p.numSteps),
                           readNumber("eta", p.eta), readString("data", p.data),
                           readInt("gammaSamples", p.gammaSamples),
                           readString("trajectory", p.trajectory),
                           readString("trajectoryList", p.trajectoryList),
                           readInt("pathSteps", p.pathSteps), readString("seed", seed),
                           readString("model", p.model),
                           readString("importedGammaName", p.importedGammaName),
                           readString("sampler", p.sampler),
                           readString("compareSampler", p.compareSampler),
                           readInt("particleCount", p.particleCount)}) {
        if (!s) return s.error();
    }
    for (auto [key, out] : {std::pair{"denoisingEstimator", &p.denoisingEstimator},
                            std::pair{"clipFirst", &p.clipFirst}}) {
        if (!o.contains(key)) continue;
        if (!o.value(key).isBool()) {
            return error(key, "true or false is expected");
        }
        *out = o.value(key).toBool();
    }
    if (o.contains("importedGamma")) {
        if (!o.value("importedGamma").isArray()) {
            return error("importedGamma", "an array of numbers is expected");
        }
        const QJsonArray values = o.value("importedGamma").toArray();
        for (qsizetype i = 0; i < values.size(); ++i) {
            if (!values[i].isDouble()) {
                return core::makeError(core::ErrorCode::ParseError,
                                       "gaussian.importedGamma[" + std::to_string(i) + "]", "",
                                       "a number is expected");
            }
            p.importedGamma.push_back(values[i].toDouble());
        }
    }
    bool ok = false;
    p.seed = seed.toULongLong(&ok);
    if (!ok) {
        return error("seed", "a whole number is expected");
    }
    if (auto valid = p.validate(); !valid) {
        core::Error e = valid.error();
        e.field = "gaussian." + e.field;
        return e;
    }
    return p;
}

}  // namespace ui::document
