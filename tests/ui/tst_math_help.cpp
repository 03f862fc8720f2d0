// SPDX-License-Identifier: MIT
// Help ▸ Mathematics: the docs/ pages are compiled in, every page renders, every link between
// the pages reaches an existing page and, with a #fragment, an existing section; F1 opens the
// dialog from the main window. DIFFUSCOPE_SCREENSHOT_DIR=DIR saves a picture of each page.
#include <QAbstractAxis>
#include <QAction>
#include <QChart>
#include <QDockWidget>
#include <QDir>
#include <QFile>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QLabel>
#include <QFontMetricsF>
#include <QApplication>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>

#include "ui/animation/chains_view.h"
#include "ui/charts/view_panel.h"
#include "ui/views/particles_view.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/explanation_pane.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/charts/figure_chart.h"
#include "ui/main/main_window.h"
#include "ui/main/view_explanations.h"
#include "ui/views/schedule_view.h"
#include "tests/support/test_support.h"
#include "ui/main/math_help.h"
#include "ui/document/project_document.h"

namespace {

const QStringList kPages = {"README.md", "categorical.md", "gaussian.md", "conventions.md"};

// The GitHub anchors of a page's Markdown headings.
QStringList anchorsOf(const QString& page) {
    QFile file(":/docs/" + page);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    QStringList anchors;
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n');
    for (const QString& line : lines) {
        static const QRegularExpression heading("^#{1,6} (.*)$");
        if (const auto m = heading.match(line); m.hasMatch()) {
            anchors << ui::headingAnchor(m.captured(1));
        }
    }
    return anchors;
}

}  // namespace

class tst_MathHelp : public QObject {
    Q_OBJECT
private slots:
    void anchorsFollowGitHub();
    void everyLinkResolves();
    void pagesRenderWithAnchors();
    void f1OpensTheDialog();
    void everyViewHasAnExplanation();
    void explanationFollowsTheTabWithItsNumbers();
    void presentationModeScalesAndRestores();
    void presentationModeKeepsEveryLabelWhole();
};

namespace document_support {

// Starts the Gaussian explorer's job (an edit of the seed) and says whether it runs.
bool startGaussianJob(ui::MainWindow& window) {
    auto p = window.document()->gaussian();
    p.seed += 1;
    if (!window.document()->setGaussian(p, "seed").ok()) return false;
    QTest::qWait(60);  // the edits' coalescing timer
    return window.gaussianExplorer()->runner()->isRunning();
}

}  // namespace document_support

// F11: the side panes hidden, chart text and lines 1.6 times larger; off restores them exactly.
void tst_MathHelp::presentationModeScalesAndRestores() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QChart* chart = window.explorer()->scheduleView()->chart();
    const double title = chart->titleFont().pointSizeF();
    const double axis = chart->axes().front()->labelsFont().pointSizeF();
    auto* parameters = window.findChild<QDockWidget*>("parametersDock");
    QVERIFY(parameters != nullptr && parameters->isVisible());
    const QSize sizeBefore = window.size();
    window.setPresentationMode(true);
    QVERIFY(window.presentationMode());
    QVERIFY(!parameters->isVisible());
    DS_COMPARE_REL(chart->titleFont().pointSizeF(), 1.6 * title, 1e-9);
    DS_COMPARE_REL(chart->axes().front()->labelsFont().pointSizeF(), 1.6 * axis, 1e-9);
    // Digit tiles for a projector: 1.6 times larger, so 64 / 1.6² = 25 of them.
    QCOMPARE(window.explorer()->chainsView()->tilesShown(), 25);
    QCOMPARE(window.gaussianExplorer()->particlesView()->tilesShown(), 14);  // 36 / 2.56
    // The particles' axes fit the data (the moons, within ±1.2 or so), not the noise's ±3.
    window.gaussianExplorer()->waitForJobs();
    const QRectF fitted = window.gaussianExplorer()->particlesView()->visibleWindow();
    QVERIFY2(fitted.width() < 4.0 && fitted.width() > 1.0, qPrintable(QString::number(fitted.width())));
    window.setPresentationMode(false);
    QVERIFY(!window.presentationMode());
    QVERIFY(parameters->isVisible());
    // The window comes back to its size, round after round (it grew wider than a projector's
    // screen after the second).
    QApplication::processEvents();
    QCOMPARE(window.size(), sizeBefore);
    window.setPresentationMode(true);
    window.setPresentationMode(false);
    QApplication::processEvents();
    QCOMPARE(window.size(), sizeBefore);
    DS_COMPARE_REL(chart->titleFont().pointSizeF(), title, 1e-9);
    DS_COMPARE_REL(chart->axes().front()->labelsFont().pointSizeF(), axis, 1e-9);
    QCOMPARE(window.explorer()->chainsView()->tilesShown(), 64);
    QCOMPARE(window.gaussianExplorer()->particlesView()->tilesShown(), 36);
    QVERIFY(window.gaussianExplorer()->particlesView()->visibleWindow().width() >= 6.0);
    // F11 while a job runs (its status lines change meanwhile): every widget of the window takes
    // the normal font again.
    window.showProcess(1);
    QVERIFY(document_support::startGaussianJob(window));
    window.setPresentationMode(true);
    window.gaussianExplorer()->waitForJobs();  // one job ends in the mode
    QVERIFY(document_support::startGaussianJob(window));
    window.setPresentationMode(false);  // another runs as it is left
    window.gaussianExplorer()->waitForJobs();
    QApplication::processEvents();
    const double normal = QApplication::font().pointSizeF();
    for (QWidget* widget : window.findChildren<QWidget*>()) {
        if (widget->testAttribute(Qt::WA_SetFont)) continue;  // a font of its own (a title)
        auto* label = qobject_cast<QLabel*>(widget);
        QVERIFY2(widget->font().pointSizeF() == normal,
                 qPrintable(QString(widget->metaObject()->className()) + " \"" +
                            (label != nullptr ? label->text() : widget->objectName()) + "\" at " +
                            QString::number(widget->font().pointSizeF()) + " pt, not " +
                            QString::number(normal)));
    }
}

// Presentation mode at a lecture hall's 1920 × 1080 and a projector's 1280 × 720: in every view
// no chart text is shortened, no one-line label is wider than its room, and every canvas has the
// room its text needs. DIFFUSCOPE_SCREENSHOT_DIR=DIR saves each view.
void tst_MathHelp::presentationModeKeepsEveryLabelWhole() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.explorer()->waitForJobs();
    window.gaussianExplorer()->waitForJobs();
    window.setPresentationMode(true);
    const QString shots = qEnvironmentVariable("DIFFUSCOPE_SCREENSHOT_DIR");
    QStringList problems;
    // Full screen takes the screen's size, which the offscreen platform fixes: the window is
    // sized by hand, presentation mode's fonts and scales kept.
    window.showNormal();
    for (const QSize size : {QSize(1920, 1080), QSize(1280, 720)}) {
        window.resize(size);
        for (const bool gaussian : {false, true}) {
            const auto views = gaussian ? window.gaussianExplorer()->views() : window.explorer()->views();
            for (const auto& [name, view] : views) {
                if (name == "lab") continue;  // run on request; its table is a control
                QVERIFY2(window.showView(name), qPrintable(name));
                QApplication::processEvents();
                QTest::qWait(50);
                QApplication::processEvents();
                const QString at = QString("%1 at %2×%3").arg(name).arg(size.width()).arg(size.height());
                if (!shots.isEmpty()) window.grab().save(QString("%1/presentation-%2-%3.png").arg(shots, name).arg(size.width()));
                for (auto* figure : view->findChildren<ui::charts::FigureChart*>()) {
                    if (!figure->isVisible()) continue;
                    for (const QString& text : figure->elidedTexts()) problems << at + ": \"" + text + "\" shortened";
                }
                for (QLabel* label : view->findChildren<QLabel*>()) {
                    if (!label->isVisible() || label->wordWrap() || label->text().isEmpty() ||
                        Qt::mightBeRichText(label->text())) {
                        continue;
                    }
                    const double needed = QFontMetricsF(label->font()).horizontalAdvance(label->text());
                    if (needed > label->contentsRect().width() + 1.0) {
                        problems << at + ": label \"" + label->text() + "\" needs " + QString::number(needed) +
                                        " px, has " + QString::number(label->contentsRect().width());
                    }
                }
                for (QWidget* w : view->findChildren<QWidget*>()) {
                    if (!w->isVisible() || w->children().size() > 2) continue;  // leaves: canvases
                    const QSize minimum = w->minimumSizeHint();
                    if (minimum.isValid() && (minimum.width() > w->width() + 1 || minimum.height() > w->height() + 1) &&
                        qobject_cast<QLabel*>(w) == nullptr) {
                        problems << at + ": " + w->metaObject()->className() + " needs " +
                                        QString("%1×%2").arg(minimum.width()).arg(minimum.height()) + ", has " +
                                        QString("%1×%2").arg(w->width()).arg(w->height());
                    }
                }
            }
        }
    }
    window.setPresentationMode(false);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
}

// Every view of both explorers has its what / how to read / try text.
void tst_MathHelp::everyViewHasAnExplanation() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    std::vector<std::pair<QString, ui::charts::ViewPanel*>> all = window.explorer()->views();
    for (auto& view : window.gaussianExplorer()->views()) all.push_back(view);
    QVERIFY(all.size() >= 10);
    for (const auto& [name, view] : all) {
        const ui::ViewExplanation e = ui::viewExplanation(name);
        QVERIFY2(!e.title.isEmpty(), qPrintable(name));
        QVERIFY2(e.shows.size() > 80 && e.read.size() > 60 && e.tryThis.size() > 60, qPrintable(name));
    }
}

// Shift+F1 shows the pane; it explains the views of the current tab (both on the split
// Schedule & information page) and lists their current numbers.
void tst_MathHelp::explanationFollowsTheTabWithItsNumbers() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    window.explorer()->waitForJobs();
    ui::ExplanationPane* pane = window.explanationPane();
    QVERIFY(pane != nullptr);
    QCOMPARE(pane->toggleViewAction()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F1));
    window.tabs()->setCurrentIndex(1);  // Schedule & information: two views
    QString html = pane->html();
    QVERIFY2(html.contains("Schedule &amp; information") && html.contains("Step costs"),
             qPrintable(html.left(300)));
    // The example's schedule, an identifier set as code.
    QVERIFY2(html.contains("schedule: <code>cosine</code>"), qPrintable(html.right(600)));
    window.tabs()->setCurrentIndex(2);
    html = pane->html();
    QVERIFY(html.contains("Matrices") && !html.contains("Step costs"));
}

void tst_MathHelp::anchorsFollowGitHub() {
    QCOMPARE(ui::headingAnchor("Optimal variance"), QString("optimal-variance"));
    QCOMPARE(ui::headingAnchor("The DP cost, clipped"), QString("the-dp-cost-clipped"));
    QCOMPARE(ui::headingAnchor("gamma output"), QString("gamma-output"));
}

void tst_MathHelp::everyLinkResolves() {
    static const QRegularExpression link(R"(\]\(([^)\s]+)\))");
    int checked = 0;
    for (const QString& page : kPages) {
        QFile file(":/docs/" + page);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(page));
        const QString text = QString::fromUtf8(file.readAll());
        for (auto it = link.globalMatch(text); it.hasNext();) {
            const QString target = it.next().captured(1);
            if (target.startsWith("http")) {
                continue;
            }
            const QString targetPage = target.section('#', 0, 0).isEmpty() ? page
                                                                            : target.section('#', 0, 0);
            QVERIFY2(kPages.contains(targetPage), qPrintable(page + ": " + target));
            const QString fragment = target.section('#', 1);
            if (!fragment.isEmpty()) {
                QVERIFY2(anchorsOf(targetPage).contains(fragment), qPrintable(page + ": " + target));
            }
            ++checked;
        }
    }
    QVERIFY(checked > 20);
}

void tst_MathHelp::pagesRenderWithAnchors() {
    ui::MathHelpDialog dialog;
    dialog.resize(900, 700);
    dialog.show();
    const QString shots = qEnvironmentVariable("DIFFUSCOPE_SCREENSHOT_DIR");
    for (const QString& page : kPages) {
        dialog.showPage(page);
        QTextDocument* document = dialog.browser()->document();
        QVERIFY2(document->blockCount() > 10, qPrintable(page));
        QVERIFY2(!document->toPlainText().contains("]("), qPrintable(page));  // links parsed
        int headings = 0;
        for (QTextBlock b = document->begin(); b.isValid(); b = b.next()) {
            headings += b.blockFormat().headingLevel() > 0 ? 1 : 0;
        }
        QVERIFY2(headings >= 2, qPrintable(page));
        if (!shots.isEmpty()) {
            QVERIFY(dialog.grab().save(QDir(shots).filePath(QString(page).replace(".md", ".png"))));
        }
    }
    // A link to a section of another page scrolls there.
    dialog.showPage("README.md");
    dialog.browser()->setSource(QUrl("gaussian.md#nll"));
    QCOMPARE(dialog.browser()->source().fileName(), QString("gaussian.md"));
    QVERIFY(dialog.browser()->verticalScrollBar()->value() > 0);
    QVERIFY(dialog.browser()->document()->toPlainText().contains("bits per dimension"));
    if (!shots.isEmpty()) {
        QVERIFY(dialog.grab().save(QDir(shots).filePath("gaussian-nll.png")));
    }
    dialog.browser()->backward();
    QCOMPARE(dialog.browser()->source().fileName(), QString("README.md"));
}

void tst_MathHelp::f1OpensTheDialog() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    QAction* mathematics = nullptr;
    for (QAction* menu : window.menuBar()->actions()) {
        for (QAction* action : menu->menu() != nullptr ? menu->menu()->actions() : QList<QAction*>{}) {
            if (action->text() == "&Mathematics") {
                mathematics = action;
            }
        }
    }
    QVERIFY(mathematics != nullptr);
    QCOMPARE(mathematics->shortcut(), QKeySequence(QKeySequence::HelpContents));
    mathematics->trigger();
    auto* dialog = window.findChild<ui::MathHelpDialog*>();
    QVERIFY(dialog != nullptr);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->browser()->source().fileName(), QString("README.md"));
    mathematics->trigger();  // the same dialog again, not a second one
    QCOMPARE(window.findChildren<ui::MathHelpDialog*>().size(), 1);
}

QTEST_MAIN(tst_MathHelp)
#include "tst_math_help.moc"
