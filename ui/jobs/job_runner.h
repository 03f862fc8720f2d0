// SPDX-License-Identifier: MIT
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>

#include "core/util/progress.h"

// The one seam between core computations and threads. A job is one call to a
// core function, run on one of the program's job threads, which live as long as the program
// (libomp keeps state for every thread that opens a team); its Progress token reports to the GUI
// and aborts when the job is cancelled. The newest request wins: starting a job cancels the running
// one and a stale result is dropped. A job that can end early with a result of its own
// (training) is stopped instead: its token aborts as for a cancel, and its result is applied.
namespace ui::jobs {

// How long the explorers wait for more of an edit that arrives in bursts (a drag) before they
// start its job: one recomputation per burst.
inline constexpr int kCoalesceMs = 40;

enum class JobWeight {
    // Computations that use every core: one at a time in the whole program, across all
    // runners (a heavy job waits for the running one; cancelled while it waits, it never
    // runs); a cancel is honoured by the job's Progress token within 100 ms.
    Heavy,
    // File reads and small checks, which may not be interruptible (torch::jit::load): no turn
    // to wait for; each runs on a thread of its own, and a cancel (or a newer job, or the
    // runner's end) abandons it at once: the runner is idle, the result is dropped when it
    // comes, and nothing waits for it.
    Light,
};

// The light jobs whose threads still run (abandoned or not). While any does, the program must
// end with std::_Exit once its state is saved: static destructors would run under them.
int lightJobsRunning();

class JobRunner : public QObject {
    Q_OBJECT
public:
    // Runs on the worker thread; returns what to do with the result on the GUI thread.
    using Work = std::function<std::function<void()>(core::Progress& progress)>;

    explicit JobRunner(QObject* parent = nullptr) : JobRunner(JobWeight::Heavy, parent) {}
    explicit JobRunner(JobWeight weight, QObject* parent = nullptr);
    ~JobRunner() override;  // cancels, then waits for a heavy job (never for a light one)

    // Starts `work` as job `name`, cancelling any running job.
    void start(const QString& name, Work work);
    bool isRunning() const;
    // Blocks until the current job (if any) has finished and its result was applied.
    void waitForFinished();

public slots:
    // Ends the running job and drops its result.
    void cancel();
    // Ends the running job early and keeps its result: its Progress token aborts, and what the
    // job returns then is applied (a trainer returns the weights so far). A job that returns
    // nothing when aborted is reported as cancelled.
    void stop();

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
    struct LightJob;
    void onFinished();
    void startLight(const QString& name, Work work);
    void abandonLight();
    // Emits finished, failed or cancelled for a job's outcome (cancelled when `stale`: a newer
    // job replaced it), applying its result.
    void report(const QString& name, Outcome outcome, bool stale);

    JobWeight m_weight;
    std::shared_ptr<std::atomic<bool>> m_stop;  // the running heavy job's stop request
    std::shared_ptr<LightJob> m_light;          // the light job running (null when none)
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
