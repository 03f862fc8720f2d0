// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

#include "core/io/checkpoint_metadata.h"
#include "core/model/mlp.h"
#include "core/model/train_state.h"
#include "core/model/trainer.h"
#include "core/project/project_file.h"
#include "core/project/setup_sources.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/eigen_types.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// The set-up of a training run, shared by the Train dialog and `diffuscope train`: the data sets
// it trains on, the checkpoint metadata that names it, the check that a resume continues the same
// run, and the memory check. The front ends fill the structs; everything else happens here.
namespace core::project {

// Examples drawn from a categorical table's distribution, and Gaussian points drawn from a data
// spec, when the front end does not say how many.
inline constexpr int kTrainingExamples = 4000;

// A training run's data as the command line spells it.
// The digits with L grey levels as training data and checkpoints name them,
// "digits:levels=L", and back: L of "digits:levels=L", or of "digits" (kDefaultDigitLevels);
// anything else is an error naming `field` and the text.
inline constexpr int kDefaultDigitLevels = 4;
std::string digitsDataSet(int levels);
Result<int> parseDigitsDataSet(const std::string& text, const std::string& field);

struct TrainingDataSpec {
    ProcessKind process = ProcessKind::Gaussian;
    // categorical: digits:levels=L or csv:FILE (rows, the last tenth held out);
    // gaussian: a data spec of core/data/gaussian_data.h
    std::string data;
    std::string schedule;            // empty: cosine (categorical), linear (gaussian)
    std::string pi;                  // categorical: the prior π (empty: uniform over the classes)
    int numClasses = 0;              // categorical csv: K (0: from the data)
    int numSteps = 1000;             // gaussian: N
    int points = kTrainingExamples;  // gaussian: points drawn from the data
};

// What a run trains on, and the metadata that names the run in its checkpoint.
struct TrainingSet {
    ProcessKind process = ProcessKind::Gaussian;
    model::CategoricalProcess categorical;         // categorical: K, D, C, π, β(t)
    model::CategoricalDataset categoricalTrain;    // categorical examples
    model::CategoricalDataset categoricalHeldOut;  // … held out
    schedule::GaussianSchedule gaussianSchedule;   // gaussian: β_n, n = 1..N
    Matrix gaussianTrain;                          // gaussian: d × M points
    Matrix gaussianHeldOut;                        // … held out
    // process, K, D, C, π, schedule and data set; with process, data set and schedule the run's
    // identity (model::sameRun).
    io::CheckpointInfo info;

    // The network's data inputs: K·D one-hot (categorical) or d (gaussian).
    int networkInputs() const;
};

// From the command line's spec. Digits come from `sources`. Errors name the option ("--data",
// "--pi", "--schedule", "--num-steps", "--points").
Result<TrainingSet> trainingSet(const TrainingDataSpec& spec, const SetupSources& sources);

// From a project, as the Train dialog trains it: the categorical data are the digits' own split,
// or kTrainingExamples rows drawn from the table's P(x_0 | c) for conditions drawn uniformly
// (held out: a tenth as many under another key), keyed by `seed`; the π and β(t) are the
// project's. The Gaussian data are the spec of trainingSet above with kTrainingExamples points.
Result<TrainingSet> trainingSet(const Project& project,
                                ProcessKind process,
                                uint64_t seed,
                                const SetupSources& sources);

// The memory a run needs: weights, AdamW moments, online and EMA copies (5 float copies of about
// width²·2·depth + width·(inputs + 2·width) parameters), and the activations and gradients of
// one batch (about 4·depth + 4 vectors of width floats per example). An error naming
// `batchField` and the batch when that passes core::limits::checkMemory's limit.
double trainingParameters(const model::MlpConfig& architecture, int inputs);
double trainingMemoryBytes(const model::MlpConfig& architecture, int batch, int inputs);
Status checkTrainingMemory(const model::MlpConfig& architecture,
                           int batch,
                           int inputs,
                           const std::string& batchField = "batch");

// Whether `state` continues this run: the same process, data set and schedule (the error names
// the first that differs and both values), the same network and training parameters, and steps
// left to train. Errors have field "resume".
Status checkResume(const model::TrainState& state,
                   const TrainingSet& set,
                   const model::MlpConfig& architecture,
                   const model::TrainParams& params);

// A stopped run's own settings, read from its checkpoint (its training state and architecture
// JSON), so that a resume repeats them: the architecture, and the steps, batch, learning rate
// and seed over `params` (a key the state lacks keeps the value given). Errors name the JSON.
struct RunSettings {
    model::MlpConfig architecture;
    model::TrainParams params;
};
Result<RunSettings> stoppedRunSettings(const model::TrainState& state,
                                       const std::string& architectureJson,
                                       const model::TrainParams& params);

// The checkpoint metadata of a run after `summary`: the set's identity and shape, the seed, the
// training parameters and the losses.
io::CheckpointInfo checkpointInfo(const TrainingSet& set,
                                  const model::TrainParams& params,
                                  const model::TrainSummary& summary);

// Trains on `set` (resuming params.resume when set; check it first with checkResume) and saves
// the checkpoint at `path` atomically, with the training state when the run stopped early or
// `keepState`. A run stopped through `progress` still saves and returns summary.cancelled.
Result<model::TrainSummary> trainAndSave(const TrainingSet& set,
                                         const model::MlpConfig& architecture,
                                         const model::TrainParams& params,
                                         const std::string& path,
                                         bool keepState,
                                         Progress* progress);

}  // namespace core::project
