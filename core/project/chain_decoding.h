// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "core/categorical/decoding.h"
#include "core/data/markov_chain.h"
#include "core/io/json.h"
#include "core/schedule/beta_curve.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// Masked decoding on sequences from a Markov chain (docs/categorical.md, "Decoding on a Markov
// chain"): the chain's exact denoiser at every step, Monte Carlo over chains, and measures
// against the chain's own law. The one entry point of `decode --chain` and of the GUI.
namespace core::project {

struct ChainDecodeRequest {
    categorical::DecodingSampler sampler;
    int length = 2;             // D
    int numSteps = 1;           // N
    int64_t samples = 1000;     // M chains
    uint64_t seed = 0;
    int trajectories = 0;       // chains whose every state is kept (the view's replay)
};

struct ChainDecodeMeasures {
    // Means over the M decoded sequences with their standard errors (s/√M; the pair TV's is the
    // jackknife's over chains).
    categorical::DecodeMeasure crossEntropy;       // −log p_chain(x)/D, nats per token
    double chainEntropy = 0.0;                     // the chain's entropy per token, exact
    categorical::DecodeMeasure pairTotalVariation; // adjacent-pair frequencies against the chain's law
    categorical::DecodeMeasure distinct2;          // distinct adjacent pairs / (D − 1), per sequence
    categorical::DecodeMeasure longestRepeat;      // the longest run of one state, per sequence
    std::vector<std::string> samples;              // the first 20 sequences as text
};

struct ChainDecodeRun {
    categorical::DecodeResult result;  // tokens per step, commit, commit_score, position entropy
    ChainDecodeMeasures measures;
};

// The name of the bundled chain of letters where a chain file may stand.
inline constexpr const char* kBundledChain = "english";
// The chain a `--chain` value names: "english", the bundled chain of letters, or a chain file.
Result<data::MarkovChain> readChainSource(const std::string& name);

// β(t) of a chain decode: linear, cosine, power:P or custom:FILE (info-linear needs a table).
Result<schedule::BetaCurve> chainDecodeCurve(const std::string& spec, const std::string& field);

// Fits a chain of letters on the text at `textPath` (data::fitEnglishChain) and writes it to
// `outPath` with `source` and the smoothing said in its "source"; nothing is written on error.
Result<data::ChainFit> fitChainFile(const std::string& textPath, const std::string& outPath, double alpha,
                                    const std::string& source);

// The largest N·D a chain decode takes: each thread's commit tally has N·D counters.
inline constexpr long long kChainDecodeStepPositions = 1LL << 22;
// The largest M·D (one byte per decoded token is kept for the measures).
inline constexpr long long kChainDecodeTokens = 1LL << 28;

// Errors name the request's field ("length", "steps", "samples") and its value, before any
// work. Progress per chain block, cancel.
Result<ChainDecodeRun> projectDecodeChain(const data::MarkovChain& chain, const schedule::BetaCurve& curve,
                                          const ChainDecodeRequest& request, int numThreads,
                                          Progress* progress = nullptr);

// One run per N of `steps` (the request's numSteps ignored), in order; the first error ends
// the sweep.
Result<std::vector<ChainDecodeRun>> projectDecodeChainSweep(const data::MarkovChain& chain,
                                                            const schedule::BetaCurve& curve,
                                                            ChainDecodeRequest request, const std::vector<int>& steps,
                                                            int numThreads, Progress* progress = nullptr);

// The measures of M decoded sequences (M × D states, row-major) against the chain.
ChainDecodeMeasures chainDecodeMeasures(const data::MarkovChain& chain, const std::vector<uint8_t>& outputs,
                                        int length);

// A sequence of states as text: the names one after another when each is one character,
// else separated by spaces.
std::string chainText(const data::MarkovChain& chain, const uint8_t* x, int length);

// A decoded sequence as the Decoding view shows it: its letters and the step (1..N, counting
// the steps taken) after which each position holds its final letter for good.
struct ChainShownSequence {
    std::vector<uint8_t> states;   // D
    std::vector<int> commitStep;   // D
};
// The kept trajectories of a chain decode (ChainDecodeRequest::trajectories) as such sequences.
std::vector<ChainShownSequence> chainShownSequences(const categorical::DecodeResult& result, int length);

io::Json chainDecodeJson(const ChainDecodeRun& run);
std::string chainDecodeCsvHeader();
std::string chainDecodeCsvRow(const ChainDecodeRun& run);

}  // namespace core::project
