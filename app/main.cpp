// SPDX-License-Identifier: MIT
// `diffuscope`: the GUI when started with no arguments, a headless subcommand otherwise.
#include <QApplication>

#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "ui/main/main_window.h"

int main(int argc, char* argv[]) {
    if (argc > 1) {
        return app::cli::dispatch(std::vector<std::string>(argv + 1, argv + argc));
    }
    QApplication application(argc, argv);
    QApplication::setApplicationName("Diffuscope");
    QApplication::setOrganizationName("Diffuscope");
    QApplication::setApplicationVersion(DIFFUSCOPE_VERSION);
    ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    return QApplication::exec();
}
