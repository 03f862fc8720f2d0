// SPDX-License-Identifier: MIT
// `diffuscope`: the GUI when started with no arguments, a headless subcommand otherwise.
#include <QApplication>
#include <QTimer>

#include <cstring>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "ui/main/headless_export.h"
#include "ui/main/main_window.h"
#include "ui/main/safe_application.h"

namespace {

void describeApplication() {
    QApplication::setApplicationName("Diffuscope");
    QApplication::setOrganizationName("Diffuscope");
    QApplication::setApplicationVersion(DIFFUSCOPE_VERSION);
}

// `export` renders widgets, so it needs a QApplication; without a display it uses the
// offscreen platform rather than failing.
int runExport(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication application(argc, argv);
    describeApplication();
    QStringList arguments;
    for (int i = 2; i < argc; ++i) {
        arguments << QString::fromLocal8Bit(argv[i]);
    }
    return ui::runHeadlessExport(arguments);
}

}  // namespace

int main(int argc, char* argv[]) {
    if (argc > 1 && std::strcmp(argv[1], "export") == 0) {
        return runExport(argc, argv);
    }
    // `diffuscope project.diffuscope.json` opens the GUI with that project.
    const bool openProject = argc == 2 && std::string(argv[1]).ends_with(".json");
    if (argc > 1 && !openProject) {
        return app::cli::dispatch(std::vector<std::string>(argv + 1, argv + argc));
    }
    ui::SafeApplication application(argc, argv);  // an escaping exception becomes a message
    describeApplication();
    ui::MainWindow window;
    window.resize(1400, 880);
    window.show();
    if (openProject) {
        window.openFile(QString::fromLocal8Bit(argv[1]));
    }
    // After the event loop starts, so the question appears over the window.
    QTimer::singleShot(0, &window, &ui::MainWindow::offerRecovery);
    return QApplication::exec();
}
