// SPDX-License-Identifier: MIT
#include "core/project/gaussian_runs.h"

#include <algorithm>
#include <cmath>

#include "core/data/digits.h"
#include "core/data/gaussian_data.h"
#include "core/gaussian/rng_streams.h"
#include "core/gaussian/spacing.h"
#include "core/util/rng.h"
#include "core/trajectory/least_cost_path.h"

namespace core::project {
namespace {

Error cancelled() { return makeError(ErrorCode::Cancelled, "", "", "cancelled"); }

// Γ of an ε-model on the data (`exact`: the model is the data's oracle). With `partials`, a
// cancelled estimate keeps its finished timesteps (per Γ key) and the next run for the same key
// resumes there; the finished estimate stays there until the caller has shown it, so that a
// cancel in a later stage loses none of it.
Result<gaussian::GammaEstimate> estimate(const model::GaussianEpsModel& model, bool exact,
                                         const std::string& key, const GaussianParams& params,
                                         const GaussianSetup& setup, PartialGammas* partials,
                                         int threads, Progress& progress, int* resumedAfter,
                                         std::vector<int> onlyTimesteps) {
    gaussian::GammaParams gammaParams;
    gammaParams.numSamples = params.gammaSamples;
    gammaParams.seed = params.seed;
    auto estimator = resolveEstimator(params.estimator, exact);
    if (!estimator) return estimator.error();
    gammaParams.estimator = *estimator;
    gammaParams.parallel.numThreads = threads;
    const model::GaussianDataSampler& data = *setup.data;
    if (!onlyTimesteps.empty() || partials == nullptr) {
        gammaParams.timesteps = std::move(onlyTimesteps);
        return gaussian::estimateGamma(model, data, setup.schedule, gammaParams, &progress);
    }
    gaussian::GammaEstimate partial;
    {
        std::lock_guard lock(partials->mutex);
        if (auto it = partials->byKey.find(key); it != partials->byKey.end()) {
            partial = std::move(it->second);
            partials->byKey.erase(it);
        }
    }
    const int resumed = static_cast<int>(partial.timesteps.size());
    auto result = gaussian::estimateGammaResumable(model, data, setup.schedule, gammaParams,
                                                   partial, &progress);
    if (!result) {
        if (result.error().code == ErrorCode::Cancelled && !partial.timesteps.empty()) {
            std::lock_guard lock(partials->mutex);
            partials->byKey[key] = std::move(partial);
        }
        return result.error();
    }
    if (resumedAfter != nullptr) *resumedAfter = resumed;
    std::lock_guard lock(partials->mutex);
    partials->byKey[key] = *result;
    return *result;
}

// Γ_1..Γ_N imported from a file, as an estimate with no standard errors.
gaussian::GammaEstimate importedEstimate(const GaussianParams& params,
                                         const schedule::GaussianSchedule& schedule) {
    gaussian::GammaEstimate e;
    std::vector<double> table{0.0};  // entry 0 unused, as in Γ files
    table.insert(table.end(), params.importedGamma.begin(), params.importedGamma.end());
    const std::vector<double> msEps = gaussian::msEpsFromGamma(table, schedule);
    for (int n = 1; n <= params.numSteps; ++n) {
        e.timesteps.push_back(n);
        e.gamma.push_back(table[n]);
        e.standardError.push_back(0.0);
        e.msEps.push_back(msEps[n]);
    }
    return e;
}

GaussianParams oracleParamsOf(const GaussianParams& params) {
    GaussianParams oracle = params;
    oracle.model.clear();
    oracle.importedGamma.clear();
    return oracle;
}

constexpr int kDensityPoints = 20000;
constexpr int kDensityBins = 96;
// Density points are drawn far from the particles' data indices so the two never coincide.
constexpr uint64_t kDensityIndexOffset = uint64_t{1} << 40;

bool isImageDimension(int d) {
    const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(d))));
    return d > 1 && side * side == d;
}

}  // namespace

Result<ProjectGamma> projectGamma(const GaussianParams& params, const GaussianSetup& setup,
                                  const GammaCache* saved, PartialGammas* partials, int threads,
                                  Progress& progress, std::vector<int> onlyTimesteps) {
    ProjectGamma out;
    const std::string key = params.gammaKey();
    if (!params.importedGamma.empty()) {
        out.estimate = importedEstimate(params, setup.schedule);
        out.source = GammaSource::Imported;
    } else if (saved != nullptr && saved->key == key && setup.modelError.empty()) {
        out.estimate = saved->estimate;
        out.source = GammaSource::SavedWithProject;
    } else {
        if (!onlyTimesteps.empty()) {
            // gammaTable needs n = 1 and n = N.
            onlyTimesteps.push_back(1);
            onlyTimesteps.push_back(params.numSteps);
            std::sort(onlyTimesteps.begin(), onlyTimesteps.end());
            onlyTimesteps.erase(std::unique(onlyTimesteps.begin(), onlyTimesteps.end()),
                                onlyTimesteps.end());
        }
        progress.setStage("estimating Γ");
        auto e = estimate(*setup.model, !setup.usesNetwork, key, params, setup, partials, threads,
                          progress, &out.resumedAfter, std::move(onlyTimesteps));
        if (!e) return e.error();
        out.estimate = std::move(e).value();
    }
    auto table = gaussian::gammaTable(out.estimate, params.numSteps);
    if (!table) return table.error();
    out.table = std::move(table).value();
    return out;
}

Result<gaussian::GammaEstimate> oracleGamma(const GaussianParams& params,
                                            const GaussianSetup& setup, PartialGammas* partials,
                                            int threads, Progress& progress) {
    progress.setStage("estimating the oracle's Γ");
    return estimate(*setup.data, true, oracleParamsOf(params).gammaKey(), params, setup, partials,
                    threads, progress, nullptr, {});
}

Result<gaussian::ResolvedTrajectory> projectTrajectory(const GaussianParams& params,
                                                       const schedule::GaussianSchedule& schedule,
                                                       const std::vector<double>& gamma,
                                                       int threads, Progress* progress,
                                                       const gaussian::DataRange& range) {
    gaussian::DpOptions options;
    options.variant = params.dpVariant;
    options.range = range;
    options.parallel.numThreads = threads;
    auto trajectory = gaussian::resolveTrajectory(
        params.trajectorySpec(), schedule, gamma.empty() ? nullptr : &gamma, options, progress);
    if (!trajectory) return trajectory.error();
    trajectory->endsNote =
        gaussian::trajectoryEndsNote(trajectory->timesteps, schedule.numSteps());
    return trajectory;
}

Result<std::vector<gaussian::PairVariance>> projectVariances(
    const GaussianParams& params, const schedule::GaussianSchedule& schedule,
    const std::vector<double>& gamma, const std::vector<int>& timesteps,
    const gaussian::DataRange& range) {
    gaussian::ForwardProcess forward;
    forward.eta = params.eta;
    return gaussian::trajectoryVariances(schedule, gamma, timesteps, forward, range);
}

std::string GaussianAnalysis::gammaSourceText() const {
    switch (gammaSource) {
        case GammaSource::Imported: return "imported from " + params.importedGammaName;
        case GammaSource::SavedWithProject: return "saved with the project";
        case GammaSource::Estimated: break;
    }
    return "estimated";
}

Status analyseGaussian(const GaussianParams& params, const SetupSources& sources,
                       const GaussianAnalysis* previous, const GammaCache& saved,
                       PartialGammas& partials, int threads, Progress& progress,
                       GaussianAnalysis& out) {
    out.params = params;
    // A checkpoint that cannot be used (missing, wrong N or d) leaves the exact oracle in place
    // with a message.
    auto setup = GaussianSetup::build(params, sources, false);
    if (!setup) return setup.error();
    out.schedule = setup->schedule;
    out.data = setup->data;
    out.model = setup->model;
    out.modelError = setup->modelError;
    out.dataVariance = static_cast<const model::GaussianDataSampler&>(*setup->data)
                           .variancePerDimension();
    const std::string key = params.gammaKey();
    if (previous && previous->params.gammaKey() == key && previous->modelError == out.modelError) {
        out.estimate = previous->estimate;
        out.gammaSource = previous->gammaSource;
        out.gammaReused = true;
    } else {
        auto gamma = projectGamma(params, *setup, &saved, &partials, threads, progress);
        if (!gamma) return gamma.error();
        out.estimate = std::move(gamma->estimate);
        out.gammaSource = gamma->source;
        out.gammaResumedAfter = gamma->resumedAfter;
    }
    out.fromCache = out.gammaSource != GammaSource::Estimated;
    if (setup->usesNetwork) {
        const std::string oracleKey = oracleParamsOf(params).gammaKey();
        if (previous && previous->oracleKey == oracleKey) {
            out.oracleEstimate = previous->oracleEstimate;
        } else {
            auto e = oracleGamma(params, *setup, &partials, threads, progress);
            if (!e) return e.error();
            out.oracleEstimate = std::move(e).value();
        }
        out.oracleKey = oracleKey;
    }
    auto table = gaussian::gammaTable(out.estimate, params.numSteps);
    if (!table) return table.error();
    out.gamma = std::move(table).value();

    auto trajectory = projectTrajectory(params, out.schedule, out.gamma, threads);
    if (!trajectory) return trajectory.error();
    out.trajectory = std::move(trajectory).value();
    auto pairs = projectVariances(params, out.schedule, out.gamma, out.trajectory.timesteps);
    if (!pairs) return pairs.error();
    out.pairs = std::move(pairs).value();
    // The Trajectory view's rows and matrix: all three kinds at this K on the same Γ.
    auto cost = gaussian::dpCostMatrix(out.schedule, out.gamma, {}, {.numThreads = threads});
    if (!cost) return cost.error();
    out.cost = std::move(cost).value();
    // A typed list is compared with the other kinds at its own number of timesteps.
    GaussianParams rows = params;
    if (params.trajectory == GaussianTrajectory::List) {
        rows.pathSteps = static_cast<int>(out.trajectory.timesteps.size());
    }
    for (auto [kind, target] : {std::pair{GaussianTrajectory::Dp, &out.dpTimesteps},
                                std::pair{GaussianTrajectory::Even, &out.evenTimesteps},
                                std::pair{GaussianTrajectory::Quadratic,
                                          &out.quadraticTimesteps}}) {
        if (params.trajectory == kind) {
            *target = out.trajectory.timesteps;  // already resolved
            continue;
        }
        rows.trajectory = kind;
        auto resolved = projectTrajectory(rows, out.schedule, out.gamma, threads);
        if (!resolved) return resolved.error();
        *target = resolved->timesteps;
    }
    if (progress.cancelled()) return cancelled();
    return {};
}

Result<std::shared_ptr<model::GaussianOracle>> heldOutData(const std::string& dataSpec,
                                                           const SetupSources& sources) {
    return gaussianData(data::isDigitsSpec(dataSpec) ? std::string("digits:test") : dataSpec,
                        sources);
}

int heldOutLevels(const std::string& dataSpec) {
    return data::isDigitsSpec(dataSpec) ? data::kDigitsMaxIntensity + 1 : 256;
}

Result<gaussian::NllResult> projectNll(const GaussianParams& params, const GaussianSetup& setup,
                                       const model::GaussianDataSampler& data,
                                       const std::vector<double>& gamma,
                                       const std::vector<int>& timesteps,
                                       const NllRequest& request, int threads,
                                       Progress& progress) {
    gaussian::NllParams nll{.variance = request.variance,
                            .levels = request.levels > 0 ? request.levels
                                                         : heldOutLevels(params.data),
                            .range = request.range,
                            .numSamples = request.points,
                            .seed = params.seed,
                            .parallel = {.numThreads = threads}};
    progress.setStage("negative ELBO");
    return gaussian::negativeElbo(*setup.model, data, setup.schedule, gamma, timesteps, nll,
                                  &progress);
}

std::vector<int> defaultSweepKs(int numSteps) {
    std::vector<int> ks;
    for (int k : {2, 5, 10, 25, 50, 100, 200, 500, 1000}) {
        if (k <= numSteps) ks.push_back(k);
    }
    return ks;
}

Result<NllSweep> nllSweep(const GaussianParams& params, const GaussianSetup& setup,
                          const SetupSources& sources, const std::vector<double>& gamma,
                          const std::vector<int>& ks, int points, int threads,
                          Progress& progress) {
    if (ks.empty()) {
        return invalidArgument("K", "none", "give at least one number of steps in 2..N = " +
                                                std::to_string(params.numSteps));
    }
    for (size_t i = 0; i < ks.size(); ++i) {
        if (ks[i] < 2 || ks[i] > params.numSteps || (i > 0 && ks[i] <= ks[i - 1])) {
            return invalidArgument("K", std::to_string(ks[i]),
                                   "the numbers of steps must increase, each in 2..N = " +
                                       std::to_string(params.numSteps));
        }
    }
    auto heldOut = heldOutData(params.data, sources);
    if (!heldOut) return heldOut.error();
    NllSweep sweep;
    sweep.ks = ks;
    sweep.points = points;
    sweep.seed = params.seed;
    // One O(K_max·N²) DP sweep gives the optimal path for every K.
    progress.setStage("DP paths");
    gaussian::DpOptions options;
    options.variant = params.dpVariant;
    options.parallel.numThreads = threads;
    auto dp = gaussian::dpTrajectoriesUpTo(setup.schedule, gamma, ks.back(), options, &progress);
    if (!dp) return dp.error();
    std::vector<std::vector<int>> trajectories;
    for (int k : ks) {
        auto even = trajectory::gaussianEvenTrajectory(params.numSteps, k);
        if (!even) return even.error();
        sweep.trajectories[0].push_back(*even);
        sweep.trajectories[1].push_back((*dp)[static_cast<size_t>(k - 2)].timesteps);
    }
    for (const auto& kind : sweep.trajectories) {
        trajectories.insert(trajectories.end(), kind.begin(), kind.end());
    }
    progress.setStage("negative ELBO");
    gaussian::NllParams nll{.levels = heldOutLevels(params.data),
                            .numSamples = points,
                            .seed = params.seed,
                            .parallel = {.numThreads = threads}};
    const std::vector<gaussian::ReverseVariance> variances(NllSweep::kVariances.begin(),
                                                       NllSweep::kVariances.end());
    const model::GaussianDataSampler& data = **heldOut;
    auto cells = gaussian::negativeElboSweep(*setup.model, data, setup.schedule, gamma,
                                             trajectories, variances, nll, &progress);
    if (!cells) return cells.error();
    const size_t numK = ks.size();
    for (size_t kind = 0; kind < 2; ++kind) {
        for (size_t v = 0; v < variances.size(); ++v) {
            for (size_t i = 0; i < numK; ++i) {
                const auto& cell = (*cells)[kind * numK + i][v];
                sweep.bitsPerDim[kind][v].push_back(cell.bitsPerDim);
                sweep.standardError[kind][v].push_back(cell.standardError);
            }
        }
    }
    return sweep;
}

gaussian::SamplerParams projectSamplerParams(const GaussianParams& params,
                                             gaussian::SamplerKind kind, int count, int threads,
                                             bool recordFrames) {
    gaussian::SamplerParams p;
    p.kind = kind;
    p.eta = params.eta;
    p.clipFirst = params.clipFirst ? kClipFirstY : 0.0;
    p.count = count;
    p.seed = params.seed;
    p.recordFrames = recordFrames;
    p.parallel.numThreads = threads;
    return p;
}

bool samplerNeedsGamma(const GaussianParams& params) {
    return params.sampler == gaussian::SamplerKind::AnalyticDdpm ||
           params.sampler == gaussian::SamplerKind::AnalyticDdim ||
           params.trajectory == GaussianTrajectory::Dp;
}

Result<gaussian::SampleResult> projectSample(const GaussianParams& params,
                                             const GaussianSetup& setup,
                                             const std::vector<double>& gamma,
                                             const std::vector<int>& timesteps,
                                             const SampleRequest& request, int threads,
                                             Progress* progress) {
    gaussian::SamplerParams sampler =
        projectSamplerParams(params, params.sampler, request.count, threads, request.frames);
    sampler.clipFirst = request.clipFirst;
    sampler.range = request.range;
    sampler.ddpmVariance = request.ddpmVariance;
    return gaussian::sampleReverse(*setup.model, setup.schedule, gamma, timesteps, sampler,
                                   progress);
}

std::string gammaProvenance(const GaussianParams& params, const GaussianSetup& setup,
                            GammaSource source) {
    const std::string model = params.model.empty() ? "oracle" : params.model;
    std::string how = "estimator ";
    if (auto estimator = resolveEstimator(params.estimator, !setup.usesNetwork); estimator) {
        how += *estimator == gaussian::GammaEstimator::Score       ? "score"
               : *estimator == gaussian::GammaEstimator::Denoising ? "denoising"
                                                                  : "error";
    } else {
        how += choiceId(kGammaEstimators, params.estimator);
    }
    how += ", M = " + std::to_string(params.gammaSamples) + ", seed " +
           std::to_string(params.seed) + ", model " + model + ", data " + params.data;
    switch (source) {
        case GammaSource::Imported: return "imported from " + params.importedGammaName;
        case GammaSource::SavedWithProject: return "saved with the project (" + how + ")";
        case GammaSource::Estimated: break;
    }
    return (setup.usesNetwork ? "estimated (" : "oracle: estimated with the exact oracle (") +
           how + ")";
}

Result<std::vector<gaussian::PlanStep>> projectSamplingPlan(
    const GaussianParams& params, bool ddim, gaussian::ReverseVariance variance, double clipFirst,
    const schedule::GaussianSchedule& schedule, const std::vector<double>& gamma,
    const std::vector<int>& timesteps, const gaussian::DataRange& range) {
    using gaussian::SamplerKind;
    if (ddim && variance == gaussian::ReverseVariance::Large) {
        return invalidArgument("variance", "large",
                               "the DDIM sampler's variance is analytic or small (η²β̃); large "
                               "is the DDPM sampler's");
    }
    const bool analytic = variance == gaussian::ReverseVariance::Analytic;
    const SamplerKind kind = ddim ? (analytic ? SamplerKind::AnalyticDdim : SamplerKind::Ddim)
                                  : (analytic ? SamplerKind::AnalyticDdpm : SamplerKind::Ddpm);
    gaussian::SamplerParams sampler = projectSamplerParams(params, kind, 1, 1, false);
    sampler.clipFirst = clipFirst;
    sampler.range = range;
    sampler.ddpmVariance = variance == gaussian::ReverseVariance::Large
                               ? gaussian::BaselineVariance::Large
                               : gaussian::BaselineVariance::Small;
    return gaussian::samplingPlan(schedule, gamma, timesteps, sampler);
}

int particleCountFor(const GaussianParams& params, int dimension, int nodes) {
    if (dimension != 2 && isImageDimension(dimension)) {
        return std::min(params.particleCount, kMaxParticleImages);
    }
    // Three recordings (forward, A, B) of nodes + 1 frames of d×B doubles.
    const double perParticle = 3.0 * (nodes + 1) * std::max(1, dimension);
    const int affordable = static_cast<int>(kParticleFrameBudget / perParticle);
    return std::clamp(affordable, 1, params.particleCount);
}

Result<ParticleFrames> computeParticleFrames(const model::GaussianEpsModel& model,
                                             const model::GaussianDataSampler& data,
                                             const schedule::GaussianSchedule& schedule,
                                             const std::vector<double>& gamma,
                                             const std::vector<int>& trajectory,
                                             const GaussianParams& params, Progress& progress,
                                             int threads) {
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
    out.samplerA = choiceId(kSamplers, params.sampler);
    if (params.compareSampler) {
        out.samplerB = choiceId(kSamplers, *params.compareSampler);
    }

    progress.setStage("forward particles");
    gaussian::ForwardSampleParams forward{
        .count = out.count, .seed = params.seed, .parallel = {.numThreads = threads}};
    // The forward sampler walks from x_0 through n = 1; for a trajectory that starts later
    // (trailing, leading with an offset) it walks through 1 and the frame at 1 is dropped, so
    // that the forward frames are 0, τ_1, …, τ_K as the reverse ones.
    const bool lateStart = !trajectory.empty() && trajectory.front() > 1;
    std::vector<int> walk = trajectory;
    if (lateStart) walk.insert(walk.begin(), 1);
    auto frames = gaussian::sampleForward(data, schedule, walk, forward, &progress);
    if (!frames) return frames.error();
    out.forward = std::move(frames).value();
    if (lateStart) {
        out.forward.frameSteps.erase(out.forward.frameSteps.begin() + 1);
        out.forward.frames.erase(out.forward.frames.begin() + 1);
    }

    // Same seed and count ⇒ both samplers start from the same x_{τ_K} and share step noise keys.
    progress.setStage("sampling " + out.samplerA);
    auto a = gaussian::sampleReverse(
        model, schedule, gamma, trajectory,
        projectSamplerParams(params, params.sampler, out.count, threads, true), &progress);
    if (!a) return a.error();
    out.reverseA = std::move(a).value();
    if (params.compareSampler) {
        progress.setStage("sampling " + out.samplerB);
        auto b = gaussian::sampleReverse(
            model, schedule, gamma, trajectory,
            projectSamplerParams(params, *params.compareSampler, out.count, threads, true),
            &progress);
        if (!b) return b.error();
        out.reverseB = std::move(b).value();
    }

    if (out.images) {
        return out;  // image data are drawn as images, with no density beneath
    }
    // The data density beneath the scatter: first two coordinates (d = 1: y = 0).
    progress.setStage("data density");
    Matrix points(2, kDensityPoints);
    Vector x(out.dimension);
    for (int m = 0; m < kDensityPoints; ++m) {
        const uint64_t index = kDensityIndexOffset + static_cast<uint64_t>(m);
        CounterRng rng(params.seed, gaussian::rngStream(gaussian::RngPurpose::Data, index), 0);
        data.sampleData(index, rng, x);
        points(0, m) = x[0];
        points(1, m) = out.dimension > 1 ? x[1] : 0.0;
        if (m % 1024 == 0 && !progress.poll()) return cancelled();
    }
    if (!points.allFinite()) {
        return makeError(ErrorCode::NumericalError, "data", "", "a data point is not finite");
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

}  // namespace core::project
