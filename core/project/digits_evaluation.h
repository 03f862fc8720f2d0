// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/project/setup_sources.h"
#include "core/util/result.h"

// The quality figures of a conditional categorical model of the digits (`evaluate`): how often
// a nearest-class-mean classifier recognises the label of generated images, and the negative
// ELBO in bits/dim on the test and training images beside the exact (empirical) oracle's.
namespace core::project {

struct DigitsEvaluationRequest {
    std::string model;      // a categorical checkpoint or TorchScript model of the digits
    std::string pi;         // π when the model does not carry it ("" : the model's own)
    int perClass = 200;     // images generated per label
    int steps = 50;         // even steps of the generation
    int elboSteps = 50;     // even steps of the negative ELBO
    int elboSamples = 256;  // Monte Carlo samples per step of the ELBO
    uint64_t seed = 1;
    int threads = 1;
};

struct DigitsEvaluation {
    std::vector<double> perClassAccuracy;  // [label]
    double accuracy = 0.0;
    double classifierTestAccuracy = 0.0;  // the classifier on the real test images
    struct Elbo {
        std::string name;  // "network, test images", …
        double bitsPerDim = 0.0;
        double standardError = 0.0;
    };
    std::vector<Elbo> elbos;  // the network on the test and training images, the oracle
    double heldOutLoss =
        0.0;  // the checkpoint's held-out cross-entropy (nats per image; NaN: none)
    double heldOutBitsPerDim = 0.0;
};

// Errors name the request's fields ("model", "pi") and the file's own ("FILE: schedule").
Result<DigitsEvaluation> evaluateDigitsModel(const DigitsEvaluationRequest& request,
                                             const SetupSources& sources);

}  // namespace core::project
