// SPDX-License-Identifier: MIT
// `diffuscope chain` and `decode --chain`: the fitted file against hand counts and the summary
// of what was left out; the decode's JSON fields equal to the core's run, the bundled English
// chain, the same bytes for any thread count, CSV rows, and refusals naming option and value.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include "core/data/markov_chain.h"
#include "core/io/json.h"
#include "core/project/chain_decoding.h"
#include "tests/support/cli_runner.h"

using test_support::runCli;

namespace {

const char* kChain = R"({"states": ["x", "y", "z"], "initial": [0.5, 0.3, 0.2],
 "transition": [[0.7, 0.2, 0.1], [0.15, 0.6, 0.25], [0.3, 0.3, 0.4]]})";

QJsonObject parse(const test_support::CliResult& r) {
    if (r.exitCode != 0) qFatal("diffuscope failed: %s", qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

}  // namespace

class tst_CliChain : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_chain;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_chain = m_dir.filePath("c.json");
        std::ofstream(m_chain.toStdString()) << kChain;
    }

    // "Hello, hello!" folds to h e l l o ␣ h e l l o . — 12 characters, 11 pairs.
    void fitWritesTheHandCountedChain() {
        const QString text = m_dir.filePath("t.txt");
        std::ofstream(text.toStdString()) << "Hello, hello!";
        const QString out = m_dir.filePath("fit.json");
        const auto r = runCli({"chain", "--text", text, "--out", out, "--alpha", "0"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("28 states fitted on 12 characters"), qPrintable(r.out));
        QVERIFY2(r.out.contains("left out 1 characters of 1 kinds outside it: \",\" 1"), qPrintable(r.out));
        auto chain = core::data::readMarkovChain(out.toStdString());
        QVERIFY2(chain, chain ? "" : chain.error().toString().c_str());
        const int e = 4, h = 7, l = 11, o = 14, space = 26, stop = 27;
        QCOMPARE(chain->at(h, e), 1.0);
        QCOMPARE(chain->at(e, l), 1.0);
        QCOMPARE(chain->at(l, l), 0.5);
        QCOMPARE(chain->at(l, o), 0.5);
        QCOMPARE(chain->at(o, space), 0.5);
        QCOMPARE(chain->at(o, stop), 0.5);
        QCOMPARE(chain->at(space, h), 1.0);
        QCOMPARE(chain->initial[static_cast<size_t>(l)], 4.0 / 12);
        QCOMPARE(chain->initial[static_cast<size_t>(stop)], 1.0 / 12);
        QVERIFY(chain->source.find("α = 0") != std::string::npos);
        // A text with nothing of the alphabet is refused, naming the file.
        std::ofstream(text.toStdString()) << "12, a";
        const auto empty = runCli({"chain", "--text", text, "--out", out});
        QCOMPARE(empty.exitCode, 2);
        QVERIFY2(empty.err.contains(text + " = 1 characters"), qPrintable(empty.err));
        const auto alpha = runCli({"chain", "--text", text, "--out", out, "--alpha", "-1"});
        QVERIFY2(alpha.err.contains("--alpha = -1"), qPrintable(alpha.err));
    }

    void decodeEqualsTheCore() {
        const QStringList args{"decode", "--chain", m_chain, "--length", "9", "--steps", "5",
                               "--preset", "llada:low_confidence", "--samples", "400", "--seed", "3"};
        const QJsonObject json = parse(runCli(args));
        for (const char* key : {"exact", "sampler", "steps", "length", "chains", "tokens_per_step", "cross_entropy",
                                "chain_entropy", "pair_total_variation", "distinct_2", "longest_repeat",
                                "position_entropy", "commit", "commit_score", "samples"}) {
            QVERIFY2(json.contains(key), key);
        }
        QCOMPARE(json["exact"].toBool(), false);
        QCOMPARE(json["chains"].toInt(), 400);
        QCOMPARE(json["samples"].toArray().size(), 20);
        QCOMPARE(json["samples"].toArray()[0].toString().size(), 9);
        QCOMPARE(json["commit"].toObject()["value"].toArray().size(), 5);
        // The core's run of the same request, field by field.
        auto chain = core::data::readMarkovChain(m_chain.toStdString());
        core::project::ChainDecodeRequest request;
        QVERIFY(core::categorical::applyDecodePreset("llada:low_confidence", 1.0, request.sampler));
        request.length = 9;
        request.numSteps = 5;
        request.samples = 400;
        request.seed = 3;
        auto run = core::project::projectDecodeChain(*chain, core::schedule::BetaCurve(), request, 1);
        QVERIFY(run);
        const QJsonObject core = QJsonDocument::fromJson(
            QByteArray::fromStdString(core::io::dumpJson(core::project::chainDecodeJson(*run)))).object();
        QCOMPARE(json, core);
        QCOMPARE(json["chain_entropy"].toDouble(), core::data::chainEntropyPerToken(*chain, 9));
        // Any thread count, the same bytes.
        QCOMPARE(runCli(args + QStringList{"--threads", "1"}).out, runCli(args + QStringList{"--threads", "2"}).out);
        // --pi may say the mask state it adds.
        QCOMPARE(parse(runCli(args + QStringList{"--pi", "masked:3"})), json);
    }

    void theBundledEnglishChain() {
        const QJsonObject json = parse(runCli({"decode", "--chain", "english", "--length", "32", "--steps", "8",
                                               "--preset", "llada:random", "--samples", "50"}));
        const QString first = json["samples"].toArray()[0].toString();
        QCOMPARE(first.size(), 32);
        for (QChar c : first) QVERIFY2(c.isLower() || c == ' ' || c == '.', qPrintable(first));
        // Letters carry between 2 and log 28 nats each.
        QVERIFY(json["chain_entropy"].toDouble() > 2.0 && json["chain_entropy"].toDouble() < std::log(28.0));
    }

    void csvRows() {
        const auto r = runCli({"decode", "--chain", m_chain, "--length", "6", "--sweep-steps", "2,6",
                               "--preset", "mdlm", "--samples", "100", "--format", "csv"});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], QString::fromStdString(core::project::chainDecodeCsvHeader()));
        QVERIFY(lines[1].startsWith("2,100,"));
        QVERIFY(lines[2].startsWith("6,100,"));
    }

    // A project whose Decoding view decodes a chain (File ▸ Examples ▸ 7, made short): `decode
    // --project` gives the numbers the view exports (`export --view decoding`, the GUI's code),
    // to the bit, at every N of the view's sweep.
    void aChainProjectGivesTheViewsNumbers() {
        const QString project = m_dir.filePath("text.json");
        QCOMPARE(runCli({"project", "--example", "7", "--out", project}).exitCode, 0);
        QFile file(project);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonObject categorical = json["categorical"].toObject();
        QJsonObject decoding = categorical["decoding"].toObject();
        QCOMPARE(decoding["chain"].toObject()["source"].toString(), QString("english"));
        QCOMPARE(decoding["chain"].toObject()["length"].toInt(), 128);
        decoding["chain"] = QJsonObject{{"source", "english"}, {"length", 12}, {"samples", 40}};
        QJsonArray configs = decoding["configs"].toArray();
        while (configs.size() > 2) configs.removeLast();
        decoding["configs"] = configs;
        categorical["decoding"] = decoding;
        json["categorical"] = categorical;
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QJsonDocument(json).toJson());
        file.close();

        const QString csv = m_dir.filePath("view.csv");
        const auto exported = runCli({"export", "--project", project, "--view", "decoding", "--out", csv}, 600000);
        QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
        QFile view(csv);
        QVERIFY(view.open(QIODevice::ReadOnly));
        QStringList rows;
        for (const QString& line : QString::fromUtf8(view.readAll()).split('\n')) {
            if (!line.isEmpty() && !line.startsWith('#')) rows << line;
        }
        QVERIFY2(rows.size() == 1 + 2 * 5, qPrintable(rows.join(QChar(10))));  // N = 1, 2, 4, 8, 12 twice
        const QStringList header = rows[0].split(',');
        const auto column = [&](const char* name) { return static_cast<int>(header.indexOf(name)); };
        QVERIFY(column("cross_entropy") >= 0 && column("N") >= 0);
        for (int r = 1; r < rows.size(); ++r) {
            const QStringList cells = rows[r].split(',');
            const QString sampler = cells[column("sampler")];
            const QString n = cells[column("N")];
            const QJsonObject cli = parse(runCli({"decode", "--project", project, "--preset", sampler, "--steps", n,
                                                  "--threads", "1"}));
            QCOMPARE(cli["chains"].toInt(), 40);
            QCOMPARE(cli["length"].toInt(), 12);
            QCOMPARE(cli["cross_entropy"].toObject()["value"].toDouble(), cells[column("cross_entropy")].toDouble());
            QCOMPARE(cli["pair_total_variation"].toObject()["value"].toDouble(),
                     cells[column("pair_total_variation")].toDouble());
            QCOMPARE(cli["longest_repeat"].toObject()["value"].toDouble(), cells[column("longest_repeat")].toDouble());
            QCOMPARE(cli["chain_entropy"].toDouble(), cells[column("chain_entropy")].toDouble());
            // The view's first sequence is the first the command line prints.
            QCOMPARE(cli["samples"].toArray()[0].toString(), cells[column("first_sequence")]);
        }
        // --length replaces the project's D; a project without a chain refuses it.
        QCOMPARE(parse(runCli({"decode", "--project", project, "--preset", "llada:random", "--steps", "4",
                               "--length", "20"}))["length"].toInt(),
                 20);
    }

    void refusalsNameTheOption() {
        const QStringList base{"decode", "--chain", m_chain, "--steps", "4", "--preset", "llada:random"};
        const auto expect = [](const test_support::CliResult& r, const QString& start) {
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.startsWith("diffuscope: " + start), qPrintable(r.err));
        };
        expect(runCli(base), "--length: this option is required");
        expect(runCli(base + QStringList{"--length", "1"}), "--length = 1:");
        expect(runCli(base + QStringList{"--length", "5000"}), "--length = 5000:");
        expect(runCli(base + QStringList{"--length", "8", "--pi", "masked:4"}), "--pi = masked:4: a chain of 3 states");
        expect(runCli(base + QStringList{"--length", "8", "--table", "t.csv"}), "--table = t.csv: not used with --chain");
        expect(runCli(base + QStringList{"--length", "8", "--samples", "1"}), "--samples = 1:");
        expect(runCli(base + QStringList{"--length", "8", "--schedule", "info-linear"}), "--schedule = info-linear");
        expect(runCli({"decode", "--length", "8", "--table", "t.csv", "--pi", "masked:2", "--schedule", "linear",
                       "--steps", "2"}),
               "--length = 8: goes with --chain FILE");
        const QString bad = m_dir.filePath("bad.json");
        std::ofstream(bad.toStdString())
            << R"({"states": ["a", "b"], "initial": [0.5, 0.5], "transition": [[0.5, 0.5], [0.4, 0.4]]})";
        expect(runCli({"decode", "--chain", bad, "--length", "4", "--steps", "2", "--preset", "llada:random"}),
               bad + ": transition[1] = sum 0.8: the entries must sum to 1");
    }
};

QTEST_GUILESS_MAIN(tst_CliChain)
#include "tst_cli_chain.moc"
