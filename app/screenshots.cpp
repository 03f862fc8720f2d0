// SPDX-License-Identifier: MIT
// `diffuscope_screenshots FOLDER`: the README's screenshots, made by the program itself so they
// never go stale. Each is the main window at 1400 × 880 on an example, a view and a moment,
// grabbed once its jobs have finished. resources/screenshots/make_screenshots.sh runs it (with
// the animation, which `diffuscope export` writes). Not installed.
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QTabWidget>
#include <QTest>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

#include "core/project/lab_settings.h"
#include "core/util/parallel.h"
#include "ui/animation/chains_view.h"
#include "ui/animation/time_bar.h"
#include "ui/document/project_document.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/explanation_pane.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/main/language.h"
#include "ui/main/main_window.h"
#include "ui/views/decoding_view.h"

namespace {

struct Shot {
    const char* file;
    int example;           // File ▸ Examples, from 1 (0: a lesson step)
    const char* view;      // its export name (null: the one a lesson step shows)
    double position = -1;  // the time slider's position in steps (−1: as loaded)
    std::function<void(ui::MainWindow&)> prepare = {};
    QSize size = {1400, 880};  // the window's
};

// Applies a lab preset to the project (as the Lab's Presets menu does) and runs the lab.
void runLabPreset(ui::MainWindow& window, const std::string& id) {
    for (const auto& preset : core::project::labPresets()) {
        if (preset.id != id) continue;
        auto p = window.document()->gaussian();
        p.lab.configs = preset.configs;
        if (!preset.schedule.empty()) p.schedule = preset.schedule;
        if (!preset.ks.empty()) p.lab.ks = preset.ks;
        if (!window.document()->setGaussian(p, "lab").ok()) break;
        window.gaussianExplorer()->waitForJobs();
        window.gaussianExplorer()->runLab();
        return;
    }
    std::fprintf(stderr, "no lab preset %s\n", id.c_str());
}

void settle(ui::MainWindow& window) {
    window.explorer()->waitForJobs();
    window.gaussianExplorer()->waitForJobs();
    QTest::qWait(300);  // layouts and the charts' animations
}

bool take(const QString& folder, const Shot& shot, const QString& language) {
    auto window =
        std::make_unique<ui::MainWindow>(nullptr, QDir::temp().filePath("diffuscope-shots"));
    window->resize(shot.size);
    window->show();
    if (shot.example > 0) {
        window->document()->loadExample(
            ui::document::examples()[static_cast<size_t>(shot.example - 1)].project);
    }
    settle(*window);
    if (shot.prepare) shot.prepare(*window);
    settle(*window);
    if (shot.view != nullptr && !window->showView(shot.view)) {
        std::fprintf(stderr, "no view %s\n", shot.view);
        return false;
    }
    if (shot.position >= 0) window->timeBar()->setPosition(shot.position);  // as the slider does
    settle(*window);
    const QString path = QDir(folder).filePath(shot.file);
    if (!window->grab().save(path)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        return false;
    }
    std::printf("wrote %s (%s)\n", qPrintable(path), qPrintable(language));
    return true;
}

}  // namespace

int main(int argc, char* argv[]) {
    ::setenv("OMP_WAIT_POLICY", "passive", 0);
    core::startParallelRuntime();
    QApplication application(argc, argv);
    QApplication::setApplicationName("Diffuscope");
    QApplication::setOrganizationName(
        "Diffuscope-screenshots");  // leaves the user's settings alone
    if (argc != 2) {
        std::fprintf(stderr, "usage: diffuscope_screenshots FOLDER\n");
        return 2;
    }
    const QString folder = QString::fromLocal8Bit(argv[1]);
    QDir().mkpath(folder);
    ui::language::install("en");
    const std::vector<Shot> english = {
        {"main-window.png", 1, "trajectories", 6.0},
        {"digits.png", 2, "trajectories", 35.0},
        {"gaussian-variance.png", 3, "variance"},
        {"particles-moons.png", 3, "particles"},
        {"explanation-pane.png", 3, "variance", -1,
         [](ui::MainWindow& w) { w.explanationPane()->show(); }},
        // Lesson 4, step 2 (both counted from 0 here): DP-chosen steps on correlated pairs.
        {"lessons.png", 0, nullptr, -1, [](ui::MainWindow& w) { w.loadLessonStep(3, 1); }},
        // Example 7: text decoded by LLaDA's low-confidence order, letters coloured by commit step.
        {"decoding-text.png", 7, "decoding", -1,
         [](ui::MainWindow& w) { w.explorer()->decodingView()->distributionSampler()->setCurrentIndex(1); }},
        {"presentation-mode.png", 1, "trajectories", 6.0,
         [](ui::MainWindow& w) { w.setPresentationMode(true); }},
        // The Lab's presets run on the bundled networks (a run of about 20 s each).
        // On a full-HD screen, where the Lab's five charts take two columns.
        {"lab-moons.png",
         3,
         "lab",
         -1,
         [](ui::MainWindow& w) { runLabPreset(w, "karras-on-linear"); },
         {1900, 1040}},
        {"lab-digits.png",
         4,
         "lab",
         -1,
         [](ui::MainWindow& w) { runLabPreset(w, "ddpm-small-k"); },
         {1900, 1040}},
    };
    bool ok = true;
    for (const Shot& shot : english) ok = take(folder, shot, "en") && ok;
    ui::language::install("ja");
    ok = take(folder, {"japanese.png", 3, "variance"}, "ja") && ok;
    return ok ? 0 : 1;
}
