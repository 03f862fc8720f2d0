// SPDX-License-Identifier: MIT
#pragma once

#include "core/project/gaussian_runs.h"

// The Particles view's computation is core::project::computeParticleFrames, run by
// GaussianExplorer's job after Γ and the trajectory are known.
namespace ui::jobs {

using core::project::computeParticleFrames;
using core::project::kMaxParticleImages;
using core::project::ParticleFrames;

}  // namespace ui::jobs
