// SPDX-License-Identifier: MIT
// `diffuscope categorical` with an absorbing π: the masked prior masked:K, the JSON field
// continuous_elbo (equal to H(X_0 | C), computed here from the table's rows, for every schedule)
// and its refusal when the data put mass on the mask class.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "core/io/file_io.h"
#include "core/project/project_file.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::dataPath;
using test_support::runCli;

namespace {

QJsonObject runJson(const QStringList& arguments) {
    const test_support::CliResult r = runCli(arguments);
    if (r.exitCode != 0) qFatal("diffuscope failed: %s", qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

double h(std::initializer_list<double> p) {
    double sum = 0.0;
    for (double q : p) sum -= q * std::log(q);
    return sum;
}

// categorical_table_d1.csv: condition a = (0.1, 0.2, 0.3, 0.4) over classes 0..3, b = (0.5, 0.5).
const double kEntropyA = h({0.1, 0.2, 0.3, 0.4});
const double kEntropyB = std::log(2.0);
// categorical_a5_joint.csv: 0.2855 three times and (1 − 3·0.2855)/6 six times.
const double kEntropyJoint = -3 * 0.2855 * std::log(0.2855) -
                             (1 - 3 * 0.2855) * std::log((1 - 3 * 0.2855) / 6);

}  // namespace

class tst_CliMasked : public QObject {
    Q_OBJECT

private slots:
    void continuousElboIsTheEntropy_data();
    void continuousElboIsTheEntropy();
    void absorbingWithoutDataOnTheMask();
    void refusedWhenTheMaskCarriesData_data();
    void refusedWhenTheMaskCarriesData();
    void noFieldWithoutAnAbsorbingPrior();
    void csvTrailer();
    void monteCarloWithSamples();
    void projectMaskState();
    void helpNamesTheMaskedPrior();
};

void tst_CliMasked::continuousElboIsTheEntropy_data() {
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("pi");
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<QString>("condition");
    QTest::addColumn<double>("entropy");
    for (const char* schedule : {"linear", "cosine", "power:3"}) {
        const QString s = schedule;
        QTest::newRow(qPrintable("D=1 a " + s)) << "categorical_table_d1.csv" << "masked:4" << s << "a" << kEntropyA;
        QTest::newRow(qPrintable("D=1 averaged " + s))
            << "categorical_table_d1.csv" << "masked:4" << s << "" << 0.5 * (kEntropyA + kEntropyB);
        QTest::newRow(qPrintable("D=2 " + s)) << "categorical_a5_joint.csv" << "masked:3" << s << "" << kEntropyJoint;
    }
}

// −ELBO_∞ = H(X_0 | C) whatever the schedule; its quadrature error estimate is at rounding level.
void tst_CliMasked::continuousElboIsTheEntropy() {
    QFETCH(QString, table);
    QFETCH(QString, pi);
    QFETCH(QString, schedule);
    QFETCH(QString, condition);
    QFETCH(double, entropy);
    QStringList arguments{"categorical", "--table", dataPath(qPrintable(table)), "--pi", pi,
                          "--schedule", schedule, "--steps", "50", "--threads", "2"};
    if (!condition.isEmpty()) arguments << "--condition" << condition;
    const QJsonObject json = runJson(arguments);
    DS_COMPARE_ABS(json["continuous_elbo"].toDouble(), entropy, 1e-12);
    QVERIFY(json["continuous_elbo_quadrature_error"].toDouble() < 1e-12);
    QVERIFY(!json.contains("continuous_elbo_refused"));
    // The N-step ELBO is never below it (equal for D = 1).
    QVERIFY(json["elbo"].toDouble() > entropy - 1e-12);
    // The process has the mask state: β on the grid as usual, K + 1 classes seen by the impurity
    // at t = 1 (1 − Σ p², the data's own).
    QCOMPARE(json["t"].toArray().size(), 51);
}

// absorbing:K is a masked process when the data never use the last class.
void tst_CliMasked::absorbingWithoutDataOnTheMask() {
    QTemporaryDir dir;
    const QString path = dir.filePath("t.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("x1,p\n0,0.25\n1,0.75\n");
    file.close();
    const QJsonObject json = runJson({"categorical", "--table", path, "--pi", "absorbing:3",
                                      "--schedule", "cosine", "--steps", "10"});
    DS_COMPARE_ABS(json["continuous_elbo"].toDouble(), h({0.25, 0.75}), 1e-12);
    // masked:2 is the same process.
    const QJsonObject masked = runJson({"categorical", "--table", path, "--pi", "masked:2",
                                        "--schedule", "cosine", "--steps", "10"});
    QCOMPARE(masked["continuous_elbo"].toDouble(), json["continuous_elbo"].toDouble());
    QCOMPARE(masked["elbo"].toDouble(), json["elbo"].toDouble());
}

void tst_CliMasked::refusedWhenTheMaskCarriesData_data() {
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("pi");
    QTest::addColumn<QString>("value");
    QTest::newRow("D=1") << "categorical_table_d1.csv" << "absorbing:4" << "table = p(x1 = 3 | c = a) ≥ 0.4";
    QTest::newRow("D=2") << "categorical_a5_joint.csv" << "absorbing:3" << "table = p(x1 = 2) ≥ 0.2855";
}

// The rest of the output stands; continuous_elbo is null and the reason names the field and value.
void tst_CliMasked::refusedWhenTheMaskCarriesData() {
    QFETCH(QString, table);
    QFETCH(QString, pi);
    QFETCH(QString, value);
    const test_support::CliResult r = runCli({"categorical", "--table", dataPath(qPrintable(table)),
                                              "--pi", pi, "--schedule", "linear", "--steps", "10"});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY(json["continuous_elbo"].isNull());
    const QString reason = json["continuous_elbo_refused"].toString();
    QVERIFY2(reason.startsWith(value), qPrintable(reason));
    QVERIFY(reason.contains("mask class"));
    QVERIFY(!reason.contains('\n'));
    QVERIFY2(r.err.contains("continuous_elbo refused: " + value), qPrintable(r.err));
    QCOMPARE(json["step_costs"].toArray().size(), 10);
}

void tst_CliMasked::noFieldWithoutAnAbsorbingPrior() {
    const QJsonObject json = runJson({"categorical", "--table", dataPath("categorical_table_d1.csv"),
                                      "--pi", "uniform:4", "--schedule", "linear", "--steps", "4"});
    QVERIFY(!json.contains("continuous_elbo"));
    QVERIFY(!json.contains("continuous_elbo_refused"));
}

void tst_CliMasked::csvTrailer() {
    const test_support::CliResult r = runCli({"categorical", "--table", dataPath("categorical_table_d1.csv"),
                                              "--pi", "masked:4", "--schedule", "linear", "--steps", "4",
                                              "--condition", "b", "--format", "csv"});
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.trimmed().split('\n');
    QVERIFY(lines.last().startsWith("# continuous_elbo,"));
    DS_COMPARE_ABS(lines.last().section(',', 1).toDouble(), kEntropyB, 1e-12);
}

// --samples M: a Monte Carlo estimate with its standard error, within 4 of them of H(X_0).
void tst_CliMasked::monteCarloWithSamples() {
    const QJsonObject json = runJson({"categorical", "--table", dataPath("categorical_a5_joint.csv"),
                                      "--pi", "masked:3", "--schedule", "cosine", "--steps", "10",
                                      "--samples", "20000", "--seed", "5", "--threads", "2"});
    const double stderr_ = json["continuous_elbo_stderr"].toDouble();
    QVERIFY(stderr_ > 0.0 && stderr_ < 0.05);
    QVERIFY(!json.contains("continuous_elbo_quadrature_error"));
    QVERIFY(std::abs(json["continuous_elbo"].toDouble() - kEntropyJoint) < 4.0 * stderr_);
}

// A project with "maskState": true, and --pi masked:K on a project without it, give the same
// process; --pi masked:K must name the project's K.
void tst_CliMasked::projectMaskState() {
    QTemporaryDir dir;
    core::project::Project project;  // the example: condition A = (0.05, 0.15, 0.3, 0.5)
    project.categorical.numSteps = 20;
    const QString plainPath = dir.filePath("plain.diffuscope.json");
    QVERIFY(core::io::writeFileAtomically(plainPath.toStdString(),
                                          core::project::projectToJson(project, plainPath.toStdString()))
                .ok());
    project.categorical.maskState = true;
    const QString maskedPath = dir.filePath("masked.diffuscope.json");
    QVERIFY(core::io::writeFileAtomically(maskedPath.toStdString(),
                                          core::project::projectToJson(project, maskedPath.toStdString()))
                .ok());
    const QJsonObject masked = runJson({"categorical", "--project", maskedPath});
    DS_COMPARE_ABS(masked["continuous_elbo"].toDouble(), h({0.05, 0.15, 0.3, 0.5}), 1e-12);
    const QJsonObject viaOption = runJson({"categorical", "--project", plainPath, "--pi", "masked:4"});
    QCOMPARE(viaOption["continuous_elbo"].toDouble(), masked["continuous_elbo"].toDouble());
    QCOMPARE(viaOption["elbo"].toDouble(), masked["elbo"].toDouble());
    QVERIFY(!runJson({"categorical", "--project", plainPath}).contains("continuous_elbo"));
    // A list π turns the mask state off again.
    QVERIFY(!runJson({"categorical", "--project", maskedPath, "--pi", "0.25,0.25,0.25,0.25"})
                 .contains("continuous_elbo"));
    const test_support::CliResult wrongK = runCli({"categorical", "--project", plainPath, "--pi", "masked:3"});
    QCOMPARE(wrongK.exitCode, 2);
    QVERIFY2(wrongK.err.contains("--pi = masked:3: the project's data has K = 4 classes"), qPrintable(wrongK.err));
}

void tst_CliMasked::helpNamesTheMaskedPrior() {
    const test_support::CliResult r = runCli({"categorical", "--help"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2((r.out + r.err).contains("masked:K"), qPrintable(r.out));
}

QTEST_GUILESS_MAIN(tst_CliMasked)
#include "tst_cli_masked.moc"
