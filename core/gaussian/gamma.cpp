// SPDX-License-Identifier: MIT
#include "core/gaussian/gamma.h"

#include <array>
#include <atomic>
#include <algorithm>
#include <cmath>

#include "core/gaussian/rng_streams.h"

namespace core::gaussian {

Status GammaParams::validate(int numSteps) const {
    if (numSamples < 2) {
        return invalidArgument("samples", std::to_string(numSamples),
                               "Γ needs at least 2 Monte Carlo samples (for its standard error)");
    }
    if (batchSize < 1) {
        return invalidArgument("batch", std::to_string(batchSize), "must be at least 1");
    }
    for (size_t i = 0; i < timesteps.size(); ++i) {
        const int n = timesteps[i];
        if (n < 1 || n > numSteps || (i > 0 && n <= timesteps[i - 1])) {
            return invalidArgument("timesteps[" + std::to_string(i) + "]", std::to_string(n),
                                   "timesteps must increase strictly within 1..N = " +
                                       std::to_string(numSteps));
        }
    }
    return {};
}

Result<GammaEstimate> estimateGamma(const model::GaussianEpsModel& model,
                                    const model::GaussianDataSampler& data,
                                    const schedule::GaussianSchedule& schedule,
                                    const GammaParams& params,
                                    Progress* progress) {
    const int numSteps = schedule.numSteps();
    if (Status s = params.validate(numSteps); !s) {
        return s.error();
    }
    if (model.dimension() != data.dimension()) {
        return invalidArgument("model", std::to_string(model.dimension()),
                               "the model's dimension differs from the data's (" +
                                   std::to_string(data.dimension()) + ")");
    }
    GammaEstimate estimate;
    estimate.numSamples = params.numSamples;
    estimate.timesteps = params.timesteps;
    if (estimate.timesteps.empty()) {
        for (int n = 1; n <= numSteps; ++n) {
            estimate.timesteps.push_back(n);
        }
    }
    const int64_t numTimesteps = static_cast<int64_t>(estimate.timesteps.size());
    const int64_t blocksPerStep = numBlocks(params.numSamples, params.batchSize);
    const int64_t numItems = numTimesteps * blocksPerStep;
    const int d = model.dimension();

    // One work item = one batch of one timestep. Each keeps (count, mean, M2) of ‖ε‖²/d so the
    // items can be merged in a fixed order (Chan et al.'s pairwise update): same bits for any
    // thread count.
    struct Partial {
        double count = 0.0;
        double mean = 0.0;
        double m2 = 0.0;
    };
    // Two accumulators per item: [0] the Score form, [1] the Denoising form.
    std::vector<std::array<Partial, 2>> partials(static_cast<size_t>(numItems));
    if (progress != nullptr) {
        progress->setTotal(numItems);
    }
    parallelForBlocks(numItems, 1, params.parallel, [&](int64_t item, int64_t, int64_t) {
        const int64_t stepIndex = item / blocksPerStep;
        const int64_t block = item % blocksPerStep;
        const int n = estimate.timesteps[static_cast<size_t>(stepIndex)];
        const int64_t begin = block * params.batchSize;
        const int64_t end = std::min<int64_t>(params.numSamples, begin + params.batchSize);
        const model::NoiseLevel level{n, schedule.alphaBar(n), schedule.betaBar(n)};
        const double sqrtAlphaBar = std::sqrt(level.alphaBar);
        const double sqrtBetaBar = std::sqrt(level.betaBar);
        Matrix x(d, end - begin);
        Matrix noise(d, end - begin);
        Vector x0(d);
        for (int64_t m = begin; m < end; ++m) {
            CounterRng dataRng(params.seed, rngStream(RngPurpose::Data, m), 0);
            data.sampleData(static_cast<uint64_t>(m), dataRng, x0);
            CounterRng noiseRng(params.seed, rngStream(RngPurpose::GammaNoise, m), n);
            for (int i = 0; i < d; ++i) {
                noise(i, m - begin) = noiseRng.normal();
                x(i, m - begin) = sqrtAlphaBar * x0[i] + sqrtBetaBar * noise(i, m - begin);
            }
        }
        Matrix eps(d, end - begin);
        model.predictEps(x, level, eps);
        std::array<Partial, 2> ps;
        for (Eigen::Index j = 0; j < eps.cols(); ++j) {
            const double values[2] = {eps.col(j).squaredNorm() / d,
                                      1.0 - (eps.col(j) - noise.col(j)).squaredNorm() / d};
            for (int k = 0; k < 2; ++k) {
                Partial& p = ps[k];
                p.count += 1.0;
                const double delta = values[k] - p.mean;
                p.mean += delta / p.count;
                p.m2 += delta * (values[k] - p.mean);
            }
        }
        partials[static_cast<size_t>(item)] = ps;
        if (progress != nullptr) {
            progress->advance();
        }
    }, progress);
    if (progress != nullptr && progress->cancelled()) {
        return makeError(ErrorCode::Cancelled, "", "", "the Γ estimation was cancelled");
    }
    const size_t numOut = static_cast<size_t>(numTimesteps);
    estimate.gamma.resize(numOut);
    estimate.standardError.resize(numOut);
    estimate.msEps.resize(numOut);
    for (size_t j = 0; j < numOut; ++j) {
        std::array<Partial, 2> totals;
        for (int k = 0; k < 2; ++k) {
            Partial& total = totals[k];
            for (int64_t b = 0; b < blocksPerStep; ++b) {
                const Partial& p = partials[j * static_cast<size_t>(blocksPerStep) + b][k];
                const double count = total.count + p.count;
                const double delta = p.mean - total.mean;
                total.mean += delta * p.count / count;
                total.m2 += p.m2 + delta * delta * total.count * p.count / count;
                total.count = count;
            }
        }
        // With few samples the error form's mean can fall below 0 (where β̄_nΓ_n is small it
        // is 1 minus a χ²_d/d draw); Γ is a mean square, so the score form (never negative)
        // is taken then, and the Error estimator is floored at 0 (v then reaches its cap).
        const bool denoising = params.estimator == GammaEstimator::Error ||
                               (params.estimator == GammaEstimator::Denoising &&
                                totals[1].m2 < totals[0].m2 && totals[1].mean >= 0.0);
        const Partial& total = totals[denoising ? 1 : 0];
        const int n = estimate.timesteps[j];
        const double betaBar = schedule.betaBar(n);
        const double variance = total.m2 / (total.count - 1.0);
        const double mean = std::max(0.0, total.mean);
        estimate.msEps[j] = mean;
        estimate.gamma[j] = mean / betaBar;
        estimate.standardError[j] = std::sqrt(variance / total.count) / betaBar;
        if (!std::isfinite(estimate.gamma[j]) || !std::isfinite(estimate.standardError[j])) {
            return makeError(ErrorCode::NumericalError, "Γ_" + std::to_string(n),
                             std::to_string(estimate.gamma[j]),
                             "the model returned a non-finite ε");
        }
    }
    return estimate;
}

namespace {

// Forwards a chunk's cancel checks to the whole run's token.
class CancelWith final : public ProgressObserver {
public:
    explicit CancelWith(Progress* outer) : m_outer(outer) {}
    Control onProgress(double, const std::string&) override {
        return m_outer == nullptr || m_outer->poll() ? Control::Continue : Control::Abort;
    }

private:
    Progress* m_outer;
};

}  // namespace

Result<GammaEstimate> estimateGammaResumable(const model::GaussianEpsModel& model,
                                             const model::GaussianDataSampler& data,
                                             const schedule::GaussianSchedule& schedule,
                                             const GammaParams& params,
                                             GammaEstimate& partial,
                                             Progress* progress,
                                             int chunk) {
    const int numSteps = schedule.numSteps();
    if (!params.timesteps.empty() || chunk < 1) {
        return invalidArgument("timesteps", std::to_string(params.timesteps.size()),
                               "a resumable estimate covers every n, in chunks of at least 1");
    }
    const int done = static_cast<int>(partial.timesteps.size());
    for (int j = 0; j < done; ++j) {
        if (partial.timesteps[j] != j + 1 || partial.numSamples != params.numSamples) {
            return invalidArgument("partial", std::to_string(done) + " timesteps",
                                   "the earlier estimate must hold n = 1..k with the same M");
        }
    }
    if (done > numSteps) {
        return invalidArgument("partial", std::to_string(done), "more timesteps than N");
    }
    partial.numSamples = params.numSamples;
    const int64_t blocks = numBlocks(params.numSamples, params.batchSize);
    if (progress != nullptr) {
        progress->setTotal(static_cast<int64_t>(numSteps) * blocks);
        progress->advance(static_cast<int64_t>(done) * blocks);
    }
    CancelWith observer(progress);
    for (int first = done + 1; first <= numSteps; first += chunk) {
        GammaParams part = params;
        for (int n = first; n <= std::min(numSteps, first + chunk - 1); ++n) {
            part.timesteps.push_back(n);
        }
        Progress inner(&observer);
        Result<GammaEstimate> estimate = estimateGamma(model, data, schedule, part, &inner);
        if (!estimate) {
            return estimate.error();  // Cancelled included: `partial` keeps the finished chunks
        }
        for (auto [to, from] : {std::pair{&partial.gamma, &estimate->gamma},
                                std::pair{&partial.standardError, &estimate->standardError},
                                std::pair{&partial.msEps, &estimate->msEps}}) {
            to->insert(to->end(), from->begin(), from->end());
        }
        partial.timesteps.insert(partial.timesteps.end(), part.timesteps.begin(), part.timesteps.end());
        if (progress != nullptr && !progress->advance(static_cast<int64_t>(part.timesteps.size()) * blocks)) {
            return makeError(ErrorCode::Cancelled, "", "", "the Γ estimation was cancelled");
        }
    }
    return partial;
}

Result<std::vector<double>> gammaTable(const GammaEstimate& estimate, int numSteps) {
    const auto& ts = estimate.timesteps;
    if (ts.empty() || ts.front() != 1 || ts.back() != numSteps ||
        estimate.gamma.size() != ts.size()) {
        return invalidArgument("Γ", std::to_string(ts.size()) + " timesteps",
                               "a Γ table needs estimates at n = 1 and n = N = " +
                                   std::to_string(numSteps));
    }
    std::vector<double> table(static_cast<size_t>(numSteps) + 1, 0.0);
    for (size_t j = 0; j + 1 < ts.size(); ++j) {
        const int a = ts[j];
        const int b = ts[j + 1];
        for (int n = a; n < b; ++n) {
            const double w = static_cast<double>(n - a) / (b - a);
            table[n] = (1.0 - w) * estimate.gamma[j] + w * estimate.gamma[j + 1];
        }
    }
    table[numSteps] = estimate.gamma.back();
    return table;
}

std::vector<double> gammaFromMsEps(const std::vector<double>& msEps,
                                   const schedule::GaussianSchedule& schedule) {
    std::vector<double> gamma(msEps.size(), 0.0);
    for (size_t n = 1; n < msEps.size(); ++n) {
        gamma[n] = msEps[n] / schedule.betaBar(static_cast<int>(n));
    }
    return gamma;
}

std::vector<double> msEpsFromGamma(const std::vector<double>& gamma,
                                   const schedule::GaussianSchedule& schedule) {
    std::vector<double> msEps(gamma.size(), 0.0);
    for (size_t n = 1; n < gamma.size(); ++n) {
        msEps[n] = gamma[n] * schedule.betaBar(static_cast<int>(n));
    }
    return msEps;
}

}  // namespace core::gaussian
