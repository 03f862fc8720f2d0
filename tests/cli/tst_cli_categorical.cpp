// SPDX-License-Identifier: MIT
// Round trips of `diffuscope kernel` and `diffuscope categorical`.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

#include "core/categorical/prior.h"
#include "core/categorical/reverse_kernel.h"
#include "core/io/file_io.h"
#include "core/project/project_file.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::dataPath;
using test_support::runCli;

class tst_CliCategorical : public QObject {
    Q_OBJECT

private slots:
    void kernelMatchesCore_data();
    void kernelMatchesCore();
    void categoricalJson();
    void categoricalCsv();
    void defaultAveragesTheConditions();
    void customFileMatchesItsProject();
    void errors_data();
    void errors();
};

void tst_CliCategorical::kernelMatchesCore_data() {
    QTest::addColumn<QString>("form");
    QTest::newRow("closed") << "closed";
    QTest::newRow("direct") << "direct";
    QTest::newRow("d3pm") << "d3pm";
}

// The printed rows parse back to exactly the core's kernel (17 significant digits).
void tst_CliCategorical::kernelMatchesCore() {
    QFETCH(QString, form);
    const test_support::CliResult r = runCli({"kernel", "--pi", "0.2,0.3,0.5", "--beta-s", "0.25", "--beta-t", "0.75",
                                              "--denoiser", dataPath("categorical_denoiser_k3.csv"), "--form", form});
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    core::Matrix f(3, 3);
    f << 0.5, 0.3, 0.2, 0.1, 0.8, 0.1, 0.2, 0.2, 0.6;
    const core::Vector pi = *core::categorical::parsePrior("0.2,0.3,0.5");
    const core::Matrix q = core::categorical::reverseKernelMatrix(
        *core::categorical::parseKernelForm(form.toStdString()), f, pi, 0.25, 0.75);
    for (int j = 0; j < 3; ++j) {
        const QStringList fields = lines[j].split(',');
        QCOMPARE(fields.size(), 3);
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(fields[k].toDouble(), q(j, k));
        }
    }
}

void tst_CliCategorical::categoricalJson() {
    const test_support::CliResult r = runCli({"categorical", "--table", dataPath("categorical_a5_joint.csv"), "--pi",
                                              "uniform:3", "--schedule", "linear", "--steps", "20", "--dp", "5",
                                              "--threads", "2", "--format", "json"});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(json["t"].toArray().size(), 21);
    QCOMPARE(json["beta"].toArray().size(), 21);
    QCOMPARE(json["mutual_information"].toArray().size(), 21);
    QCOMPARE(json["impurity"].toArray().size(), 21);
    const QJsonArray costs = json["step_costs"].toArray();
    QCOMPARE(costs.size(), 20);
    double sum = 0.0;
    for (const auto& c : costs) {
        sum += c.toDouble();
    }
    DS_COMPARE_ABS(json["elbo"].toDouble(), sum, 1e-12);
    const QJsonObject dp = json["dp"].toObject();
    QCOMPARE(dp["K"].toInt(), 5);
    const QJsonArray trajectory = dp["trajectory"].toArray();
    QCOMPARE(trajectory.size(), 6);
    const double expected[] = {0.0, 0.1, 0.2, 0.35, 0.55, 1.0};
    for (int k = 0; k < 6; ++k) {
        DS_COMPARE_ABS(trajectory[k].toDouble(), expected[k], 1e-12);
    }
    QVERIFY(dp["cost"].toDouble() > json["elbo"].toDouble());

    // The data's joint entropy H(X₀) and the sum of its positions' entropies, from the table's
    // rows read here: the joint one is what the ELBO is bounded by.
    QFile file(dataPath("categorical_a5_joint.csv"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    std::map<QString, double> joint;
    std::map<int, double> first, second;
    for (const QString& line : QString::fromUtf8(file.readAll()).split('\n')) {
        const QStringList fields = line.trimmed().split(',');
        if (fields.size() != 3 || fields[0] == "x1") continue;
        const double p = fields[2].toDouble();
        joint[fields[0] + "," + fields[1]] += p;
        first[fields[0].toInt()] += p;
        second[fields[1].toInt()] += p;
    }
    double h = 0.0, positions = 0.0;
    for (const auto& [x, p] : joint) h -= p > 0 ? p * std::log(p) : 0.0;
    for (const auto* marginal : {&first, &second}) {
        for (const auto& [x, p] : *marginal) positions -= p > 0 ? p * std::log(p) : 0.0;
    }
    QVERIFY(json["entropy"].isDouble() && json["entropy_positions"].isDouble());
    DS_COMPARE_ABS(json["entropy"].toDouble(), h, 1e-12);
    DS_COMPARE_ABS(json["entropy_positions"].toDouble(), positions, 1e-12);
    QVERIFY(h < positions);
    QVERIFY(h <= json["elbo"].toDouble());
}

// CSV: one row per grid time; with a condition and D = 1 the ELBO is H(X_0 | C = b) = ln 2.
void tst_CliCategorical::categoricalCsv() {
    const test_support::CliResult r = runCli({"categorical", "--table", dataPath("categorical_table_d1.csv"), "--pi",
                                              "uniform:4", "--schedule", "power:2.0", "--steps", "8", "--condition", "b",
                                              "--format", "csv"});
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.trimmed().split('\n');
    QCOMPARE(lines[0], QString("t,beta,mutual_information,impurity,step_cost"));
    QCOMPARE(lines.size(), 1 + 9 + 1);
    QVERIFY(lines.last().startsWith("# elbo,"));
    DS_COMPARE_ABS(lines.last().section(',', 1).toDouble(), std::log(2.0), 1e-12);
    DS_COMPARE_ABS(lines[1].section(',', 2, 2).toDouble(), std::log(2.0), 1e-15);
}

namespace {
QJsonObject categoricalJsonOf(const QStringList& arguments) {
    const test_support::CliResult r = runCli(arguments);
    if (r.exitCode != 0) qFatal("%s", qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}
}  // namespace

// Without --condition every number is the plain mean of the two conditions' runs (custom:FILE
// schedule, Monte Carlo costs with a seed, and the DP's cost of its path).
void tst_CliCategorical::defaultAveragesTheConditions() {
    const QStringList common{"categorical", "--table", dataPath("categorical_table_d1.csv"), "--pi",
                             "0.4,0.3,0.2,0.1", "--schedule",
                             "custom:" + dataPath("categorical_custom_beta.csv"), "--steps", "9",
                             "--threads", "2"};
    for (const QStringList& extra : {QStringList{"--dp", "3"},
                                     QStringList{"--samples", "50", "--seed", "7"}}) {
        const QJsonObject all = categoricalJsonOf(common + extra);
        const QJsonObject a = categoricalJsonOf(common + extra + QStringList{"--condition", "a"});
        const QJsonObject b = categoricalJsonOf(common + extra + QStringList{"--condition", "b"});
        for (const char* key : {"step_costs", "mutual_information", "impurity"}) {
            const QJsonArray va = a[key].toArray(), vb = b[key].toArray(), v = all[key].toArray();
            QCOMPARE(v.size(), va.size());
            for (qsizetype i = 0; i < v.size(); ++i) {
                DS_COMPARE_ABS(v[i].toDouble(), (va[i].toDouble() + vb[i].toDouble()) / 2.0, 1e-14);
            }
        }
        DS_COMPARE_ABS(all["elbo"].toDouble(), (a["elbo"].toDouble() + b["elbo"].toDouble()) / 2.0,
                       1e-13);
        DS_COMPARE_ABS(all["entropy"].toDouble(),
                       (a["entropy"].toDouble() + b["entropy"].toDouble()) / 2.0, 1e-14);
        if (all.contains("dp")) {
            // The least mean cost is at least the mean of the least costs of each condition.
            QVERIFY(all["dp"].toObject()["cost"].toDouble() >=
                    (a["dp"].toObject()["cost"].toDouble() + b["dp"].toObject()["cost"].toDouble()) / 2.0 -
                        1e-12);
        }
    }
}

// custom:FILE is the file's points as a project's custom curve: the same numbers as --project
// with those inner points, the same table and condition.
void tst_CliCategorical::customFileMatchesItsProject() {
    QTemporaryDir dir;
    core::project::Project project;
    auto& p = project.categorical;
    p.dataSource = core::project::CategoricalData::CsvFile;
    p.csvPath = dataPath("categorical_table_d1.csv").toStdString();
    p.conditionNames = {"a", "b"};
    p.condition = 1;
    p.schedule = core::schedule::BetaCurveKind::Custom;
    p.controlPoints = {{0.5, 0.25}};
    p.numSteps = 9;
    p.pathSteps = 3;
    p.pi = {0.25, 0.25, 0.25, 0.25};
    const std::string path = dir.filePath("custom.diffuscope.json").toStdString();
    QVERIFY(core::io::writeFileAtomically(path, core::project::projectToJson(project, path)).ok());
    const QJsonObject viaProject =
        categoricalJsonOf({"categorical", "--project", QString::fromStdString(path), "--dp", "3"});
    const QJsonObject viaOptions = categoricalJsonOf(
        {"categorical", "--table", dataPath("categorical_table_d1.csv"), "--pi", "uniform:4",
         "--schedule", "custom:" + dataPath("categorical_custom_beta.csv"), "--steps", "9",
         "--condition", "b", "--dp", "3"});
    QCOMPARE(viaOptions, viaProject);
}

void tst_CliCategorical::errors_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");  // a substring of the one-line error
    const QString table = dataPath("categorical_table_d1.csv");
    QTest::newRow("negative pi") << QStringList{"categorical", "--table", table, "--pi", "0.6,0.5,-0.1", "--schedule", "linear", "--steps", "4"}
                                 << "--pi[2] = -0.10000000000000001: a probability must be ≥ 0";
    QTest::newRow("table not a number") << QStringList{"categorical", "--table", dataPath("categorical_table_bad.csv"), "--pi", "uniform:2", "--schedule", "linear", "--steps", "4"}
                                        << "categorical_table_bad.csv:4 column 'p' = abc: not a number";
    QTest::newRow("unknown schedule") << QStringList{"categorical", "--table", table, "--pi", "uniform:4", "--schedule", "square", "--steps", "4"}
                                      << "--schedule = square: unknown schedule";
    QTest::newRow("bad condition") << QStringList{"categorical", "--table", table, "--pi", "uniform:4", "--schedule", "linear", "--steps", "4", "--condition", "z"}
                                   << "--condition = z: no such condition";
    QTest::newRow("dp too large") << QStringList{"categorical", "--table", table, "--pi", "uniform:4", "--schedule", "linear", "--steps", "4", "--dp", "5"}
                                  << "--dp = 5: K must lie in 1..N = 4";
    QTest::newRow("class out of range") << QStringList{"categorical", "--table", table, "--pi", "uniform:3", "--schedule", "linear", "--steps", "4"}
                                        << "column 'x1' = 3: a class index must lie in 0..2";
    QTest::newRow("kernel beta order") << QStringList{"kernel", "--pi", "uniform:3", "--beta-s", "0.8", "--beta-t", "0.5", "--denoiser", dataPath("categorical_denoiser_k3.csv")}
                                       << "--beta-s = 0.8: β_s must not exceed β_t";
    QTest::newRow("kernel K mismatch") << QStringList{"kernel", "--pi", "uniform:4", "--beta-s", "0.2", "--beta-t", "0.5", "--denoiser", dataPath("categorical_denoiser_k3.csv")}
                                       << "the denoiser must have K = 4 rows";
    QTest::newRow("kernel form") << QStringList{"kernel", "--pi", "uniform:3", "--beta-s", "0.2", "--beta-t", "0.5", "--denoiser", dataPath("categorical_denoiser_k3.csv"), "--form", "exact"}
                                 << "--form = exact: unknown kernel form";
}

// Bad input: exit 2 and one line on stderr naming what and where.
void tst_CliCategorical::errors() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    const test_support::CliResult r = runCli(arguments);
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(tst_CliCategorical)
#include "tst_cli_categorical.moc"
