// SPDX-License-Identifier: MIT
// `diffuscope decode`: the output distribution of a masked-diffusion decoding sampler
// (docs/categorical.md, Decoding samplers).
#include <algorithm>
#include <iostream>
#include <sstream>

#include "app/cli/categorical_run.h"
#include "app/cli/commands.h"
#include "app/cli/output_format.h"
#include "app/cli/terminal_progress.h"
#include "core/project/chain_decoding.h"
#include "core/project/decoding_runs.h"

namespace app::cli {

using core::Result;

namespace {
// decode --sweep-steps: one decoding run per value (the view's own sweep has at most 15).
constexpr size_t kMaxSweepSteps = 64;

// --sweep-steps N1,N2,… (empty without it): each N a whole decoding run, so the list is bounded
// before any of them starts; it stands instead of --steps.
Result<std::vector<int>> sweepSteps(const Args& args) {
    std::vector<int> sweep;
    if (!args.has("sweep-steps")) return sweep;
    std::stringstream in(args.get("sweep-steps"));
    std::string item;
    while (std::getline(in, item, ',')) {
        Result<int> n = parseBounded(item, "--sweep-steps", core::limits::kSteps);
        if (!n) {
            core::Error error = n.error();
            error.value = args.get("sweep-steps");
            return error;
        }
        sweep.push_back(*n);
        if (sweep.size() > kMaxSweepSteps) {
            const std::string list = args.get("sweep-steps");
            const auto count = std::count(list.begin(), list.end(), ',') + 1;
            return core::invalidArgument(
                "--sweep-steps", std::to_string(count) + " values",
                "at most " + std::to_string(kMaxSweepSteps) + " values of N");
        }
    }
    if (sweep.empty()) {
        return core::invalidArgument("--sweep-steps", args.get("sweep-steps"), "no N given");
    }
    if (args.has("steps")) {
        return core::invalidArgument("--steps", args.get("steps"),
                                     "not used beside --sweep-steps, which gives every N; give "
                                     "one of them");
    }
    return sweep;
}

// The sampler of the options: --preset with --temperature and --blocks, or the building blocks
// one by one.
Result<core::categorical::DecodingSampler> decodingSamplerOf(const Args& args) {
    using namespace core::categorical;
    DecodingSampler sampler;
    if (core::Status s = parseDecodeBlocks(args.get("blocks"), sampler, "--blocks"); !s) return s.error();
    if (args.has("preset")) {
        for (const char* name : {"order", "values", "remask", "gumbel", "per-step", "times", "scores"}) {
            if (args.has(name)) {
                return core::invalidArgument("--" + std::string(name), args.get(name),
                                             "--preset " + args.get("preset") +
                                                 " sets it; give --temperature and --blocks only");
            }
        }
        double tau = 1.0;
        if (args.has("temperature")) {
            Result<double> t = args.getDouble("temperature");
            if (!t) return t.error();
            tau = *t;
        }
        if (core::Status s = applyDecodePreset(args.get("preset"), tau, sampler); !s) return s.error();
    } else {
        if (args.has("temperature")) {
            return core::invalidArgument("--temperature", args.get("temperature"),
                                         "goes with --preset; without one use --values temperature:τ");
        }
        Result<DecodeOrder> order = parseDecodeOrder(args.get("order"), "--order");
        if (!order) return order.error();
        sampler.order = *order;
        if (core::Status s = parseDecodeValues(args.get("values"), sampler, "--values"); !s) return s.error();
        if (core::Status s = parseDecodeRemask(args.get("remask"), sampler, "--remask"); !s) return s.error();
        Result<GumbelPrecision> gumbel = parseGumbelPrecision(args.get("gumbel"), "--gumbel");
        if (!gumbel) return gumbel.error();
        sampler.gumbel = *gumbel;
        if (core::Status s = parseDecodeCount(args.get("per-step"), sampler, "--per-step"); !s) return s.error();
        Result<DecodeTimes> times = parseDecodeTimes(args.get("times"), "--times");
        if (!times) return times.error();
        sampler.times = *times;
        if (core::Status s = parseDecodeScores(args.get("scores"), sampler, "--scores"); !s) return s.error();
    }
    if (core::Status s = validateDecodingSampler(sampler); !s) return s.error();
    return sampler;
}

// The results: one JSON object (with --sweep-steps {"sweep": [one per N]}), or a CSV row per N.
void printDecode(const core::project::DecodeSweepRun& run, const std::string& format, bool sweep) {
    const std::vector<core::categorical::DecodeResult>& results = run.results;
    const std::vector<core::project::DigitsDecodeMeasures>& digitsMeasures = run.digits;
    std::ostringstream out;
    if (format == "json") {
        auto one = [&](size_t i) {
            auto json = core::project::decodeResultJson(results[i]);
            if (i < digitsMeasures.size())
                core::project::addDigitsMeasuresJson(digitsMeasures[i], json);
            return json;
        };
        if (!sweep) {
            printJson(out, one(0));
        } else {
            nlohmann::ordered_json all;
            all["sweep"] = nlohmann::ordered_json::array();
            for (size_t i = 0; i < results.size(); ++i) all["sweep"].push_back(one(i));
            printJson(out, all);
        }
    } else {
        out << core::project::decodeCsvHeader() << '\n';
        for (const core::categorical::DecodeResult& r : results)
            out << core::project::decodeCsvRow(r) << '\n';
    }
    std::cout << out.str();
}

// Runs a chain decode at every N of `sweep` (or --steps) and prints it in `format`.
int printChainDecode(const Args& args, const core::data::MarkovChain& chain,
                     const core::schedule::BetaCurve& curve, core::project::ChainDecodeRequest request,
                     const std::vector<int>& sweep, const std::string& format);

// decode --chain FILE --length D: Monte Carlo on sequences of a Markov chain, with the chain's
// exact denoiser; the table's options do not apply.
int runDecodeChain(const Args& args, const core::categorical::DecodingSampler& sampler,
                   const std::vector<int>& sweep, const std::string& format) {
    for (const char* name : {"table", "project", "model", "condition"}) {
        if (args.has(name)) {
            return fail(core::invalidArgument("--" + std::string(name), args.get(name),
                                              "not used with --chain, whose own law is the data and the denoiser"));
        }
    }
    Result<std::string> length = args.require("length");
    if (!length) return fail(length.error());
    Result<int> d = parseBounded(*length, "--length", core::limits::kChainLength);
    if (!d) return fail(d.error());
    auto chain = core::project::readChainSource(args.get("chain"));
    if (!chain) return fail(chain.error());
    const int k = chain->numStates();
    if (args.has("pi") && args.get("pi") != "masked:" + std::to_string(k)) {
        return fail(core::invalidArgument("--pi", args.get("pi"),
                                          "a chain of " + std::to_string(k) + " states decodes with --pi masked:" +
                                              std::to_string(k) + " (its mask is state " + std::to_string(k + 1) +
                                              "), or without --pi"));
    }
    auto curve = core::project::chainDecodeCurve(args.has("schedule") ? args.get("schedule") : "linear", "--schedule");
    if (!curve) return fail(curve.error());
    core::project::ChainDecodeRequest request;
    request.sampler = sampler;
    request.length = *d;
    if (args.has("samples")) {
        Result<long long> samples = args.getInt64("samples");
        if (!samples) return fail(samples.error());
        request.samples = *samples;
    }
    Result<long long> seed = args.getInt64("seed");
    if (!seed) return fail(seed.error());
    request.seed = static_cast<uint64_t>(*seed);
    return printChainDecode(args, *chain, *curve, request, sweep, format);
}

// decode --project P on a project whose Decoding view decodes a chain (decoding.chain): that
// chain, length and number of sequences (--length and --samples replace them), the project's
// schedule and seed, as the view runs them.
int runProjectChain(const Args& args, const core::project::CategoricalSetup& setup,
                    const core::categorical::DecodingSampler& sampler, const std::vector<int>& sweep,
                    const std::string& format) {
    const core::project::DecodingChain& given = setup.params.decoding.chain;
    auto chain = core::project::readChainSource(given.source);
    if (!chain) return fail(chain.error());
    if (setup.params.schedule == core::schedule::BetaCurveKind::InformationLinear) {
        return fail(core::invalidArgument("--project", setup.params.scheduleSpec(),
                                          "the project decodes a chain, which takes linear, cosine, power or "
                                          "custom β: info-linear is solved from a table"));
    }
    core::project::ChainDecodeRequest request;
    request.sampler = sampler;
    request.length = given.length;
    if (args.has("length")) {
        Result<int> d = parseBounded(args.get("length"), "--length", core::limits::kChainLength);
        if (!d) return fail(d.error());
        request.length = *d;
    }
    request.samples = given.samples;
    if (args.has("samples")) {
        Result<long long> samples = args.getInt64("samples");
        if (!samples) return fail(samples.error());
        request.samples = *samples;
    }
    request.seed = setup.params.seed;
    return printChainDecode(args, *chain, setup.curve, request, sweep, format);
}

int printChainDecode(const Args& args, const core::data::MarkovChain& chain,
                     const core::schedule::BetaCurve& curve, core::project::ChainDecodeRequest request,
                     const std::vector<int>& sweep, const std::string& format) {
    std::vector<int> steps = sweep;
    if (steps.empty()) {
        Result<int> n = args.getBounded("steps", core::limits::kSteps);
        if (!n) return fail(n.error());
        steps.push_back(*n);
    }
    Result<int> threads = threadCount(args);
    if (!threads) return fail(threads.error());
    TerminalProgress terminal;
    core::Progress progress(&terminal, "decoding");
    auto runs = core::project::projectDecodeChainSweep(chain, curve, request, steps, *threads, &progress);
    if (!runs) {
        core::Error error = runs.error();
        if (error.field == "length" || error.field == "samples") {
            error.field = "--" + error.field;
        } else if (error.field == "steps") {
            error.field = sweep.empty() ? "--steps" : "--sweep-steps";
        }
        return fail(error);
    }
    std::ostringstream out;
    if (format == "json") {
        if (sweep.empty()) {
            printJson(out, core::project::chainDecodeJson(runs->front()));
        } else {
            nlohmann::ordered_json all;
            all["sweep"] = nlohmann::ordered_json::array();
            for (const auto& run : *runs) all["sweep"].push_back(core::project::chainDecodeJson(run));
            printJson(out, all);
        }
    } else {
        out << core::project::chainDecodeCsvHeader() << '\n';
        for (const auto& run : *runs) out << core::project::chainDecodeCsvRow(run) << '\n';
    }
    std::cout << out.str();
    return 0;
}

}  // namespace

const CommandSpec& decodeSpec() {
    static const CommandSpec spec{
        "decode",
        "the output distribution of a decoding sampler of masked diffusion",
        "",
        {required("table", "T.csv", "the data table (columns x1..xD and p, optionally c)"),
         required("pi", "masked:K", "the prior: masked:K (K data classes and a mask state K + 1)"),
         required("schedule", "S", "β(t): linear, cosine, power:P, info-linear or custom:FILE"),
         valued("steps", "N", "", "the number of decoding steps (required without --sweep-steps)"),
         valued("order", "O", "ancestral",
                "ancestral, random, confidence, margin, entropy or low-confidence (which masked "
                "positions unmask; low-confidence draws first, then ranks by F of the drawn value)"),
         valued("values", "V", "sample", "sample, argmax or temperature:τ (how a value is drawn)"),
         valued("remask", "R", "none",
                "none, cap:η, rescale:η, conf or loop:η,t_on,t_off,α_on (ReMDM; with --order "
                "ancestral, loop with --times mdlm)"),
         valued("gumbel", "float64|float32", "float64", "the precision of the Gumbel-max draws"),
         valued("per-step", "C", "schedule",
                "how many tokens an ordered step unmasks: schedule (the schedule's k_n), llada "
                "(⌊L/N⌋ with the remainder on the first steps), dream (int(M·(1 − s/t))), "
                "threshold:τ (every score ≥ τ, at least the best; Fast-dLLM) or eb:γ (the ranked "
                "prefix whose entropies beyond the largest sum to ≤ γ; EB-sampler); with the last "
                "two --steps is the most steps"),
         valued("blocks", "B", "1",
                "B blocks of D/B positions decoded left to right, N/B steps each (ordered kinds)"),
         valued("times", "schedule|dream|mdlm", "schedule",
                "ancestral: the schedule's t_n = n/N, Dream's origin (1 − s/t on its grid) or "
                "MDLM's ddpm_cache (then argmax for the masks left)"),
         valued("scores", "plain|tempered", "plain",
                "rank by F, or by F^{1/τ} of the values rule (Dream's scores)"),
         valued("preset", "P", "",
                "a reference code's sampler: llada:low_confidence, llada:random, dream:origin, "
                "dream:maskgit_plus, dream:topk_margin, dream:entropy, mdlm, remdm:cap:η, "
                "remdm:rescale:η, remdm:conf, remdm:loop:η,t_on,t_off,α_on, fast-dllm:τ or eb:γ "
                "(sets --order, --values, --remask, --per-step, --times, --scores and --gumbel)"),
         valued("temperature", "τ", "", "with --preset: τ ≥ 0 of the values (default 1; 0 = argmax)"),
         valued("sweep-steps", "N1,N2,…", "", "one result per N instead of --steps"),
         valued("project", "FILE", "",
                "a project file: its categorical set-up (data, π, schedule, N, condition, model, "
                "seed) stands in for the options not given"),
         valued("condition", "C", "", "the condition decoded (default: all conditions averaged)"),
         valued("chain", "FILE", "",
                "decode sequences of a Markov chain instead of a table: {\"states\", \"initial\", "
                "\"transition\"}, or english (the bundled chain of letters); Monte Carlo with the "
                "chain's exact denoiser, --schedule default linear"),
         valued("length", "D", "", "with --chain: the sequence length D (2..4096)"),
         valued("samples", "M", "",
                "Monte Carlo with M ≥ 2 chains per condition (default: exact; with --chain 1000)"),
         seedOption("0", "the Monte Carlo seed"), threadsOption(),
         formatOption("json|csv", "json", "the output format"),
         valued("model", "M", "oracle",
                "the denoiser: oracle (the table's exact joint posterior), MODEL.safetensors or "
                "MODEL.pt")},
        "Without --samples the output distribution is propagated exactly ((K + 1)^D ≤ 2^24 "
        "partially\n"
        "masked sequences). JSON: exact, sampler, steps, tokens_per_step (step N first; expected\n"
        "counts for ancestral, threshold and eb), entropy, kl_data_output, kl_output_data,\n"
        "total_variation,\n"
        "position_entropy (numbers, null when infinite; with --samples each is an object\n"
        "{\"value\": …, \"standard_error\": …}), row_probability (per table row), commit (per\n"
        "step, step N first: P(position d is unmasked after it)), commit_score (per position,\n"
        "the mean score it was committed with: the order's confidence, margin or entropy, else\n"
        "F of the value drawn; null if never committed), distribution\n"
        "(exact only: [{\"x\": […], \"p\": …}]). With --sweep-steps: {\"sweep\": [one per N]}.\n"
        "CSV: a header and one row per N. Details in docs/categorical.md (Decoding samplers).\n"
        "On the digits (a project on them, or --model a digits network with a mask state and no\n"
        "--table) with --samples the JSON adds accuracy, accuracy_standard_error and\n"
        "accuracy_per_condition: the share of decoded images that a nearest-class-mean classifier\n"
        "labels as their condition.\n"
        "With --chain FILE --length D (Monte Carlo only) the JSON has exact, sampler, steps, length,\n"
        "chains, tokens_per_step, cross_entropy (−log p_chain(x)/D, nats per token), chain_entropy\n"
        "(exact), pair_total_variation (adjacent pairs against the chain's law), distinct_2,\n"
        "longest_repeat (each {\"value\", \"standard_error\"}), position_entropy, commit,\n"
        "commit_score and samples (the first 20 decoded sequences as text).\n"};
    return spec;
}

int runDecode(const Args& args) {
    using namespace core::categorical;
    const std::string format = args.get("format");
    if (format != "json" && format != "csv") {
        return fail(core::makeError(core::ErrorCode::ParseError, "--format", format,
                                    "expected json or csv"));
    }
    core::project::DecodeRequest request;
    auto sampler = decodingSamplerOf(args);
    if (!sampler) return fail(sampler.error());
    request.sampler = *sampler;
    Result<std::vector<int>> sweep = sweepSteps(args);
    if (!sweep) return fail(sweep.error());
    if (args.has("chain")) return runDecodeChain(args, *sampler, *sweep, format);
    const bool projectChain = args.has("project");  // its decoding.chain may take --length
    if (args.has("length") && !projectChain) {
        return fail(core::invalidArgument("--length", args.get("length"), "goes with --chain FILE"));
    }
    auto params = args.has("project")        ? categoricalParamsFromProject(args)
                  : decodesModelDigits(args) ? digitsParamsFromModel(args, !sweep->empty())
                                             : categoricalParamsFromOptions(args, !sweep->empty());
    if (!params) return fail(params.error());
    if (args.has("seed")) {
        Result<long long> seed = args.getInt64("seed");
        if (!seed) return fail(seed.error());
        params->seed = static_cast<uint64_t>(*seed);
    }
    if (params->decoding.chain.active()) {
        auto setup = buildCategoricalSetup(args, *params);
        if (!setup) return fail(setup.error());
        return runProjectChain(args, **setup, *sampler, *sweep, format);
    }
    if (args.has("length")) {
        return fail(core::invalidArgument("--length", args.get("length"),
                                          "goes with --chain FILE, or a project that decodes a chain"));
    }
    auto run = samplesAndThreads(args);
    if (!run) return fail(run.error());
    request.samples = run->first;
    auto setup = buildCategoricalSetup(args, *params);
    if (!setup) return fail(setup.error());
    TerminalProgress terminal;
    core::Progress progress(&terminal, "decoding");
    // The core names its inputs; the command line names its options.
    auto rename = [&](core::Error error) {
        if (error.field == "pi") {
            error.field = "--pi";
            error.value = args.has("pi") ? args.get("pi") : "(the project's)";
        } else if (error.field == "steps") {
            error.field = args.has("sweep-steps") ? "--sweep-steps" : "--steps";
        } else if (error.field == "samples") {
            error.field = "--samples";
        } else if (error.field == "condition") {
            error.field = "--condition";
        }
        return error;
    };
    // On the digits with Monte Carlo, every chain's image is classified too (accuracy).
    std::shared_ptr<const core::data::Digits> digits;
    if (core::project::decodesDigits(**setup) && request.samples > 0) {
        auto read = core::project::fileSources().digits();
        if (!read) return fail(read.error());
        digits = *read;
    }
    auto sweepRun = core::project::projectDecodeSweep(
        **setup, request, sweep->empty() ? std::vector<int>{params->numSteps} : *sweep, run->second,
        &progress, digits.get());
    if (!sweepRun) return fail(rename(sweepRun.error()));
    printDecode(*sweepRun, format, !sweep->empty());
    return 0;
}

}  // namespace app::cli
