// SPDX-License-Identifier: MIT
// `diffuscope`: the GUI when started with no arguments, a headless subcommand otherwise.
#include <QApplication>
#include <QTimer>
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
    core::Result<int> width = args.getInt("width");
    core::Result<int> height = args.getInt("height");
    core::Result<int> dpi = args.getInt("dpi");
    for (const core::Result<int>* number : {&width, &height, &dpi}) {
        if (!*number) {
            return app::cli::fail("export: --width, --height and --dpi take whole numbers (" +
                                  number->error().toString() + ")");
        }
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
    request.size = QSize(*width, *height);
    request.dpi = *dpi;
    // QApplication keeps references to argc and argv: they must outlive it.
    int argc = 1;
    char name[] = "diffuscope";
    char* argv[] = {name, nullptr};
    QApplication application(argc, argv);
    describeApplication();
    return ui::runHeadlessExport(request);
}

}  // namespace

int main(int argc, char* argv[]) {
    // `diffuscope project.diffuscope.json` opens the GUI with that project.
    const bool openProject = argc == 2 && std::string(argv[1]).ends_with(".json");
    if (argc > 1 && !openProject) {
        return app::cli::dispatch(std::vector<std::string>(argv + 1, argv + argc), runExport);
    }
    ui::SafeApplication application(argc, argv);  // an escaping exception becomes a message
    describeApplication();
    ui::MainWindow window;
    window.resize(1400, 880);
    window.show();
    if (openProject) {
        window.openFileInBackground(QString::fromLocal8Bit(argv[1]));
    }
    // After the event loop starts, so the question appears over the window.
    QTimer::singleShot(0, &window, &ui::MainWindow::offerRecovery);
    return QApplication::exec();
}
