// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/model/mlp.h"
#include "core/model/mlp_denoisers.h"
#include "core/model/train_state.h"
#include "core/schedule/beta_curve.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/eigen_types.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// Training the learned denoisers: mini-batch AdamW on the categorical cross-entropy of
// docs/categorical.md#training or the ε mean-squared error of docs/gaussian.md#training, with
// EMA weights and held-out evaluation.
//
// Determinism: every random draw of step s, batch slot i comes from CounterRng keyed by
// (seed, step, slot) (held-out draws by (seed, example)), and the batch is split into fixed
// blocks of kTrainBlock examples whose gradients are summed in block order. Block boundaries do
// not depend on the thread count, and each block runs sequentially, so the loss trajectory and
// the weights are bit-identical for any thread count (and any run with the same seed).
namespace core::model {

constexpr int kTrainBlock = 16;  // examples per gradient block (the unit of parallel work)

enum class LrSchedule { Constant, Cosine };

struct LossPoint {
    int step = 0;       // optimiser steps done when evaluated
    double loss = 0.0;  // mean loss per example (categorical: nats summed over positions;
                        // Gaussian: ‖ε − ε_θ‖²/d)
};

struct TrainParams {
    int steps = 2000;                 // optimiser steps (≥ 1)
    int batch = 128;                  // examples per step (≥ 1)
    double learningRate = 1e-3;       // peak learning rate (> 0)
    double adamBeta1 = 0.9;           // AdamW β1 in [0, 1)
    double adamBeta2 = 0.999;         // AdamW β2 in [0, 1)
    double adamEpsilon = 1e-8;        // AdamW ε (> 0)
    double weightDecay = 0.0;         // decoupled weight decay λ (≥ 0), on every parameter
    LrSchedule schedule = LrSchedule::Cosine;  // after warm-up: constant, or cosine decay to 0
    int warmupSteps = 0;              // linear warm-up from 0 to the peak (≥ 0)
    double emaDecay = 0.999;          // EMA decay in [0, 1]; effective decay
                                      // min(emaDecay, (1 + s)/(10 + s)) at step s
    double conditionDropout = 0.0;    // probability of replacing the label by "no condition"
    int evalEvery = 500;              // held-out loss every E steps and at the end (0: at the end)
    int evalExamples = 0;             // held-out examples used per evaluation (0: all)
    uint64_t seed = 0;                // init and every random draw
    ParallelOptions parallel;         // threads over the batch
    // Called on the training thread after every step (heldOut false: that step's mini-batch
    // loss) and every held-out evaluation (true), for live loss curves; may be empty.
    std::function<void(const LossPoint& point, bool heldOut)> onLoss;
    // Continue a stopped run from its state (null: start afresh). Every other field must be
    // what the stopped run had (checked through trainParamsToJson); the result is then
    // bit-identical to a run that never stopped.
    const TrainState* resume = nullptr;

    // Errors name the field ("learningRate", "batch", ...).
    Status validate() const;
};

struct TrainSummary {
    int stepsDone = 0;                  // optimiser steps completed
    double finalTrainLoss = 0.0;        // mean mini-batch loss over the last ≤ 50 steps
    std::vector<double> trainLoss;      // mini-batch loss of every step (online weights)
    std::vector<LossPoint> heldOut;     // held-out loss of the EMA weights
    double elapsedSeconds = 0.0;        // wall-clock time
    bool cancelled = false;             // stopped by the progress token; the model is still usable
};

// Categorical data: rows of D classes and their labels.
struct CategoricalDataset {
    std::vector<int> rows;     // M×D row-major, classes 0..K−1
    std::vector<int> labels;   // M labels in 0..numConditions−1 (empty: unconditional)
    int size(int numPositions) const { return static_cast<int>(rows.size()) / numPositions; }
};

// The forward process the categorical denoiser is trained for
// (docs/categorical.md#forward-process).
struct CategoricalProcess {
    int numClasses = 2;           // K
    int numPositions = 1;         // D
    int numConditions = 0;        // labels (0: unconditional)
    Vector pi;                    // π, K entries
    schedule::BetaCurve beta;     // β(t)
    // Class K − 1 is a mask state (π = δ_{K−1}, the data never use it): the loss's softmax
    // leaves it out and the trained network gives it 0 (docs/categorical.md#training).
    bool maskState = false;
};

struct CategoricalTrainResult {
    CategoricalMlpDenoiser model;   // with the EMA weights
    TrainSummary summary;
    TrainState state;               // to resume from (saved with a stopped run's checkpoint)
};

struct GaussianTrainResult {
    GaussianMlpEpsModel model;      // with the EMA weights
    TrainSummary summary;
    TrainState state;
};

// Minimises E[Σ_d −log F_θ(x_0,d | x_t, C, t)] (docs/categorical.md#training): t ~ U(0, 1), x_t,d
// kept with probability 1 − β(t) and otherwise drawn from π, independently per position.
// `architecture` gives width, depth, activation, layer norm and embedding sizes; inputs, outputs
// and numConditions are set from `process`. Errors: invalid params or architecture, data of the
// wrong shape or out of range (field "train"/"heldOut"), a non-finite loss (NumericalError).
// A cancel through `progress` returns the EMA weights so far with summary.cancelled = true.
Result<CategoricalTrainResult> trainCategorical(const CategoricalProcess& process,
                                                const CategoricalDataset& train,
                                                const CategoricalDataset& heldOut,
                                                const MlpConfig& architecture,
                                                const TrainParams& params,
                                                Progress* progress = nullptr);

// Minimises E‖ε − ε_θ(√ᾱ_n x_0 + √β̄_n ε, n)‖²/d (docs/gaussian.md#training), n ~ U{1..N}, ε ~ N(0,
// I). train and heldOut are d×M (one point per column); heldOut may have 0 columns (no evaluation).
Result<GaussianTrainResult> trainGaussian(const schedule::GaussianSchedule& schedule,
                                          const Matrix& train,
                                          const Matrix& heldOut,
                                          const MlpConfig& architecture,
                                          const TrainParams& params,
                                          Progress* progress = nullptr);

// The fields that decide a run's trajectory, as JSON (steps, batch, learning rate and its
// schedule, warm-up, AdamW, EMA, dropout, seed): stored in checkpoints so a resume can check it
// repeats them.
std::string trainParamsToJson(const TrainParams& params);

// The learning rate of step s (0-based) under params (warm-up, then constant or cosine).
double learningRateAt(const TrainParams& params, int step);

}  // namespace core::model
