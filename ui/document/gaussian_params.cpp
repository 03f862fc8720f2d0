// SPDX-License-Identifier: MIT
#include "ui/document/gaussian_params.h"

#include <cmath>

#include <QStringList>

namespace ui::document {

using core::invalidArgument;

core::Status GaussianParams::validate() const {
    if (schedule != "linear" && schedule != "cosine" && schedule != "scaled-linear" &&
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
    if (trajectory != "even" && trajectory != "quadratic" && trajectory != "dp") {
        return invalidArgument("trajectory", trajectory.toStdString(),
                               "expected even, quadratic or dp");
    }
    if (pathSteps < 2 || pathSteps > numSteps) {
        return invalidArgument("K", std::to_string(pathSteps),
                               "K must lie in 2..N = " + std::to_string(numSteps));
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

std::string GaussianParams::trajectorySpec() const {
    return trajectory.toStdString() + ":" + std::to_string(pathSteps);
}

QJsonObject GaussianParams::toJson() const {
    return {{"schedule", schedule},
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
                           readInt("pathSteps", p.pathSteps), readString("seed", seed),
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
