// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/gaussian/sampler.h"
#include "core/io/gamma_file.h"
#include "core/io/json.h"
#include "core/project/choice.h"
#include "core/project/gaussian_params.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/result.h"

// The files of the Gaussian process that every front end reads and writes the same way: Γ
// tables (CSV or the Analytic-DPM code's NPY) and sampling plans (JSON, for the GPU sampler).
namespace core::project {

// What a Γ file holds, by its identifier in --gamma-kind and in CSV headers.
inline const std::vector<Choice<io::GammaKind>> kGammaKinds = {
    {io::GammaKind::Gamma, "gamma", "Γ_n"},
    {io::GammaKind::MsEps, "ms_eps", "β̄_n Γ_n"},
};

// Γ_0..Γ_N (entry 0 unused) read from a file for the schedule's N, and what the file held. A
// CSV says by its header; an NPY holds ms_eps = β̄_n Γ_n, as the Analytic-DPM code writes it,
// unless `required` says otherwise (then a CSV must hold that kind too).
struct GammaTable {
    std::vector<double> gamma;
    io::GammaKind kind = io::GammaKind::Gamma;
};
Result<GammaTable> readGammaTable(const std::string& path,
                                  const schedule::GaussianSchedule& schedule,
                                  const io::GammaKind* required = nullptr);

// Writes Γ_0..Γ_N: FILE.npy (any case) as ms_eps, anything else as a CSV of Γ. Returns the kind
// written; the old file is kept when writing fails.
Result<io::GammaKind> writeGammaTable(const std::string& path,
                                      const std::vector<double>& gamma,
                                      const schedule::GaussianSchedule& schedule);

// The steps of a sampling plan as JSON: each step's mean x_s = x0·x̂_0 + xt·x_t + eps·ε̂, then
// + √variance·z; the last step (s = 0) outputs x̂_0. The DPM-Solvers' multistep updates have no
// such coefficients: null.
nlohmann::ordered_json planStepsJson(const std::vector<gaussian::PlanStep>& steps);

// A plan file ("diffuscope-plan", version 1): the schedule's ᾱ and β̄, the timesteps, the
// sampler and its variance, the first-step clip, where Γ came from (null: no Γ used), the data
// range and the steps.
struct PlanFile {
    std::string schedule;  // the schedule's spec
    std::vector<int> timesteps;
    bool ddim = false;
    double eta = 1.0;
    gaussian::ReverseVariance variance = gaussian::ReverseVariance::Analytic;
    double clipFirst = 0.0;              // y of the first-step clip (0: none)
    nlohmann::ordered_json gammaSource;  // a sentence, or null
    gaussian::DataRange range;
    std::vector<gaussian::PlanStep> steps;
};
nlohmann::ordered_json planFileJson(const PlanFile& plan,
                                    const schedule::GaussianSchedule& schedule);

}  // namespace core::project
