// SPDX-License-Identifier: MIT
// Tests of the categorical explorer's views and panel under the offscreen platform: the views
// show the core's numbers, render non-blank, export (PNG/SVG/PDF/CSV/GIF) and stay usable
// while jobs are cancelled; the panel edits the document and refuses bad input.
#include <QAction>
#include <QChart>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QMenu>
#include <QAbstractButton>
#include <QLabel>
#include <QRegularExpression>
#include <QLineSeries>
#include <QPainter>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QComboBox>
#include <QPushButton>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>
#include <map>
#include <QWheelEvent>

#include <algorithm>
#include <set>

#include "core/categorical/information.h"
#include "core/categorical/reverse_marginal.h"
#include "tests/support/project_choices.h"
#include "ui/animation/animation_export.h"
#include "ui/animation/chains_view.h"
#include "ui/animation/time_bar.h"
#include "ui/charts/chart_export.h"
#include "ui/document/project_document.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/explanation_pane.h"
#include "ui/main/main_window.h"
#include "ui/panels/categorical_panel.h"
#include "ui/panels/input_guard.h"
#include "ui/views/kernel_comparison_view.h"
#include "ui/views/matrices_view.h"
#include "ui/views/schedule_view.h"
#include "ui/views/step_cost_view.h"
#include "tests/support/test_support.h"

using ui::document::CategoricalParams;

namespace {

// Distinct colours in a coarse sample of the widget: a blank view has one or two.
int distinctColours(QWidget* widget) {
    widget->resize(900, 600);
    QImage image(widget->size(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    widget->render(&painter);
    painter.end();
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 5) {
        for (int x = 0; x < image.width(); x += 5) {
            colours.insert(image.pixel(x, y) & 0xF0F0F0);
        }
    }
    return static_cast<int>(colours.size());
}

}  // namespace

namespace {
// A view's CSV: the header block (view, what it was computed from, the program), then one
// table whose records all have the header's width.
void expectOneTable(const std::string& text, const QString& title, const char* provenance) {
    const test_support::CsvRecords csv = test_support::readCsvRecords(text);
    QVERIFY2(!csv.comments.empty() && csv.comments.front() == "view: " + title.toStdString(),
             qPrintable(QString::fromStdString(text.substr(0, 200))));
    QVERIFY(std::any_of(csv.comments.begin(), csv.comments.end(),
                        [&](const std::string& c) { return c.rfind(provenance, 0) == 0; }));
    QVERIFY(csv.comments.back().rfind("program: Diffuscope", 0) == 0);
    QVERIFY(csv.records.size() >= 2);
    for (const auto& record : csv.records) {
        QCOMPARE(record.size(), csv.records.front().size());
    }
}
}  // namespace

class tst_CategoricalExplorer : public QObject {
    Q_OBJECT

private slots:
    void scheduleViewShowsTheCoreCurves();
    void kernelViewMatchesExactPropagation();
    void matricesHoverShowsTheFormula();
    void chainsFollowTheTrajectory();
    void dpTrajectoryArrivesFromTheJob();
    void everyViewRendersSomething();
    void exportsDecode();
    void aFrameSequenceIsReplacedWhole();
    void panelEditsAndUndo();
    void panelRefusesBadInput();
    void panelInputCannotSurprise();
    void maskedPresetAddsAMaskState();
    void cancelLeavesTheUiUsable();
    void mainWindowOpensWithTheExample();
    void everyShortcutIsBoundOnce();
    void theExplanationPrintsNumbersForPeople();
    void imageChainsAreExplainedAsImages();
    void kIsTheNumberOfClassesOnly();
    void theTimeBarFollowsANewProjectAtOnce();
    void digitsReverseChainsEndOnTrainingImages();
    void tableFileWithTwoPositions();
    void maskStateAddsAClassAndTheContinuousElbo();
    void allConditionsIsAChoice();
};

void tst_CategoricalExplorer::scheduleViewShowsTheCoreCurves() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    const auto setup = explorer.setup();
    const auto expected =
        core::categorical::informationCurves(setup->table, setup->pi, setup->grid, 0);
    const auto& data = explorer.scheduleView()->data();
    QCOMPARE(data.header[3], std::string("mutual_information_bits"));
    for (size_t n = 0; n < expected.t.size(); ++n) {
        QCOMPARE(data.columns[1][n], expected.beta[n]);
        DS_COMPARE_ABS(data.columns[3][n], expected.mutualInformation[n] / std::log(2.0), 1e-15);
        QCOMPARE(data.columns[4][n], expected.impurity[n]);
    }
    // The curve on screen is the same numbers.
    const auto series = explorer.scheduleView()->chart()->series();
    auto* info = qobject_cast<QLineSeries*>(series.at(4));
    QVERIFY(info != nullptr);
    QCOMPARE(info->count(), static_cast<int>(expected.t.size()));
    DS_COMPARE_ABS(info->at(0).y(), expected.mutualInformation[0] / std::log(2.0), 1e-12);
}

void tst_CategoricalExplorer::kernelViewMatchesExactPropagation() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    const auto setup = explorer.setup();
    const auto grid = core::categorical::subGrid(setup->grid, explorer.trajectory());
    const auto d3pm = core::categorical::reverseMarginals(
        *setup->oracle, 0, 0, setup->pi, grid, core::categorical::KernelForm::D3pm);
    QVERIFY(d3pm.ok());
    const double kl = core::categorical::klDivergence(setup->dataMarginal, d3pm->front());
    QCOMPARE(explorer.kernelView()->klD3pm(), kl);
    QVERIFY(kl > 1e-3);                                 // the D3PM-style kernel misses the data
    QVERIFY(explorer.kernelView()->klClosed() < 1e-12);  // the closed form does not
}

void tst_CategoricalExplorer::matricesHoverShowsTheFormula() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    explorer.matricesView()->setStep(30, 60);
    const QString forward = explorer.matricesView()->forwardFormula(1, 2);
    const double betaT = explorer.setup()->grid.beta[60];
    QVERIFY2(forward.contains(QString::number(betaT, 'g', 6)), qPrintable(forward));
    const QString reverse = explorer.matricesView()->reverseFormula(2, 2);
    QVERIFY2(reverse.contains("closed form"), qPrintable(reverse));
    QVERIFY(reverse.contains(QString::number(explorer.matricesView()->reverseMatrix()(2, 2), 'g', 6)));
    // Every row of Q is a probability vector.
    const core::Matrix& q = explorer.matricesView()->reverseMatrix();
    for (int j = 0; j < q.rows(); ++j) {
        DS_COMPARE_ABS(q.row(j).sum(), 1.0, 1e-12);
    }
}

void tst_CategoricalExplorer::chainsFollowTheTrajectory() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    const auto chains = explorer.chains();
    QVERIFY(chains != nullptr);
    const auto& p = document.categorical();
    QCOMPARE(chains->nodes, explorer.trajectory());
    QCOMPARE(chains->forward.size(), explorer.trajectory().size());
    for (const auto& frame : chains->reverse) {
        QCOMPARE(static_cast<int>(frame.size()), p.numChains);
    }
    // Scrubbing never recomputes: the same frames object serves every position.
    explorer.setPosition(3.5);
    explorer.setPosition(1.0);
    QCOMPARE(explorer.chains(), chains);
    // Reverse playback: one step in, the chains sit at the last-but-one trajectory node.
    QCOMPARE(explorer.chainsView()->currentFrame(), explorer.chainsView()->numSteps() - 1);
}

void tst_CategoricalExplorer::dpTrajectoryArrivesFromTheJob() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    CategoricalParams p = document.categorical();
    p.trajectory = ui::document::CategoricalTrajectory::Dp;
    p.kernel = core::categorical::KernelForm::D3pm;  // costs differ between paths
    p.pathSteps = 5;
    p.numSteps = 40;
    QVERIFY(document.setCategorical(p, "DP").ok());
    explorer.waitForJobs();
    const auto costs = explorer.costs();
    QVERIFY(costs != nullptr);
    QCOMPARE(explorer.trajectory(), costs->dpNodes);
    QCOMPARE(explorer.chains()->nodes, costs->dpNodes);
    QVERIFY(costs->elboDp <= costs->elboEven + 1e-12);
    QVERIFY2(explorer.stepCostView()->message().contains("DP 5 steps"),
             qPrintable(explorer.stepCostView()->message()));
}

void tst_CategoricalExplorer::everyViewRendersSomething() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    explorer.setPosition(4.0);
    for (auto& [name, view] : explorer.views()) {
        const int colours = distinctColours(view);
        QVERIFY2(colours > 8, qPrintable(QString("%1 has only %2 colours").arg(name).arg(colours)));
    }
}

void tst_CategoricalExplorer::exportsDecode() {
    QTemporaryDir dir;
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    for (auto& [name, view] : explorer.views()) {
        // Without a mask state the Decoding view has nothing to export (tst_decoding_view).
        if (name == "decoding") continue;
        const QString png = dir.filePath(name + ".png");
        QCOMPARE(ui::charts::exportWidget(view, png, {.size = {800, 500}}), QString());
        QCOMPARE(QImage(png).size(), QSize(800, 500));
        QCOMPARE(view->exportCsv(dir.filePath(name + ".csv")), QString());
        QVERIFY(QFile(dir.filePath(name + ".csv")).size() > 20);
        expectOneTable(*view->csvText(), view->title(), "schedule: ");
    }
    const QString gif = dir.filePath("trajectories.gif");
    const ui::animation::AnimationSource chains = ui::animation::chainsAnimation(explorer.chainsView());
    const ui::animation::AnimationExportOptions options{
        .size = {400, 260}, .framesPerStep = 2, .fps = 20, .holdLastMs = 2000};
    QCOMPARE(ui::animation::exportAnimationGif(chains, gif, options), QString());
    QImageReader reader(gif);
    QVERIFY(reader.canRead());
    QCOMPARE(reader.format(), QByteArray("gif"));
    const int expectedFrames = static_cast<int>(explorer.trajectory().size() - 1) * 2 + 1;
    QCOMPARE(reader.imageCount(), expectedFrames);
    QCOMPARE(ui::animation::animationLength(chains, options).frames, expectedFrames);
    // 20 frames/s is 5/100 s a frame; the last one stays 2 s longer.
    QList<int> delays;
    for (int f = 0; f < expectedFrames; ++f) {
        QImage image = reader.read();  // in order: the GIF reader cannot jump
        QCOMPARE(image.size(), QSize(400, 260));
        delays << reader.nextImageDelay();
    }
    QVERIFY2(delays.first() == 50 && delays[expectedFrames / 2] == 50, qPrintable(QString::number(delays.first())));
    QCOMPARE(delays.last(), 50 + 2000);
    QCOMPARE(ui::animation::animationLength(chains, options).seconds, (expectedFrames * 5 + 200) / 100.0);
    // The sequence holds the last frame by repeating it: 2 s at 20 frames/s is 40 more files.
    QCOMPARE(ui::animation::exportAnimationFrames(
                 chains, dir.filePath("frame"),
                 {.size = {200, 120}, .framesPerStep = 1, .fps = 20, .holdLastMs = 2000}),
             QString());
    const int sequence = static_cast<int>(explorer.trajectory().size() - 1) + 1 + 40;
    const auto frame = [&dir](int i) {
        return dir.filePath(QString("frame_%1.png").arg(i, 4, 10, QChar('0')));
    };
    QVERIFY(!QImage(frame(0)).isNull());
    QVERIFY(!QImage(frame(sequence - 1)).isNull());
    QVERIFY(!QFile::exists(frame(sequence)));
    QCOMPARE(QImage(frame(sequence - 1)), QImage(frame(sequence - 41)));
    // Cancelled after 3 frames: nothing written, the view back where it was.
    explorer.setPosition(1.0);
    int calls = 0;
    QCOMPARE(ui::animation::exportAnimationGif(chains, dir.filePath("cancelled.gif"), options,
                                               [&calls](int, int) { return ++calls < 3; }),
             QString("cancelled"));
    QCOMPARE(calls, 3);
    QVERIFY(!QFile::exists(dir.filePath("cancelled.gif")));
    QCOMPARE(explorer.chainsView()->position(), 1.0);
    // Options out of range are refused naming the value.
    QVERIFY(ui::animation::checkAnimationOptions(chains, {.fps = 0}).contains("frame rate 0"));
    QVERIFY(ui::animation::checkAnimationOptions(chains, {.framesPerStep = 31}).contains("31"));
    QVERIFY(ui::animation::checkAnimationOptions(chains, {.holdLastMs = -1}).contains("-1"));
    // Refused before any frame is kept: 10 steps × 30 frames of 4096² pixels is over 1 GiB.
    // The refusal gives the arithmetic: frames · width · height · 1 byte = the bytes.
    const QString big =
        ui::animation::checkAnimationOptions(chains, {.size = {4096, 4096}, .framesPerStep = 30});
    QVERIFY2(big.contains("frames of 4096x4096 pixels: the GIF writer holds"), qPrintable(big));
    QVERIFY2(big.contains("·4096·4096·1 bytes = ") && big.contains("over the 1 GiB"),
             qPrintable(big));
    QVERIFY(ui::animation::checkAnimationOptions(chains, {.framesPerStep = 30, .holdLastMs = 20000})
                .isEmpty() == (ui::animation::animationLength(chains, {.framesPerStep = 30}).frames +
                                   500 <= ui::animation::kMaxAnimationFrames));
}

// A PNG sequence replaces the previous sequence of its name as a whole: a cancelled export (the
// GUI's Cancel) or a failed one leaves the previous frames exactly as they were, with nothing
// beside them; a shorter one leaves no stale frames past its end.
void tst_CategoricalExplorer::aFrameSequenceIsReplacedWhole() {
    QTemporaryDir dir;
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    const ui::animation::AnimationSource chains = ui::animation::chainsAnimation(explorer.chainsView());
    const QString prefix = dir.filePath("frame");
    const auto listing = [&dir] {
        QMap<QString, QByteArray> files;
        for (const QString& name : QDir(dir.path()).entryList(
                 QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)) {
            QFile file(dir.filePath(name));
            files.insert(name, file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("?"));
        }
        return files;
    };
    const int steps = chains.steps;
    QVERIFY(steps > 3);
    QCOMPARE(ui::animation::exportAnimationFrames(
                 chains, prefix, {.size = {200, 120}, .framesPerStep = 1, .fps = 20, .holdLastMs = 1000}),
             QString());
    const QMap<QString, QByteArray> first = listing();
    QCOMPARE(first.size(), steps + 1 + 20);
    // Another size, cancelled after 3 frames: the previous frames are untouched.
    int calls = 0;
    QCOMPARE(ui::animation::exportAnimationFrames(
                 chains, prefix, {.size = {160, 100}, .framesPerStep = 1, .fps = 20, .holdLastMs = 0},
                 [&calls](int, int) { return ++calls < 3; }),
             QString("cancelled"));
    QCOMPARE(listing(), first);
    // A frame that cannot be written (its name taken by a folder): the same.
    const QString blocked = ui::animation::animationFrameName(prefix, 2);
    QVERIFY(QFile::remove(blocked));
    QVERIFY(QDir().mkdir(blocked));
    QMap<QString, QByteArray> withFolder = listing();
    const QString error = ui::animation::exportAnimationFrames(
        chains, prefix, {.size = {160, 100}, .framesPerStep = 1, .fps = 20, .holdLastMs = 0});
    QVERIFY2(error.contains(blocked) && error.contains("folder"), qPrintable(error));
    QCOMPARE(listing(), withFolder);
    QVERIFY(QDir().rmdir(blocked));
    // Shorter, without the hold: exactly steps + 1 frames, all of the new size.
    QCOMPARE(ui::animation::exportAnimationFrames(
                 chains, prefix, {.size = {160, 100}, .framesPerStep = 1, .fps = 20, .holdLastMs = 0}),
             QString());
    const QMap<QString, QByteArray> last = listing();
    QCOMPARE(last.size(), steps + 1);
    for (int i = 0; i <= steps; ++i) {
        const QString name = QFileInfo(ui::animation::animationFrameName(prefix, i)).fileName();
        QVERIFY2(last.contains(name), qPrintable(name));
        QCOMPARE(QImage::fromData(last.value(name)).size(), QSize(160, 100));
    }
}

void tst_CategoricalExplorer::panelEditsAndUndo() {
    ui::document::ProjectDocument document;
    ui::jobs::JobRunner files;  // what the explorer owns in the window
    ui::panels::CategoricalPanel panel(&document, &files);
    const CategoricalParams before = document.categorical();
    panel.editPiText("0.25, 0.25, 0.25, 0.25");
    QCOMPARE(document.categorical().pi, (std::vector<double>{0.25, 0.25, 0.25, 0.25}));
    panel.editTableCell(0, 1, "0.3");  // column 1 no longer sums to 1: refused
    QVERIFY(!panel.fieldError("table").isEmpty());
    panel.editTrajectoryList("0, 10, 55, 100");
    QCOMPARE(document.categorical().trajectoryList, (std::vector<int>{0, 10, 55, 100}));
    QCOMPARE(document.undoStack()->count(), 2);
    document.undoStack()->undo();
    document.undoStack()->undo();
    QVERIFY(document.categorical() == before);
}

void tst_CategoricalExplorer::panelRefusesBadInput() {
    ui::document::ProjectDocument document;
    ui::jobs::JobRunner files;  // what the explorer owns in the window
    ui::panels::CategoricalPanel panel(&document, &files);
    const CategoricalParams before = document.categorical();
    panel.editPiText("0.5, 0.2, 0.2, 0.2");
    QVERIFY2(panel.fieldError("pi").contains("sum"), qPrintable(panel.fieldError("pi")));
    panel.editPiText("0.5, abc, 0.2, 0.2");
    QVERIFY2(panel.fieldError("pi").contains("pi[1]"), qPrintable(panel.fieldError("pi")));
    panel.editPiText("0.5, 0.5");
    QVERIFY2(panel.fieldError("pi").contains("K = 4"), qPrintable(panel.fieldError("pi")));
    panel.editTrajectoryList("0, 50, 40, 100");
    QVERIFY2(panel.fieldError("trajectory").contains("trajectoryList[2]"),
             qPrintable(panel.fieldError("trajectory")));
    QVERIFY(document.categorical() == before);
    QCOMPARE(document.undoStack()->count(), 0);
}

namespace {
// One notch of the wheel over the middle of `widget`.
void wheel(QWidget* widget, int notches) {
    const QPointF centre(widget->width() / 2.0, widget->height() / 2.0);
    QWheelEvent event(centre, widget->mapToGlobal(centre), QPoint(), QPoint(0, 120 * notches),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}
}  // namespace

// The wheel and the navigation keys change only a field the user clicked; a wheel gesture is
// one undo step; π typed as weights is offered "normalise" instead of a bare refusal.
void tst_CategoricalExplorer::panelInputCannotSurprise() {
    ui::document::ProjectDocument document;
    ui::jobs::JobRunner files;  // what the explorer owns in the window
    ui::panels::CategoricalPanel panel(&document, &files);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto* k = panel.findChild<QSpinBox*>("numClasses");
    auto* source = panel.findChild<QComboBox*>("dataSource");
    QVERIFY(k != nullptr && source != nullptr);
    const int k0 = document.categorical().numClasses;

    // Scrolling the panel over a field leaves it alone, focused or not.
    wheel(k, 1);
    QCOMPARE(document.categorical().numClasses, k0);
    source->setFocus();
    QTest::keyClick(source, Qt::Key_End);
    QTest::keyClick(source, Qt::Key_Down);
    QCOMPARE(document.categorical().dataSource, ui::document::CategoricalData::Table);
    QCOMPARE(document.undoStack()->count(), 0);

    // Clicked, the wheel steps it, and three notches are one undo step.
    QTest::mouseClick(k->findChild<QLineEdit*>(), Qt::LeftButton);
    wheel(k, 1);
    wheel(k, 1);
    wheel(k, 1);
    QCOMPARE(document.categorical().numClasses, k0 + 3);
    QCOMPARE(document.undoStack()->count(), 1);
    // After a pause the next notch is a new step.
    QTest::qWait(ui::panels::InputGuard::kGestureEndMs + 200);
    wheel(k, -1);
    QCOMPARE(document.categorical().numClasses, k0 + 2);
    QCOMPARE(document.undoStack()->count(), 2);
    document.undoStack()->undo();
    document.undoStack()->undo();
    QCOMPARE(document.categorical().numClasses, k0);

    // Weights that do not sum to 1: the reason and a "normalise" link, the typed sum shown.
    panel.editPiText("2, 1, 1, 1");
    QVERIFY2(panel.fieldError("pi").contains("sum to 5") &&
                 panel.fieldError("pi").contains("normalise"),
             qPrintable(panel.fieldError("pi")));
    QCOMPARE(document.undoStack()->count(), 2);  // nothing applied yet (the two undone steps)
    panel.normaliseTypedPi();
    QCOMPARE(document.categorical().pi, (std::vector<double>{0.4, 0.2, 0.2, 0.2}));
    QCOMPARE(panel.fieldError("pi"), QString());
}

// The "Masked" π preset gives the process a mask state of its own (class K, unused by the
// data); editing π again returns to K classes.
void tst_CategoricalExplorer::maskedPresetAddsAMaskState() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    ui::jobs::JobRunner files;  // what the explorer owns in the window
    ui::panels::CategoricalPanel panel(&document, &files);
    const int k = document.categorical().numClasses;
    QAction* masked = nullptr;
    for (QAction* action : panel.findChildren<QAction*>()) {
        if (action->text().startsWith("Masked")) masked = action;
    }
    QVERIFY(masked != nullptr);
    masked->trigger();
    QVERIFY(document.categorical().maskState);
    explorer.waitForJobs();
    QCOMPARE(explorer.setup()->numClasses(), k + 1);
    QCOMPARE(explorer.setup()->pi[k], 1.0);
    panel.editPiText("0.25, 0.25, 0.25, 0.25");
    QVERIFY(!document.categorical().maskState);
    explorer.waitForJobs();
    QCOMPARE(explorer.setup()->numClasses(), k);
}

void tst_CategoricalExplorer::cancelLeavesTheUiUsable() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    CategoricalParams p = document.categorical().withNumClasses(30);
    p.numSteps = 400;  // a cost matrix of a few seconds
    p.trajectory = ui::document::CategoricalTrajectory::Dp;
    QVERIFY(document.setCategorical(p, "big").ok());
    QSignalSpy cancelled(explorer.costRunner(), &ui::jobs::JobRunner::cancelled);
    QTest::qWait(150);  // the coalescing timer fires and the job starts
    QVERIFY(explorer.costRunner()->isRunning());
    explorer.cancelJobs();
    QVERIFY(cancelled.wait(5000));
    // Still usable: a smaller edit computes to the end.
    p.numSteps = 30;
    p.pathSteps = 5;
    QVERIFY(document.setCategorical(p, "small").ok());
    explorer.waitForJobs();
    QVERIFY(explorer.costs() != nullptr);
    QCOMPARE(explorer.trajectory().size(), size_t{6});
}

void tst_CategoricalExplorer::everyShortcutIsBoundOnce() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    window.explorer()->waitForJobs();
    // A key bound twice is ambiguous ("QAction::event: Ambiguous shortcut overload"): neither
    // action runs. Walk every action of the window, menus included.
    std::map<QString, QString> owner;
    QStringList duplicates;
    QAction* redo = nullptr;
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text().contains("Redo") || action->text().contains("やり直")) redo = action;
        for (const QKeySequence& key : action->shortcuts()) {
            const QString name = key.toString();
            if (name.isEmpty()) continue;
            auto [it, inserted] = owner.emplace(name, action->text());
            if (!inserted) duplicates << name + " (" + it->second + ", " + action->text() + ")";
        }
    }
    QVERIFY2(duplicates.isEmpty(), qPrintable(duplicates.join("; ")));
    QVERIFY(redo != nullptr);
    QVERIFY(redo->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
    QVERIFY(redo->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Y)));
    // The View menu shows the tab's "&" as an "&", not as a mnemonic.
    for (QMenu* menu : window.findChildren<QMenu*>()) emit menu->aboutToShow();
    int schedule = 0;
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text().startsWith("Schedule")) {
            QCOMPARE(action->text(), QString("Schedule && information"));
            ++schedule;
        }
    }
    QVERIFY(schedule > 0);
}

// π as three thirds of 0.9 and so on: the CSV keeps every digit, the Explanation's "Now" list
// and the π field show what a person typed.
void tst_CategoricalExplorer::theExplanationPrintsNumbersForPeople() {
    ui::document::ProjectDocument document;
    CategoricalParams p = document.categorical();
    p.numClasses = 4;
    p.pi = {0.1 + 0.2, 0.9 * 0.25, 0.05 * 3.0, 1.0 - (0.1 + 0.2) - 0.9 * 0.25 - 0.05 * 3.0};
    QVERIFY(document.setCategorical(p, "pi").ok());
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    ui::ExplanationPane pane;
    pane.setViews(explorer.views());
    QString html = pane.html();
    html.remove(QRegularExpression("<[^>]*>"));
    QVERIFY2(html.contains("pi: 0.3 0.225 0.15 "), qPrintable(html));
    QVERIFY2(!html.contains("0.30000000000000004") && !html.contains("0.15000000000000002"), qPrintable(html));
    // Files keep every digit.
    const auto csv = explorer.views().front().second->csvText();
    QVERIFY(csv);
    QVERIFY2(QString::fromStdString(*csv).contains("0.30000000000000004"), csv->c_str());
}

// Chains of one position are lanes and dots; chains of 64 positions are drawn as digit tiles
// and explained as such (the lanes-and-dots words were shown beside the tiles).
void tst_CategoricalExplorer::imageChainsAreExplainedAsImages() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    ui::ExplanationPane pane;
    pane.setViews(explorer.views());
    QVERIFY(pane.html().contains("Each lane is one class"));
    QVERIFY(!pane.html().contains("Trajectories (images)"));
    document.loadExample(ui::document::examples().at(1).project);  // the 8×8 digits
    explorer.waitForJobs();
    QVERIFY(pane.html().contains("Trajectories (images)"));
    QVERIFY(!pane.html().contains("Each lane is one class"));
    // A subscript with no Unicode character of its own is a subscript, not code.
    QVERIFY(!pane.html().contains("x_"));
}

// K is the number of classes, nowhere the number of steps: every label, tab, header and
// tooltip of the window that says K speaks of classes (the class count's own label "K").
void tst_CategoricalExplorer::kIsTheNumberOfClassesOnly() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    window.explorer()->waitForJobs();
    static const QRegularExpression k(R"((^|[^\w])K([^\w]|$))");
    QStringList offending;
    const auto check = [&](const QString& where, const QString& text) {
        if (!k.match(text).hasMatch()) return;
        if (text == "K" || text.contains("classes") || text.contains("class")) return;
        offending << where + ": " + text;
    };
    for (QWidget* w : window.findChildren<QWidget*>()) {
        check("tooltip", w->toolTip());
        if (auto* label = qobject_cast<QLabel*>(w)) check("label", label->text());
        if (auto* button = qobject_cast<QAbstractButton*>(w)) check("button", button->text());
    }
    for (QAction* a : window.findChildren<QAction*>()) check("action", a->text());
    for (int i = 0; i < window.tabs()->count(); ++i) check("tab", window.tabs()->tabText(i));
    QVERIFY2(offending.isEmpty(), qPrintable(offending.join('\n')));
}

// Another project with more steps: the time bar says so at once, before any job is done (it
// used to read "step 10 of K = 10" while the panel said 50).
void tst_CategoricalExplorer::theTimeBarFollowsANewProjectAtOnce() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    window.explorer()->waitForJobs();
    ui::document::Project project = window.document()->project();
    project.categorical.pathSteps = 50;
    window.document()->loadExample(project);
    QString label;
    for (QLabel* l : window.timeBar()->findChildren<QLabel*>()) {
        if (l->text().startsWith("step ")) label = l->text();
    }
    QVERIFY2(label.endsWith("of 50"), qPrintable(label));
    window.explorer()->waitForJobs();
}

void tst_CategoricalExplorer::mainWindowOpensWithTheExample() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.explorer()->waitForJobs();
    QCOMPARE(window.tabs()->count(), 5);
    QCOMPARE(window.document()->categorical().numClasses, 4);
    window.timeBar()->setPosition(2.0);
    QCOMPARE(window.explorer()->chainsView()->position(), 2.0);
    // An edit is autosaved as a recovery copy, which a new window offers back.
    CategoricalParams p = window.document()->categorical();
    p.numSteps = 77;
    QVERIFY(window.document()->setCategorical(p, "edit").ok());
    window.autosave();
    QVERIFY(QFile::exists(window.recoveryPath()));
    ui::document::ProjectDocument recovered;
    QVERIFY(recovered.open(window.recoveryPath()).ok());
    QCOMPARE(recovered.categorical().numSteps, 77);

    // File ▸ Open reads in the background: the project changes only when the read is done.
    const QString saved = dir.filePath("saved.diffuscope.json");
    QVERIFY(window.document()->saveAs(saved).ok());
    p.numSteps = 55;
    QVERIFY(window.document()->setCategorical(p, "edit").ok());
    window.openFileInBackground(saved);
    QCOMPARE(window.document()->categorical().numSteps, 55);
    window.fileRunner()->waitForFinished();
    QCOMPARE(window.document()->categorical().numSteps, 77);
    QCOMPARE(window.document()->filePath(), saved);
    QVERIFY(!window.document()->isModified());
}

// With the exact (memorising) oracle of the training images, reverse chains end on training
// images of the requested label: at t_1 = 0.04 of a cosine schedule β ≈ 0.004, so the posterior
// over images is all but certain. 90% is a loose bound for 40 chains (observed: all of them).
void tst_CategoricalExplorer::digitsReverseChainsEndOnTrainingImages() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    CategoricalParams p = document.categorical().withDigits(4);
    p.numSteps = 50;
    p.pathSteps = 25;
    p.numChains = 40;
    p.condition = 3;
    QVERIFY(document.setCategorical(p, "digits").ok());
    explorer.waitForJobs();
    const auto setup = explorer.setup();
    QCOMPARE(setup->numPositions(), 64);
    const auto chains = explorer.chains();
    QVERIFY(chains != nullptr);
    QCOMPARE(chains->numPositions, 64);
    const std::vector<int>& final = chains->reverse.front();
    QCOMPARE(static_cast<int>(final.size()), 40 * 64);
    std::set<std::vector<int>> threes;
    for (int r = 0; r < setup->table.numRows(); ++r) {
        if (setup->table.condition[r] == 3) {
            threes.insert(std::vector<int>(setup->table.row(r), setup->table.row(r) + 64));
        }
    }
    int matches = 0;
    for (int b = 0; b < 40; ++b) {
        matches += threes.count(std::vector<int>(final.begin() + b * 64, final.begin() + (b + 1) * 64));
    }
    QVERIFY2(matches >= 36, qPrintable(QString("%1 of 40 chains end on a training 3").arg(matches)));
    // The step costs are Monte Carlo estimates and the DP is refused, not faked.
    QVERIFY(explorer.costs() != nullptr);
    QVERIFY(!explorer.costs()->dpAvailable);
    QVERIFY(explorer.stepCostView()->message().contains("Monte Carlo"));
    QVERIFY(distinctColours(explorer.chainsView()) > 2);
}

// A CSV table with D = 2: exact costs by enumeration, a DP path, per-position views.
void tst_CategoricalExplorer::tableFileWithTwoPositions() {
    QTemporaryDir dir;
    const QString path = dir.filePath("joint.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("x1,x2,p\n0,0,0.4\n1,1,0.3\n2,2,0.2\n0,2,0.1\n");
    file.close();
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    ui::jobs::JobRunner files;  // what the explorer owns in the window
    ui::panels::CategoricalPanel panel(&document, &files);
    CategoricalParams p = document.categorical().withNumClasses(3);
    p.pi = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    p.numSteps = 20;
    p.pathSteps = 5;
    p.trajectory = ui::document::CategoricalTrajectory::Dp;
    QVERIFY(document.setCategorical(p, "K = 3").ok());
    explorer.waitForJobs();
    const auto tableSetup = explorer.setup();
    QVERIFY(!explorer.setupRunner()->isRunning());
    panel.chooseCsvFile(path);
    QCOMPARE(panel.fieldError("table"), QString());
    QCOMPARE(document.categorical().dataSource, ui::document::CategoricalData::CsvFile);
    // The table file is read by the set-up job, not on the GUI thread: until it has run, the
    // views keep the previous set-up.
    QVERIFY(explorer.setupRunner()->isRunning());
    QCOMPARE(explorer.setup(), tableSetup);
    explorer.waitForJobs();
    QVERIFY(explorer.setup()->params == document.categorical());
    QCOMPARE(explorer.setup()->numPositions(), 2);
    QVERIFY(explorer.costs()->dpAvailable);
    QCOMPARE(explorer.trajectory(), explorer.costs()->dpNodes);
    QVERIFY(explorer.costs()->elboDp <= explorer.costs()->elboEven + 1e-12);
    // A missing file is refused with its name, and the document keeps the working table.
    panel.chooseCsvFile(dir.filePath("missing.csv"));
    QVERIFY(panel.fieldError("table").contains("missing.csv"));
    QCOMPARE(QString::fromStdString(document.categorical().csvPath), path);

    // The file dialog's path is read in the background: the same refusal when it arrives …
    panel.chooseCsvFileInBackground(dir.filePath("gone.csv"));
    QVERIFY(panel.fileRunner()->isRunning());
    panel.fileRunner()->waitForFinished();
    QVERIFY(panel.fieldError("table").contains("gone.csv"));
    // … and an edit made while the file is read wins: the stale result is dropped.
    QVERIFY(document.setCategorical(p, "back to the table").ok());
    const QString other = dir.filePath("other.csv");
    QVERIFY(QFile::copy(path, other));
    panel.chooseCsvFileInBackground(other);
    CategoricalParams edited = document.categorical();
    edited.numSteps = 21;
    QVERIFY(document.setCategorical(edited, "edit meanwhile").ok());
    panel.fileRunner()->waitForFinished();
    QCOMPARE(document.categorical().numSteps, 21);
    QVERIFY(document.categorical().csvPath != other.toStdString());
}

// The project's mask state: K + 1 classes in every view (the chains' lanes, the matrices), and the
// Step costs view states the continuous-time negative ELBO with the N-step ones beside it.
void tst_CategoricalExplorer::maskStateAddsAClassAndTheContinuousElbo() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    CategoricalParams p = document.categorical();
    p.maskState = true;
    p.numSteps = 20;
    p.pathSteps = 5;
    QVERIFY(document.setCategorical(p, "mask state").ok());
    explorer.waitForJobs();
    QCOMPARE(explorer.setup()->numClasses(), 5);
    QCOMPARE(explorer.chains()->forwardMarginals.front().size(), Eigen::Index{5});
    const QString message = explorer.stepCostView()->message();
    QVERIFY2(message.contains("continuous-time negative ELBO (N → ∞) 1.142120 nats") &&
                 message.contains("N = 1000: 1.142120"),
             qPrintable(message));
    explorer.setPosition(2.0);
    for (auto& [name, view] : explorer.views()) {
        QVERIFY2(distinctColours(view) > 8, qPrintable(name));
    }
}

// "all, averaged", the item after the conditions: the set-up averages the conditions' data, the
// views that need one condition say so, and no condition is removed while it is chosen.
void tst_CategoricalExplorer::allConditionsIsAChoice() {
    ui::document::ProjectDocument document;
    ui::CategoricalExplorer explorer(&document);
    ui::jobs::JobRunner files;  // what the explorer owns in the window
    ui::panels::CategoricalPanel panel(&document, &files);
    auto* condition = panel.findChild<QComboBox*>("condition");
    QVERIFY(condition != nullptr);
    const int names = static_cast<int>(document.categorical().conditionNames.size());
    QCOMPARE(condition->count(), names + 1);
    condition->setCurrentIndex(names);
    QCOMPARE(document.categorical().condition, core::project::kAllConditions);
    explorer.waitForJobs();
    const auto setup = explorer.setup();
    QCOMPARE(setup->params.condition, core::project::kAllConditions);
    const auto& table = document.categorical().table;
    for (int k = 0; k < setup->numClasses(); ++k) {
        DS_COMPARE_ABS(setup->dataMarginal[k], (table[0][k] + table[1][k]) / 2.0, 1e-15);
    }
    QVERIFY(explorer.costs() != nullptr);
    QVERIFY2(explorer.matricesView()->message().contains("one condition"),
             qPrintable(explorer.matricesView()->message()));
    QVERIFY2(explorer.kernelView()->message().contains("one condition"),
             qPrintable(explorer.kernelView()->message()));
    QVERIFY2(explorer.scheduleView()->message().contains("all, averaged"),
             qPrintable(explorer.scheduleView()->message()));
    QPushButton* remove = nullptr;
    for (auto* button : panel.findChildren<QPushButton*>()) {
        if (button->text() == "Remove") remove = button;
    }
    QVERIFY(remove != nullptr);
    remove->click();
    QCOMPARE(static_cast<int>(document.categorical().table.size()), names);
    QVERIFY(!panel.fieldError("table").isEmpty());
    condition->setCurrentIndex(1);
    QCOMPARE(document.categorical().condition, 1);
    explorer.waitForJobs();
    QVERIFY(!explorer.matricesView()->message().contains("one condition"));
}

QTEST_MAIN(tst_CategoricalExplorer)
#include "tst_categorical_explorer.moc"
