// SPDX-License-Identifier: MIT
// The options every subcommand declares once (app/cli/options.h): the help lists each of them,
// `--key=value` reads like `--key value`, and what is not in the table is refused by name.
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "app/cli/commands.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using test_support::CliResult;
using test_support::dataPath;
using test_support::runCli;

namespace {

// A small categorical run: cheap, deterministic, with required and defaulted options.
QStringList categorical(const QStringList& steps) {
    return QStringList{"categorical", "--table",   dataPath("categorical_table_d1.csv"),
                       "--pi",        "uniform:4", "--schedule",
                       "power:2.0"} +
           steps;
}

// The one line of stderr of a refused run.
QString refusal(const QStringList& arguments) {
    const CliResult result = runCli(arguments);
    if (result.exitCode != 2 || !result.out.isEmpty() || result.err.count('\n') != 1) {
        return "not refused with one line: " + QString::number(result.exitCode) + " " + result.err;
    }
    return result.err.trimmed();
}

QString firstLine(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readLine()).trimmed()
                                          : QString();
}

}  // namespace

class tst_CliOptions : public QObject {
    Q_OBJECT

private slots:
    void helpListsEveryOption_data();
    void helpListsEveryOption();
    void nllHelpNamesItsOptions();
    void overviewListsEveryCommand();
    void equalsFormReadsLikeSpaceForm();
    void refused_data();
    void refused();
    void flagsTakeAnExplicitValue();
};

void tst_CliOptions::helpListsEveryOption_data() {
    QTest::addColumn<QString>("command");
    for (const app::cli::CommandSpec* spec : app::cli::commandSpecs()) {
        QTest::newRow(spec->name.c_str()) << QString::fromStdString(spec->name);
    }
}

// `CMD --help`, `CMD -h` and `help CMD` print the same text, which has one line per option of
// the table with its placeholder, description and default.
void tst_CliOptions::helpListsEveryOption() {
    QFETCH(QString, command);
    const CliResult help = runCli({command, "--help"});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.err.isEmpty(), qPrintable(help.err));
    QCOMPARE(runCli({"help", command}).out, help.out);
    QCOMPARE(runCli({command, "-h"}).out, help.out);
    const QStringList lines = help.out.split('\n');
    const app::cli::CommandSpec* spec = nullptr;
    for (const app::cli::CommandSpec* s : app::cli::commandSpecs()) {
        spec = s->name == command.toStdString() ? s : spec;
    }
    QVERIFY(spec != nullptr);
    for (const app::cli::Option& option : spec->options) {
        const QString name = "--" + QString::fromStdString(option.name);
        const QString left = option.placeholder.empty()
                                 ? name
                                 : name + " " + QString::fromStdString(option.placeholder);
        const QStringList matching =
            lines.filter(QRegularExpression("^  " + QRegularExpression::escape(left) + "( |$)"));
        QVERIFY2(matching.size() == 1, qPrintable(command + ": no line for " + left));
        const QString& line = matching.front();
        QVERIFY2(line.contains(QString::fromStdString(option.description)), qPrintable(line));
        if (option.kind == app::cli::OptionKind::Required) {
            QVERIFY2(line.endsWith("(required)"), qPrintable(line));
        } else if (!option.defaultValue.empty()) {
            QVERIFY2(
                line.endsWith("(default: " + QString::fromStdString(option.defaultValue) + ")"),
                qPrintable(line));
        }
    }
}

void tst_CliOptions::nllHelpNamesItsOptions() {
    const CliResult help = runCli({"nll", "--help"});
    for (const char* option : {"--variance analytic|small|large", "--estimator", "--threads T",
                               "--gamma-data D", "--dp-variant", "--data-range A,B", "--digits"}) {
        QVERIFY2(help.out.contains(option), option);
    }
    QVERIFY(help.out.contains("(default: analytic)"));
    QCOMPARE(app::cli::nllSpec().options.size(), size_t{19});  // 17, --sweep and --project
}

void tst_CliOptions::overviewListsEveryCommand() {
    const CliResult help = runCli({"help"});
    QCOMPARE(help.exitCode, 0);
    for (const app::cli::CommandSpec* spec : app::cli::commandSpecs()) {
        QVERIFY2(help.out.contains("  " + QString::fromStdString(spec->name) + " "),
                 spec->name.c_str());
        QVERIFY2(help.out.contains(QString::fromStdString(spec->summary)), spec->name.c_str());
    }
    QVERIFY(help.out.contains("exit code 2"));
    QCOMPARE(runCli({"--help"}).out, help.out);
    QVERIFY(refusal({"help", "nope"}).contains("unknown command 'nope'"));
}

void tst_CliOptions::equalsFormReadsLikeSpaceForm() {
    const CliResult spaced = runCli(categorical({"--steps", "10", "--format", "csv"}));
    QVERIFY2(spaced.exitCode == 0, qPrintable(spaced.err));
    QCOMPARE(spaced.out.count('\n'), 1 + 11 + 1);
    const CliResult joined = runCli(categorical({"--steps=10", "--format=csv"}));
    QVERIFY2(joined.exitCode == 0, qPrintable(joined.err));
    QCOMPARE(joined.out, spaced.out);
    const CliResult json = runCli(categorical({"--steps=10", "--format=json"}));
    QVERIFY2(json.exitCode == 0 && json.out.startsWith("{\"t\":"), qPrintable(json.err));
}

void tst_CliOptions::refused_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown option")
        << QStringList{"nll", "--bogus", "1"} << "--bogus = 1: unknown option for 'nll'";
    QTest::newRow("unknown option with =")
        << categorical({"--stepz=10"}) << "--stepz = 10: unknown option for 'categorical'";
    QTest::newRow("option of another command")
        << QStringList{"kernel", "--steps", "4"} << "--steps = 4: unknown option for 'kernel'";
    QTest::newRow("unknown export option")
        << QStringList{"export", "--colour=red"} << "--colour = red: unknown option for 'export'";
    // An empty value is refused by name, whether written --key= or --key with nothing after.
    QTest::newRow("empty value with =")
        << categorical({"--steps="}) << "--steps: a value is expected (--steps N or --steps=N)";
    QTest::newRow("empty value at the end")
        << categorical({"--steps"}) << "--steps: a value is expected";
    QTest::newRow("empty value before an option")
        << categorical({"--steps", "--format", "csv"}) << "--steps: a value is expected";
    QTest::newRow("repeated, both forms") << categorical({"--steps", "10", "--steps=10"})
                                          << "--steps = 10: the option is given twice";
    QTest::newRow("stray argument") << categorical({"--steps", "10", "extra", "words"})
                                    << "unexpected argument 'extra' for 'categorical'";
    QTest::newRow("bad flag value") << QStringList{"sample", "--frames=maybe"}
                                    << "--frames = maybe: a flag takes no value, or 1/0";
    QTest::newRow("required, absent") << categorical({}) << "--steps: this option is required";
    QTest::newRow("not a number with =")
        << categorical({"--steps=ten"}) << "--steps = ten: not a whole number";
}

void tst_CliOptions::refused() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    const QString message = refusal(arguments);
    QVERIFY2(message.contains(expected), qPrintable(message));
}

// A flag is on when given bare or as =1/=true, off as =0/=false: `sample --frames` adds the
// frame columns.
void tst_CliOptions::flagsTakeAnExplicitValue() {
    QTemporaryDir dir;
    // Only the first '=' separates the key: the data spec keeps its own.
    const QStringList sample{"sample",       "--data=gaussian:d=2,s=0.5",
                             "--steps",      "100",
                             "--sampler",    "ddpm",
                             "--trajectory", "even:5",
                             "--count",      "3",
                             "--out",        dir.filePath("s.csv")};
    for (const QStringList& frames :
         {QStringList{"--frames"}, QStringList{"--frames=1"}, QStringList{"--frames", "true"}}) {
        const CliResult result = runCli(sample + frames);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QCOMPARE(firstLine(dir.filePath("s.csv")), QString("frame,t,sample,x1,x2"));
    }
    for (const QStringList& frames :
         {QStringList{}, QStringList{"--frames=0"}, QStringList{"--frames", "false"}}) {
        const CliResult result = runCli(sample + frames);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QCOMPARE(firstLine(dir.filePath("s.csv")), QString("x1,x2"));
    }
}

QTEST_GUILESS_MAIN(tst_CliOptions)
#include "tst_cli_options.moc"
