// SPDX-License-Identifier: MIT
#include "ui/document/categorical_params.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

#include "core/categorical/information.h"
#include "core/categorical/prior.h"
#include "core/data/categorical_table.h"
#include "core/util/limits.h"

namespace ui::document {
namespace {

using core::invalidArgument;

constexpr int kMaxClasses = 256;
constexpr int kMaxSteps = 10000;
constexpr int kMaxChains = 5000;

QString kernelId(core::categorical::KernelForm form) {
    return core::categorical::kernelFormName(form);
}

QString trajectoryId(CategoricalTrajectory kind) {
    switch (kind) {
        case CategoricalTrajectory::Even: return "even";
        case CategoricalTrajectory::Dp: return "dp";
        case CategoricalTrajectory::List: return "list";
    }
    return "even";
}

// Reads JSON values with errors that name their path.
class JsonReader {
public:
    explicit JsonReader(QString prefix) : m_prefix(std::move(prefix)) {}

    core::Result<double> number(const QJsonObject& o, const char* key) const {
        const QJsonValue v = o.value(key);
        if (!v.isDouble()) {
            return error(key, v, "a number is expected");
        }
        return v.toDouble();
    }
    core::Result<int> integer(const QJsonObject& o, const char* key) const {
        core::Result<double> v = number(o, key);
        if (!v) {
            return v.error();
        }
        if (*v != std::floor(*v) || std::abs(*v) > 1e9) {
            return error(key, o.value(key), "a whole number is expected");
        }
        return static_cast<int>(*v);
    }
    // Fields added after the first files were written: absent means the default.
    core::Result<int> integerOr(const QJsonObject& o, const char* key, int fallback) const {
        return o.contains(key) ? integer(o, key) : core::Result<int>(fallback);
    }
    core::Result<QString> stringOr(const QJsonObject& o, const char* key, QString fallback) const {
        return o.contains(key) ? string(o, key) : core::Result<QString>(std::move(fallback));
    }
    core::Result<QString> string(const QJsonObject& o, const char* key) const {
        const QJsonValue v = o.value(key);
        if (!v.isString()) {
            return error(key, v, "a string is expected");
        }
        return v.toString();
    }
    core::Result<std::vector<double>> numbers(const QJsonValue& v, const QString& path) const {
        if (!v.isArray()) {
            return core::makeError(core::ErrorCode::ParseError, (m_prefix + path).toStdString(),
                                   "", "a list of numbers is expected");
        }
        std::vector<double> out;
        const QJsonArray array = v.toArray();
        for (int i = 0; i < array.size(); ++i) {
            if (!array[i].isDouble()) {
                return core::makeError(core::ErrorCode::ParseError,
                                       QString("%1%2[%3]").arg(m_prefix, path).arg(i).toStdString(),
                                       "", "a number is expected");
            }
            out.push_back(array[i].toDouble());
        }
        return out;
    }

private:
    core::Error error(const char* key, const QJsonValue& v, const char* message) const {
        QString value = v.isUndefined() ? "missing" : v.toVariant().toString();
        return core::makeError(core::ErrorCode::ParseError, (m_prefix + key).toStdString(),
                               value.toStdString(), message);
    }
    QString m_prefix;
};

}  // namespace

CategoricalParams CategoricalParams::example() {
    CategoricalParams p;
    p.numClasses = 4;
    p.pi = {0.4, 0.3, 0.2, 0.1};
    p.schedule = "cosine";
    p.numSteps = 100;
    // Two conditions with clearly different data: the reverse chains end in different places.
    p.table = {{0.05, 0.15, 0.3, 0.5}, {0.6, 0.25, 0.1, 0.05}};
    p.conditionNames = {"A", "B"};
    p.condition = 0;
    p.trajectory = CategoricalTrajectory::Even;
    p.pathSteps = 10;
    p.controlPoints = {{0.3, 0.1}, {0.7, 0.6}};
    return p;
}

core::Status CategoricalParams::validate() const {
    if (numClasses < 2 || numClasses > kMaxClasses) {
        return invalidArgument("K", std::to_string(numClasses), "K must lie in 2..256");
    }
    if (static_cast<int>(pi.size()) != numClasses) {
        return invalidArgument("pi", std::to_string(pi.size()) + " entries",
                               "π needs one entry per class");
    }
    if (auto valid = core::categorical::validatePrior(pi, "pi"); !valid) {
        return valid.error();
    }
    if (schedule == "power" && !(powerExponent > 0.0 && std::isfinite(powerExponent))) {
        return invalidArgument("power", std::to_string(powerExponent),
                               "the exponent must be positive");
    }
    if (schedule == "custom") {
        if (auto curve = core::schedule::customCurve(controlPoints); !curve) {
            return curve.error();
        }
    } else if (schedule != "linear" && schedule != "cosine" && schedule != "power" &&
               schedule != "info-linear") {
        return invalidArgument("schedule", schedule.toStdString(), "unknown schedule");
    }
    if (numSteps < 1 || numSteps > kMaxSteps) {
        return invalidArgument("N", std::to_string(numSteps), "N must lie in 1..10000");
    }
    if (dataSource == CategoricalData::Digits &&
        (digitLevels < 2 || digitLevels > 17 || numClasses != digitLevels)) {
        return invalidArgument("levels", std::to_string(digitLevels),
                               "the digits need 2..17 levels and K = levels");
    }
    if (dataSource == CategoricalData::CsvFile && csvPath.isEmpty()) {
        return invalidArgument("data", "", "choose a table file");
    }
    if (dataSource == CategoricalData::Table &&
        (table.empty() || table.size() != conditionNames.size())) {
        return invalidArgument("table", std::to_string(table.size()) + " conditions",
                               "the data table needs at least one condition, each named");
    }
    for (size_t c = 0; dataSource == CategoricalData::Table && c < table.size(); ++c) {
        if (static_cast<int>(table[c].size()) != numClasses) {
            return invalidArgument("table[" + std::to_string(c) + "]",
                                   std::to_string(table[c].size()) + " entries",
                                   "each condition needs one probability per class");
        }
        if (auto valid = core::categorical::validatePrior(
                table[c], "table[" + std::to_string(c) + "]");
            !valid) {
            return valid.error();
        }
    }
    if (condition < 0 || condition >= static_cast<int>(conditionNames.size())) {
        return invalidArgument("condition", std::to_string(condition), "no such condition");
    }
    if (position < 0) {
        return invalidArgument("position", std::to_string(position), "no such position");
    }
    if (pathSteps < 1 || pathSteps > numSteps) {
        return invalidArgument("steps", std::to_string(pathSteps),
                               "the trajectory needs 1..N = " + std::to_string(numSteps) +
                                   " steps");
    }
    if (trajectory == CategoricalTrajectory::List) {
        if (trajectoryList.size() < 2 || trajectoryList.front() != 0 ||
            trajectoryList.back() != numSteps) {
            return invalidArgument("trajectoryList", "",
                                   "a typed trajectory runs from node 0 to node N = " +
                                       std::to_string(numSteps));
        }
        for (size_t k = 1; k < trajectoryList.size(); ++k) {
            if (trajectoryList[k] <= trajectoryList[k - 1]) {
                return invalidArgument("trajectoryList[" + std::to_string(k) + "]",
                                       std::to_string(trajectoryList[k]),
                                       "nodes must increase strictly");
            }
        }
    }
    if (numChains < 1 || numChains > kMaxChains) {
        return invalidArgument("chains", std::to_string(numChains), "chains must lie in 1..5000");
    }
    return {};
}

core::Result<core::schedule::BetaCurve> CategoricalParams::betaCurve(
    const std::function<double(double)>& information) const {
    if (schedule == "linear") {
        return core::schedule::linearCurve();
    }
    if (schedule == "cosine") {
        return core::schedule::cosineCurve();
    }
    if (schedule == "power") {
        return core::schedule::powerCurve(powerExponent);
    }
    if (schedule == "custom") {
        return core::schedule::customCurve(controlPoints);
    }
    if (schedule == "info-linear") {
        if (!information) {
            return invalidArgument("schedule", "info-linear", "needs the data to be loaded");
        }
        return core::schedule::informationLinearCurve(information);
    }
    return invalidArgument("schedule", schedule.toStdString(), "unknown schedule");
}

CategoricalParams CategoricalParams::withDigits(int levels) const {
    CategoricalParams p = withNumClasses(levels);
    p.dataSource = CategoricalData::Digits;
    p.digitLevels = levels;
    p.conditionNames.clear();
    for (int label = 0; label <= 9; ++label) {
        p.conditionNames.push_back(QString::number(label));
    }
    p.condition = std::clamp(condition, 0, 9);
    p.position = 27;  // a pixel near the centre, where the strokes are
    p.numChains = std::min(numChains, 64);
    return p;
}

CategoricalParams CategoricalParams::withNumClasses(int k) const {
    CategoricalParams p = *this;
    p.numClasses = k;
    auto resize = [k](std::vector<double> v, double fill) {
        v.resize(static_cast<size_t>(k), fill);
        double sum = 0.0;
        for (double x : v) {
            sum += x;
        }
        if (sum <= 0.0) {
            std::fill(v.begin(), v.end(), 1.0 / k);
        } else {
            for (double& x : v) {
                x /= sum;
            }
        }
        return v;
    };
    p.pi = resize(pi, 1.0 / k);
    for (auto& column : p.table) {
        column = resize(column, 1.0 / k);
    }
    return p;
}

QJsonObject CategoricalParams::toJson() const {
    QJsonObject o;
    o["numClasses"] = numClasses;
    QJsonArray piArray;
    for (double v : pi) {
        piArray.append(v);
    }
    o["pi"] = piArray;
    o["schedule"] = schedule;
    o["powerExponent"] = powerExponent;
    QJsonArray points;
    for (const auto& p : controlPoints) {
        points.append(QJsonArray{p.t, p.beta});
    }
    o["controlPoints"] = points;
    o["numSteps"] = numSteps;
    o["dataSource"] = dataSource == CategoricalData::Digits    ? "digits"
                      : dataSource == CategoricalData::CsvFile ? "csv"
                                                               : "table";
    o["digitLevels"] = digitLevels;
    o["csvPath"] = csvPath;
    if (!model.isEmpty()) {
        o["model"] = model;
    }
    o["position"] = position;
    QJsonArray names;
    for (const QString& name : conditionNames) {
        names.append(name);
    }
    o["conditionNames"] = names;
    QJsonArray tableArray;
    for (size_t c = 0; c < table.size(); ++c) {
        QJsonArray column;
        for (double v : table[c]) {
            column.append(v);
        }
        tableArray.append(QJsonObject{{"p", column}});
    }
    o["table"] = tableArray;
    o["condition"] = condition;
    o["trajectory"] = trajectoryId(trajectory);
    o["pathSteps"] = pathSteps;
    QJsonArray list;
    for (int n : trajectoryList) {
        list.append(n);
    }
    o["trajectoryList"] = list;
    o["kernel"] = kernelId(kernel);
    o["numChains"] = numChains;
    // A 64-bit seed does not fit a JSON double exactly: store it as text.
    o["seed"] = QString::number(seed);
    return o;
}

core::Result<CategoricalParams> CategoricalParams::fromJson(const QJsonObject& o) {
    const JsonReader read("categorical.");
    CategoricalParams p;
    auto k = read.integer(o, "numClasses");
    if (!k) return k.error();
    p.numClasses = *k;
    auto pi = read.numbers(o.value("pi"), "pi");
    if (!pi) return pi.error();
    p.pi = *pi;
    auto schedule = read.string(o, "schedule");
    if (!schedule) return schedule.error();
    p.schedule = *schedule;
    auto exponent = read.number(o, "powerExponent");
    if (!exponent) return exponent.error();
    p.powerExponent = *exponent;
    const QJsonArray points = o.value("controlPoints").toArray();
    for (int i = 0; i < points.size(); ++i) {
        auto pair = read.numbers(points[i], QString("controlPoints[%1]").arg(i));
        if (!pair) return pair.error();
        if (pair->size() != 2) {
            return core::makeError(core::ErrorCode::ParseError,
                                   QString("categorical.controlPoints[%1]").arg(i).toStdString(),
                                   "", "a control point is a pair [t, beta]");
        }
        p.controlPoints.push_back({(*pair)[0], (*pair)[1]});
    }
    auto steps = read.integer(o, "numSteps");
    if (!steps) return steps.error();
    p.numSteps = *steps;
    auto source = read.stringOr(o, "dataSource", "table");
    if (!source) return source.error();
    if (*source == "table") {
        p.dataSource = CategoricalData::Table;
    } else if (*source == "digits") {
        p.dataSource = CategoricalData::Digits;
    } else if (*source == "csv") {
        p.dataSource = CategoricalData::CsvFile;
    } else {
        return core::makeError(core::ErrorCode::ParseError, "categorical.dataSource",
                               source->toStdString(), "expected table, digits or csv");
    }
    auto levels = read.integerOr(o, "digitLevels", 4);
    if (!levels) return levels.error();
    p.digitLevels = *levels;
    p.csvPath = o.value("csvPath").toString();
    p.model = o.value("model").toString();
    auto position = read.integerOr(o, "position", 0);
    if (!position) return position.error();
    p.position = *position;
    const QJsonArray tableArray = o.value("table").toArray();
    for (int c = 0; c < tableArray.size(); ++c) {
        const QJsonObject column = tableArray[c].toObject();
        auto probabilities = read.numbers(column.value("p"), QString("table[%1].p").arg(c));
        if (!probabilities) return probabilities.error();
        p.table.push_back(*probabilities);
    }
    for (const QJsonValue& name : o.value("conditionNames").toArray()) {
        p.conditionNames.push_back(name.toString());
    }
    if (!o.contains("conditionNames")) {
        // Early files named each table column in place.
        for (const QJsonValue& column : tableArray) {
            p.conditionNames.push_back(column.toObject().value("name").toString());
        }
    }
    auto condition = read.integer(o, "condition");
    if (!condition) return condition.error();
    p.condition = *condition;
    auto trajectory = read.string(o, "trajectory");
    if (!trajectory) return trajectory.error();
    if (*trajectory == "even") {
        p.trajectory = CategoricalTrajectory::Even;
    } else if (*trajectory == "dp") {
        p.trajectory = CategoricalTrajectory::Dp;
    } else if (*trajectory == "list") {
        p.trajectory = CategoricalTrajectory::List;
    } else {
        return core::makeError(core::ErrorCode::ParseError, "categorical.trajectory",
                               trajectory->toStdString(), "expected even, dp or list");
    }
    auto pathSteps = read.integer(o, "pathSteps");
    if (!pathSteps) return pathSteps.error();
    p.pathSteps = *pathSteps;
    auto list = read.numbers(o.value("trajectoryList"), "trajectoryList");
    if (!list) return list.error();
    for (size_t k = 0; k < list->size(); ++k) {
        // Checked before the cast: 1e300 must not become −2147483648.
        const double n = (*list)[k];
        if (n != std::floor(n) || n < 0.0 || n > core::limits::kSteps.max) {
            return core::invalidArgument(
                "categorical.trajectoryList[" + std::to_string(k) + "]", core::shortestText(n),
                "a step between 0 and " + std::to_string(core::limits::kSteps.max) +
                    " is expected");
        }
        p.trajectoryList.push_back(static_cast<int>(n));
    }
    auto kernel = read.string(o, "kernel");
    if (!kernel) return kernel.error();
    auto form = core::categorical::parseKernelForm(kernel->toStdString(), "categorical.kernel");
    if (!form) return form.error();
    p.kernel = *form;
    auto chains = read.integer(o, "numChains");
    if (!chains) return chains.error();
    p.numChains = *chains;
    auto seed = read.string(o, "seed");
    if (!seed) return seed.error();
    bool ok = false;
    p.seed = seed->toULongLong(&ok);
    if (!ok) {
        return core::makeError(core::ErrorCode::ParseError, "categorical.seed",
                               seed->toStdString(), "a whole number is expected");
    }
    if (auto valid = p.validate(); !valid) {
        core::Error error = valid.error();
        error.field = "categorical." + error.field;
        return error;
    }
    return p;
}

}  // namespace ui::document
