// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/gaussian/forward_sampler.h"
#include "core/gaussian/sampler.h"
#include "core/model/gaussian_oracles.h"
#include "core/util/progress.h"
#include "core/util/result.h"
#include "ui/document/project_model.h"

// The Particles view's computation: the forward process and two reverse samplers as
// particle frames, run by GaussianExplorer's job after Γ and the trajectory are known.
namespace ui::jobs {

// Particles whose frames are shown: every particle for d = 2 (within kParticleFrameBudget),
// only the first kMaxParticleImages for image data.
inline constexpr int kMaxParticleImages = 36;
// At most this many doubles of recorded frames (forward + both samplers), about 256 MB.
inline constexpr double kParticleFrameBudget = 32e6;

struct ParticleFrames {
    int dimension = 0;                         // d
    int requested = 0;                         // params.particleCount
    int count = 0;                             // B, the particles actually simulated
    bool images = false;                       // drawn as images: the model's [C, H, W] with
                                               // C = 1 or 3, or d a square > 1 (1 × √d × √d)
    int channels = 1, imageHeight = 0, imageWidth = 0;  // the images' layout (row-major CHW)
    std::string samplerA, samplerB;            // sampler names; samplerB empty = no right pane
    core::gaussian::ForwardFrames forward;     // 0, τ_1, …, τ_K
    core::gaussian::SampleResult reverseA;     // τ_K, …, τ_1, 0 (frames recorded)
    core::gaussian::SampleResult reverseB;     // same noise as A; empty when samplerB is empty
    double range = 3.0;                        // axes are [−range, range]² (scatter mode)
    int densityBins = 0;                       // the data density: bins × bins, row-major,
    std::vector<double> density;               // row 0 at y = −range, normalised to max 1
};

// The sampler parameters the view uses for `kind`: params.eta for the DDIM kinds, the F.2 clip
// at document::kClipFirstY when params.clipFirst, the default data range [−1, 1], seed = params.seed.
core::gaussian::SamplerParams particleSamplerParams(const document::GaussianParams& params,
                                                    core::gaussian::SamplerKind kind,
                                                    int count,
                                                    int numThreads);

// Number of particles simulated for d dimensions and K trajectory nodes (see ParticleFrames).
int particleCountFor(const document::GaussianParams& params, int dimension, int nodes);

// Forward frames, both samplers from the same x_{τ_K}, and the data density (2-D histogram of
// the first two coordinates of 20000 data points). Fails with ErrorCode::Cancelled on cancel.
// `model` denoises (the oracle or a network); `data` gives x_0 and the density drawn beneath.
core::Result<ParticleFrames> computeParticleFrames(const core::model::GaussianEpsModel& model,
                                                   const core::model::GaussianDataSampler& data,
                                                   const core::schedule::GaussianSchedule& schedule,
                                                   const std::vector<double>& gamma,
                                                   const std::vector<int>& trajectory,
                                                   const document::GaussianParams& params,
                                                   core::Progress& progress,
                                                   int numThreads);

}  // namespace ui::jobs
