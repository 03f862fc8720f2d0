// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/categorical/decoding.h"
#include "core/data/digits.h"
#include "core/data/markov_chain.h"
#include "core/project/chain_decoding.h"
#include "core/io/json.h"
#include "core/project/categorical_runs.h"
#include "core/project/categorical_setup.h"
#include "core/project/decoding_settings.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// Decoding samplers on a project's categorical set-up (docs/categorical.md#decoding-samplers):
// the one entry point of the GUI, `export` and `diffuscope decode`.
namespace core::project {

// What to decode; unset fields take the project's value.
struct DecodeRequest {
    categorical::DecodingSampler sampler;
    std::optional<int> numSteps;        // N; unset: params.numSteps
    std::optional<int> condition;       // condition index or kAllConditions; unset: params.condition
    int64_t samples = 0;                // 0: exact; M > 0: Monte Carlo, M chains per condition
    std::optional<uint64_t> seed;       // unset: params.seed
    int trajectories = 0;               // chains whose every state is kept, for animation
    bool keepOutputs = false;           // Monte Carlo: every chain's output kept (D bytes each)
};

// Decodes with the set-up's denoiser (the exact joint-posterior oracle of the table, or the
// project's network). π must be absorbing (params.maskState, `--pi masked:K`): otherwise an
// error naming "pi". Progress per step, cancel.
Result<categorical::DecodeResult> projectDecode(const CategoricalSetup& setup,
                                                const DecodeRequest& request,
                                                int numThreads,
                                                Progress* progress = nullptr);

// What the Trajectories view plays for a decoding sampler: `chains` decoded chains along
// `trajectory` (grid nodes 0..N, one decoding step per node; every state kept), the shown
// position's share of each class at each node, and forward the process decoding reverses (each
// token masked independently; with every condition averaged, the decoded frames replayed).
// `samples` > 0 decodes by Monte Carlo with that many chains per condition, 0 exactly.
Result<CategoricalChains> decodedChains(const CategoricalSetup& setup,
                                        const categorical::DecodingSampler& sampler,
                                        const std::vector<int>& trajectory, int64_t samples,
                                        int chains, int threads, Progress& progress);

// The digits' own measures of a Monte Carlo decode (a project on the digits, D = 64, with the mask
// state; docs/categorical.md#decoding-samplers).
struct DigitsDecodeMeasures {
    // The fraction of decoded images that the nearest-class-mean classifier (fitted on the real
    // training images at the project's grey levels) labels as their condition, all decoded
    // conditions together (each has M images, so this is their average).
    double accuracy = 0.0;
    double accuracyStandardError = 0.0;       // binomial, √(a(1 − a)/count)
    std::vector<double> perCondition;         // [condition] the same per label; NaN if not decoded
    int64_t count = 0;                        // images classified
};

// The real training images' measures (digitsReference below).
struct DigitsReference {
    double accuracy = 0.0;
    double positionEntropy = 0.0;
};

// One sampler at every N of a sweep: a result per N, in order, and for the digits by Monte
// Carlo the classifier's measures of each (empty otherwise).
struct DecodeSweepRun {
    std::vector<categorical::DecodeResult> results;
    std::vector<DigitsDecodeMeasures> digits;
};

// The same for every N of `steps` (each in limits::kSteps). With `digits` (a set-up on the
// digits, request.samples > 0) every image is classified too (projectDecodeDigits). Each N
// reports as its share of `progress`.
Result<DecodeSweepRun> projectDecodeSweep(const CategoricalSetup& setup,
                                          const DecodeRequest& request,
                                          const std::vector<int>& steps, int numThreads,
                                          Progress* progress = nullptr,
                                          const data::Digits* digits = nullptr);

// Chains per condition when the exact output distribution is out of reach: the Decoding
// view's one default.
inline constexpr int64_t kDecodeSweepSamples = 100;

// Whether the set-up's output distribution can be propagated exactly: (K + 1)^D (the set-up's
// classes include the mask state) within limits::kDecodeExactStates.
bool decodesExactly(const CategoricalSetup& setup);

// The data's distribution the decoders aim at: the selected condition's rows, or every
// condition averaged with equal weights (kAllConditions), rows merged by sequence.
std::map<std::vector<int>, double> decodingDataDistribution(const CategoricalSetup& setup);

// The samplers of the settings' rows, parsed; a row whose spec is refused is left out and its
// error (naming decoding.configs[i].sampler) kept in `errors`, by row.
struct DecodingSamplers {
    std::vector<std::pair<int, categorical::DecodingSampler>> samplers;  // (row, sampler)
    std::vector<std::pair<int, Error>> errors;                           // (row, why)
};
DecodingSamplers decodingSamplers(const DecodingSettings& settings);

// The Decoding view's computation (and `export --view decoding`'s): every parsable sampler of
// the settings at every N of decodingSweepSteps(D), exact when decodesExactly, else by Monte
// Carlo with kDecodeSweepSamples chains per condition up to N = D (only the N divisible by the
// blocks B of every sampler decoding in blocks); on the digits by Monte Carlo
// every image judged by the classifier against the real images' own measures. One sampler's
// failure leaves the others' results. Progress per sampler and N; a cancel is an error.
struct DecodingSweep {
    bool exact = true;
    int64_t samples = 0;                       // chains per condition; 0 when exact
    std::vector<int> steps;                    // the N, ascending
    std::map<std::vector<int>, double> data;   // decodingDataDistribution
    double dataEntropy = 0.0;                  // its entropy, nats
    std::optional<DigitsReference> digits;     // the real images' measures (digits by MC)
    // Decoding on a Markov chain (settings.chain): the chain, whose entropy per letter is the
    // floor of the cross-entropy. Every run is by Monte Carlo, settings.chain.samples sequences.
    struct ChainInfo {
        int length = 0;                        // D
        double entropy = 0.0;                  // nats per letter, exact
        std::vector<std::string> states;       // the letters' names
    };
    std::optional<ChainInfo> chain;
    struct Part {
        int row = 0;                           // index in settings.configs
        DecodeSweepRun run;                    // empty results when it failed
        std::optional<Error> error;            // why it did not run
        // On a chain, per N: the measures against the chain and the first sequences decoded.
        std::vector<ChainDecodeMeasures> chainMeasures;
        std::vector<std::vector<ChainShownSequence>> chainShown;
    };
    std::vector<Part> parts;                   // the parsable rows, in order
};
// With settings.chain active the sweep decodes `chain` (the chain its source names, which the
// caller reads: the GUI its resources, the command line its files) at the N of chainSweepSteps,
// keeping kChainShownSequences sequences of each run; an error naming decoding.chain.source
// when `chain` is null, naming schedule for info-linear (it is solved from the table).
Result<DecodingSweep> decodingSweep(const CategoricalSetup& setup,
                                    const DecodingSettings& settings, const data::Digits* digits,
                                    int numThreads, Progress& progress,
                                    const data::MarkovChain* chain = nullptr);
inline constexpr int kChainShownSequences = 8;

// A sampler as one string for a project file, e.g.
// "order=confidence;values=argmax;remask=cap:0.02;gumbel=float64" (every key written; on
// reading, keys may be missing (defaults) or in any order, a key twice or unknown is an error
// naming `field` and the text).
std::string samplerSpec(const categorical::DecodingSampler& sampler);
Result<categorical::DecodingSampler> parseSamplerSpec(const std::string& spec,
                                                      const std::string& field = "sampler");

// A result as the command line writes it (docs/categorical.md#decoding-samplers): exact, steps,
// tokens_per_step, entropy, kl_data_output, kl_output_data, total_variation, position_entropy
// (numbers or null; with Monte Carlo each measure is {"value": …, "standard_error": …}),
// samples, distribution (exact only) and row_probability.
io::Json decodeResultJson(const categorical::DecodeResult& result);
// The CSV header and one row per result (steps, exact, samples, the measures and their standard
// errors; empty cells for null).
std::string decodeCsvHeader();
std::string decodeCsvRow(const categorical::DecodeResult& result);

// True when the set-up decodes the bundled digits (params.dataSource is Digits).
bool decodesDigits(const CategoricalSetup& setup);

// Decodes like projectDecode with Monte Carlo (request.samples > 0, else an error naming
// "samples") and classifies every chain's output. The chains are those of the Monte Carlo
// measures (their outputs are kept, so the images and the measures come from the same draws;
// only request.trajectories chains a condition keep their every state). Errors: the set-up is
// not on the digits (field "data"); more memory than the 4 GB rule allows (field "samples").
Result<std::pair<categorical::DecodeResult, DigitsDecodeMeasures>> projectDecodeDigits(
    const CategoricalSetup& setup,
    const DecodeRequest& request,
    const data::Digits& digits,
    int numThreads,
    Progress* progress = nullptr);

// The measures of `result`'s outputs at `levels` grey levels: its kept outputs (keepOutputs), or
// else the last states of its trajectories.
Result<DigitsDecodeMeasures> digitsDecodeMeasures(const categorical::DecodeResult& result,
                                                  const data::Digits& digits,
                                                  int levels);

// The same measures of the real training images, the reference a decoder aims at: the
// classifier's accuracy on the images of `condition` (−1: every label, labels weighted equally)
// and their mean per-pixel entropy (1/64) Σ_d H(p_d), p_d the images' distribution of pixel d
// (labels mixed with equal weights for −1), in nats. Errors name "condition".
Result<DigitsReference> digitsReference(const data::Digits& digits, int levels, int condition);

// "accuracy" and "accuracy_standard_error" (and "accuracy_per_condition": numbers or null) added
// to a result's JSON (decodeResultJson).
void addDigitsMeasuresJson(const DigitsDecodeMeasures& measures, io::Json& json);

}  // namespace core::project
