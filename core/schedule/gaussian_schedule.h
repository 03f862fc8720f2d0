// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/util/result.h"

// Gaussian noise schedules of docs/gaussian.md#schedules: β_n for n = 1..N and the derived tables
// ᾱ_n, β̄_n. Timesteps are 1-based as in the Analytic-DPM code; index 0 stands for the data
// (ᾱ_0 = 1).
namespace core::schedule {

enum class GaussianScheduleKind { Linear, Cosine, ScaledLinear, Sigmoid, Custom };

// An immutable β table with its cumulative products. Built only by the functions below, which
// validate it, so every value is finite and β_n ∈ (0, 1), except after the zero-SNR transform:
// there β_N = 1, ᾱ_N = 0, β̄_N = 1 and log ᾱ_N = −∞ (docs/gaussian.md#zero-terminal-snr).
class GaussianSchedule {
public:
    GaussianSchedule() = default;

    int numSteps() const { return static_cast<int>(m_beta.size()) - 1; }
    // β_n, n = 1..N.
    double beta(int n) const { return m_beta[n]; }
    // ᾱ_n = Π_{i≤n}(1 − β_i), n = 0..N (ᾱ_0 = 1).
    double alphaBar(int n) const { return m_alphaBar[n]; }
    // β̄_n = 1 − ᾱ_n, computed as −expm1(log ᾱ_n) so it keeps its digits for small n.
    double betaBar(int n) const { return m_betaBar[n]; }
    // log ᾱ_n = Σ log1p(−β_i).
    double logAlphaBar(int n) const { return m_logAlphaBar[n]; }

    // Pair quantities for 0 ≤ s < t ≤ N (docs/gaussian.md#schedules), each computed from log ᾱ
    // differences.
    // α_{t|s} = ᾱ_t/ᾱ_s.
    double alphaTS(int s, int t) const;
    // β_{t|s} = 1 − α_{t|s}.
    double betaTS(int s, int t) const;
    // β̃_{s|t} = β_{t|s}·β̄_s/β̄_t (0 for s = 0).
    double betaTildeST(int s, int t) const;

    const std::vector<double>& betas() const { return m_beta; }  // entry 0 is 0 (unused)

    // True after the zero-SNR transform: ᾱ_N = 0 exactly, so x_N ~ N(0, I) carries no signal.
    bool zeroTerminalSnr() const { return m_alphaBar.back() == 0.0; }

    // The constructor path of every schedule (the zero-SNR transform below derives from one):
    // validates β_1..β_N (finite, in (0, 1), N ≥ 1).
    static Result<GaussianSchedule> fromBetas(const std::vector<double>& betas,
                                              const std::string& field = "beta");

    // A schedule whose tables were computed elsewhere (diffusers' float32 ones): β_1..β_N and
    // ᾱ_1..ᾱ_N as given, log ᾱ_n = log ᾱ_n and β̄_n = 1 − ᾱ_n. β_n ∈ (0, 1) and ᾱ strictly
    // decreasing in (0, 1), except that β_N = 1 with ᾱ_N = 0 (zero terminal SNR) is accepted.
    static Result<GaussianSchedule> fromTables(const std::vector<double>& betas,
                                               const std::vector<double>& alphaBars,
                                               const std::string& field);

    // The zero terminal SNR transform (Lin et al. 2024) of a schedule with N ≥ 2: with
    // s_n = √ᾱ_n, s'_n = s_1·(s_n − s_N)/(s_1 − s_N), so s'_1 = s_1 and s'_N = 0, and
    // ᾱ'_n = s'_n², β'_n = 1 − ᾱ'_n/ᾱ'_{n−1} (β'_N = 1). `spec` names the schedule in errors.
    static Result<GaussianSchedule> withZeroTerminalSnr(const GaussianSchedule& base,
                                                        const std::string& spec);

private:
    std::vector<double> m_beta;         // N + 1 entries, m_beta[0] = 0
    std::vector<double> m_alphaBar;     // N + 1 entries
    std::vector<double> m_betaBar;      // N + 1 entries
    std::vector<double> m_logAlphaBar;  // N + 1 entries
};

// linear: β_n = linspace(c·1e−4, c·0.02, N)[n−1] with c = 1000/N.
Result<GaussianSchedule> linearSchedule(int numSteps);
// cosine (Nichol & Dhariwal 2021): β_n = min(1 − f(n/N)/f((n−1)/N), 0.999).
Result<GaussianSchedule> cosineSchedule(int numSteps);
// scaled-linear: β_n = linspace(√b0, √b1, N)² (Stable Diffusion's defaults 0.00085, 0.012).
Result<GaussianSchedule> scaledLinearSchedule(int numSteps,
                                              double betaStart = 0.00085,
                                              double betaEnd = 0.012);
// sigmoid (GeoDiff, diffusers' "sigmoid"): β_n = b0 + (b1 − b0)·σ(linspace(−6, 6, N)[n−1]).
Result<GaussianSchedule> sigmoidSchedule(int numSteps,
                                         double betaStart = 1e-4,
                                         double betaEnd = 0.02);
// custom: a CSV with a `beta` column (β_1..β_N in order) or an `alpha_bar` column (a
// decreasing ᾱ_1..ᾱ_N in (0, 1), converted by β_n = 1 − ᾱ_n/ᾱ_{n−1}). An optional `n` column
// must read 1..N. Errors name the file and line.
Result<GaussianSchedule> customScheduleFromCsv(const std::string& path);

// The suffix of a spec that asks for the zero terminal SNR transform: "linear,zero-snr".
inline constexpr const char* kZeroSnrSuffix = ",zero-snr";

// Splits "BASE,zero-snr" into BASE and true; any other spec into itself and false.
struct ScheduleSpecParts {
    std::string base;
    bool zeroSnr = false;
};
ScheduleSpecParts splitScheduleSpec(const std::string& spec);

// A schedule from its command-line/project spec: "linear", "cosine", "scaled-linear",
// "sigmoid" (built for numSteps), "csv:FILE" (N is the file's length; numSteps, when > 0,
// must agree with it) or "diffusers:FILE" (a diffusers scheduler_config.json,
// core/schedule/diffusers_config.h; N is its num_train_timesteps, numSteps, when > 0, must
// agree), each optionally followed by ",zero-snr" (withZeroTerminalSnr).
Result<GaussianSchedule> gaussianScheduleFromSpec(const std::string& spec, int numSteps);

}  // namespace core::schedule
