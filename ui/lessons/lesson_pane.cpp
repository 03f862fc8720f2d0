// SPDX-License-Identifier: MIT
#include "ui/lessons/lesson_pane.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/lessons/lessons.h"

namespace ui::lessons {

LessonPane::LessonPane(QWidget* parent)
    : QDockWidget(tr("Lesson"), parent),
      m_chooser(new QComboBox),
      m_position(new QLabel),
      m_text(new QTextBrowser),
      m_previous(new QPushButton(tr("◀ Previous"))),
      m_reload(new QPushButton(tr("Start again"))),
      m_next(new QPushButton(tr("Next ▶"))) {
    setObjectName("lessonDock");
    for (const Lesson& lesson : lessons()) m_chooser->addItem(lesson.title);
    m_chooser->setToolTip(tr("Choose a lesson: its first step loads."));
    // As wide as the pane, not as the longest title: beside the parameters and the views, the
    // pane must leave the window within a projector's 1280 px (a long title was 337 px).
    m_chooser->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_chooser->setMinimumContentsLength(18);
    m_previous->setToolTip(tr("The previous step (Alt+Left)."));
    m_next->setToolTip(tr("The next step (Alt+Right)."));
    m_reload->setToolTip(tr("Load this step's project again, undoing what you changed."));
    m_previous->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    m_next->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
    m_text->setOpenLinks(false);
    m_text->setMinimumWidth(260);
    connect(m_text, &QTextBrowser::anchorClicked, this,
            [this](const QUrl& url) { emit mathematicsRequested(url.toString()); });

    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(m_chooser);
    layout->addWidget(m_position);
    layout->addWidget(m_text, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_previous);
    buttons->addWidget(m_reload);
    buttons->addWidget(m_next);
    layout->addLayout(buttons);
    setWidget(page);

    connect(m_chooser, &QComboBox::activated, this, [this](int lesson) { requestStep(lesson, 0); });
    connect(m_previous, &QPushButton::clicked, this, [this] { requestStep(m_lesson, m_step - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] {
        const auto& all = lessons();
        if (m_step + 1 < static_cast<int>(all[m_lesson].steps.size())) {
            requestStep(m_lesson, m_step + 1);
        } else if (m_lesson + 1 < static_cast<int>(all.size())) {
            requestStep(m_lesson + 1, 0);  // the next lesson
        }
    });
    connect(m_reload, &QPushButton::clicked, this,
            [this] { requestStep(m_lesson, std::max(0, m_step)); });
    showStep(0, -1);
}

void LessonPane::requestStep(int lesson, int step) {
    const auto& all = lessons();
    if (lesson < 0 || lesson >= static_cast<int>(all.size()) || step < 0 ||
        step >= static_cast<int>(all[lesson].steps.size())) {
        return;
    }
    emit stepRequested(lesson, step);
    m_chooser->setCurrentIndex(m_lesson);  // stays on the shown lesson if the load was refused
}

void LessonPane::showStep(int lesson, int step) {
    m_lesson = lesson;
    m_step = step;
    m_chooser->setCurrentIndex(lesson);
    const QString shown = html();
    m_text->setHtml(shown);
    const int steps = static_cast<int>(lessons()[lesson].steps.size());
    m_position->setText(step < 0 ? tr("%n step(s): press Begin to start.", nullptr, steps)
                                 : tr("Step %1 of %2").arg(step + 1).arg(steps));
    refreshButtons();
}

void LessonPane::leaveStep() {
    if (m_step < 0) return;
    const int steps = static_cast<int>(lessons()[m_lesson].steps.size());
    m_position->setText(tr("Step %1 of %2 — left: another project is open; Start again "
                           "loads the step.")
                            .arg(m_step + 1)
                            .arg(steps));
}

QString LessonPane::html() const {
    const Lesson& lesson = lessons()[m_lesson];
    if (m_step < 0) {
        QString list;
        for (const LessonStep& s : lesson.steps) list += "<li>" + s.title.toHtmlEscaped() + "</li>";
        return QString("<h3>%1</h3><ol>%2</ol>").arg(lesson.title.toHtmlEscaped(), list);
    }
    const LessonStep& s = lesson.steps[m_step];
    return QString(
               "<h3>%1</h3>%2<p style=\"background:#eef4fb; padding:6px\"><b>%3</b> %4</p>"
               "<p><a href=\"%5\">%6</a></p>")
        .arg(s.title.toHtmlEscaped(), s.text, tr("Try this."), s.tryThis,
             lesson.mathematics.toHtmlEscaped(), tr("The mathematics behind this lesson"));
}

void LessonPane::refreshButtons() {
    const auto& all = lessons();
    const bool lastOfAll = m_lesson + 1 == static_cast<int>(all.size()) &&
                           m_step + 1 == static_cast<int>(all[m_lesson].steps.size());
    m_previous->setEnabled(m_step > 0);
    m_reload->setEnabled(m_step >= 0);
    m_next->setEnabled(!lastOfAll);
    m_next->setText(m_step < 0 ? tr("Begin ▶")
                    : m_step + 1 == static_cast<int>(all[m_lesson].steps.size())
                        ? tr("Next lesson ▶")
                        : tr("Next ▶"));
    m_next->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));  // setText replaced it
}

}  // namespace ui::lessons
