// SPDX-License-Identifier: MIT
// `diffuscope evaluate --model DIGITS.safetensors`: the quality figures for a conditional
// categorical digits model — how often a nearest-class-mean classifier recognises the label of
// generated images, and the negative ELBO (bits/dim) on the test and training images beside the
// exact (empirical) oracle's on the training images.
#include <cmath>
#include <iomanip>
#include <iostream>

#include "app/cli/commands.h"
#include "core/project/digits_evaluation.h"

namespace app::cli {

const CommandSpec& evaluateSpec() {
    static const CommandSpec spec{
        "evaluate",
        "a conditional categorical digits model: generation accuracy and bits/dim",
        "",
        {required("model", "DIGITS.safetensors",
                  "the model (trained with --data digits:levels=L; or a TorchScript .pt)"),
         valued("per-class", "M", "200", "images generated per label"),
         valued("steps", "N", "50", "even steps of the generation"), seedOption("1", "the seed"),
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
    for (const core::Error* e :
         {perClass ? nullptr : &perClass.error(), steps ? nullptr : &steps.error(),
          seed ? nullptr : &seed.error(), elboSteps ? nullptr : &elboSteps.error(),
          elboSamples ? nullptr : &elboSamples.error(), threads ? nullptr : &threads.error()}) {
        if (e != nullptr) return fail(*e);
    }
    const core::project::DigitsEvaluationRequest request{.model = *modelPath,
                                                         .pi = args.get("pi"),
                                                         .perClass = *perClass,
                                                         .steps = *steps,
                                                         .elboSteps = *elboSteps,
                                                         .elboSamples = *elboSamples,
                                                         .seed = static_cast<uint64_t>(*seed),
                                                         .threads = *threads};
    auto evaluation =
        core::project::evaluateDigitsModel(request, core::project::fileSources(args.get("digits")));
    if (!evaluation) {
        core::Error error = evaluation.error();  // the request's fields are the options
        if (error.field == "model" || error.field == "pi") error.field = "--" + error.field;
        return fail(error);
    }
    std::cout << std::fixed << std::setprecision(3);
    std::cout << "generation (" << *perClass << " per class, " << *steps
              << " even steps, nearest-class-mean classifier):\n";
    for (int c = 0; c < 10; ++c) {
        std::cout << "  label " << c << ": " << evaluation->perClassAccuracy[c] << '\n';
    }
    std::cout << "  all: " << evaluation->accuracy << "   (the classifier on the real test images: "
              << evaluation->classifierTestAccuracy << ")\n";
    std::cout << "negative ELBO, " << *elboSteps << " even steps, bits/dim ± SE (" << *elboSamples
              << " samples per step):\n";
    for (const auto& elbo : evaluation->elbos) {
        std::cout << "  " << std::left << std::setw(24) << elbo.name << std::right << ": "
                  << elbo.bitsPerDim << " ± " << elbo.standardError << '\n';
    }
    if (std::isfinite(evaluation->heldOutLoss)) {
        std::cout << "held-out cross-entropy at training end (nats per image): "
                  << evaluation->heldOutLoss << "  = " << evaluation->heldOutBitsPerDim
                  << " bits/dim\n";
    }
    return 0;
}

}  // namespace app::cli
