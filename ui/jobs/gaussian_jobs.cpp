// SPDX-License-Identifier: MIT
#include "ui/jobs/gaussian_jobs.h"

#include "core/project/gaussian_setup.h"

namespace ui::jobs {
namespace {

core::Error cancelled() {
    return core::makeError(core::ErrorCode::Cancelled, "", "", "cancelled");
}

// Γ of an ε-model on the data (`exact`: the model is the data's oracle). A cancelled estimate
// keeps its finished timesteps in `partials` (per Γ key) and the next job for the same key
// resumes there.
core::Result<core::gaussian::GammaEstimate> estimateResuming(
    const core::model::GaussianEpsModel& model, bool exact, const std::string& key,
    const document::GaussianParams& params, GaussianResults& results, PartialGammas& partials,
    int threads, core::Progress& progress) {
    core::gaussian::GammaParams gammaParams;
    gammaParams.numSamples = params.gammaSamples;
    gammaParams.seed = params.seed;
    // The project's choice; by default the denoising form for the exact oracle and the error
    // form for a network.
    auto estimator = core::project::resolveEstimator(params.estimator, exact);
    if (!estimator) return estimator.error();
    gammaParams.estimator = *estimator;
    gammaParams.parallel.numThreads = threads;
    core::gaussian::GammaEstimate partial;
    {
        std::lock_guard lock(partials.mutex);
        if (auto it = partials.byKey.find(key); it != partials.byKey.end()) {
            partial = std::move(it->second);
            partials.byKey.erase(it);
        }
    }
    const int resumedAfter = static_cast<int>(partial.timesteps.size());
    const core::model::GaussianDataSampler& data = *results.data;
    auto result = core::gaussian::estimateGammaResumable(model, data, results.schedule,
                                                         gammaParams, partial, &progress);
    if (!result) {
        if (result.error().code == core::ErrorCode::Cancelled && !partial.timesteps.empty()) {
            std::lock_guard lock(partials.mutex);
            partials.byKey[key] = std::move(partial);
        }
        return result.error();
    }
    if (resumedAfter > 0) results.gammaResumedAfter = resumedAfter;
    {
        // Kept until this job's results are shown: a cancel in a later stage (the DP, the
        // oracle's Γ) then loses none of it.
        std::lock_guard lock(partials.mutex);
        partials.byKey[key] = *result;
    }
    return *result;
}

// Γ_1..Γ_N imported from a file, as an estimate with no standard errors.
core::gaussian::GammaEstimate importedEstimate(const document::GaussianParams& params,
                                               const core::schedule::GaussianSchedule& schedule) {
    core::gaussian::GammaEstimate e;
    std::vector<double> table{0.0};  // entry 0 unused, as in Γ files
    table.insert(table.end(), params.importedGamma.begin(), params.importedGamma.end());
    const std::vector<double> msEps = core::gaussian::msEpsFromGamma(table, schedule);
    for (int n = 1; n <= params.numSteps; ++n) {
        e.timesteps.push_back(n);
        e.gamma.push_back(table[n]);
        e.standardError.push_back(0.0);
        e.msEps.push_back(msEps[n]);
    }
    return e;
}

// Γ (and with a network the oracle's Γ for the overlay), each reused when it can be.
core::Status findGamma(const document::GaussianParams& params, bool useNetwork,
                       const GaussianResults* previous, const document::GammaCache& cache,
                       GaussianResults& results, PartialGammas& partials, int threads,
                       core::Progress& progress) {
    const std::string key = params.gammaKey();
    if (previous && previous->params.gammaKey() == key &&
        previous->modelError == results.modelError) {
        results.estimate = previous->estimate;
        results.gammaSource = previous->gammaSource;
        results.gammaReused = true;
    } else if (!params.importedGamma.empty()) {
        results.estimate = importedEstimate(params, results.schedule);
        results.gammaSource = "imported from " + params.importedGammaName;
    } else if (cache.key == key && results.modelError.empty()) {
        results.estimate = cache.estimate;  // saved with the project
        results.gammaSource = "saved with the project";
    } else {
        progress.setStage("estimating Γ");
        auto e = estimateResuming(*results.model, !useNetwork, key, params, results, partials,
                                  threads, progress);
        if (!e) return e.error();
        results.estimate = *e;
        results.gammaSource = "estimated";
    }
    results.fromCache = results.gammaSource != "estimated";
    if (!useNetwork) return {};
    document::GaussianParams oracleParams = params;
    oracleParams.model.clear();
    oracleParams.importedGamma.clear();
    const std::string oracleKey = oracleParams.gammaKey();
    if (previous && previous->oracleKey == oracleKey) {
        results.oracleEstimate = previous->oracleEstimate;
    } else {
        progress.setStage("estimating the oracle's Γ");
        auto e = estimateResuming(*results.data, true, oracleKey, params, results, partials,
                                  threads, progress);
        if (!e) return e.error();
        results.oracleEstimate = *e;
    }
    results.oracleKey = oracleKey;
    return {};
}

// The trajectory, its variances, the DP cost matrix and the Trajectory view's three rows.
core::Status resolveTrajectories(const document::GaussianParams& params, GaussianResults& results,
                                 int threads) {
    core::gaussian::DpOptions options;
    options.variant = params.dpVariant;
    options.parallel.numThreads = threads;
    auto trajectory = core::gaussian::resolveTrajectory(params.trajectorySpec(), results.schedule,
                                                        &results.gamma, options);
    if (!trajectory) return trajectory.error();
    results.trajectory = *trajectory;
    core::gaussian::ForwardProcess forward;
    forward.eta = params.eta;
    auto pairs = core::gaussian::trajectoryVariances(results.schedule, results.gamma,
                                                     results.trajectory.timesteps, forward);
    if (!pairs) return pairs.error();
    results.pairs = *pairs;
    // The Trajectory view's rows and matrix: all three kinds at this K on the same Γ.
    auto cost = core::gaussian::dpCostMatrix(results.schedule, results.gamma, {},
                                             {.numThreads = threads});
    if (!cost) return cost.error();
    results.cost = std::move(cost).value();
    // A typed list is compared with the other kinds at its own number of timesteps.
    const std::string k = std::to_string(params.trajectory == document::GaussianTrajectory::List
                                             ? static_cast<int>(results.trajectory.timesteps.size())
                                             : params.pathSteps);
    const std::string kind =
        core::project::choiceId(core::project::kGaussianTrajectories, params.trajectory) + ":";
    for (auto [spec, out] : {std::pair{"dp:" + k, &results.dpTimesteps},
                             std::pair{"even:" + k, &results.evenTimesteps},
                             std::pair{"quadratic:" + k, &results.quadraticTimesteps}}) {
        if (spec.rfind(kind, 0) == 0) {
            *out = results.trajectory.timesteps;  // already resolved
            continue;
        }
        auto resolved =
            core::gaussian::resolveTrajectory(spec, results.schedule, &results.gamma, options);
        if (!resolved) return resolved.error();
        *out = resolved->timesteps;
    }
    return {};
}

}  // namespace

core::Result<std::shared_ptr<GaussianResults>> computeGaussianResults(
    const document::GaussianParams& params, std::shared_ptr<const GaussianResults> previous,
    const document::GammaCache& cache, PartialGammas& partials, int threads,
    core::Progress& progress) {
    auto results = std::make_shared<GaussianResults>();
    results->params = params;
    // The core's set-up, as the subcommands build it; a checkpoint that cannot be used (missing,
    // wrong N or d) leaves the exact oracle in place with a message.
    auto setup = core::project::GaussianSetup::build(params, document::appSources(), false);
    if (!setup) return setup.error();
    results->schedule = setup->schedule;
    results->data = setup->data;
    results->model = setup->model;
    results->modelError = setup->modelError;
    const core::model::GaussianDataSampler& data = *setup->data;
    results->dataVariance = data.variancePerDimension();
    if (auto found = findGamma(params, setup->usesNetwork, previous.get(), cache, *results,
                               partials, threads, progress);
        !found) {
        return found.error();
    }
    auto table = core::gaussian::gammaTable(results->estimate, params.numSteps);
    if (!table) return table.error();
    results->gamma = *table;
    if (auto resolved = resolveTrajectories(params, *results, threads); !resolved) {
        return resolved.error();
    }
    if (progress.cancelled()) return cancelled();
    return results;
}

}  // namespace ui::jobs
