// SPDX-License-Identifier: MIT
#include "ui/jobs/particle_jobs.h"

#include <algorithm>
#include <cmath>

#include "core/gaussian/rng_streams.h"

namespace ui::jobs {
namespace {

constexpr int kDensityPoints = 20000;
constexpr int kDensityBins = 96;
// Density points are drawn far from the particles' data indices so the two never coincide.
constexpr uint64_t kDensityIndexOffset = uint64_t{1} << 40;

bool isImageDimension(int d) {
    const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(d))));
    return d > 1 && side * side == d;
}

}  // namespace

core::gaussian::SamplerParams particleSamplerParams(const document::GaussianParams& params,
                                                    core::gaussian::SamplerKind kind,
                                                    int count,
                                                    int numThreads) {
    core::gaussian::SamplerParams p;
    p.kind = kind;
    p.eta = params.eta;
    p.clipFirst = params.clipFirst ? document::kClipFirstY : 0.0;
    p.count = count;
    p.seed = params.seed;
    p.recordFrames = true;
    p.parallel.numThreads = numThreads;
    return p;
}

int particleCountFor(const document::GaussianParams& params, int dimension, int nodes) {
    if (dimension != 2 && isImageDimension(dimension)) {
        return std::min(params.particleCount, kMaxParticleImages);
    }
    // Three recordings (forward, A, B) of nodes + 1 frames of d×B doubles.
    const double perParticle = 3.0 * (nodes + 1) * std::max(1, dimension);
    const int affordable = static_cast<int>(kParticleFrameBudget / perParticle);
    return std::clamp(affordable, 1, params.particleCount);
}

core::Result<ParticleFrames> computeParticleFrames(const core::model::GaussianEpsModel& model,
                                                   const core::model::GaussianDataSampler& data,
                                                   const core::schedule::GaussianSchedule& schedule,
                                                   const std::vector<double>& gamma,
                                                   const std::vector<int>& trajectory,
                                                   const document::GaussianParams& params,
                                                   core::Progress& progress,
                                                   int numThreads) {
    const core::gaussian::SamplerKind kindA = params.sampler;
    ParticleFrames out;
    out.dimension = data.dimension();
    out.requested = params.particleCount;
    out.count = particleCountFor(params, out.dimension, static_cast<int>(trajectory.size()));
    // A network that knows its data are images ([C, H, W], or [H, W]) says how to draw them;
    // otherwise a square d is drawn as a greyscale √d × √d image.
    const std::vector<int> shape = model.dataShape();
    if (shape.size() == 3 && (shape[0] == 1 || shape[0] == 3) && shape[1] > 1 && shape[2] > 1) {
        out.images = true;
        out.channels = shape[0];
        out.imageHeight = shape[1];
        out.imageWidth = shape[2];
    } else if (shape.size() == 2 && shape[0] > 1 && shape[1] > 1) {
        out.images = true;
        out.imageHeight = shape[0];
        out.imageWidth = shape[1];
    } else if (out.dimension != 2 && isImageDimension(out.dimension)) {
        out.images = true;
        out.imageHeight = out.imageWidth =
            static_cast<int>(std::lround(std::sqrt(static_cast<double>(out.dimension))));
    }
    out.samplerA = core::project::choiceId(core::project::kSamplers, params.sampler);
    if (params.compareSampler) {
        out.samplerB = core::project::choiceId(core::project::kSamplers, *params.compareSampler);
    }

    progress.setStage("forward particles");
    core::gaussian::ForwardSampleParams forward{
        .count = out.count, .seed = params.seed, .parallel = {.numThreads = numThreads}};
    // The forward sampler walks from x_0 through n = 1; for a trajectory that starts later
    // (trailing, leading with an offset) it walks through 1 and the frame at 1 is dropped, so
    // that the forward frames are 0, τ_1, …, τ_K as the reverse ones.
    const bool lateStart = !trajectory.empty() && trajectory.front() > 1;
    std::vector<int> walk = trajectory;
    if (lateStart) walk.insert(walk.begin(), 1);
    auto frames = core::gaussian::sampleForward(data, schedule, walk, forward, &progress);
    if (!frames) return frames.error();
    out.forward = std::move(frames).value();
    if (lateStart) {
        out.forward.frameSteps.erase(out.forward.frameSteps.begin() + 1);
        out.forward.frames.erase(out.forward.frames.begin() + 1);
    }

    // Same seed and count ⇒ both samplers start from the same x_{τ_K} and share step noise keys.
    progress.setStage("sampling " + out.samplerA);
    auto a = core::gaussian::sampleReverse(model, schedule, gamma, trajectory,
                                           particleSamplerParams(params, kindA, out.count,
                                                                 numThreads),
                                           &progress);
    if (!a) return a.error();
    out.reverseA = std::move(a).value();
    if (!out.samplerB.empty()) {
        auto kindB = core::gaussian::parseSamplerKind(out.samplerB);
        if (!kindB) return kindB.error();
        progress.setStage("sampling " + out.samplerB);
        auto b = core::gaussian::sampleReverse(model, schedule, gamma, trajectory,
                                               particleSamplerParams(params, *kindB, out.count,
                                                                     numThreads),
                                               &progress);
        if (!b) return b.error();
        out.reverseB = std::move(b).value();
    }

    if (out.images) {
        return out;  // image data are drawn as images, with no density beneath
    }
    // The data density beneath the scatter: first two coordinates (d = 1: y = 0).
    progress.setStage("data density");
    core::Matrix points(2, kDensityPoints);
    core::Vector x(out.dimension);
    for (int m = 0; m < kDensityPoints; ++m) {
        const uint64_t index = kDensityIndexOffset + static_cast<uint64_t>(m);
        core::CounterRng rng(params.seed,
                             core::gaussian::rngStream(core::gaussian::RngPurpose::Data, index), 0);
        data.sampleData(index, rng, x);
        points(0, m) = x[0];
        points(1, m) = out.dimension > 1 ? x[1] : 0.0;
        if (m % 1024 == 0 && !progress.poll()) {
            return core::makeError(core::ErrorCode::Cancelled, "", "", "cancelled");
        }
    }
    if (!points.allFinite()) {
        return core::makeError(core::ErrorCode::NumericalError, "data", "",
                               "a data point is not finite");
    }
    // Fixed axes: wide enough for N(0, I) at τ_K and for the data, so motion stays visible.
    out.range = std::clamp(1.1 * points.cwiseAbs().maxCoeff(), 3.0, 50.0);
    out.densityBins = kDensityBins;
    out.density.assign(static_cast<size_t>(kDensityBins) * kDensityBins, 0.0);
    auto bin = [&](double v) {
        return std::clamp(static_cast<int>((v + out.range) / (2.0 * out.range) * kDensityBins), 0,
                          kDensityBins - 1);
    };
    for (int m = 0; m < kDensityPoints; ++m) {
        out.density[static_cast<size_t>(bin(points(1, m))) * kDensityBins + bin(points(0, m))] +=
            1.0;
    }
    const double peak = *std::max_element(out.density.begin(), out.density.end());
    for (double& v : out.density) {
        v /= peak;
    }
    return out;
}

}  // namespace ui::jobs
