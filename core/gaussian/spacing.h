// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/schedule/diffusers_config.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/result.h"

// The timestep spacings of diffusers, EDM and DPM-Solver (docs/gaussian.md#timestep-spacings):
// linspace:K, leading:K[,offset=O], trailing:K (each with [,class=C], the diffusers scheduler
// class whose set_timesteps arithmetic is followed), logsnr:K and karras:K[,rho=ρ]; and the
// Align Your Steps lists (Sabour et al. 2024) ays:sd15[:K] and ays:sdxl[:K]. Our timesteps
// are 1-based: n = t + 1 for the 0-based t of diffusers. Rounding is NumPy's (half to even).
// These trajectories may start after 1 and end before N.
namespace core::gaussian {

enum class SpacingKind { Linspace, Leading, Trailing, LogSnr, Karras, AysSd15, AysSdxl };

struct SpacingSpec {
    SpacingKind kind = SpacingKind::Linspace;
    int numTimesteps = 2;   // K
    long long offset = 0;   // leading: O, added to every 0-based timestep
    double rho = 7.0;       // karras: ρ
    std::string diffusersClass;  // linspace, leading, trailing: "" = DDIMScheduler's arithmetic
};

// The classes `class=` takes: core::schedule::kDiffusersClasses.
using schedule::dropsLastPoint;
using schedule::isDiffusersClass;
using schedule::kDiffusersClasses;
using schedule::kEulerClass;

// True for linspace, leading, trailing, logsnr, karras, ays:sd15 and ays:sdxl.
bool isSpacingKind(const std::string& kind);

// A trajectory spec's kind and what follows it: "karras:10,rho=5" → {"karras", "10,rho=5"};
// the AYS kinds keep their list's name: "ays:sd15:20" → {"ays:sd15", "20"}, "ays:sd15" →
// {"ays:sd15", ""}.
std::pair<std::string, std::string> splitTrajectoryKind(const std::string& spec);

// The published Align Your Steps 10-step timesteps (0-based t, descending) for Stable Diffusion
// 1.5 and SDXL.
inline constexpr int kAysSd15[10] = {999, 850, 736, 645, 545, 455, 343, 233, 124, 24};
inline constexpr int kAysSdxl[10] = {999, 845, 730, 587, 443, 310, 193, 116, 53, 13};

// K from the text after "kind:" (a whole number in 2..N, or 1..N for diffusers' spacings
// linspace, leading and trailing, which take K = 1; checked in 64 bits before any use); errors
// name "K" (or "trajectory" when it is not a number) and the text.
Result<int> parseNumTimesteps(const std::string& text, const std::string& spec,
                              const std::string& kind, int numSteps);
// The fewest timesteps a trajectory kind takes: 1 for linspace, leading and trailing, else 2.
int minNumTimesteps(const std::string& kind);

// `rest` is what follows "kind:": "K" and for leading ",offset=O", for karras ",rho=ρ", for
// linspace, leading and trailing ",class=C"; for the AYS kinds an empty rest means K = 10.
// Errors name the field ("K", "offset", "rho", "class", or "trajectory" for an unknown option)
// and the value.
Result<SpacingSpec> parseSpacing(const std::string& kind, const std::string& rest, int numSteps);

struct Spacing {
    std::vector<int> timesteps;  // 1 ≤ n_1 < … < n_K ≤ N
    int moved = 0;               // logsnr, karras: timesteps moved to keep them distinct
};

// The timesteps of a parsed spec on `schedule` (logsnr and karras read its ᾱ_n).
Result<Spacing> spacingTimesteps(const SpacingSpec& spec,
                                 const schedule::GaussianSchedule& schedule);

// EulerDiscreteScheduler's own timesteps (diffusers' t, descending) for a spec with
// class=EulerDiscreteScheduler: linspace's are NumPy's float64 linspace(0, N − 1, K) rounded to
// float32, often fractional (166.5); leading's and trailing's are whole. Empty for any other
// spec. spacingTimesteps gives their nearest whole timesteps (half to even).
std::vector<double> eulerTimesteps(const SpacingSpec& spec, int numSteps);

// Makes nearest-timestep picks distinct, in place: sorted increasing, then upward
// n_i = max(n_i, n_{i−1} + 1), then n_last = min(n_last, N) and downward
// n_i = min(n_i, n_{i+1} − 1). Returns how many entries changed. Needs K ≤ N.
int makeDistinct(std::vector<int>& timesteps, int numSteps);

// "" when the trajectory runs from 1 to N; otherwise one sentence on what the missing ends
// cost (sampling starts from N(0, I) at τ_K < N; the decoder reads x̂_0 from x_{τ_1}, τ_1 > 1).
std::string trajectoryEndsNote(const std::vector<int>& timesteps, int numSteps);

}  // namespace core::gaussian
