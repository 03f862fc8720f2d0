// SPDX-License-Identifier: MIT
#pragma once

#include <QDockWidget>
#include <QPointer>
#include <QTimer>
#include <utility>
#include <vector>

class QTextBrowser;

namespace ui::charts {
class ViewPanel;
}

// The Explanation pane (View ▸ Explanation, Shift+F1): for the views on screen, what each
// shows, how to read it and what to try, followed by its current numbers (the parameters it
// was computed from and its status line). Refreshed while visible.
namespace ui {

class ExplanationPane : public QDockWidget {
    Q_OBJECT
public:
    explicit ExplanationPane(QWidget* parent = nullptr);

    // The views shown now, by export name.
    void setViews(std::vector<std::pair<QString, charts::ViewPanel*>> views);
    // The pane's HTML for the current views (for tests).
    QString html() const;

private:
    void refresh();

    QTextBrowser* m_text;
    std::vector<std::pair<QString, QPointer<charts::ViewPanel>>> m_views;
    QString m_shown;
    QTimer m_refresh;
};

}  // namespace ui
