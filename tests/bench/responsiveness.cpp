// SPDX-License-Identifier: MIT
// Responsiveness of the categorical explorer, measured with the real widgets under
// the offscreen platform. Built, never run by CTest. Prints:
//   1. an edit of π at K = 64, N = 1000 → every cheap view updated (document, setup, schedule,
//      matrices and kernel views, the parameter panel): median and 95th percentile;
//   2. one animation frame of the Trajectories view: 500 chains (D = 1) and 64 digit images;
//   3. the longest stall of the event loop while a job runs: the categorical step costs, and
//      the Gaussian Γ estimate with its variances and trajectories;
// first on a quiet machine, then beside one busy process (a child spinning on one core, as a
// browser tab or an export would).
// Usage: QT_QPA_PLATFORM=offscreen build/tests/bench_responsiveness [pi-drag|gaussian-job]
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "ui/animation/chains_view.h"
#include "ui/document/project_document.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/panels/categorical_panel.h"
#include "ui/panels/pi_editor.h"

namespace {

struct Stats {
    double median;
    double p95;
    double max;
};

Stats stats(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) { return ms[static_cast<size_t>(q * (ms.size() - 1))]; };
    return {at(0.5), at(0.95), ms.back()};
}

void piDrag(bool withPanel) {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    std::unique_ptr<ui::panels::CategoricalPanel> panel;
    if (withPanel) {
        panel = std::make_unique<ui::panels::CategoricalPanel>(&document, explorer.fileRunner());
    }
    auto p = document.categorical().withNumClasses(64);
    p.numSteps = 1000;
    p.pathSteps = 100;
    if (!document.setCategorical(p, "K = 64").ok()) {
        std::printf("setup failed\n");
        return;
    }
    explorer.cancelJobs();  // only the synchronous path is timed
    std::vector<double> ms;
    for (int i = 0; i < 200; ++i) {
        auto drag = document.categorical();
        drag.pi = ui::panels::ProbabilityBars::withEntry(drag.pi, 3, 0.02 + 0.0002 * i);
        QElapsedTimer timer;
        timer.start();
        (void)document.setCategorical(drag, "Drag π", 101);  // synchronous slots run here
        ms.push_back(timer.nsecsElapsed() / 1e6);
        explorer.cancelJobs();
    }
    const Stats s = stats(ms);
    std::printf("pi drag, K = 64, N = 1000, 200 edits, views%s: median %.2f ms, p95 %.2f ms, "
                "max %.2f ms\n",
                withPanel ? " and panel" : " only", s.median, s.p95, s.max);
}

void frames(const char* label, ui::document::CategoricalParams params) {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    if (!document.setCategorical(params, "frames").ok()) {
        std::printf("setup failed\n");
        return;
    }
    explorer.waitForJobs();
    auto* view = explorer.chainsView();
    view->resize(1100, 700);
    QImage image(view->size(), QImage::Format_RGB32);
    std::vector<double> ms;
    const int steps = view->numSteps();
    for (int i = 0; i < 240; ++i) {
        view->setPosition(std::fmod(i * 0.07, static_cast<double>(steps)));
        QElapsedTimer timer;
        timer.start();
        QPainter painter(&image);
        view->render(&painter);
        painter.end();
        ms.push_back(timer.nsecsElapsed() / 1e6);
    }
    const Stats s = stats(ms);
    std::printf("%s: frame median %.2f ms, p95 %.2f ms (%.0f fps possible at the median)\n", label,
                s.median, s.p95, 1000.0 / s.median);
}

// Runs the event loop with a 5 ms ticker until `running` is false (and at least 100 ms);
// returns the longest gap between ticks in ms and the time taken in s.
template <class Running>
std::pair<double, double> longestGap(Running running) {
    QElapsedTimer clock;
    clock.start();
    qint64 last = clock.nsecsElapsed();
    qint64 worst = 0;
    QTimer ticker;
    ticker.setInterval(5);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        worst = std::max(worst, now - last);
        last = now;
    });
    ticker.start();
    while (clock.elapsed() < 100 || running()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return {worst / 1e6, clock.elapsed() / 1000.0};
}

void stallDuringGaussianJob() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    auto p = document.gaussian();
    p.numSteps = 1000;
    p.gammaSamples = 400;
    (void)document.setGaussian(p, "N = 1000");
    const auto [gap, seconds] = longestGap([&] { return explorer.runner()->isRunning(); });
    std::printf("event loop during a %.1f s Γ + variance + DP job (moons oracle, N = 1000, "
                "M = 400): longest gap %.1f ms\n",
                seconds, gap);
}

void stallDuringJob() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    auto p = document.categorical().withNumClasses(30);
    p.numSteps = 400;
    p.trajectory = ui::document::CategoricalTrajectory::Dp;
    (void)document.setCategorical(p, "big");
    const auto [gap, seconds] = longestGap([&] {
        return explorer.costRunner()->isRunning() || explorer.chainRunner()->isRunning();
    });
    std::printf("event loop during a %.1f s step-cost job (K = 30, N = 400): longest gap %.1f ms\n",
                seconds, gap);
}

// A child process that spins until killed.
pid_t startBusyProcess() {
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::atomic<unsigned long> spin{0};
        while (true) {
            spin.fetch_add(1, std::memory_order_relaxed);
        }
    }
    return pid;
}

void stopBusyProcess(pid_t pid) {
    if (pid > 0) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
}

void measureAll() {
    piDrag(false);
    piDrag(true);
    auto chains = ui::document::CategoricalParams::example();
    chains.numChains = 500;
    frames("Trajectories, 500 chains, K = 4", chains);
    auto digits = ui::document::CategoricalParams::example().withDigits(4);
    digits.numChains = 64;
    digits.numSteps = 50;
    digits.pathSteps = 25;
    frames("Trajectories, 64 digit images", digits);
    stallDuringJob();
    stallDuringGaussianJob();
}

}  // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    // One case, quiet: for a profiler.
    if (argc > 1 && std::string(argv[1]) == "pi-drag") {
        piDrag(true);
        return 0;
    }
    if (argc > 1 && std::string(argv[1]) == "gaussian-job") {
        stallDuringGaussianJob();
        return 0;
    }
    std::printf("== quiet\n");
    measureAll();
    std::printf("\n== beside one busy process\n");
    const pid_t busy = startBusyProcess();
    measureAll();
    stopBusyProcess(busy);
    return 0;
}
