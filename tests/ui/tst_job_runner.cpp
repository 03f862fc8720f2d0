// SPDX-License-Identifier: MIT
// Tests of ui/jobs: results arrive on the GUI thread, cancel returns promptly, newest wins.
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
    void newestRequestWins();
    void exceptionBecomesFailure();
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

QTEST_MAIN(tst_JobRunner)
#include "tst_job_runner.moc"
