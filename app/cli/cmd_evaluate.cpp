// SPDX-License-Identifier: MIT
// `diffuscope evaluate --model DIGITS.safetensors`: the quality figures for a conditional
// categorical digits model — how often a nearest-class-mean classifier recognises the label of
// generated images, and the negative ELBO (bits/dim) on the test and training images beside the
// exact (empirical) oracle's on the training images.
#include <cmath>
#include <iomanip>
#include <iostream>

#include "app/cli/commands.h"
#include "core/categorical/information.h"
#include "core/categorical/prior.h"
#include "core/categorical/time_grid.h"
#include "core/data/bundled_files.h"
#include "core/data/digits.h"
#include "core/model/categorical_oracles.h"
#include "core/model/checkpoint.h"
#include "core/model/model_file.h"
#include "core/evaluation/generation_quality.h"
#include "core/schedule/beta_curve.h"
#include "core/util/parallel.h"

namespace app::cli {
namespace {

// Negative ELBO of the full grid in bits per dimension (Monte Carlo over consecutive pairs).
core::Result<std::pair<double, double>> elboBitsPerDim(const core::data::CategoricalTable& table,
                                                       const core::model::CategoricalDenoiser& model,
                                                       const core::Vector& pi,
                                                       const core::categorical::TimeGrid& grid,
                                                       int samples, uint64_t seed, int threads) {
    core::categorical::StepCostOptions options;
    options.samples = samples;
    options.seed = seed;
    options.parallel.numThreads = threads;
    auto costs = core::categorical::computeStepCosts(table, model, pi, grid,
                                                     core::categorical::CostPairs::Consecutive, options);
    if (!costs) return costs.error();
    double total = 0.0, variance = 0.0;
    for (int n = 1; n <= grid.numSteps(); ++n) {
        total += costs->cost(n - 1, n);
        variance += costs->standardError(n - 1, n) * costs->standardError(n - 1, n);
    }
    const double scale = 1.0 / (table.numPositions * std::log(2.0));
    return std::pair{total * scale, std::sqrt(variance) * scale};
}

}  // namespace

const CommandSpec& evaluateSpec() {
    static const CommandSpec spec{
        "evaluate",
        "a conditional categorical digits model: generation accuracy and bits/dim",
        "",
        {required("model", "DIGITS.safetensors", "the model (trained with --data digits:levels=L; or a TorchScript .pt)"),
         valued("per-class", "M", "200", "images generated per label"),
         valued("steps", "N", "50", "even steps of the generation"),
         seedOption("1", "the seed"),
         valued("elbo-steps", "N", "50", "even steps of the negative ELBO"),
         valued("elbo-samples", "M", "256", "Monte Carlo samples per step of the ELBO"),
         threadsOption(),
         valued("pi", "PI", "",
                "π of the process (uniform:K, masked:K, …) when the model does not carry it: a "
                "TorchScript contract has none (default: the checkpoint's own)"),
         valued("digits", "FILE", "", "the digits file (default: the bundled copy)")},
        ""};
    return spec;
}

int runEvaluate(const Args& args) {
    auto modelPath = args.require("model");
    if (!modelPath) return fail(modelPath.error());
    auto perClass = args.getBounded("per-class", core::limits::kSamples);
    auto steps = args.getBounded("steps", core::limits::kSteps);
    auto seed = args.getInt64("seed");
    auto elboSteps = args.getBounded("elbo-steps", core::limits::kSteps);
    auto elboSamples = args.getBounded("elbo-samples", core::limits::kSamples);
    auto threads = threadCount(args);
    for (const core::Error* e : {perClass ? nullptr : &perClass.error(), steps ? nullptr : &steps.error(),
                                 seed ? nullptr : &seed.error(), elboSteps ? nullptr : &elboSteps.error(),
                                 elboSamples ? nullptr : &elboSamples.error(),
                                 threads ? nullptr : &threads.error()}) {
        if (e != nullptr) return fail(*e);
    }
    auto loaded = core::model::loadModelFile(*modelPath);
    if (!loaded) return fail(loaded.error());
    if (!loaded->categorical) {
        return fail(core::invalidArgument("--model", *modelPath, "evaluate takes a categorical digits model"));
    }
    const auto& info = loaded->info;
    // A network with a mask state has the digits' levels and the mask besides.
    const int levels = info.maskState ? info.numClasses - 1 : info.numClasses;
    // A TorchScript contract names its schedule without N (a categorical network takes t in
    // [0, 1]); a safetensors checkpoint's metadata holds the β(t) spec itself.
    const std::string& scheduleSpec =
        loaded->contractSchedule.empty() ? info.schedule : loaded->contractSchedule;
    const std::string scheduleField =
        loaded->contractSchedule.empty() ? *modelPath + ": schedule"
                                         : *modelPath + ": diffuscope.json: schedule";
    if (scheduleSpec == "info-linear") {
        return fail(core::invalidArgument(scheduleField, scheduleSpec,
                                          "evaluate cannot rebuild an information-linear "
                                          "schedule without the training data"));
    }
    auto curve = core::schedule::parseBetaCurve(scheduleSpec, {}, scheduleField);
    if (!curve) return fail(curve.error());
    core::Vector pi = Eigen::Map<const core::Vector>(info.pi.data(), static_cast<Eigen::Index>(info.pi.size()));
    if (args.has("pi")) {
        auto given = core::categorical::parsePrior(args.get("pi"), "--pi");
        if (!given) return fail(given.error());
        if (info.pi.size() > 0 && (given->size() != pi.size() || (*given - pi).cwiseAbs().maxCoeff() > 1e-9)) {
            return fail(core::invalidArgument("--pi", args.get("pi"),
                                              "the model was trained with another π (its own is "
                                              "used without --pi)"));
        }
        pi = *given;
    }
    if (pi.size() == 0) {
        return fail(core::invalidArgument(*modelPath, "",
                                          "the model does not say π (a TorchScript contract has "
                                          "none): give it with --pi, e.g. --pi uniform:" +
                                              std::to_string(levels)));
    }
    if (pi.size() != info.numClasses) {
        return fail(core::invalidArgument("--pi", args.get("pi"),
                                          "π has " + std::to_string(pi.size()) +
                                              " entries but the model has K = " +
                                              std::to_string(info.numClasses) + " classes"));
    }
    auto digits = core::data::readDigitsOrBundled(args.get("digits"));
    if (!digits) return fail(digits.error());

    const auto grid = core::categorical::evenTimeGrid(*curve, *steps);
    auto quality = core::evaluation::digitsGenerationQuality(*loaded->categorical, *digits, levels, pi, grid,
                                                        *perClass, static_cast<uint64_t>(*seed),
                                                        {.numThreads = *threads});
    if (!quality) return fail(quality.error());
    std::cout << std::fixed << std::setprecision(3);
    std::cout << "generation (" << *perClass << " per class, " << *steps
              << " even steps, nearest-class-mean classifier):\n";
    for (int c = 0; c < 10; ++c) {
        std::cout << "  label " << c << ": " << quality->perClassAccuracy[c] << '\n';
    }
    std::cout << "  all: " << quality->accuracy << "   (the classifier on the real test images: "
              << quality->classifierTestAccuracy << ")\n";

    auto trainSplit = core::data::quantisedSplit(*digits, levels, true);
    auto testSplit = core::data::quantisedSplit(*digits, levels, false);
    if (!trainSplit) return fail(trainSplit.error());
    if (!testSplit) return fail(testSplit.error());
    auto trainTable = core::data::digitsTable(*trainSplit, levels);
    auto testTable = core::data::digitsTable(*testSplit, levels);
    if (!trainTable) return fail(trainTable.error());
    if (!testTable) return fail(testTable.error());
    // The mask state: a class of the process that the data never use.
    trainTable->numClasses = testTable->numClasses = info.numClasses;
    const auto elboGrid = core::categorical::evenTimeGrid(*curve, *elboSteps);
    const core::model::TableOracle oracle(*trainTable, pi);
    std::cout << "negative ELBO, " << *elboSteps << " even steps, bits/dim ± SE ("
              << *elboSamples << " samples per step):\n";
    const std::pair<const char*, std::pair<const core::data::CategoricalTable*,
                                           const core::model::CategoricalDenoiser*>>
        rows[] = {{"network, test images    ", {&*testTable, loaded->categorical.get()}},
                  {"network, training images", {&*trainTable, loaded->categorical.get()}},
                  {"exact oracle, training  ", {&*trainTable, &oracle}}};
    for (const auto& [name, what] : rows) {
        auto elbo = elboBitsPerDim(*what.first, *what.second, pi, elboGrid, *elboSamples,
                                   static_cast<uint64_t>(*seed), *threads);
        if (!elbo) return fail(elbo.error());
        std::cout << "  " << name << ": " << elbo->first << " ± " << elbo->second << '\n';
    }
    if (std::isfinite(info.heldOutLoss)) {
        std::cout << "held-out cross-entropy at training end (nats per image): "
                  << info.heldOutLoss << "  = " << info.heldOutLoss / (64 * std::log(2.0))
                  << " bits/dim\n";
    }
    return 0;
}

}  // namespace app::cli
