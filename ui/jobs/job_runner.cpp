// SPDX-License-Identifier: MIT
#include "ui/jobs/job_runner.h"

#include <QCoreApplication>
#include <QPointer>
#include <QPromise>
#include <QThread>
#include <QtConcurrent>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <thread>

#include "core/util/parallel.h"

namespace ui::jobs {
namespace {

// Adapts the core Progress token to the job's promise: progress in per-mille to the GUI
// thread, Abort once the future was cancelled or the job asked to stop.
template <typename T>
class PromiseObserver : public core::ProgressObserver {
public:
    PromiseObserver(QPromise<T>& promise, JobRunner* runner, const std::atomic<bool>& stop)
        : m_promise(promise), m_runner(runner), m_stop(stop) {}
    core::Control onProgress(double fraction, const std::string& stage) override {
        if (m_promise.isCanceled() || m_stop.load()) {
            return core::Control::Abort;
        }
        QMetaObject::invokeMethod(
            m_runner,
            [runner = m_runner, permille = static_cast<int>(fraction * 1000.0),
             text = QString::fromStdString(stage)] {
                emit runner->progressChanged(permille, text);
            },
            Qt::QueuedConnection);
        return core::Control::Continue;
    }

private:
    QPromise<T>& m_promise;
    JobRunner* m_runner;
    const std::atomic<bool>& m_stop;
};

// The process-wide turn of heavy jobs: each uses every core (core/util/parallel), so two at
// once only share the cores and both finish later.
class HeavyGate {
public:
    // Waits for the turn; false, without it, once `cancelled` returns true (checked every
    // 20 ms, so a cancel while waiting is seen well within 100 ms).
    template <typename Cancelled>
    bool acquire(Cancelled cancelled) {
        std::unique_lock lock(m_mutex);
        while (m_busy) {
            if (cancelled()) return false;
            m_free.wait_for(lock, std::chrono::milliseconds(20));
        }
        m_busy = true;
        return true;
    }
    void release() {
        {
            std::lock_guard lock(m_mutex);
            m_busy = false;
        }
        m_free.notify_all();  // a woken waiter may have been cancelled: wake them all
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_free;
    bool m_busy = false;
};

HeavyGate& heavyGate() {
    static HeavyGate gate;
    return gate;
}

// A light job's Progress: aborts once the job was abandoned, reports through `report`.
class LightObserver : public core::ProgressObserver {
public:
    LightObserver(const std::atomic<bool>& abandoned, std::function<void(int, QString)> report)
        : m_abandoned(abandoned), m_report(std::move(report)) {}
    core::Control onProgress(double fraction, const std::string& stage) override {
        if (m_abandoned) return core::Control::Abort;
        m_report(static_cast<int>(fraction * 1000.0), QString::fromStdString(stage));
        return core::Control::Continue;
    }

private:
    const std::atomic<bool>& m_abandoned;
    std::function<void(int, QString)> m_report;
};

std::atomic<int> g_lightJobsRunning{0};

// The threads every runner's jobs run on: one pool for the program, whose threads never
// expire and are never ended. Jobs open OpenMP teams, and libomp keeps per-thread state for
// every thread that does; a Qt pool ends its idle threads after 30 s (and a runner's own pool
// ended them with the runner, e.g. when the Train dialog closed), after which a later loop
// aborted inside libomp. A new thread is made only when no existing one is free (one that has
// just finished may not be free yet), so the pool holds about as many threads as jobs ran at
// once, at most 256. Never destroyed: its idle threads wait until the process ends.
QThreadPool& jobThreads() {
    static QThreadPool* const pool = [] {
        auto* p = new QThreadPool;
        p->setExpiryTimeout(-1);
        p->setMaxThreadCount(256);  // runners × one job each; threads are made on demand
        return p;
    }();
    return *pool;
}

// Gives the turn back when the job's body returns or throws.
struct HeavyTurn {
    bool held;
    ~HeavyTurn() {
        if (held) heavyGate().release();
    }
};

}  // namespace

struct JobRunner::LightJob {
    std::atomic<bool> abandoned{false};
};

int lightJobsRunning() { return g_lightJobsRunning.load(); }

JobRunner::JobRunner(JobWeight weight, QObject* parent) : QObject(parent), m_weight(weight) {
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &JobRunner::onFinished);
}

JobRunner::~JobRunner() {
    if (m_light) m_light->abandoned = true;  // never waited for
    m_hasPending = false;
    m_watcher.disconnect(this);
    m_watcher.cancel();
    m_watcher.waitForFinished();
}

// Until onFinished has run: a future reports Finished a moment before its finished signal is
// posted, and a waiter that looked only at the future could return before the result was applied.
bool JobRunner::isRunning() const { return m_active || m_watcher.isRunning() || m_hasPending; }

void JobRunner::start(const QString& name, Work work) {
    if (m_weight == JobWeight::Light) {
        startLight(name, std::move(work));
        return;
    }
    ++m_generation;
    if (m_watcher.isRunning()) {
        // Queue the newest request; it starts when the cancelled one returns (within 100 ms).
        m_hasPending = true;
        m_pendingName = name;
        m_pending = std::move(work);
        m_watcher.cancel();
        return;
    }
    m_name = name;
    m_runningGeneration = m_generation;
    m_active = true;
    m_stop = std::make_shared<std::atomic<bool>>(false);
    emit started(name);
    m_watcher.setFuture(
        QtConcurrent::run(&jobThreads(), [this, heavy = m_weight == JobWeight::Heavy, stop = m_stop,
                                          work = std::move(work)](QPromise<Outcome>& promise) {
            Outcome outcome;
            if (heavy && !heavyGate().acquire([&] { return promise.isCanceled(); })) {
                outcome.cancelled = true;  // cancelled while waiting: it never ran
                promise.addResult(outcome);
                return;
            }
            const HeavyTurn turn{heavy};
            PromiseObserver<Outcome> observer(promise, this, *stop);
            core::Progress progress(&observer);
            try {
                outcome.apply = work(progress);
                // Stopped, not cancelled: what the job returned is its result.
                outcome.cancelled = (progress.cancelled() && !stop->load()) || promise.isCanceled();
            } catch (const std::exception& e) {
                // An exception must not leave a worker: it would end the program.
                outcome.error = QString::fromUtf8(e.what());
            } catch (...) {
                outcome.error = "unknown error";
            }
            promise.addResult(outcome);  // dropped by Qt when the future was cancelled
        }));
}

void JobRunner::startLight(const QString& name, Work work) {
    abandonLight();  // the newest request wins at once
    auto job = std::make_shared<LightJob>();
    m_light = job;
    m_name = name;
    m_active = true;
    emit started(name);
    const QPointer<JobRunner> self(this);
    // Queued to the application object, not to the runner, which may be gone by then; `self`
    // is read on the GUI thread only.
    auto post = [](std::function<void()> call) {
        if (QCoreApplication* app = QCoreApplication::instance()) {
            QMetaObject::invokeMethod(app, std::move(call), Qt::QueuedConnection);
        }
    };
    auto onProgress = [post, self, job](int permille, QString stage) {
        post([self, job, permille, stage] {
            if (self && self->m_light == job) emit self->progressChanged(permille, stage);
        });
    };
    ++g_lightJobsRunning;
    std::thread([post, self, job, onProgress, work = std::move(work)]() mutable {
        // This thread ends with its job: loops it starts must not open OpenMP teams.
        const core::InlineLoopsOnThisThread inlineLoops;
        LightObserver observer(job->abandoned, onProgress);
        core::Progress progress(&observer);
        auto outcome = std::make_shared<Outcome>();
        try {
            outcome->apply = work(progress);
            outcome->cancelled = progress.cancelled() || job->abandoned;
        } catch (const std::exception& e) {
            outcome->error = QString::fromUtf8(e.what());
        } catch (...) {
            outcome->error = "unknown error";
        }
        work = nullptr;
        if (!job->abandoned) {
            post([self, job, outcome] {
                if (!self || self->m_light != job) return;  // abandoned meanwhile
                self->m_light.reset();
                self->m_active = false;
                self->report(self->m_name, std::move(*outcome), false);
            });
        }
        --g_lightJobsRunning;
    }).detach();
}

void JobRunner::abandonLight() {
    if (!m_light) return;
    m_light->abandoned = true;
    m_light.reset();
    m_active = false;
    emit cancelled(m_name);
}

void JobRunner::cancel() {
    abandonLight();
    m_hasPending = false;
    m_pending = nullptr;
    m_watcher.cancel();
}

void JobRunner::stop() {
    if (m_light) {
        cancel();  // a light job has no result to keep
        return;
    }
    m_hasPending = false;
    m_pending = nullptr;
    if (m_stop) m_stop->store(true);
}

void JobRunner::waitForFinished() {
    while (isRunning()) {
        m_watcher.waitForFinished();
        QCoreApplication::processEvents();
        if (m_light) {
            QThread::msleep(1);  // a light job's thread posts its result
        } else if (m_active && !m_watcher.isRunning()) {
            QThread::yieldCurrentThread();  // the finished signal is on its way
        }
    }
    QCoreApplication::processEvents();
}

void JobRunner::onFinished() {
    m_active = false;
    const QString name = m_name;
    const bool stale = m_runningGeneration != m_generation;
    Outcome outcome;
    if (m_watcher.future().resultCount() > 0) {
        outcome = m_watcher.future().result();
    } else {
        outcome.cancelled = true;
    }
    outcome.cancelled = outcome.cancelled || m_watcher.isCanceled();
    report(name, std::move(outcome), stale);
    if (m_hasPending) {
        m_hasPending = false;
        Work next = std::move(m_pending);
        m_pending = nullptr;
        start(m_pendingName, std::move(next));
    }
}

void JobRunner::report(const QString& name, Outcome outcome, bool stale) {
    if (stale) {
        emit cancelled(name);
    } else if (!outcome.error.isEmpty()) {
        emit failed(name, outcome.error);
    } else if (outcome.cancelled || !outcome.apply) {
        emit cancelled(name);
    } else {
        // Applying a result builds views on the GUI thread; a failure there (e.g. out of
        // memory) is this job's failure, not the program's end.
        QString error;
        try {
            outcome.apply();
        } catch (const std::bad_alloc&) {
            error = "out of memory while showing the result";
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        } catch (...) {
            error = "unknown error while showing the result";
        }
        if (error.isEmpty()) {
            emit finished(name);
        } else {
            emit failed(name, error);
        }
    }
}

QString shownJobName(const QString& name) {
    return QCoreApplication::translate("ui::jobs", name.toUtf8().constData());
}

}  // namespace ui::jobs
