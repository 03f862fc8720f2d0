// SPDX-License-Identifier: MIT
#pragma once

#include <QDockWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTextBrowser;

namespace ui::lessons {

struct LessonStep;

// The Lessons pane (Help ▸ Lessons): a lesson chooser, the step's text and "try this", and
// buttons to move between steps. Moving asks the window to load the step (stepRequested); the
// window answers with showStep once the step's project is in place (or not, when the user
// kept unsaved work), so the pane always shows the step on screen.
class LessonPane : public QDockWidget {
    Q_OBJECT
public:
    explicit LessonPane(QWidget* parent = nullptr);

    int lesson() const { return m_lesson; }
    int step() const { return m_step; }  // -1 before a step was loaded
    // Shows lesson `lesson`'s step `step` as loaded.
    void showStep(int lesson, int step);
    // Another project was loaded (an example, a file, New): the step shown no longer matches
    // the views, and the pane says so until a step is loaded again.
    void leaveStep();
    // Asks for a step (what the buttons and the chooser do).
    void requestStep(int lesson, int step);
    // The pane's HTML for the step shown (for tests).
    QString html() const;

signals:
    void stepRequested(int lesson, int step);
    // A link in the text to the mathematics pages ("categorical.md#masked-diffusion").
    void mathematicsRequested(const QString& page);

private:
    void refreshButtons();

    QComboBox* m_chooser;
    QLabel* m_position;
    QTextBrowser* m_text;
    QPushButton* m_previous;
    QPushButton* m_reload;
    QPushButton* m_next;
    int m_lesson = 0;
    int m_step = -1;
};

}  // namespace ui::lessons
