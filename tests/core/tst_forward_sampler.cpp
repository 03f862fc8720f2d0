// SPDX-License-Identifier: MIT
// core::gaussian::sampleForward: each frame follows q(x_n|x_0) = N(√ᾱ_n x_0, β̄_n I)
// (docs/gaussian.md#forward-process), the result does not depend on the thread count, and a cancel
// returns Cancelled.
#include <QTest>

#include <cmath>

#include "core/gaussian/forward_sampler.h"
#include "core/model/gaussian_oracles.h"
#include "core/schedule/gaussian_schedule.h"
#include "tests/support/test_support.h"

using namespace core;

class tst_ForwardSampler : public QObject {
    Q_OBJECT

private slots:
    void framesFollowTheMarginal_data();
    void framesFollowTheMarginal();
    void sameForOneAndTwoThreads();
    void cancelReturnsCancelled();
    void refusesBadInput();
};

void tst_ForwardSampler::framesFollowTheMarginal_data() {
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("s");
    QTest::newRow("centred") << 0.0 << 0.5;
    QTest::newRow("shifted") << 0.7 << 0.2;
}

void tst_ForwardSampler::framesFollowTheMarginal() {
    QFETCH(double, mean);
    QFETCH(double, s);
    auto sched = schedule::linearSchedule(1000);
    DS_VERIFY_OK(sched);
    auto oracle = model::IsotropicGaussianOracle::create(Vector::Constant(2, mean), s);
    DS_VERIFY_OK(oracle);
    const std::vector<int> trajectory{1, 10, 100, 300, 600, 1000};
    auto result = gaussian::sampleForward(**oracle, *sched, trajectory, {.count = 20000, .seed = 3});
    DS_VERIFY_OK(result);
    QCOMPARE(result->frameSteps, (std::vector<int>{0, 1, 10, 100, 300, 600, 1000}));
    for (size_t f = 0; f < result->frames.size(); ++f) {
        const int n = result->frameSteps[f];
        const Matrix& x = result->frames[f];
        // B.7: q_n = N(√ᾱ_n μ, (ᾱ_n s² + β̄_n) I); 40000 independent values, 5 standard errors.
        const double expectedMean = std::sqrt(sched->alphaBar(n)) * mean;
        const double v = sched->alphaBar(n) * s * s + sched->betaBar(n);
        const double m = static_cast<double>(x.size());
        const double sampleMean = x.mean();
        const double variance = (x.array() - sampleMean).square().sum() / (m - 1.0);
        DS_COMPARE_ABS(sampleMean, expectedMean, 5.0 * std::sqrt(v / m));
        DS_COMPARE_ABS(variance / v, 1.0, 5.0 * std::sqrt(2.0 / (m - 1.0)));
    }
}

void tst_ForwardSampler::sameForOneAndTwoThreads() {
    auto sched = schedule::cosineSchedule(200);
    DS_VERIFY_OK(sched);
    auto oracle = model::IsotropicGaussianOracle::create(Vector::Zero(3), 1.0);
    DS_VERIFY_OK(oracle);
    const std::vector<int> trajectory{1, 50, 200};
    auto one = gaussian::sampleForward(**oracle, *sched, trajectory,
                                       {.count = 1000, .seed = 5, .parallel = {.numThreads = 1}});
    auto two = gaussian::sampleForward(**oracle, *sched, trajectory,
                                       {.count = 1000, .seed = 5, .parallel = {.numThreads = 2}});
    DS_VERIFY_OK(one);
    DS_VERIFY_OK(two);
    QVERIFY(one->frames == two->frames);
    // A prefix of the particles does not depend on how many are drawn.
    auto fewer = gaussian::sampleForward(**oracle, *sched, trajectory, {.count = 10, .seed = 5});
    DS_VERIFY_OK(fewer);
    QVERIFY(fewer->frames.back() == one->frames.back().leftCols(10));
}

void tst_ForwardSampler::cancelReturnsCancelled() {
    auto sched = schedule::linearSchedule(100);
    DS_VERIFY_OK(sched);
    auto oracle = model::IsotropicGaussianOracle::create(Vector::Zero(2), 1.0);
    DS_VERIFY_OK(oracle);
    Progress progress;
    progress.cancel();
    auto result = gaussian::sampleForward(**oracle, *sched, {1, 100}, {.count = 5000}, &progress);
    QVERIFY(!result.ok());
    QVERIFY(result.error().code == ErrorCode::Cancelled);
}

void tst_ForwardSampler::refusesBadInput() {
    auto sched = schedule::linearSchedule(100);
    DS_VERIFY_OK(sched);
    auto oracle = model::IsotropicGaussianOracle::create(Vector::Zero(2), 1.0);
    DS_VERIFY_OK(oracle);
    QVERIFY(!gaussian::sampleForward(**oracle, *sched, {1, 100}, {.count = 0}).ok());
    QVERIFY(!gaussian::sampleForward(**oracle, *sched, {2, 100}, {}).ok());   // τ_1 ≠ 1
    QVERIFY(!gaussian::sampleForward(**oracle, *sched, {1, 101}, {}).ok());   // beyond N
}

QTEST_GUILESS_MAIN(tst_ForwardSampler)
#include "tst_forward_sampler.moc"
