// SPDX-License-Identifier: MIT
#include "core/project/categorical_params.h"

#include <algorithm>
#include <cstdlib>
#include <cmath>

#include "core/categorical/prior.h"
#include "core/io/reader_text.h"
#include "core/project/categorical_setup.h"
#include "core/project/path_steps.h"
#include "core/util/limits.h"

namespace core::project {
namespace {

constexpr int kMaxClasses = 256;
constexpr int kMaxSteps = limits::kSteps.max;
constexpr int kMaxChains = 5000;

Status checkTable(const CategoricalParams& p) {
    if (p.table.empty() || p.table.size() != p.conditionNames.size()) {
        return invalidArgument("table", std::to_string(p.table.size()) + " conditions",
                               "the data table needs at least one condition, each named");
    }
    for (size_t c = 0; c < p.table.size(); ++c) {
        const std::string field = "table[" + std::to_string(c) + "]";
        if (static_cast<int>(p.table[c].size()) != p.numClasses) {
            return invalidArgument(field, std::to_string(p.table[c].size()) + " entries",
                                   "each condition needs one probability per class");
        }
        if (auto valid = categorical::validatePrior(p.table[c], field); !valid) {
            // The prior's check speaks of π; here it is a column of the data table.
            Error e = valid.error();
            const std::string pi = "the entries of π";
            if (const size_t at = e.message.find(pi); at != std::string::npos) {
                std::string name = c < p.conditionNames.size() ? p.conditionNames[c] : "";
                e.message.replace(at, pi.size(),
                                  "the probabilities of condition \"" + name + "\"");
            }
            return e;
        }
    }
    return {};
}

Status checkTrajectory(const CategoricalParams& p) {
    if (p.pathSteps < 1 || p.pathSteps > p.numSteps) {
        return invalidArgument("steps", std::to_string(p.pathSteps),
                               "the trajectory needs 1..N = " + std::to_string(p.numSteps) +
                                   " steps");
    }
    if (Status s = checkPathStepsAsked(p.pathStepsAsked, limits::kSteps); !s) {
        return s;
    }
    if (p.trajectory != CategoricalTrajectory::List) {
        return {};
    }
    const auto& list = p.trajectoryList;
    if (list.size() < 2 || list.front() != 0 || list.back() != p.numSteps) {
        return invalidArgument("trajectoryList", "",
                               "a typed trajectory runs from node 0 to node N = " +
                                   std::to_string(p.numSteps));
    }
    for (size_t k = 1; k < list.size(); ++k) {
        if (list[k] <= list[k - 1]) {
            return invalidArgument("trajectoryList[" + std::to_string(k) + "]",
                                   std::to_string(list[k]), "nodes must increase strictly");
        }
    }
    return {};
}

}  // namespace

const std::vector<Choice<schedule::BetaCurveKind>> kCategoricalSchedules = {
    {schedule::BetaCurveKind::Linear, "linear", "linear: β = t"},
    {schedule::BetaCurveKind::Cosine, "cosine", "cosine"},
    {schedule::BetaCurveKind::Power, "power", "power: β = tᵖ"},
    {schedule::BetaCurveKind::Custom, "custom", "custom (drag points)"},
    {schedule::BetaCurveKind::InformationLinear, "info-linear", "information-linear"},
};

const std::vector<Choice<CategoricalTrajectory>> kCategoricalTrajectories = {
    {CategoricalTrajectory::Even, "even", "even"},
    {CategoricalTrajectory::Dp, "dp", "DP-optimal"},
    {CategoricalTrajectory::List, "list", "typed list"},
};

const std::vector<Choice<CategoricalData>> kCategoricalDataSources = {
    {CategoricalData::Table, "table", "table (edit below)"},
    {CategoricalData::Digits, "digits", "8×8 digits"},
    {CategoricalData::CsvFile, "csv", "table file (CSV)…"},
};

CategoricalParams CategoricalParams::example() {
    CategoricalParams p;
    p.numClasses = 4;
    p.pi = {0.4, 0.3, 0.2, 0.1};
    p.schedule = schedule::BetaCurveKind::Cosine;
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

Status CategoricalParams::validate() const {
    // Sizes before anything else reads the text or the lists (core/util/limits.h).
    if (Status s = limits::checkText(limits::kSpecText, "csvPath", csvPath); !s) return s;
    if (Status s = limits::checkText(limits::kSpecText, "model", model); !s) return s;
    if (Status s = decoding.validate(); !s) return s;
    if (Status s = limits::checkCount(limits::kConditionNames, "conditionNames",
                                      conditionNames.size());
        !s) {
        return s;
    }
    for (size_t c = 0; c < conditionNames.size(); ++c) {
        if (Status s = limits::checkText(limits::kNameText,
                                         "conditionNames[" + std::to_string(c) + "]",
                                         conditionNames[c]);
            !s) {
            return s;
        }
    }
    if (Status s = limits::checkCount(limits::kConditionNames, "table", table.size()); !s) return s;
    if (Status s = limits::checkCount(limits::kControlPoints, "controlPoints", controlPoints.size());
        !s) {
        return s;
    }
    if (numClasses < 2 || numClasses > kMaxClasses) {
        return invalidArgument("K", std::to_string(numClasses), "K must lie in 2..256");
    }
    if (maskState && numClasses + 1 > kMaxClasses) {
        return invalidArgument("maskState", "true",
                               "the mask state is class K + 1, so K must lie in 2..255");
    }
    if (static_cast<int>(pi.size()) != numClasses) {
        return invalidArgument("pi", std::to_string(pi.size()) + " entries",
                               "π needs one entry per class");
    }
    if (auto valid = categorical::validatePrior(pi, "pi"); !valid) {
        return valid.error();
    }
    if (schedule == schedule::BetaCurveKind::Power &&
        !(powerExponent > 0.0 && std::isfinite(powerExponent))) {
        return invalidArgument("power", formatValue(powerExponent),
                               "the exponent must be positive");
    }
    if (schedule == schedule::BetaCurveKind::Custom) {
        if (auto curve = schedule::customCurve(controlPoints); !curve) {
            return curve.error();
        }
    }
    if (numSteps < 1 || numSteps > kMaxSteps) {
        return invalidArgument("N", std::to_string(numSteps),
                               "N must lie in 1.." + std::to_string(kMaxSteps));
    }
    if (dataSource == CategoricalData::Digits &&
        (digitLevels < 2 || digitLevels > 17 || numClasses != digitLevels)) {
        return invalidArgument("levels", std::to_string(digitLevels),
                               "the digits need 2..17 levels and K = levels");
    }
    if (dataSource == CategoricalData::CsvFile && csvPath.empty()) {
        return invalidArgument("data", "", "choose a table file");
    }
    if (dataSource == CategoricalData::Table) {
        if (auto valid = checkTable(*this); !valid) return valid;
    }
    if ((condition < 0 && condition != kAllConditions) ||
        condition >= static_cast<int>(conditionNames.size())) {
        return invalidArgument("condition", std::to_string(condition), "no such condition");
    }
    if (position < 0) {
        return invalidArgument("position", std::to_string(position), "no such position");
    }
    if (auto valid = checkTrajectory(*this); !valid) return valid;
    if (numChains < 1 || numChains > kMaxChains) {
        return invalidArgument("chains", std::to_string(numChains), "chains must lie in 1..5000");
    }
    return {};
}

Result<schedule::BetaCurve> CategoricalParams::betaCurve(
    const std::function<double(double)>& information) const {
    switch (schedule) {
        case schedule::BetaCurveKind::Linear: return schedule::linearCurve();
        case schedule::BetaCurveKind::Cosine: return schedule::cosineCurve();
        case schedule::BetaCurveKind::Power: return schedule::powerCurve(powerExponent);
        case schedule::BetaCurveKind::Custom: return schedule::customCurve(controlPoints);
        case schedule::BetaCurveKind::InformationLinear:
            if (!information) {
                return invalidArgument("schedule", "info-linear", "needs the data to be loaded");
            }
            return schedule::informationLinearCurve(information);
    }
    return invalidArgument("schedule", "", "unknown schedule");
}

std::string CategoricalParams::scheduleSpec() const {
    if (schedule == schedule::BetaCurveKind::Power) return "power:" + shortestText(powerExponent);
    return choiceId(kCategoricalSchedules, schedule);
}

Status CategoricalParams::setPriorSpec(const std::string& spec, const std::string& field,
                                       int dataClasses) {
    Result<Vector> parsed = categorical::parsePrior(spec, field);
    if (!parsed) return parsed.error();
    const int masked = categorical::maskedPriorClasses(spec);
    const int classes = masked > 0 ? masked : static_cast<int>(parsed->size());
    if (dataClasses > 0 && classes != dataClasses) {
        return invalidArgument(field, spec,
                               "the project's data has K = " + std::to_string(dataClasses) +
                                   " classes");
    }
    maskState = masked > 0;
    numClasses = classes;
    if (!maskState) {
        pi.assign(parsed->data(), parsed->data() + parsed->size());
    } else if (dataClasses == 0) {
        pi.assign(static_cast<size_t>(classes), 1.0 / classes);
    }
    return {};
}

Status CategoricalParams::useCsvTable(const std::string& path) {
    Result<data::CategoricalTable> read = data::readCategoricalTable(path, numClasses);
    if (!read) return read.error();
    dataSource = CategoricalData::CsvFile;
    csvPath = path;
    conditionNames = read->conditionNames;
    table.clear();
    condition = kAllConditions;
    return {};
}

Status CategoricalParams::selectCondition(const std::string& name, const std::string& field,
                                          const std::string& where) {
    const auto named = std::find(conditionNames.begin(), conditionNames.end(), name);
    if (named == conditionNames.end()) {
        return invalidArgument(field, io::printable(name), data::noSuchCondition(conditionNames, where));
    }
    condition = static_cast<int>(named - conditionNames.begin());
    return {};
}

Status CategoricalParams::setScheduleSpec(const std::string& spec, const std::string& field) {
    using schedule::BetaCurveKind;
    if (spec.rfind("custom:", 0) == 0 && spec.size() > 7) {
        auto points = schedule::readControlPoints(spec.substr(7));
        if (!points) return points.error();
        schedule = BetaCurveKind::Custom;
        controlPoints.clear();
        for (const schedule::ControlPoint& point : *points) {
            if (point.t > 0.0 && point.t < 1.0) controlPoints.push_back(point);
        }
        return {};
    }
    if (spec == "custom") {
        if (controlPoints.empty()) {
            return invalidArgument(field, spec, "give the curve's points: custom:FILE");
        }
        schedule = BetaCurveKind::Custom;
        return {};
    }
    if (spec == "info-linear") {
        schedule = BetaCurveKind::InformationLinear;
        return {};
    }
    // linear, cosine and power:P, checked and named as every schedule is.
    auto curve = schedule::parseBetaCurve(spec, {}, field);
    if (!curve) return curve.error();
    schedule = curve->kind();
    if (schedule == BetaCurveKind::Power) {
        powerExponent = std::strtod(spec.c_str() + spec.find(':') + 1, nullptr);
    }
    return {};
}

CategoricalParams CategoricalParams::withDigits(int levels) const {
    CategoricalParams p = withNumClasses(levels);
    p.dataSource = CategoricalData::Digits;
    p.digitLevels = levels;
    p.conditionNames.clear();
    for (int label = 0; label <= 9; ++label) {
        p.conditionNames.push_back(std::to_string(label));
    }
    p.condition = condition == kAllConditions ? condition : std::clamp(condition, 0, 9);
    p.position = 27;  // a pixel near the centre, where the strokes are
    p.numChains = std::min(numChains, 64);
    return p;
}

CategoricalParams CategoricalParams::withNumSteps(int n) const {
    CategoricalParams p = *this;
    if (n == numSteps) return p;
    const int asked = pathStepsWanted(pathSteps, pathStepsAsked, numSteps);
    p.numSteps = n;
    p.pathSteps = std::min(asked, n);
    p.pathStepsAsked = asked > n ? asked : 0;
    // A typed list runs from node 0 to node N: it fits no other N.
    p.trajectoryList.clear();
    if (p.trajectory == CategoricalTrajectory::List) p.trajectory = CategoricalTrajectory::Even;
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

io::Json CategoricalParams::toJson() const {
    io::Json o;
    o["numClasses"] = numClasses;
    o["pi"] = pi;
    if (maskState) {
        o["maskState"] = true;
    }
    o["schedule"] = choiceId(kCategoricalSchedules, schedule);
    o["powerExponent"] = powerExponent;
    io::Json points = io::Json::array();
    for (const auto& p : controlPoints) {
        points.push_back({p.t, p.beta});
    }
    o["controlPoints"] = points;
    o["numSteps"] = numSteps;
    o["dataSource"] = choiceId(kCategoricalDataSources, dataSource);
    o["digitLevels"] = digitLevels;
    o["csvPath"] = csvPath;
    if (!model.empty()) {
        o["model"] = model;
    }
    o["position"] = position;
    o["conditionNames"] = conditionNames;
    io::Json tableArray = io::Json::array();
    for (const auto& column : table) {
        tableArray.push_back({{"p", column}});
    }
    o["table"] = tableArray;
    o["condition"] = condition;
    o["trajectory"] = choiceId(kCategoricalTrajectories, trajectory);
    o["pathSteps"] = pathSteps;
    if (pathStepsCapped(pathSteps, pathStepsAsked, numSteps)) {
        o["pathStepsAsked"] = pathStepsAsked;
    }
    o["trajectoryList"] = trajectoryList;
    o["kernel"] = categorical::kernelFormName(kernel);
    o["numChains"] = numChains;
    // A 64-bit seed does not fit a JSON double exactly: store it as text.
    o["seed"] = std::to_string(seed);
    if (decoding != DecodingSettings{}) {
        o["decoding"] = decoding.toJson();
    }
    return o;
}

namespace {

// The table, its condition names (early files named each column in place) and the typed list.
Status readTableAndList(const io::JsonFields& read, CategoricalParams& p) {
    const io::Json* tableArray = read.raw("table");
    if (tableArray != nullptr && !tableArray->is_array()) {
        return read.error("table", tableArray, "a list of columns is expected");
    }
    const size_t columns = tableArray != nullptr ? tableArray->size() : 0;
    if (Status s = limits::checkCount(limits::kConditionNames, read.prefix() + "table", columns);
        !s) {
        return s;
    }
    for (size_t c = 0; c < columns; ++c) {
        const std::string path = "table[" + std::to_string(c) + "]";
        const io::Json& column = (*tableArray)[c];
        if (!column.is_object() || !column.contains("p")) {
            return read.error(path, &column, "an object with the probabilities \"p\" is expected");
        }
        auto probabilities = io::jsonNumbers(column["p"], read.prefix() + path + ".p");
        if (!probabilities) return probabilities.error();
        p.table.push_back(*probabilities);
    }
    if (read.has("conditionNames")) {
        auto names = read.strings("conditionNames");
        if (!names) return names.error();
        p.conditionNames = *names;
    } else {
        for (size_t c = 0; c < columns; ++c) {
            const io::Json& column = (*tableArray)[c];
            p.conditionNames.push_back(column.contains("name") && column["name"].is_string()
                                           ? column["name"].get<std::string>()
                                           : std::string());
        }
    }
    if (const io::Json* raw = read.raw("trajectoryList"); raw != nullptr && raw->is_array()) {
        // Nodes 0..N, each once: at most N + 1 of them (counted before they are read).
        const limits::IntRange nodes{"the number of nodes of a typed trajectory", 0,
                                    limits::kSteps.max + 1};
        if (Status s = limits::checkCount(nodes, read.prefix() + "trajectoryList", raw->size());
            !s) {
            return s;
        }
    }
    auto list = read.numbers("trajectoryList");
    if (!list) return list.error();
    for (size_t k = 0; k < list->size(); ++k) {
        // Checked before the cast: 1e300 must not become −2147483648.
        const double n = (*list)[k];
        if (n != std::floor(n) || n < 0.0 || n > limits::kSteps.max) {
            return invalidArgument(read.prefix() + "trajectoryList[" + std::to_string(k) + "]",
                                   shortestText(n),
                                   "a step between 0 and " + std::to_string(limits::kSteps.max) +
                                       " is expected");
        }
        p.trajectoryList.push_back(static_cast<int>(n));
    }
    return {};
}

Status readControlPoints(const io::JsonFields& read, CategoricalParams& p) {
    const io::Json* points = read.raw("controlPoints");
    if (points == nullptr) return {};
    if (!points->is_array()) return read.error("controlPoints", points, "a list is expected");
    if (Status s = limits::checkCount(limits::kControlPoints, read.prefix() + "controlPoints",
                                      points->size());
        !s) {
        return s;
    }
    for (size_t i = 0; i < points->size(); ++i) {
        const std::string path = read.prefix() + "controlPoints[" + std::to_string(i) + "]";
        auto pair = io::jsonNumbers((*points)[i], path);
        if (!pair) return pair.error();
        if (pair->size() != 2) {
            return makeError(ErrorCode::ParseError, path, std::to_string(pair->size()) + " numbers",
                             "a control point is a pair [t, beta]");
        }
        p.controlPoints.push_back({(*pair)[0], (*pair)[1]});
    }
    return {};
}

}  // namespace

namespace {

// validate() names the fields as the panel does (K, N, steps, chains, points[i].beta,
// table[c][i]); a file's reader names them as the file does.
std::string categoricalFileKey(const std::string& field) {
    static const std::pair<const char*, const char*> kKeys[] = {
        {"K", "numClasses"},       {"N", "numSteps"},      {"steps", "pathSteps"},
        {"chains", "numChains"},   {"levels", "digitLevels"}, {"power", "powerExponent"},
        {"data", "csvPath"}};
    for (const auto& [panel, file] : kKeys) {
        if (field == panel) return file;
    }
    if (field.rfind("points[", 0) == 0) {
        // points[i], points[i].t, points[i].beta: each point is a pair [t, beta] in the file.
        std::string key = "controlPoints" + field.substr(6);
        for (const auto& [member, index] : {std::pair{".t", "[0]"}, std::pair{".beta", "[1]"}}) {
            const std::string m = member;
            if (key.size() > m.size() && key.compare(key.size() - m.size(), m.size(), m) == 0) {
                key.replace(key.size() - m.size(), m.size(), index);
            }
        }
        return key;
    }
    if (field.rfind("table[", 0) == 0) {
        // table[c] and table[c][i]: the probabilities are the column's "p".
        const size_t close = field.find(']');
        if (close != std::string::npos) {
            return field.substr(0, close + 1) + ".p" + field.substr(close + 1);
        }
    }
    return field;
}

}  // namespace

Result<CategoricalParams> CategoricalParams::fromJson(const io::Json& json) {
    const io::JsonFields read(json, "categorical.");
    CategoricalParams p;
    auto k = read.integer("numClasses");
    if (!k) return k.error();
    p.numClasses = *k;
    auto pi = read.numbers("pi");
    if (!pi) return pi.error();
    p.pi = *pi;
    auto schedule = read.string("schedule");
    if (!schedule) return schedule.error();
    std::string kernel = "closed";
    for (Status s : {readChoice(read, "schedule", kCategoricalSchedules, p.schedule),
                     read.numberOr("powerExponent", p.powerExponent), readControlPoints(read, p),
                     read.integerOr("numSteps", p.numSteps),
                     readChoice(read, "dataSource", kCategoricalDataSources, p.dataSource),
                     read.integerOr("digitLevels", p.digitLevels),
                     read.stringOr("csvPath", p.csvPath), read.stringOr("model", p.model),
                     read.integerOr("position", p.position), readTableAndList(read, p),
                     read.integerOr("condition", p.condition),
                     readChoice(read, "trajectory", kCategoricalTrajectories, p.trajectory),
                     read.integerOr("pathSteps", p.pathSteps),
                     read.integerOr("pathStepsAsked", p.pathStepsAsked),
                     read.stringOr("kernel", kernel),
                     read.integerOr("numChains", p.numChains),
                     read.booleanOr("maskState", p.maskState)}) {
        if (!s) return s.error();
    }
    auto form = categorical::parseKernelForm(kernel, "categorical.kernel");
    if (!form) return form.error();
    p.kernel = *form;
    if (const io::Json* decoding = read.raw("decoding")) {
        auto settings = DecodingSettings::fromJson(*decoding);
        if (!settings) {
            Error error = settings.error();
            error.field = "categorical." + error.field;
            return error;
        }
        p.decoding = std::move(settings).value();
    }
    if (read.has("seed")) {
        auto seed = read.textUint64("seed");
        if (!seed) return seed.error();
        p.seed = *seed;
    }
    if (auto valid = p.validate(); !valid) {
        Error error = valid.error();
        error.field = "categorical." + categoricalFileKey(error.field);
        return error;
    }
    return p;
}

std::vector<std::string> CategoricalParams::provenance() const {
    auto file = [](const std::string& path) {
        const size_t slash = path.find_last_of('/');
        return slash == std::string::npos ? path : path.substr(slash + 1);
    };
    std::string prior;
    for (double p : pi) prior += (prior.empty() ? "" : " ") + shortestText(p);
    std::string data = choiceId(kCategoricalDataSources, dataSource);
    if (dataSource == CategoricalData::Digits) data += ", " + std::to_string(digitLevels) + " levels";
    if (dataSource == CategoricalData::CsvFile) data += " " + file(csvPath);
    std::string trajectoryText = choiceId(kCategoricalTrajectories, trajectory);
    if (trajectory == CategoricalTrajectory::List) {
        for (int node : trajectoryList) trajectoryText += " " + std::to_string(node);
    }
    std::vector<std::string> lines = {"process: categorical",
            "classes K: " + std::to_string(numClasses) + (maskState ? " and a mask state" : ""),
            "pi: " + (maskState ? std::string("the mask state") : prior),
            "schedule: " + scheduleSpec(),
            "N: " + std::to_string(numSteps),
            "data: " + data,
            "condition: " + (condition == kAllConditions ? std::string("all, averaged")
                             : condition < static_cast<int>(conditionNames.size())
                                 ? conditionNames[static_cast<size_t>(condition)]
                                 : std::to_string(condition)),
            "model: " + (model.empty() ? std::string("exact oracle of the data") : file(model)),
            "trajectory: " + trajectoryText,
            "path steps: " + std::to_string(pathSteps),
            "kernel: " + std::string(categorical::kernelFormName(kernel)),
            "seed: " + std::to_string(seed)};
    // The Decoding view decodes a chain instead of the data.
    if (decoding.chain.active()) {
        lines.push_back("decoded: the chain " + file(decoding.chain.source) + ", length D = " +
                        std::to_string(decoding.chain.length) + ", " + std::to_string(decoding.chain.samples) +
                        " sequences per sampler and N");
    }
    return lines;
}

}  // namespace core::project
