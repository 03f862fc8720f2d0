// SPDX-License-Identifier: MIT
// Tests that the interface is fully translated: every string the sources give to tr() is in
// translations/diffuscope_ja.ts and translated there; with the Japanese translator installed,
// no visible text of the main window, its menus, dialogs, views and charts is left in English;
// `export --language` refuses a language it lacks and draws Japanese figures with ja.
#include <QAbstractButton>
#include <QActionGroup>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QMenu>
#include <QMainWindow>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QAbstractAxis>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QFontMetricsF>
#include <QTest>
#include <QTextEdit>
#include <QTimer>
#include <QXmlStreamReader>

#include <map>
#include <set>

#include "tests/support/cli_runner.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/export_dialog.h"
#include "ui/main/language.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/charts/figure_chart.h"
#include "ui/main/explanation_pane.h"
#include "ui/main/main_window.h"
#include "ui/main/view_explanations.h"
#include "ui/main/math_help.h"
#include "ui/training/train_dialog.h"
#include "ui/document/project_model.h"

namespace {

const QString kCommittedTs = QStringLiteral(DIFFUSCOPE_SOURCE_DIR "/translations/diffuscope_ja.ts");

struct TsMessage {
    QString context;
    QString source;
    QString location;  // "file:line" of its first use, when the file records it
    QString translation;
    QString type;  // "", "unfinished", "vanished" or "obsolete"
};

std::vector<TsMessage> readTs(const QString& path) {
    std::vector<TsMessage> messages;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return messages;
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        const auto name = xml.name();
        if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            current = TsMessage{context, {}, {}, {}, {}};
        } else if (name == QLatin1String("location") && current.location.isEmpty()) {
            // lupdate names files relative to the .ts file; shown relative to the sources.
            const QString file = QFileInfo(path).dir().absoluteFilePath(
                xml.attributes().value("filename").toString());
            current.location = QDir(DIFFUSCOPE_SOURCE_DIR).relativeFilePath(QDir::cleanPath(file)) +
                               ":" + xml.attributes().value("line").toString();
        } else if (name == QLatin1String("source")) {
            current.source = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            current.type = xml.attributes().value("type").toString();
            current.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            messages.push_back(current);
        }
    }
    return messages;
}

// Words that stay as they are in Japanese text: acronyms and file formats, names (of the
// program, of methods, models and libraries: Karras, AdamW, AYS, SDXL, diffusers, PyTorch, LLaDA,
// Dream, ReMDM, Fast-dLLM,
// TorchScript, U-Net),
// units, key names in shortcuts,
// the schedule and trajectory names of the spec syntax, and "English" in View ▸ Language (each
// language is named in its own language).
const std::set<QString> kAllowedWords = {
    "DDPM",    "DDIM",        "DPM",      "NLL",    "MMD",     "PNG",    "CSV",       "SVG",
    "PDF",     "GIF",         "JSON",     "NPY",    "MLP",     "ELBO",   "SNR",       "EDM",
    "EMA",     "Diffuscope",  "Analytic", "Solver", "Karras",  "AdamW",  "diffusers", "Ctrl",
    "Shift",   "Alt",         "Esc",      "Space",  "English", "DPI",    "nat",       "log",
    "exp",     "max",         "min",      "Cov",    "Var",     "linear", "cosine",    "sigmoid",
    "leading", "trailing",    "linspace", "power",  "ddpm",    "ddim",   "karras",    "rho",
    "beta",    "safetensors", "Enter",    "Delete", "PyTorch", "TorchScript", "Net",
    "AYS",     "SDXL",        "sigmas",  // k-diffusion's key
    "argmax",  "LLaDA",  "Dream",  "MDLM",  "mdlm",  "generate", "ReMDM", "Fast", "dLLM",
};

// The English words of a visible text (markup, entities, accelerators, file names and spec
// syntax removed).
QStringList englishWords(QString text) {
    text.remove(QRegularExpression("<[^>]*>"));
    text.remove(QRegularExpression("&[a-z]+;"));
    text.remove(QRegularExpression("&(?=\\S)"));
    // Spec syntax and column names: "toy:NAME[,n=,seed=]", "ms_eps", "n,gamma", "scaled-linear",
    // "per-step=llada", "order=low-confidence".
    text.remove(QRegularExpression(
        "[A-Za-z0-9_.\\[\\]+-]*(?:[=_]|:(?=[A-Za-z0-9\\[]))[A-Za-z0-9_.,;:=\\[\\]+-]*"));
    text.remove(QRegularExpression("[A-Za-z0-9]+(,[A-Za-z0-9]+)+"));
    // File names and the documentation's anchors ("gaussian.md#nll") name files, not words.
    text.remove(
        QRegularExpression("[\\w.-]+\\.(md|json|csv|png|svg|pdf|gif|npy|safetensors)(#[\\w-]+)?"));
    text.remove(QRegularExpression("\\b[a-z]+(-[a-z0-9+()]+)+"));
    // diffusers' class names ("DPMSolverMultistepScheduler", "DDIMScheduler") are code.
    text.remove(QRegularExpression("\\b[A-Z][A-Za-z]*Scheduler\\b"));
    // A command line ("diffuscope timesteps --as diffusers") is what the user types, not words.
    text.remove(QRegularExpression("\\bdiffuscope [a-z]+"));
    QStringList words;
    static const QRegularExpression word("[A-Za-z]{3,}");
    for (auto match = word.globalMatch(text); match.hasNext();) {
        const QString found = match.next().captured();
        if (!kAllowedWords.contains(found)) words << found;
    }
    return words;
}

// Collects "where: text" for every visible text with English words in it.
class EnglishFinder {
public:
    void check(const QString& where, const QString& text) {
        const QStringList words = englishWords(text);
        if (!words.isEmpty()) {
            m_problems
                << QString("%1: \"%2\" (English: %3)").arg(where, text.left(120), words.join(' '));
        }
    }

    void walkMenu(const QString& where, QMenu* menu) {
        check(where + " menu title", menu->title());
        for (QAction* action : menu->actions()) {
            if (action->isSeparator()) continue;
            // The recent files and the views' names are data, not interface text.
            if (action->menu() != nullptr) {
                walkMenu(where + " ▸ " + action->menu()->title(), action->menu());
                continue;
            }
            if (action->objectName() == "dataAction") continue;
            check(where + " ▸ action", action->text());
            if (action->toolTip() != action->text().remove('&')) {
                check(where + " ▸ action tooltip", action->toolTip());
            }
        }
    }

    void walkChart(const QString& where, QChart* chart) {
        check(where + " chart title", chart->title());
        for (QAbstractAxis* axis : chart->axes()) check(where + " axis title", axis->titleText());
        // The figure's own title and legend (the chart's are hidden).
        if (auto* figure = ui::charts::figureOf(chart)) {
            check(where + " figure title", figure->title());
            for (const QString& label : figure->legend()->labels()) check(where + " legend", label);
        }
    }

    void walkMenuBar(QMainWindow* window) {
        for (QAction* action : window->menuBar()->actions()) {
            if (action->menu() != nullptr) walkMenu("menu bar", action->menu());
        }
    }

    void walk(QWidget* root) {
        const QString rootName = root->metaObject()->className();
        const auto describe = [](QObject* object) {
            return QString("%1 \"%2\"")
                .arg(object->metaObject()->className(), object->objectName());
        };
        check(rootName + " window title", root->windowTitle());
        QList<QWidget*> widgets = root->findChildren<QWidget*>();
        widgets.prepend(root);
        for (QWidget* w : widgets) {
            const QString where = rootName + " ▸ " + describe(w);
            if (w->property("untranslatedData").toBool()) continue;
            if (!w->toolTip().isEmpty()) check(where + " tooltip", w->toolTip());
            if (!w->whatsThis().isEmpty()) check(where + " what's this", w->whatsThis());
            if (auto* label = qobject_cast<QLabel*>(w)) check(where, label->text());
            if (auto* button = qobject_cast<QAbstractButton*>(w)) check(where, button->text());
            if (auto* group = qobject_cast<QGroupBox*>(w)) check(where, group->title());
            if (auto* dock = qobject_cast<QDockWidget*>(w)) check(where, dock->windowTitle());
            if (auto* edit = qobject_cast<QLineEdit*>(w)) check(where, edit->placeholderText());
            if (auto* edit = qobject_cast<QTextEdit*>(w)) check(where, edit->placeholderText());
            if (auto* combo = qobject_cast<QComboBox*>(w); combo && !combo->isEditable()) {
                for (int i = 0; i < combo->count(); ++i) {
                    // An item that shows its identifier (a spec name) as its label.
                    QString text = combo->itemText(i);
                    const QString id = combo->itemData(i).toString();
                    if (!id.isEmpty()) text.remove(id);
                    check(where + QString(" item %1").arg(i), text);
                    check(where + QString(" item %1 tooltip").arg(i),
                          combo->itemData(i, Qt::ToolTipRole).toString());
                }
            }
            if (auto* tabs = qobject_cast<QTabWidget*>(w)) {
                for (int i = 0; i < tabs->count(); ++i) {
                    check(where + QString(" tab %1").arg(i), tabs->tabText(i));
                    check(where + QString(" tab %1 tooltip").arg(i), tabs->tabToolTip(i));
                }
            }
            if (auto* view = qobject_cast<QChartView*>(w)) walkChart(where, view->chart());
            if (auto* table = qobject_cast<QTableWidget*>(w)) {
                for (int c = 0; c < table->columnCount(); ++c) {
                    if (const QTableWidgetItem* item = table->horizontalHeaderItem(c)) {
                        check(where + QString(" column %1").arg(c), item->text());
                        check(where + QString(" column %1 tooltip").arg(c), item->toolTip());
                    }
                }
            }
            if (auto* menu = qobject_cast<QMenu*>(w)) walkMenu(where, menu);
            for (QAction* action : w->actions()) {
                if (action->menu() == nullptr && !action->isSeparator() &&
                    qobject_cast<QMenu*>(w) == nullptr) {
                    check(where + " action", action->text());
                }
            }
        }
        if (auto* window = qobject_cast<QMainWindow*>(root)) walkMenuBar(window);
    }

    // Each problem on a line of its own (a failure message is cut short), then the verdict.
    bool report() const {
        for (const QString& problem : m_problems) qWarning().noquote() << problem;
        return m_problems.isEmpty();
    }

    const QStringList& problems() const { return m_problems; }

private:
    QStringList m_problems;
};

}  // namespace

class TranslationsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void everySourceStringIsTranslated();
    void japaneseMenusHaveNoEnglish();
    void languageMenuOffersEveryTranslation();
    void japaneseInterfaceHasNoEnglish();
    void exportRefusesAnUnknownLanguage();
    void exportDrawsJapaneseFigures();
    void exportCsvIsTheSameInEveryLanguage();
};

void TranslationsTest::initTestCase() {
    QVERIFY2(ui::language::available().contains("ja"),
             "the Japanese translation is not in the resources (:/i18n/diffuscope_ja.qm)");
}

// lupdate over the sources, as a translator would run it, must find nothing new: every string
// is in the committed file, translated, and the file keeps no strings the sources dropped.
void TranslationsTest::everySourceStringIsTranslated() {
    QTemporaryDir dir;
    const QString fresh = dir.filePath("fresh.ts");
    QProcess lupdate;
    lupdate.setWorkingDirectory(DIFFUSCOPE_SOURCE_DIR);
    lupdate.start(DIFFUSCOPE_LUPDATE, {"-silent", "-locations", "absolute", "-I", ".", "ui",
                                       "app/main.cpp", "-ts", fresh});
    QVERIFY2(lupdate.waitForFinished(120000), "lupdate did not finish");
    QVERIFY2(lupdate.exitCode() == 0, lupdate.readAllStandardError().constData());

    std::map<std::pair<QString, QString>, TsMessage> committed;
    for (const TsMessage& m : readTs(kCommittedTs)) committed[{m.context, m.source}] = m;
    QVERIFY2(!committed.empty(), qPrintable(kCommittedTs + " is missing or empty"));

    QStringList problems;
    std::set<std::pair<QString, QString>> inSources;
    for (const TsMessage& m : readTs(fresh)) {
        inSources.insert({m.context, m.source});
        const auto found = committed.find({m.context, m.source});
        const QString what =
            QString("%1 (context %2): \"%3\"").arg(m.location, m.context, m.source);
        if (found == committed.end()) {
            problems << what + " is not in diffuscope_ja.ts";
        } else if (found->second.type == "unfinished") {
            problems << what + " is unfinished in diffuscope_ja.ts";
        } else if (found->second.translation.trimmed().isEmpty()) {
            problems << what + " has an empty translation in diffuscope_ja.ts";
        }
    }
    for (const auto& [key, m] : committed) {
        if (!inSources.contains(key) || m.type == "vanished" || m.type == "obsolete") {
            problems << QString("diffuscope_ja.ts (context %1): \"%2\" is no longer in the sources")
                            .arg(key.first, key.second);
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable("\n" + problems.join('\n')));
}

void TranslationsTest::japaneseMenusHaveNoEnglish() {
    QVERIFY(ui::language::install("ja"));
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    EnglishFinder finder;
    finder.walkMenuBar(&window);
    QVERIFY2(
        finder.report(),
        qPrintable(
            QString("%1 English texts in the menus (listed above)").arg(finder.problems().size())));
}

// View ▸ Language: System default, then each built-in language by its own name, one checked.
void TranslationsTest::languageMenuOffersEveryTranslation() {
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    auto* menu = window.findChild<QMenu*>("languageMenu");
    QVERIFY2(menu != nullptr, "View ▸ Language is missing");
    QStringList names;
    int checked = 0;
    for (QAction* action : menu->actions()) {
        QVERIFY2(action->isCheckable() && action->actionGroup() != nullptr &&
                     action->actionGroup()->isExclusive(),
                 qPrintable(action->text() + " is not an exclusive choice"));
        names << action->data().toString() + "=" + action->text();
        checked += action->isChecked() ? 1 : 0;
    }
    QCOMPARE(names.size(), 3);
    QVERIFY2(names.contains("en=English") && names.contains("ja=日本語") &&
                 names.first().startsWith("system="),
             qPrintable(names.join(", ")));
    QCOMPARE(checked, 1);
}

void TranslationsTest::japaneseInterfaceHasNoEnglish() {
    QVERIFY(ui::language::install("ja"));
    QTemporaryDir dir;
    ui::MainWindow window(nullptr, dir.path());
    window.resize(1400, 880);
    window.show();
    // The texts the views set once their jobs are done (legends, captions, messages) too.
    window.explorer()->waitForJobs();
    window.gaussianExplorer()->waitForJobs();
    QCoreApplication::processEvents();
    EnglishFinder finder;
    finder.walk(&window);
    // The Explanation pane's text of every view (its "Now." lines are the CSV's provenance).
    auto views = window.explorer()->views();
    for (const auto& view : window.gaussianExplorer()->views()) views.push_back(view);
    for (const auto& [name, panel] : views) {
        const ui::ViewExplanation e = ui::viewExplanation(name);
        QVERIFY2(!e.title.isEmpty(), qPrintable(name + " has no explanation"));
        for (const QString& text : {e.title, e.shows, e.read, e.tryThis}) {
            finder.check("Explanation of " + name, text);
        }
    }
    // The pane itself, "Now" lists included: its keys and worded values are translated; the
    // values that are identifiers or data (specs, ids, file names) are set as code.
    ui::ExplanationPane pane;
    pane.setViews(views);
    QString html = pane.html();
    html.remove(QRegularExpression("<code>.*?</code>"));
    for (const QString& item : html.split("<li>")) finder.check("Explanation pane", item);
    // Latin runs inside Japanese text use a proportional font: not IPAGothic's fixed-pitch
    // letters, the fallback fontconfig picks for Japanese otherwise.
    const QFont font = QApplication::font();
    QVERIFY2(font.families().contains("IPAPGothic"), qPrintable(font.families().join(", ")));
    const QFontMetricsF metrics(font);
    QVERIFY2(metrics.horizontalAdvance("iiiiiiii") < 0.7 * metrics.horizontalAdvance("MMMMMMMM"),
             qPrintable(font.family()));
    // Both processes' views and panels exist from the start; the dialogs are built as the
    // menus build them.
    ui::MathHelpDialog help(&window);
    finder.walk(&help);
    for (auto process :
         {ui::document::ProcessKind::Categorical, ui::document::ProcessKind::Gaussian}) {
        ui::training::TrainDialog train(ui::document::Project{}, process, &window);
        finder.walk(&train);
    }
    // File ▸ Export view's options, a modal dialog: read while it is open, then cancelled.
    bool exportDialogSeen = false;
    QTimer::singleShot(0, &window, [&finder, &exportDialogSeen] {
        if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) {
            finder.walk(dialog);
            exportDialogSeen = true;
            dialog->reject();
        }
    });
    ui::charts::ExportOptions options{.size = {800, 500}, .dpi = 96};
    QVERIFY(!ui::charts::askExportOptions(&window, "figure.png", &options));
    QVERIFY2(exportDialogSeen, "the export options dialog did not open");
    QVERIFY2(finder.report(),
             qPrintable(QString("%1 English texts (listed above)").arg(finder.problems().size())));
}

void TranslationsTest::exportRefusesAnUnknownLanguage() {
    QTemporaryDir dir;
    const auto result = test_support::runCli(
        {"export", "--view", "schedule", "--out", dir.filePath("s.svg"), "--language", "xx"});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("--language") && result.err.contains("xx"),
             qPrintable(result.err));
    QCOMPARE(result.err.trimmed().count('\n'), 0);
    QVERIFY(!QFile::exists(dir.filePath("s.svg")));
}

void TranslationsTest::exportDrawsJapaneseFigures() {
    QTemporaryDir dir;
    const QString path = dir.filePath("schedule.svg");
    const auto result =
        test_support::runCli({"export", "--view", "schedule", "--out", path, "--language", "ja"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    // Hiragana, katakana or kanji in the drawn text.
    QVERIFY2(svg.contains(QRegularExpression("[\\x{3040}-\\x{30ff}\\x{4e00}-\\x{9fff}]")),
             "the SVG has no Japanese text");
}

// Scripts read the CSV files: their columns, header block and view names stay in English.
void TranslationsTest::exportCsvIsTheSameInEveryLanguage() {
    QTemporaryDir dir;
    QByteArray csv[2];
    const char* languages[2] = {"en", "ja"};
    for (int i = 0; i < 2; ++i) {
        const QString path = dir.filePath(QString("matrices-%1.csv").arg(languages[i]));
        const auto result = test_support::runCli(
            {"export", "--view", "matrices", "--out", path, "--language", languages[i]});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        csv[i] = file.readAll();
    }
    QVERIFY(!csv[0].isEmpty());
    QCOMPARE(csv[1], csv[0]);
}

QTEST_MAIN(TranslationsTest)
#include "tst_translations.moc"
