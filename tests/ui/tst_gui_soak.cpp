// SPDX-License-Identifier: MIT
// The window used for a while as a person might, at random but reproducibly (a seed): every
// menu action, tab, example, lesson and dialog, numbers typed into the panels' fields, undo
// and redo, the process switch, presentation mode, the Train dialog started, cancelled and
// closed, a lab with Align Your Steps run, and idling past the 30 s after which Qt ends idle
// pooled threads. Fails on a crash (the test process dies), an assertion or sanitizer report
// (they abort it), and any Qt warning about threads. Every modal dialog that opens is answered
// by a watchdog after a random moment, with a random button.
//
// DIFFUSCOPE_SOAK_SECONDS sets the time (default 120), DIFFUSCOPE_SOAK_SEED the seed
// (default 1). A longer run in a real window, on one line:
//   DIFFUSCOPE_SOAK_SECONDS=1800 DIFFUSCOPE_SOAK_SEED=7 xvfb-run -a -s "-screen 0 1920x1080x24"
//       env QT_QPA_PLATFORM=xcb build/tests/tst_gui_soak
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMutex>
#include <QProgressDialog>
#include <QRandomGenerator>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <cstdlib>
#include <memory>

#include "ui/document/project_document.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/main/main_window.h"
#include "ui/training/train_dialog.h"

namespace {

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DIFFUSCOPE_SOAK_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define DIFFUSCOPE_SOAK_UNDER_ASAN 1
#endif
#ifdef DIFFUSCOPE_SOAK_UNDER_ASAN
constexpr qint64 kCancelLimitMs = 300000;
#else
constexpr qint64 kCancelLimitMs = 30000;
#endif

QMutex g_messagesMutex;
QStringList g_threadWarnings;
QtMessageHandler g_previousHandler = nullptr;

// Qt's warnings about objects used from the wrong thread (timers, children, pixmaps, sockets).
void recordThreadWarnings(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type != QtDebugMsg && type != QtInfoMsg && message.contains("thread", Qt::CaseInsensitive)) {
        QMutexLocker lock(&g_messagesMutex);
        g_threadWarnings << message;
    }
    if (g_previousHandler != nullptr) g_previousHandler(type, context, message);
}

int environmentNumber(const char* name, int fallback) {
    const char* value = std::getenv(name);
    bool ok = false;
    const int number = value != nullptr ? QString(value).toInt(&ok) : 0;
    return ok && number > 0 ? number : fallback;
}

// Answers every modal dialog, after a random 50–400 ms: a message box with one of its buttons,
// a file dialog or a progress dialog by cancelling, any other dialog by OK or Cancel.
class DialogWatchdog : public QObject {
public:
    explicit DialogWatchdog(QRandomGenerator* random) : m_random(random) {
        m_timer.setInterval(25);
        connect(&m_timer, &QTimer::timeout, this, [this] { look(); });
        m_timer.start();
    }
    int answered() const { return m_answered; }

private:
    void look() {
        QWidget* modal = QApplication::activeModalWidget();
        if (modal != m_seen) {
            m_seen = modal;
            m_since.start();
            m_wait = 50 + static_cast<int>(m_random->bounded(350));
            return;
        }
        if (modal == nullptr || m_since.elapsed() < m_wait) return;
        ++m_answered;
        m_seen = nullptr;
        if (auto* box = qobject_cast<QMessageBox*>(modal)) {
            const QList<QAbstractButton*> buttons = box->buttons();
            if (!buttons.isEmpty()) {
                buttons[static_cast<qsizetype>(m_random->bounded(buttons.size()))]->click();
                return;
            }
        }
        if (auto* progress = qobject_cast<QProgressDialog*>(modal)) {
            progress->cancel();
            return;
        }
        if (auto* dialog = qobject_cast<QDialog*>(modal)) {
            // A file dialog is never accepted: nothing is written outside the test's folder.
            if (qobject_cast<QFileDialog*>(dialog) == nullptr && m_random->bounded(2) == 0) {
                dialog->accept();
            } else {
                dialog->reject();
            }
            return;
        }
        modal->close();
    }

    QRandomGenerator* m_random;
    QTimer m_timer;
    QWidget* m_seen = nullptr;
    QElapsedTimer m_since;
    int m_wait = 0;
    int m_answered = 0;
};

}  // namespace

class tst_GuiSoak : public QObject {
    Q_OBJECT

private slots:
    void randomUseFindsNoCrashNorThreadWarning();

private:
    void step(ui::MainWindow& window);
    void typeIntoAField(ui::MainWindow& window);
    void chooseInABox(ui::MainWindow& window);
    void triggerAnAction(ui::MainWindow& window);
    void trainCancelClose(ui::MainWindow& window);
    void runAysLab(ui::MainWindow& window);
    void pause(int maxMs);

    QRandomGenerator m_random;
    QTemporaryDir m_dir;
    QStringList m_done;  // the steps taken, for the failure message
};

void tst_GuiSoak::pause(int maxMs) {
    QTest::qWait(static_cast<int>(m_random.bounded(maxMs + 1)));
}

// A number typed into a visible field of the window's panels, as a person types it: select
// all, type, Enter (within the field's range mostly, sometimes beyond it).
void tst_GuiSoak::typeIntoAField(ui::MainWindow& window) {
    QList<QAbstractSpinBox*> fields;
    for (QAbstractSpinBox* box : window.findChildren<QAbstractSpinBox*>()) {
        if (box->isVisible() && box->isEnabled() && box->window() == &window) fields << box;
    }
    if (fields.isEmpty()) return;
    QAbstractSpinBox* field = fields[static_cast<qsizetype>(m_random.bounded(fields.size()))];
    QString text;
    if (auto* spin = qobject_cast<QSpinBox*>(field)) {
        const int span = std::min(spin->maximum() - spin->minimum(), 2000);
        text = QString::number(spin->minimum() + static_cast<int>(m_random.bounded(span + 2)));
    } else {
        text = QString::number(m_random.generateDouble() * 2.0, 'f', 2);
    }
    m_done << "type " + text + " into " + field->objectName() + "/" + field->toolTip().left(40);
    field->setFocus();
    field->selectAll();
    QTest::keyClicks(field, text);
    QTest::keyClick(field, m_random.bounded(4) == 0 ? Qt::Key_Up : Qt::Key_Return);
}

void tst_GuiSoak::chooseInABox(ui::MainWindow& window) {
    QList<QComboBox*> boxes;
    for (QComboBox* box : window.findChildren<QComboBox*>()) {
        if (box->isVisible() && box->isEnabled() && box->count() > 1 && box->window() == &window) {
            boxes << box;
        }
    }
    if (boxes.isEmpty()) return;
    QComboBox* box = boxes[static_cast<qsizetype>(m_random.bounded(boxes.size()))];
    const int index = static_cast<int>(m_random.bounded(box->count()));
    m_done << QString("choose %1 in %2").arg(box->itemText(index), box->objectName());
    box->setCurrentIndex(index);
}

// Any action of the menus but Quit (examples, lessons, languages, exports, undo, …).
void tst_GuiSoak::triggerAnAction(ui::MainWindow& window) {
    QList<QAction*> actions;
    for (QMenu* menu : window.menuBar()->findChildren<QMenu*>()) {
        for (QAction* action : menu->actions()) {
            if (action->isSeparator() || action->menu() != nullptr || !action->isEnabled()) continue;
            if (action->shortcuts().contains(QKeySequence::Quit)) continue;
            actions << action;
        }
    }
    if (actions.isEmpty()) return;
    QAction* action = actions[static_cast<qsizetype>(m_random.bounded(actions.size()))];
    m_done << "menu " + action->text();
    action->trigger();
}

// The first crash met: train, cancel, close the dialog; then another example's view.
void tst_GuiSoak::trainCancelClose(ui::MainWindow& window) {
    m_done << "train, cancel, close";
    window.showTrainDialog();
    auto* train = window.findChild<ui::training::TrainDialog*>();
    if (train == nullptr) return;
    train->setOutputPath(m_dir.filePath("soak-model.safetensors"));
    train->start();
    pause(500);
    train->cancel();
    train->waitForFinished();
    train->close();
    window.document()->loadExample(ui::document::examples()[3].project);
    window.showView("gaussian-trajectory");
}

// The second: a lab with an Align Your Steps row, run.
void tst_GuiSoak::runAysLab(ui::MainWindow& window) {
    m_done << "lab with ays:sd15";
    window.document()->loadExample(ui::document::examples()[2].project);
    auto params = window.document()->gaussian();
    core::project::LabConfig ays;
    ays.name = "AYS";
    ays.trajectory = "ays:sd15";
    core::project::LabConfig even;
    even.name = "even";
    params.lab.configs = {even, ays};
    params.lab.ks = {5, 10};
    params.lab.qualitySamples = 100;
    if (window.document()->setGaussian(params, "soak lab").ok()) {
        window.showView("lab");
        window.gaussianExplorer()->runLab();
    }
}

void tst_GuiSoak::step(ui::MainWindow& window) {
    const int kind = static_cast<int>(m_random.bounded(100));
    if (kind < 25) {
        triggerAnAction(window);
    } else if (kind < 45) {
        QTabWidget* tabs = window.tabs();
        if (tabs != nullptr && tabs->count() > 0) {
            const int index = static_cast<int>(m_random.bounded(tabs->count()));
            m_done << "tab " + tabs->tabText(index);
            tabs->setCurrentIndex(index);
        }
    } else if (kind < 65) {
        typeIntoAField(window);
    } else if (kind < 75) {
        chooseInABox(window);
    } else if (kind < 82) {
        const int example = static_cast<int>(m_random.bounded(static_cast<int>(ui::document::examples().size())));
        m_done << QString("example %1").arg(example + 1);
        window.document()->loadExample(ui::document::examples()[static_cast<size_t>(example)].project);
    } else if (kind < 88) {
        m_done << "undo";
        window.document()->undoStack()->undo();
    } else if (kind < 91) {
        m_done << "redo";
        window.document()->undoStack()->redo();
    } else if (kind < 94) {
        const int process = static_cast<int>(m_random.bounded(2));
        m_done << QString("process %1").arg(process);
        window.showProcess(process);
    } else if (kind < 96) {
        const int lesson = 1 + static_cast<int>(m_random.bounded(9));
        m_done << QString("lesson %1").arg(lesson);
        window.loadLessonStep(lesson, 1 + static_cast<int>(m_random.bounded(3)));
    } else if (kind < 98) {
        m_done << "space (play)";
        QTest::keyClick(&window, Qt::Key_Space);
    } else {
        m_done << "resize";
        window.resize(1280 + static_cast<int>(m_random.bounded(640)),
                      720 + static_cast<int>(m_random.bounded(360)));
    }
    // Windows left open by a step (the Train dialog, Help ▸ Mathematics) are closed at times.
    if (m_random.bounded(10) == 0) {
        for (QWidget* top : QApplication::topLevelWidgets()) {
            if (top != &window && top->isVisible() && !top->isModal()) top->close();
        }
    }
}

void tst_GuiSoak::randomUseFindsNoCrashNorThreadWarning() {
    const int seconds = environmentNumber("DIFFUSCOPE_SOAK_SECONDS", 120);
    const int seed = environmentNumber("DIFFUSCOPE_SOAK_SEED", 1);
    m_random.seed(static_cast<quint32>(seed));
    g_previousHandler = qInstallMessageHandler(recordThreadWarnings);
    QVERIFY(m_dir.isValid());
    // Exports and saves that a dialog accepts land in the test's folder.
    QDir::setCurrent(m_dir.path());
    DialogWatchdog watchdog(&m_random);
    auto window = std::make_unique<ui::MainWindow>(nullptr, m_dir.filePath("recovery"));
    window->resize(1280, 720);
    window->show();

    QElapsedTimer clock;
    clock.start();
    const qint64 total = qint64{seconds} * 1000;
    // The scripted sequences first, then an idle past Qt's thread expiry at a third of the time
    // (at least 31 s when the run is long enough), random use in between and after.
    trainCancelClose(*window);
    runAysLab(*window);
    bool idled = false;
    int steps = 0;
    while (clock.elapsed() < total) {
        if (!idled && clock.elapsed() > total / 3 && total - clock.elapsed() > 35000) {
            idled = true;
            m_done << "idle 31 s";
            QTest::qWait(31000);
            runAysLab(*window);  // teams from threads that idled past the expiry
            continue;
        }
        step(*window);
        ++steps;
        pause(300);
    }
    // The end cancels whatever runs, as the status bar's Cancel does, and the small first
    // example replaces it: the end never waited for a long job a step had started (the U-Net's
    // Γ on the CPU ran on for minutes, the categorical example having left it alone).
    const qint64 loopEnd = clock.elapsed();
    window->explorer()->cancelJobs();
    window->gaussianExplorer()->cancelJobs();
    window->document()->loadExample(ui::document::examples()[0].project);
    window->explorer()->waitForJobs();
    window->gaussianExplorer()->waitForJobs();
    const qint64 endWait = clock.elapsed() - loopEnd;
    window->document()->undoStack()->setClean();  // closing asks nothing
    window.reset();
    qInstallMessageHandler(g_previousHandler);
    qInfo("soak: cancelled and ended in %lld ms", endWait);
    qInfo("soak: %d steps in %lld s (seed %d), %d dialogs answered", steps, clock.elapsed() / 1000,
          seed, watchdog.answered());
    // Cancel answers promptly (a network call in flight ends first): 2–4 s measured in Release,
    // 55 s under AddressSanitizer, which runs the U-Net's convolutions many times slower.
    QVERIFY2(endWait < kCancelLimitMs, qPrintable(QString("cancelling took %1 ms").arg(endWait)));
    QMutexLocker lock(&g_messagesMutex);
    QVERIFY2(g_threadWarnings.isEmpty(),
             qPrintable(g_threadWarnings.join("\n") + "\nafter: " + m_done.mid(m_done.size() - 10).join("; ")));
}

QTEST_MAIN(tst_GuiSoak)
#include "tst_gui_soak.moc"
