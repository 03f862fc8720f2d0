// SPDX-License-Identifier: MIT
// The DPM-Solver samplers and the zero terminal SNR schedules in the Gaussian engine
// (docs/gaussian.md#reverse-samplers, docs/gaussian.md#zero-terminal-snr).
#include <QTest>

#include <algorithm>

#include <cmath>
#include <map>

#include "core/gaussian/gamma.h"
#include "core/gaussian/nll.h"
#include "core/gaussian/sampler.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/gaussian/variance.h"
#include "core/model/gaussian_oracles.h"
#include "core/model/oracle_specs.h"
#include "core/schedule/gaussian_schedule.h"
#include "tests/support/test_support.h"

using namespace core;
using gaussian::SamplerKind;

namespace {

constexpr SamplerKind kAllKinds[] = {
    SamplerKind::Ddpm,          SamplerKind::Ddim,          SamplerKind::AnalyticDdpm,
    SamplerKind::AnalyticDdim,  SamplerKind::DpmSolver1,    SamplerKind::DpmSolverPp2M,
    SamplerKind::DpmSolverPp3M,
};

std::shared_ptr<model::GaussianOracle> moons() {
    auto oracle = model::gaussianOracleFromSpec("toy:moons,n=2000");
    return oracle.ok() ? *oracle : nullptr;
}

bool allFinite(const std::vector<double>& values, size_t from = 1) {
    for (size_t i = from; i < values.size(); ++i) {
        if (!std::isfinite(values[i])) {
            return false;
        }
    }
    return true;
}

// E[x_0 | x_n] for data N(μ, s²I), written from the Gaussian posterior, not from ε.
core::Matrix gaussianPosteriorMean(const core::Matrix& x, double mu, double s, double alphaBar,
                                   double betaBar) {
    const double gain = std::sqrt(alphaBar) * s * s / (alphaBar * s * s + betaBar);
    return (gain * (x.array() - std::sqrt(alphaBar) * mu) + mu).matrix();
}

// For data N(μ, s²) the probability-flow ODE keeps u = (x_n − α_n μ)/r_n constant, with
// r_n² = α_n² s² + σ_n²: the exact path from x_N = z reaches x_1 = α_1 μ + r_1 u, whose data
// prediction is μ + (α_1 s²/r_1)·u. The largest distance of the sampler's outputs from that.
double odeError(const gaussian::SampleResult& r, const schedule::GaussianSchedule& schedule,
                double mu, double s) {
    auto alpha = [&](int n) { return std::sqrt(schedule.alphaBar(n)); };
    auto radius = [&](int n) {
        return std::sqrt(schedule.alphaBar(n) * s * s + schedule.betaBar(n));
    };
    const int top = r.frameSteps.front();
    const core::Matrix u = (r.frames.front().array() - alpha(top) * mu) / radius(top);
    const core::Matrix exact = (mu + alpha(1) * s * s / radius(1) * u.array()).matrix();
    return (r.samples - exact).cwiseAbs().maxCoeff();
}

}  // namespace

class tst_GaussianSolvers : public QObject {
    Q_OBJECT
private slots:
    void parsesTheNewKinds();
    void initialNoiseDoesNotDependOnTheSampler();
    void everySamplerCallsTheModelKTimes();
    void dpmSolver1EqualsDdim_data();
    void dpmSolver1EqualsDdim();
    void dpmSolverPlusPlusStepsByHand();
    void ddimStepsWithTheNoiseOfTheClampedPrediction();
    void solversConvergeWithOrder_data();
    void solversConvergeWithOrder();
    void zeroSnrGivesNoNanOnMoons();
    void zeroSnrRefusesLogSnrAndKarras();
    void zeroSnrNeedsAModelThatKnowsTheMean();
};

void tst_GaussianSolvers::parsesTheNewKinds() {
    QCOMPARE(*gaussian::parseSamplerKind("dpm-solver-1"), SamplerKind::DpmSolver1);
    QCOMPARE(*gaussian::parseSamplerKind("dpm-solver++2m"), SamplerKind::DpmSolverPp2M);
    QCOMPARE(*gaussian::parseSamplerKind("dpm-solver++3m"), SamplerKind::DpmSolverPp3M);
    auto bad = gaussian::parseSamplerKind("dpm-solver++4m");
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().toString().find("sampler") != std::string::npos);
    QVERIFY(bad.error().toString().find("dpm-solver++4m") != std::string::npos);
}

void tst_GaussianSolvers::initialNoiseDoesNotDependOnTheSampler() {
    auto oracle = moons();
    QVERIFY(oracle);
    auto sched = schedule::linearSchedule(200);
    DS_VERIFY_OK(sched);
    auto estimate = gaussian::estimateGamma(*oracle, *oracle, *sched, {.numSamples = 20});
    DS_VERIFY_OK(estimate);
    auto gamma = gaussian::gammaTable(*estimate, 200);
    DS_VERIFY_OK(gamma);
    auto trajectory = gaussian::resolveTrajectory("even:6", *sched, nullptr);
    DS_VERIFY_OK(trajectory);
    core::Matrix first;
    for (SamplerKind kind : kAllKinds) {
        gaussian::SamplerParams params{.kind = kind, .count = 40, .seed = 5, .recordFrames = true};
        auto result = gaussian::sampleReverse(*oracle, *sched, *gamma, trajectory->timesteps,
                                              params);
        DS_VERIFY_OK(result);
        QCOMPARE(result->frames.size(), size_t(7));  // x_{τ_K}, five steps, the output
        if (first.size() == 0) {
            first = result->frames.front();
        }
        QVERIFY(result->frames.front() == first);
    }
}

namespace {
// Counts the model calls (one batch per call) and records the timesteps asked for.
class CountingModel final : public model::GaussianEpsModel {
public:
    explicit CountingModel(const model::GaussianEpsModel& inner) : m_inner(inner) {}
    int dimension() const override { return m_inner.dimension(); }
    void predictEps(const ConstMatrixRef& x, const model::NoiseLevel& level,
                    MatrixRef eps) const override {
        timesteps.push_back(level.timestep);
        m_inner.predictEps(x, level, eps);
    }
    bool dataMean(VectorRef out) const override { return m_inner.dataMean(out); }
    mutable std::vector<int> timesteps;

private:
    const model::GaussianEpsModel& m_inner;
};
}  // namespace

// K timesteps, K model calls, from τ_K down to τ_1, for every kind (one batch, one thread).
void tst_GaussianSolvers::everySamplerCallsTheModelKTimes() {
    auto oracle = moons();
    QVERIFY(oracle);
    auto sched = schedule::linearSchedule(200);
    DS_VERIFY_OK(sched);
    const std::vector<double> gamma(201, 1.0);
    const std::vector<int> trajectory = {3, 20, 70, 150, 190};
    for (SamplerKind kind : kAllKinds) {
        CountingModel counting(*oracle);
        auto result = gaussian::sampleReverse(counting, *sched, gamma, trajectory,
                                              {.kind = kind, .count = 8});
        DS_VERIFY_OK(result);
        QCOMPARE(counting.timesteps, (std::vector<int>{190, 150, 70, 20, 3}));
    }
}

void tst_GaussianSolvers::dpmSolver1EqualsDdim_data() {
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<QString>("trajectory");
    QTest::newRow("linear even:10") << "linear" << "even:10";
    QTest::newRow("linear trailing:10 (from 100)") << "linear" << "trailing:10";
    QTest::newRow("linear leading:8 (ends below N)") << "linear" << "leading:8";
    QTest::newRow("cosine linspace:25") << "cosine" << "linspace:25";
    QTest::newRow("linear list") << "linear" << "list:1,7,50,300,999";
    QTest::newRow("zero-snr trailing:10") << "linear,zero-snr" << "trailing:10";
    QTest::newRow("zero-snr even:25") << "cosine,zero-snr" << "even:25";
}

void tst_GaussianSolvers::dpmSolver1EqualsDdim() {
    QFETCH(QString, schedule);
    QFETCH(QString, trajectory);
    auto oracle = moons();
    QVERIFY(oracle);
    auto sched = schedule::gaussianScheduleFromSpec(schedule.toStdString(), 1000);
    DS_VERIFY_OK(sched);
    auto steps = gaussian::resolveTrajectory(trajectory.toStdString(), *sched, nullptr);
    DS_VERIFY_OK(steps);
    gaussian::SamplerParams params{.kind = SamplerKind::Ddim, .eta = 0.0, .count = 300, .seed = 3};
    auto ddim = gaussian::sampleReverse(*oracle, *sched, {}, steps->timesteps, params);
    params.kind = SamplerKind::DpmSolver1;
    params.eta = 0.7;  // ignored by the solvers
    auto solver = gaussian::sampleReverse(*oracle, *sched, {}, steps->timesteps, params);
    DS_VERIFY_OK(ddim);
    DS_VERIFY_OK(solver);
    QVERIFY(ddim->samples.allFinite());
    DS_COMPARE_ABS((ddim->samples - solver->samples).cwiseAbs().maxCoeff(), 0.0, 1e-9);
    for (double s2 : solver->sigma2) {
        QCOMPARE(s2, 0.0);
    }
}

namespace {
// ε = 0 everywhere: x̂_0 = x_t/√ᾱ_t, far outside [−1, 1] at large t, so the clamp acts.
class ZeroEps final : public model::GaussianEpsModel {
public:
    int dimension() const override { return 2; }
    void predictEps(const ConstMatrixRef&, const model::NoiseLevel&, MatrixRef eps) const override {
        eps.setZero();
    }
};
}  // namespace

// DDIM (η = 0) and DPM-Solver-1 step with the noise consistent with the clamped x̂_0,
// ε̂ = (x_t − √ᾱ_t x̂_0)/√β̄_t, written out here for a two-step trajectory.
void tst_GaussianSolvers::ddimStepsWithTheNoiseOfTheClampedPrediction() {
    auto sched = schedule::linearSchedule(100);
    DS_VERIFY_OK(sched);
    const ZeroEps model;
    const std::vector<int> trajectory = {30, 90};
    for (SamplerKind kind : {SamplerKind::Ddim, SamplerKind::DpmSolver1}) {
        gaussian::SamplerParams params{.kind = kind, .eta = 0.0, .count = 5, .seed = 11,
                                       .recordFrames = true};
        auto result = gaussian::sampleReverse(model, *sched, {}, trajectory, params);
        DS_VERIFY_OK(result);
        for (Eigen::Index b = 0; b < 5; ++b) {
            for (int i = 0; i < 2; ++i) {
                const double x90 = result->frames[0](i, b);
                const double a90 = std::sqrt(sched->alphaBar(90)), s90 = std::sqrt(sched->betaBar(90));
                const double x0 = std::clamp(x90 / a90, -1.0, 1.0);
                const double eps = (x90 - a90 * x0) / s90;
                const double x30 = std::sqrt(sched->alphaBar(30)) * x0 + std::sqrt(sched->betaBar(30)) * eps;
                DS_COMPARE_ABS(result->frames[1](i, b), x30, 1e-12);
                // The decoder: x̂_0(x_30), clamped.
                DS_COMPARE_ABS(result->samples(i, b),
                               std::clamp(x30 / std::sqrt(sched->alphaBar(30)), -1.0, 1.0), 1e-12);
            }
        }
    }
}

void tst_GaussianSolvers::dpmSolverPlusPlusStepsByHand() {
    // Data N(μ, s²I): the exact data prediction is linear in x, so every step can be written out.
    const double mu = 0.3;
    const double s = 0.4;
    auto oracle = model::IsotropicGaussianOracle::create(core::Vector::Constant(2, mu), s);
    DS_VERIFY_OK(oracle);
    auto sched = schedule::linearSchedule(1000);
    DS_VERIFY_OK(sched);
    const std::vector<int> tau = {20, 180, 520, 1000};
    auto alpha = [&](int n) { return std::sqrt(sched->alphaBar(n)); };
    auto sigma = [&](int n) { return std::sqrt(sched->betaBar(n)); };
    auto lambda = [&](int n) { return std::log(alpha(n) / sigma(n)); };
    auto data = [&](const core::Matrix& x, int n) {
        return gaussianPosteriorMean(x, mu, s, sched->alphaBar(n), sched->betaBar(n));
    };
    const gaussian::DataRange wide{-50.0, 50.0};  // no clamping
    for (SamplerKind kind : {SamplerKind::DpmSolverPp2M, SamplerKind::DpmSolverPp3M}) {
        gaussian::SamplerParams params{
            .kind = kind, .range = wide, .count = 5, .seed = 11, .recordFrames = true};
        auto result = gaussian::sampleReverse(**oracle, *sched, {}, tau, params);
        DS_VERIFY_OK(result);
        // First step, first order: x = (σ_s/σ_t)x − α_s(e^{−h} − 1)D_t.
        const core::Matrix x4 = result->frames[0];
        const core::Matrix d4 = data(x4, 1000);
        const double h1 = lambda(520) - lambda(1000);
        const core::Matrix x3 =
            (sigma(520) / sigma(1000)) * x4 - alpha(520) * (std::exp(-h1) - 1.0) * d4;
        DS_COMPARE_ABS((result->frames[1] - x3).cwiseAbs().maxCoeff(), 0.0, 1e-12);
        // Second step, second order (Algorithm 2): D = (1 + 1/(2r))D_t − (1/(2r))D_prev,
        // r = h_prev/h.
        const core::Matrix d3 = data(x3, 520);
        const double h2 = lambda(180) - lambda(520);
        const double r = h1 / h2;
        const core::Matrix mix = (1.0 + 1.0 / (2.0 * r)) * d3 - (1.0 / (2.0 * r)) * d4;
        const core::Matrix x2 =
            (sigma(180) / sigma(520)) * x3 - alpha(180) * (std::exp(-h2) - 1.0) * mix;
        DS_COMPARE_ABS((result->frames[2] - x2).cwiseAbs().maxCoeff(), 0.0, 1e-12);
        const core::Matrix d2 = data(x2, 180);
        const double h3 = lambda(20) - lambda(180);
        core::Matrix x1;
        if (kind == SamplerKind::DpmSolverPp2M) {
            const double r2 = h2 / h3;
            const core::Matrix mix2 = (1.0 + 1.0 / (2.0 * r2)) * d2 - (1.0 / (2.0 * r2)) * d3;
            x1 = (sigma(20) / sigma(180)) * x2 - alpha(20) * (std::exp(-h3) - 1.0) * mix2;
        } else {
            // Third order: the official multistep update in its r0, r1 form.
            const double r0 = h2 / h3;
            const double r1 = h1 / h3;
            const core::Matrix e10 = (1.0 / r0) * (d2 - d3);
            const core::Matrix e11 = (1.0 / r1) * (d3 - d4);
            const core::Matrix e1 = e10 + (r0 / (r0 + r1)) * (e10 - e11);
            const core::Matrix e2 = (1.0 / (r0 + r1)) * (e10 - e11);
            const double ph = std::exp(-h3) - 1.0;
            x1 = (sigma(20) / sigma(180)) * x2 - alpha(20) * ph * d2 +
                 alpha(20) * (ph / h3 + 1.0) * e1 - alpha(20) * ((ph + h3) / (h3 * h3) - 0.5) * e2;
        }
        DS_COMPARE_ABS((result->frames[3] - x1).cwiseAbs().maxCoeff(), 0.0, 1e-12);
        // The output is the data prediction at τ_1: K = 4 model calls for 4 timesteps.
        DS_COMPARE_ABS((result->samples - data(x1, 20)).cwiseAbs().maxCoeff(), 0.0, 1e-12);
    }
}

void tst_GaussianSolvers::solversConvergeWithOrder_data() {
    QTest::addColumn<QString>("schedule");
    QTest::newRow("linear") << "linear";
    QTest::newRow("cosine") << "cosine";
    QTest::newRow("linear,zero-snr") << "linear,zero-snr";
}

// Deterministic: the exact oracle of N(μ, s²) and the exact ODE solution (odeError), on
// timesteps uniform in λ (logsnr:K; on a zero-SNR schedule, where λ_N = −∞, logsnr:(K − 1) over
// 1..N − 1 and then N). In the asymptotic range (K ≥ 25) the error falls as K grows, is smaller
// for a higher order, and halving the step divides it by about 2, 4 and 8.
void tst_GaussianSolvers::solversConvergeWithOrder() {
    QFETCH(QString, schedule);
    const double mu = 0.3;
    const double s = 0.2;
    auto oracle = model::IsotropicGaussianOracle::create(core::Vector::Constant(1, mu), s);
    DS_VERIFY_OK(oracle);
    auto sched = schedule::gaussianScheduleFromSpec(schedule.toStdString(), 1000);
    DS_VERIFY_OK(sched);
    const bool zeroSnr = sched->zeroTerminalSnr();
    // The same ᾱ_1..ᾱ_{N−1}, all with a finite λ.
    auto below = schedule::GaussianSchedule::fromBetas(
        std::vector<double>(sched->betas().begin() + 1, sched->betas().end() - 1));
    DS_VERIFY_OK(below);
    const gaussian::DataRange wide{-50.0, 50.0};  // no clamping
    const std::vector<int> ks = {5, 10, 25, 50, 100};
    std::map<SamplerKind, std::vector<double>> errors;
    for (int k : ks) {
        auto trajectory = gaussian::resolveTrajectory(
            "logsnr:" + std::to_string(zeroSnr ? k - 1 : k), zeroSnr ? *below : *sched, nullptr);
        DS_VERIFY_OK(trajectory);
        std::vector<int> steps = trajectory->timesteps;
        if (zeroSnr) {
            steps.push_back(1000);
        }
        QCOMPARE(static_cast<int>(steps.size()), k);
        for (SamplerKind kind :
             {SamplerKind::DpmSolver1, SamplerKind::DpmSolverPp2M, SamplerKind::DpmSolverPp3M}) {
            gaussian::SamplerParams params{
                .kind = kind, .range = wide, .count = 8, .seed = 2, .recordFrames = true};
            auto result = gaussian::sampleReverse(**oracle, *sched, {}, steps, params);
            DS_VERIFY_OK(result);
            errors[kind].push_back(odeError(*result, *sched, mu, s));
        }
    }
    const std::map<SamplerKind, double> rate = {{SamplerKind::DpmSolver1, 1.7},
                                                {SamplerKind::DpmSolverPp2M, 3.0},
                                                {SamplerKind::DpmSolverPp3M, 4.5}};
    for (const auto& [kind, e] : errors) {
        qInfo("kind %d: errors %.3e %.3e %.3e %.3e %.3e", static_cast<int>(kind), e[0], e[1],
              e[2], e[3], e[4]);
        for (size_t i = 3; i < e.size(); ++i) {
            QVERIFY2(e[i] < e[i - 1], qPrintable(QString::number(ks[i])));
        }
        QVERIFY2(e[3] / e[4] > rate.at(kind), qPrintable(QString::number(e[3] / e[4])));
    }
    for (size_t i = 2; i < ks.size(); ++i) {
        QVERIFY(errors[SamplerKind::DpmSolverPp2M][i] < errors[SamplerKind::DpmSolver1][i]);
        QVERIFY(errors[SamplerKind::DpmSolverPp3M][i] < errors[SamplerKind::DpmSolverPp2M][i]);
    }
}

void tst_GaussianSolvers::zeroSnrGivesNoNanOnMoons() {
    auto oracle = moons();
    QVERIFY(oracle);
    auto sched = schedule::gaussianScheduleFromSpec("linear,zero-snr", 1000);
    DS_VERIFY_OK(sched);
    QVERIFY(sched->zeroTerminalSnr());
    const gaussian::DataRange range;
    for (auto estimator : {gaussian::GammaEstimator::Score, gaussian::GammaEstimator::Error,
                           gaussian::GammaEstimator::Denoising}) {
        auto estimate = gaussian::estimateGamma(
            *oracle, *oracle, *sched, {.numSamples = 50, .seed = 1, .estimator = estimator});
        DS_VERIFY_OK(estimate);
        QVERIFY(allFinite(estimate->gamma, 0));
        QVERIFY(allFinite(estimate->standardError, 0));
        // ε_θ(x_N, N) = x_N = ε exactly: the error form reads β̄_NΓ_N = 1 with no noise.
        if (estimator != gaussian::GammaEstimator::Score) {
            QCOMPARE(estimate->msEps.back(), 1.0);
            QCOMPARE(estimate->standardError.back(), 0.0);
        }
        auto gamma = gaussian::gammaTable(*estimate, 1000);
        DS_VERIFY_OK(gamma);
        // v_N: the Eq. 12 bound ((b − a)/2)², Γ_N saying nothing about it.
        const auto v = gaussian::expectedPosteriorVariances(*sched, *gamma, range);
        QVERIFY(allFinite(v));
        QCOMPARE(v.back(), range.halfWidthSquared());
        auto dp = gaussian::resolveTrajectory("dp:10", *sched, &*gamma);
        DS_VERIFY_OK(dp);
        QVERIFY(std::isfinite(dp->cost));
        for (const char* spec : {"even:10", "trailing:10", "linspace:25"}) {
            auto trajectory = gaussian::resolveTrajectory(spec, *sched, nullptr);
            DS_VERIFY_OK(trajectory);
            for (double eta : {0.0, 1.0}) {
                auto pairs = gaussian::trajectoryVariances(*sched, *gamma, trajectory->timesteps,
                                                           {eta}, range);
                DS_VERIFY_OK(pairs);
                for (const auto& p : *pairs) {
                    QVERIFY(std::isfinite(p.sigma2) && std::isfinite(p.sigma2Unclipped) &&
                            std::isfinite(p.upper) && std::isfinite(p.upperBounded) &&
                            std::isfinite(p.v));
                    QVERIFY(p.sigma2 > 0.0 || eta == 0.0);
                }
            }
            for (auto variance : {gaussian::ReverseVariance::Analytic, gaussian::ReverseVariance::Small,
                                  gaussian::ReverseVariance::Large}) {
                gaussian::NllParams params{.variance = variance, .numSamples = 64};
                auto nll = gaussian::negativeElbo(*oracle, *oracle, *sched, *gamma,
                                                  trajectory->timesteps, params);
                DS_VERIFY_OK(nll);
                QVERIFY(std::isfinite(nll->bitsPerDim) && std::isfinite(nll->standardError));
                // q(x_N|x_0) = N(0, I) exactly: the prior term is 0.
                if (trajectory->timesteps.back() == 1000) {
                    QCOMPARE(nll->prior.nats, 0.0);
                }
            }
            for (SamplerKind kind : kAllKinds) {
                gaussian::SamplerParams params{
                    .kind = kind, .count = 64, .seed = 9, .recordFrames = true};
                auto result = gaussian::sampleReverse(*oracle, *sched, *gamma,
                                                      trajectory->timesteps, params);
                DS_VERIFY_OK(result);
                for (const auto& frame : result->frames) {
                    QVERIFY(frame.allFinite());
                }
            }
        }
    }
}

void tst_GaussianSolvers::zeroSnrRefusesLogSnrAndKarras() {
    auto sched = schedule::gaussianScheduleFromSpec("cosine,zero-snr", 1000);
    DS_VERIFY_OK(sched);
    for (const char* spec : {"logsnr:10", "karras:10"}) {
        auto trajectory = gaussian::resolveTrajectory(spec, *sched, nullptr);
        QVERIFY(!trajectory.ok());
        const std::string message = trajectory.error().toString();
        QVERIFY2(message.find("trajectory") != std::string::npos, message.c_str());
        QVERIFY2(message.find(spec) != std::string::npos, message.c_str());
        QVERIFY(message.find('\n') == std::string::npos);
    }
}

namespace {
// An ε-model that knows nothing of its data (as a network).
class PlainEps final : public model::GaussianEpsModel {
public:
    int dimension() const override { return 2; }
    void predictEps(const ConstMatrixRef& x, const model::NoiseLevel&,
                    MatrixRef eps) const override {
        eps = 0.5 * x;
    }
};
}  // namespace

void tst_GaussianSolvers::zeroSnrNeedsAModelThatKnowsTheMean() {
    auto sched = schedule::gaussianScheduleFromSpec("linear,zero-snr", 100);
    DS_VERIFY_OK(sched);
    PlainEps model;
    auto refused = gaussian::sampleReverse(model, *sched, {}, {1, 50, 100},
                                           {.kind = SamplerKind::Ddim});
    QVERIFY(!refused.ok());
    QVERIFY(refused.error().toString().find("zero-snr") != std::string::npos);
    // Below N the SNR is positive: no E[x_0] is needed.
    auto below = gaussian::sampleReverse(model, *sched, {}, {1, 50, 99},
                                         {.kind = SamplerKind::DpmSolverPp2M});
    DS_VERIFY_OK(below);
}

QTEST_APPLESS_MAIN(tst_GaussianSolvers)
#include "tst_gaussian_solvers.moc"
