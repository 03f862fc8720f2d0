// SPDX-License-Identifier: MIT
#include "core/project/training_setup.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>
#include <vector>

#include "core/categorical/prior.h"
#include "core/data/categorical_rows.h"
#include "core/data/digits.h"
#include "core/data/gaussian_data.h"
#include "core/io/json.h"
#include "core/model/checkpoint.h"
#include "core/model/oracle_specs.h"
#include "core/model/train_resume.h"
#include "core/project/categorical_setup.h"
#include "core/schedule/beta_curve.h"
#include "core/util/limits.h"
#include "core/util/rng.h"

namespace core::project {
namespace {

// The digits' own split at `levels` grey levels, the label as condition.
Status digitsExamples(const data::Digits& digits, int levels, TrainingSet& set) {
    auto train = data::quantisedSplit(digits, levels, true);
    if (!train) return train.error();
    auto heldOut = data::quantisedSplit(digits, levels, false);
    if (!heldOut) return heldOut.error();
    set.categoricalTrain = {train->rows, train->labels};
    set.categoricalHeldOut = {heldOut->rows, heldOut->labels};
    return {};
}

// Rows drawn from the table's P(x_0 | c) for conditions drawn uniformly, example i keyed by
// (seed ^ key, i).
model::CategoricalDataset drawFromTable(const data::CategoricalTable& table,
                                        int count,
                                        uint64_t key) {
    model::CategoricalDataset out;
    const int conditions = table.numConditions();
    for (int i = 0; i < count; ++i) {
        CounterRng rng(key, static_cast<uint64_t>(i), 0);
        const int c = static_cast<int>(rng.uniform() * conditions) % conditions;
        std::vector<double> weights(static_cast<size_t>(table.numRows()), 0.0);
        for (int r = 0; r < table.numRows(); ++r) {
            weights[r] = table.condition[r] == c ? table.probability[r] : 0.0;
        }
        const int row = rng.categorical(weights);
        out.rows.insert(out.rows.end(), table.row(row), table.row(row) + table.numPositions);
        out.labels.push_back(c);
    }
    return out;
}

// The metadata fields a categorical set names itself by.
void describeCategorical(TrainingSet& set, const std::string& dataSet) {
    const model::CategoricalProcess& p = set.categorical;
    set.process = ProcessKind::Categorical;
    set.info.process = "categorical";
    set.info.numClasses = p.numClasses;
    set.info.numPositions = p.numPositions;
    set.info.numConditions = p.numConditions;
    set.info.pi.assign(p.pi.data(), p.pi.data() + p.pi.size());
    set.info.schedule = p.beta.spec();
    set.info.dataSet = dataSet;
    set.info.maskState = p.maskState;
}

}  // namespace

std::string digitsDataSet(int levels) {
    return "digits:levels=" + std::to_string(levels);
}

Result<int> parseDigitsDataSet(const std::string& text, const std::string& field) {
    if (text == "digits") return kDefaultDigitLevels;
    const std::string prefix = "digits:levels=";
    const char* first = text.c_str() + std::min(text.size(), prefix.size());
    const char* last = text.c_str() + text.size();
    int levels = 0;
    const auto [end, error] = std::from_chars(first, last, levels);
    if (text.rfind(prefix, 0) != 0 || error != std::errc() || end != last || first == last) {
        return invalidArgument(field, text, "expected digits or digits:levels=L");
    }
    if (Status s = limits::checkRange(limits::kClasses, field + " levels", levels); !s) {
        Error e = s.error();
        e.value = text;
        return e;
    }
    return levels;
}

namespace {

Result<TrainingSet> categoricalFromSpec(const TrainingDataSpec& spec, const SetupSources& sources) {
    TrainingSet set;
    model::CategoricalProcess& process = set.categorical;
    if (spec.data.rfind("csv:", 0) == 0) {
        auto rows = data::readCategoricalRows(spec.data.substr(4), spec.numClasses);
        if (!rows) return rows.error();
        if (rows->size() < 2) {
            return invalidArgument("--data", spec.data, "training needs at least 2 rows");
        }
        data::CategoricalRows train, heldOut;
        data::splitHeldOut(*rows, train, heldOut);
        set.categoricalTrain = {train.rows, train.labels};
        set.categoricalHeldOut = {heldOut.rows, heldOut.labels};
        process.numClasses = rows->numClasses;
        process.numPositions = rows->numPositions;
        process.numConditions = rows->numConditions;
    } else if (spec.data.rfind("digits", 0) == 0) {
        auto levels = parseDigitsDataSet(spec.data, "--data");
        if (!levels) return levels.error();
        auto digits = sources.digits();
        if (!digits) return digits.error();
        if (Status s = digitsExamples(**digits, *levels, set); !s) return s.error();
        process.numClasses = *levels;
        process.numPositions = data::kDigitsPixels;
        process.numConditions = 10;
    } else {
        return invalidArgument("--data", spec.data,
                               "categorical training reads digits:levels=L or csv:FILE");
    }
    const int k = process.numClasses;
    const std::string piSpec = spec.pi.empty() ? "uniform:" + std::to_string(k) : spec.pi;
    auto pi = categorical::parsePrior(piSpec, "--pi");
    if (!pi) return pi.error();
    const int masked = categorical::maskedPriorClasses(piSpec);
    if (masked > 0) {
        // masked:K: the data's K classes and the mask state K, which takes all of π.
        if (masked != k) {
            return invalidArgument("--pi", spec.pi,
                                   "masked:K needs K = the data's classes (" + std::to_string(k) + ")");
        }
        process.numClasses = k + 1;
        process.maskState = true;
    } else if (pi->size() != k) {
        return invalidArgument("--pi", spec.pi, "π needs K = levels entries");
    }
    process.pi = *pi;
    auto beta = schedule::parseBetaCurve(spec.schedule.empty() ? "cosine" : spec.schedule, {},
                                         "--schedule");
    if (!beta) return beta.error();
    process.beta = *beta;
    describeCategorical(set, spec.data);
    // The schedule as typed, which a resume compares ("custom:FILE" spells its file there).
    set.info.schedule = spec.schedule.empty() ? "cosine" : spec.schedule;
    return set;
}

Result<TrainingSet> gaussianFromSpec(const TrainingDataSpec& spec, const SetupSources& sources) {
    TrainingSet set;
    set.process = ProcessKind::Gaussian;
    const std::string scheduleSpec = spec.schedule.empty() ? "linear" : spec.schedule;
    auto schedule = schedule::gaussianScheduleFromSpec(scheduleSpec, spec.numSteps);
    if (!schedule) return schedule.error();
    set.gaussianSchedule = std::move(schedule).value();
    std::shared_ptr<const data::Digits> digits;
    if (data::isDigitsSpec(spec.data)) {
        auto read = sources.digits();
        if (!read) return read.error();
        digits = *read;
    }
    auto points = model::gaussianTrainingData(spec.data, spec.points, digits.get());
    if (!points) return points.error();
    set.gaussianTrain = std::move(points->train);
    set.gaussianHeldOut = std::move(points->heldOut);
    set.info.process = "gaussian";
    set.info.numPositions = static_cast<int>(set.gaussianTrain.rows());
    set.info.schedule = scheduleSpec + ",N=" + std::to_string(spec.numSteps);
    set.info.dataSet = spec.data;
    return set;
}

}  // namespace

int TrainingSet::networkInputs() const {
    return process == ProcessKind::Categorical ? categorical.numClasses * categorical.numPositions
                                               : static_cast<int>(gaussianTrain.rows());
}

Result<TrainingSet> trainingSet(const TrainingDataSpec& spec, const SetupSources& sources) {
    return spec.process == ProcessKind::Categorical ? categoricalFromSpec(spec, sources)
                                                    : gaussianFromSpec(spec, sources);
}

Result<TrainingSet> trainingSet(const Project& project,
                                ProcessKind process,
                                uint64_t seed,
                                const SetupSources& sources) {
    if (process == ProcessKind::Gaussian) {
        const GaussianParams& g = project.gaussian;
        return gaussianFromSpec({.process = ProcessKind::Gaussian,
                                 .data = g.data,
                                 .schedule = g.schedule,
                                 .numSteps = g.numSteps,
                                 .points = kTrainingExamples},
                                sources);
    }
    const CategoricalParams& params = project.categorical;
    auto setup = CategoricalSetup::build(params, sources);
    if (!setup) return setup.error();
    const data::CategoricalTable& table = (*setup)->table;
    TrainingSet set;
    std::string dataSet;
    if (params.dataSource == CategoricalData::Digits) {
        auto digits = sources.digits();
        if (!digits) return digits.error();
        if (Status s = digitsExamples(**digits, params.digitLevels, set); !s) return s.error();
        dataSet = digitsDataSet(params.digitLevels);
    } else {
        set.categoricalTrain = drawFromTable(table, kTrainingExamples, seed ^ 0x7A11);
        set.categoricalHeldOut = drawFromTable(table, kTrainingExamples / 10, seed ^ 0x4E1D);
        dataSet = params.dataSource == CategoricalData::CsvFile ? "table:" + params.csvPath
                                                                : "project table";
    }
    set.categorical = {table.numClasses, table.numPositions, table.numConditions(), (*setup)->pi,
                       (*setup)->curve, params.maskState};
    describeCategorical(set, dataSet);
    return set;
}

double trainingParameters(const model::MlpConfig& architecture, int inputs) {
    const double width = architecture.width;
    return width * (width * 2.0 * architecture.depth + inputs + 2.0 * width);
}

double trainingMemoryBytes(const model::MlpConfig& architecture, int batch, int inputs) {
    const double width = architecture.width;
    return 4.0 * (5.0 * trainingParameters(architecture, inputs) +
                  batch * width * (4.0 * architecture.depth + 4.0));
}

Status checkTrainingMemory(const model::MlpConfig& architecture,
                           int batch,
                           int inputs,
                           const std::string& batchField) {
    const double parameters = trainingParameters(architecture, inputs);
    return limits::checkMemory(batchField, std::to_string(batch),
                               "4 bytes × (5 × " +
                                   std::to_string(static_cast<long long>(parameters)) +
                                   " parameters + batch × width × (4·depth + 4) activations)",
                               trainingMemoryBytes(architecture, batch, inputs));
}

Status checkResume(const model::TrainState& state,
                   const TrainingSet& set,
                   const model::MlpConfig& architecture,
                   const model::TrainParams& params) {
    if (Status same = model::sameRun(state, set.info.process, set.info.dataSet, set.info.schedule);
        !same) {
        return same;
    }
    const model::MlpConfig network =
        set.process == ProcessKind::Categorical
            ? model::categoricalNetworkConfig(set.categorical, architecture)
            : model::gaussianNetworkConfig(static_cast<int>(set.gaussianTrain.rows()),
                                           architecture);
    // The trainer's own check, made before anything is printed or drawn.
    auto mlp = model::Mlp::create(network, params.seed);
    if (!mlp) return mlp.error();
    return model::checkResume(state, params, mlp->numParameters());
}

Result<RunSettings> stoppedRunSettings(const model::TrainState& state,
                                       const std::string& architectureJson,
                                       const model::TrainParams& params) {
    auto json = io::parseJsonStrict(state.trainParams, "train_params");
    if (!json) return json.error();
    auto architecture = model::architectureFromJson(architectureJson);
    if (!architecture) return architecture.error();
    RunSettings settings{*architecture, params};
    const io::JsonFields fields(*json, "train_params.");
    auto number = [&](const char* key, double fallback) {
        const auto v = fields.number(key);
        return v ? *v : fallback;
    };
    model::TrainParams& p = settings.params;
    p.steps = static_cast<int>(number("steps", p.steps));
    p.batch = static_cast<int>(number("batch", p.batch));
    p.learningRate = number("learning_rate", p.learningRate);
    p.seed = static_cast<uint64_t>(number("seed", static_cast<double>(p.seed)));
    return settings;
}

io::CheckpointInfo checkpointInfo(const TrainingSet& set,
                                  const model::TrainParams& params,
                                  const model::TrainSummary& summary) {
    io::CheckpointInfo info = set.info;
    info.seed = params.seed;
    info.trainParams = model::trainParamsToJson(params);
    info.trainingSteps = summary.stepsDone;
    info.trainLoss = summary.finalTrainLoss;
    info.heldOutLoss = summary.heldOut.empty() ? std::nan("") : summary.heldOut.back().loss;
    return info;
}

Result<model::TrainSummary> trainAndSave(const TrainingSet& set,
                                         const model::MlpConfig& architecture,
                                         const model::TrainParams& params,
                                         const std::string& path,
                                         bool keepState,
                                         Progress* progress) {
    if (path.empty()) {
        return invalidArgument("output", "", "choose where to save the checkpoint");
    }
    auto save = [&](const model::Mlp& mlp, const model::TrainSummary& summary,
                    const model::TrainState& state) -> Result<model::TrainSummary> {
        // A stopped run keeps its optimiser state in the file, so that it can be resumed.
        const bool withState = summary.cancelled || keepState;
        if (Status saved = model::saveMlpCheckpoint(path, mlp, checkpointInfo(set, params, summary),
                                                    withState ? &state : nullptr);
            !saved) {
            return saved.error();
        }
        return summary;
    };
    if (set.process == ProcessKind::Categorical) {
        auto result =
            model::trainCategorical(set.categorical, set.categoricalTrain, set.categoricalHeldOut,
                                    architecture, params, progress);
        if (!result) return result.error();
        return save(result->model.mlp(), result->summary, result->state);
    }
    auto result = model::trainGaussian(set.gaussianSchedule, set.gaussianTrain, set.gaussianHeldOut,
                                       architecture, params, progress);
    if (!result) return result.error();
    return save(result->model.mlp(), result->summary, result->state);
}

}  // namespace core::project
