// SPDX-License-Identifier: MIT
// `diffuscope decode`: the JSON fields and their values equal to the core's decode on the same
// table, --sweep-steps equal to single runs, Monte Carlo objects, CSV rows, and errors that name
// the option and the value.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

#include "core/categorical/decoding.h"
#include "core/io/file_io.h"
#include "core/project/project_file.h"
#include "core/categorical/prior.h"
#include "core/model/categorical_oracles.h"
#include "tests/support/cli_runner.h"

using test_support::runCli;
using namespace core::categorical;

namespace {

// p(0,0) = 0.4, p(0,1) = 0.1, p(1,0) = 0.15, p(1,1) = 0.35.
const char* kTable = "x1,x2,p\n0,0,0.4\n0,1,0.1\n1,0,0.15\n1,1,0.35\n";

QJsonObject parse(const test_support::CliResult& r) {
    if (r.exitCode != 0) qFatal("diffuscope failed: %s", qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

DecodeResult coreDecode(DecodeOrder order, int steps, const core::schedule::BetaCurve& curve) {
    auto t = core::data::makeCategoricalTable(2, 3, {0, 0, 0, 1, 1, 0, 1, 1}, {0.4, 0.1, 0.15, 0.35});
    const core::Vector pi = *parsePrior("masked:2");
    const core::model::TableOracle oracle(*t, pi);
    DecodeOptions o;
    o.sampler.order = order;
    o.numSteps = steps;
    auto r = decode(*t, oracle, pi, curve, o);
    if (!r) qFatal("%s", r.error().toString().c_str());
    return *r;
}

}  // namespace

class tst_CliDecode : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_table;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_table = m_dir.filePath("t.csv");
        std::ofstream(m_table.toStdString()) << kTable;
    }

    void jsonEqualsTheCore() {
        const QJsonObject j = parse(runCli({"decode", "--table", m_table, "--pi", "masked:2", "--schedule", "cosine",
                                            "--steps", "3", "--order", "ancestral"}));
        for (const char* key : {"exact", "entropy", "kl_data_output", "kl_output_data", "total_variation",
                                "distribution", "steps", "tokens_per_step", "position_entropy"}) {
            QVERIFY2(j.contains(key), key);
        }
        const DecodeResult r = coreDecode(DecodeOrder::Ancestral, 3, core::schedule::cosineCurve());
        QVERIFY(j["exact"].toBool());
        QCOMPARE(j["steps"].toInt(), 3);
        QCOMPARE(j["entropy"].toDouble(), *r.entropy.value);
        QCOMPARE(j["kl_data_output"].toDouble(), *r.klDataOutput.value);
        QCOMPARE(j["kl_output_data"].toDouble(), *r.klOutputData.value);
        QCOMPARE(j["total_variation"].toDouble(), *r.totalVariation.value);
        QCOMPARE(j["position_entropy"].toDouble(), *r.positionEntropy.value);
        const QJsonArray dist = j["distribution"].toArray();
        QCOMPARE(dist.size(), qsizetype(r.distribution.size()));
        for (qsizetype i = 0; i < dist.size(); ++i) {
            QCOMPARE(dist[i].toObject()["p"].toDouble(), r.distribution[i].p);
            QCOMPARE(dist[i].toObject()["x"].toArray()[1].toInt(), r.distribution[i].x[1]);
        }
        QCOMPARE(j["tokens_per_step"].toArray().size(), 3);
        // Ordered: whole tokens per step, step N first.
        const QJsonObject o = parse(runCli({"decode", "--table", m_table, "--pi", "masked:2", "--schedule", "linear",
                                            "--steps", "2", "--order", "confidence"}));
        QCOMPARE(o["tokens_per_step"].toArray(), (QJsonArray{1, 1}));
        QVERIFY(o["kl_data_output"].toDouble() < 1e-12);
    }

    void sweepEqualsSingleRuns() {
        const QJsonObject sweep = parse(runCli({"decode", "--table", m_table, "--pi", "masked:2", "--schedule",
                                                "linear", "--sweep-steps", "1,2,4", "--order", "random"}));
        const QJsonArray all = sweep["sweep"].toArray();
        QCOMPARE(all.size(), 3);
        int i = 0;
        for (const char* n : {"1", "2", "4"}) {
            const QJsonObject one = parse(runCli({"decode", "--table", m_table, "--pi", "masked:2", "--schedule",
                                                  "linear", "--steps", n, "--order", "random"}));
            QCOMPARE(all[i++].toObject(), one);
        }
        const test_support::CliResult csv = runCli({"decode", "--table", m_table, "--pi", "masked:2", "--schedule",
                                                    "linear", "--sweep-steps", "1,2,4", "--format", "csv"});
        QCOMPARE(csv.exitCode, 0);
        const QStringList lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].startsWith("steps,exact,samples,entropy"));
        QVERIFY(lines[2].startsWith("2,1,0,"));
    }

    void monteCarloObjects() {
        const QJsonObject j = parse(runCli({"decode", "--table", m_table, "--pi", "masked:2", "--schedule", "linear",
                                            "--steps", "2", "--samples", "2000", "--seed", "3", "--threads", "2"}));
        QVERIFY(!j["exact"].toBool());
        QVERIFY(!j.contains("distribution"));
        const QJsonObject h = j["entropy"].toObject();
        QVERIFY(h["standard_error"].toDouble() > 0.0);
        const DecodeResult r = coreDecode(DecodeOrder::Ancestral, 2, core::schedule::linearCurve());
        QVERIFY(std::abs(h["value"].toDouble() - *r.entropy.value) < 4.0 * h["standard_error"].toDouble());
        const QJsonObject again = parse(runCli({"decode", "--table", m_table, "--pi", "masked:2", "--schedule",
                                                "linear", "--steps", "2", "--samples", "2000", "--seed", "3",
                                                "--threads", "1"}));
        QCOMPARE(again, j);
    }

    // A project's set-up (its D = 1 example table, two conditions) with the mask state: one
    // position decodes to its data law exactly, whatever the sampler; options override N.
    void fromAProject() {
        core::project::Project project;
        project.categorical = project.categorical.withNumSteps(5);
        project.categorical.maskState = true;
        const QString path = m_dir.filePath("p.diffuscope.json");
        QVERIFY(core::io::writeFileAtomically(path.toStdString(),
                                              core::project::projectToJson(project, path.toStdString()))
                    .ok());
        const QJsonObject j = parse(runCli({"decode", "--project", path, "--order", "entropy"}));
        QCOMPARE(j["steps"].toInt(), 5);
        QVERIFY(j["kl_data_output"].toDouble() < 1e-12);
        QVERIFY(j["total_variation"].toDouble() < 1e-12);
        const QJsonObject three = parse(runCli({"decode", "--project", path, "--steps", "3"}));
        QCOMPARE(three["steps"].toInt(), 3);
        project.categorical.maskState = false;
        QVERIFY(core::io::writeFileAtomically(path.toStdString(),
                                              core::project::projectToJson(project, path.toStdString()))
                    .ok());
        const test_support::CliResult plain = runCli({"decode", "--project", path});
        QVERIFY(plain.exitCode != 0);
        QVERIFY2(plain.err.contains("--pi"), qPrintable(plain.err));
    }

    void errorsNameTheOption_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("expected");
        QTest::addRow("order") << QStringList{"--pi", "masked:2", "--order", "sideways"} << "--order = sideways";
        QTest::addRow("remask with an order") << QStringList{"--pi", "masked:2", "--order", "margin", "--remask", "cap:0.1"}
                                              << "--remask = cap:0.1";
        QTest::addRow("pi not masked") << QStringList{"--pi", "uniform:2"} << "--pi = uniform:2";
        QTest::addRow("values") << QStringList{"--pi", "masked:2", "--values", "temperature:-1"}
                                << "--values = temperature:-1";
        QTest::addRow("gumbel") << QStringList{"--pi", "masked:2", "--gumbel", "float16"} << "--gumbel = float16";
        QTest::addRow("sweep") << QStringList{"--pi", "masked:2", "--sweep-steps", "1,x"} << "--sweep-steps = 1,x";
        QTest::addRow("preset") << QStringList{"--pi", "masked:2", "--preset", "dream:fast"} << "--preset = dream:fast";
        QTest::addRow("preset and order")
            << QStringList{"--pi", "masked:2", "--preset", "llada:random", "--order", "margin"} << "--order = margin";
        QTest::addRow("temperature without a preset")
            << QStringList{"--pi", "masked:2", "--temperature", "0.5"} << "--temperature = 0.5";
        QTest::addRow("negative temperature")
            << QStringList{"--pi", "masked:2", "--preset", "llada:random", "--temperature", "-2"} << "--temperature = -2";
        // D = 2 positions and N = 2 steps: B = 3 divides neither.
        QTest::addRow("blocks") << QStringList{"--pi", "masked:2", "--preset", "llada:random", "--blocks", "3"}
                                << "--blocks = 3";
        QTest::addRow("blocks zero") << QStringList{"--pi", "masked:2", "--order", "random", "--blocks", "0"}
                                     << "--blocks = 0";
        QTest::addRow("per-step") << QStringList{"--pi", "masked:2", "--order", "random", "--per-step", "fast"}
                                  << "--per-step = fast";
        QTest::addRow("times with an order")
            << QStringList{"--pi", "masked:2", "--order", "random", "--times", "dream"} << "--times = dream";
        QTest::addRow("dream blocks")
            << QStringList{"--pi", "masked:2", "--preset", "dream:entropy", "--blocks", "2"} << "--blocks = 2";
    }
    void errorsNameTheOption() {
        QFETCH(QStringList, extra);
        QFETCH(QString, expected);
        QStringList args{"decode", "--table", m_table, "--schedule", "linear", "--steps", "2"};
        args << extra;
        const test_support::CliResult r = runCli(args);
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(tst_CliDecode)
#include "tst_cli_decode.moc"
