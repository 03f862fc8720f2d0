// SPDX-License-Identifier: MIT
#include "core/project/chain_decoding.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/data/bundled_files.h"
#include "core/data/categorical_table.h"
#include "core/io/file_io.h"
#include "core/model/markov_chain_denoiser.h"
#include "core/project/decoding_runs.h"
#include "core/util/limits.h"

namespace core::project {

using categorical::DecodeMeasure;

namespace {

constexpr size_t kShownSamples = 20;

// The mean of `values` and its standard error s/√M.
DecodeMeasure meanWithError(const std::vector<double>& values) {
    const double m = static_cast<double>(values.size());
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / m;
    double squares = 0.0;
    for (double v : values) squares += (v - mean) * (v - mean);
    DecodeMeasure out;
    if (!std::isfinite(mean)) return out;  // a sequence the chain cannot produce: infinite
    out.value = mean;
    out.standardError = values.size() > 1 ? std::sqrt(squares / (m - 1.0) / m) : 0.0;
    return out;
}

Status checkRange(const limits::IntRange& range, long long value, const std::string& field) {
    if (value < range.min || value > range.max) {
        return invalidArgument(field, std::to_string(value),
                               std::string(range.what) + " must lie in " + std::to_string(range.min) + ".." +
                                   std::to_string(range.max));
    }
    return {};
}

}  // namespace

std::string chainText(const data::MarkovChain& chain, const uint8_t* x, int length) {
    const bool single = std::all_of(chain.states.begin(), chain.states.end(),
                                    [](const std::string& s) { return s.size() == 1; });
    std::string text;
    for (int d = 0; d < length; ++d) {
        if (!single && d > 0) text += ' ';
        text += x[d] < chain.states.size() ? chain.states[x[d]] : std::string("_");
    }
    return text;
}

ChainDecodeMeasures chainDecodeMeasures(const data::MarkovChain& chain, const std::vector<uint8_t>& outputs,
                                        int length) {
    ChainDecodeMeasures out;
    const int k = chain.numStates();
    const size_t m = outputs.size() / static_cast<size_t>(length);
    out.chainEntropy = data::chainEntropyPerToken(chain, length);
    std::vector<double> crossEntropy(m), distinct(m), longest(m);
    // Adjacent pairs: every chain's own, then their sum.
    const size_t pairs = static_cast<size_t>(length - 1);
    std::vector<int64_t> total(static_cast<size_t>(k) * k, 0);
    std::vector<int> codes(pairs);
    for (size_t i = 0; i < m; ++i) {
        const uint8_t* x = outputs.data() + i * length;
        crossEntropy[i] = data::chainNegativeLogLikelihood(chain, x, length) / length;
        int run = 1;
        int best = 1;
        for (size_t d = 0; d < pairs; ++d) {
            codes[d] = x[d] * k + x[d + 1];
            ++total[static_cast<size_t>(codes[d])];
            run = x[d + 1] == x[d] ? run + 1 : 1;
            best = std::max(best, run);
        }
        longest[i] = best;
        std::sort(codes.begin(), codes.end());
        distinct[i] = static_cast<double>(std::unique(codes.begin(), codes.end()) - codes.begin()) /
                      static_cast<double>(pairs);
    }
    out.crossEntropy = meanWithError(crossEntropy);
    out.distinct2 = meanWithError(distinct);
    out.longestRepeat = meanWithError(longest);
    // The chain's law of an adjacent pair at a position drawn uniformly from 1..D − 1.
    const std::vector<double> marginals = data::chainMarginals(chain, length);
    std::vector<double> law(static_cast<size_t>(k) * k, 0.0);
    for (int d = 0; d + 1 < length; ++d) {
        for (int a = 0; a < k; ++a) {
            for (int b = 0; b < k; ++b) {
                law[static_cast<size_t>(a) * k + b] += marginals[static_cast<size_t>(d) * k + a] * chain.at(a, b) / pairs;
            }
        }
    }
    const auto tv = [&](const std::vector<int64_t>& counts, double chains) {
        double sum = 0.0;
        for (size_t j = 0; j < law.size(); ++j) sum += std::abs(static_cast<double>(counts[j]) / (chains * pairs) - law[j]);
        return 0.5 * sum;
    };
    out.pairTotalVariation.value = tv(total, static_cast<double>(m));
    // Jackknife over chains: leaving chain i out changes only the entries of its own pairs, so
    // each replicate starts from the sum at M − 1 chains and corrects those entries.
    if (m > 1) {
        const double rest = static_cast<double>(m - 1) * pairs;
        const double base = tv(total, static_cast<double>(m - 1));
        std::vector<double> replicate(m);
        for (size_t i = 0; i < m; ++i) {
            const uint8_t* x = outputs.data() + i * length;
            for (size_t d = 0; d < pairs; ++d) codes[d] = x[d] * k + x[d + 1];
            std::sort(codes.begin(), codes.end());
            double value = base;
            for (size_t d = 0; d < pairs;) {
                size_t e = d;
                while (e < pairs && codes[e] == codes[d]) ++e;
                const size_t j = static_cast<size_t>(codes[d]);
                const double with = static_cast<double>(total[j]) / rest - law[j];
                const double without = static_cast<double>(total[j] - static_cast<int64_t>(e - d)) / rest - law[j];
                value += 0.5 * (std::abs(without) - std::abs(with));
                d = e;
            }
            replicate[i] = value;
        }
        const double mean = std::accumulate(replicate.begin(), replicate.end(), 0.0) / static_cast<double>(m);
        double squares = 0.0;
        for (double v : replicate) squares += (v - mean) * (v - mean);
        out.pairTotalVariation.standardError = std::sqrt(squares * static_cast<double>(m - 1) / static_cast<double>(m));
    }
    for (size_t i = 0; i < std::min(m, kShownSamples); ++i) {
        out.samples.push_back(chainText(chain, outputs.data() + i * length, length));
    }
    return out;
}

Result<data::MarkovChain> readChainSource(const std::string& name) {
    if (name == kBundledChain) {
        Result<std::string> bundled = data::bundledDataPath("data/english-chain.json");
        if (!bundled) return bundled.error();
        return data::readMarkovChain(*bundled);
    }
    return data::readMarkovChain(name);
}

Result<schedule::BetaCurve> chainDecodeCurve(const std::string& spec, const std::string& field) {
    return schedule::parseBetaCurve(spec, {}, field);
}

Result<data::ChainFit> fitChainFile(const std::string& textPath, const std::string& outPath, double alpha,
                                    const std::string& source) {
    if (Status s = io::checkWritablePath(outPath); !s) return s.error();
    Result<std::string> text = io::readRegularFile(textPath);
    if (!text) return text.error();
    Result<data::ChainFit> fit = data::fitEnglishChain(*text, alpha, textPath);
    if (!fit) return fit.error();
    fit->chain.source = (source.empty() ? "fitted on " + textPath : source) +
                        "; add-α smoothing, α = " + shortestText(alpha);
    if (Status s = io::writeFileAtomically(outPath, data::markovChainJsonText(fit->chain)); !s) return s.error();
    return fit;
}

Result<ChainDecodeRun> projectDecodeChain(const data::MarkovChain& chain, const schedule::BetaCurve& curve,
                                          const ChainDecodeRequest& request, int numThreads,
                                          Progress* progress) {
    if (Status s = checkRange(limits::kChainLength, request.length, "length"); !s) return s.error();
    if (Status s = checkRange(limits::kSteps, request.numSteps, "steps"); !s) return s.error();
    if (request.samples < 2 || request.samples > limits::kSamples.max) {
        return invalidArgument("samples", std::to_string(request.samples),
                               "Monte Carlo needs M in 2.." + std::to_string(limits::kSamples.max) + " chains");
    }
    if (static_cast<long long>(request.numSteps) * request.length > kChainDecodeStepPositions) {
        return invalidArgument("steps", std::to_string(request.numSteps),
                               "N·D = " + std::to_string(static_cast<long long>(request.numSteps) * request.length) +
                                   " is more than the limit " + std::to_string(kChainDecodeStepPositions) +
                                   " of a chain decode");
    }
    if (request.samples * request.length > kChainDecodeTokens) {
        return invalidArgument("samples", std::to_string(request.samples),
                               "M·D = " + std::to_string(request.samples * request.length) +
                                   " decoded tokens is more than the limit " + std::to_string(kChainDecodeTokens));
    }
    const int k = chain.numStates();
    // The sampler runs on the chain's exact denoiser; the table it is given only carries D and
    // K + 1 (one row of class 0): its data measures do not apply and are not reported.
    Result<data::CategoricalTable> placeholder = data::makeCategoricalTable(
        request.length, k + 1, std::vector<int>(static_cast<size_t>(request.length), 0), {1.0});
    if (!placeholder) return placeholder.error();
    Vector pi = Vector::Zero(k + 1);
    pi[k] = 1.0;
    const model::MarkovChainDenoiser denoiser(chain, request.length);
    categorical::DecodeOptions options;
    options.sampler = request.sampler;
    options.numSteps = request.numSteps;
    options.samples = request.samples;
    options.seed = request.seed;
    options.trajectories = request.trajectories;
    options.keepOutputs = true;
    options.inverseCdfDraws = true;  // hundreds of positions a step: the draws dominate
    options.parallel.numThreads = std::max(1, numThreads);
    options.progress = progress;
    Result<categorical::DecodeResult> decoded = categorical::decode(*placeholder, denoiser, pi, curve, options);
    if (!decoded) return decoded.error();
    ChainDecodeRun run;
    run.measures = chainDecodeMeasures(chain, decoded->outputs, request.length);
    run.result = std::move(*decoded);
    run.result.outputs.clear();
    run.result.outputs.shrink_to_fit();
    return run;
}

Result<std::vector<ChainDecodeRun>> projectDecodeChainSweep(const data::MarkovChain& chain,
                                                            const schedule::BetaCurve& curve,
                                                            ChainDecodeRequest request, const std::vector<int>& steps,
                                                            int numThreads, Progress* progress) {
    std::vector<ChainDecodeRun> runs;
    for (int n : steps) {
        request.numSteps = n;
        Result<ChainDecodeRun> run = projectDecodeChain(chain, curve, request, numThreads, progress);
        if (!run) return run.error();
        runs.push_back(std::move(*run));
    }
    return runs;
}

std::vector<ChainShownSequence> chainShownSequences(const categorical::DecodeResult& result, int length) {
    std::vector<ChainShownSequence> shown;
    const auto d = static_cast<size_t>(length);
    for (const categorical::DecodeTrajectory& t : result.trajectories) {
        if (d == 0 || t.states.size() % d != 0) continue;
        const int frames = static_cast<int>(t.states.size() / d);  // N + 1
        ChainShownSequence sequence;
        sequence.states.resize(d);
        sequence.commitStep.assign(d, 0);
        for (size_t p = 0; p < d; ++p) {
            const int final = t.states[static_cast<size_t>(frames - 1) * d + p];
            sequence.states[p] = static_cast<uint8_t>(final);
            // The last step that found it different: a remasked letter commits again.
            int step = frames - 1;
            while (step > 0 && t.states[static_cast<size_t>(step - 1) * d + p] == final) --step;
            sequence.commitStep[p] = step;
        }
        shown.push_back(std::move(sequence));
    }
    return shown;
}

namespace {

io::Json measureObject(const DecodeMeasure& m) {
    io::Json out = io::Json::object();
    out["value"] = m.value ? io::Json(*m.value) : io::Json(nullptr);
    out["standard_error"] = m.value ? io::Json(m.standardError) : io::Json(nullptr);
    return out;
}

std::string cells(const DecodeMeasure& m) {
    return m.value ? shortestText(*m.value) + "," + shortestText(m.standardError) : std::string(",");
}

}  // namespace

io::Json chainDecodeJson(const ChainDecodeRun& run) {
    // The table's JSON for what is common (sampler, steps, tokens per step, position entropy,
    // commit, commit_score); the table's data measures left out.
    io::Json table = decodeResultJson(run.result);
    io::Json json = io::Json::object();
    json["exact"] = false;
    json["sampler"] = table["sampler"];
    json["steps"] = table["steps"];
    json["length"] = run.result.commitScore.size();
    json["chains"] = run.result.samples;
    json["tokens_per_step"] = table["tokens_per_step"];
    json["cross_entropy"] = measureObject(run.measures.crossEntropy);
    json["chain_entropy"] = run.measures.chainEntropy;
    json["pair_total_variation"] = measureObject(run.measures.pairTotalVariation);
    json["distinct_2"] = measureObject(run.measures.distinct2);
    json["longest_repeat"] = measureObject(run.measures.longestRepeat);
    json["position_entropy"] = table["position_entropy"];
    json["commit"] = table["commit"];
    json["commit_score"] = table["commit_score"];
    json["samples"] = run.measures.samples;
    return json;
}

std::string chainDecodeCsvHeader() {
    return "steps,chains,cross_entropy,cross_entropy_se,chain_entropy,pair_total_variation,"
           "pair_total_variation_se,distinct_2,distinct_2_se,longest_repeat,longest_repeat_se,"
           "position_entropy,position_entropy_se";
}

std::string chainDecodeCsvRow(const ChainDecodeRun& run) {
    const ChainDecodeMeasures& m = run.measures;
    return std::to_string(run.result.numSteps) + "," + std::to_string(run.result.samples) + "," +
           cells(m.crossEntropy) + "," + shortestText(m.chainEntropy) + "," + cells(m.pairTotalVariation) + "," +
           cells(m.distinct2) + "," + cells(m.longestRepeat) + "," + cells(run.result.positionEntropy);
}

}  // namespace core::project
