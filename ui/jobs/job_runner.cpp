// SPDX-License-Identifier: MIT
#include "ui/jobs/job_runner.h"

#include <QCoreApplication>
#include <QPromise>
#include <QThread>
#include <QtConcurrent>

#include <exception>
#include <new>

namespace ui::jobs {
namespace {

// Adapts the core Progress token to the job's promise: progress in per-mille to the GUI
// thread, Abort once the future was cancelled.
template <typename T>
class PromiseObserver : public core::ProgressObserver {
public:
    PromiseObserver(QPromise<T>& promise, JobRunner* runner)
        : m_promise(promise), m_runner(runner) {}
    core::Control onProgress(double fraction, const std::string& stage) override {
        if (m_promise.isCanceled()) {
            return core::Control::Abort;
        }
        QMetaObject::invokeMethod(
            m_runner,
            [runner = m_runner, permille = static_cast<int>(fraction * 1000.0),
             text = QString::fromStdString(stage)] { emit runner->progressChanged(permille, text); },
            Qt::QueuedConnection);
        return core::Control::Continue;
    }

private:
    QPromise<T>& m_promise;
    JobRunner* m_runner;
};

}  // namespace

JobRunner::JobRunner(QObject* parent) : QObject(parent) {
    // Heavy OpenMP jobs run one at a time so Qt workers and OpenMP teams do not oversubscribe.
    m_pool.setMaxThreadCount(1);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &JobRunner::onFinished);
}

JobRunner::~JobRunner() {
    m_hasPending = false;
    m_watcher.disconnect(this);
    m_watcher.cancel();
    m_watcher.waitForFinished();
    m_pool.waitForDone();
}

// Until onFinished has run: a future reports Finished a moment before its finished signal is
// posted, and a waiter that looked only at the future could return before the result was applied.
bool JobRunner::isRunning() const { return m_active || m_watcher.isRunning() || m_hasPending; }

void JobRunner::start(const QString& name, Work work) {
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
    emit started(name);
    m_watcher.setFuture(
        QtConcurrent::run(&m_pool, [this, work = std::move(work)](QPromise<Outcome>& promise) {
            PromiseObserver<Outcome> observer(promise, this);
            core::Progress progress(&observer);
            Outcome outcome;
            try {
                outcome.apply = work(progress);
                outcome.cancelled = progress.cancelled() || promise.isCanceled();
            } catch (const std::exception& e) {
                // An exception must not leave a worker: it would end the program.
                outcome.error = QString::fromUtf8(e.what());
            } catch (...) {
                outcome.error = "unknown error";
            }
            promise.addResult(outcome);  // dropped by Qt when the future was cancelled
        }));
}

void JobRunner::cancel() {
    m_hasPending = false;
    m_pending = nullptr;
    m_watcher.cancel();
}

void JobRunner::waitForFinished() {
    while (isRunning()) {
        m_watcher.waitForFinished();
        QCoreApplication::processEvents();
        if (m_active && !m_watcher.isRunning()) {
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
    if (!stale) {
        if (!outcome.error.isEmpty()) {
            emit failed(name, outcome.error);
        } else if (outcome.cancelled || m_watcher.isCanceled() || !outcome.apply) {
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
    } else {
        emit cancelled(name);
    }
    if (m_hasPending) {
        m_hasPending = false;
        Work next = std::move(m_pending);
        m_pending = nullptr;
        start(m_pendingName, std::move(next));
    }
}

QString shownJobName(const QString& name) {
    return QCoreApplication::translate("ui::jobs", name.toUtf8().constData());
}

}  // namespace ui::jobs
