// SPDX-License-Identifier: MIT
// Tests of ui/jobs: results arrive on the GUI thread, cancel returns promptly, newest wins.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "ui/jobs/job_runner.h"

class tst_JobRunner : public QObject {
    Q_OBJECT

private slots:
    void appliesResultOnGuiThread();
    void cancelStopsALongJob();
    void stopKeepsTheResultSoFar();
    void newestRequestWins();
    void exceptionBecomesFailure();
    void heavyJobsNeverOverlap();
    void cancelWhileWaitingNeverRuns();
    void lightJobsDoNotWait();
    void cancelAbandonsALightJobAtOnce();
};

// A job that works in 1 ms slices for up to `slices`, honouring the Progress token.
static ui::jobs::JobRunner::Work slowJob(int slices, int* target, int value) {
    return [=](core::Progress& progress) -> std::function<void()> {
        progress.setTotal(slices);
        for (int i = 0; i < slices; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            if (!progress.advance()) {
                return {};
            }
        }
        return [=] { *target = value; };
    };
}

void tst_JobRunner::appliesResultOnGuiThread() {
    ui::jobs::JobRunner runner;
    QSignalSpy finished(&runner, &ui::jobs::JobRunner::finished);
    Qt::HANDLE guiThread = QThread::currentThreadId();
    Qt::HANDLE applyThread = nullptr;
    runner.start("quick", [&](core::Progress&) -> std::function<void()> {
        return [&] { applyThread = QThread::currentThreadId(); };
    });
    QVERIFY(finished.wait(5000));
    QCOMPARE(applyThread, guiThread);
}

void tst_JobRunner::cancelStopsALongJob() {
    ui::jobs::JobRunner runner;
    QSignalSpy cancelled(&runner, &ui::jobs::JobRunner::cancelled);
    int target = 0;
    runner.start("long", slowJob(100000, &target, 1));  // 100 s if never cancelled
    QTest::qWait(100);
    const auto before = std::chrono::steady_clock::now();
    runner.cancel();
    QVERIFY(cancelled.wait(5000));
    const auto waited = std::chrono::steady_clock::now() - before;
    QVERIFY2(waited < std::chrono::seconds(3), "the job did not stop after the cancel");
    QCOMPARE(target, 0);
    QVERIFY(!runner.isRunning());
}

// Stop ends a job as cancel does, through its token, but what it returns is applied: a trainer
// stopped early saves the weights it has. A stopped job that returns nothing is cancelled.
void tst_JobRunner::stopKeepsTheResultSoFar() {
    ui::jobs::JobRunner runner;
    QSignalSpy finished(&runner, &ui::jobs::JobRunner::finished);
    QSignalSpy cancelled(&runner, &ui::jobs::JobRunner::cancelled);
    std::atomic<int> slicesDone{0};
    int kept = -1;
    runner.start("train", [&](core::Progress& progress) -> std::function<void()> {
        progress.setTotal(100000);  // 100 s unless stopped
        int i = 0;
        while (i < 100000 && progress.advance()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            slicesDone = ++i;
        }
        return [&kept, i] { kept = i; };
    });
    QTRY_VERIFY_WITH_TIMEOUT(slicesDone.load() > 20, 5000);
    const auto before = std::chrono::steady_clock::now();
    runner.stop();
    QVERIFY(finished.wait(5000));
    QVERIFY2(std::chrono::steady_clock::now() - before < std::chrono::seconds(3),
             "the job did not stop");
    QCOMPARE(cancelled.count(), 0);
    QVERIFY2(kept > 20 && kept < 100000, qPrintable(QString::number(kept)));
    QVERIFY(!runner.isRunning());
    // Returning nothing when stopped is a cancel; the next job runs as usual.
    int target = 0;
    runner.start("nothing", slowJob(100000, &target, 1));
    QTest::qWait(50);
    runner.stop();
    QVERIFY(cancelled.wait(5000));
    QCOMPARE(target, 0);
    runner.start("after", slowJob(5, &target, 2));
    QVERIFY(finished.wait(5000));
    QCOMPARE(target, 2);
}

void tst_JobRunner::newestRequestWins() {
    ui::jobs::JobRunner runner;
    QSignalSpy finished(&runner, &ui::jobs::JobRunner::finished);
    int target = 0;
    runner.start("first", slowJob(100000, &target, 1));
    runner.start("second", slowJob(200, &target, 2));
    runner.start("third", slowJob(5, &target, 3));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    QCOMPARE(finished.at(0).at(0).toString(), QString("third"));
    QCOMPARE(target, 3);
}

void tst_JobRunner::exceptionBecomesFailure() {
    ui::jobs::JobRunner runner;
    QSignalSpy failed(&runner, &ui::jobs::JobRunner::failed);
    runner.start("throws", [](core::Progress&) -> std::function<void()> {
        throw std::runtime_error("broken input");
    });
    QVERIFY(failed.wait(5000));
    QCOMPARE(failed.at(0).at(1).toString(), QString("broken input"));
}

namespace {

// Counts the bodies running at once and the most seen.
struct Overlap {
    std::atomic<int> running{0};
    std::atomic<int> most{0};
    std::atomic<int> ran{0};
    // A body that holds its place for `ms` milliseconds (in 1 ms slices, honouring cancel).
    ui::jobs::JobRunner::Work job(int ms) {
        return [this, ms](core::Progress& progress) -> std::function<void()> {
            const int now = ++running;
            int seen = most.load();
            while (now > seen && !most.compare_exchange_weak(seen, now)) {
            }
            ++ran;
            progress.setTotal(ms);
            bool cancelled = false;
            for (int i = 0; i < ms && !cancelled; ++i) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
                cancelled = !progress.advance();
            }
            --running;
            return cancelled ? std::function<void()>() : [] {};
        };
    }
};

}  // namespace

void tst_JobRunner::heavyJobsNeverOverlap() {
    // Two runners (as two explorers): each runs one job at a time by itself, and the gate
    // makes their heavy jobs take turns.
    ui::jobs::JobRunner a;
    ui::jobs::JobRunner b;
    QSignalSpy finishedA(&a, &ui::jobs::JobRunner::finished);
    QSignalSpy finishedB(&b, &ui::jobs::JobRunner::finished);
    Overlap overlap;
    for (int round = 0; round < 4; ++round) {
        a.start("a", overlap.job(30));
        b.start("b", overlap.job(30));
        a.waitForFinished();
        b.waitForFinished();
    }
    QCOMPARE(finishedA.count(), 4);
    QCOMPARE(finishedB.count(), 4);
    QCOMPARE(overlap.ran.load(), 8);
    QCOMPARE(overlap.most.load(), 1);
}

void tst_JobRunner::cancelWhileWaitingNeverRuns() {
    ui::jobs::JobRunner a;
    ui::jobs::JobRunner b;
    Overlap overlap;
    a.start("long", overlap.job(100000));  // 100 s unless cancelled
    QTRY_COMPARE_WITH_TIMEOUT(overlap.running.load(), 1, 5000);
    std::atomic<bool> waiterRan{false};
    QSignalSpy cancelledB(&b, &ui::jobs::JobRunner::cancelled);
    b.start("waiting", [&](core::Progress&) -> std::function<void()> {
        waiterRan = true;
        return [] {};
    });
    QTest::qWait(100);
    QVERIFY(b.isRunning());  // queued behind a's job
    QVERIFY(!waiterRan);
    QElapsedTimer clock;
    clock.start();
    b.cancel();
    QVERIFY(cancelledB.wait(5000));
    QVERIFY2(clock.elapsed() < 1000, "a cancel while waiting was not seen promptly");
    QVERIFY(!b.isRunning());
    QVERIFY(a.isRunning());  // the running job was not touched
    QVERIFY(!waiterRan);
    // Once a's job stops, b's next job gets its turn.
    a.cancel();
    a.waitForFinished();
    QSignalSpy finishedB(&b, &ui::jobs::JobRunner::finished);
    b.start("next", [&](core::Progress&) -> std::function<void()> { return [] {}; });
    QVERIFY(finishedB.wait(5000));
    QVERIFY(!waiterRan);
}

void tst_JobRunner::lightJobsDoNotWait() {
    ui::jobs::JobRunner heavy;
    ui::jobs::JobRunner light(ui::jobs::JobWeight::Light);
    Overlap overlap;
    heavy.start("long", overlap.job(100000));
    QTRY_COMPARE_WITH_TIMEOUT(overlap.running.load(), 1, 5000);
    QSignalSpy finished(&light, &ui::jobs::JobRunner::finished);
    light.start("read", overlap.job(5));
    QVERIFY(finished.wait(5000));
    QCOMPARE(overlap.most.load(), 2);  // it ran beside the heavy job
    QVERIFY(heavy.isRunning());
    heavy.cancel();
    heavy.waitForFinished();
}

void tst_JobRunner::cancelAbandonsALightJobAtOnce() {
    // A read that cannot be interrupted (as torch::jit::load): it ignores its Progress token.
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto applied = std::make_shared<std::atomic<bool>>(false);
    auto uninterruptible = [release, applied](core::Progress&) -> std::function<void()> {
        while (!*release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return [applied] { *applied = true; };
    };
    QElapsedTimer clock;
    {
        ui::jobs::JobRunner runner(ui::jobs::JobWeight::Light);
        QSignalSpy cancelled(&runner, &ui::jobs::JobRunner::cancelled);
        runner.start("load", uninterruptible);
        QVERIFY(runner.isRunning());
        clock.start();
        runner.cancel();
        QCOMPARE(cancelled.count(), 1);  // at once: the GUI is idle again
        QVERIFY(!runner.isRunning());
        // A new job runs beside the abandoned one and its result arrives.
        QSignalSpy finished(&runner, &ui::jobs::JobRunner::finished);
        int target = 0;
        runner.start("next", slowJob(5, &target, 7));
        QVERIFY(finished.wait(5000));
        QCOMPARE(target, 7);
        // The end of the runner does not wait for an abandoned read either.
        runner.start("load again", uninterruptible);
    }
    QVERIFY2(clock.elapsed() < 2000, "the runner waited for an abandoned light job");
    QTRY_COMPARE_WITH_TIMEOUT(ui::jobs::lightJobsRunning(), 2, 2000);  // both abandoned reads
    *release = true;
    QTRY_COMPARE_WITH_TIMEOUT(ui::jobs::lightJobsRunning(), 0, 5000);
    QTest::qWait(20);  // results posted after the end are dropped
    QVERIFY(!*applied);
}

QTEST_MAIN(tst_JobRunner)
#include "tst_job_runner.moc"
