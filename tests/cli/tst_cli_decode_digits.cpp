// SPDX-License-Identifier: MIT
// `diffuscope decode --model` with the bundled masked digits network and no --table: the digits
// are decoded by Monte Carlo, and the JSON's accuracy equals the core's on the same chains.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

#include "core/project/decoding_runs.h"
#include "core/project/setup_sources.h"
#include "tests/support/cli_runner.h"

using test_support::runCli;

namespace {
const QString kModel = DIFFUSCOPE_SOURCE_DIR "/resources/models/digits-masked-l4.safetensors";
}

class tst_CliDecodeDigits : public QObject {
    Q_OBJECT

private slots:
    void accuracyEqualsTheCore() {
        const auto r = runCli({"decode", "--model", kModel, "--order", "margin", "--steps", "4", "--samples", "3",
                               "--seed", "2", "--condition", "3", "--threads", "1"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(j.contains("accuracy"));
        QVERIFY(j.contains("position_entropy"));
        QCOMPARE(j["samples"].toInt(), 3);
        const QJsonArray per = j["accuracy_per_condition"].toArray();
        QCOMPARE(per.size(), 10);
        QVERIFY(per[0].isNull());
        QCOMPARE(per[3].toDouble(), j["accuracy"].toDouble());

        core::project::CategoricalParams p = core::project::CategoricalParams{}.withDigits(4);
        p.maskState = true;
        p.condition = 3;
        p.schedule = core::schedule::BetaCurveKind::Linear;  // the network's
        p = p.withNumSteps(4);
        p.model = kModel.toStdString();
        const auto sources = core::project::fileSources(DIFFUSCOPE_SOURCE_DIR "/resources/data/digits.csv.gz");
        auto setup = core::project::CategoricalSetup::build(p, sources, true);
        QVERIFY(setup);
        core::project::DecodeRequest request;
        request.sampler.order = core::categorical::DecodeOrder::Margin;
        request.samples = 3;
        request.seed = 2;
        auto digits = sources.digits();
        QVERIFY(digits);
        auto core = core::project::projectDecodeDigits(**setup, request, **digits, 1);
        QVERIFY(core);
        QCOMPARE(j["accuracy"].toDouble(), core->second.accuracy);
        QCOMPARE(j["position_entropy"].toObject()["value"].toDouble(), *core->first.positionEntropy.value);
    }

    void aNetworkOfAnotherDataNeedsATable() {
        const auto r = runCli({"decode", "--model", DIFFUSCOPE_SOURCE_DIR "/resources/models/digits-categorical-l4.safetensors",
                               "--steps", "2", "--samples", "2"});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("--table"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(tst_CliDecodeDigits)
#include "tst_cli_decode_digits.moc"
