// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include "core/project/categorical_params.h"
#include "core/project/gaussian_params.h"

// The project model's enumerated parameters by the identifiers files and the command line use,
// so that tests can name them as users do ("analytic-ddim", "even", "info-linear").
namespace test_support {

inline core::gaussian::SamplerKind samplerKind(const QString& id) {
    return *core::project::parseChoice(core::project::kSamplers, id.toStdString(), "sampler");
}
inline core::project::GaussianTrajectory gaussianTrajectory(const QString& id) {
    return *core::project::parseChoice(core::project::kGaussianTrajectories, id.toStdString(),
                                       "trajectory");
}
inline core::schedule::BetaCurveKind categoricalSchedule(const QString& id) {
    return *core::project::parseChoice(core::project::kCategoricalSchedules, id.toStdString(),
                                       "schedule");
}

}  // namespace test_support
