// SPDX-License-Identifier: MIT
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>

#include <functional>

#include "core/util/progress.h"

// The one seam between core computations and threads. A job is one call to a
// core function, run on a dedicated one-thread pool; its Progress token reports to the GUI and
// aborts when the job is cancelled. The newest request wins: starting a job cancels the running
// one and a stale result is dropped.
namespace ui::jobs {

class JobRunner : public QObject {
    Q_OBJECT
public:
    // Runs on the worker thread; returns what to do with the result on the GUI thread.
    using Work = std::function<std::function<void()>(core::Progress& progress)>;

    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override;  // cancels, then waits for the worker

    // Starts `work` as job `name`, cancelling any running job.
    void start(const QString& name, Work work);
    bool isRunning() const;
    // Blocks until the current job (if any) has finished and its result was applied.
    void waitForFinished();

public slots:
    void cancel();

signals:
    void started(const QString& name);
    void progressChanged(int permille, const QString& stage);
    void finished(const QString& name);
    void cancelled(const QString& name);
    void failed(const QString& name, const QString& message);

private:
    struct Outcome {
        std::function<void()> apply;  // empty when cancelled or failed
        QString error;
        bool cancelled = false;
    };
    void onFinished();

    QThreadPool m_pool;
    QFutureWatcher<Outcome> m_watcher;
    QString m_name;
    quint64 m_generation = 0;
    quint64 m_runningGeneration = 0;
    bool m_active = false;  // started and its onFinished not yet run
    bool m_hasPending = false;
    QString m_pendingName;
    Work m_pending;
};

// A job's name as shown: names are English where the jobs start (code compares them) and
// marked there with QT_TRANSLATE_NOOP("ui::jobs", …).
QString shownJobName(const QString& name);

}  // namespace ui::jobs
