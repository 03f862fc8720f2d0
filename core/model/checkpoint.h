// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/io/checkpoint_metadata.h"
#include "core/io/safetensors.h"
#include "core/model/mlp.h"
#include "core/model/mlp_denoisers.h"
#include "core/model/train_state.h"
#include "core/util/result.h"

// Trained denoisers as safetensors checkpoints: the MLP's tensors under their
// PyTorch names (core/model/mlp.h) and the metadata of core/io/checkpoint_metadata.h, with the
// architecture as JSON: {"kind":"mlp","inputs":…,"outputs":…,"width":…,"depth":…,
// "activation":"silu","layer_norm":false,"time_embedding":32,"time_scale":1000,
// "num_conditions":…,"condition_embedding":32}.
namespace core::model {

// The architecture as the JSON text stored under "architecture", and back. Errors name the key.
std::string architectureToJson(const MlpConfig& config);
Result<MlpConfig> architectureFromJson(const std::string& json);

// Writes the network and `info` (its architecture field is filled in here) atomically. With a
// `state`, a stopped run can be resumed from the file: its online weights and AdamW moments are
// added as F32 tensors train_state.{online,moment1,moment2} [P] and its loss history as F64
// train_state.train_loss [steps] (the EMA weights are the model's own), with
// training_steps = state->stepsDone and train_params = state->trainParams.
// `train` and the Train dialog store train_params in every checkpoint, so a file says how it
// was made.
Status saveMlpCheckpoint(const std::string& path, const Mlp& mlp, io::CheckpointInfo info,
                         const TrainState* state = nullptr);

// A loaded model file (a safetensors checkpoint or a TorchScript archive): its metadata and the
// model for its process (exactly one is set).
struct LoadedModel {
    io::CheckpointInfo info;
    std::shared_ptr<const CategoricalDenoiser> categorical;
    std::shared_ptr<const GaussianEpsModel> gaussian;
    std::shared_ptr<const TrainState> trainState;  // set when the file can be resumed from
    // The shape of one data point when the file says it ([C, H, W] for images); empty for
    // our MLPs, whose data are flat.
    std::vector<int> shape;
    // A TorchScript module's parameters, name and shape (for `info`); empty for our MLPs, whose
    // tensors the safetensors file lists itself.
    std::vector<std::pair<std::string, std::vector<int64_t>>> parameters;
    // A TorchScript contract's schedule as written ("cosine,zero-snr", without N), which the
    // fit checks compare with the set-up's; empty for our safetensors files.
    std::string contractSchedule;
};

// Reads and checks a checkpoint: metadata, architecture, every tensor's name and shape, finite
// weights. `numSteps` is N for a Gaussian model (0: from the metadata's schedule field "N=").
// Errors name the file and the problem.
Result<LoadedModel> loadMlpCheckpoint(const std::string& path, int numSteps = 0);
// The same for a file already in memory (the app's bundled checkpoints); `path` names it.
Result<LoadedModel> parseMlpCheckpoint(std::string_view bytes, const std::string& path,
                                       int numSteps = 0);
// Whether `state` (from a loaded checkpoint) belongs to a run of this process, data set and
// schedule; the error names the first that differs. The training parameters are checked by the
// trainer itself.
Status sameRun(const TrainState& state, const std::string& process, const std::string& dataSet,
               const std::string& schedule);

// Whether a loaded checkpoint fits the set-up it is about to serve, the one check shared by the
// command line and the GUI. The error names the file and what differs: the process, N (a
// Gaussian network's schedule must say N and it must equal `numSteps`), the dimension, K, D, or
// the number of condition labels (labelled data need a network with the same labels or an
// unconditional one; unlabelled data, one implicit condition, are served by any network).
// `schedule`, when given, is the set-up's schedule spec ("linear", "cosine,zero-snr", "power:2"):
// a TorchScript contract's schedule must be of the same kind (a categorical network is
// conditioned on t in [0, 1], so its N is not compared; a Gaussian one's is, above).
Status checkGaussianFit(const LoadedModel& model, const std::string& path, int numSteps,
                        int dimension, const std::string& schedule = {});
// The schedule's part of checkGaussianFit (a Gaussian network, its N, its schedule and prediction
// type), for an edit of the schedule or N under a network already loaded.
Status checkGaussianSchedule(const LoadedModel& model, const std::string& path, int numSteps,
                             const std::string& schedule);
Status checkCategoricalFit(const LoadedModel& model, const std::string& path, int numClasses,
                           int numPositions, int numConditions, const std::string& schedule = {});

// The kind of a schedule spec, what the fit checks compare: a Gaussian spec without a csv or
// diffusers file's path ("csv,zero-snr", "diffusers"), a categorical one without a custom
// curve's file ("custom").
std::string scheduleKind(const std::string& process, const std::string& spec);

// The same for a parsed (or failed) safetensors file.
Result<LoadedModel> loadMlpCheckpoint(Result<io::Checkpoint> checkpoint, const std::string& path,
                                      int numSteps);

}  // namespace core::model
