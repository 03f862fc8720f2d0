// SPDX-License-Identifier: MIT
#include "core/gaussian/nll.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <cmath>
#include <numbers>

#include "core/gaussian/reverse_step.h"
#include "core/gaussian/rng_streams.h"

namespace core::gaussian {
namespace {

// Φ(upper) − Φ(lower) without cancellation: both tails through erfc.
double normalInterval(double lower, double upper) {
    constexpr double kInvSqrt2 = 0.70710678118654752440;
    if (lower >= 0.0) {
        return 0.5 * (std::erfc(lower * kInvSqrt2) - std::erfc(upper * kInvSqrt2));
    }
    if (upper <= 0.0) {
        return 0.5 * (std::erfc(-upper * kInvSqrt2) - std::erfc(-lower * kInvSqrt2));
    }
    return 1.0 - 0.5 * std::erfc(-lower * kInvSqrt2) - 0.5 * std::erfc(upper * kInvSqrt2);
}

// σ² of every pair (s, t) of the trajectory, in sampling order (τ_{K−1}, τ_K) … (τ_1, τ_2).
Result<std::vector<double>> pairSigma2(const schedule::GaussianSchedule& schedule,
                                       const std::vector<double>& gamma,
                                       const std::vector<int>& trajectory,
                                       ReverseVariance variance,
                                       const DataRange& range) {
    const ForwardProcess ddpm{1.0};
    const size_t numPairs = trajectory.size() - 1;
    std::vector<double> sigma2(numPairs);
    for (size_t j = 0; j < numPairs; ++j) {
        const int s = trajectory[numPairs - 1 - j];
        const int t = trajectory[numPairs - j];
        switch (variance) {
            case ReverseVariance::Analytic: {
                Result<PairVariance> p = pairVariance(schedule, gamma, s, t, ddpm, range);
                if (!p) {
                    return p.error();
                }
                sigma2[j] = p->sigma2;
                break;
            }
            case ReverseVariance::Small: sigma2[j] = schedule.betaTildeST(s, t); break;
            case ReverseVariance::Large: sigma2[j] = schedule.betaTS(s, t); break;
        }
    }
    return sigma2;
}

// Prior term of one point (B.6): Σ_dims KL(N(√ᾱ_T x_0, β̄_T) ‖ N(0, 1)).
double priorNats(const schedule::GaussianSchedule& schedule, int top, int d, double x0Squared) {
    const double alphaBarTop = schedule.alphaBar(top);
    const double betaBarTop = schedule.betaBar(top);
    return 0.5 * (d * (betaBarTop - std::log(betaBarTop) - 1.0) + alphaBarTop * x0Squared);
}

// Pair term of one point (B.6): the KL between N(μ_q, λ²) and N(μ_p, σ²), where
// μ_q − μ_p = c0·(x_0 − x̂_0) (the x_t parts cancel), so x̂_0 enters only through the gap.
double pairNats(int d, double lambda2, double sigma2, double c0, double gapSquared) {
    const double meanGap = c0 * c0 * gapSquared;
    return 0.5 * (d * (lambda2 / sigma2 + std::log(sigma2 / lambda2) - 1.0) + meanGap / sigma2);
}

// Means, per-point totals and the standard error from the per-term, per-point nats
// (rows: prior, pairs in sampling order, decoder).
Result<NllResult> summarise(const Matrix& perTerm, const std::vector<int>& trajectory, int d) {
    if (!perTerm.allFinite()) {
        return makeError(ErrorCode::NumericalError, "nll", "", "a term of the ELBO is not finite");
    }
    const size_t numPairs = trajectory.size() - 1;
    const size_t numTerms = numPairs + 2;
    const auto numSamples = static_cast<int>(perTerm.cols());
    const double toBits = 1.0 / (d * std::numbers::ln2);
    const double count = numSamples;
    NllResult result;
    auto makeTerm = [&](Eigen::Index row, int s, int t) {
        NllTerm term;
        term.s = s;
        term.t = t;
        term.nats = perTerm.row(row).sum() / count;
        term.bitsPerDim = term.nats * toBits;
        return term;
    };
    result.prior = makeTerm(0, -1, trajectory.back());
    for (size_t j = 0; j < numPairs; ++j) {
        result.pairs.push_back(makeTerm(static_cast<Eigen::Index>(j + 1),
                                        trajectory[numPairs - 1 - j], trajectory[numPairs - j]));
    }
    result.decoder = makeTerm(static_cast<Eigen::Index>(numTerms - 1), 0, trajectory.front());
    result.perPoint.resize(static_cast<size_t>(numSamples));
    double mean = 0.0;
    for (int m = 0; m < numSamples; ++m) {
        result.perPoint[m] = perTerm.col(m).sum() * toBits;
        mean += result.perPoint[m];
    }
    mean /= count;
    double squares = 0.0;
    for (double v : result.perPoint) {
        squares += (v - mean) * (v - mean);
    }
    result.bitsPerDim = mean;
    result.standardError = std::sqrt(squares / (count - 1.0) / count);
    return result;
}

// Draws point m (keyed (seed, m)) and snaps it to the L-level grid (B.6: discrete data).
void drawPoint(const model::GaussianDataSampler& data,
               const NllParams& params,
               int64_t m,
               VectorRef point) {
    const double gridStep = (params.range.high - params.range.low) / (params.levels - 1);
    CounterRng rng(params.seed, rngStream(RngPurpose::Data, m), 0);
    data.sampleData(static_cast<uint64_t>(m), rng, point);
    for (Eigen::Index i = 0; i < point.size(); ++i) {
        const double clamped = std::clamp(point[i], params.range.low, params.range.high);
        const double level = std::nearbyint((clamped - params.range.low) / gridStep);
        point[i] = params.range.low + level * gridStep;
    }
}

// x_t = √ᾱ_t x_0 + √β̄_t ε with ε keyed (seed, point, t), whatever the trajectory, then x̂_0(x_t).
void predictNoisy(const model::GaussianEpsModel& model,
                  const schedule::GaussianSchedule& schedule,
                  const NllParams& params,
                  int t,
                  int64_t begin,
                  const Matrix& x0,
                  Matrix& xt,
                  Matrix& eps,
                  Matrix& x0Pred,
                  const Vector& meanAtZeroSnr) {
    const double a = std::sqrt(schedule.alphaBar(t));
    const double s = std::sqrt(schedule.betaBar(t));
    for (Eigen::Index b = 0; b < x0.cols(); ++b) {
        CounterRng rng(params.seed, rngStream(RngPurpose::NllNoise, begin + b), t);
        for (Eigen::Index i = 0; i < x0.rows(); ++i) {
            xt(i, b) = a * x0(i, b) + s * rng.normal();
        }
    }
    model.predictEps(xt, model::NoiseLevel{t, schedule.alphaBar(t), schedule.betaBar(t)}, eps);
    predictX0(schedule, t, xt, eps, params.range, x0Pred, meanAtZeroSnr);
}

}  // namespace

Status NllParams::validate() const {
    if (levels < 2) {
        return invalidArgument("levels", std::to_string(levels), "needs at least 2 levels");
    }
    if (numSamples < 2) {
        return invalidArgument("samples", std::to_string(numSamples),
                               "needs at least 2 data points");
    }
    if (batchSize < 1) {
        return invalidArgument("batch", std::to_string(batchSize), "must be at least 1");
    }
    return range.validate();
}

double decoderVariance(const schedule::GaussianSchedule& schedule,
                       const std::vector<int>& trajectory) {
    if (trajectory.front() == 1) {
        return schedule.betaTildeST(1, 2);
    }
    if (trajectory.size() == 1) {
        // One timestep (diffusers' K = 1): β̃ of its step to the next timestep, as at τ₁ = 1
        // (β̃_{N−1|N} at τ₁ = N).
        const int n = std::min(trajectory[0], schedule.numSteps() - 1);
        return schedule.betaTildeST(n, n + 1);
    }
    return schedule.betaTildeST(trajectory[0], trajectory[1]);
}

double logDiscretizedGaussian(double x,
                              double mean,
                              double stddev,
                              double halfWidth,
                              const DataRange& range) {
    const double inf = std::numeric_limits<double>::infinity();
    // Open edge bins: the lowest level takes all mass below, the highest all mass above.
    const double lower = x - halfWidth <= range.low + 0.5 * halfWidth ? -inf
                                                                      : (x - halfWidth - mean) /
                                                                            stddev;
    const double upper = x + halfWidth >= range.high - 0.5 * halfWidth ? inf
                                                                       : (x + halfWidth - mean) /
                                                                             stddev;
    return std::log(std::max(normalInterval(lower, upper), 1e-12));
}

namespace {

// The checks shared by negativeElbo and negativeElboSweep.
Status validateNllInputs(const model::GaussianEpsModel& model,
                         const model::GaussianDataSampler& data,
                         const schedule::GaussianSchedule& schedule,
                         const std::vector<int>& trajectory,
                         const NllParams& params) {
    if (Status s = params.validate(); !s) {
        return s;
    }
    const int numSteps = schedule.numSteps();
    if (numSteps < 2) {
        return invalidArgument("N", std::to_string(numSteps),
                               "the decoder variance β̃_{1|2} needs N ≥ 2");
    }
    if (Status s = validateGaussianTrajectory(trajectory, numSteps); !s) {
        return s;
    }
    if (model.dimension() != data.dimension()) {
        return invalidArgument("model", std::to_string(model.dimension()),
                               "the model's dimension differs from the data's (" +
                                   std::to_string(data.dimension()) + ")");
    }
    return {};
}

// −Σ_dims log of the discretised Gaussian decoder around x̂_0(x_{τ_1}) for column b (B.6),
// with the standard deviation decoderStd.
double decoderNats(const Matrix& x0,
                   const Matrix& x0Pred,
                   Eigen::Index b,
                   double decoderStd,
                   const NllParams& params) {
    const double halfWidth = 0.5 * (params.range.high - params.range.low) / (params.levels - 1);
    double logp = 0.0;
    for (Eigen::Index i = 0; i < x0.rows(); ++i) {
        logp += logDiscretizedGaussian(x0(i, b), x0Pred(i, b), decoderStd, halfWidth,
                                       params.range);
    }
    return -logp;
}

}  // namespace

Result<NllResult> negativeElbo(const model::GaussianEpsModel& model,
                               const model::GaussianDataSampler& data,
                               const schedule::GaussianSchedule& schedule,
                               const std::vector<double>& gamma,
                               const std::vector<int>& trajectory,
                               const NllParams& params,
                               Progress* progress) {
    if (Status s = validateNllInputs(model, data, schedule, trajectory, params); !s) {
        return s.error();
    }
    const size_t numPairs = trajectory.size() - 1;
    Result<std::vector<double>> sigma2 =
        pairSigma2(schedule, gamma, trajectory, params.variance, params.range);
    if (!sigma2) {
        return sigma2.error();
    }
    const Result<Vector> meanAtZeroSnr = zeroSnrMean(model, schedule, trajectory);
    if (!meanAtZeroSnr) {
        return meanAtZeroSnr.error();
    }
    const int d = model.dimension();
    const size_t numTerms = numPairs + 2;  // prior, pairs, decoder
    const double decoderStd = std::sqrt(decoderVariance(schedule, trajectory));

    const int64_t numItems = numBlocks(params.numSamples, params.batchSize);
    // Per point and term, nats; merged in point order afterwards (thread-count independent).
    Matrix perTerm(static_cast<Eigen::Index>(numTerms), params.numSamples);
    if (progress != nullptr) {
        progress->setTotal(numItems);
    }
    parallelForBlocks(numItems, 1, params.parallel, [&](int64_t item, int64_t, int64_t) {
        const int64_t begin = item * params.batchSize;
        const int64_t end = std::min<int64_t>(params.numSamples, begin + params.batchSize);
        const Eigen::Index batch = end - begin;
        Matrix x0(d, batch);
        for (int64_t m = begin; m < end; ++m) {
            drawPoint(data, params, m, x0.col(m - begin));
        }
        for (Eigen::Index b = 0; b < batch; ++b) {
            perTerm(0, begin + b) =
                priorNats(schedule, trajectory.back(), d, x0.col(b).squaredNorm());
        }
        Matrix xt(d, batch);
        Matrix eps(d, batch);
        Matrix x0Pred(d, batch);
        for (size_t j = 0; j < numPairs; ++j) {
            const int s = trajectory[numPairs - 1 - j];
            const int t = trajectory[numPairs - j];
            predictNoisy(model, schedule, params, t, begin, x0, xt, eps, x0Pred, *meanAtZeroSnr);
            const DdpmMeanCoefficients c = ddpmMeanCoefficients(schedule, s, t);
            const double lambda2 = schedule.betaTildeST(s, t);
            for (Eigen::Index b = 0; b < batch; ++b) {
                perTerm(static_cast<Eigen::Index>(j + 1), begin + b) =
                    pairNats(d, lambda2, (*sigma2)[j], c.c0,
                             (x0.col(b) - x0Pred.col(b)).squaredNorm());
            }
            if (progress != nullptr && progress->cancelled()) {
                return;
            }
        }
        predictNoisy(model, schedule, params, trajectory.front(), begin, x0, xt, eps, x0Pred,
                     *meanAtZeroSnr);
        for (Eigen::Index b = 0; b < batch; ++b) {
            perTerm(static_cast<Eigen::Index>(numTerms - 1), begin + b) =
                decoderNats(x0, x0Pred, b, decoderStd, params);
        }
        if (progress != nullptr) {
            progress->advance();
        }
    }, progress);
    if (progress != nullptr && progress->cancelled()) {
        return makeError(ErrorCode::Cancelled, "", "", "the NLL evaluation was cancelled");
    }
    return summarise(perTerm, trajectory, d);
}

Result<std::vector<std::vector<NllResult>>> negativeElboSweep(
    const model::GaussianEpsModel& model,
    const model::GaussianDataSampler& data,
    const schedule::GaussianSchedule& schedule,
    const std::vector<double>& gamma,
    const std::vector<std::vector<int>>& trajectories,
    const std::vector<ReverseVariance>& variances,
    const NllParams& params,
    Progress* progress) {
    if (trajectories.empty() || variances.empty()) {
        return invalidArgument("trajectories", "", "the sweep needs a trajectory and a variance");
    }
    Vector meanAtZeroSnr;  // E[x_0] when a trajectory reaches ᾱ = 0
    for (const auto& trajectory : trajectories) {
        if (Status s = validateNllInputs(model, data, schedule, trajectory, params); !s) {
            return s.error();
        }
        Result<Vector> mean = zeroSnrMean(model, schedule, trajectory);
        if (!mean) {
            return mean.error();
        }
        if (mean->size() > 0) {
            meanAtZeroSnr = *mean;
        }
    }
    // σ² first, so that a bad Γ fails before any model call.
    std::vector<std::vector<std::vector<double>>> sigma2(trajectories.size());
    for (size_t k = 0; k < trajectories.size(); ++k) {
        for (ReverseVariance variance : variances) {
            Result<std::vector<double>> s =
                pairSigma2(schedule, gamma, trajectories[k], variance, params.range);
            if (!s) {
                return s.error();
            }
            sigma2[k].push_back(std::move(s).value());
        }
    }
    // Every timestep used by some trajectory; row r of `gap` holds ‖x_0 − x̂_0(x_t)‖² at
    // steps[r], and `decoder` the decoder term where steps[r] is some τ_1 (else unused).
    std::vector<int> steps;
    for (const auto& trajectory : trajectories) {
        steps.insert(steps.end(), trajectory.begin(), trajectory.end());
    }
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    auto rowOf = [&](int t) {
        return static_cast<Eigen::Index>(std::lower_bound(steps.begin(), steps.end(), t) -
                                         steps.begin());
    };
    // The decoders: (τ_1, its variance), one row of `decoder` each (the variance may depend on
    // τ_2 as well, so two trajectories with the same τ_1 may need two rows).
    std::vector<std::pair<int, double>> decoders;
    for (const auto& trajectory : trajectories) {
        decoders.emplace_back(trajectory.front(), decoderVariance(schedule, trajectory));
    }
    std::sort(decoders.begin(), decoders.end());
    decoders.erase(std::unique(decoders.begin(), decoders.end()), decoders.end());
    auto decoderRowOf = [&](const std::vector<int>& trajectory) {
        const std::pair<int, double> key{trajectory.front(), decoderVariance(schedule, trajectory)};
        return static_cast<Eigen::Index>(
            std::lower_bound(decoders.begin(), decoders.end(), key) - decoders.begin());
    };
    const int d = model.dimension();
    const auto numSteps = static_cast<Eigen::Index>(steps.size());
    Matrix gap(numSteps, params.numSamples);
    Matrix decoder = Matrix::Zero(static_cast<Eigen::Index>(decoders.size()), params.numSamples);
    Vector x0Squared(params.numSamples);

    const int64_t numItems = numBlocks(params.numSamples, params.batchSize);
    if (progress != nullptr) {
        progress->setTotal(numItems * numSteps);
    }
    // The same batches as negativeElbo, so that every model call sees the same columns.
    parallelForBlocks(numItems, 1, params.parallel, [&](int64_t item, int64_t, int64_t) {
        const int64_t begin = item * params.batchSize;
        const int64_t end = std::min<int64_t>(params.numSamples, begin + params.batchSize);
        const Eigen::Index batch = end - begin;
        Matrix x0(d, batch);
        for (int64_t m = begin; m < end; ++m) {
            drawPoint(data, params, m, x0.col(m - begin));
            x0Squared[m] = x0.col(m - begin).squaredNorm();
        }
        Matrix xt(d, batch);
        Matrix eps(d, batch);
        Matrix x0Pred(d, batch);
        for (Eigen::Index r = 0; r < numSteps; ++r) {
            predictNoisy(model, schedule, params, steps[r], begin, x0, xt, eps, x0Pred,
                         meanAtZeroSnr);
            for (Eigen::Index b = 0; b < batch; ++b) {
                gap(r, begin + b) = (x0.col(b) - x0Pred.col(b)).squaredNorm();
            }
            for (size_t i = 0; i < decoders.size(); ++i) {
                if (decoders[i].first != steps[r]) {
                    continue;
                }
                const double decoderStd = std::sqrt(decoders[i].second);
                for (Eigen::Index b = 0; b < batch; ++b) {
                    decoder(static_cast<Eigen::Index>(i), begin + b) =
                        decoderNats(x0, x0Pred, b, decoderStd, params);
                }
            }
            if (progress != nullptr && !progress->advance()) {
                return;
            }
        }
    }, progress);
    if (progress != nullptr && progress->cancelled()) {
        return makeError(ErrorCode::Cancelled, "", "", "the NLL evaluation was cancelled");
    }
    // Assemble each cell's per-term table exactly as negativeElbo fills it.
    std::vector<std::vector<NllResult>> results(trajectories.size());
    for (size_t k = 0; k < trajectories.size(); ++k) {
        const std::vector<int>& trajectory = trajectories[k];
        const size_t numPairs = trajectory.size() - 1;
        Matrix perTerm(static_cast<Eigen::Index>(numPairs + 2), params.numSamples);
        for (size_t v = 0; v < variances.size(); ++v) {
            for (int m = 0; m < params.numSamples; ++m) {
                perTerm(0, m) = priorNats(schedule, trajectory.back(), d, x0Squared[m]);
            }
            for (size_t j = 0; j < numPairs; ++j) {
                const int s = trajectory[numPairs - 1 - j];
                const int t = trajectory[numPairs - j];
                const DdpmMeanCoefficients c = ddpmMeanCoefficients(schedule, s, t);
                const double lambda2 = schedule.betaTildeST(s, t);
                const Eigen::Index r = rowOf(t);
                for (int m = 0; m < params.numSamples; ++m) {
                    perTerm(static_cast<Eigen::Index>(j + 1), m) =
                        pairNats(d, lambda2, sigma2[k][v][j], c.c0, gap(r, m));
                }
            }
            perTerm.row(static_cast<Eigen::Index>(numPairs + 1)) =
                decoder.row(decoderRowOf(trajectory));
            Result<NllResult> result = summarise(perTerm, trajectory, d);
            if (!result) {
                return result.error();
            }
            results[k].push_back(std::move(result).value());
        }
    }
    return results;
}

}  // namespace core::gaussian
