// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

// What a training run needs to continue exactly where another stopped: the online weights, the
// EMA weights, AdamW's two moments and the loss history, all after `stepsDone` steps. A run
// resumed from it gives bit-identical weights and losses to one that never stopped (the random
// draws of step s are keyed by (seed, s), so nothing else carries over).
namespace core::model {

struct TrainState {
    int stepsDone = 0;
    std::vector<float> online;      // the weights being optimised (flat, Mlp::flat order)
    std::vector<float> ema;         // their EMA (the weights a checkpoint's model has)
    std::vector<float> moment1;     // AdamW's first moment
    std::vector<float> moment2;     // AdamW's second moment
    std::vector<double> trainLoss;  // the mini-batch loss of each of the stepsDone steps
    std::string trainParams;        // trainParamsToJson of the run (what a resume must repeat)
    // The checkpoint's process, data set and schedule: a resume must train the same process on
    // the same data and schedule (sameRun in checkpoint.h). Empty for a state not yet saved.
    std::string process;
    std::string dataSet;
    std::string schedule;
};

}  // namespace core::model
