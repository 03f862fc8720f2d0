// SPDX-License-Identifier: MIT
// The paths a person takes through the window, driven through its real dialogs and fields:
// Save As through the file dialog and the saved project run headless; File ▸ Export view
// through its two dialogs against `diffuscope export`; the Train dialog closed and the job
// threads that outlive it; typing a number into a field.
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QImageReader>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QRegularExpression>
#include <QTimer>
#include <QUndoStack>

#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <thread>
#include <type_traits>

#include <sys/syscall.h>
#include <unistd.h>

#include "core/project/lab_settings.h"
#include "core/project/project_file.h"
#include "core/util/parallel.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/view_panel.h"
#include "ui/document/project_document.h"
#include "ui/main/categorical_explorer.h"
#include "ui/jobs/job_runner.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/main/main_window.h"
#include "ui/views/decoding_view.h"
#include "ui/training/train_dialog.h"

using test_support::runCli;

namespace {

// Runs `answer` on the first modal dialog of type T that opens (polled every 20 ms), as a
// person would answer it. Each poll schedules a copy of itself: nothing owns it, nothing leaks.
template <typename T>
struct DialogPoll {
    std::function<void(T*)> answer;
    void operator()() const {
        auto* dialog = qobject_cast<T*>(QApplication::activeModalWidget());
        // A dialog that is not a file dialog, when a file dialog is not what is waited for.
        if (dialog != nullptr && dialog->isVisible() &&
            (std::is_same_v<T, QFileDialog> || qobject_cast<QFileDialog*>(dialog) == nullptr)) {
            answer(dialog);
            return;
        }
        QTimer::singleShot(20, *this);
    }
};

template <typename T>
void whenDialogOpens(std::function<void(T*)> answer) {
    QTimer::singleShot(20, DialogPoll<T>{std::move(answer)});
}

// Enters `name` in a file dialog's name field and accepts it, as the Save button does. (Typed
// key by key, the dialog's completer turns the folders of an absolute path into a selection.)
void typeFileName(QFileDialog* dialog, const QString& name) {
    auto* edit = dialog->findChild<QLineEdit*>("fileNameEdit");
    QVERIFY(edit != nullptr);
    edit->setText(name);
    static_cast<QDialog*>(dialog)->accept();  // public in QDialog; QFileDialog::accept runs
}

// In File ▸ Export view's options: cm chosen, the width and height typed as a person types them
// (the field selected, then the keys), and OK pressed.
void typeSizeInCm(QDialog* options, const QString& width, const QString& height) {
    auto* unit = options->findChild<QComboBox*>();
    unit->setCurrentIndex(unit->findText("cm"));
    const auto boxes = options->findChildren<QDoubleSpinBox*>();  // width, height, font scale
    for (auto [box, text] : {std::pair{boxes[0], width}, std::pair{boxes[1], height}}) {
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, text);
    }
    options->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
}

QAction* actionNamed(QWidget* window, const QString& text) {
    for (QAction* action : window->findChildren<QAction*>()) {
        if (action->text().remove('&') == text) return action;
    }
    return nullptr;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// An SVG's text elements, in order: what a figure says, independent of how it is drawn.
QStringList svgTexts(const QByteArray& svg) {
    QStringList texts;
    const QString s = QString::fromUtf8(svg);
    qsizetype at = 0;
    while ((at = s.indexOf("<text", at)) >= 0) {
        const qsizetype open = s.indexOf('>', at);
        const qsizetype close = s.indexOf("</text>", open);
        if (open < 0 || close < 0) break;
        texts << s.mid(open + 1, close - open - 1).trimmed();
        at = close;
    }
    return texts;
}

}  // namespace

class tst_WindowPaths : public QObject {
    Q_OBJECT

private slots:
    void init();
    void saveAsThroughTheDialogRunsHeadless();
    void aChainSavedInTheWindowRunsHeadless();
    void jobThreadsOutliveTheirRunners();
    void trainCancelCloseThenAnotherExample();
    void exportDialogWritesWhatExportWrites_data();
    void exportDialogWritesWhatExportWrites();
    void exportDialogOffersMillimetresAndKeepsTypedSizes();
    void aRefusedExportKeepsTheDialogOpen();
    void theSizeARefusalNamesIsWritten();
    void typingANumberIsOneEdit();
    void slowResultsAreMarkedOutOfDateAtOnce();
};

void tst_WindowPaths::init() {
    // Each test starts from the dialogs' defaults, not from what another left behind.
    QSettings().clear();
}

// Save As in the window, through the file dialog, with a bundled network; the file then runs
// headless: `variance --project` gives the window's σ² to the bit.
void tst_WindowPaths::saveAsThroughTheDialogRunsHeadless() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    window.show();
    window.document()->loadExample(ui::document::examples()[2].project);  // two moons
    window.gaussianExplorer()->waitForJobs();
    const auto results = window.gaussianExplorer()->results();
    QVERIFY(results != nullptr);
    QVERIFY(results->modelError.empty());

    QAction* saveAs = actionNamed(&window, "Save as…");
    QVERIFY(saveAs != nullptr);
    QVERIFY(saveAs->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)));
    const QString path = dir.filePath("moons.diffuscope.json");
    whenDialogOpens<QFileDialog>([&](QFileDialog* dialog) { typeFileName(dialog, path); });
    saveAs->trigger();
    QVERIFY2(QFile::exists(path), qPrintable(path));
    QCOMPARE(window.document()->filePath(), path);
    // The network is stored by its portable name, not by the window's resource path.
    const QByteArray saved = readAll(path);
    QVERIFY2(saved.contains("\"bundled:moons-gaussian.safetensors\""), saved.constData());
    QVERIFY(!saved.contains(":/models/"));

    const auto run = runCli({"variance", "--project", path, "--format", "csv"}, 300000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QStringList lines = run.out.split('\n', Qt::SkipEmptyParts);
    QVERIFY(!lines.isEmpty());
    const QStringList header = lines.takeFirst().split(',');
    const qsizetype sigma2 = header.indexOf("sigma2");
    QVERIFY(sigma2 >= 0);
    QCOMPARE(static_cast<size_t>(lines.size()), results->pairs.size());
    std::map<std::pair<int, int>, double> shown;
    for (const auto& pair : results->pairs) shown[{pair.s, pair.t}] = pair.sigma2;
    for (const QString& line : lines) {
        const QStringList cells = line.split(',');
        const auto found = shown.find({cells[0].toInt(), cells[1].toInt()});
        QVERIFY2(found != shown.end(), qPrintable(line));
        QCOMPARE(cells[sigma2].toDouble(), found->second);  // to the bit
    }

    // A project saved by an older version names the network by its resource path: read as
    // the bundled name, by the window and by the command line alike.
    QByteArray old = saved;
    old.replace("bundled:moons-gaussian.safetensors", ":/models/moons-gaussian.safetensors");
    const QString oldPath = dir.filePath("old.diffuscope.json");
    QFile oldFile(oldPath);
    QVERIFY(oldFile.open(QIODevice::WriteOnly));
    oldFile.write(old);
    oldFile.close();
    auto reopened = core::project::readProjectFile(oldPath.toStdString());
    DS_VERIFY_OK(reopened);
    QCOMPARE(reopened->gaussian.model, std::string("bundled:moons-gaussian.safetensors"));
    const auto oldRun = runCli({"variance", "--project", oldPath, "--format", "csv"}, 300000);
    QVERIFY2(oldRun.exitCode == 0, qPrintable(oldRun.err));
    QCOMPARE(oldRun.out, run.out);
}

// libomp keeps state for every thread that opens a team: a job thread that ended (a runner's
// pool closing with its dialog, a pooled thread expiring after 30 s idle) left it behind, and a
// later loop aborted inside the runtime. Job threads live as long as the program: the thread of
// a destroyed runner's job runs the next runner's job.
// Example 7 (made short) saved through the dialog: `decode --project` on the file prints the
// Decoding view's numbers to the bit, and the chain is stored by its name.
void tst_WindowPaths::aChainSavedInTheWindowRunsHeadless() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    window.show();
    auto project = ui::document::examples().at(6).project;
    project.categorical.decoding.configs.resize(2);
    project.categorical.decoding.chain.length = 16;
    project.categorical.decoding.chain.samples = 40;
    window.document()->loadExample(project);
    window.explorer()->waitForJobs();
    const auto shown = window.explorer()->decodingView()->result();
    QVERIFY(shown != nullptr && shown->chain);
    const QString path = dir.filePath("text.diffuscope.json");
    whenDialogOpens<QFileDialog>([&](QFileDialog* dialog) { typeFileName(dialog, path); });
    actionNamed(&window, "Save as…")->trigger();
    QVERIFY2(QFile::exists(path), qPrintable(path));
    QVERIFY(readAll(path).contains("\"source\": \"english\""));
    for (size_t c = 0; c < shown->curves.size(); ++c) {
        const auto run = runCli({"decode", "--project", path, "--preset",
                                 QString::fromStdString(project.categorical.decoding.configs[c].sampler).mid(7),
                                 "--steps", "16", "--format", "json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(json["cross_entropy"].toObject()["value"].toDouble(), shown->curves[c].crossEntropy.back());
        QCOMPARE(json["pair_total_variation"].toObject()["value"].toDouble(),
                 shown->curves[c].pairTotalVariation.back());
    }
}

void tst_WindowPaths::jobThreadsOutliveTheirRunners() {
    pid_t jobThread = 0;
    {
        ui::jobs::JobRunner runner;
        runner.start("test", [&jobThread](core::Progress&) -> std::function<void()> {
            jobThread = static_cast<pid_t>(::syscall(SYS_gettid));
            // An OpenMP team from this thread, as every heavy job opens.
            std::atomic<int> sum{0};
            core::parallelFor(1000, {.numThreads = 2}, [&sum](int64_t i) { sum += int(i % 3); });
            return [] {};
        });
        runner.waitForFinished();
    }  // the runner is gone (a Train dialog closed)
    QVERIFY(jobThread > 0);
    QTest::qWait(200);
    QVERIFY2(QFile::exists(QString("/proc/self/task/%1").arg(jobThread)),
             "the job's thread ended with its runner");
    // A later runner's job runs, OpenMP team and all.
    ui::jobs::JobRunner later;
    bool ran = false;
    later.start("again", [&ran](core::Progress&) -> std::function<void()> {
        std::atomic<int> sum{0};
        core::parallelFor(1000, {.numThreads = 2}, [&sum](int64_t i) { sum += int(i % 3); });
        ran = sum.load() > 0;
        return [] {};
    });
    later.waitForFinished();
    QVERIFY(ran);
}

// The first crash a teacher met: train, cancel, close the dialog, load example 4, show its
// Trajectory view.
void tst_WindowPaths::trainCancelCloseThenAnotherExample() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    window.show();
    window.document()->loadExample(ui::document::examples()[2].project);  // Gaussian, moons
    window.gaussianExplorer()->waitForJobs();
    window.showTrainDialog();
    auto* train = window.findChild<ui::training::TrainDialog*>();
    QVERIFY(train != nullptr);
    train->setOutputPath(dir.filePath("m.safetensors"));
    train->start();
    QTest::qWait(300);
    train->cancel();
    train->waitForFinished();
    train->close();  // deleted on close
    QTest::qWait(50);
    QVERIFY(window.findChild<ui::training::TrainDialog*>() == nullptr);

    window.document()->loadExample(ui::document::examples()[3].project);  // digits, MLP
    window.gaussianExplorer()->waitForJobs();
    QVERIFY(window.showView("gaussian-trajectory"));
    window.gaussianExplorer()->waitForJobs();
    QVERIFY(window.gaussianExplorer()->results() != nullptr);
}

void tst_WindowPaths::exportDialogWritesWhatExportWrites_data() {
    QTest::addColumn<int>("example");
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("format");
    for (const char* format : {"svg", "png", "pdf"}) {
        QTest::newRow(qPrintable(QString("variance ") + format)) << 2 << "variance" << format;
    }
    // The other views' words, once each: the categorical ones on the first example. The
    // Trajectories and the Matrices are left out: the window exports the step on screen, the
    // command the last one.
    for (const char* view : {"gamma", "particles", "gaussian-trajectory", "compare"}) {
        QTest::newRow(qPrintable(QString(view) + " svg")) << 2 << view << "svg";
    }
    for (const char* view : {"schedule", "step-costs", "kernels"}) {
        QTest::newRow(qPrintable(QString(view) + " svg")) << 0 << view << "svg";
    }
}

// File ▸ Export view through both dialogs, the size typed at 8.5 × 6 cm, against
// `diffuscope export` of the same view and size: the same texts (SVG), the same pixels' size
// (PNG), a page of that size (PDF). The window's panel used to be rendered at its on-screen
// size into the figure's canvas: only the plot's top-left corner was written.
void tst_WindowPaths::exportDialogWritesWhatExportWrites() {
    QFETCH(int, example);
    QFETCH(QString, view);
    QFETCH(QString, format);
    QTemporaryDir dir;
    const QString project = dir.filePath("p.json");
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    window.resize(1400, 880);
    window.show();
    window.document()->loadExample(ui::document::examples()[example].project);
    window.explorer()->waitForJobs();
    window.gaussianExplorer()->waitForJobs();
    QVERIFY(window.document()->saveAs(project).ok());
    QVERIFY(window.showView(view));

    const QString path = dir.filePath("window." + format);
    whenDialogOpens<QFileDialog>([&](QFileDialog* dialog) {
        typeFileName(dialog, path);
        whenDialogOpens<QDialog>([](QDialog* options) {
            typeSizeInCm(options, "8.5", "6");
        });
    });
    // A refusal comes as a message box: read and closed, then reported.
    QString refusal;
    QTimer boxes;
    QObject::connect(&boxes, &QTimer::timeout, [&refusal] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            refusal = box->text();
            box->close();
        }
    });
    boxes.start(50);
    QAction* exportView = actionNamed(&window, "Export view…");
    QVERIFY(exportView != nullptr);
    exportView->trigger();
    boxes.stop();
    QVERIFY2(refusal.isEmpty(), qPrintable(refusal));
    QVERIFY2(QFile::exists(path), "the dialog wrote nothing");

    // The numbers behind the figure, to the bit: the view's CSV against the command's.
    ui::charts::ViewPanel* panel = nullptr;
    for (const auto& views : {window.explorer()->views(), window.gaussianExplorer()->views()}) {
        for (const auto& [name, candidate] : views) {
            if (name == view) panel = candidate;
        }
    }
    QVERIFY(panel != nullptr);
    const auto csv = panel->csvText();
    QVERIFY(csv.ok());
    const auto csvRun = runCli({"export", "--project", project, "--view", view, "--out",
                                dir.filePath("command.csv")},
                               300000);
    QVERIFY2(csvRun.exitCode == 0, qPrintable(csvRun.err));
    // The header's program line names the version only in the program itself.
    const auto withoutProgram = [](QString text) {
        return text.remove(QRegularExpression("^# program:[^\n]*\n", QRegularExpression::MultilineOption));
    };
    QCOMPARE(withoutProgram(QString::fromStdString(*csv)),
             withoutProgram(QString::fromUtf8(readAll(dir.filePath("command.csv")))));

    const QString command = dir.filePath("command." + format);
    const auto run = runCli({"export", "--project", project, "--view", view, "--width", "8.5cm",
                             "--height", "6cm", "--dpi", "192", "--out", command},
                            300000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    if (format == "svg") {
        QStringList fromWindow = svgTexts(readAll(path));
        QVERIFY(fromWindow.size() > 5);
        QStringList fromCommand = svgTexts(readAll(command));
        QCOMPARE(fromWindow, fromCommand);
        // The physical size as typed, 85 × 60 mm, not that of the whole pixels (84.93 × 60.06).
        for (const QString& file : {path, command}) {
            const QByteArray svg = readAll(file);
            QVERIFY2(svg.contains("<svg width=\"85mm\" height=\"60mm\""), svg.left(200).constData());
        }
        // A figure carries no player text: the frame counter belongs to the controls.
        QVERIFY2(!fromWindow.join(' ').contains("(frame "), qPrintable(fromWindow.join(" | ")));
    } else if (format == "png") {
        QImageReader a(path), b(command);
        QCOMPARE(a.size(), b.size());
    } else {
        // The page's size (MediaBox) is the figure's, 8.5 × 6 cm, as the command writes it.
        const auto mediaBox = [](const QByteArray& pdf) {
            const qsizetype at = pdf.indexOf("/MediaBox");
            return at < 0 ? QByteArray() : pdf.mid(at, pdf.indexOf(']', at) - at);
        };
        const QByteArray box = mediaBox(readAll(path));
        QVERIFY(!box.isEmpty());
        QCOMPARE(box, mediaBox(readAll(command)));
        // 8.5 × 6 cm is 240.9 × 170.1 pt; the writer rounds to whole points.
        const QStringList numbers = QString::fromLatin1(box).remove("/MediaBox").remove('[').simplified().split(' ');
        QCOMPARE(numbers.size(), 4);
        QVERIFY2(std::abs(numbers[2].toDouble() - 240.9) < 1.0 && std::abs(numbers[3].toDouble() - 170.1) < 1.0,
                 box.constData());
    }
}

// The dialog offers mm, and a size typed in a unit reopens as typed (8.5 × 6 cm, not
// 8.49 × 6.01 cm from whole pixels).
void tst_WindowPaths::exportDialogOffersMillimetresAndKeepsTypedSizes() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    window.show();
    window.explorer()->waitForJobs();
    QVERIFY(window.showView("schedule"));
    QStringList units;
    for (int round = 0; round < 2; ++round) {
        const QString path = dir.filePath(QString("s%1.svg").arg(round));
        whenDialogOpens<QFileDialog>([&](QFileDialog* dialog) {
            typeFileName(dialog, path);
            whenDialogOpens<QDialog>([&, round](QDialog* options) {
                auto* unit = options->findChild<QComboBox*>();
                const auto boxes = options->findChildren<QDoubleSpinBox*>();
                if (round == 0) {
                    for (int i = 0; i < unit->count(); ++i) units << unit->itemText(i);
                    unit->setCurrentIndex(unit->findText("cm"));
                    boxes[0]->setValue(8.5);
                    boxes[1]->setValue(6.0);
                } else {
                    units = QStringList{unit->currentText(), boxes[0]->text(), boxes[1]->text()};
                }
                options->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            });
        });
        actionNamed(&window, "Export view…")->trigger();
        if (round == 0) {
            QVERIFY2(units.contains("mm"), qPrintable(units.join(", ")));
        }
    }
    QCOMPARE(units.value(0), QString("cm"));
    QVERIFY2(units.value(1).startsWith("8.5") && !units.value(1).startsWith("8.49"),
             qPrintable(units.value(1)));
    QVERIFY2(units.value(2).startsWith("6") && !units.value(2).startsWith("6.01"),
             qPrintable(units.value(2)));
}

// A size the figure cannot be laid out at is refused inside the options dialog, which stays
// open with the size as typed; the size the refusal names, typed in place, is written. The
// refusal used to close the dialog, and the path and size had to be asked for again.
void tst_WindowPaths::aRefusedExportKeepsTheDialogOpen() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    window.show();
    window.explorer()->waitForJobs();
    QVERIFY(window.showView("schedule"));
    const QString path = dir.filePath("small.svg");
    QString refusal, typedAfterRefusal;
    bool openAfterRefusal = false;
    whenDialogOpens<QFileDialog>([&](QFileDialog* dialog) {
        typeFileName(dialog, path);
        whenDialogOpens<QDialog>([&](QDialog* options) {
            const auto boxes = options->findChildren<QDoubleSpinBox*>();
            const auto type = [&](const QString& w, const QString& h) { typeSizeInCm(options, w, h); };
            type("2.5", "2");
            auto* label = options->findChild<QLabel*>("exportRefusal");
            refusal = label != nullptr && !label->isHidden() ? label->text() : QString();
            // Shown whole: the dialog grew to the refusal's wrapped lines.
            QVERIFY(label != nullptr);
            QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                     qPrintable(QString("%1 < %2").arg(label->height()).arg(label->heightForWidth(label->width()))));
            openAfterRefusal = options->isVisible();
            typedAfterRefusal = boxes[0]->text() + " x " + boxes[1]->text();
            static const QRegularExpression fits(R"(fits at ([0-9.]+) × ([0-9.]+) cm)");
            const auto match = fits.match(refusal);
            if (match.hasMatch()) {
                type(match.captured(1), match.captured(2));
            } else {
                options->reject();
            }
        });
    });
    actionNamed(&window, "Export view…")->trigger();
    QVERIFY2(refusal.contains(path) && refusal.contains("fits at"), qPrintable(refusal));
    QVERIFY(openAfterRefusal);
    QVERIFY2(typedAfterRefusal.startsWith("2.5") && typedAfterRefusal.contains("x 2"),
             qPrintable(typedAfterRefusal));
    QVERIFY2(QFile::exists(path), "the size the refusal named was not written");
    QVERIFY(svgTexts(readAll(path)).size() > 5);
}

// The Lab on screen, exported at a paper column's width: refused, naming a size; that size, asked
// next from the view as it is on screen again, is written. The window's Lab used to refuse the
// size it had named, with a new reason, because the size was checked on the layout the search
// left behind, not on the one on screen.
void tst_WindowPaths::theSizeARefusalNamesIsWritten() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    window.resize(1216, 684);
    window.show();
    window.document()->loadExample(ui::document::examples()[2].project);
    auto p = window.document()->gaussian();
    p.gammaSamples = 20;
    p.lab.configs = core::project::labPresets().at(1).configs;  // DDPM's β̃ with few steps
    p.lab.ks = {5, 10};
    p.lab.qualitySamples = 50;
    p.lab.nllPoints = 50;
    QVERIFY(window.document()->setGaussian(p, "small").ok());
    window.gaussianExplorer()->waitForJobs();
    window.gaussianExplorer()->runLab();
    window.gaussianExplorer()->waitForJobs();
    QVERIFY(window.showView("lab"));
    QApplication::processEvents();
    ui::charts::ViewPanel* lab = nullptr;
    for (const auto& [name, panel] : window.gaussianExplorer()->views()) {
        if (name == "lab") lab = panel;
    }
    QVERIFY(lab != nullptr);
    const QString path = dir.filePath("lab.svg");
    ui::charts::ExportOptions options;
    options.size = QSize(321, 227);  // 8.5 × 6 cm
    const QString refusal = ui::charts::exportWidget(lab, path, options);
    static const QRegularExpression fits(R"(fits at ([0-9.]+) × ([0-9.]+) cm)");
    const auto match = fits.match(refusal);
    QVERIFY2(match.hasMatch(), qPrintable(refusal));
    QApplication::processEvents();  // the view back on screen, as when a person types the size
    options.size = QSize(*ui::charts::parseLength(match.captured(1) + "cm"),
                         *ui::charts::parseLength(match.captured(2) + "cm"));
    const QString second = ui::charts::exportWidget(lab, path, options);
    QVERIFY2(second.isEmpty(), qPrintable(refusal + " — then — " + second));
    QVERIFY(QFile::exists(path));
}

// Typing N = 1000 into the panel is one edit, applied on Enter: it used to apply every
// keystroke, N = 1 on the way capping the path steps to 1 for good, and "1000" was four undo
// steps and four recomputations.
void tst_WindowPaths::typingANumberIsOneEdit() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    window.show();
    window.explorer()->waitForJobs();
    auto* numSteps = window.findChild<QSpinBox*>("numSteps");
    QVERIFY(numSteps != nullptr);
    const int pathSteps = window.document()->categorical().pathSteps;
    QVERIFY(pathSteps > 1);
    const int undoBefore = window.document()->undoStack()->count();
    numSteps->setFocus();
    numSteps->selectAll();
    QTest::keyClicks(numSteps, "1000");
    // Nothing applied while typing.
    QCOMPARE(window.document()->undoStack()->count(), undoBefore);
    QTest::keyClick(numSteps, Qt::Key_Return);
    QCOMPARE(window.document()->categorical().numSteps, 1000);
    QCOMPARE(window.document()->categorical().pathSteps, pathSteps);
    QCOMPARE(window.document()->undoStack()->count(), undoBefore + 1);
    // An arrow step is an edit of its own.
    numSteps->stepUp();  // the up arrow button
    QCOMPARE(window.document()->categorical().numSteps, 1001);
    QCOMPARE(window.document()->undoStack()->count(), undoBefore + 2);
    window.explorer()->waitForJobs();

    // N typed below the path steps caps them; typed above again, the user's own K comes back.
    auto typeSteps = [&](const char* text) {
        numSteps->setFocus();
        numSteps->selectAll();
        QTest::keyClicks(numSteps, text);
        QTest::keyClick(numSteps, Qt::Key_Return);
    };
    typeSteps("3");
    QCOMPARE(window.document()->categorical().pathSteps, 3);
    typeSteps("500");
    QCOMPARE(window.document()->categorical().numSteps, 500);
    QCOMPARE(window.document()->categorical().pathSteps, pathSteps);
    window.explorer()->waitForJobs();
}

// An edit whose results take seconds (K = 64, N = 1000: the step costs of the path in use) marks
// the old curves out of date within a quarter of a second; it used to leave the K = 4 curve
// unmarked for 8 s. Quick results never show the banner at all.
void tst_WindowPaths::slowResultsAreMarkedOutOfDateAtOnce() {
    const int await = ui::charts::ViewPanel::kAwaitResultsMs;
    {
        ui::charts::ViewPanel panel("test");
        panel.awaitResults();
        QVERIFY(!panel.isStale());
        QTest::qWait(await + 150);
        QVERIFY(panel.isStale());
        panel.setProvenance({"new"});  // the results arrive
        QVERIFY(!panel.isStale());
        panel.awaitResults();
        QTest::qWait(await / 5);
        panel.setProvenance({"quick"});
        QTest::qWait(await + 150);
        QVERIFY(!panel.isStale());  // no banner for quick results
    }
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.filePath("recovery"));
    window.show();
    window.explorer()->waitForJobs();
    auto p = window.document()->categorical().withNumClasses(64).withNumSteps(1000);
    QVERIFY(window.document()->setCategorical(p, "numClasses").ok());
    QTest::qWait(await + 150);
    std::map<QString, ui::charts::ViewPanel*> views;
    for (const auto& [name, view] : window.explorer()->views()) views[name] = view;
    ui::charts::ViewPanel* costs = views.at("step-costs");
    if (window.explorer()->costRunner()->isRunning()) {
        QVERIFY2(costs->isStale(), "the old step costs are not marked while the new ones run");
    }
    window.explorer()->waitForJobs();
    QVERIFY(!costs->isStale());
    QVERIFY(!views.at("trajectories")->isStale());
}

QTEST_MAIN(tst_WindowPaths)
#include "tst_window_paths.moc"
