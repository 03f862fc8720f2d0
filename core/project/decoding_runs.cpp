// SPDX-License-Identifier: MIT
#include "core/project/decoding_runs.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>

#include "core/categorical/masked_elbo.h"
#include "core/evaluation/generation_quality.h"
#include "core/util/limits.h"

namespace core::project {

using namespace core::categorical;
using io::Json;

Result<DecodeResult> projectDecode(const CategoricalSetup& setup, const DecodeRequest& request, int numThreads,
                                   Progress* progress) {
    if (absorbingMaskClass(setup.pi) < 0) {
        return invalidArgument("pi", "", "decoding needs masked diffusion: π must be the mask state (--pi masked:K)");
    }
    if (!setup.denoiser) return invalidArgument("model", "", "the set-up has no denoiser");
    DecodeOptions options;
    options.sampler = request.sampler;
    options.numSteps = request.numSteps.value_or(setup.params.numSteps);
    options.condition = request.condition.value_or(setup.params.condition);
    options.samples = request.samples;
    options.seed = request.seed.value_or(setup.params.seed);
    options.trajectories = request.trajectories;
    options.keepOutputs = request.keepOutputs;
    options.parallel.numThreads = std::max(1, numThreads);
    options.progress = progress;
    return decode(setup.table, *setup.denoiser, setup.pi, setup.curve, options);
}

std::string samplerSpec(const DecodingSampler& sampler) {
    std::string spec = "order=" + decodeOrderText(sampler.order) + ";values=" + decodeValuesText(sampler) +
                       ";remask=" + decodeRemaskText(sampler) +
                       ";gumbel=" + gumbelPrecisionText(sampler.gumbel);
    // Written only when set, so that the specs of earlier projects read and print as before.
    if (sampler.count != DecodeCount::Schedule) spec += ";per-step=" + decodeCountText(sampler);
    if (sampler.blocks != 1) spec += ";blocks=" + std::to_string(sampler.blocks);
    if (sampler.times != DecodeTimes::Schedule) spec += ";times=" + decodeTimesText(sampler.times);
    if (sampler.temperedScores) spec += ";scores=tempered";
    return spec;
}

Result<DecodingSampler> parseSamplerSpec(const std::string& spec, const std::string& field) {
    DecodingSampler sampler;
    std::set<std::string> seen;
    std::stringstream in(spec);
    std::string item;
    std::string preset;
    std::string temperature;
    while (std::getline(in, item, ';')) {
        if (item.empty()) continue;
        const size_t eq = item.find('=');
        const std::string key = item.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
        if (eq == std::string::npos || !seen.insert(key).second) {
            return makeError(ErrorCode::ParseError, field, spec,
                             eq == std::string::npos ? "expected key=value items separated by ';'"
                                                     : "the key " + key + " appears twice");
        }
        Status s;
        if (key == "order") {
            Result<DecodeOrder> order = parseDecodeOrder(value, field + ".order");
            if (!order) return order.error();
            sampler.order = *order;
        } else if (key == "values") {
            s = parseDecodeValues(value, sampler, field + ".values");
        } else if (key == "remask") {
            s = parseDecodeRemask(value, sampler, field + ".remask");
        } else if (key == "gumbel") {
            Result<GumbelPrecision> g = parseGumbelPrecision(value, field + ".gumbel");
            if (!g) return g.error();
            sampler.gumbel = *g;
        } else if (key == "per-step") {
            s = parseDecodeCount(value, sampler, field + ".per-step");
        } else if (key == "blocks") {
            s = parseDecodeBlocks(value, sampler, field + ".blocks");
        } else if (key == "times") {
            Result<DecodeTimes> times = parseDecodeTimes(value, field + ".times");
            if (!times) return times.error();
            sampler.times = *times;
        } else if (key == "scores") {
            s = parseDecodeScores(value, sampler, field + ".scores");
        } else if (key == "preset") {
            preset = value;
        } else if (key == "temperature") {
            temperature = value;
        } else {
            return makeError(ErrorCode::ParseError, field, spec,
                             "unknown key " + key +
                                 " (expected order, values, remask, gumbel, per-step, blocks, times, "
                                 "scores, preset, temperature)");
        }
        if (!s) return s.error();
    }
    if (!preset.empty()) {
        // A preset is the whole sampler but its blocks and temperature.
        for (const char* key : {"order", "values", "remask", "gumbel", "per-step", "times", "scores"}) {
            if (seen.count(key) != 0) {
                return makeError(ErrorCode::ParseError, field, spec,
                                 "preset " + preset + " sets " + key + " itself; give blocks and "
                                 "temperature only");
            }
        }
        double tau = 1.0;
        if (!temperature.empty()) {
            char* end = nullptr;
            tau = std::strtod(temperature.c_str(), &end);
            if (end != temperature.c_str() + temperature.size()) {
                return makeError(ErrorCode::ParseError, field + ".temperature", temperature,
                                 "expected a number τ ≥ 0");
            }
        }
        Status s = applyDecodePreset(preset, tau, sampler, field + ".preset");
        if (!s) {
            Error error = s.error();
            if (error.field == "--temperature") error.field = field + ".temperature";
            return error;
        }
    } else if (!temperature.empty()) {
        return makeError(ErrorCode::ParseError, field, spec,
                         "temperature goes with a preset; without one give values=temperature:τ");
    }
    if (Status s = validateDecodingSampler(sampler); !s) {
        Error error = s.error();
        error.field = field;
        error.value = spec;
        return error;
    }
    return sampler;
}

namespace {

Json measureJson(const DecodeMeasure& m, bool exact) {
    Json value = m.value ? Json(*m.value) : Json(nullptr);
    if (exact) return value;
    Json out = Json::object();
    out["value"] = value;
    out["standard_error"] = m.value ? Json(m.standardError) : Json(nullptr);
    return out;
}

std::string cell(const std::optional<double>& v) {
    return v ? shortestText(*v) : std::string();
}

}  // namespace

io::Json decodeResultJson(const DecodeResult& r) {
    Json json = Json::object();
    json["exact"] = r.exact;
    json["sampler"] = samplerSpec(r.sampler);
    json["steps"] = r.numSteps;
    Json tokens = Json::array();
    // Whole counts for the ordered kinds with a fixed count, expected ones otherwise.
    const bool expected = r.sampler.order == DecodeOrder::Ancestral || r.sampler.count == DecodeCount::Threshold ||
                          r.sampler.count == DecodeCount::EntropyBound;
    for (double v : r.tokensPerStep) {
        if (expected) {
            tokens.push_back(v);
        } else {
            tokens.push_back(static_cast<int64_t>(std::llround(v)));
        }
    }
    json["tokens_per_step"] = tokens;
    if (!r.exact) json["samples"] = r.samples;
    json["entropy"] = measureJson(r.entropy, r.exact);
    json["kl_data_output"] = measureJson(r.klDataOutput, r.exact);
    json["kl_output_data"] = measureJson(r.klOutputData, r.exact);
    json["total_variation"] = measureJson(r.totalVariation, r.exact);
    json["position_entropy"] = measureJson(r.positionEntropy, r.exact);
    Json rows = Json::array();
    for (double v : r.rowProbability) rows.push_back(std::isnan(v) ? Json(nullptr) : Json(v));
    json["row_probability"] = rows;
    // commit: one row of D per step, step N first (an object with standard errors for Monte Carlo).
    const auto stepRows = [&](const std::vector<double>& values) {
        Json out = Json::array();
        const size_t dims = r.numSteps > 0 ? values.size() / static_cast<size_t>(r.numSteps) : 0;
        for (size_t i = 0; dims > 0 && i < values.size(); i += dims) {
            out.push_back(std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(i),
                                              values.begin() + static_cast<std::ptrdiff_t>(i + dims)));
        }
        return out;
    };
    if (r.exact) {
        json["commit"] = stepRows(r.commit);
    } else {
        json["commit"] = Json{{"value", stepRows(r.commit)}, {"standard_error", stepRows(r.commitStandardError)}};
    }
    Json commitScore = Json::array();
    for (double v : r.commitScore) commitScore.push_back(std::isnan(v) ? Json(nullptr) : Json(v));
    json["commit_score"] = commitScore;
    if (r.exact) {
        Json dist = Json::array();
        for (const DecodeRow& row : r.distribution) {
            Json item = Json::object();
            item["x"] = row.x;
            item["p"] = row.p;
            dist.push_back(item);
        }
        json["distribution"] = dist;
    }
    return json;
}

std::string decodeCsvHeader() {
    return "steps,exact,samples,entropy,entropy_se,kl_data_output,kl_data_output_se,kl_output_data,"
           "kl_output_data_se,total_variation,total_variation_se,position_entropy,position_entropy_se";
}

std::string decodeCsvRow(const DecodeResult& r) {
    std::string out = std::to_string(r.numSteps) + "," + (r.exact ? "1" : "0") + "," + std::to_string(r.samples);
    for (const DecodeMeasure* m : {&r.entropy, &r.klDataOutput, &r.klOutputData, &r.totalVariation,
                                   &r.positionEntropy}) {
        out += "," + cell(m->value) + "," + (r.exact || !m->value ? "" : shortestText(m->standardError));
    }
    return out;
}

bool decodesDigits(const CategoricalSetup& setup) {
    return setup.params.dataSource == CategoricalData::Digits;
}

Result<DigitsDecodeMeasures> digitsDecodeMeasures(const DecodeResult& result,
                                                  const data::Digits& digits,
                                                  int levels) {
    auto train = data::quantisedSplit(digits, levels, true);
    if (!train) return train.error();
    const evaluation::NearestClassMean classifier(train->rows, train->labels);
    DigitsDecodeMeasures out;
    std::vector<int64_t> hits(10, 0), counts(10, 0);
    const auto count = [&](const int* image, int condition) {
        ++counts[static_cast<size_t>(condition)];
        if (classifier.classify(image) == condition) ++hits[static_cast<size_t>(condition)];
    };
    const size_t pixels = data::kDigitsPixels;
    if (!result.outputConditions.empty()) {
        if (result.outputs.size() != result.outputConditions.size() * pixels) {
            return invalidArgument("outputs", std::to_string(result.outputs.size()),
                                   "a decoded digit needs 64 pixels");
        }
        std::vector<int> image(pixels);
        for (size_t i = 0; i < result.outputConditions.size(); ++i) {
            const int condition = result.outputConditions[i];
            if (condition < 0 || condition >= 10) {
                return invalidArgument("outputs", std::to_string(condition), "a digit's label is 0..9");
            }
            std::copy_n(result.outputs.begin() + static_cast<std::ptrdiff_t>(i * pixels), pixels, image.begin());
            count(image.data(), condition);
        }
    } else {
        for (const DecodeTrajectory& chain : result.trajectories) {
            if (chain.states.size() < pixels || chain.condition < 0 || chain.condition >= 10) {
                return invalidArgument("trajectories", std::to_string(chain.states.size()),
                                       "a decoded digit needs 64 pixels and a label in 0..9");
            }
            count(chain.states.data() + chain.states.size() - pixels, chain.condition);
        }
    }
    int64_t total = 0, right = 0;
    out.perCondition.assign(10, std::numeric_limits<double>::quiet_NaN());
    for (int c = 0; c < 10; ++c) {
        if (counts[c] == 0) continue;
        out.perCondition[c] = static_cast<double>(hits[c]) / static_cast<double>(counts[c]);
        total += counts[c];
        right += hits[c];
    }
    if (total == 0) return invalidArgument("trajectories", "0", "no decoded images to classify");
    out.count = total;
    out.accuracy = static_cast<double>(right) / static_cast<double>(total);
    out.accuracyStandardError = std::sqrt(out.accuracy * (1.0 - out.accuracy) / static_cast<double>(total));
    return out;
}

Result<DigitsReference> digitsReference(const data::Digits& digits, int levels, int condition) {
    if (condition < -1 || condition > 9) {
        return invalidArgument("condition", std::to_string(condition), "a label is 0..9, or −1 for all");
    }
    auto train = data::quantisedSplit(digits, levels, true);
    if (!train) return train.error();
    const evaluation::NearestClassMean classifier(train->rows, train->labels);
    std::vector<int64_t> hits(10, 0), counts(10, 0);
    // [label][pixel][level] counts of the real images.
    std::vector<std::vector<double>> histogram(10, std::vector<double>(
                                                       static_cast<size_t>(data::kDigitsPixels) * levels, 0.0));
    for (size_t i = 0; i < train->labels.size(); ++i) {
        const int label = train->labels[i];
        const int* image = train->rows.data() + i * data::kDigitsPixels;
        ++counts[static_cast<size_t>(label)];
        if (classifier.classify(image) == label) ++hits[static_cast<size_t>(label)];
        for (int d = 0; d < data::kDigitsPixels; ++d) {
            histogram[static_cast<size_t>(label)][static_cast<size_t>(d * levels + image[d])] += 1.0;
        }
    }
    DigitsReference out;
    std::vector<double> weight(10, 0.0);
    for (int c = 0; c < 10; ++c) {
        if (counts[c] > 0 && (condition == -1 || c == condition)) weight[c] = 1.0;
    }
    double labels = 0.0;
    for (double w : weight) labels += w;
    if (labels == 0.0) return invalidArgument("condition", std::to_string(condition), "no training image has this label");
    for (int c = 0; c < 10; ++c) {
        if (weight[c] == 0.0) continue;
        weight[c] /= labels;
        out.accuracy += weight[c] * static_cast<double>(hits[c]) / static_cast<double>(counts[c]);
    }
    for (int d = 0; d < data::kDigitsPixels; ++d) {
        for (int v = 0; v < levels; ++v) {
            double p = 0.0;
            for (int c = 0; c < 10; ++c) {
                if (weight[c] > 0.0) {
                    p += weight[c] * histogram[c][static_cast<size_t>(d * levels + v)] /
                         static_cast<double>(counts[c]);
                }
            }
            if (p > 0.0) out.positionEntropy -= p * std::log(p);
        }
    }
    out.positionEntropy /= data::kDigitsPixels;
    return out;
}

Result<std::pair<DecodeResult, DigitsDecodeMeasures>> projectDecodeDigits(const CategoricalSetup& setup,
                                                                          const DecodeRequest& request,
                                                                          const data::Digits& digits,
                                                                          int numThreads,
                                                                          Progress* progress) {
    if (!decodesDigits(setup)) {
        return invalidArgument("data", "", "the digits' measures need a project on the digits");
    }
    if (request.samples <= 0) {
        return invalidArgument("samples", std::to_string(request.samples),
                               "the digits are decoded by Monte Carlo: use --samples M");
    }
    // Every chain's output is kept to classify its image, and each distinct output has an
    // entry in the output's distribution and in its label's: refused, with the arithmetic,
    // before anything is allocated (10⁷ chains took 6.3 GB before running out of memory, when
    // every chain's states were kept).
    {
        const double conditions =
            request.condition.value_or(setup.params.condition) < 0
                ? std::max(1, setup.table.numConditions())
                : 1.0;
        const double d = setup.numPositions();
        const double bytes = static_cast<double>(request.samples) * conditions * (3.0 * d + 324.0);
        if (Status s = limits::checkMemory(
                "samples", std::to_string(request.samples),
                "M·C·(3D + 324) bytes (each chain's output, D bytes and its label, and its entries "
                "in the distributions of all outputs and of its label, D + 160 bytes each; C = " +
                    std::to_string(static_cast<int>(conditions)) + " labels, D = " +
                    std::to_string(setup.numPositions()) + ")",
                bytes);
            !s) {
            return s.error();
        }
    }
    DecodeRequest withImages = request;
    withImages.keepOutputs = true;
    Result<DecodeResult> decoded = projectDecode(setup, withImages, numThreads, progress);
    if (!decoded) return decoded.error();
    Result<DigitsDecodeMeasures> measures = digitsDecodeMeasures(*decoded, digits, setup.params.digitLevels);
    if (!measures) return measures.error();
    // The outputs were only the images' carrier.
    decoded->outputs = {};
    decoded->outputConditions = {};
    return std::make_pair(std::move(decoded).value(), std::move(measures).value());
}

void addDigitsMeasuresJson(const DigitsDecodeMeasures& measures, io::Json& json) {
    json["accuracy"] = measures.accuracy;
    json["accuracy_standard_error"] = measures.accuracyStandardError;
    Json per = Json::array();
    for (double v : measures.perCondition) per.push_back(std::isnan(v) ? Json(nullptr) : Json(v));
    json["accuracy_per_condition"] = per;
}

namespace {

// Forwards one part's progress as its share of the whole (in permille of `outer`, whose total
// the caller set to 1000; `done` is shared by the parts).
class ShareObserver final : public ProgressObserver {
public:
    ShareObserver(Progress& outer, int64_t& done, int64_t index, int64_t count)
        : m_outer(outer), m_done(done), m_index(index), m_count(count) {}
    Control onProgress(double fraction, const std::string&) override {
        const auto target = static_cast<int64_t>(1000.0 * (static_cast<double>(m_index) + fraction) /
                                                  static_cast<double>(m_count));
        if (target > m_done) {
            m_outer.advance(target - m_done);
            m_done = target;
        }
        return m_outer.poll() ? Control::Continue : Control::Abort;
    }

private:
    Progress& m_outer;
    int64_t& m_done;
    int64_t m_index;
    int64_t m_count;
};

}  // namespace

Result<DecodeSweepRun> projectDecodeSweep(const CategoricalSetup& setup,
                                          const DecodeRequest& request,
                                          const std::vector<int>& steps, int numThreads,
                                          Progress* progress, const data::Digits* digits) {
    if (steps.empty()) return invalidArgument("steps", "", "the sweep needs at least one N");
    for (int n : steps) {
        if (Status s = limits::checkRange(limits::kSteps, "steps", n); !s) return s.error();
    }
    if (progress != nullptr) progress->setTotal(1000);
    int64_t reported = 0;
    DecodeSweepRun out;
    for (size_t j = 0; j < steps.size(); ++j) {
        DecodeRequest one = request;
        one.numSteps = steps[j];
        std::optional<ShareObserver> share;
        std::optional<Progress> inner;
        if (progress != nullptr) {
            share.emplace(*progress, reported, static_cast<int64_t>(j),
                          static_cast<int64_t>(steps.size()));
            inner.emplace(&*share);
        }
        Progress* part = inner ? &*inner : nullptr;
        if (digits != nullptr) {
            auto both = projectDecodeDigits(setup, one, *digits, numThreads, part);
            if (!both) return both.error();
            out.results.push_back(std::move(both->first));
            out.digits.push_back(std::move(both->second));
        } else {
            auto result = projectDecode(setup, one, numThreads, part);
            if (!result) return result.error();
            out.results.push_back(std::move(result).value());
        }
    }
    return out;
}

bool decodesExactly(const CategoricalSetup& setup) {
    const double states = std::pow(static_cast<double>(setup.numClasses()), setup.numPositions());
    return states <= static_cast<double>(limits::kDecodeExactStates);
}

std::map<std::vector<int>, double> decodingDataDistribution(const CategoricalSetup& setup) {
    const auto& table = setup.table;
    const int condition = setup.params.condition;
    const int conditions = std::max(1, table.numConditions());
    std::map<std::vector<int>, double> data;
    for (int r = 0; r < table.numRows(); ++r) {
        const int c = table.condition.empty() ? 0 : table.condition[static_cast<size_t>(r)];
        if (condition != kAllConditions && c != condition) continue;
        const double weight = condition == kAllConditions ? 1.0 / conditions : 1.0;
        std::vector<int> x(table.row(r), table.row(r) + table.numPositions);
        data[x] += weight * table.probability[static_cast<size_t>(r)];
    }
    return data;
}

DecodingSamplers decodingSamplers(const DecodingSettings& settings) {
    DecodingSamplers out;
    for (size_t i = 0; i < settings.configs.size(); ++i) {
        auto sampler = parseSamplerSpec(settings.configs[i].sampler,
                                        "decoding.configs[" + std::to_string(i) + "].sampler");
        if (sampler) {
            out.samplers.emplace_back(static_cast<int>(i), *sampler);
        } else {
            out.errors.emplace_back(static_cast<int>(i), sampler.error());
        }
    }
    return out;
}

namespace {

// The samplers' N that every sampler in blocks takes (all of them when none would be left;
// those samplers then say why they did not run).
std::vector<int> blockDivisibleSteps(std::vector<int> steps, const DecodingSamplers& samplers, int positions) {
    std::vector<int> divisible = steps;
    for (const auto& [row, sampler] : samplers.samplers) {
        if (sampler.blocks > 1 && positions % sampler.blocks == 0) {
            std::erase_if(divisible, [b = sampler.blocks](int n) { return n % b != 0; });
        }
    }
    return divisible.empty() ? steps : divisible;
}

Result<DecodingSweep> chainDecodingSweep(const CategoricalSetup& setup, const DecodingSettings& settings,
                                         int numThreads, Progress& progress, const data::MarkovChain* chain) {
    if (chain == nullptr) {
        return invalidArgument("decoding.chain.source", settings.chain.source, "the chain was not read");
    }
    if (setup.params.schedule == schedule::BetaCurveKind::InformationLinear) {
        return invalidArgument("schedule", setup.params.scheduleSpec(),
                               "a chain decodes with linear, cosine, power or custom β: info-linear is "
                               "solved from the table");
    }
    const int d = settings.chain.length;
    DecodingSweep sweep;
    sweep.exact = false;
    sweep.samples = settings.chain.samples;
    sweep.chain = DecodingSweep::ChainInfo{d, data::chainEntropyPerToken(*chain, d), chain->states};
    const DecodingSamplers samplers = decodingSamplers(settings);
    sweep.steps = blockDivisibleSteps(chainSweepSteps(d), samplers, d);
    progress.setTotal(1000);
    int64_t reported = 0;
    const auto runs = static_cast<int64_t>(samplers.samplers.size() * sweep.steps.size());
    int64_t index = 0;
    for (const auto& [row, sampler] : samplers.samplers) {
        progress.setStage(decodingName(settings.configs[static_cast<size_t>(row)]));
        DecodingSweep::Part out;
        out.row = row;
        ChainDecodeRequest request;
        request.sampler = sampler;
        request.length = d;
        request.samples = settings.chain.samples;
        request.seed = setup.params.seed;
        request.trajectories = kChainShownSequences;
        const int64_t first = index;
        for (int n : sweep.steps) {
            ShareObserver share(progress, reported, index++, runs);
            Progress part(&share);
            request.numSteps = n;
            Result<ChainDecodeRun> run = projectDecodeChain(*chain, setup.curve, request, numThreads, &part);
            if (!run) {
                if (run.error().code == ErrorCode::Cancelled || progress.cancelled()) {
                    return makeError(ErrorCode::Cancelled, "", "", "the decoding sweep was cancelled");
                }
                out.error = run.error();
                out.run.results.clear();
                out.chainMeasures.clear();
                out.chainShown.clear();
                break;
            }
            out.chainShown.push_back(chainShownSequences(run->result, d));
            run->result.trajectories.clear();
            out.chainMeasures.push_back(std::move(run->measures));
            out.run.results.push_back(std::move(run->result));
        }
        index = first + static_cast<int64_t>(sweep.steps.size());
        sweep.parts.push_back(std::move(out));
    }
    return sweep;
}

}  // namespace

Result<DecodingSweep> decodingSweep(const CategoricalSetup& setup,
                                    const DecodingSettings& settings, const data::Digits* digits,
                                    int numThreads, Progress& progress, const data::MarkovChain* chain) {
    if (settings.chain.active()) return chainDecodingSweep(setup, settings, numThreads, progress, chain);
    DecodingSweep sweep;
    sweep.exact = decodesExactly(setup);
    sweep.samples = sweep.exact ? 0 : kDecodeSweepSamples;
    const int d = setup.numPositions();
    sweep.steps = decodingSweepSteps(d);
    // Monte Carlo (a network on the digits: every chain runs it N times) stops at N = D.
    if (!sweep.exact) std::erase_if(sweep.steps, [d](int n) { return n > std::max(1, d); });
    // The digits by Monte Carlo are judged as images (accuracy, per-pixel entropy).
    const data::Digits* judged = nullptr;
    if (!sweep.exact && digits != nullptr && decodesDigits(setup)) {
        auto reference = digitsReference(*digits, setup.params.digitLevels, setup.params.condition);
        if (reference) {
            judged = digits;
            sweep.digits = *reference;
        }
    }
    sweep.data = decodingDataDistribution(setup);
    for (const auto& [x, p] : sweep.data) {
        if (p > 0.0) sweep.dataEntropy -= p * std::log(p);
    }
    const DecodingSamplers samplers = decodingSamplers(settings);
    // Samplers in blocks need N divisible by B.
    sweep.steps = blockDivisibleSteps(std::move(sweep.steps), samplers, d);
    progress.setTotal(1000);
    int64_t reported = 0;
    for (size_t i = 0; i < samplers.samplers.size(); ++i) {
        const auto& [row, sampler] = samplers.samplers[i];
        progress.setStage(decodingName(settings.configs[static_cast<size_t>(row)]));
        ShareObserver share(progress, reported, static_cast<int64_t>(i),
                            static_cast<int64_t>(samplers.samplers.size()));
        Progress part(&share);
        DecodeRequest request;
        request.sampler = sampler;
        request.samples = sweep.samples;
        DecodingSweep::Part out;
        out.row = row;
        auto run = projectDecodeSweep(setup, request, sweep.steps, numThreads, &part, judged);
        if (run) {
            out.run = std::move(run).value();
        } else if (run.error().code == ErrorCode::Cancelled || progress.cancelled()) {
            return makeError(ErrorCode::Cancelled, "", "", "the decoding sweep was cancelled");
        } else {
            out.error = run.error();
        }
        sweep.parts.push_back(std::move(out));
    }
    return sweep;
}

Result<CategoricalChains> decodedChains(const CategoricalSetup& setup,
                                        const categorical::DecodingSampler& sampler,
                                        const std::vector<int>& trajectory, int64_t samples,
                                        int chains, int threads, Progress& progress) {
    DecodeRequest request;
    request.sampler = sampler;
    const int n = static_cast<int>(trajectory.size()) - 1;
    request.numSteps = n;
    request.samples = samples;
    request.trajectories = chains;
    auto result = projectDecode(setup, request, threads, &progress);
    if (!result) return result.error();
    CategoricalChains out;
    out.nodes = trajectory;
    out.numPositions = setup.numPositions();
    out.position = setup.position;
    const int positions = out.numPositions;
    const int k = setup.numClasses();  // the mask class is a lane of its own
    out.reverse.assign(static_cast<size_t>(n) + 1, {});
    out.times.resize(static_cast<size_t>(n) + 1);
    for (int node = 0; node <= n; ++node) {
        out.times[static_cast<size_t>(node)] = static_cast<double>(node) / n;
        // Node `node` is t = node/N: N − node steps decoded.
        const int step = n - node;
        auto& frame = out.reverse[static_cast<size_t>(node)];
        for (const auto& chain : result->trajectories) {
            frame.insert(frame.end(),
                         chain.states.begin() + static_cast<std::ptrdiff_t>(step) * positions,
                         chain.states.begin() + static_cast<std::ptrdiff_t>(step + 1) * positions);
        }
        // The shown position's share of each class among the chains (no exact
        // marginal for an ordered sampler: the bars are the chains').
        Vector share = Vector::Zero(k);
        const double count = std::max<size_t>(1, result->trajectories.size());
        for (size_t b = 0; b < result->trajectories.size(); ++b) {
            share[frame[b * positions + static_cast<size_t>(out.position)]] += 1.0 / count;
        }
        out.reverseMarginals.push_back(share);
    }
    // Decoding has no forward process of its own: played forward, the chains show the
    // process it reverses, each token masked independently (data → all masked).
    // (Its data rows are one condition's: with every condition decoded, the decoded
    // frames are replayed instead.)
    if (setup.params.condition == kAllConditions) {
        out.forward = out.reverse;
        out.forwardMarginals = out.reverseMarginals;
    } else {
        auto forward = sampleForwardChains(setup, trajectory, progress);
        if (!forward) return forward.error();
        out.forward = std::move(forward->forward);
        out.forwardMarginals = std::move(forward->forwardMarginals);
    }
    return out;
}

}  // namespace core::project
