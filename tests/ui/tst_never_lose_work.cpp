// SPDX-License-Identifier: MIT
// Tests that no work is lost and nothing ends the program: saves and exports on a full disk
// keep the previous file; recovery copies are per instance, offered only when their owner
// died, and restored as untitled unsaved projects; devices and FIFOs are refused; an exception
// that escapes an event handler becomes a message.
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QCloseEvent>
#include <QTest>
#include <QScopeGuard>
#include <QTimer>

#include <csignal>
#include <functional>
#include <new>
#include <string_view>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util/parallel.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/chart_panel.h"
#include "ui/charts/gif_writer.h"
#include "ui/document/project_model.h"
#include "ui/document/model_files.h"
#include "ui/document/project_document.h"
#include "ui/document/recovery_store.h"
#include "ui/jobs/job_runner.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/main_window.h"
#include "ui/main/safe_application.h"

using ui::document::CategoricalParams;
using ui::document::ProjectDocument;
using ui::document::RecoveryStore;

namespace {

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// Runs `action` with the process's file size limit at `limit` bytes: a write past it fails
// with EFBIG ("File too large"), like a full disk, without any privilege. SIGXFSZ is ignored
// so the write fails instead of the process ending.
template <typename F>
auto withFileSizeLimit(rlim_t limit, F action) {
    // The OpenMP runtime sizes a shared-memory file when it starts: start it first (as
    // main does), or a job that happens to start it under the limit dies of SIGBUS.
    core::startParallelRuntime();
    struct rlimit old {};
    getrlimit(RLIMIT_FSIZE, &old);
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old;
    small.rlim_cur = limit;
    setrlimit(RLIMIT_FSIZE, &small);
    auto result = action();
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);
    return result;
}

// Answers the next modal dialog within `tries` × 20 ms with the button whose text contains
// `button` (empty: close it) and records its text.
struct DialogAnswer {
    QString text;
    bool seen = false;
    bool done = false;  // answered, or gave up waiting
};
void answerNextDialog(DialogAnswer* answer, const QString& button = {}, int tries = 250) {
    QTimer::singleShot(20, [answer, button, tries] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (box == nullptr) {
            if (tries > 1) {
                answerNextDialog(answer, button, tries - 1);  // not shown yet
            } else {
                answer->done = true;
            }
            return;
        }
        answer->seen = true;
        answer->done = true;
        answer->text = box->text() + "\n" + box->informativeText();
        for (QAbstractButton* b : box->buttons()) {
            if (!button.isEmpty() && b->text().contains(button)) {
                b->click();
                return;
            }
        }
        box->reject();
    });
}

CategoricalParams edited(int numSteps) {
    CategoricalParams p = CategoricalParams::example();
    p.numSteps = numSteps;
    p.pathSteps = std::min(p.pathSteps, numSteps);
    return p;
}

// A RecoveryStore in a child process that writes its copy of `bytes`, then dies by SIGKILL
// (a crash: the lock file stays behind with a dead pid). Returns the child's pid.
// A separate process (this test run again with kCrashWithCopy), not a fork: a child forked from
// this threaded process could hang on a lock another thread held (it did, once in a clang
// sanitizer build, until its alarm).
constexpr const char* kCrashWithCopy = "--crash-with-recovery-copy";

pid_t crashedInstance(const QString& folder, const QByteArray& bytes) {
    QTemporaryDir scratch;
    const QString input = scratch.filePath("copy.json");
    QFile file(input);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) return -1;
    file.close();
    QProcess child;
    child.start(QCoreApplication::applicationFilePath(), {kCrashWithCopy, folder, input});
    if (!child.waitForStarted(20000)) return -1;
    const pid_t pid = static_cast<pid_t>(child.processId());
    if (!child.waitForFinished(20000)) {
        child.kill();
        return -1;
    }
    return child.exitStatus() == QProcess::CrashExit ? pid : -1;
}

// The instance that crashes: writes its recovery copy and dies by SIGKILL.
int crashWithRecoveryCopy(int argc, char* argv[]) {
    QCoreApplication app(argc, argv);
    QFile file(QString::fromLocal8Bit(argv[3]));
    if (!file.open(QIODevice::ReadOnly)) return 3;
    RecoveryStore store(QString::fromLocal8Bit(argv[2]));
    if (!store.write(file.readAll()).ok()) return 3;
    raise(SIGKILL);
    return 4;
}

class ThrowingObject : public QObject {
public:
    bool event(QEvent* e) override {
        if (e->type() == QEvent::User) {
            throw std::bad_alloc();
        }
        return QObject::event(e);
    }
};

// A window whose close handler fails, as a save that runs out of memory would.
class FailingCloseWidget : public QWidget {
protected:
    void closeEvent(QCloseEvent*) override { throw std::bad_alloc(); }
};

}  // namespace

class tst_NeverLoseWork : public QObject {
    Q_OBJECT

private slots:
    void saveOnFullDiskKeepsTheOldFile();
    void saveOnRealFullFileSystem();
    void failedSaveInTheWindowKeepsTheDocumentUnsaved();
    void exportsOnFullDiskKeepTheOldFile();
    void outputsThatAreNotRegularFilesAreRefused();
    void crashedCopyIsRestoredUntitledAndUnsaved();
    void recoveryDialogRestores();
    void unsavedRecoveredWorkSurvivesAnotherCrash();
    void discardRemovesTheCopy();
    void runningInstanceCopyIsNeverOffered();
    void devicesAndFifosAreRefused();
    void formatVersionMessagesNameTheValue_data();
    void formatVersionMessagesNameTheValue();
    void escapingExceptionsBecomeMessages();
    void valuesFromTheFileCannotBreakTheMessage();
    void hugeNumbersInAListAreNamed();
};

void tst_NeverLoseWork::saveOnFullDiskKeepsTheOldFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("project.diffuscope.json");
    ProjectDocument document;
    QVERIFY(document.setCategorical(edited(40), "edit").ok());
    QVERIFY(document.saveAs(path).ok());
    const QByteArray old = readAll(path);
    QVERIFY(old.size() > 1024);
    QVERIFY(document.setCategorical(edited(50), "edit").ok());

    const core::Status status = withFileSizeLimit(512, [&] { return document.saveAs(path); });
    QVERIFY(!status.ok());
    const QString message = QString::fromStdString(status.error().toString());
    QVERIFY2(message.contains(path), qPrintable(message));
    QVERIFY2(message.contains("File too large"), qPrintable(message));
    QCOMPARE(readAll(path), old);  // byte-identical
    QVERIFY(document.isModified());
    QCOMPARE(document.filePath(), path);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"project.diffuscope.json"});
}

// A real full file system: a 64 kB tmpfs, only as root where mounting is allowed.
void tst_NeverLoseWork::saveOnRealFullFileSystem() {
    if (geteuid() != 0) {
        QSKIP("needs root to mount a small tmpfs");
    }
    QTemporaryDir dir;
    const QString mount = dir.filePath("small");
    QVERIFY(QDir().mkpath(mount));
    if (QProcess::execute("mount", {"-t", "tmpfs", "-o", "size=64k", "tmpfs", mount}) != 0) {
        QSKIP("mount -t tmpfs is not permitted here");
    }
    const auto unmount = qScopeGuard([&] { QProcess::execute("umount", {mount}); });
    const QString path = mount + "/project.diffuscope.json";
    ProjectDocument document;
    QVERIFY(document.setCategorical(edited(40), "edit").ok());
    QVERIFY(document.saveAs(path).ok());
    const QByteArray old = readAll(path);
    // Fill the rest of the file system.
    {
        QFile filler(mount + "/filler");
        QVERIFY(filler.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
        const QByteArray block(4096, 'x');
        while (filler.write(block) == block.size()) {
        }
    }
    QVERIFY(document.setCategorical(edited(50), "edit").ok());
    const core::Status status = document.saveAs(path);
    QVERIFY(!status.ok());
    const QString message = QString::fromStdString(status.error().toString());
    QVERIFY2(message.contains(path), qPrintable(message));
    QVERIFY2(message.contains("No space"), qPrintable(message));
    QCOMPARE(readAll(path), old);
    QVERIFY(document.isModified());
}

// Ctrl+S on a full disk: a dialog gives the reason, the `*` stays, nothing is marked clean.
void tst_NeverLoseWork::failedSaveInTheWindowKeepsTheDocumentUnsaved() {
    QTemporaryDir dir;
    const QString path = dir.filePath("project.diffuscope.json");
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    QVERIFY(window.document()->saveAs(path).ok());
    const QByteArray old = readAll(path);
    QVERIFY(window.document()->setCategorical(edited(33), "edit").ok());
    QVERIFY(window.windowTitle().contains('*'));
    QAction* save = nullptr;
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text() == "&Save") save = action;
    }
    QVERIFY(save != nullptr);
    DialogAnswer answer;
    answerNextDialog(&answer);
    withFileSizeLimit(512, [&] {
        save->trigger();
        return 0;
    });
    QVERIFY(answer.seen);
    QVERIFY2(answer.text.contains(path) && answer.text.contains("File too large"),
             qPrintable(answer.text));
    QVERIFY(window.document()->isModified());
    QVERIFY(!window.document()->undoStack()->isClean());
    QVERIFY(window.windowTitle().contains('*'));
    QCOMPARE(readAll(path), old);
}

void tst_NeverLoseWork::exportsOnFullDiskKeepTheOldFile() {
    QTemporaryDir dir;
    const QByteArray old("the previous export");
    // A chart as PNG.
    const QString png = dir.filePath("chart.png");
    QVERIFY(writeAll(png, old));
    ui::charts::ChartPanel chart("test");
    const QString chartError = withFileSizeLimit(
        1024, [&] { return ui::charts::exportWidget(&chart, png, {{400, 300}, 96}); });
    QVERIFY2(chartError.contains(png) && chartError.contains("File too large"),
             qPrintable(chartError));
    QCOMPARE(readAll(png), old);
    // An animated GIF of noise (incompressible, so well over the limit).
    const QString gif = dir.filePath("animation.gif");
    QVERIFY(writeAll(gif, old));
    ui::charts::GifWriter writer;
    for (int f = 0; f < 3; ++f) {
        QImage frame(64, 64, QImage::Format_RGB32);
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x) frame.setPixel(x, y, qRgb((x * 37 + f * 11) % 256, (y * 53) % 256, (x * y) % 256));
        writer.addFrame(frame);
    }
    const QString gifError = withFileSizeLimit(1024, [&] { return writer.save(gif); });
    QVERIFY2(gifError.contains(gif) && gifError.contains("File too large"), qPrintable(gifError));
    QCOMPARE(readAll(gif), old);
    // Without the limit both succeed.
    QVERIFY(ui::charts::exportWidget(&chart, png, {{400, 300}, 96}).isEmpty());
    QVERIFY(writer.save(gif).isEmpty());
    QVERIFY(readAll(gif).startsWith("GIF89a"));
}

void tst_NeverLoseWork::outputsThatAreNotRegularFilesAreRefused() {
    ProjectDocument document;
    const core::Status status = document.saveAs("/dev/null");
    QVERIFY(!status.ok());
    const QString message = QString::fromStdString(status.error().toString());
    QVERIFY2(message.contains("/dev/null") && message.contains("not a regular file"),
             qPrintable(message));
    QTemporaryDir dir;
    ui::charts::ChartPanel chart("test");
    const QString folder = dir.filePath("folder.png");
    QVERIFY(QDir().mkpath(folder));
    const QString error = ui::charts::exportWidget(&chart, folder, {{200, 200}, 96});
    QVERIFY2(error.contains(folder) && error.contains("folder"), qPrintable(error));
    QVERIFY(QFileInfo(folder).isDir());
}

void tst_NeverLoseWork::crashedCopyIsRestoredUntitledAndUnsaved() {
    QTemporaryDir dir;
    ui::document::Project lost;
    lost.categorical = edited(77);
    const QByteArray bytes = ui::document::projectToJson(lost);
    QVERIFY(crashedInstance(dir.path(), bytes) > 0);

    ui::MainWindow window(nullptr, dir.path());
    const QStringList copies = window.recoveryCopies();
    QCOMPARE(copies.size(), 1);
    const QString copy = copies.first();
    QCOMPARE(readAll(copy), bytes);
    QVERIFY(window.restoreRecovery(copy));
    QVERIFY(window.document()->filePath().isEmpty());  // Save asks for a name
    QVERIFY(window.document()->isModified());          // Quit asks to save
    QVERIFY(window.windowTitle().contains('*'));
    QCOMPARE(window.document()->categorical().numSteps, 77);
    QVERIFY(QFile::exists(copy));  // kept until saved
    // The copy is now this window's: another instance does not offer it.
    {
        ui::MainWindow other(nullptr, dir.path());
        QVERIFY(other.recoveryCopies().isEmpty());
    }
    QVERIFY(QFile::exists(copy));
    // Autosave keeps updating the same copy.
    QCOMPARE(window.recoveryPath(), copy);
    window.autosave();
    QVERIFY(QFile::exists(copy));
    // A successful save removes it.
    const QString saved = dir.filePath("saved.diffuscope.json");
    QVERIFY(window.document()->saveAs(saved).ok());
    QVERIFY(!QFile::exists(copy));
    QVERIFY(!window.document()->isModified());
    QVERIFY(!window.windowTitle().contains('*'));
    ProjectDocument reopened;
    QVERIFY(reopened.open(saved).ok());
    QCOMPARE(reopened.categorical().numSteps, 77);
}

// The startup question, answered with Restore.
void tst_NeverLoseWork::recoveryDialogRestores() {
    QTemporaryDir dir;
    ui::document::Project lost;
    lost.categorical = edited(66);
    QVERIFY(crashedInstance(dir.path(), ui::document::projectToJson(lost)) > 0);
    ui::MainWindow window(nullptr, dir.path());
    DialogAnswer answer;
    answerNextDialog(&answer, "Restore");
    window.offerRecovery();
    QVERIFY(answer.seen);
    QVERIFY2(answer.text.contains("did not close cleanly"), qPrintable(answer.text));
    QCOMPARE(window.document()->categorical().numSteps, 66);
    QVERIFY(window.document()->isModified());
    QVERIFY(window.document()->filePath().isEmpty());
}

// Restored, not saved, window gone (another crash or a test): the copy is offered again.
void tst_NeverLoseWork::unsavedRecoveredWorkSurvivesAnotherCrash() {
    QTemporaryDir dir;
    ui::document::Project lost;
    lost.categorical = edited(55);
    QVERIFY(crashedInstance(dir.path(), ui::document::projectToJson(lost)) > 0);
    QString copy;
    {
        ui::MainWindow window(nullptr, dir.path());
        copy = window.recoveryCopies().value(0);
        QVERIFY(window.restoreRecovery(copy));
    }
    QVERIFY(QFile::exists(copy));
    ui::MainWindow again(nullptr, dir.path());
    QCOMPARE(again.recoveryCopies(), QStringList{copy});
}

void tst_NeverLoseWork::discardRemovesTheCopy() {
    QTemporaryDir dir;
    QVERIFY(crashedInstance(dir.path(), ui::document::projectToJson({})) > 0);
    ui::MainWindow window(nullptr, dir.path());
    const QStringList copies = window.recoveryCopies();
    QCOMPARE(copies.size(), 1);
    QVERIFY(window.discardRecovery(copies.first()));
    QVERIFY(!QFile::exists(copies.first()));
    QVERIFY(window.recoveryCopies().isEmpty());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList());  // no lock left either

    // A crash with no copy (the work had been saved) leaves a stale lock: the next start
    // tidies it away.
    QVERIFY(crashedInstance(dir.path(), "{}") > 0);
    for (const QString& name : QDir(dir.path()).entryList({"*.json"}, QDir::Files)) {
        QVERIFY(QFile::remove(dir.filePath(name)));
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
    ui::MainWindow next(nullptr, dir.path());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList());

    // Undoing back to the saved state needs no copy.
    QVERIFY(next.document()->setCategorical(edited(12), "edit").ok());
    next.autosave();
    QVERIFY(QFile::exists(next.recoveryPath()));
    next.document()->undoStack()->undo();
    next.autosave();
    QVERIFY(!QFile::exists(next.recoveryPath()));
}

void tst_NeverLoseWork::runningInstanceCopyIsNeverOffered() {
    QTemporaryDir dir;
    // Another window of this process.
    auto first = std::make_unique<ui::MainWindow>(nullptr, dir.path());
    QVERIFY(first->document()->setCategorical(edited(44), "edit").ok());
    first->autosave();
    const QString firstCopy = first->recoveryPath();
    const QByteArray firstBytes = readAll(firstCopy);
    QVERIFY(!firstBytes.isEmpty());
    {
        ui::MainWindow second(nullptr, dir.path());
        QVERIFY(second.recoveryCopies().isEmpty());
        DialogAnswer answer;
        answerNextDialog(&answer, {}, 10);
        second.offerRecovery();  // returns at once: nothing to offer
        QTRY_VERIFY(answer.done);
        QVERIFY2(!answer.seen, qPrintable(answer.text));
        // Nor can it delete the copy.
        DialogAnswer refusal;
        answerNextDialog(&refusal);
        QVERIFY(!second.discardRecovery(firstCopy));
        QVERIFY2(refusal.text.contains("another running Diffuscope"), qPrintable(refusal.text));
    }
    QCOMPARE(readAll(firstCopy), firstBytes);
    first.reset();  // a modified window that goes without asking keeps its copy
    QVERIFY(QFile::exists(firstCopy));

    // A live instance in another process: never offered while it runs, offered once it died.
    QTemporaryDir other;
    int ready[2];
    QVERIFY(pipe(ready) == 0);
    const pid_t child = fork();
    if (child == 0) {
        alarm(20);
        RecoveryStore store(other.path());
        const bool ok = store.write(ui::document::projectToJson({})).ok();
        const char c = ok ? '1' : '0';
        (void)!write(ready[1], &c, 1);
        pause();
        _exit(0);
    }
    char c = 0;
    QCOMPARE(read(ready[0], &c, 1), ssize_t{1});
    QCOMPARE(c, '1');
    {
        ui::MainWindow window(nullptr, other.path());
        QVERIFY(window.recoveryCopies().isEmpty());
    }
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    ::close(ready[0]);
    ::close(ready[1]);
    ui::MainWindow window(nullptr, other.path());
    QCOMPARE(window.recoveryCopies().size(), 1);
}

void tst_NeverLoseWork::devicesAndFifosAreRefused() {
    // A checkpoint that is a device.
    auto model = ui::document::loadModelFile("/dev/zero");
    QVERIFY(!model.ok());
    QString message = QString::fromStdString(model.error().toString());
    QVERIFY2(message.contains("/dev/zero") && message.contains("device"), qPrintable(message));
    // A table and a model that are devices: the setup says so.
    CategoricalParams p = CategoricalParams::example();
    p.dataSource = ui::document::CategoricalData::CsvFile;
    p.csvPath = "/dev/zero";
    auto setup = ui::document::buildCategoricalSetup(p);
    QVERIFY(!setup.ok());
    message = QString::fromStdString(setup.error().toString());
    QVERIFY2(message.contains("/dev/zero"), qPrintable(message));
    CategoricalParams withModel = CategoricalParams::example();
    withModel.model = "/dev/zero";
    auto modelSetup = ui::document::buildCategoricalSetup(withModel);
    QVERIFY(modelSetup.ok());
    QVERIFY2((*modelSetup)->modelError.find("/dev/zero") != std::string::npos, (*modelSetup)->modelError.c_str());

    // A project naming them opens in the window and computes, without a crash.
    QTemporaryDir dir;
    ui::document::Project project;
    project.categorical = withModel;
    project.gaussian.model = "/dev/zero";
    project.gaussian.schedule = "csv:/dev/zero";
    const QString path = dir.filePath("devices.diffuscope.json");
    QVERIFY(writeAll(path, ui::document::projectToJson(project)));
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    DialogAnswer openError;
    answerNextDialog(&openError, {}, 10);
    QVERIFY(window.openFile(path));
    QTRY_VERIFY(openError.done);
    QVERIFY2(!openError.seen, qPrintable(openError.text));
    window.explorer()->waitForJobs();
    window.showProcess(1);
    window.document()->setProcess(ui::document::ProcessKind::Gaussian);
    QTest::qWait(200);

    // A project file that is a FIFO: refused at once, no hang.
    const QString fifo = dir.filePath("fifo.diffuscope.json");
    QVERIFY(mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
    ProjectDocument document;
    const core::Status status = document.open(fifo);
    QVERIFY(!status.ok());
    message = QString::fromStdString(status.error().toString());
    QVERIFY2(message.contains(fifo) && message.contains("FIFO"), qPrintable(message));
    // And as an output: refused, the FIFO left alone.
    QVERIFY(!document.saveAs(fifo).ok());
    struct stat info {};
    QVERIFY(::stat(fifo.toLocal8Bit().constData(), &info) == 0 && S_ISFIFO(info.st_mode));
}

void tst_NeverLoseWork::formatVersionMessagesNameTheValue_data() {
    QTest::addColumn<QByteArray>("version");
    QTest::addColumn<QString>("expected");
    QTest::newRow("fraction") << QByteArray("1.5")
                              << "formatVersion = 1.5: must be a whole number from 1 to 1";
    QTest::newRow("negative") << QByteArray("-1")
                              << "formatVersion = -1: must be a whole number from 1 to 1";
    QTest::newRow("zero") << QByteArray("0")
                          << "formatVersion = 0: must be a whole number from 1 to 1";
    QTest::newRow("text") << QByteArray("\"seven\"")
                          << "formatVersion = \"seven\": must be a whole number from 1 to 1";
    QTest::newRow("newer") << QByteArray("7") << "formatVersion = 7: the file was written by a newer";
}

void tst_NeverLoseWork::formatVersionMessagesNameTheValue() {
    QFETCH(QByteArray, version);
    QFETCH(QString, expected);
    QByteArray bytes = ui::document::projectToJson({});
    QVERIFY(bytes.contains("\"formatVersion\": 1,"));
    bytes.replace("\"formatVersion\": 1,", "\"formatVersion\": " + version + ",");
    auto project = ui::document::projectFromJson(bytes, "where.json");
    QVERIFY(!project.ok());
    const QString message = QString::fromStdString(project.error().toString());
    QVERIFY2(message.contains("where.json") && message.contains(expected), qPrintable(message));
    // Missing stays "missing".
    QByteArray missing = ui::document::projectToJson({});
    missing.replace("\"formatVersion\": 1,", "");
    auto none = ui::document::projectFromJson(missing, "where.json");
    QVERIFY(!none.ok());
    QVERIFY(QString::fromStdString(none.error().toString()).contains("missing"));
}

// Found by the project-file fuzzer: a value with a newline was copied raw into the message.
void tst_NeverLoseWork::valuesFromTheFileCannotBreakTheMessage() {
    QByteArray bytes = ui::document::projectToJson({});
    QVERIFY(bytes.contains("\"process\": \"categorical\""));
    // Escaped, as valid JSON holds them: a raw control character is refused by the parser.
    bytes.replace("\"process\": \"categorical\"", "\"process\": \"categorical\\n\\u0007\"");
    auto project = ui::document::projectFromJson(bytes, "where.json");
    QVERIFY(!project.ok());
    const QString message = QString::fromStdString(project.error().toString());
    QVERIFY2(message.startsWith("where.json: process = categorical\\n\\x07:"), qPrintable(message));
    for (const QChar c : message) {
        QVERIFY2(c.unicode() >= 0x20, qPrintable(message));
    }
}

// 1e300 in a list of steps was cast to int and reported as −2147483648.
void tst_NeverLoseWork::hugeNumbersInAListAreNamed() {
    QByteArray bytes = ui::document::projectToJson({});
    QVERIFY(bytes.contains("\"trajectoryList\": ["));
    bytes.replace("\"trajectoryList\": [", "\"trajectoryList\": [0, 1e300");
    auto project = ui::document::projectFromJson(bytes, "where.json");
    QVERIFY(!project.ok());
    const QString message = QString::fromStdString(project.error().toString());
    QVERIFY2(message.contains("categorical.trajectoryList[1] = 1e+300") &&
                 message.contains("between 0 and 100000") && !message.contains("2147483648"),
             qPrintable(message));
}

void tst_NeverLoseWork::escapingExceptionsBecomeMessages() {
    auto* app = qobject_cast<ui::SafeApplication*>(QCoreApplication::instance());
    QVERIFY(app != nullptr);
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    QVERIFY(window.document()->setCategorical(edited(21), "edit").ok());
    const int before = app->caughtCount();
    ThrowingObject thrower;
    DialogAnswer answer;
    answerNextDialog(&answer);
    QCoreApplication::postEvent(&thrower, new QEvent(QEvent::User));
    QTRY_VERIFY(answer.seen);
    QCOMPARE(app->caughtCount(), before + 1);
    QVERIFY2(answer.text.contains("Out of memory"), qPrintable(answer.text));
    QCOMPARE(window.document()->categorical().numSteps, 21);  // the work is still there
    QVERIFY(window.document()->isModified());

    // A job whose result fails to apply on the GUI thread fails as a job.
    ui::jobs::JobRunner runner;
    QString failure;
    connect(&runner, &ui::jobs::JobRunner::failed, this,
            [&](const QString&, const QString& m) { failure = m; });
    runner.start("huge", [](core::Progress&) -> std::function<void()> {
        return [] { throw std::bad_alloc(); };
    });
    runner.waitForFinished();
    QVERIFY2(failure.contains("out of memory"), qPrintable(failure));

    // A close whose handler fails leaves the window open (a close is accepted unless ignored).
    FailingCloseWidget widget;
    widget.show();
    DialogAnswer closeAnswer;
    answerNextDialog(&closeAnswer);
    QVERIFY(!widget.close());
    QVERIFY(widget.isVisible());
    QTRY_VERIFY(closeAnswer.seen);
}

// The application under test is the GUI's own, with its safety net.
int main(int argc, char* argv[]) {
    if (argc == 4 && std::string_view(argv[1]) == kCrashWithCopy) return crashWithRecoveryCopy(argc, argv);
    ui::SafeApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    tst_NeverLoseWork test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_never_lose_work.moc"
