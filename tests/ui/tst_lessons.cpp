// SPDX-License-Identifier: MIT
// Help ▸ Lessons: every step is a valid project whose set-up builds (its network and table
// file included), that survives a save and reopen unchanged, and that names a view and a
// mathematics section that exist; in the window every step loads, shows its view, and its
// jobs finish without an error; unsaved work is never replaced without the question.
// DIFFUSCOPE_SCREENSHOT_DIR=DIR saves a picture of every step.
#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include <sys/stat.h>

#include "core/categorical/information.h"
#include "core/io/file_io.h"
#include "core/project/chain_decoding.h"
#include "core/project/decoding_runs.h"
#include "core/project/gaussian_setup.h"
#include "ui/document/bundled_data.h"
#include "ui/document/project_model.h"
#include "ui/document/project_document.h"
#include "ui/lessons/lesson_pane.h"
#include "ui/lessons/lessons.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/main/main_window.h"
#include "ui/main/math_help.h"
#include "ui/views/particles_view.h"
#include "ui/animation/time_bar.h"

using ui::lessons::Lesson;
using ui::lessons::LessonStep;
using ui::lessons::lessons;

namespace {

QString where(int lesson, int step) {
    return QString("lesson %1 step %2").arg(lesson + 1).arg(step + 1);
}

// The GitHub anchors of a docs/ page's headings.
QStringList anchorsOf(const QString& page) {
    QFile file(":/docs/" + page);
    if (!file.open(QIODevice::ReadOnly)) return {};
    QStringList anchors;
    for (const QString& line : QString::fromUtf8(file.readAll()).split('\n')) {
        static const QRegularExpression heading("^#+\\s+(.*)$");
        if (auto m = heading.match(line); m.hasMatch()) anchors << ui::headingAnchor(m.captured(1));
    }
    return anchors;
}

// Where the lessons keep their pairs table (lessons.cpp): the application's data folder.
QString pairsPath() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/lessons/pairs.csv";
}

// Ends the test binary with a message if the scope is not left within 20 s: a call that
// blocks (an open of a FIFO) fails the test instead of hanging it.
class Watchdog {
public:
    explicit Watchdog(const QString& what)
        : m_thread([this, what = what.toStdString()] {
              std::unique_lock lock(m_mutex);
              if (!m_done.wait_for(lock, std::chrono::seconds(20), [this] { return m_finished; })) {
                  std::fprintf(stderr, "FAIL: %s did not return within 20 s\n", what.c_str());
                  std::_Exit(1);
              }
          }) {}
    ~Watchdog() {
        {
            std::lock_guard lock(m_mutex);
            m_finished = true;
        }
        m_done.notify_all();
        m_thread.join();
    }
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

private:
    std::mutex m_mutex;
    std::condition_variable m_done;
    bool m_finished = false;
    std::thread m_thread;  // last: started once the members above exist
};

}  // namespace

class tst_Lessons : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void aSpecialPairsFileIsReplaced_data();
    void aSpecialPairsFileIsReplaced();
    void theSequenceCoversTheSubjects();
    void everyStepIsAValidProject();
    void theEntropyIsBelowEveryElbo();
    void decodingLessonShowsComputedNumbers();
    void textLessonQuotesTheViewsRun();
    void everyStepLoadsInTheWindow();
    void unsavedWorkIsNotReplacedWithoutAsking();
    void anotherProjectLeavesTheStep();
};

// The lessons' pairs table sits in the application's data folder (the test location here).
// Start-up builds every lesson: a FIFO in the table's place used to block it forever (a plain
// QFile read). The table is replaced, and the step's set-up reads it.
void tst_Lessons::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    const QString path = pairsPath();
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QFile::remove(path);
    QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    {
        const Watchdog watchdog("building the lessons with a FIFO as their pairs table");
        QVERIFY(!lessons().empty());
    }
    QVERIFY(QFileInfo(path).isFile() && !QFileInfo(path).isSymLink());
    QFile table(path);
    QVERIFY(table.open(QIODevice::ReadOnly));
    QVERIFY(table.readAll().startsWith("x1,x2,p\n"));
}

void tst_Lessons::aSpecialPairsFileIsReplaced_data() {
    QTest::addColumn<QString>("kind");
    QTest::newRow("FIFO") << "fifo";
    QTest::newRow("link to /dev/zero") << "zero";  // used to end in std::bad_alloc
    QTest::newRow("link to another file") << "other";
    QTest::newRow("dangling link") << "dangling";
    QTest::newRow("wrong bytes") << "wrong";
}

// Whatever stands in the table's place is checked by its status before it is read, at most a
// few kB are read, and anything but a regular file of the table's bytes is replaced by one (a
// link only, never what it points to).
void tst_Lessons::aSpecialPairsFileIsReplaced() {
    QFETCH(QString, kind);
    const QString path = pairsPath();
    QTemporaryDir dir;
    const QString other = dir.filePath("someone-elses.csv");
    {
        QFile file(other);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not the pairs\n");
    }
    QFile::remove(path);
    if (kind == "fifo") {
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == "zero") {
        QVERIFY(QFile::link("/dev/zero", path));
    } else if (kind == "other") {
        QVERIFY(QFile::link(other, path));
    } else if (kind == "dangling") {
        QVERIFY(QFile::link(dir.filePath("missing"), path));
    } else {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(100000, 'x'));
    }
    std::string written;
    {
        const Watchdog watchdog("the pairs table as " + kind);
        written = ui::lessons::pairsFile();
    }
    QCOMPARE(QString::fromStdString(written), path);
    QVERIFY(QFileInfo(path).isFile() && !QFileInfo(path).isSymLink());
    const core::Result<std::string> table = core::io::readRegularFile(written, 4096);
    QVERIFY(table.ok());
    QVERIFY(table->starts_with("x1,x2,p\n"));
    QFile file(other);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("not the pairs\n"));
}

void tst_Lessons::theSequenceCoversTheSubjects() {
    const QStringList subjects = {"forward process", "kernel", "Information", "DP-chosen",
                                  "optimal reverse variance", "β̃ fails", "DP and even",
                                  "Masked diffusion", "Which token first?", "Which letter first?"};
    QCOMPARE(static_cast<int>(lessons().size()), static_cast<int>(subjects.size()));
    for (int i = 0; i < subjects.size(); ++i) {
        QVERIFY2(lessons()[i].title.contains(subjects[i]), qPrintable(lessons()[i].title));
        QVERIFY2(lessons()[i].steps.size() >= 2, qPrintable(lessons()[i].title));
    }
}

void tst_Lessons::everyStepIsAValidProject() {
    QTemporaryDir dir;
    const QString file = dir.filePath("step.diffuscope.json");
    for (int l = 0; l < static_cast<int>(lessons().size()); ++l) {
        const Lesson& lesson = lessons()[l];
        const QStringList page = lesson.mathematics.split('#');
        QVERIFY2(page.size() == 2 && anchorsOf(page[0]).contains(page[1]),
                 qPrintable(lesson.title + ": no section " + lesson.mathematics));
        for (int s = 0; s < static_cast<int>(lesson.steps.size()); ++s) {
            const LessonStep& step = lesson.steps[s];
            const QString at = where(l, s);
            QVERIFY2(!step.title.isEmpty() && !step.text.isEmpty() && !step.tryThis.isEmpty(),
                     qPrintable(at));
            const auto& p = step.project;
            if (p.process == ui::document::ProcessKind::Categorical) {
                auto setup = ui::document::buildCategoricalSetup(p.categorical);
                QVERIFY2(setup, qPrintable(at + ": " + QString::fromStdString(
                                                           setup ? "" : setup.error().toString())));
                QVERIFY2((*setup)->modelError.empty(), qPrintable(at));
            } else {
                auto setup = core::project::GaussianSetup::build(
                    p.gaussian, ui::document::appSources(), /*strictModel=*/true);
                QVERIFY2(setup, qPrintable(at + ": " + QString::fromStdString(
                                                           setup ? "" : setup.error().toString())));
                QVERIFY2(p.gaussian.lab.validate(p.gaussian.numSteps), qPrintable(at));
            }
            // An ordinary project: saved and reopened, it is the same step.
            ui::document::ProjectDocument document;
            document.loadExample(p);
            QVERIFY2(document.saveAs(file), qPrintable(at));
            ui::document::ProjectDocument reopened;
            QVERIFY2(reopened.open(file), qPrintable(at));
            QVERIFY2(reopened.project() == p, qPrintable(at + ": changed by save and reopen"));
        }
    }
}

// The joint entropy H(X₀ | C) is what the lessons compare the negative ELBO with: with the exact
// denoiser it lies below the N-step negative ELBO of every set-up (here at N = 1000, exact
// costs), while the sum of the positions' entropies need not (the correlated pairs).
void tst_Lessons::theEntropyIsBelowEveryElbo() {
    int checked = 0;
    int sumAboveElbo = 0;
    for (int l = 0; l < static_cast<int>(lessons().size()); ++l) {
        for (int s = 0; s < static_cast<int>(lessons()[l].steps.size()); ++s) {
            const auto& project = lessons()[l].steps[s].project;
            if (project.process != ui::document::ProcessKind::Categorical) continue;
            auto params = project.categorical;
            params.numSteps = 1000;
            auto setup = ui::document::buildCategoricalSetup(params);
            QVERIFY2(setup, qPrintable(where(l, s)));
            const auto& built = **setup;
            if (std::pow(static_cast<double>(built.pi.size()), built.table.numPositions) > 1e4) {
                continue;  // the digits: K^D beyond exact costs
            }
            auto costs = core::categorical::computeStepCosts(
                built.table, *built.denoiser, built.pi, built.grid,
                core::categorical::CostPairs::Consecutive, {.condition = built.params.condition});
            QVERIFY2(costs, qPrintable(where(l, s)));
            double elbo = 0.0;
            for (int n = 1; n <= 1000; ++n) elbo += costs->cost(n - 1, n);
            const auto entropy = core::categorical::dataEntropy(built.table, built.params.condition);
            QVERIFY2(entropy.joint <= elbo + 1e-9,
                     qPrintable(QString("%1: H = %2 > −ELBO = %3").arg(where(l, s)).arg(entropy.joint).arg(elbo)));
            QVERIFY(entropy.joint <= entropy.positions + 1e-12);
            sumAboveElbo += entropy.positions > elbo ? 1 : 0;
            ++checked;
        }
    }
    QVERIFY2(checked >= 10, qPrintable(QString::number(checked)));
    QVERIFY(sumAboveElbo > 0);  // the case the old "entropy" got wrong: pairs, lessons 4 and 8
}

// Lesson 9 speaks of numbers the program computes: the pairs' mutual information (computed
// here from the table) twice, as I(X₁;X₂) and as the decoded KL at N = 1; a KL of 0 with one
// token per step; argmax's one sequence, (0, 0) by hand: both marginals peak at 0.5, the tie
// goes to the first position, whose argmax is 0, and then P(x₂ | x₁ = 0) peaks at 0.
void tst_Lessons::decodingLessonShowsComputedNumbers() {
    const Lesson& lesson = lessons().at(8);
    QVERIFY(lesson.title.contains("Which token first?"));
    const double joint[3][3] = {{0.45, 0.05, 0.0}, {0.0, 0.45, 0.0}, {0.0, 0.0, 0.05}};
    double p1[3] = {}, p2[3] = {};
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
            p1[a] += joint[a][b];
            p2[b] += joint[a][b];
        }
    }
    double mutual = 0.0, entropy = 0.0;
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
            if (joint[a][b] <= 0.0) continue;
            mutual += joint[a][b] * std::log(joint[a][b] / (p1[a] * p2[b]));
            entropy -= joint[a][b] * std::log(joint[a][b]);
        }
    }
    const QString mi = QString::number(mutual, 'f', 4);
    const QString& first = lesson.steps[0].text;
    QVERIFY2(first.count(mi) == 2, qPrintable(mi + " twice in: " + first));
    QVERIFY2(lesson.steps[1].text.contains("KL(data ‖ output) = 0.0000 nats"),
             qPrintable(lesson.steps[1].text));
    const QString& third = lesson.steps[2].text;
    QVERIFY2(third.contains("(0, 0)") && third.contains("entropy is 0.0000 nats") &&
                 third.contains(QString::number(entropy, 'f', 4)),
             qPrintable(third));
    // LLaDA's low-confidence at N = 2, by brute force over the first step's joint draw
    // (v₁, v₂) ~ p₁ × p₂: the position whose drawn value has the larger marginal is kept (ties
    // to x₁), the other is drawn given it. LLaDA's random order reproduces the data.
    double output[3][3] = {};
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
            const double w = p1[a] * p2[b];
            if (w == 0.0) continue;
            for (int c = 0; c < 3; ++c) {
                if (p1[a] >= p2[b]) {
                    output[a][c] += w * joint[a][c] / p1[a];
                } else {
                    output[c][b] += w * joint[c][b] / p2[b];
                }
            }
        }
    }
    double kl = 0.0;
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
            if (joint[a][b] > 0.0) kl += joint[a][b] * std::log(joint[a][b] / output[a][b]);
        }
    }
    const QString& fourth = lesson.steps[3].text;
    QVERIFY2(fourth.contains("is " + QString::number(kl, 'f', 4) + " nats") &&
                 fourth.contains("gives 0.0000 nats"),
             qPrintable(QString::number(kl, 'f', 4) + " in: " + fourth));
}

void tst_Lessons::everyStepLoadsInTheWindow() {
    QTemporaryDir recovery;
    ui::MainWindow window(nullptr, recovery.path());
    // DIFFUSCOPE_SCREENSHOT_DIR=DIR saves the window at every step.
    const QString screenshots = qEnvironmentVariable("DIFFUSCOPE_SCREENSHOT_DIR");
    if (!screenshots.isEmpty()) {
        window.resize(1500, 950);
        window.show();
    }
    QStringList errors;
    const auto collect = [&errors](const QString& message, bool isError) {
        if (isError) errors << message;
    };
    connect(window.explorer(), &ui::CategoricalExplorer::jobMessage, this, collect);
    connect(window.gaussianExplorer(), &ui::GaussianExplorer::jobMessage, this, collect);
    for (int l = 0; l < static_cast<int>(lessons().size()); ++l) {
        for (int s = 0; s < static_cast<int>(lessons()[l].steps.size()); ++s) {
            const LessonStep& step = lessons()[l].steps[s];
            const QString at = where(l, s);
            QVERIFY2(window.loadLessonStep(l, s), qPrintable(at));
            QVERIFY2(window.document()->project() == step.project, qPrintable(at));
            QVERIFY2(!window.document()->isModified(), qPrintable(at));
            QStringList shown;
            for (const auto& [name, view] : window.viewsOnScreen()) shown << name;
            QVERIFY2(shown.contains(step.view),
                     qPrintable(at + ": shows " + shown.join(", ") + ", not " + step.view));
            QCOMPARE(window.lessonPane()->lesson(), l);
            QCOMPARE(window.lessonPane()->step(), s);
            QVERIFY2(window.lessonPane()->html().contains(step.title.toHtmlEscaped()),
                     qPrintable(at));
            // Play shows the process the text speaks of (lesson 1 plays the forward process).
            QCOMPARE(window.timeBar()->reverseDirection(), !step.playsForward);
            // Where samples land is shown up close (lesson 6: the moons, not the noise's ±3).
            const QRectF shownWindow = window.gaussianExplorer()->particlesView()->visibleWindow();
            QVERIFY2(std::abs(shownWindow.width() * step.particlesZoom - 6.0) < 1e-9 ||
                         window.gaussianExplorer()->particlesView()->frameCount() == 0 || shownWindow.width() > 6.0,
                     qPrintable(at + QString(": %1").arg(shownWindow.width())));
            QVERIFY2((l == 5 && s < 2) == (step.particlesZoom > 1.0), qPrintable(at));
            // Lesson 1 plays forward, and its matrices step starts at t = 0 as its text says.
            QVERIFY2(step.playsForward == (l == 0), qPrintable(at));
            // Classes are numbered from 0: no step speaks of a class K (here 4) or more.
            QVERIFY2(!step.text.contains("class 4") && !step.tryThis.contains("class 4"), qPrintable(at));
            window.explorer()->waitForJobs();
            window.gaussianExplorer()->waitForJobs();
            QVERIFY2(errors.isEmpty(), qPrintable(at + ": " + errors.join(" | ")));
            // Once the jobs are done, nothing on screen is marked out of date.
            for (const auto& [name, view] : window.viewsOnScreen()) {
                if (name != "lab") QVERIFY2(!view->isStale(), qPrintable(at + ": " + name + " still out of date"));
            }
            if (!screenshots.isEmpty()) {
                QTest::qWait(300);  // views repaint after their jobs
                window.grab().save(QString("%1/lesson-%2-%3.png").arg(screenshots).arg(l + 1).arg(s + 1));
            }
        }
    }
}

void tst_Lessons::unsavedWorkIsNotReplacedWithoutAsking() {
    QTemporaryDir recovery;
    ui::MainWindow window(nullptr, recovery.path());
    QVERIFY(window.loadLessonStep(0, 0));
    auto changed = window.document()->categorical();
    changed.numSteps = 77;
    changed.pathSteps = 7;
    QVERIFY(window.document()->setCategorical(changed, "Edit N"));
    QVERIFY(window.document()->isModified());
    // Cancel keeps the changed project and the step shown.
    QString asked;
    QTimer::singleShot(50, [&asked] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (box == nullptr) return;
        asked = box->text();
        box->button(QMessageBox::Cancel)->click();
    });
    QVERIFY(!window.loadLessonStep(0, 1));
    QVERIFY2(asked.contains("unsaved"), qPrintable(asked));
    QCOMPARE(window.document()->categorical().numSteps, 77);
    QCOMPARE(window.lessonPane()->step(), 0);
}

// An example loaded from the File menu leaves the lesson's step: the pane says so (it showed
// "Step 3 of 3" over example 6), and a step loaded again is shown as before.
void tst_Lessons::anotherProjectLeavesTheStep() {
    QTemporaryDir recovery;
    ui::MainWindow window(nullptr, recovery.path());
    const auto positionSays = [&window](const QString& words) {
        for (const QLabel* label : window.lessonPane()->findChildren<QLabel*>()) {
            if (label->text().contains(words)) return true;
        }
        return false;
    };
    QVERIFY(window.loadLessonStep(0, 2));
    QVERIFY(positionSays("Step 3 of 3"));
    QVERIFY(!positionSays("left"));
    window.document()->loadExample(ui::document::examples().back().project);
    QVERIFY(positionSays("Step 3 of 3 — left: another project is open"));
    QVERIFY(window.loadLessonStep(0, 2));
    QVERIFY(!positionSays("left"));
    window.explorer()->waitForJobs();
    window.gaussianExplorer()->waitForJobs();
}

// Lesson 10 quotes the Decoding view's own run of its project (LLaDA's two orders at N = D): the
// same request, so the numbers it prints are those the view draws.
void tst_Lessons::textLessonQuotesTheViewsRun() {
    const Lesson& lesson = lessons().back();
    QVERIFY(lesson.title.contains("Which letter first?"));
    const auto& params = lesson.steps[1].project.categorical;
    QVERIFY(params.decoding.chain.active());
    auto chain = ui::document::decodingChain(params.decoding.chain.source);
    QVERIFY(chain);
    auto setup = ui::document::buildCategoricalSetup(params);
    QVERIFY(setup);
    core::project::ChainDecodeRequest request;
    auto sampler = core::project::parseSamplerSpec("preset=llada:low_confidence");
    QVERIFY(sampler);
    request.sampler = *sampler;
    request.length = params.decoding.chain.length;
    request.numSteps = request.length;
    request.samples = params.decoding.chain.samples;
    request.seed = params.seed;
    auto run = core::project::projectDecodeChain(*chain, (*setup)->curve, request, 1);
    QVERIFY(run);
    const QString& text = lesson.steps[1].text;
    for (double value : {*run->measures.crossEntropy.value, *run->measures.pairTotalVariation.value,
                         core::data::chainEntropyPerToken(*chain, request.length)}) {
        QVERIFY2(text.contains(QString::number(value, 'f', 3)), qPrintable(QString::number(value) + " in " + text));
    }
    QVERIFY2(text.contains(QString::fromStdString(run->measures.samples.front()).left(48).toHtmlEscaped()),
             qPrintable(text));
    // Confidence decoding's text is likelier than the chain's own: below its entropy.
    QVERIFY(*run->measures.crossEntropy.value < core::data::chainEntropyPerToken(*chain, request.length));
}

QTEST_MAIN(tst_Lessons)
#include "tst_lessons.moc"
