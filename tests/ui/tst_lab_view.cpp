// SPDX-License-Identifier: MIT
// Tests of the Gaussian explorer's Lab view: the configuration table edits GaussianParams::lab
// one undo step at a time (buttons, cells, the K list, presets); a run on the moons oracle goes
// through the job runner and its charts show one series per configuration plus the DP
// reference, with the run's numbers; edits mark the results stale; a cancelled run keeps them.
#include <QAbstractAxis>
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QTabWidget>
#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QTest>

#include <cmath>

#include "core/project/lab.h"
#include "tests/support/test_support.h"
#include "ui/document/project_document.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/panels/lab_config_table.h"
#include "ui/charts/figure_chart.h"
#include "ui/main/main_window.h"
#include "ui/views/lab_view.h"

using core::project::LabConfig;
using core::gaussian::ReverseVariance;
using ui::document::GaussianParams;
using ui::panels::LabConfigTable;
using ui::views::LabView;

namespace {

// Small enough for the sanitizer build: N = 100, M = 30, two K, 100 samples per quality.
GaussianParams smallLab() {
    GaussianParams p;
    p.numSteps = 100;
    p.gammaSamples = 30;
    p.pathSteps = 5;
    p.data = "toy:moons,n=300";
    p.particleCount = 50;
    LabConfig even;
    even.name = "even, analytic";
    LabConfig trailing;
    trailing.name = "trailing, β̃";
    trailing.trajectory = "trailing";
    trailing.variance = ReverseVariance::Small;
    trailing.sampler = core::gaussian::SamplerKind::Ddpm;
    p.lab.configs = {even, trailing};
    p.lab.ks = {5, 10};
    p.lab.qualitySamples = 100;
    return p;
}

// The chart's line series (the ±SE bands are area series), by name.
QList<QLineSeries*> lines(QChart* chart) {
    QList<QLineSeries*> found;
    for (QAbstractSeries* series : chart->series()) {
        if (auto* line = qobject_cast<QLineSeries*>(series)) found.append(line);
    }
    return found;
}

QLineSeries* lineNamed(QChart* chart, const QString& name) {
    for (QLineSeries* line : lines(chart)) {
        if (line->name() == name) return line;
    }
    return nullptr;
}

QComboBox* cellCombo(LabConfigTable* table, int row, int column) {
    return qobject_cast<QComboBox*>(table->table()->cellWidget(row, column));
}

// As a user picks an item: the combos commit on activated, not on programmatic changes.
void choose(QComboBox* box, const QString& id) {
    const int index = box->findData(id);
    QVERIFY2(index >= 0, qPrintable(id));
    box->setCurrentIndex(index);
    emit box->activated(index);
}

}  // namespace

class tst_LabView : public QObject {
    Q_OBJECT

private slots:
    void addDuplicateRemoveAreUndoable();
    void cellsEditTheConfigurations();
    void kListIsParsedAndRefusedWithItsValue();
    void presetsReplaceTheConfigurationsInOneStep();
    void runShowsEveryConfigurationAndTheReference();
    void nothingOverlapsAtTheMinimumWindowSize();
};

// At the main window's smallest size, the Lab's configuration table, its buttons and the Run row
// each keep a place of their own: no two overlap, none runs past the view.
void tst_LabView::nothingOverlapsAtTheMinimumWindowSize() {
    QTemporaryDir recovery;
    ui::MainWindow window(nullptr, recovery.path());
    window.document()->setProcess(ui::document::ProcessKind::Gaussian);
    GaussianParams p = window.document()->gaussian();
    p.lab = smallLab().lab;
    QVERIFY(window.document()->setGaussian(p, "lab"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    LabView* view = window.gaussianExplorer()->labView();
    QTabWidget* tabs = window.tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->widget(i) == view || tabs->widget(i)->isAncestorOf(view)) tabs->setCurrentIndex(i);
    }
    for (const QSize size : {window.minimumSizeHint(), QSize(1024, 640), QSize(1280, 800)}) {
    window.resize(size);
    QApplication::processEvents();
    QVERIFY(view->isVisible());
    std::vector<QWidget*> parts{view->configTable()->table()};
    // The charts' "?" marks scroll with the charts: not parts of the controls.
    const auto inAChart = [](QWidget* w) {
        for (QWidget* p = w->parentWidget(); p != nullptr; p = p->parentWidget()) {
            if (qobject_cast<ui::charts::FigureChart*>(p) != nullptr) return true;
        }
        return false;
    };
    for (QAbstractButton* b : view->findChildren<QAbstractButton*>()) {
        if (b->isVisible() && !view->configTable()->table()->isAncestorOf(b) && !inAChart(b)) {
            parts.push_back(b);
        }
    }
    QVERIFY(parts.size() >= 6);  // the table, Add, Duplicate, Remove, Presets, Run, Cancel
    const auto rectOf = [view](QWidget* w) { return QRect(w->mapTo(view, QPoint(0, 0)), w->size()); };
    for (size_t i = 0; i < parts.size(); ++i) {
        const QRect a = rectOf(parts[i]);
        // Within the view, or within what scrolls in it (the table and its buttons scroll
        // when the view is short).
        QWidget* room = view;
        for (QWidget* p = parts[i]->parentWidget(); p != nullptr && p != view; p = p->parentWidget()) {
            auto* scroll = qobject_cast<QScrollArea*>(p);
            if (scroll != nullptr && scroll->widget() != nullptr && scroll->widget()->isAncestorOf(parts[i])) {
                room = scroll->widget();
                break;
            }
        }
        QVERIFY2(QRect(room->mapTo(view, QPoint(0, 0)), room->size()).contains(a),
                 qPrintable(parts[i]->objectName() + " " + parts[i]->metaObject()->className() +
                            " runs past the view"));
        for (size_t j = i + 1; j < parts.size(); ++j) {
            QVERIFY2(!a.intersects(rectOf(parts[j])),
                     qPrintable(QString("%1 overlaps %2").arg(parts[i]->metaObject()->className(),
                                                              parts[j]->metaObject()->className())));
        }
    }
    }
}

void tst_LabView::addDuplicateRemoveAreUndoable() {
    ui::document::ProjectDocument document;
    LabView view(&document);
    LabConfigTable* table = view.configTable();
    const int base = document.undoStack()->count();
    QVERIFY(table->addConfig());
    QVERIFY(table->addConfig());
    const auto& configs = [&]() -> const std::vector<LabConfig>& {
        return document.gaussian().lab.configs;
    };
    QCOMPARE(configs().size(), size_t(2));
    QCOMPARE(configs()[0].name, std::string("config 1"));
    QCOMPARE(configs()[1].name, std::string("config 2"));
    QCOMPARE(table->table()->rowCount(), 2);
    QVERIFY(table->duplicateConfig(0));
    QCOMPARE(configs().size(), size_t(3));
    QCOMPARE(configs()[1].name, std::string("config 1 (2)"));
    QVERIFY(table->removeConfig(2));
    QCOMPARE(configs().size(), size_t(2));
    QCOMPARE(configs()[1].name, std::string("config 1 (2)"));
    QCOMPARE(table->table()->item(1, LabConfigTable::Name)->text(), QString("config 1 (2)"));
    QVERIFY(!table->removeConfig(7));  // no such row: nothing happens
    QCOMPARE(document.undoStack()->count(), base + 4);
    // Each edit is one step; undo walks them back and the table follows.
    document.undoStack()->undo();
    QCOMPARE(configs().size(), size_t(3));
    QCOMPARE(table->table()->rowCount(), 3);
    QCOMPARE(table->table()->item(2, LabConfigTable::Name)->text(), QString("config 2"));
    document.undoStack()->undo();
    document.undoStack()->undo();
    QCOMPARE(configs().size(), size_t(1));
    document.undoStack()->undo();
    QVERIFY(configs().empty());
    QCOMPARE(table->table()->rowCount(), 0);
    document.undoStack()->redo();
    QCOMPARE(table->table()->rowCount(), 1);
}

void tst_LabView::cellsEditTheConfigurations() {
    ui::document::ProjectDocument document;
    LabView view(&document);
    LabConfigTable* table = view.configTable();
    QVERIFY(table->addConfig());
    const int base = document.undoStack()->count();
    const auto config = [&] { return document.gaussian().lab.configs.at(0); };
    table->table()->item(0, LabConfigTable::Name)->setText("mine");
    QCOMPARE(config().name, std::string("mine"));
    choose(cellCombo(table, 0, LabConfigTable::Variance), "small");
    QVERIFY(config().variance == ReverseVariance::Small);
    choose(cellCombo(table, 0, LabConfigTable::Sampler), "ddim");
    QVERIFY(config().sampler == core::gaussian::SamplerKind::Ddim);
    choose(cellCombo(table, 0, LabConfigTable::Schedule), "cosine");
    QCOMPARE(config().schedule, std::string("cosine"));
    choose(cellCombo(table, 0, LabConfigTable::Schedule), "");  // back to the project's
    QCOMPARE(config().schedule, std::string());
    QComboBox* trajectory = cellCombo(table, 0, LabConfigTable::Trajectory);
    trajectory->setEditText("leading,offset=1");
    emit trajectory->lineEdit()->editingFinished();
    QCOMPARE(config().trajectory, std::string("leading,offset=1"));
    QVERIFY(table->setColour(0, "#123456"));
    QCOMPARE(config().colour, std::string("#123456"));
    QCOMPARE(document.undoStack()->count(), base + 7);
    // Undo brings the widgets back too.
    document.undoStack()->undo();
    document.undoStack()->undo();
    QCOMPARE(trajectory->currentText(), QString("even"));
    QCOMPARE(table->table()->item(0, LabConfigTable::Name)->text(), QString("mine"));
}

void tst_LabView::kListIsParsedAndRefusedWithItsValue() {
    ui::document::ProjectDocument document;
    LabView view(&document);
    LabConfigTable* table = view.configTable();
    QCOMPARE(table->ksField()->text(), QString("5, 10, 25, 50, 100"));
    table->ksField()->setText("5 10,25");
    emit table->ksField()->editingFinished();
    QCOMPARE(document.gaussian().lab.ks, (std::vector<int>{5, 10, 25}));
    QCOMPARE(table->ksField()->text(), QString("5, 10, 25"));
    const int steps = document.undoStack()->count();
    table->ksField()->setText("5, ten");
    emit table->ksField()->editingFinished();
    QCOMPARE(document.gaussian().lab.ks, (std::vector<int>{5, 10, 25}));
    QCOMPARE(document.undoStack()->count(), steps);
    const QString error = table->errors().message("lab");
    QVERIFY2(error.contains("lab.ks") && error.contains("ten"), qPrintable(error));
    QCOMPARE(table->ksField()->text(), QString("5, 10, 25"));
    table->qualityField()->setValue(100);
    QCOMPARE(document.gaussian().lab.qualitySamples, 100);
    QVERIFY(ui::panels::parseKList("").error().field == "lab.ks");
}

void tst_LabView::presetsReplaceTheConfigurationsInOneStep() {
    const auto& presets = core::project::labPresets();
    QVERIFY(presets.size() >= 3);
    for (const char* id : {"leading-without-zero-snr", "ddpm-small-k", "karras-on-linear"}) {
        QVERIFY2(std::any_of(presets.begin(), presets.end(), [&](const auto& p) { return p.id == id; }),
                 id);
    }
    ui::document::ProjectDocument document;
    LabView view(&document);
    LabConfigTable* table = view.configTable();
    QVERIFY(table->addConfig());
    const GaussianParams before = document.gaussian();
    QVERIFY(view.captionLabel()->isHidden());
    for (const auto& preset : presets) {
        const int steps = document.undoStack()->index();
        QVERIFY2(table->applyPreset(preset.id), preset.id.c_str());
        QCOMPARE(document.undoStack()->index(), steps + 1);
        QVERIFY(document.gaussian().lab.configs == preset.configs);
        QCOMPARE(document.gaussian().schedule,
                 preset.schedule.empty() ? before.schedule : preset.schedule);
        QCOMPARE(document.gaussian().lab.ks, preset.ks.empty() ? before.lab.ks : preset.ks);
        QCOMPARE(table->table()->rowCount(), static_cast<int>(preset.configs.size()));
        QVERIFY(!view.captionLabel()->isHidden());
        QVERIFY(view.captionLabel()->text().contains(
            QString::fromStdString(preset.explanation).toHtmlEscaped()));
        document.undoStack()->undo();
        QVERIFY(document.gaussian() == before);
        QVERIFY(view.captionLabel()->isHidden());
    }
    QVERIFY(!table->applyPreset("no-such-preset"));
    QVERIFY(table->errors().message("lab").contains("no-such-preset"));
}

void tst_LabView::runShowsEveryConfigurationAndTheReference() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    GaussianParams params = smallLab();
    QVERIFY(document.setGaussian(params, "small lab").ok());
    explorer.waitForJobs();
    LabView* view = explorer.labView();
    QVERIFY(view->result() == nullptr);
    view->runButton()->click();  // as the user does
    QVERIFY(explorer.labRunner()->isRunning());
    QVERIFY(!view->runButton()->isEnabled());
    explorer.waitForJobs();
    const auto result = view->result();
    QVERIFY(result != nullptr);
    QVERIFY(view->runButton()->isEnabled());
    QCOMPARE(result->curves.size(), size_t(2));
    for (const auto& curve : result->curves) QVERIFY2(curve.error.empty(), curve.error.c_str());
    QVERIFY(!view->isStale());
    const QString reference = "DP optimum (reference)";
    // NLL against K: one line per configuration and the reference, its points the run's.
    QChart* nll = view->chart(2);
    QCOMPARE(lines(nll).size(), 3);
    for (const auto* curve : {&result->curves[0], &result->curves[1], &result->reference}) {
        const QString name =
            curve == &result->reference ? reference : QString::fromStdString(curve->config.name);
        QLineSeries* line = lineNamed(nll, name);
        QVERIFY2(line != nullptr, qPrintable(name));
        QCOMPARE(line->count(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(line->at(i).x(), double(params.lab.ks[size_t(i)]));
            QCOMPARE(line->at(i).y(), curve->runs[size_t(i)].nllBitsPerDim);
        }
        if (curve != &result->reference) {
            QCOMPARE(line->color(), QColor(QString::fromStdString(curve->colour)));
        }
    }
    QCOMPARE(lineNamed(nll, reference)->pen().style(), Qt::DashLine);
    QCOMPARE(lineNamed(nll, reference)->color(), QColor(Qt::black));
    // Sample quality: MMD² on 2-D data, the axis says so.
    QChart* quality = view->chart(3);
    QCOMPARE(lines(quality).size(), 3);
    QVERIFY(quality->axes(Qt::Vertical).front()->titleText().contains("MMD²"));
    const QLineSeries* first = lineNamed(quality, QString::fromStdString(result->curves[0].config.name));
    QCOMPARE(first->at(1).y(), result->curves[0].runs[1].quality->value);
    // The timesteps of the chosen K on the n axis, then on the σ axis (logarithmic).
    view->kSelector()->setCurrentIndex(view->kSelector()->findData(10));
    QChart* timesteps = view->chart(0);
    QCOMPARE(lines(timesteps).size(), 3);
    const auto& run = result->curves[1].runs[1];
    QCOMPARE(run.k, 10);
    QLineSeries* row = lineNamed(timesteps, QString::fromStdString(result->curves[1].config.name));
    QCOMPARE(row->count(), 10);
    for (int j = 0; j < 10; ++j) QCOMPARE(row->at(j).x(), double(run.timesteps[size_t(j)]));
    view->axisSelector()->setCurrentIndex(2);
    row = lineNamed(timesteps, QString::fromStdString(result->curves[1].config.name));
    QVERIFY(qobject_cast<QLogValueAxis*>(timesteps->axes(Qt::Horizontal).front()) != nullptr);
    for (int j = 0; j < row->count(); ++j) QCOMPARE(row->at(j).x(), run.sigma[size_t(j)]);
    // Per-step costs against the step index: K + 1 terms (decoder, K − 1 pairs, prior) whose
    // sum, added here by hand, is the negative ELBO of that K.
    view->stepAxisSelector()->setCurrentIndex(1);
    for (const auto* curve : {&result->curves[0], &result->reference}) {
        const QString name =
            curve == &result->reference ? reference : QString::fromStdString(curve->config.name);
        QLineSeries* steps = lineNamed(view->chart(1), name);
        QCOMPARE(steps->count(), 11);
        double sum = 0.0;
        for (int j = 0; j < steps->count(); ++j) {
            QCOMPARE(steps->at(j).x(), double(j + 1));
            sum += steps->at(j).y();
        }
        DS_COMPARE_REL(sum, curve->runs[1].nllBitsPerDim, 1e-9);
    }
    // The fifth chart: the steps in log σ of K = 10 against k = 2..10, each the difference of
    // the logarithms of the run's σ taken here; then the ratios of consecutive steps, k = 3..10.
    {
        const auto& sigma = result->curves[1].runs[1].sigma;
        QLineSeries* stepsLine = lineNamed(view->chart(4), QString::fromStdString(result->curves[1].config.name));
        QVERIFY(stepsLine != nullptr);
        QCOMPARE(stepsLine->count(), 9);
        for (int j = 0; j < 9; ++j) {
            QCOMPARE(stepsLine->at(j).x(), double(j + 2));
            DS_COMPARE_REL(stepsLine->at(j).y(),
                           std::log(sigma[size_t(j) + 1]) - std::log(sigma[size_t(j)]), 1e-12);
        }
        view->sigmaStepSelector()->setCurrentIndex(1);
        QLineSeries* ratios = lineNamed(view->chart(4), QString::fromStdString(result->curves[1].config.name));
        QCOMPARE(ratios->count(), 8);
        for (int j = 0; j < 8; ++j) {
            const double h1 = std::log(sigma[size_t(j) + 1]) - std::log(sigma[size_t(j)]);
            const double h2 = std::log(sigma[size_t(j) + 2]) - std::log(sigma[size_t(j) + 1]);
            QCOMPARE(ratios->at(j).x(), double(j + 3));
            DS_COMPARE_REL(ratios->at(j).y(), h2 / h1, 1e-12);
        }
        QCOMPARE(lines(view->chart(4)).size(), 3);
    }
    // "Copy for diffusers": the selected configuration at the chosen K, t = n − 1 descending,
    // as `diffuscope timesteps --as diffusers` prints it (one JSON line).
    {
        view->configTable()->table()->setCurrentCell(1, 0);
        auto* copy = view->findChild<QPushButton*>("copyForDiffusers");
        QVERIFY(copy != nullptr);
        copy->click();
        // previous: t − ⌊N/K⌋, where DDIMScheduler.step goes from each t.
        const int stride = 100 / 10;
        QString expected = "{\"timesteps\":[";
        for (int j = 9; j >= 0; --j) {
            expected += QString::number(run.timesteps[size_t(j)] - 1) + (j > 0 ? "," : "],");
        }
        expected += "\"previous\":[";
        for (int j = 9; j >= 0; --j) {
            expected += QString::number(run.timesteps[size_t(j)] - 1 - stride) + (j > 0 ? "," : "]}\n");
        }
        QCOMPARE(QApplication::clipboard()->text(), expected);
        view->findChild<QPushButton*>("copyForKDiffusion")->click();
        QVERIFY(QApplication::clipboard()->text().startsWith("{\"sigmas\":["));
    }
    // CSV export writes the header block, then the core's tidy table.
    QTemporaryDir dir;
    const QString path = dir.filePath("lab.csv");
    QCOMPARE(view->exportCsv(path), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::string written = file.readAll().toStdString();
    const std::string table = core::project::labToCsv(*result);
    QVERIFY(written.rfind("# view: ", 0) == 0);
    QVERIFY(written.find("# program: Diffuscope") != std::string::npos);
    QVERIFY(written.size() > table.size());
    QCOMPARE(written.substr(written.size() - table.size()), table);
    // An edit of the lab marks the charts stale; undo makes them current again, and no Γ job
    // was started for it.
    QVERIFY(view->configTable()->addConfig());
    QVERIFY(view->isStale());
    QVERIFY(!explorer.runner()->isRunning());
    document.undoStack()->undo();
    QVERIFY(!view->isStale());
    // A cancelled run (a larger sweep) leaves the shown results as they were.
    params.lab.ks = {5, 10, 25, 50, 100};
    params.lab.qualitySamples = 2000;
    QVERIFY(document.setGaussian(params, "bigger lab").ok());
    QVERIFY(view->isStale());
    QSignalSpy cancelled(explorer.labRunner(), &ui::jobs::JobRunner::cancelled);
    view->runButton()->click();
    view->cancelButton()->click();
    explorer.waitForJobs();
    QCOMPARE(cancelled.count(), 1);
    QVERIFY(view->result() == result);
    QCOMPARE(lines(view->chart(2)).size(), 3);
    QVERIFY(view->isStale());
    QVERIFY(view->runButton()->isEnabled());
}

QTEST_MAIN(tst_LabView)
#include "tst_lab_view.moc"
