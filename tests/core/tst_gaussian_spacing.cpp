// SPDX-License-Identifier: MIT
// core/gaussian/spacing: the timestep spacings of diffusers, EDM and DPM-Solver against arrays
// written out by hand and a brute-force nearest search; and the variances, the NLL and the
// samplers on trajectories that start after 1 or end before N.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/gaussian/nll.h"
#include "core/gaussian/sampler.h"
#include "core/gaussian/spacing.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/gaussian/variance.h"
#include "core/model/gaussian_oracles.h"
#include "core/project/gaussian_params.h"
#include "core/schedule/gaussian_schedule.h"
#include "tests/support/test_support.h"

using namespace core;

namespace {

std::vector<int> resolve(const std::string& spec, const schedule::GaussianSchedule& schedule) {
    auto resolved = gaussian::resolveTrajectory(spec, schedule, nullptr);
    if (!resolved) {
        qWarning("%s", resolved.error().toString().c_str());
        return {};
    }
    return resolved->timesteps;
}

// 0-based diffusers timesteps → our 1-based ones, in increasing order.
std::vector<int> fromDiffusers(std::vector<int> t) {
    std::sort(t.begin(), t.end());
    for (int& v : t) {
        ++v;
    }
    return t;
}

// The spacings' nearest-timestep rule written out plainly: scan every n, keep the first
// strictly nearer one (so ties go to the smaller n); then sort and the two passes.
std::vector<int> bruteForceNearest(const std::vector<double>& value,  // entries 1..N
                                   const std::vector<double>& targets) {
    const int numSteps = static_cast<int>(value.size()) - 1;
    std::vector<int> n;
    for (double target : targets) {
        int best = 1;
        for (int m = 2; m <= numSteps; ++m) {
            if (std::abs(value[m] - target) < std::abs(value[best] - target)) {
                best = m;
            }
        }
        n.push_back(best);
    }
    std::sort(n.begin(), n.end());
    for (size_t i = 1; i < n.size(); ++i) {
        if (n[i] < n[i - 1] + 1) n[i] = n[i - 1] + 1;
    }
    if (n.back() > numSteps) n.back() = numSteps;
    for (size_t i = n.size() - 1; i-- > 0;) {
        if (n[i] > n[i + 1] - 1) n[i] = n[i + 1] - 1;
    }
    return n;
}

std::vector<int> bruteForceLogSnr(const schedule::GaussianSchedule& s, int k) {
    const int numSteps = s.numSteps();
    std::vector<double> lambda(numSteps + 1, 0.0);
    for (int n = 1; n <= numSteps; ++n) {
        lambda[n] = 0.5 * std::log(s.alphaBar(n) / s.betaBar(n));
    }
    std::vector<double> targets;
    for (int i = 0; i < k; ++i) {
        targets.push_back(lambda[1] + (lambda[numSteps] - lambda[1]) * i / (k - 1.0));
    }
    return bruteForceNearest(lambda, targets);
}

std::vector<int> bruteForceKarras(const schedule::GaussianSchedule& s, int k, double rho) {
    const int numSteps = s.numSteps();
    std::vector<double> logSigma(numSteps + 1, 0.0);
    for (int n = 1; n <= numSteps; ++n) {
        logSigma[n] = std::log(std::sqrt(s.betaBar(n) / s.alphaBar(n)));
    }
    const double sigmaMax = std::sqrt(s.betaBar(numSteps) / s.alphaBar(numSteps));
    const double sigmaMin = std::sqrt(s.betaBar(1) / s.alphaBar(1));
    std::vector<double> targets;
    for (int i = 0; i < k; ++i) {
        const double root = std::pow(sigmaMax, 1.0 / rho) +
                            i / (k - 1.0) * (std::pow(sigmaMin, 1.0 / rho) - std::pow(sigmaMax, 1.0 / rho));
        targets.push_back(std::log(std::pow(root, rho)));
    }
    return bruteForceNearest(logSigma, targets);
}

// Γ of N(m, s²I) data in closed form, as a table with entry 0 unused.
std::vector<double> exactGamma(const schedule::GaussianSchedule& sched,
                               const model::IsotropicGaussianOracle& oracle) {
    std::vector<double> gamma(static_cast<size_t>(sched.numSteps()) + 1, 0.0);
    for (int n = 1; n <= sched.numSteps(); ++n) {
        gamma[n] = oracle.exactGamma(sched.alphaBar(n), sched.betaBar(n));
    }
    return gamma;
}

// β̃_{s|t} = β̄_s/β̄_t·(1 − ᾱ_t/ᾱ_s), written out.
double betaTilde(const schedule::GaussianSchedule& sched, int s, int t) {
    return (1.0 - sched.alphaBar(s)) / (1.0 - sched.alphaBar(t)) *
           (1.0 - sched.alphaBar(t) / sched.alphaBar(s));
}

}  // namespace

class tst_GaussianSpacing : public QObject {
    Q_OBJECT

private slots:
    void diffusersArrays();
    void roundsHalfToEven();
    void diffusersClassArithmetic();
    void diffusersClassOptionRefusals();
    void alignYourSteps_data();
    void alignYourSteps();
    void alignYourStepsHowToLists_data();
    void alignYourStepsHowToLists();
    void alignYourStepsRefusals();
    void logSnrAndKarrasAgainstBruteForce_data();
    void logSnrAndKarrasAgainstBruteForce();
    void distinctPassesFillEveryTimestep();
    void errorsNameFieldAndValue_data();
    void errorsNameFieldAndValue();
    void endsNote();
    void variancesWithoutOneOrN();
    void nllPriorAndDecoderByHand();
    void nllSweepEqualsSingleCallsOnSpacings();
    void samplersWithoutOneOrN();
};

// N = 1000, K = 10 as diffusers' DDIM scheduler sets them (0-based t).
void tst_GaussianSpacing::diffusersArrays() {
    auto sched = schedule::linearSchedule(1000);
    DS_VERIFY_OK(sched);
    QCOMPARE(resolve("linspace:10", *sched),
             fromDiffusers({0, 111, 222, 333, 444, 555, 666, 777, 888, 999}));
    QCOMPARE(resolve("leading:10", *sched),
             fromDiffusers({0, 100, 200, 300, 400, 500, 600, 700, 800, 900}));
    QCOMPARE(resolve("leading:10,offset=1", *sched),
             fromDiffusers({1, 101, 201, 301, 401, 501, 601, 701, 801, 901}));
    QCOMPARE(resolve("trailing:10", *sched),
             fromDiffusers({999, 899, 799, 699, 599, 499, 399, 299, 199, 99}));
    // leading with N/K not whole: ⌊1000/7⌋ = 142.
    QCOMPARE(resolve("leading:7,offset=3", *sched),
             fromDiffusers({3, 145, 287, 429, 571, 713, 855}));
}

// NumPy rounds half to even: linspace(0, 9, 3) = 0, 4.5, 9 → 0, 4, 9; round(arange(10, 0, −2.5))
// = 10, 8, 5, 2 (7.5 → 8, 2.5 → 2); linspace(0, 999, 25) has 166.5 → 166, 499.5 → 500, 832.5
// → 832.
void tst_GaussianSpacing::roundsHalfToEven() {
    auto ten = schedule::cosineSchedule(10);  // the linear one needs N ≥ 50
    DS_VERIFY_OK(ten);
    QCOMPARE(resolve("linspace:3", *ten), fromDiffusers({0, 4, 9}));
    QCOMPARE(resolve("trailing:4", *ten), fromDiffusers({9, 7, 4, 1}));
    auto thousand = schedule::linearSchedule(1000);
    DS_VERIFY_OK(thousand);
    const std::vector<int> n = resolve("linspace:25", *thousand);
    QCOMPARE(n.size(), size_t{25});
    QCOMPARE(n[4], 166 + 1);
    QCOMPARE(n[12], 500 + 1);
    QCOMPARE(n[20], 832 + 1);
    QCOMPARE(n[1], 42 + 1);  // 41.625
    // trailing:76 on N = 250: N − 57·N/K = 62.5 exactly, but diffusers' NumPy arange computes
    // 250 + 57·δ = 62.50000000000001 (δ = (250 − 250/76) − 250), which rounds to 63: t = 62 and
    // n = 63, as diffusers has it (exact rounding would give n = 62); 250 − 58·250/76 = 59.21… → 59.
    auto n250 = schedule::cosineSchedule(250);
    DS_VERIFY_OK(n250);
    const std::vector<int> trailing = resolve("trailing:76", *n250);
    QCOMPARE(trailing.size(), size_t{76});
    QCOMPARE(trailing[76 - 1 - 57], 63);
    QCOMPARE(trailing[76 - 1 - 58], 59);
    // N = 1000, K = 61: arange yields 62 values (the last ≈ 0); the first 61 are kept.
    auto n1000 = schedule::linearSchedule(1000);
    DS_VERIFY_OK(n1000);
    const std::vector<int> t61 = resolve("trailing:61", *n1000);
    QCOMPARE(t61.size(), size_t{61});
    QCOMPARE(t61.back(), 1000);
    QCOMPARE(t61.front(), 16);  // round(1000 − 60·1000/61) = round(16.39…) = 16 = t + 1
}

void tst_GaussianSpacing::logSnrAndKarrasAgainstBruteForce_data() {
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<int>("numSteps");
    QTest::addColumn<int>("k");
    QTest::addColumn<double>("rho");
    QTest::newRow("linear-50-8") << "linear" << 50 << 8 << 7.0;
    QTest::newRow("cosine-60-10") << "cosine" << 60 << 10 << 7.0;
    QTest::newRow("cosine-60-45") << "cosine" << 60 << 45 << 3.0;  // the passes move some
    QTest::newRow("linear-1000-10") << "linear" << 1000 << 10 << 7.0;
    QTest::newRow("scaled-linear-200-30") << "scaled-linear" << 200 << 30 << 1.0;
}

void tst_GaussianSpacing::logSnrAndKarrasAgainstBruteForce() {
    QFETCH(QString, schedule);
    QFETCH(int, numSteps);
    QFETCH(int, k);
    QFETCH(double, rho);
    auto sched = schedule::gaussianScheduleFromSpec(schedule.toStdString(), numSteps);
    DS_VERIFY_OK(sched);
    const std::string kText = std::to_string(k);
    QCOMPARE(resolve("logsnr:" + kText, *sched), bruteForceLogSnr(*sched, k));
    const std::string karras = rho == 7.0 ? "karras:" + kText
                                          : "karras:" + kText + ",rho=" + std::to_string(rho);
    QCOMPARE(resolve(karras, *sched), bruteForceKarras(*sched, k, rho));
    // Both spacings reach both ends: λ_1 and σ_1, λ_N and σ_N are targets.
    QCOMPARE(resolve("logsnr:" + kText, *sched).front(), 1);
    QCOMPARE(resolve("logsnr:" + kText, *sched).back(), numSteps);
}

// K = N leaves no choice: 1..N. K close to N: the passes make the picks distinct.
void tst_GaussianSpacing::distinctPassesFillEveryTimestep() {
    auto sched = schedule::cosineSchedule(20);
    DS_VERIFY_OK(sched);
    std::vector<int> all(20);
    for (int n = 1; n <= 20; ++n) all[n - 1] = n;
    QCOMPARE(resolve("logsnr:20", *sched), all);
    QCOMPARE(resolve("karras:20", *sched), all);
    QCOMPARE(resolve("karras:20,rho=0.5", *sched), all);
    auto moved = gaussian::resolveTrajectory("karras:18", *sched, nullptr);
    DS_VERIFY_OK(moved);
    QCOMPARE(moved->timesteps, bruteForceKarras(*sched, 18, 7.0));
    QVERIFY2(moved->note.find("moved") != std::string::npos, moved->note.c_str());
    // The passes alone, by hand: {3, 3, 3, 9, 9} in 1..9 → {3, 4, 5, 8, 9}.
    std::vector<int> picks{9, 3, 3, 9, 3};
    QCOMPARE(gaussian::makeDistinct(picks, 9), 3);  // the second and third 3, the first 9
    QCOMPARE(picks, (std::vector<int>{3, 4, 5, 8, 9}));
    // A huge ρ squeezes every target to σ = 1; the passes still give K distinct steps.
    auto huge = gaussian::resolveTrajectory("karras:10,rho=1e300", *sched, nullptr);
    DS_VERIFY_OK(huge);
    QCOMPARE(huge->timesteps.size(), size_t{10});
}

void tst_GaussianSpacing::errorsNameFieldAndValue_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::newRow("K<2") << "logsnr:1" << "K" << "1";
    QTest::newRow("K<1") << "linspace:0" << "K" << "0";
    QTest::newRow("K>N") << "trailing:1001" << "K" << "1001";
    QTest::newRow("K huge") << "logsnr:99999999999" << "K" << "99999999999";
    QTest::newRow("K overflow") << "karras:99999999999999999999999" << "trajectory"
                                << "karras:99999999999999999999999";
    QTest::newRow("K text") << "leading:ten" << "trajectory" << "leading:ten";
    QTest::newRow("offset too big") << "leading:10,offset=100" << "offset" << "100";
    QTest::newRow("offset negative") << "leading:10,offset=-1" << "offset" << "-1";
    QTest::newRow("offset text") << "leading:10,offset=x" << "offset" << "x";
    QTest::newRow("rho zero") << "karras:10,rho=0" << "rho" << "0";
    QTest::newRow("rho negative") << "karras:10,rho=-2" << "rho" << "-2";
    QTest::newRow("rho nan") << "karras:10,rho=nan" << "rho" << "nan";
    QTest::newRow("rho inf") << "karras:10,rho=inf" << "rho" << "inf";
    QTest::newRow("unknown option") << "logsnr:10,foo=3" << "trajectory" << "foo=3";
    QTest::newRow("option of another") << "trailing:10,rho=7" << "trajectory" << "rho=7";
    QTest::newRow("twice") << "karras:10,rho=7,rho=5" << "trajectory" << "rho=5";
    QTest::newRow("list from 2") << "list:2,50,1000" << "trajectory" << "2";
}

void tst_GaussianSpacing::errorsNameFieldAndValue() {
    QFETCH(QString, spec);
    QFETCH(QString, field);
    QFETCH(QString, value);
    auto sched = schedule::linearSchedule(1000);
    DS_VERIFY_OK(sched);
    auto resolved = gaussian::resolveTrajectory(spec.toStdString(), *sched, nullptr);
    QVERIFY(!resolved.ok());
    const std::string line = resolved.error().toString();
    QCOMPARE(QString::fromStdString(resolved.error().field), field);
    QVERIFY2(line.find(field.toStdString() + " = " + value.toStdString()) != std::string::npos,
             line.c_str());
    QVERIFY(line.find('\n') == std::string::npos);
}

void tst_GaussianSpacing::endsNote() {
    QCOMPARE(gaussian::trajectoryEndsNote({1, 500, 1000}, 1000), std::string());
    const std::string early = gaussian::trajectoryEndsNote({1, 500, 900}, 1000);
    QVERIFY2(early.find("n = 900 < N") != std::string::npos, early.c_str());
    const std::string late = gaussian::trajectoryEndsNote({100, 500, 1000}, 1000);
    QVERIFY2(late.find("n = 100 > 1") != std::string::npos, late.c_str());
}

// The variances of a trajectory without 1 (trailing) or N (leading): pairs in sampling order,
// each inside its bounds; the old start-at-1 check is gone, the others stay.
void tst_GaussianSpacing::variancesWithoutOneOrN() {
    auto sched = schedule::linearSchedule(1000);
    DS_VERIFY_OK(sched);
    auto oracle = model::IsotropicGaussianOracle::create(Vector::Constant(2, 0.1), 0.3);
    DS_VERIFY_OK(oracle);
    const std::vector<double> gamma = exactGamma(*sched, **oracle);
    for (const char* spec : {"trailing:10", "leading:10,offset=5"}) {
        const std::vector<int> taus = resolve(spec, *sched);
        auto pairs = gaussian::trajectoryVariances(*sched, gamma, taus);
        DS_VERIFY_OK(pairs);
        QCOMPARE(pairs->size(), taus.size() - 1);
        QCOMPARE(pairs->front().t, taus.back());
        QCOMPARE(pairs->back().s, taus.front());
        for (const auto& p : *pairs) {
            QVERIFY(p.sigma2 >= p.lower && p.sigma2 <= p.upper * (1 + 1e-12));
        }
    }
    QVERIFY(gaussian::validateGaussianTrajectory({100, 1000}, 1000).ok());
    QVERIFY(!gaussian::validateGaussianTrajectory({0, 1000}, 1000).ok());
    QVERIFY(!gaussian::validateGaussianTrajectory({5, 5, 1000}, 1000).ok());
    QVERIFY(!gaussian::validateGaussianTrajectory({5, 1001}, 1000).ok());
    QVERIFY(gaussian::validateGaussianTrajectory({5}, 1000).ok());  // one timestep: diffusers' K = 1
    QVERIFY(!gaussian::validateGaussianTrajectory({1001}, 1000).ok());
    QVERIFY(!gaussian::validateGaussianTrajectory({}, 1000).ok());
}

// Data that sit on one grid point g (N(g, (1e−5)²), which snaps to g): the prior term is
// ½·d·(β̄_T − log β̄_T − 1 + ᾱ_T g²) at T = τ_K, and x̂_0 = g up to ~1e−8, so the decoder term is
// −d·log erf(h/(σ√2)) with h the half bin and σ² = β̃_{1|2} (τ_1 = 1) or β̃_{τ_1|τ_2} (τ_1 > 1).
void tst_GaussianSpacing::nllPriorAndDecoderByHand() {
    auto sched = schedule::linearSchedule(1000);
    DS_VERIFY_OK(sched);
    const int d = 2;
    const double g = -1.0 + 160.0 * (2.0 / 255.0);
    auto oracle = model::IsotropicGaussianOracle::create(Vector::Constant(d, g), 1e-5);
    DS_VERIFY_OK(oracle);
    const double h = 1.0 / 255.0;
    struct Case {
        std::vector<int> taus;
        int decoderS;
        int decoderT;
    };
    const std::vector<Case> cases = {
        {resolve("trailing:10", *sched), 100, 200},      // starts at 100
        {resolve("leading:10", *sched), 1, 2},           // ends at 901
        {resolve("leading:10,offset=3", *sched), 4, 104},  // neither
        {{1, 500, 1000}, 1, 2},                          // τ_1 = 1: the full chain's β̃_{1|2}
    };
    for (const Case& c : cases) {
        gaussian::NllParams params{.variance = gaussian::ReverseVariance::Small,
                                   .numSamples = 20,
                                   .seed = 3};
        auto nll = gaussian::negativeElbo(**oracle, **oracle, *sched, {}, c.taus, params);
        DS_VERIFY_OK(nll);
        const int top = c.taus.back();
        QCOMPARE(nll->prior.t, top);
        const double betaBar = 1.0 - sched->alphaBar(top);
        const double prior =
            0.5 * d * (betaBar - std::log(betaBar) - 1.0 + sched->alphaBar(top) * g * g);
        DS_COMPARE_REL(nll->prior.nats, prior, 1e-12);
        QCOMPARE(nll->decoder.t, c.taus.front());
        const double sigma2 = betaTilde(*sched, c.decoderS, c.decoderT);
        DS_COMPARE_REL(gaussian::decoderVariance(*sched, c.taus), sigma2, 1e-12);
        const double decoder = -d * std::log(std::erf(h / std::sqrt(2.0 * sigma2)));
        DS_COMPARE_REL(nll->decoder.nats, decoder, 1e-6);
        QCOMPARE(nll->pairs.size(), c.taus.size() - 1);
        QCOMPARE(nll->pairs.back().s, c.taus.front());
    }
}

// The sweep shares decoders between trajectories with the same τ_1 only when their decoder
// variances agree: two trajectories from 100 with different τ_2 must not share one.
void tst_GaussianSpacing::nllSweepEqualsSingleCallsOnSpacings() {
    auto sched = schedule::linearSchedule(300);
    DS_VERIFY_OK(sched);
    auto oracle = model::IsotropicGaussianOracle::create(Vector::Constant(2, 0.2), 0.3);
    DS_VERIFY_OK(oracle);
    const std::vector<std::vector<int>> trajectories = {
        {100, 200, 300}, {100, 150, 300}, {1, 100, 250}, resolve("trailing:6", *sched)};
    gaussian::NllParams params{.numSamples = 40, .seed = 2, .batchSize = 16};
    auto sweep = gaussian::negativeElboSweep(**oracle, **oracle, *sched, {}, trajectories,
                                             {gaussian::ReverseVariance::Small}, params);
    DS_VERIFY_OK(sweep);
    params.variance = gaussian::ReverseVariance::Small;
    for (size_t k = 0; k < trajectories.size(); ++k) {
        auto single =
            gaussian::negativeElbo(**oracle, **oracle, *sched, {}, trajectories[k], params);
        DS_VERIFY_OK(single);
        QCOMPARE((*sweep)[k][0].decoder.nats, single->decoder.nats);
        QCOMPARE((*sweep)[k][0].perPoint, single->perPoint);
    }
    QVERIFY((*sweep)[0][0].decoder.nats != (*sweep)[1][0].decoder.nats);
}

// Samplers start from x_{τ_K} ~ N(0, I) and end with x̂_0 from x_{τ_1}: on trailing (from N)
// the samples follow the data; on leading (from 901) they run and stay finite.
void tst_GaussianSpacing::samplersWithoutOneOrN() {
    auto sched = schedule::linearSchedule(1000);
    DS_VERIFY_OK(sched);
    auto oracle = model::IsotropicGaussianOracle::create(Vector::Constant(2, 0.2), 0.1);
    DS_VERIFY_OK(oracle);
    const std::vector<double> gamma = exactGamma(*sched, **oracle);
    for (const char* spec : {"trailing:20", "leading:20", "logsnr:20", "karras:20"}) {
        const std::vector<int> taus = resolve(spec, *sched);
        for (auto kind : {gaussian::SamplerKind::Ddim, gaussian::SamplerKind::AnalyticDdpm}) {
            gaussian::SamplerParams params{
                .kind = kind, .count = 2000, .seed = 4, .recordFrames = true};
            auto result = gaussian::sampleReverse(**oracle, *sched, gamma, taus, params);
            DS_VERIFY_OK(result);
            QCOMPARE(result->frameSteps.front(), taus.back());
            QCOMPARE(result->frameSteps[result->frameSteps.size() - 2], taus.front());
            QCOMPARE(result->frameSteps.back(), 0);
            QCOMPARE(result->sigma2.size(), taus.size() - 1);
            if (taus.back() == 1000) {
                DS_COMPARE_ABS(result->samples.mean(), 0.2, 0.02);
            }
        }
    }
}

// The Align Your Steps lists (Sabour et al. 2024), as published, at K = 10: n = t + 1 on any
// schedule with N = 1000. Other K: an independent computation of the AYS how-to's
// loglinear_interp — np.interp of log σ over xs = linspace(0, 1, 11) (the list's timesteps and
// t = 0, σ_n = √(β̄_n/ᾱ_n)) at linspace(0, 1, K + 1), the last dropped — each target mapped by
// brute force to the n of nearest log σ (ties: smaller n), then the spacings' two passes (up:
// n_i ≥ n_{i−1} + 1; down from n_K ≤ N: n_i ≤ n_{i+1} − 1).
// class=: the set_timesteps arithmetic of diffusers' classes, written out here by hand for
// N = 1000, K = 7 (tests/python/test_diffusers_set_timesteps.py runs every case against a
// restatement of the classes' code). DPMSolverMultistep and UniPC: linspace(0, 999, 8) rounded,
// t = 0 dropped; leading ⌊1000/8⌋ = 125: 125, …, 875 plus the offset. Euler: DDIM's whole
// timesteps, its own fractional t = 166.5, 499.5, 832.5 in float32.
void tst_GaussianSpacing::diffusersClassArithmetic() {
    auto sched = schedule::linearSchedule(1000);
    DS_VERIFY_OK(sched);
    const auto t = [&](const std::string& spec) {
        std::vector<int> out;
        for (int n : resolve(spec, *sched)) out.insert(out.begin(), n - 1);
        return out;
    };
    QCOMPARE(t("linspace:7"), (std::vector<int>{999, 832, 666, 500, 333, 166, 0}));
    QCOMPARE(t("linspace:7,class=DDPMScheduler"), t("linspace:7"));
    QCOMPARE(t("linspace:7,class=DPMSolverMultistepScheduler"),
             (std::vector<int>{999, 856, 714, 571, 428, 285, 143}));
    QCOMPARE(t("linspace:7,class=UniPCMultistepScheduler"),
             (std::vector<int>{999, 856, 714, 571, 428, 285, 143}));
    QCOMPARE(t("leading:7,offset=1,class=UniPCMultistepScheduler"),
             (std::vector<int>{876, 751, 626, 501, 376, 251, 126}));
    QCOMPARE(t("leading:7,class=DPMSolverMultistepScheduler,offset=1"),
             t("leading:7,offset=1,class=UniPCMultistepScheduler"));
    QCOMPARE(t("trailing:7,class=DPMSolverMultistepScheduler"), t("trailing:7"));
    QCOMPARE(t("linspace:7,class=EulerDiscreteScheduler"), t("linspace:7"));
    auto euler = gaussian::parseSpacing("linspace", "7,class=EulerDiscreteScheduler", 1000);
    DS_VERIFY_OK(euler);
    QCOMPARE(gaussian::eulerTimesteps(*euler, 1000),
             (std::vector<double>{999.0, 832.5, 666.0, 499.5, 333.0, 166.5, 0.0}));
    auto ddim = gaussian::parseSpacing("linspace", "7", 1000);
    DS_VERIFY_OK(ddim);
    QVERIFY(gaussian::eulerTimesteps(*ddim, 1000).empty());
    // The project's spec round trip keeps the class, and a project file stores it.
    core::project::GaussianParams params;
    DS_VERIFY_OK(params.setTrajectorySpec("leading:7,offset=1,class=UniPCMultistepScheduler"));
    QCOMPARE(params.diffusersClass, std::string("UniPCMultistepScheduler"));
    QCOMPARE(params.trajectorySpec(), std::string("leading:7,offset=1,class=UniPCMultistepScheduler"));
    auto reread = core::project::GaussianParams::fromJson(params.toJson());
    DS_VERIFY_OK(reread);
    QCOMPARE(reread->trajectorySpec(), params.trajectorySpec());
    DS_VERIFY_OK(params.setTrajectorySpec("linspace:7"));
    QCOMPARE(params.diffusersClass, std::string());
    QVERIFY(!params.toJson().contains("diffusersClass"));
}

void tst_GaussianSpacing::diffusersClassOptionRefusals() {
    auto unknown = gaussian::parseSpacing("linspace", "7,class=HeunDiscreteScheduler", 1000);
    QVERIFY(!unknown);
    QCOMPARE(unknown.error().field, std::string("class"));
    QCOMPARE(unknown.error().value, std::string("HeunDiscreteScheduler"));
    auto twice = gaussian::parseSpacing("linspace", "7,class=DDIMScheduler,class=DDIMScheduler", 1000);
    QVERIFY(!twice);
    QCOMPARE(twice.error().field, std::string("trajectory"));
    QCOMPARE(twice.error().value, std::string("class=DDIMScheduler"));
    auto karras = gaussian::parseSpacing("karras", "7,class=DDIMScheduler", 1000);
    QVERIFY(!karras);
    QCOMPARE(karras.error().value, std::string("class=DDIMScheduler"));
    // leading with the dropped point: 7·⌊1000/8⌋ + O ≤ 999 allows O ≤ 124 (DDIM: 6·142 + O, 147).
    QVERIFY(gaussian::parseSpacing("leading", "7,offset=124,class=DPMSolverMultistepScheduler", 1000));
    auto far = gaussian::parseSpacing("leading", "7,offset=125,class=DPMSolverMultistepScheduler", 1000);
    QVERIFY(!far);
    QCOMPARE(far.error().field, std::string("offset"));
    QCOMPARE(far.error().value, std::string("125"));
    QVERIFY(gaussian::parseSpacing("leading", "7,offset=147", 1000));
    core::project::GaussianParams params;
    params.trajectory = core::project::GaussianTrajectory::Linspace;
    params.diffusersClass = "LMSDiscreteScheduler";
    auto invalid = params.validate();
    QVERIFY(!invalid);
    QCOMPARE(invalid.error().field, std::string("diffusersClass"));
    QCOMPARE(invalid.error().value, std::string("LMSDiscreteScheduler"));
}

void tst_GaussianSpacing::alignYourSteps_data() {
    QTest::addColumn<QString>("list");
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<int>("k");
    for (const char* list : {"sd15", "sdxl"}) {
        for (const char* sched : {"scaled-linear", "linear", "cosine"}) {
            for (int k : {10, 4, 7, 20, 50}) {
                QTest::addRow("%s %s K=%d", list, sched, k) << list << sched << k;
            }
        }
    }
}

void tst_GaussianSpacing::alignYourSteps() {
    QFETCH(QString, list);
    QFETCH(QString, schedule);
    QFETCH(int, k);
    auto sched = schedule::gaussianScheduleFromSpec(schedule.toStdString(), 1000);
    DS_VERIFY_OK(sched);
    const std::string spec = "ays:" + list.toStdString() + (k == 10 ? "" : ":" + std::to_string(k));
    const std::vector<int> n = resolve(spec, *sched);
    const std::vector<int> published = list == "sd15"
        ? std::vector<int>{999, 850, 736, 645, 545, 455, 343, 233, 124, 24}
        : std::vector<int>{999, 845, 730, 587, 443, 310, 193, 116, 53, 13};
    std::vector<int> expected;
    if (k == 10) {
        for (auto it = published.rbegin(); it != published.rend(); ++it) expected.push_back(*it + 1);
    } else {
        std::vector<double> logSigma(1001);
        for (int m = 1; m <= 1000; ++m) {
            logSigma[m] = 0.5 * std::log((1.0 - sched->alphaBar(m)) / sched->alphaBar(m));
        }
        // ys: log σ in increasing order (t = 0, then the list reversed).
        std::vector<double> xs(11);
        std::vector<double> ys(11);
        for (int j = 0; j < 11; ++j) {
            xs[j] = j / 10.0;
            ys[j] = logSigma[j == 0 ? 1 : published[10 - j] + 1];
        }
        for (int i = 1; i <= k; ++i) {  // x = 0 (σ_min) is the point dropped
            const double x = static_cast<double>(i) / k;
            int j = 0;
            while (j < 9 && x > xs[j + 1]) ++j;
            const double y = ys[j] + (ys[j + 1] - ys[j]) * (x - xs[j]) / (xs[j + 1] - xs[j]);
            int best = 1;
            for (int m = 2; m <= 1000; ++m) {
                if (std::abs(logSigma[m] - y) < std::abs(logSigma[best] - y)) best = m;
            }
            expected.push_back(best);
        }
        std::sort(expected.begin(), expected.end());
        for (int i = 1; i < k; ++i) expected[i] = std::max(expected[i], expected[i - 1] + 1);
        expected[k - 1] = std::min(expected[k - 1], 1000);
        for (int i = k - 2; i >= 0; --i) expected[i] = std::min(expected[i], expected[i + 1] - 1);
    }
    QCOMPARE(n, expected);
    // The project's spec round trip.
    core::project::GaussianParams params;
    DS_VERIFY_OK(params.setTrajectorySpec(spec));
    QCOMPARE(params.pathSteps, k);
    QCOMPARE(params.trajectorySpec(), spec);
    DS_VERIFY_OK(params.validate());
}

// The how-to's own lists on Stable Diffusion's schedule (scaled-linear, N = 1000), computed once
// with NumPy as the how-to does: sigmas = loglinear_interp(levels, K + 1)[:-1], the levels being
// the schedule's σ at the list's timesteps and at t = 0, each σ then mapped to the t of nearest
// log σ (np.argmin). Written as diffusers' t, descending.
void tst_GaussianSpacing::alignYourStepsHowToLists_data() {
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QList<int>>("t");
    QTest::newRow("sd15:5") << "ays:sd15:5" << QList<int>{999, 736, 545, 343, 124};
    QTest::newRow("sd15:20") << "ays:sd15:20"
        << QList<int>{999, 928, 850, 795, 736, 692, 645, 596, 545, 500,
                      455, 399, 343, 286, 233, 173, 124, 58, 24, 4};
    QTest::newRow("sd15:30") << "ays:sd15:30"
        << QList<int>{999, 953, 903, 850, 814, 776, 736, 707, 676, 645, 613, 579, 545, 515, 485,
                      455, 417, 380, 343, 305, 268, 233, 192, 156, 124, 76, 44, 24, 8, 2};
    QTest::newRow("sdxl:5") << "ays:sdxl:5" << QList<int>{999, 730, 443, 193, 53};
    QTest::newRow("sdxl:20") << "ays:sdxl:20"
        << QList<int>{999, 926, 845, 790, 730, 661, 587, 516, 443, 376,
                      310, 248, 193, 151, 116, 80, 53, 27, 13, 3};
    QTest::newRow("sdxl:30") << "ays:sdxl:30"
        << QList<int>{999, 951, 900, 845, 809, 770, 730, 685, 637, 587, 540, 492, 443, 398, 354,
                      310, 268, 229, 193, 165, 139, 116, 91, 70, 53, 34, 21, 13, 5, 1};
}

void tst_GaussianSpacing::alignYourStepsHowToLists() {
    QFETCH(QString, spec);
    QFETCH(QList<int>, t);
    auto sched = schedule::gaussianScheduleFromSpec("scaled-linear", 1000);
    DS_VERIFY_OK(sched);
    const std::vector<int> n = resolve(spec.toStdString(), *sched);
    std::vector<int> expected;
    for (auto it = t.rbegin(); it != t.rend(); ++it) expected.push_back(*it + 1);
    QCOMPARE(n, expected);
}

void tst_GaussianSpacing::alignYourStepsRefusals() {
    auto short500 = schedule::linearSchedule(500);
    DS_VERIFY_OK(short500);
    auto r = gaussian::resolveTrajectory("ays:sd15", *short500, nullptr);
    QVERIFY(!r);
    QCOMPARE(r.error().field, std::string("N"));
    auto zero = schedule::gaussianScheduleFromSpec("linear,zero-snr", 1000);
    DS_VERIFY_OK(zero);
    QVERIFY(gaussian::resolveTrajectory("ays:sd15", *zero, nullptr));  // the list itself
    auto z = gaussian::resolveTrajectory("ays:sd15:20", *zero, nullptr);
    QVERIFY(!z);
    QCOMPARE(z.error().value, std::string("ays:sd15:20"));
    auto one = gaussian::resolveTrajectory("ays:sdxl:1", *short500, nullptr);
    QVERIFY(!one);
    QCOMPARE(one.error().field, std::string("K"));
    auto other = gaussian::resolveTrajectory("ays:sd3", *short500, nullptr);
    QVERIFY(!other);
    // The lab's families take the AYS lists at every K of its sweep.
    core::project::LabSettings lab;
    core::project::LabConfig config;
    config.trajectory = "ays:sdxl";
    lab.configs.push_back(config);
    DS_VERIFY_OK(lab.validate(1000));
    QCOMPARE(config.trajectorySpec(25), std::string("ays:sdxl:25"));
    lab.configs.back().trajectory = "ays:sdxl,rho=2";
    QVERIFY(!lab.validate(1000));
}

QTEST_GUILESS_MAIN(tst_GaussianSpacing)
#include "tst_gaussian_spacing.moc"
