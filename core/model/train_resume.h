// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include "core/model/mlp.h"
#include "core/model/train_state.h"
#include "core/model/trainer.h"
#include "core/util/result.h"

// What the trainers check before they continue a stopped run, for front ends that check it
// before they print or draw anything (core/project/training_setup.h).
namespace core::model {

// The network a run trains: `architecture` with inputs, outputs and conditions set from the
// process (D·K one-hot in and logits out, the labels) or the data dimension d.
MlpConfig categoricalNetworkConfig(const CategoricalProcess& process,
                                   const MlpConfig& architecture);
MlpConfig gaussianNetworkConfig(int dimension, const MlpConfig& architecture);

// Whether `state` can continue a run of `params` with a network of numParams parameters: the
// same parameter count, the same trajectory-deciding parameters (trainParamsToJson, compared as
// JSON values) and steps left to train. The trainers check it; front ends may check it first.
Status checkResume(const TrainState& state, const TrainParams& params, int64_t numParams);

}  // namespace core::model
