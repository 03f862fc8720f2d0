// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

namespace ui {

// The application window: menus, the central views and the status bar.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

private:
    void createMenus();
};

}  // namespace ui
