// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/gaussian/gamma.h"
#include "core/gaussian/nll.h"
#include "core/gaussian/sampler.h"
#include "core/gaussian/forward_sampler.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/gaussian/variance.h"
#include "core/project/gaussian_params.h"
#include "core/project/gaussian_setup.h"
#include "core/project/project_file.h"
#include "core/project/setup_sources.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// The Gaussian process's analyses, one function each, as the GUI's jobs, `export` and the
// subcommands run them: Γ (estimated, imported or saved with the project), the trajectory and
// its variances, the DP rows, the NLL for one trajectory and against the number of steps, and
// the samples. Each takes validated parameters, a thread count and a Progress token; a project
// gives the same numbers through every front end.
namespace core::project {

// Where the Γ a project uses comes from.
enum class GammaSource { Estimated, Imported, SavedWithProject };

// Estimates of Γ not yet finished or not yet shown, by Γ key: the timesteps done so far, for
// the next run to continue with exactly the numbers of one uninterrupted run.
struct PartialGammas {
    std::mutex mutex;
    std::map<std::string, gaussian::GammaEstimate> byKey;
};

struct ProjectGamma {
    gaussian::GammaEstimate estimate;  // on the timesteps estimated (all 1..N unless restricted)
    std::vector<double> table;         // Γ_0..Γ_N, entry 0 unused
    GammaSource source = GammaSource::Estimated;
    int resumedAfter = 0;              // > 0: the estimate continued a partial one
};

// The Γ of `params`: the import when there is one; else the estimate saved with the project
// (`saved`) when its key is params.gammaKey() and the model is the one the parameters name;
// else estimated on the set-up's model and data with the project's estimator, M and seed,
// resuming `partials` when given. `onlyTimesteps` (non-empty) restricts an estimate to those n
// (and 1 and N); the estimates there equal the full estimate's, draw for draw.
Result<ProjectGamma> projectGamma(const GaussianParams& params, const GaussianSetup& setup,
                                  const GammaCache* saved, PartialGammas* partials, int threads,
                                  Progress& progress, std::vector<int> onlyTimesteps = {});

// Γ of the exact oracle of the data with the project's M and seed (shown beside a network's).
Result<gaussian::GammaEstimate> oracleGamma(const GaussianParams& params,
                                            const GaussianSetup& setup, PartialGammas* partials,
                                            int threads, Progress& progress);

// The project's trajectory (params.trajectorySpec() with its DP variant) on Γ.
Result<gaussian::ResolvedTrajectory> projectTrajectory(const GaussianParams& params,
                                                       const schedule::GaussianSchedule& schedule,
                                                       const std::vector<double>& gamma,
                                                       int threads, Progress* progress = nullptr,
                                                       const gaussian::DataRange& range = {});

// The optimal variances and bounds of every pair of the trajectory, for the project's forward
// process (η).
Result<std::vector<gaussian::PairVariance>> projectVariances(
    const GaussianParams& params, const schedule::GaussianSchedule& schedule,
    const std::vector<double>& gamma, const std::vector<int>& timesteps,
    const gaussian::DataRange& range = {});

// Everything the Gaussian views show but the particles and the NLL curves.
struct GaussianAnalysis {
    GaussianParams params;
    schedule::GaussianSchedule schedule;
    std::shared_ptr<model::GaussianOracle> data;           // the data (and exact oracle)
    std::shared_ptr<const model::GaussianEpsModel> model;  // oracle or network
    std::string modelError;                    // why params.model is not used (empty: it is)
    gaussian::GammaEstimate estimate;          // Γ on n = 1..N with standard errors
    GammaSource gammaSource = GammaSource::Estimated;
    bool fromCache = false;                    // Γ was not estimated by this run
    std::optional<gaussian::GammaEstimate> oracleEstimate;  // with a network: the oracle's
    std::string oracleKey;                     // gammaKey() of oracleEstimate
    std::vector<double> gamma;                 // N + 1 entries, entry 0 unused
    double dataVariance = 0.0;                 // Σ Var[x_0,i]/d
    gaussian::ResolvedTrajectory trajectory;
    std::vector<gaussian::PairVariance> pairs;
    Matrix cost;                               // the DP cost matrix J (N×N)
    std::vector<int> dpTimesteps, evenTimesteps, quadraticTimesteps;  // K each (quadratic: ≤ K)
    bool gammaReused = false;                  // Γ came from `previous`
    int gammaResumedAfter = 0;                 // > 0: the estimate continued a cancelled one

    // How Γ was obtained, in words: "estimated", "imported from F", "saved with the project".
    std::string gammaSourceText() const;
};

// The analysis of `params` into `out`. The set-up keeps the exact oracle when the model cannot be
// used (modelError says why). Γ is taken from `previous` when it has the same Γ key and model,
// else from projectGamma. A Cancelled error when cancelled.
Status analyseGaussian(const GaussianParams& params, const SetupSources& sources,
                       const GaussianAnalysis* previous, const GammaCache& saved,
                       PartialGammas& partials, int threads, Progress& progress,
                       GaussianAnalysis& out);

// The data a negative ELBO is measured on: the digits' test split for the digits, else the data
// set itself; and the decoder's number of levels for it (the digits' 17, else 256).
Result<std::shared_ptr<model::GaussianOracle>> heldOutData(const std::string& dataSpec,
                                                           const SetupSources& sources);
int heldOutLevels(const std::string& dataSpec);

// The data points the NLL averages unless told otherwise (the NLL views, `nll --samples`): a
// fixed draw keyed by the project's seed from the held-out data, the same points for every K
// of a sweep (common random numbers).
inline constexpr int kNllPoints = 1000;

// The negative ELBO along `timesteps` on the held-out data (or `data` when given), seeded with
// params.seed.
struct NllRequest {
    gaussian::ReverseVariance variance = gaussian::ReverseVariance::Analytic;
    int levels = 0;          // 0: heldOutLevels(params.data)
    int points = kNllPoints; // data points averaged
    gaussian::DataRange range;
};
Result<gaussian::NllResult> projectNll(const GaussianParams& params, const GaussianSetup& setup,
                                       const model::GaussianDataSampler& data,
                                       const std::vector<double>& gamma,
                                       const std::vector<int>& timesteps,
                                       const NllRequest& request, int threads,
                                       Progress& progress);

// The NLL against the number of steps K: for every K, the even and the DP trajectory, each with
// the analytic, small and large variance, on the held-out data and the project's seed.
struct NllSweep {
    std::vector<int> ks;
    static constexpr std::array<gaussian::ReverseVariance, 3> kVariances = {
        gaussian::ReverseVariance::Analytic, gaussian::ReverseVariance::Small,
        gaussian::ReverseVariance::Large};
    // [0] even, [1] DP; [kind][i] the timesteps at ks[i]
    std::array<std::vector<std::vector<int>>, 2> trajectories;
    // [kind][variance][i] bits/dim and its standard error at ks[i]
    std::array<std::array<std::vector<double>, 3>, 2> bitsPerDim, standardError;
    int points = 0;
    uint64_t seed = 0;
};
// The Ks the GUI offers: 2, 5, 10, 25, 50, 100, 200, 500, 1000 up to N.
std::vector<int> defaultSweepKs(int numSteps);
// `ks` increasing, each in 2..N. Errors name "K" and the value.
Result<NllSweep> nllSweep(const GaussianParams& params, const GaussianSetup& setup,
                          const SetupSources& sources, const std::vector<double>& gamma,
                          const std::vector<int>& ks, int points, int threads, Progress& progress);

// The sampler settings of the project: its η, its first-step clip, its seed.
gaussian::SamplerParams projectSamplerParams(const GaussianParams& params,
                                             gaussian::SamplerKind kind, int count, int threads,
                                             bool recordFrames);

// Whether sampling the project needs Γ: an analytic sampler, or a dp:K trajectory.
bool samplerNeedsGamma(const GaussianParams& params);

// What `sample` runs: the project's sampler (params.sampler, its η and seed) for `count`
// samples, with the first-step clip y, the DDPM sampler's baseline variance and the data range
// given; with `frames`, every step's samples too.
struct SampleRequest {
    int count = 16;
    double clipFirst = 0.0;
    gaussian::BaselineVariance ddpmVariance = gaussian::BaselineVariance::Small;
    gaussian::DataRange range;
    bool frames = false;
};
Result<gaussian::SampleResult> projectSample(const GaussianParams& params,
                                             const GaussianSetup& setup,
                                             const std::vector<double>& gamma,
                                             const std::vector<int>& timesteps,
                                             const SampleRequest& request, int threads,
                                             Progress* progress = nullptr);

// Where a run's Γ came from, in a sentence for files and notes: "imported from F", "saved with
// the project (estimator …, M = …, seed …, model …, data …)" or "estimated (…)", the exact
// oracle's estimate saying so.
std::string gammaProvenance(const GaussianParams& params, const GaussianSetup& setup,
                            GammaSource source);

// What `plan` writes: the steps (variances and mean coefficients) of the DDPM or DDIM sampler
// with the baseline or analytic variance, for the project's η and seed, computed by the
// sampler's own samplingPlan. The DDPM mean is the η = 1 process's.
Result<std::vector<gaussian::PlanStep>> projectSamplingPlan(
    const GaussianParams& params, bool ddim, gaussian::ReverseVariance variance, double clipFirst,
    const schedule::GaussianSchedule& schedule, const std::vector<double>& gamma,
    const std::vector<int>& timesteps, const gaussian::DataRange& range = {});

// The Particles view's computation: the forward process and one or two reverse samplers as
// particle frames. Particles whose frames are shown: every particle for d = 2 (within
// kParticleFrameBudget), only the first kMaxParticleImages for image data.
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
    gaussian::ForwardFrames forward;           // 0, τ_1, …, τ_K
    gaussian::SampleResult reverseA;           // τ_K, …, τ_1, 0 (frames recorded)
    gaussian::SampleResult reverseB;           // same noise as A; empty when samplerB is empty
    double range = 3.0;                        // axes are [−range, range]² (scatter mode)
    int densityBins = 0;                       // the data density: bins × bins, row-major,
    std::vector<double> density;               // row 0 at y = −range, normalised to max 1
};

// Number of particles simulated for d dimensions and K trajectory nodes (see ParticleFrames).
int particleCountFor(const GaussianParams& params, int dimension, int nodes);

// Forward frames, both samplers from the same x_{τ_K} (projectSamplerParams, frames recorded),
// and the data density (2-D histogram of the first two coordinates of 20000 data points).
// `model` denoises (the oracle or a network); `data` gives x_0 and the density drawn beneath.
Result<ParticleFrames> computeParticleFrames(const model::GaussianEpsModel& model,
                                             const model::GaussianDataSampler& data,
                                             const schedule::GaussianSchedule& schedule,
                                             const std::vector<double>& gamma,
                                             const std::vector<int>& trajectory,
                                             const GaussianParams& params, Progress& progress,
                                             int threads);

}  // namespace core::project
