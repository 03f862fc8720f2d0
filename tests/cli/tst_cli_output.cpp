// SPDX-License-Identifier: MIT
// How the subcommands print numbers (app/cli/output_format.h): CSV cells with 17 significant
// digits, JSON in nlohmann-json's shortest round-trip form with the keys in insertion order.
#include <QTest>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "app/cli/output_format.h"
#include "tests/support/cli_runner.h"
#include "tests/support/test_support.h"

using app::cli::csvNumber;

class tst_CliOutput : public QObject {
    Q_OBJECT

private slots:
    void csvNumbers();
    void jsonNumbersAndOrder();
    void categoricalJsonKeysInOrder();
};

void tst_CliOutput::csvNumbers() {
    QCOMPARE(csvNumber(1.0), std::string("1"));
    QCOMPARE(csvNumber(0.1), std::string("0.10000000000000001"));
    QCOMPARE(csvNumber(1e20), std::string("1e+20"));
    QCOMPARE(csvNumber(-0.0), std::string("-0"));
    QCOMPARE(csvNumber(9007199254740993.0), std::string("9007199254740992"));
    QCOMPARE(csvNumber(std::nan("")), std::string());
    QCOMPARE(csvNumber(-std::numeric_limits<double>::infinity()), std::string());
    for (const double v : {1.0 / 3.0, 1e-310, 6.02214076e23, -2.5e-7}) {
        QCOMPARE(std::strtod(csvNumber(v).c_str(), nullptr), v);
    }
}

void tst_CliOutput::jsonNumbersAndOrder() {
    nlohmann::ordered_json json;
    json["z"] = 1;
    json["a"] = 1.0;
    json["third"] = 1.0 / 3.0;
    json["big"] = 1e20;
    json["nan"] = std::nan("");
    json["count"] = 9007199254740993LL;  // an integer, exact
    json["bad"] = std::string("\xff ok");
    std::ostringstream out;
    app::cli::printJson(out, json);
    QCOMPARE(out.str(), std::string("{\"z\":1,\"a\":1.0,\"third\":0.3333333333333333,\"big\":1e+20,"
                                    "\"nan\":null,\"count\":9007199254740993,"
                                    "\"bad\":\"\xEF\xBF\xBD ok\"}\n"));
}

// The keys of docs/conventions.md, in that order, on one line.
void tst_CliOutput::categoricalJsonKeysInOrder() {
    const auto result = test_support::runCli(
        {"categorical", "--table", test_support::dataPath("categorical_table_d1.csv"), "--pi",
         "uniform:4", "--schedule", "linear", "--steps", "4", "--samples", "8", "--dp", "2"});
    QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    QCOMPARE(result.out.count('\n'), 1);
    const nlohmann::ordered_json json = nlohmann::ordered_json::parse(result.out.toStdString());
    QStringList keys;
    for (const auto& [key, value] : json.items()) {
        keys << QString::fromStdString(key);
    }
    QCOMPARE(keys, QStringList({"t", "beta", "mutual_information", "impurity", "entropy",
                                "entropy_positions", "step_costs", "elbo",
                                "step_costs_stderr", "elbo_stderr", "samples", "seed", "dp"}));
    QCOMPARE(json["t"].dump(), std::string("[0.0,0.25,0.5,0.75,1.0]"));
    QCOMPARE(json["dp"]["K"].get<int>(), 2);
}

QTEST_GUILESS_MAIN(tst_CliOutput)
#include "tst_cli_output.moc"
