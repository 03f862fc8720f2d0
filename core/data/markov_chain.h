// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

// Sequences from a first-order Markov chain over K named states: the data source of the
// decoding lab on text. The chain's joint law is known exactly, so are the denoiser's
// conditionals for any mask pattern and the likelihood of every decoded sequence
// (docs/categorical.md, "Decoding on a Markov chain").
namespace core::data {

struct MarkovChain {
    std::vector<std::string> states;      // K names (UTF-8)
    std::vector<double> initial;          // p₀, K entries summing to 1
    std::vector<double> transition;       // K × K row-major, T(a, b) = transition[a·K + b]
    std::string source;                   // where the chain comes from (free text, optional)

    int numStates() const { return static_cast<int>(states.size()); }
    double at(int a, int b) const { return transition[static_cast<size_t>(a) * states.size() + b]; }
};

// Rows of T and p₀ must sum to 1 within this; they are used as written.
constexpr double kChainSumTolerance = 1e-9;

// {"states": [...], "initial": [...], "transition": [[...], ...]} (and an optional "source"
// string). `where` names the file in errors, which name the field, the row and the value: K
// between 2 and 64 distinct non-empty names, entries finite and ≥ 0, each row summing to 1.
Result<MarkovChain> parseMarkovChain(const std::string& text, const std::string& where);
Result<MarkovChain> readMarkovChain(const std::string& path);
std::string markovChainJsonText(const MarkovChain& chain);

// The marginals p_d = p₀ T^d of positions d = 0..D−1 (D × K row-major).
std::vector<double> chainMarginals(const MarkovChain& chain, int length);

// The chain's entropy per token over D positions, exactly, in nats:
// (H(X₁) + Σ_{d=2}^{D} Σ_a p_{d−1}(a) H(T(a, ·))) / D.
double chainEntropyPerToken(const MarkovChain& chain, int length);

// −log p(x) of a sequence of D states under the chain, in nats (+∞ where it has probability 0).
double chainNegativeLogLikelihood(const MarkovChain& chain, const uint8_t* x, int length);

// A chain fitted on English text: the lower-case letters, space and an end-of-sentence mark.
struct ChainFit {
    MarkovChain chain;
    int64_t characters = 0;                    // the characters of the alphabet used
    std::map<std::string, int64_t> outside;    // characters outside it, by character, and counts
};

// Folds `text` (UTF-8) onto the alphabet a–z, " " and "." — letters lower-cased, ".", "!" and
// "?" ending a sentence, any run of white space one space; every other character is left out,
// named and counted (a byte that is not UTF-8 as \xNN) — and counts adjacent pairs. With add-α smoothing:
// T(a, b) = (n(a, b) + α) / (n(a) + Kα), p₀(a) = (n(a) + α) / (n + Kα) over the characters.
// Errors: α not finite or < 0, or a text with fewer than 2 characters of the alphabet.
Result<ChainFit> fitEnglishChain(std::string_view text, double alpha, const std::string& where);

}  // namespace core::data
