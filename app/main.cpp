// SPDX-License-Identifier: MIT
// `diffuscope`: the GUI when started with no arguments, a headless subcommand otherwise.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QScreen>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "core/util/limits.h"
#include "core/util/parallel.h"
#include "ui/charts/chart_export.h"
#include "ui/jobs/job_runner.h"
#include "ui/main/headless_export.h"
#include "ui/main/language.h"
#include "ui/main/main_window.h"
#include "ui/main/safe_application.h"

namespace {

void describeApplication() {
    QApplication::setApplicationName("Diffuscope");
    QApplication::setOrganizationName("Diffuscope");
    QApplication::setApplicationVersion(DIFFUSCOPE_VERSION);
}

// Qt wants a private runtime folder (XDG_RUNTIME_DIR) and warns on stderr without one, as
// under root or a bare `env -i`: a headless export's one line of output would get a second.
// One of its own, removed when the program ends, when none is set.
void ensureRuntimeDir() {
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) return;
    static QTemporaryDir folder(QDir::tempPath() + "/diffuscope-runtime-XXXXXX");  // mode 0700
    if (folder.isValid()) qputenv("XDG_RUNTIME_DIR", QFile::encodeName(folder.path()));
}

// `export` renders widgets, so it needs a QApplication; without a display it uses the
// offscreen platform rather than failing. Its options were read by the CLI's parser.
int runExport(const app::cli::Args& args) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    for (const char* option : {"view", "out"}) {
        if (core::Result<std::string> given = args.require(option); !given) {
            return app::cli::fail(given.error());
        }
    }
    // Sizes in px (the default unit), cm, mm or in; checked before the application starts.
    int lengths[2] = {0, 0};
    double typed[2] = {0.0, 0.0};  // before rounding: an SVG states the size as typed
    for (int i = 0; i < 2; ++i) {
        const char* key = i == 0 ? "width" : "height";
        QString error;
        const std::optional<double> pixels =
            ui::charts::parseLengthExact(QString::fromStdString(args.get(key)), &error);
        if (!pixels) {
            return app::cli::fail("export: --" + std::string(key) + " = " + args.get(key) + ": " +
                                  error.toStdString());
        }
        typed[i] = *pixels;
        lengths[i] = static_cast<int>(std::lround(*pixels));  // as parseLength rounds
    }
    core::Result<int> dpi = args.getInt("dpi");
    if (!dpi) {
        return app::cli::fail("export: --dpi takes a whole number (" + dpi.error().toString() +
                              ")");
    }
    // The image's memory before anything is loaded or rendered: a PNG is drawn at --dpi, the
    // other formats (and every figure's first layout pass) at 96 dpi; an animation's frames at
    // 96 dpi (their number is known once the project is, and checked then).
    {
        const std::string out = args.get("out");
        const std::string view = args.get("view");
        const bool png = view == "all" ||
                         (out.size() >= 4 && QString::fromStdString(out.substr(out.size() - 4))
                                                     .compare(".png", Qt::CaseInsensitive) == 0);
        const bool animation = view == "animation" || view == "particles-animation";
        const bool scaled = png && !animation && *dpi >= 24 && *dpi <= 1200;
        if (core::Status s = core::limits::checkImage(scaled ? "the PNG" : "the image", lengths[0],
                                                      lengths[1], scaled ? *dpi : 96.0);
            !s) {
            return app::cli::fail("export: " + s.error().toString());
        }
    }
    core::Result<double> fontScale = args.getDouble("font-scale");
    if (!fontScale) {
        return app::cli::fail(fontScale.error());
    }
    core::Result<int> fps = args.getInt("fps");
    if (!fps) {
        return app::cli::fail(fps.error());
    }
    if (*fps < 1 || *fps > 50) {
        return app::cli::fail("export: --fps = " + args.get("fps") + ": must lie in 1..50");
    }
    core::Result<double> hold = args.getDouble("hold");
    if (!hold) {
        return app::cli::fail(hold.error());
    }
    if (!(*hold >= 0.0 && *hold <= 20.0)) {
        return app::cli::fail("export: --hold = " + args.get("hold") +
                              ": must lie in 0..20 seconds");
    }
    // The figures' language: a code, or "system" as the GUI's default (the saved GUI choice is
    // not used, so a script's figures do not depend on the menu).
    const QString language = QString::fromStdString(args.get("language"));
    if (language != "system" && !ui::language::available().contains(language)) {
        return app::cli::fail("export: --language = " + args.get("language") +
                              ": not a language of Diffuscope (" +
                              ui::language::available().join(", ").toStdString() + " or system)");
    }
    // Paths as the system encodes them, as QApplication reads its own arguments.
    const auto text = [&args](const char* key) {
        return QString::fromLocal8Bit(QByteArray::fromStdString(args.get(key)));
    };
    ui::HeadlessExportRequest request;
    request.view = text("view");
    request.out = text("out");
    request.project = text("project");
    request.example = text("example");
    request.size = QSize(lengths[0], lengths[1]);
    request.typedSize = QSizeF(typed[0], typed[1]);
    request.dpi = *dpi;
    request.fontScale = *fontScale;
    request.fps = *fps;
    request.holdSeconds = *hold;
    // QApplication keeps references to argc and argv: they must outlive it.
    int argc = 1;
    char name[] = "diffuscope";
    char* argv[] = {name, nullptr};
    ensureRuntimeDir();
    QApplication application(argc, argv);
    describeApplication();
    ui::language::install(ui::language::resolve(language));
    return ui::runHeadlessExport(request);
}

}  // namespace

int main(int argc, char* argv[]) {
    // Before the first parallel loop starts the OpenMP runtime: its idle threads sleep instead
    // of spinning for 200 ms after every loop, which took the cores the GUI's thread and other
    // programs need. A value the user set is kept.
    ::setenv("OMP_WAIT_POLICY", "passive", 0);
    core::startParallelRuntime();
    // `diffuscope project.diffuscope.json` opens the GUI with that project.
    const bool openProject = argc == 2 && std::string(argv[1]).ends_with(".json");
    if (argc > 1 && !openProject) {
        return app::cli::dispatch(std::vector<std::string>(argv + 1, argv + argc), runExport);
    }
    ensureRuntimeDir();
    ui::SafeApplication application(argc, argv);  // an escaping exception becomes a message
    describeApplication();
    ui::language::install(ui::language::resolve(ui::language::savedChoice()));
    int status = 0;
    {
        ui::MainWindow window;
        // 1400 × 880, or less on a smaller screen (a 1280 × 720 projector): within its room.
        const QRect room = window.screen()->availableGeometry();
        window.resize(std::min(1400, room.width() * 19 / 20),
                      std::min(880, room.height() * 19 / 20));
        window.show();
        if (openProject) {
            window.openFileInBackground(QString::fromLocal8Bit(argv[1]));
        }
        // After the event loop starts, so the question appears over the window.
        QTimer::singleShot(0, &window, &ui::MainWindow::offerRecovery);
        status = QApplication::exec();
    }  // the window settles its recovery copy and stops its computations here
    // An abandoned read (a TorchScript load cannot be interrupted) may still run: nothing waits
    // for it, and the static destructors must not run under it.
    if (ui::jobs::lightJobsRunning() > 0) {
        std::fflush(nullptr);
        std::_Exit(status);
    }
    return status;
}
