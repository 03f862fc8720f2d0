// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/categorical_table.h"
#include "core/model/categorical_denoiser.h"
#include "core/schedule/beta_curve.h"
#include "core/util/eigen_types.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// Decoding samplers of masked (absorbing-state) diffusion (docs/categorical.md#decoding-samplers):
// start with every position masked at t_N = 1 and unmask over N steps t_n = n/N → t_{n−1},
// by the ancestral rule (MDLM) or in an order (random, confidence, margin, entropy), the values
// drawn by a rule (sample, argmax, temperature), optionally remasking decoded tokens (ReMDM).
// The output's distribution is propagated exactly when the partially masked sequences can be
// enumerated, otherwise estimated by Monte Carlo.
namespace core::categorical {

// LowConfidence is LLaDA's `low_confidence`: a value is drawn at every candidate position first,
// and the positions are ranked by F's (untempered) probability of the value drawn there. The
// other ordered kinds rank by F before anything is drawn.
enum class DecodeOrder { Ancestral, Random, Confidence, Margin, Entropy, LowConfidence };
// How many tokens an ordered step unmasks: Schedule, k_n from β(t) (orderedTokensPerStep);
// Llada, LLaDA's get_num_transfer_tokens: ⌊L/N_b⌋ a step, the remainder one each on the first
// steps (L positions and N_b steps a block); Dream, Dream's diffusion_generate: int(M·(1 − s/t))
// in float32 of the M still masked, on the grid t = linspace(1, 10⁻³, N + 1) (dreamTimes), the
// last step all that remain. Threshold, Fast-dLLM's parallel decoding: every candidate whose
// score is ≥ τ (DecodingSampler::bound), and the best one always. EntropyBound, the EB-sampler:
// the longest prefix of the ranked candidates whose entropies (of the scores' probabilities)
// sum to at most γ (bound) beyond their largest, at least one. With these two the count
// depends on the state, N is only the most steps: the blocks are decoded left to right, each
// as long as it has masked positions, and a block's step takes all it has left when the steps
// left are as many as the blocks left.
enum class DecodeCount { Schedule, Llada, Dream, Threshold, EntropyBound };
// The times the ancestral sampler steps through: Schedule, tₙ = n/N on β(t); Dream, Dream's
// `origin`: each masked token unmasks with probability 1 − s/t (float32) on dreamTimes, all at
// the last step (β(t) = t, whatever the project's schedule); Mdlm, MDLM's ddpm_cache: on
// mdlmTimes t, s = t − (1 − 10⁻⁵)/N in float32, a masked token unmasks with (t − s)/t, also at
// the last step, and the masks left after it take F's argmax (MDLM's noise_removal).
enum class DecodeTimes { Schedule, Dream, Mdlm };
enum class DecodeValues { Sample, Argmax, Temperature };
// None: σ = 0. Cap: σ = min(η, σ^max). Rescale: σ = η σ^max. Confidence: σ_ℓ = softmax_ℓ(−ψ)·σ^max
// over the decoded positions ℓ, ψ_ℓ the probability token ℓ had when it was decoded; masked
// positions σ = 0, as in ReMDM's code. Loop, ReMDM's `remdm-loop` (on MDLM's times only):
// MDLM's rule on a time rescaled so that α = α_on between t_on and t_off, and there σ = η with
// the masked tokens unmasking as at α = 0.9, the constant ReMDM's code uses whatever α_on.
enum class DecodeRemask { None, Cap, Rescale, Confidence, Loop };
// How the Gumbel-max draws of the values are computed: in double precision (the exact
// categorical law) or as torch does in float32 (u on the grid k·2^−24), which truncates the noise.
enum class GumbelPrecision { Float64, Float32 };

// One decoding sampler. The command line's --order, --values, --remask, --gumbel.
struct DecodingSampler {
    DecodeOrder order = DecodeOrder::Ancestral;
    DecodeValues values = DecodeValues::Sample;
    double temperature = 1.0;   // τ > 0 of Temperature
    DecodeRemask remask = DecodeRemask::None;
    double eta = 0.0;           // η in [0, 1] of Cap, Rescale and Loop
    // Loop: 0 ≤ t_off < t_on < 1 and α_on in (0, 1].
    double loopOn = 0.0;
    double loopOff = 0.0;
    double loopAlpha = 0.0;
    GumbelPrecision gumbel = GumbelPrecision::Float64;
    DecodeCount count = DecodeCount::Schedule;
    double bound = 0.0;         // τ ≥ 0 of Threshold, γ ≥ 0 of EntropyBound
    DecodeTimes times = DecodeTimes::Schedule;
    // Rank by the tempered probabilities w ∝ F^{1/τ} of the values rule (Dream's scores)
    // instead of F (confidence, margin, entropy, low-confidence).
    bool temperedScores = false;
    // B blocks of D/B positions decoded left to right, N/B steps each (LLaDA's block_length =
    // D/B); the ordered kinds choose among the current block's masked positions only.
    int blocks = 1;

    bool operator==(const DecodingSampler&) const = default;
};

// The option texts, each parsed and written as the command line does; errors name `field` and
// the text ("--order = sideways: …").
Result<DecodeOrder> parseDecodeOrder(std::string_view text, const std::string& field = "--order");
// "sample", "argmax" or "temperature:τ" into sampler.values / sampler.temperature.
Status parseDecodeValues(std::string_view text, DecodingSampler& sampler,
                         const std::string& field = "--values");
// "none", "cap:η", "rescale:η", "conf" or "loop:η,t_on,t_off,α_on" into sampler.remask and
// its numbers.
Status parseDecodeRemask(std::string_view text, DecodingSampler& sampler,
                         const std::string& field = "--remask");
Result<GumbelPrecision> parseGumbelPrecision(std::string_view text,
                                             const std::string& field = "--gumbel");
// "schedule", "llada", "dream", "threshold:τ" or "eb:γ" into sampler.count / sampler.bound.
Status parseDecodeCount(std::string_view text, DecodingSampler& sampler,
                        const std::string& field = "--per-step");
Result<DecodeTimes> parseDecodeTimes(std::string_view text, const std::string& field = "--times");
// "plain" or "tempered" into sampler.temperedScores.
Status parseDecodeScores(std::string_view text, DecodingSampler& sampler,
                         const std::string& field = "--scores");
// B ≥ 1 (at most limits::kSteps.max) into sampler.blocks.
Status parseDecodeBlocks(std::string_view text, DecodingSampler& sampler,
                         const std::string& field = "--blocks");
std::string decodeOrderText(DecodeOrder order);       // "ancestral", "random", …
std::string decodeValuesText(const DecodingSampler& sampler);   // "sample", "temperature:0.5"
std::string decodeRemaskText(const DecodingSampler& sampler);   // "none", "cap:0.02", "conf"
std::string gumbelPrecisionText(GumbelPrecision precision);     // "float64", "float32"
std::string decodeCountText(const DecodingSampler& sampler);    // "schedule", "threshold:0.9"
std::string decodeTimesText(DecodeTimes times);                 // "schedule", "dream"

// The presets that reproduce a reference code's sampler, built from the fields above
// (docs/categorical.md#decoding-samplers, "Sampler presets"): "llada:low_confidence" and "llada:random", LLaDA's
// generate() (order low-confidence or random, LLaDA's count, values by float64 Gumbel-max on
// softmax(l/τ), τ = 0 argmax). Sets every field but blocks; errors name `field` and the name,
// or "--temperature" and τ (τ must be finite and ≥ 0).
// "dream:origin", "dream:maskgit_plus", "dream:topk_margin" and "dream:entropy" are Dream's
// diffusion_generate (origin: ancestral on dreamTimes; the others Dream's count, ranked by the
// tempered probability of the drawn value, by top-1 − top-2, or by Σ p log p, tempered), and
// take no blocks; "mdlm" is MDLM's ddpm_cache sampler (ancestral on mdlmTimes, values from F,
// the masks left at the end filled by argmax) and takes neither blocks nor a temperature.
// "remdm:cap:η", "remdm:rescale:η", "remdm:conf" and "remdm:loop:η,t_on,t_off,α_on" are ReMDM's
// ddpm_cache samplers (MDLM's times, remasking cap, rescale, conf or loop, MDLM's argmax fill),
// and take neither. "fast-dllm:τ" is Fast-dLLM's threshold decoding (LLaDA's low-confidence
// ranking, count Threshold τ) and "eb:γ" the EB-sampler (entropy order on the tempered
// probabilities, count EntropyBound γ); both take blocks and a temperature.
// The presets by name, those with numbers as an example of them (the Decoding view's menu).
inline constexpr const char* kDecodePresets[] = {
    "llada:low_confidence", "llada:random",       "dream:origin",
    "dream:maskgit_plus",   "dream:topk_margin",  "dream:entropy",
    "mdlm",                 "remdm:cap:0.02",     "remdm:rescale:0.02",
    "remdm:conf",           "remdm:loop:0.02,0.55,0.05,0.9", "fast-dllm:0.9",
    "eb:0.1"};
// Dream's grid torch.linspace(1, 10⁻³, N + 1) in float32 (element 0 is t = 1).
std::vector<float> dreamTimes(int numSteps);
// MDLM's grid torch.linspace(1, 10⁻⁵, N + 1) in float32 (element 0 is t = 1).
std::vector<float> mdlmTimes(int numSteps);
// The probability a masked token unmasks at step i (0-based from the start) on Dream's or
// MDLM's times; 1 − s/t, resp. (t − s)/t with MDLM's s = t − dt.
double gridUnmaskProbability(DecodeTimes times, const std::vector<float>& grid, int i);
Status applyDecodePreset(std::string_view name, double temperature, DecodingSampler& sampler,
                         const std::string& field = "--preset");

// Checks τ > 0 (field "--values"), η in [0, 1] (field "--remask"), that remasking goes with
// the ancestral order (field "--remask", naming the value), and that blocks and LLaDA's count
// go with an ordered kind (fields "--blocks", "--per-step").
Status validateDecodingSampler(const DecodingSampler& sampler);
// That B blocks divide D positions and N steps (field "--blocks", naming B, D and N).
Status checkDecodeBlocks(const DecodingSampler& sampler, int numSteps, int numPositions);

// The tokens each ordered step unmasks, element 0 the step N, for the sampler's count rule and
// blocks: per block of L = D/B positions over N_b = N/B steps, Schedule takes
// orderedTokensPerStep(curve, N_b, L) and Llada ⌊L/N_b⌋ + (i < L mod N_b) at the block's step i.
// They sum to D. Threshold and EntropyBound decide per state: L at every step, the most a step
// takes. Needs checkDecodeBlocks.
std::vector<int> samplerTokensPerStep(const DecodingSampler& sampler, const schedule::BetaCurve& curve,
                                      int numSteps, int numPositions);

// The number of tokens the ordered samplers unmask at each step, k_n = round(D·(1 − β(t_{n−1})))
// − round(D·(1 − β(t_n))) (round half to even; whatever is left after step 1 goes to step 1);
// element 0 is step N. They sum to D.
std::vector<int> orderedTokensPerStep(const schedule::BetaCurve& curve, int numSteps, int numPositions);
// The expected number of tokens the ancestral sampler without remasking unmasks at each step,
// D·(β(t_n) − β(t_{n−1})) (the last step: D·β(t_1)); element 0 is step N.
std::vector<double> ancestralTokensPerStep(const schedule::BetaCurve& curve, int numSteps,
                                           int numPositions);

// The law of the value drawn from the weights w ∝ F^{1/τ} (or argmax, or F itself) with the
// Gumbel-max trick at the given precision: Float64 is the exact categorical law; Float32 is the
// law of argmax_i(log w_i + g_i) with g_i Gumbel truncated at its largest float32 value
// g_max = −log(−log(1 − 2^−24)), computed by quadrature. `probabilities` (K entries, ≥ 0, not
// all 0); classes with probability 0 never win.
std::vector<double> valueLaw(std::span<const double> probabilities, const DecodingSampler& sampler);

// The state of one chain after a step: the classes 0..K−1 of its decoded positions, the mask
// class at the masked ones.
struct DecodeTrajectory {
    int condition = 0;
    // (N + 1) × D row-major: states[s·D + d] after s steps (s = 0: all masked, s = N: the output).
    std::vector<int> states;
};

struct DecodeOptions {
    DecodingSampler sampler;
    int numSteps = 1;                   // N
    int condition = -1;                 // condition index, −1: every condition averaged
    int64_t samples = 0;                // 0: exact propagation; M > 0: M chains per condition
    uint64_t seed = 0;                  // key of the Monte Carlo chains and of the trajectories
    int trajectories = 0;               // chains whose every state is kept (per condition decoded)
    bool keepOutputs = false;           // Monte Carlo: every chain's output (DecodeResult::outputs)
    // Float64 values by inverse CDF with one uniform: the law of Gumbel-max in float64 with K
    // times fewer logarithms, other draws (the tables' decodes keep their Gumbel streams).
    bool inverseCdfDraws = false;
    ParallelOptions parallel;
    Progress* progress = nullptr;       // progress per step (exact) or per chain block, cancel
};

// A measure of the output against the data; nullopt when infinite (or undefined).
struct DecodeMeasure {
    std::optional<double> value;
    double standardError = 0.0;         // Monte Carlo only (delta method)
};

struct DecodeRow {
    std::vector<int> x;                 // D classes
    double p = 0.0;
};

struct DecodeResult {
    bool exact = true;
    DecodingSampler sampler;
    int numSteps = 0;
    int64_t samples = 0;                // chains per condition (Monte Carlo)
    // k_n for the ordered samplers, the expected counts for ancestral; element 0 is step N.
    std::vector<double> tokensPerStep;
    DecodeMeasure entropy;              // H(output) in nats
    DecodeMeasure klDataOutput;         // KL(data ‖ output)
    DecodeMeasure klOutputData;         // KL(output ‖ data)
    DecodeMeasure totalVariation;       // ½ Σ |output − data|
    // (1/D) Σ_d H(output_d), the mean entropy of each position's marginal of the output.
    DecodeMeasure positionEntropy;
    // P(output = x_r | c_r) per table row r; NaN for the rows of conditions not decoded.
    std::vector<double> rowProbability;
    // The exact output (conditions averaged), rows in increasing lexicographic order, p > 0.
    std::vector<DecodeRow> distribution;
    // Which token when: N × D row-major, commit[i·D + d] = P(position d is unmasked after the
    // (i + 1)-th step), element 0 after step N (conditions averaged); MDLM's argmax fill counts
    // with the last step. Monte Carlo: the share of chains, with commitStandardError
    // √(Σ_c p_c(1 − p_c))/(C √M) beside it.
    std::vector<double> commit;
    std::vector<double> commitStandardError;
    // Per position, the mean score it was committed with, over every commit (a remasked token
    // commits again): what the order ranks by (confidence and low-confidence the probability,
    // margin top-1 − top-2, entropy H in nats; tempered with temperedScores), for ancestral and
    // random F's probability of the value drawn; MDLM's argmax fill, F of the argmax. Exact, or
    // the Monte Carlo mean; NaN for a position never committed.
    std::vector<double> commitScore;
    std::vector<DecodeTrajectory> trajectories;
    // Monte Carlo with keepOutputs: chain i's output is outputs[i·D .. i·D + D) (classes), of
    // condition outputConditions[i]; the chains of the conditions interleave as the
    // trajectories' do. D bytes a chain where its trajectory would take (N + 1)·D ints.
    std::vector<uint8_t> outputs;
    std::vector<int> outputConditions;
};

// Decodes with `denoiser` (K + 1 classes, the last being the mask class of the absorbing `pi`)
// under β(t) = `curve`. Exact when options.samples = 0 and (K + 1)^D ≤ limits::kDecodeExactStates,
// else an error naming D and the limit; Monte Carlo with options.samples > 0. Errors: π not
// absorbing (field "pi"), data on the mask class (field "table"), a bad sampler, a cancelled run.
Result<DecodeResult> decode(const data::CategoricalTable& table,
                            const model::CategoricalDenoiser& denoiser,
                            const Vector& pi,
                            const schedule::BetaCurve& curve,
                            const DecodeOptions& options);

}  // namespace core::categorical
