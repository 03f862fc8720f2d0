// SPDX-License-Identifier: MIT
#include "core/project/digits_evaluation.h"

#include <cmath>
#include <utility>

#include "core/categorical/information.h"
#include "core/categorical/prior.h"
#include "core/categorical/time_grid.h"
#include "core/data/digits.h"
#include "core/evaluation/generation_quality.h"
#include "core/model/categorical_oracles.h"
#include "core/schedule/beta_curve.h"

namespace core::project {
namespace {

// Negative ELBO of the full grid in bits per dimension (Monte Carlo over consecutive pairs).
Result<std::pair<double, double>> elboBitsPerDim(const data::CategoricalTable& table,
                                                 const model::CategoricalDenoiser& model,
                                                 const Vector& pi,
                                                 const categorical::TimeGrid& grid,
                                                 int samples,
                                                 uint64_t seed,
                                                 int threads) {
    categorical::StepCostOptions options;
    options.samples = samples;
    options.seed = seed;
    options.parallel.numThreads = threads;
    auto costs = categorical::computeStepCosts(table, model, pi, grid,
                                               categorical::CostPairs::Consecutive, options);
    if (!costs) return costs.error();
    double total = 0.0, variance = 0.0;
    for (int n = 1; n <= grid.numSteps(); ++n) {
        total += costs->cost(n - 1, n);
        variance += costs->standardError(n - 1, n) * costs->standardError(n - 1, n);
    }
    const double scale = 1.0 / (table.numPositions * std::log(2.0));
    return std::pair{total * scale, std::sqrt(variance) * scale};
}

// The model's β(t): a TorchScript contract names its schedule without N (a categorical network
// takes t in [0, 1]); a safetensors checkpoint's metadata holds the β(t) spec itself.
Result<schedule::BetaCurve> modelCurve(const model::LoadedModel& loaded, const std::string& path) {
    const std::string& spec =
        loaded.contractSchedule.empty() ? loaded.info.schedule : loaded.contractSchedule;
    const std::string field = loaded.contractSchedule.empty()
                                  ? path + ": schedule"
                                  : path + ": diffuscope.json: schedule";
    if (spec == "info-linear") {
        return invalidArgument(field, spec,
                               "evaluate cannot rebuild an information-linear schedule without "
                               "the training data");
    }
    return schedule::parseBetaCurve(spec, {}, field);
}

// π: the model's own, or the one given when the model carries none (a TorchScript contract).
Result<Vector> modelPrior(const io::CheckpointInfo& info,
                          const DigitsEvaluationRequest& request,
                          int levels) {
    Vector pi = Eigen::Map<const Vector>(info.pi.data(), static_cast<Eigen::Index>(info.pi.size()));
    if (!request.pi.empty()) {
        auto given = categorical::parsePrior(request.pi, "pi");
        if (!given) return given.error();
        if (info.pi.size() > 0 &&
            (given->size() != pi.size() || (*given - pi).cwiseAbs().maxCoeff() > 1e-9)) {
            return invalidArgument("pi", request.pi,
                                   "the model was trained with another π (its own is used "
                                   "without --pi)");
        }
        pi = *given;
    }
    if (pi.size() == 0) {
        return invalidArgument(request.model, "",
                               "the model does not say π (a TorchScript contract has none): "
                               "give it with --pi, e.g. --pi uniform:" +
                                   std::to_string(levels));
    }
    if (pi.size() != info.numClasses) {
        return invalidArgument(
            "pi", request.pi,
            "π has " + std::to_string(pi.size()) +
                " entries but the model has K = " + std::to_string(info.numClasses) + " classes");
    }
    return pi;
}

}  // namespace

Result<DigitsEvaluation> evaluateDigitsModel(const DigitsEvaluationRequest& request,
                                             const SetupSources& sources) {
    auto loaded = sources.loadModel(request.model);
    if (!loaded) return loaded.error();
    const model::LoadedModel& network = **loaded;
    if (!network.categorical) {
        return invalidArgument("model", request.model, "evaluate takes a categorical digits model");
    }
    const io::CheckpointInfo& info = network.info;
    // A network with a mask state has the digits' levels and the mask besides.
    const int levels = info.maskState ? info.numClasses - 1 : info.numClasses;
    auto curve = modelCurve(network, request.model);
    if (!curve) return curve.error();
    auto pi = modelPrior(info, request, levels);
    if (!pi) return pi.error();
    auto digits = sources.digits();
    if (!digits) return digits.error();

    DigitsEvaluation out;
    const auto grid = categorical::evenTimeGrid(*curve, request.steps);
    auto quality = evaluation::digitsGenerationQuality(*network.categorical, **digits, levels, *pi,
                                                       grid, request.perClass, request.seed,
                                                       {.numThreads = request.threads});
    if (!quality) return quality.error();
    out.perClassAccuracy = quality->perClassAccuracy;
    out.accuracy = quality->accuracy;
    out.classifierTestAccuracy = quality->classifierTestAccuracy;

    auto trainSplit = data::quantisedSplit(**digits, levels, true);
    if (!trainSplit) return trainSplit.error();
    auto testSplit = data::quantisedSplit(**digits, levels, false);
    if (!testSplit) return testSplit.error();
    auto trainTable = data::digitsTable(*trainSplit, levels);
    if (!trainTable) return trainTable.error();
    auto testTable = data::digitsTable(*testSplit, levels);
    if (!testTable) return testTable.error();
    // The mask state: a class of the process that the data never use.
    trainTable->numClasses = testTable->numClasses = info.numClasses;
    const auto elboGrid = categorical::evenTimeGrid(*curve, request.elboSteps);
    const model::TableOracle oracle(*trainTable, *pi);
    const std::pair<const char*,
                    std::pair<const data::CategoricalTable*, const model::CategoricalDenoiser*>>
        rows[] = {{"network, test images", {&*testTable, network.categorical.get()}},
                  {"network, training images", {&*trainTable, network.categorical.get()}},
                  {"exact oracle, training", {&*trainTable, &oracle}}};
    for (const auto& [name, what] : rows) {
        auto elbo = elboBitsPerDim(*what.first, *what.second, *pi, elboGrid, request.elboSamples,
                                   request.seed, request.threads);
        if (!elbo) return elbo.error();
        out.elbos.push_back({name, elbo->first, elbo->second});
    }
    out.heldOutLoss = info.heldOutLoss;
    out.heldOutBitsPerDim = info.heldOutLoss / (data::kDigitsPixels * std::log(2.0));
    return out;
}

}  // namespace core::project
