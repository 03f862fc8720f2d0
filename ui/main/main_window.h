// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

namespace ui {

// The application window. For now: the example categorical process's schedule and
// information curves; the full explorer (panels, views, animation) builds on it.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

private:
    void createMenus();
};

}  // namespace ui
