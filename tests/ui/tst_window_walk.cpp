// SPDX-License-Identifier: MIT
// The walk a teacher and a researcher take: every example, every view, on a lecture hall's
// 1920 × 1080 screen and a projector's 1280 × 720, with the Explanation pane open. Nothing on
// screen may be shortened ("…"), and the window must fit the screen it is on.
// DIFFUSCOPE_SCREENSHOT_DIR=DIR saves each view as DIR/walk-<example>-<view>-<width>.png.
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QScreen>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QTest>

#include "ui/charts/figure_chart.h"
#include "ui/charts/view_panel.h"
#include "ui/document/project_document.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/explanation_pane.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/main/main_window.h"
#include "ui/panels/categorical_panel.h"
#include "ui/panels/gaussian_panel.h"
#include "ui/views/lab_view.h"
#include "core/project/lab_settings.h"

class tst_WindowWalk : public QObject {
    Q_OBJECT
private slots:
    void everyViewOfEveryExampleKeepsItsWords();
    void theWindowFitsAProjectorWithTheExplanationOpen();
    void theLabAfterARunKeepsItsWordsAndFitsTheProjector();
};

namespace {

// The problems of the views on screen: chart text shortened, one-line labels wider than their
// room.
QStringList problemsOnScreen(ui::MainWindow& window, const QString& at) {
    QStringList problems;
    for (const auto& [name, view] : window.viewsOnScreen()) {
        for (auto* figure : view->findChildren<ui::charts::FigureChart*>()) {
            if (!figure->isVisible()) continue;
            for (const QString& text : figure->elidedTexts()) {
                problems << at + ", " + name + ": \"" + text + "\" shortened";
            }
        }
        // A view's notes (word-wrapped labels under the charts) are never cut at the bottom
        // (of the view, or of what scrolls in it).
        for (QLabel* label : view->findChildren<QLabel*>()) {
            if (!label->isVisible() || !label->wordWrap() || label->text().isEmpty()) continue;
            QWidget* room = view;
            for (QWidget* w = label->parentWidget(); w != nullptr && w != view; w = w->parentWidget()) {
                if (auto* scroll = qobject_cast<QScrollArea*>(w); scroll != nullptr && scroll->widget() != nullptr &&
                                                                   scroll->widget()->isAncestorOf(label)) {
                    room = scroll->widget();
                    break;
                }
            }
            const int needed = label->heightForWidth(label->width());
            const int bottom = label->mapTo(room, QPoint(0, label->height())).y();
            if (needed > label->height() + 1 || bottom > room->height() + 1) {
                problems << at + ", " + name + ": the note \"" + label->text().left(60) + "…\" needs " +
                                QString::number(needed) + " px, has " + QString::number(label->height()) +
                                " (its bottom at " + QString::number(bottom) + " in a view " +
                                QString::number(room->height()) + " px high)";
            }
        }
    }
    return problems;
}

// The window as a user meets it here: shown, with the Explanation pane open.
bool showWithExplanation(ui::MainWindow& window) {
    window.show();
    const bool exposed = QTest::qWaitForWindowExposed(&window);
    window.explanationPane()->show();
    return exposed;
}

}  // namespace

void tst_WindowWalk::everyViewOfEveryExampleKeepsItsWords() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    QVERIFY(showWithExplanation(window));
    const QString shots = qEnvironmentVariable("DIFFUSCOPE_SCREENSHOT_DIR");
    QStringList problems;
    const auto examples = ui::document::examples();
    for (size_t i = 0; i < examples.size(); ++i) {
        window.document()->loadExample(examples[i].project);
        window.explorer()->waitForJobs();
        window.gaussianExplorer()->waitForJobs();
        for (const QSize size : {QSize(1920, 1080), QSize(1280, 720)}) {
            window.resize(size);
            const bool gaussian =
                window.document()->project().process == core::project::ProcessKind::Gaussian;
            const auto views =
                gaussian ? window.gaussianExplorer()->views() : window.explorer()->views();
            for (const auto& [name, view] : views) {
                if (name == "lab") continue;  // run on request; its table is a control
                QVERIFY2(window.showView(name), qPrintable(name));
                for (int k = 0; k < 3; ++k) {
                    QApplication::processEvents();
                    QTest::qWait(30);
                }
                window.explorer()->waitForJobs();
                window.gaussianExplorer()->waitForJobs();
                QApplication::processEvents();
                const QString at = QString("example %1 (%2) at %3×%4")
                                       .arg(i + 1)
                                       .arg(examples[i].title)
                                       .arg(size.width())
                                       .arg(size.height());
                if (!shots.isEmpty()) {
                    window.grab().save(QString("%1/walk-%2-%3-%4.png")
                                           .arg(shots)
                                           .arg(i + 1)
                                           .arg(name)
                                           .arg(size.width()));
                }
                problems << problemsOnScreen(window, at);
            }
        }
    }
    problems.removeDuplicates();
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
}

// A projector's 1280 × 720: the window's least size, with the Explanation pane open beside the
// views, fits it (it used to be forced wider than the screen, the pane and the time bar's seed
// off its right edge).
void tst_WindowWalk::theWindowFitsAProjectorWithTheExplanationOpen() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    QVERIFY(showWithExplanation(window));
    for (const int process : {0, 1}) {
        window.showProcess(process);
        for (int tab = 0; tab < window.tabs()->count(); ++tab) {
            window.tabs()->setCurrentIndex(tab);
            QApplication::processEvents();
            const QSize least = window.minimumSizeHint().expandedTo(window.minimumSize());
            QVERIFY2(least.width() <= 1280 && least.height() <= 720,
                     qPrintable(QString("%1, tab \"%2\": the window needs at least %3 × %4")
                                    .arg(process == 0 ? "categorical" : "Gaussian")
                                    .arg(window.tabs()->tabText(tab))
                                    .arg(least.width())
                                    .arg(least.height())));
        }
    }
    // A lesson open beside the parameters: still within a projector's width, also on the
    // Decoding view of a table (lesson 9) and of a chain (lesson 10).
    for (const auto& [lesson, step] : {std::pair{3, 1}, std::pair{8, 0}, std::pair{9, 1}}) {
        QVERIFY(window.loadLessonStep(lesson, step));
        // Before its results arrive too: the controls follow the project at once.
        QApplication::processEvents();
        const QSize before = window.minimumSizeHint().expandedTo(window.minimumSize());
        QVERIFY2(before.width() <= 1280, qPrintable(QString("lesson %1 needs %2 px before its results")
                                                        .arg(lesson + 1)
                                                        .arg(before.width())));
        window.explorer()->waitForJobs();
        QTest::qWait(400);  // the Decoding view's coalescing timer, then its job
        window.explorer()->waitForJobs();
        QApplication::processEvents();
        const QSize withLesson = window.minimumSizeHint().expandedTo(window.minimumSize());
        QVERIFY2(withLesson.width() <= 1280 && withLesson.height() <= 720,
                 qPrintable(QString("with lesson %1 open the window needs at least %2 × %3")
                                .arg(lesson + 1)
                                .arg(withLesson.width())
                                .arg(withLesson.height())));
    }
    window.loadLessonStep(3, 1);
    QApplication::processEvents();
    // The parameters' panel is never cut at the right (it was, its buttons half shown, with a
    // sideways scroll bar): the dock is as wide as the panel shown needs.
    window.resize(1280, 720);
    auto* dock = window.findChild<QDockWidget*>("parametersDock");
    QVERIFY(dock != nullptr);
    auto* scroll = qobject_cast<QScrollArea*>(dock->widget());
    QVERIFY(scroll != nullptr);
    for (const int process : {0, 1}) {
        window.showProcess(process);
        QApplication::processEvents();
        QWidget* panel = process == 0 ? static_cast<QWidget*>(window.categoricalPanel())
                                      : static_cast<QWidget*>(window.gaussianPanel());
        QVERIFY2(scroll->viewport()->width() >= panel->minimumSizeHint().width(),
                 qPrintable(QString("%1 panel: needs %2 px, the dock shows %3")
                                .arg(process == 0 ? "categorical" : "Gaussian")
                                .arg(panel->minimumSizeHint().width())
                                .arg(scroll->viewport()->width())));
    }
    window.explorer()->waitForJobs();
    window.gaussianExplorer()->waitForJobs();
}

// The Lab after a run, which the walk above leaves out (it runs on request): its five charts
// and the run's notes forced the window 1416 px wide in every view, and squeezed the charts
// until their axis titles read "bits/…". On a projector they take one column and scroll; on a
// full-HD screen two.
void tst_WindowWalk::theLabAfterARunKeepsItsWordsAndFitsTheProjector() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    QVERIFY(showWithExplanation(window));
    window.document()->loadExample(ui::document::examples()[2].project);  // the moons network
    window.gaussianExplorer()->waitForJobs();
    auto p = window.document()->gaussian();
    for (const auto& preset : core::project::labPresets()) {
        if (preset.id == "karras-on-linear") p.lab.configs = preset.configs;
    }
    QVERIFY(!p.lab.configs.empty());
    p.lab.ks = {5, 10};  // a short run: the layout, not the numbers, is tested
    p.lab.qualitySamples = 200;
    p.lab.nllPoints = 200;
    QVERIFY(window.document()->setGaussian(p, "lab").ok());
    window.gaussianExplorer()->waitForJobs();
    QVERIFY(window.showView("lab"));
    window.gaussianExplorer()->runLab();
    window.gaussianExplorer()->waitForJobs();
    ui::views::LabView* lab = window.gaussianExplorer()->labView();
    QVERIFY(lab->csvText().ok());
    QStringList problems;
    for (const QSize size : {QSize(1920, 1080), QSize(1280, 720)}) {
        window.resize(size);
        QTest::qWait(100);  // the charts' ticks and titles are fitted after their layout
        QApplication::processEvents();
        const QString at = QString("the Lab at %1×%2").arg(size.width()).arg(size.height());
        problems << problemsOnScreen(window, at);
        QCOMPARE(lab->chartColumns(), size.width() == 1920 ? 2 : 1);
        const QSize least = window.minimumSizeHint().expandedTo(window.minimumSize());
        if (least.width() > 1280 || least.height() > 720) {
            problems << QString("%1: the window needs at least %2 × %3")
                            .arg(at)
                            .arg(least.width())
                            .arg(least.height());
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
}

QTEST_MAIN(tst_WindowWalk)
#include "tst_window_walk.moc"
