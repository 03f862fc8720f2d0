// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/schedule/gaussian_schedule.h"
#include "core/util/result.h"

// A diffusers `scheduler_config.json` (docs/gaussian.md#diffusers-schedules): its β schedule
// rebuilt with diffusers' own float32 arithmetic (DDPMScheduler on the CPU), then held in
// double, so that ᾱ_n here is the float diffusers trains and samples with.
namespace core::schedule {

// The prefix of a schedule spec naming such a file: "diffusers:FILE".
inline constexpr const char* kDiffusersPrefix = "diffusers:";

// The diffusers scheduler classes whose set_timesteps arithmetic `class=` follows.
// DDIMScheduler and DDPMScheduler space alike; DPMSolverMultistepScheduler and
// UniPCMultistepScheduler take K + 1 points and drop the last for linspace and leading;
// EulerDiscreteScheduler's linspace timesteps are fractional float32 values (the analyses use
// the nearest whole ones) and its sigmas are float32.
inline constexpr const char* kDiffusersClasses[] = {
    "DDIMScheduler", "DDPMScheduler", "DPMSolverMultistepScheduler", "UniPCMultistepScheduler",
    "EulerDiscreteScheduler"};
inline constexpr const char* kEulerClass = "EulerDiscreteScheduler";
bool isDiffusersClass(const std::string& name);
// True for the classes that build K + 1 points and drop the last (DPMSolverMultistep, UniPC).
bool dropsLastPoint(const std::string& diffusersClass);

// The keys read; every other key is listed in `unknownKeys` (never silently dropped).
struct DiffusersConfig {
    int numTrainTimesteps = 1000;      // num_train_timesteps: N
    std::string betaSchedule = "linear";  // linear | scaled_linear | squaredcos_cap_v2 | sigmoid
    double betaStart = 0.0001;         // beta_start
    double betaEnd = 0.02;             // beta_end
    std::vector<double> trainedBetas;  // trained_betas (empty: null or absent); wins if given
    bool rescaleBetasZeroSnr = false;  // rescale_betas_zero_snr
    std::string timestepSpacing;       // timestep_spacing: "" (absent), linspace | leading | trailing
    int stepsOffset = 0;               // steps_offset
    std::string predictionType;        // prediction_type: "" (absent), epsilon | sample | v_prediction
    // _class_name: "" (absent) or the scheduler class; its timestep spacing is followed where
    // it is one of kDiffusersClasses, else DDIMScheduler's (and the note says so).
    std::string className;
    std::vector<std::string> unknownKeys;  // keys of the file not read above, in file order
};

// The file's size limit: a trained_betas list of 100 000 entries fits many times over.
inline constexpr unsigned long long kMaxDiffusersConfigBytes = 16ull << 20;

// Parses the JSON text of a config; `where` names it in errors. A key with the wrong type or
// an unknown value is refused naming "<where>: <key>" and the value.
Result<DiffusersConfig> parseDiffusersConfig(const std::string& text, const std::string& where);
// Reads a regular file of at most kMaxDiffusersConfigBytes, then parseDiffusersConfig.
Result<DiffusersConfig> readDiffusersConfig(const std::string& path);

// β and ᾱ exactly as diffusers computes them in float32 (torch on the CPU): linspace is torch's
// two-sided float32 linspace, squaredcos_cap_v2 is betas_for_alpha_bar in double rounded to
// float, the zero-SNR rescale is rescale_zero_terminal_snr in float32, ᾱ is torch.cumprod
// (accumulated in double on the CPU, each entry rounded to float).
struct DiffusersTables {
    std::vector<float> betas;          // β_1..β_N
    std::vector<float> alphasCumprod;  // ᾱ_1..ᾱ_N
};
Result<DiffusersTables> diffusersTables(const DiffusersConfig& config, const std::string& where);

// The schedule of a config (N = num_train_timesteps); `where` names it in errors.
Result<GaussianSchedule> diffusersSchedule(const DiffusersConfig& config, const std::string& where);

// "" when every key was read and the class is known; otherwise one line listing the keys that
// were not used and naming a _class_name whose spacing is not known here (DDIMScheduler's is
// used).
std::string diffusersConfigNote(const DiffusersConfig& config, const std::string& where);

// The trajectory spec the config's timestep_spacing, steps_offset and _class_name name for K
// timesteps ("leading:K,offset=O", "trailing:K", "linspace:K,class=UniPCMultistepScheduler"),
// or "" when it names none. The class is written where its arithmetic differs from
// DDIMScheduler's: DPMSolverMultistep and UniPC (linspace, leading) and Euler (every spacing).
std::string diffusersTrajectorySpec(const DiffusersConfig& config, int numTimesteps);

// For a spec "diffusers:FILE[,zero-snr]": the note of diffusersConfigNote ("" for any other
// spec, or when the file cannot be read: the schedule's own reader reports that).
std::string scheduleSpecNote(const std::string& spec);

// For a spec "diffusers:FILE[,zero-snr]": the trajectory its config names for K timesteps
// (diffusersTrajectorySpec); "" for any other spec, a config naming no timestep_spacing, or a
// file that cannot be read. Picking such a config sets the trajectory to it (GUI, and the
// command line's --schedule without --trajectory).
std::string scheduleSpecTrajectory(const std::string& spec, int numTimesteps);

// For a spec "diffusers:FILE[,zero-snr]" whose config names a prediction_type, and a model
// predicting `modelPrediction` (epsilon | sample | v_prediction) from `modelPath`: "" when they
// agree (or either is not known), else one line naming both values ("FILE says epsilon but
// the model M predicts v_prediction (its diffuscope.json)"), for an error on prediction_type.
std::string predictionTypeMismatch(const std::string& spec, const std::string& modelPrediction,
                                   const std::string& modelPath);

// A trajectory's timesteps (1-based n, increasing) in the convention of a pipeline
// (docs/conventions.md#timesteps): diffuscope n ascending, diffusers t = n − 1 descending,
// k-diffusion σ = √(β̄_n/ᾱ_n) descending then 0 (ᾱ_n = 0 is taken at 2⁻²⁴ as diffusers'
// Euler scheduler does). `text` is exactly what `diffuscope timesteps` prints: one JSON line
// {"n"|"timesteps"|"sigmas":[…]} or the bare list, with a final newline.
//
// diffusers' JSON also has "previous": t − ⌊N/K⌋ for each listed t, the timestep
// DDIMScheduler.step goes to (below 0: its final ᾱ); a note says when that is not the next
// listed timestep (or, for the last, not the end), unless `spacingClass` names a class whose
// step follows the list. For EulerDiscreteScheduler (`eulerTimesteps`, its own t descending,
// possibly fractional) diffusers' list is Euler's own t and k-diffusion's σ are Euler's own:
// float32 of σ interpolated at those t; a note gives the largest difference from σ at the
// nearest whole timesteps, which the analyses use.
enum class TimestepConvention { Diffuscope, Diffusers, KDiffusion };
struct PipelineTimesteps {
    std::string text;
    std::vector<std::string> notes;  // what the command line writes as "note: …"
};
struct PipelineClass {
    std::string spacingClass;           // the trajectory's class=, "" when none
    std::vector<double> eulerTimesteps;  // EulerDiscreteScheduler's own t, descending
};
PipelineTimesteps pipelineTimesteps(const std::vector<int>& timesteps,
                                    const GaussianSchedule& schedule,
                                    TimestepConvention convention, bool json = true,
                                    const PipelineClass& pipelineClass = {});

// True for "csv:FILE" and "diffusers:FILE" (a non-empty FILE): schedules read from a file.
bool isFileScheduleSpec(const std::string& base);

}  // namespace core::schedule
