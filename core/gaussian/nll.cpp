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

Result<NllResult> negativeElbo(const model::GaussianEpsModel& model,
                               const model::GaussianDataSampler& data,
                               const schedule::GaussianSchedule& schedule,
                               const std::vector<double>& gamma,
                               const std::vector<int>& trajectory,
                               const NllParams& params,
                               Progress* progress) {
    if (Status s = params.validate(); !s) {
        return s.error();
    }
    const int numSteps = schedule.numSteps();
    if (numSteps < 2) {
        return invalidArgument("N", std::to_string(numSteps),
                               "the decoder variance β̃_{1|2} needs N ≥ 2");
    }
    if (Status s = validateGaussianTrajectory(trajectory, numSteps); !s) {
        return s.error();
    }
    if (model.dimension() != data.dimension()) {
        return invalidArgument("model", std::to_string(model.dimension()),
                               "the model's dimension differs from the data's (" +
                                   std::to_string(data.dimension()) + ")");
    }
    // Reverse variances per pair, in sampling order.
    const ForwardProcess ddpm{1.0};
    const size_t numPairs = trajectory.size() - 1;
    std::vector<double> sigma2(numPairs);
    for (size_t j = 0; j < numPairs; ++j) {
        const int s = trajectory[numPairs - 1 - j];
        const int t = trajectory[numPairs - j];
        switch (params.variance) {
            case NllVariance::Analytic: {
                Result<PairVariance> p = pairVariance(schedule, gamma, s, t, ddpm, params.range);
                if (!p) {
                    return p.error();
                }
                sigma2[j] = p->sigma2;
                break;
            }
            case NllVariance::Small: sigma2[j] = schedule.betaTildeST(s, t); break;
            case NllVariance::Large: sigma2[j] = schedule.betaTS(s, t); break;
        }
    }
    const int d = model.dimension();
    const int top = trajectory.back();
    const double decoderVariance = schedule.betaTildeST(1, 2);
    const double decoderStd = std::sqrt(decoderVariance);
    const double gridStep = (params.range.high - params.range.low) / (params.levels - 1);
    const double halfWidth = 0.5 * gridStep;
    const size_t numTerms = numPairs + 2;  // prior, pairs, decoder

    const int64_t numItems = numBlocks(params.numSamples, params.batchSize);
    // Per point and term, nats; merged in point order afterwards (thread-count independent).
    Matrix perTerm(static_cast<Eigen::Index>(numTerms), params.numSamples);
    std::atomic<bool> stop{false};
    if (progress != nullptr) {
        progress->setTotal(numItems);
    }
    parallelForBlocks(numItems, 1, params.parallel, [&](int64_t item, int64_t, int64_t) {
        if (stop.load(std::memory_order_relaxed)) {
            return;
        }
        const int64_t begin = item * params.batchSize;
        const int64_t end = std::min<int64_t>(params.numSamples, begin + params.batchSize);
        const Eigen::Index batch = end - begin;
        Matrix x0(d, batch);
        Vector point(d);
        for (int64_t m = begin; m < end; ++m) {
            CounterRng rng(params.seed, rngStream(RngPurpose::Data, m), 0);
            data.sampleData(static_cast<uint64_t>(m), rng, point);
            for (int i = 0; i < d; ++i) {
                // Snap to the L-level grid (B.6: the likelihood is of discrete data).
                const double clamped = std::clamp(point[i], params.range.low, params.range.high);
                const double level = std::nearbyint((clamped - params.range.low) / gridStep);
                point[i] = params.range.low + level * gridStep;
            }
            x0.col(m - begin) = point;
        }
        // Prior: Σ_dims KL(N(√ᾱ_T x_0, β̄_T) ‖ N(0, 1)).
        const double alphaBarTop = schedule.alphaBar(top);
        const double betaBarTop = schedule.betaBar(top);
        for (Eigen::Index b = 0; b < batch; ++b) {
            perTerm(0, begin + b) =
                0.5 * (d * (betaBarTop - std::log(betaBarTop) - 1.0) +
                       alphaBarTop * x0.col(b).squaredNorm());
        }
        Matrix xt(d, batch);
        Matrix eps(d, batch);
        Matrix x0Pred(d, batch);
        auto noisy = [&](int t) {
            const double a = std::sqrt(schedule.alphaBar(t));
            const double s = std::sqrt(schedule.betaBar(t));
            for (Eigen::Index b = 0; b < batch; ++b) {
                CounterRng rng(params.seed, rngStream(RngPurpose::NllNoise, begin + b), t);
                for (int i = 0; i < d; ++i) {
                    xt(i, b) = a * x0(i, b) + s * rng.normal();
                }
            }
            model.predictEps(xt, model::NoiseLevel{t, schedule.alphaBar(t), schedule.betaBar(t)},
                             eps);
            predictX0(schedule, t, xt, eps, params.range, x0Pred);
        };
        for (size_t j = 0; j < numPairs; ++j) {
            const int s = trajectory[numPairs - 1 - j];
            const int t = trajectory[numPairs - j];
            noisy(t);
            const DdpmMeanCoefficients c = ddpmMeanCoefficients(schedule, s, t);
            const double lambda2 = schedule.betaTildeST(s, t);
            // μ_q − μ_p = c0·(x_0 − x̂_0): the x_t parts cancel.
            for (Eigen::Index b = 0; b < batch; ++b) {
                const double meanGap = c.c0 * c.c0 * (x0.col(b) - x0Pred.col(b)).squaredNorm();
                perTerm(static_cast<Eigen::Index>(j + 1), begin + b) =
                    0.5 * (d * (lambda2 / sigma2[j] + std::log(sigma2[j] / lambda2) - 1.0) +
                           meanGap / sigma2[j]);
            }
            if (progress != nullptr && progress->cancelled()) {
                stop.store(true);
                return;
            }
        }
        // Decoder (0, τ_1): −Σ log of the discretised Gaussian around x̂_0(x_{τ_1}).
        noisy(trajectory.front());
        for (Eigen::Index b = 0; b < batch; ++b) {
            double logp = 0.0;
            for (int i = 0; i < d; ++i) {
                logp += logDiscretizedGaussian(x0(i, b), x0Pred(i, b), decoderStd, halfWidth,
                                               params.range);
            }
            perTerm(static_cast<Eigen::Index>(numTerms - 1), begin + b) = -logp;
        }
        if (progress != nullptr && !progress->advance()) {
            stop.store(true);
        }
    });
    if (stop.load() || (progress != nullptr && progress->cancelled())) {
        return makeError(ErrorCode::Cancelled, "", "", "the NLL evaluation was cancelled");
    }
    if (!perTerm.allFinite()) {
        return makeError(ErrorCode::NumericalError, "nll", "", "a term of the ELBO is not finite");
    }
    const double toBits = 1.0 / (d * std::numbers::ln2);
    const double count = params.numSamples;
    NllResult result;
    auto makeTerm = [&](Eigen::Index row, int s, int t) {
        NllTerm term;
        term.s = s;
        term.t = t;
        term.nats = perTerm.row(row).sum() / count;
        term.bitsPerDim = term.nats * toBits;
        return term;
    };
    result.prior = makeTerm(0, -1, top);
    for (size_t j = 0; j < numPairs; ++j) {
        result.pairs.push_back(makeTerm(static_cast<Eigen::Index>(j + 1),
                                        trajectory[numPairs - 1 - j], trajectory[numPairs - j]));
    }
    result.decoder = makeTerm(static_cast<Eigen::Index>(numTerms - 1), 0, trajectory.front());
    result.perPoint.resize(static_cast<size_t>(params.numSamples));
    double mean = 0.0;
    for (int m = 0; m < params.numSamples; ++m) {
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

}  // namespace core::gaussian
