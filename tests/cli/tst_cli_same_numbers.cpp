// SPDX-License-Identifier: MIT
// One project, the same numbers everywhere: every bundled example's views as `export` writes them
// (the GUI's pipeline) against the subcommands run on the same project with --project, to the bit.
// Release only: it repeats the Release numerics of the examples at full size.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "core/io/file_io.h"
#include "core/gaussian/sampler.h"
#include "core/model/torch_model.h"
#include "core/project/lab_settings.h"
#include "core/project/project_file.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::runCli;

class tst_CliSameNumbers : public QObject {
    Q_OBJECT
private slots:
    void categoricalProjectEqualsTheGui_data();
    void categoricalProjectEqualsTheGui();
    void gaussianProjectEqualsTheGui_data();
    void gaussianProjectEqualsTheGui();
    void labProjectEqualsTheGui();
    void decodingProjectEqualsTheGui_data();
    void decodingProjectEqualsTheGui();
    void decodingPresetWithBlocksEqualsTheGui();
};

void tst_CliSameNumbers::categoricalProjectEqualsTheGui_data() {
    QTest::addColumn<int>("example");
    QTest::addColumn<QStringList>("extra");
    for (int n = 1; n <= core::project::kNumExamples; ++n) {
        auto project = core::project::exampleProject(n);
        if (project && project->process == core::project::ProcessKind::Categorical) {
            QTest::newRow(qPrintable(QString("example %1").arg(n))) << n << QStringList{};
            // With the DP every pair is computed (as the GUI always does), without it only the
            // consecutive ones: the same numbers either way.
            if (project->categorical.dataSource != core::project::CategoricalData::Digits) {
                QTest::newRow(qPrintable(QString("example %1, --dp 6").arg(n)))
                    << n << QStringList{"--dp", "6"};
            }
        }
    }
}

void tst_CliSameNumbers::categoricalProjectEqualsTheGui() {
    QFETCH(int, example);
    QFETCH(QStringList, extra);
    QTemporaryDir dir;
    const QString number = QString::number(example);
    const QString project = dir.filePath("p.json");
    QCOMPARE(runCli({"project", "--example", number, "--out", project}).exitCode, 0);
    const auto cli = runCli(
        QStringList{"categorical", "--project", project, "--format", "json"} + extra, 600000);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
    const QString csv = dir.filePath("x.csv");
    const auto gui =
        runCli({"export", "--example", number, "--view", "step-costs", "--out", csv}, 600000);
    QVERIFY2(gui.exitCode == 0, qPrintable(gui.err));

    const QJsonObject json = QJsonDocument::fromJson(cli.out.toUtf8()).object();
    const QJsonArray t = json["t"].toArray(), costs = json["step_costs"].toArray();
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QStringList rows;
    for (const QString& line : QString::fromUtf8(file.readAll()).split('\n')) {
        if (!line.isEmpty() && !line.startsWith('#')) rows << line;
    }
    QCOMPARE(rows.value(0), QString("t,step_cost_nats"));
    // One row per step n = 1..N: t_n and J(n − 1, n); the JSON's t starts at t_0.
    QCOMPARE(rows.size() - 1, costs.size());
    QCOMPARE(t.size(), costs.size() + 1);
    QVERIFY(costs.size() > 1);
    for (qsizetype n = 1; n < rows.size(); ++n) {
        const QStringList cells = rows[n].split(',');
        QCOMPARE(cells.size(), 2);
        bool ok1 = false, ok2 = false;
        const double time = cells[0].toDouble(&ok1), cost = cells[1].toDouble(&ok2);
        QVERIFY(ok1 && ok2);
        QVERIFY2(time == t[n].toDouble() && cost == costs[n - 1].toDouble(),
                 qPrintable(QString("step %1: GUI %2, %3; CLI %4, %5")
                                .arg(n)
                                .arg(cells[0], cells[1])
                                .arg(t[n].toDouble(), 0, 'g', 17)
                                .arg(costs[n - 1].toDouble(), 0, 'g', 17)));
    }
}

namespace {

// A CSV file's header and rows, without its "# key: value" block.
struct CsvRows {
    QStringList header;
    std::vector<QStringList> rows;
    int column(const QString& name) const { return static_cast<int>(header.indexOf(name)); }
};

// A CSV line's cells, a quoted cell ("confidence, argmax") as one.
QStringList csvCells(const QString& line) {
    QStringList cells;
    QString cell;
    bool quoted = false;
    for (const QChar c : line) {
        if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            cells << cell;
            cell.clear();
        } else {
            cell += c;
        }
    }
    cells << cell;
    return cells;
}

CsvRows readRows(const QString& path) {
    CsvRows out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return out;
    for (const QString& line : QString::fromUtf8(file.readAll()).split('\n')) {
        if (line.isEmpty() || line.startsWith('#')) continue;
        if (out.header.isEmpty()) {
            out.header = csvCells(line);
        } else {
            out.rows.push_back(csvCells(line));
        }
    }
    return out;
}

// Column `name` of every row of `a` equals that of `b` as a double, to the bit.
bool sameColumn(const CsvRows& a, const CsvRows& b, const QString& name, QString* why,
                const QString& nameInB = {}) {
    const int i = a.column(name), j = b.column(nameInB.isEmpty() ? name : nameInB);
    if (i < 0 || j < 0 || a.rows.size() != b.rows.size() || a.rows.empty()) {
        *why = QString("column %1: %2 against %3 rows").arg(name).arg(a.rows.size()).arg(b.rows.size());
        return false;
    }
    for (size_t r = 0; r < a.rows.size(); ++r) {
        bool ok1 = false, ok2 = false;
        const double x = a.rows[r].value(i).toDouble(&ok1), y = b.rows[r].value(j).toDouble(&ok2);
        if (!ok1 || !ok2 || x != y) {
            *why = QString("column %1, row %2: %3 against %4")
                       .arg(name)
                       .arg(r)
                       .arg(a.rows[r].value(i), b.rows[r].value(j));
            return false;
        }
    }
    return true;
}

}  // namespace

void tst_CliSameNumbers::gaussianProjectEqualsTheGui_data() {
    QTest::addColumn<int>("example");
    for (int n = 1; n <= core::project::kNumExamples; ++n) {
        auto project = core::project::exampleProject(n);
        // A build without LibTorch cannot run the examples whose network is TorchScript.
        const bool torch = project && project->gaussian.model.ends_with(".pt");
        if (project && project->process == core::project::ProcessKind::Gaussian &&
            (!torch || core::model::torchModelsAvailable())) {
            QTest::newRow(qPrintable(QString("example %1").arg(n))) << n;
        }
    }
}

// The GUI's Γ, variance and Particles views of a bundled example (through `export`) against
// `gamma`, `variance` and `sample` on the same project: the same numbers, to the bit.
void tst_CliSameNumbers::gaussianProjectEqualsTheGui() {
    QFETCH(int, example);
    QTemporaryDir dir;
    const QString number = QString::number(example);
    const QString project = dir.filePath("p.json");
    QCOMPARE(runCli({"project", "--example", number, "--out", project}).exitCode, 0);
    QString why;
    for (const QString view : {"gamma", "variance", "particles"}) {
        const auto gui = runCli({"export", "--example", number, "--view", view, "--out",
                                 dir.filePath("gui-" + view + ".csv")},
                                600000);
        QVERIFY2(gui.exitCode == 0, qPrintable(gui.err));
    }

    const auto gamma =
        runCli({"gamma", "--project", project, "--out", dir.filePath("gamma.csv")}, 600000);
    QVERIFY2(gamma.exitCode == 0, qPrintable(gamma.err));
    const CsvRows guiGamma = readRows(dir.filePath("gui-gamma.csv"));
    const CsvRows cliGamma = readRows(dir.filePath("gamma.csv"));
    QCOMPARE(cliGamma.rows.size(), size_t{1000});
    QVERIFY2(sameColumn(guiGamma, cliGamma, "n", &why), qPrintable(why));
    QVERIFY2(sameColumn(guiGamma, cliGamma, "gamma", &why), qPrintable(why));

    const auto variance = runCli({"variance", "--project", project, "--format", "csv"}, 600000);
    QVERIFY2(variance.exitCode == 0, qPrintable(variance.err));
    QFile varianceFile(dir.filePath("variance.csv"));
    QVERIFY(varianceFile.open(QIODevice::WriteOnly));
    varianceFile.write(variance.out.toUtf8());
    varianceFile.close();
    // The GUI lists the pairs from τ_1 up, the command line in sampling order.
    CsvRows cliVariance = readRows(dir.filePath("variance.csv"));
    std::reverse(cliVariance.rows.begin(), cliVariance.rows.end());
    const CsvRows guiVariance = readRows(dir.filePath("gui-variance.csv"));
    for (const QString column : {"s", "t", "sigma2", "sigma2_unclipped", "lower", "upper",
                                 "upper_bounded"}) {
        QVERIFY2(sameColumn(guiVariance, cliVariance, column, &why), qPrintable(why));
    }

    const auto sample =
        runCli({"sample", "--project", project, "--out", dir.filePath("samples.csv")}, 600000);
    QVERIFY2(sample.exitCode == 0, qPrintable(sample.err));
    const CsvRows cliSamples = readRows(dir.filePath("samples.csv"));
    // The Particles view's pane A: the project's sampler, its final samples.
    CsvRows guiSamples = readRows(dir.filePath("gui-particles.csv"));
    QVERIFY(guiSamples.column("pane") >= 0);
    std::vector<QStringList> paneA;
    for (const QStringList& row : guiSamples.rows) {
        if (row.value(guiSamples.column("pane")) == "A") paneA.push_back(row);
    }
    guiSamples.rows = paneA;
    // A scatter's columns are x and y; image data have x1..xd as the command line.
    const bool scatter = guiSamples.column("x1") < 0;
    QVERIFY(cliSamples.header.size() >= 2);
    for (qsizetype i = 0; i < cliSamples.header.size(); ++i) {
        const QString column = cliSamples.header[i];
        const QString guiColumn = !scatter ? column : i == 0 ? QString("x") : QString("y");
        QVERIFY2(sameColumn(guiSamples, cliSamples, guiColumn, &why, column), qPrintable(why));
    }

    // `plan` on the project: each step's σ² and mean coefficients are those `sample` stepped
    // with (its JSON lists them), to the bit. A DPM-Solver project has no plan.
    auto read = core::project::readProjectFile(project.toStdString());
    DS_VERIFY_OK(read);
    const auto sampler = read->gaussian.sampler;
    if (core::gaussian::isDpmSolver(sampler)) return;
    const bool analytic = sampler == core::gaussian::SamplerKind::AnalyticDdpm ||
                          sampler == core::gaussian::SamplerKind::AnalyticDdim;
    const QString planVariance = analytic ? "analytic" : "small";
    const auto plan = runCli({"plan", "--project", project, "--variance", planVariance, "--out",
                              dir.filePath("plan.json")},
                             600000);
    QVERIFY2(plan.exitCode == 0, qPrintable(plan.err));
    const auto sampleJson = runCli({"sample", "--project", project, "--variance", "small",
                                    "--format", "json", "--out",
                                    dir.filePath("samples2.csv")},
                                   600000);
    QVERIFY2(sampleJson.exitCode == 0, qPrintable(sampleJson.err));
    QFile planFile(dir.filePath("plan.json"));
    QVERIFY(planFile.open(QIODevice::ReadOnly));
    const QJsonArray planSteps = QJsonDocument::fromJson(planFile.readAll()).object()["steps"].toArray();
    const QJsonArray sampleSteps =
        QJsonDocument::fromJson(sampleJson.out.toUtf8()).object()["steps"].toArray();
    QVERIFY(planSteps.size() >= 2);
    QCOMPARE(planSteps.size(), sampleSteps.size());
    for (qsizetype j = 0; j < planSteps.size(); ++j) {
        for (const QString key : {"t", "s", "variance", "x0", "xt", "eps"}) {
            const double a = planSteps[j].toObject()[key].toDouble(std::nan(""));
            const double b = sampleSteps[j].toObject()[key].toDouble(std::nan(""));
            QVERIFY2(a == b, qPrintable(QString("step %1, %2: plan %3, sample %4")
                                            .arg(j).arg(key).arg(a, 0, 'g', 17).arg(b, 0, 'g', 17)));
        }
    }
}

// The Lab view of a project with configurations against `lab --project`, and its DP optimum
// against `nll` on the project's own trajectory.
void tst_CliSameNumbers::labProjectEqualsTheGui() {
    QTemporaryDir dir;
    const QString path = dir.filePath("p.json");
    QCOMPARE(runCli({"project", "--example", "3", "--out", path}).exitCode, 0);
    auto project = core::project::readProjectFile(path.toStdString());
    DS_VERIFY_OK(project);
    core::project::LabSettings& lab = project->gaussian.lab;
    lab.configs = {{.name = "trailing", .trajectory = "trailing"},
                   {.name = "even DDIM",
                    .trajectory = "even",
                    .variance = core::gaussian::ReverseVariance::Small,
                    .sampler = core::gaussian::SamplerKind::Ddim}};
    lab.ks = {5, 10};
    lab.qualitySamples = 100;
    lab.nllPoints = 200;
    QVERIFY(core::io::writeFileAtomically(path.toStdString(),
                                          core::project::projectToJson(*project, path.toStdString()))
                .ok());
    const auto gui = runCli({"export", "--project", path, "--view", "lab", "--out",
                             dir.filePath("gui-lab.csv")},
                            600000);
    QVERIFY2(gui.exitCode == 0, qPrintable(gui.err));
    const auto cli = runCli({"lab", "--project", path, "--format", "csv", "--out",
                             dir.filePath("lab.csv")},
                            600000);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
    const CsvRows a = readRows(dir.filePath("gui-lab.csv")), b = readRows(dir.filePath("lab.csv"));
    QCOMPARE(a.header, b.header);
    QCOMPARE(a.rows, b.rows);
    // The reference at K = 10 is the project's own dp:10 with the analytic variance.
    const auto nll = runCli({"nll", "--project", path, "--samples", "200"}, 600000);
    QVERIFY2(nll.exitCode == 0, qPrintable(nll.err));
    const QJsonObject json = QJsonDocument::fromJson(nll.out.toUtf8()).object();
    bool found = false;
    for (const QStringList& row : b.rows) {
        if (row.value(0) == "DP optimum" && row.value(b.column("k")) == "10") {
            QCOMPARE(row.value(b.column("nll_bpd")).toDouble(), json["bpd"].toDouble());
            QCOMPARE(row.value(b.column("nll_se")).toDouble(), json["standard_error"].toDouble());
            found = true;
        }
    }
    QVERIFY(found);
}


void tst_CliSameNumbers::decodingProjectEqualsTheGui_data() {
    QTest::addColumn<int>("example");
    QTest::addColumn<QStringList>("samplers");  // the names of the project's default samplers
    QTest::addColumn<QStringList>("extra");
    // Example 1's table with a mask state, propagated exactly; the digits network by Monte
    // Carlo with the view's 100 chains per label and the project's seed.
    QTest::newRow("example 1, mask state")
        << 1 << QStringList{"ancestral", "confidence", "confidence, argmax", "margin", "entropy", "random"}
        << QStringList{};
    QTest::newRow("example 6, digits") << 6 << QStringList{"ancestral", "confidence, argmax"}
                                       << QStringList{"--samples", "100"};
}

namespace {

// A decode measure: a number, {"value": …} with --samples, null for infinite or undefined.
double decodeValue(const QJsonValue& v) {
    const QJsonValue value = v.isObject() ? v.toObject()["value"] : v;
    return value.isNull() ? std::numeric_limits<double>::infinity() : value.toDouble();
}

}  // namespace

namespace {

// The rows of sampler `name` in the Decoding view's CSV against `decode --project P` with
// `options` at the same N, to the bit: every measure, and each position's mean commit step
// against 1 + Σ_{i<N−1} (1 − commit[i][d]) from the JSON.
void checkDecodeAgainstView(const QString& project, const CsvRows& table, const QString& name,
                            const QStringList& options, const QStringList& measures) {
    std::vector<const QStringList*> ours;
    for (const auto& row : table.rows) {
        if (row.value(0) == name) ours.push_back(&row);
    }
    QVERIFY2(!ours.empty(), qPrintable(name));
    QStringList steps;
    for (const auto* row : ours) steps << row->value(table.column("N"));
    const auto cli = runCli(QStringList{"decode", "--project", project, "--sweep-steps", steps.join(','),
                                        "--format", "json"} +
                                options,
                            600000);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
    const QJsonArray sweep = QJsonDocument::fromJson(cli.out.toUtf8()).object()["sweep"].toArray();
    QCOMPARE(sweep.size(), static_cast<qsizetype>(ours.size()));
    for (qsizetype i = 0; i < sweep.size(); ++i) {
        const QJsonObject result = sweep[i].toObject();
        const QStringList& row = *ours[static_cast<size_t>(i)];
        QCOMPARE(QString::number(result["steps"].toInt()), steps[i]);
        for (const QString& measure : measures) {
            const QString cell = row.value(table.column(measure));
            const double shown = cell.isEmpty() ? std::numeric_limits<double>::infinity() : cell.toDouble();
            const double computed = decodeValue(result[measure]);
            QVERIFY2(shown == computed, qPrintable(QString("%1, N = %2, %3: view %4, decode %5")
                                                       .arg(name, steps[i], measure, cell)
                                                       .arg(computed, 0, 'g', 17)));
        }
        const QJsonValue commitValue = result["commit"];
        const QJsonArray commit = commitValue.isObject() ? commitValue.toObject()["value"].toArray() : commitValue.toArray();
        for (qsizetype d = 0; table.column(QString("mean_commit_step_%1").arg(d + 1)) >= 0; ++d) {
            double mean = 1.0;
            for (qsizetype step = 0; step + 1 < commit.size(); ++step) mean += 1.0 - commit[step].toArray()[d].toDouble();
            const QString cell = row.value(table.column(QString("mean_commit_step_%1").arg(d + 1)));
            QVERIFY2(cell.toDouble() == mean, qPrintable(QString("%1, N = %2, position %3: view %4, decode %5")
                                                             .arg(name, steps[i]).arg(d + 1).arg(cell)
                                                             .arg(mean, 0, 'g', 17)));
        }
    }
}

// A project file's "categorical" object, edited in place.
bool editCategorical(const QString& project, const std::function<void(QJsonObject&)>& edit) {
    QFile file(project);
    if (!file.open(QIODevice::ReadOnly)) return false;
    QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QJsonObject categorical = root["categorical"].toObject();
    edit(categorical);
    root["categorical"] = categorical;
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    return file.write(QJsonDocument(root).toJson()) > 0;
}

// The Decoding view's CSV as `export --view decoding` writes it (no rows when it fails).
CsvRows exportDecoding(const QString& project, const QTemporaryDir& dir) {
    const QString csv = dir.filePath("decoding.csv");
    const auto gui = runCli({"export", "--project", project, "--view", "decoding", "--out", csv}, 600000);
    if (gui.exitCode != 0) qWarning("%s", qPrintable(gui.err));
    return gui.exitCode == 0 ? readRows(csv) : CsvRows{};
}

}  // namespace

// The Decoding view (`export --view decoding`, the GUI's pipeline) against `decode --project`
// for each of its samplers, to the bit; an infinite KL is an empty cell there and null here.
void tst_CliSameNumbers::decodingProjectEqualsTheGui() {
    QFETCH(int, example);
    QFETCH(QStringList, samplers);
    QFETCH(QStringList, extra);
    QTemporaryDir dir;
    const QString project = dir.filePath("p.json");
    QCOMPARE(runCli({"project", "--example", QString::number(example), "--out", project}).exitCode, 0);
    if (example == 1) {
        QVERIFY(editCategorical(project, [](QJsonObject& categorical) { categorical["maskState"] = true; }));
    }
    const CsvRows table = exportDecoding(project, dir);
    QVERIFY(!table.rows.empty());
    const QStringList measures = example == 6
                                     ? QStringList{"entropy", "total_variation", "position_entropy", "accuracy"}
                                     : QStringList{"entropy", "kl_data_output", "kl_output_data",
                                                   "total_variation", "position_entropy"};
    for (const QString& name : samplers) {
        const QStringList values = name.endsWith("argmax") ? QStringList{"--values", "argmax"} : QStringList{};
        checkDecodeAgainstView(project, table, name,
                               QStringList{"--order", name.section(',', 0, 0)} + values + extra, measures);
        if (QTest::currentTestFailed()) return;
    }
}

// Presets with blocks and a temperature, in a project on a table of D = 4 (K = 2): the view's
// export and `decode --project --preset P --blocks B --temperature τ` give the same bits.
void tst_CliSameNumbers::decodingPresetWithBlocksEqualsTheGui() {
    QTemporaryDir dir;
    const QString data = dir.filePath("t4.csv");
    {
        QFile file(data);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QByteArray text = "x1,x2,x3,x4,p\n";
        const double p[16] = {0.083, 0.041, 0.101, 0.016, 0.022, 0.135, 0.028, 0.094,
                              0.018, 0.128, 0.056, 0.013, 0.026, 0.111, 0.107, 0.021};
        for (int code = 0; code < 16; ++code) {
            for (int d = 0; d < 4; ++d) text += QByteArray::number((code >> (3 - d)) & 1) + ",";
            text += QByteArray::number(p[code], 'g', 17) + "\n";
        }
        file.write(text);
    }
    const QString project = dir.filePath("p.json");
    QCOMPARE(runCli({"project", "--example", "1", "--out", project}).exitCode, 0);
    QVERIFY(editCategorical(project, [&data](QJsonObject& categorical) {
        categorical["numClasses"] = 2;
        categorical["pi"] = QJsonArray{0.5, 0.5};
        categorical["maskState"] = true;
        categorical["dataSource"] = "csv";
        categorical["csvPath"] = data;
        categorical["conditionNames"] = QJsonArray{"all"};
        categorical["table"] = QJsonArray{QJsonObject{{"p", QJsonArray{0.5, 0.5}}}};
        categorical["condition"] = 0;
        categorical["numSteps"] = 8;
        categorical["pathSteps"] = 4;
        categorical["decoding"] = QJsonObject{
            {"configs", QJsonArray{QJsonObject{{"name", "llada"},
                                               {"sampler", "preset=llada:low_confidence;blocks=2;temperature=0.5"}},
                                   QJsonObject{{"name", "fast"}, {"sampler", "preset=fast-dllm:0.6;blocks=2"}},
                                   QJsonObject{{"name", "remdm"}, {"sampler", "preset=remdm:cap:0.2"}}}},
            {"animated", 0}};
    }));
    const CsvRows table = exportDecoding(project, dir);
    QVERIFY(!table.rows.empty());
    const QStringList measures{"entropy", "kl_data_output", "kl_output_data", "total_variation", "position_entropy"};
    checkDecodeAgainstView(project, table, "llada",
                           {"--preset", "llada:low_confidence", "--blocks", "2", "--temperature", "0.5"}, measures);
    checkDecodeAgainstView(project, table, "fast", {"--preset", "fast-dllm:0.6", "--blocks", "2"}, measures);
    checkDecodeAgainstView(project, table, "remdm", {"--preset", "remdm:cap:0.2"}, measures);
}

QTEST_GUILESS_MAIN(tst_CliSameNumbers)
#include "tst_cli_same_numbers.moc"
