// SPDX-License-Identifier: MIT
// Decoding on a Markov chain: the chain's denoiser against the enumeration of its joint law
// (every partially masked sequence of K = 3, D = 6), the measures against closed forms by
// Monte Carlo (one random token a step reproduces the chain; N = 1 gives the product of the
// marginals, whose expected cross-entropy is computed here; greedy N = 1 is one sequence), the
// same bytes for any thread count, the fit against hand counts, and refusals that name the
// field, the row and the value.
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include <cmath>
#include <random>
#include <vector>

#include "core/data/markov_chain.h"
#include "core/io/json.h"
#include "core/model/markov_chain_denoiser.h"
#include "core/project/chain_decoding.h"
#include "core/project/decoding_runs.h"
#include "core/project/project_file.h"

using core::data::MarkovChain;

namespace {

MarkovChain threeStates() {
    MarkovChain chain;
    chain.states = {"a", "b", "c"};
    chain.initial = {0.5, 0.3, 0.2};
    chain.transition = {0.7, 0.2, 0.1, 0.15, 0.6, 0.25, 0.3, 0.3, 0.4};
    return chain;
}

// The joint law of every sequence of length D, by the chain's product.
double joint(const MarkovChain& chain, const std::vector<int>& x) {
    double p = chain.initial[static_cast<size_t>(x[0])];
    for (size_t d = 1; d < x.size(); ++d) p *= chain.at(x[d - 1], x[d]);
    return p;
}

core::project::ChainDecodeRun decodeChain(const MarkovChain& chain, int length, const std::string& preset,
                                          double temperature, int steps, int64_t samples, int threads = 2) {
    core::project::ChainDecodeRequest request;
    if (auto s = core::categorical::applyDecodePreset(preset, temperature, request.sampler); !s) {
        qFatal("%s", s.error().toString().c_str());
    }
    request.length = length;
    request.numSteps = steps;
    request.samples = samples;
    request.seed = 20261207;
    auto run = core::project::projectDecodeChain(chain, core::schedule::BetaCurve(), request, threads);
    if (!run) qFatal("%s", run.error().toString().c_str());
    return *run;
}

}  // namespace

class tst_ChainDecoding : public QObject {
    Q_OBJECT
private slots:
    void denoiserEqualsTheEnumeratedJoint();
    void oneRandomTokenAStepReproducesTheChain();
    void oneStepGivesTheProductOfTheMarginals();
    void greedyOneStepIsOneSequence();
    void theSameBytesForAnyThreadCount();
    void fitCountsByHand();
    void badChainsAreRefusedNamingTheRow();
    void shownSequencesCommitOneLetterAStep();
    void projectsKeepTheirChain();
    void badChainSettingsNameTheField();
};

void tst_ChainDecoding::denoiserEqualsTheEnumeratedJoint() {
    const MarkovChain chain = threeStates();
    constexpr int k = 3;
    constexpr int length = 6;
    const core::model::MarkovChainDenoiser denoiser(chain, length);
    // Every sequence and its probability.
    std::vector<std::vector<int>> all;
    std::vector<double> p;
    for (int code = 0; code < 729; ++code) {
        std::vector<int> x(length);
        for (int d = 0, c = code; d < length; ++d, c /= k) x[static_cast<size_t>(d)] = c % k;
        p.push_back(joint(chain, x));
        all.push_back(std::move(x));
    }
    // Every partially masked sequence (4^6 of them, the mask is 3) with some probability.
    int checked = 0;
    double worst = 0.0;
    std::vector<double> out(static_cast<size_t>(length) * (k + 1));
    for (int code = 0; code < 4096; ++code) {
        std::vector<int> xt(length);
        for (int d = 0, c = code; d < length; ++d, c /= k + 1) xt[static_cast<size_t>(d)] = c % (k + 1);
        std::vector<double> marginal(static_cast<size_t>(length) * k, 0.0);
        double total = 0.0;
        for (size_t s = 0; s < all.size(); ++s) {
            bool fits = true;
            for (int d = 0; d < length && fits; ++d) fits = xt[d] == k || xt[d] == all[s][static_cast<size_t>(d)];
            if (!fits) continue;
            total += p[s];
            for (int d = 0; d < length; ++d) marginal[static_cast<size_t>(d) * k + all[s][static_cast<size_t>(d)]] += p[s];
        }
        QVERIFY(total > 0.0);  // this chain gives every sequence some probability
        denoiser.predict(xt, 0, {}, out);
        for (int d = 0; d < length; ++d) {
            for (int i = 0; i < k; ++i) {
                const double expected = marginal[static_cast<size_t>(d) * k + i] / total;
                const double got = out[static_cast<size_t>(d) * (k + 1) + i];
                worst = std::max(worst, std::abs(got - expected));
            }
            QCOMPARE(out[static_cast<size_t>(d) * (k + 1) + k], 0.0);  // never the mask
        }
        ++checked;
    }
    QCOMPARE(checked, 4096);
    QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
}

// LLaDA's random order with N = D takes one uniformly chosen position a step and draws it from
// its exact conditional: the output is the chain itself. Its cross-entropy is then the chain's
// entropy, and its pair TV the floor that M sequences of the chain itself reach (computed here
// by sampling the chain directly).
void tst_ChainDecoding::oneRandomTokenAStepReproducesTheChain() {
    const MarkovChain chain = threeStates();
    constexpr int length = 8;
    constexpr int64_t m = 20000;
    const auto run = decodeChain(chain, length, "llada:random", 1.0, length, m);
    for (double tokens : run.result.tokensPerStep) QCOMPARE(tokens, 1.0);
    const auto& ce = run.measures.crossEntropy;
    QVERIFY(ce.value.has_value());
    QVERIFY2(std::abs(*ce.value - run.measures.chainEntropy) < 4.0 * ce.standardError,
             qPrintable(QString("%1 ± %2 against %3").arg(*ce.value).arg(ce.standardError).arg(run.measures.chainEntropy)));
    // The chain's own samples.
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    const auto draw = [&](const double* p) {
        const double u = uniform(rng);
        double c = 0.0;
        for (int i = 0; i < 3; ++i) {
            c += p[i];
            if (u < c) return static_cast<uint8_t>(i);
        }
        return static_cast<uint8_t>(2);
    };
    std::vector<uint8_t> own(static_cast<size_t>(m) * length);
    for (int64_t i = 0; i < m; ++i) {
        uint8_t* x = own.data() + static_cast<size_t>(i) * length;
        x[0] = draw(chain.initial.data());
        for (int d = 1; d < length; ++d) x[d] = draw(chain.transition.data() + static_cast<size_t>(x[d - 1]) * 3);
    }
    const auto floor = core::project::chainDecodeMeasures(chain, own, length);
    QVERIFY(std::abs(*floor.crossEntropy.value - floor.chainEntropy) < 4.0 * floor.crossEntropy.standardError);
    const double tv = *run.measures.pairTotalVariation.value;
    const double tvFloor = *floor.pairTotalVariation.value;
    const double se = std::hypot(run.measures.pairTotalVariation.standardError, floor.pairTotalVariation.standardError);
    QVERIFY2(std::abs(tv - tvFloor) < 4.0 * se, qPrintable(QString("%1 against the floor %2 ± %3").arg(tv).arg(tvFloor).arg(se)));
    QVERIFY(tv < 0.02);  // a floor, not a difference: 9 pairs from 140 000
}

// N = 1 unmasks every position at once, each from its marginal p_d: the output is ⊗ p_d, and
// its expected cross-entropy per token is
// (−Σ p₁ log p₁ − Σ_{d≥2} Σ_{a,b} p_{d−1}(a) p_d(b) log T(a, b)) / D.
void tst_ChainDecoding::oneStepGivesTheProductOfTheMarginals() {
    const MarkovChain chain = threeStates();
    constexpr int length = 7;
    const auto run = decodeChain(chain, length, "llada:random", 1.0, 1, 20000);
    // p_d by hand, not by chainMarginals.
    std::vector<std::vector<double>> p{chain.initial};
    for (int d = 1; d < length; ++d) {
        std::vector<double> next(3, 0.0);
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) next[static_cast<size_t>(b)] += p.back()[static_cast<size_t>(a)] * chain.at(a, b);
        }
        p.push_back(next);
    }
    double expected = 0.0;
    for (int a = 0; a < 3; ++a) expected -= p[0][static_cast<size_t>(a)] * std::log(p[0][static_cast<size_t>(a)]);
    for (int d = 1; d < length; ++d) {
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b) {
                expected -= p[static_cast<size_t>(d - 1)][static_cast<size_t>(a)] * p[static_cast<size_t>(d)][static_cast<size_t>(b)] *
                            std::log(chain.at(a, b));
            }
        }
    }
    expected /= length;
    const auto& ce = run.measures.crossEntropy;
    QVERIFY2(std::abs(*ce.value - expected) < 4.0 * ce.standardError,
             qPrintable(QString("%1 ± %2 against %3").arg(*ce.value).arg(ce.standardError).arg(expected)));
    // Independent positions pay more than the chain's own entropy.
    QVERIFY(expected > run.measures.chainEntropy + 10.0 * ce.standardError);
}

// τ = 0 at N = 1: each position takes its marginal's argmax, every chain the same sequence.
void tst_ChainDecoding::greedyOneStepIsOneSequence() {
    const MarkovChain chain = threeStates();
    constexpr int length = 5;
    const auto run = decodeChain(chain, length, "llada:low_confidence", 0.0, 1, 50);
    const std::vector<double> p = core::data::chainMarginals(chain, length);
    std::vector<uint8_t> x(length);
    for (int d = 0; d < length; ++d) {
        const double* row = p.data() + static_cast<size_t>(d) * 3;
        x[static_cast<size_t>(d)] = static_cast<uint8_t>(std::max_element(row, row + 3) - row);
    }
    double nll = -std::log(chain.initial[x[0]]);
    for (int d = 1; d < length; ++d) nll -= std::log(chain.at(x[static_cast<size_t>(d - 1)], x[static_cast<size_t>(d)]));
    QCOMPARE(*run.measures.crossEntropy.value, nll / length);
    QCOMPARE(run.measures.crossEntropy.standardError, 0.0);
    QCOMPARE(run.measures.samples.size(), size_t{20});
    for (const std::string& s : run.measures.samples) QCOMPARE(s, core::project::chainText(chain, x.data(), length));
}

void tst_ChainDecoding::theSameBytesForAnyThreadCount() {
    const MarkovChain chain = threeStates();
    for (const char* preset : {"llada:low_confidence", "remdm:cap:0.1", "fast-dllm:0.6"}) {
        const auto one = decodeChain(chain, 24, preset, 1.0, 12, 600, 1);
        const auto two = decodeChain(chain, 24, preset, 1.0, 12, 600, 2);
        QCOMPARE(QString::fromStdString(core::io::dumpJson(core::project::chainDecodeJson(one))),
                 QString::fromStdString(core::io::dumpJson(core::project::chainDecodeJson(two))));
    }
}

// "Ab, ba! a" folds to a b ␣ b a . ␣ a: 8 characters, 7 pairs, the comma left out.
void tst_ChainDecoding::fitCountsByHand() {
    auto fit = core::data::fitEnglishChain("Ab, ba!\n a", 0.0, "text");
    QVERIFY2(fit, fit ? "" : fit.error().toString().c_str());
    const MarkovChain& c = fit->chain;
    QCOMPARE(c.numStates(), 28);
    QCOMPARE(c.states[26], std::string(" "));
    QCOMPARE(c.states[27], std::string("."));
    QCOMPARE(fit->characters, int64_t{8});
    QCOMPARE(fit->outside.size(), size_t{1});
    QCOMPARE(fit->outside.at(","), int64_t{1});
    const int a = 0, b = 1, space = 26, stop = 27;
    QCOMPARE(c.at(a, b), 0.5);
    QCOMPARE(c.at(a, stop), 0.5);
    QCOMPARE(c.at(b, space), 0.5);
    QCOMPARE(c.at(b, a), 0.5);
    QCOMPARE(c.at(space, b), 0.5);
    QCOMPARE(c.at(space, a), 0.5);
    QCOMPARE(c.at(stop, space), 1.0);
    QCOMPARE(c.at(2, 2), 1.0);  // never seen: stays (α = 0)
    QCOMPARE(c.initial[a], 3.0 / 8);
    QCOMPARE(c.initial[b], 2.0 / 8);
    QCOMPARE(c.initial[space], 2.0 / 8);
    QCOMPARE(c.initial[stop], 1.0 / 8);
    // α = 1: (n(a, b) + 1)/(n(a) + 28).
    auto smoothed = core::data::fitEnglishChain("Ab, ba!\n a", 1.0, "text");
    QVERIFY(smoothed);
    QCOMPARE(smoothed->chain.at(a, b), 2.0 / 30);
    QCOMPARE(smoothed->chain.at(a, 5), 1.0 / 30);
    QCOMPARE(smoothed->chain.initial[a], 4.0 / 36);
    // Characters outside the alphabet by name; bytes that are no UTF-8 as \xNN.
    auto named = core::data::fitEnglishChain("ab\xc3\xa9 \x80" "c\xe2\x94", 0.1, "text");
    QVERIFY(named);
    QCOMPARE(named->outside.size(), size_t{4});
    QCOMPARE(named->outside.at("\xc3\xa9"), int64_t{1});  // é
    QCOMPARE(named->outside.at("\\x80"), int64_t{1});
    QCOMPARE(named->outside.at("\\xe2"), int64_t{1});     // a sequence cut at the end
    QCOMPARE(named->outside.at("\\x94"), int64_t{1});
    QCOMPARE(named->characters, int64_t{4});             // a b ␣ c
    // It reads back as written.
    auto back = core::data::parseMarkovChain(core::data::markovChainJsonText(smoothed->chain), "chain.json");
    QVERIFY2(back, back ? "" : back.error().toString().c_str());
    QCOMPARE(back->transition, smoothed->chain.transition);
    QCOMPARE(back->states, smoothed->chain.states);
}

void tst_ChainDecoding::badChainsAreRefusedNamingTheRow() {
    const auto refused = [](const std::string& text) {
        auto chain = core::data::parseMarkovChain(text, "c.json");
        return chain ? std::string() : chain.error().toString();
    };
    QCOMPARE(refused(R"({"states": ["a", "b"], "initial": [0.5, 0.5], "transition": [[0.5, 0.5], [0.5, 0.6]]})"),
             std::string("c.json: transition[1] = sum 1.1: the entries must sum to 1 (within 1e-9)"));
    QCOMPARE(refused(R"({"states": ["a", "b"], "initial": [0.5, 0.5], "transition": [[0.5, 0.5], [-0.5, 1.5]]})"),
             std::string("c.json: transition[1][0] = -0.5: a probability must be finite and ≥ 0"));
    QCOMPARE(refused(R"({"states": ["a", "a"], "initial": [0.5, 0.5], "transition": [[0.5, 0.5], [0.5, 0.5]]})"),
             std::string("c.json: states[1] = \"a\": this name is given twice"));
    QCOMPARE(refused(R"({"states": ["a", "b"], "initial": [1], "transition": [[0.5, 0.5], [0.5, 0.5]]})"),
             std::string("c.json: initial = 1 entries: one probability per state is expected (2)"));
    QCOMPARE(refused(R"({"states": ["a"], "initial": [1], "transition": [[1]]})"),
             std::string("c.json: states = 1 states: the number of chain states K must lie in 2..64"));
    // Within 1e-9 a row is taken as written.
    QCOMPARE(refused(R"({"states": ["a", "b"], "initial": [0.5, 0.5], "transition": [[0.5, 0.5000000001], [0.5, 0.5]]})"),
             std::string());
    // Length and step limits are refused before anything is built.
    core::project::ChainDecodeRequest request;
    request.length = 5000;
    auto run = core::project::projectDecodeChain(threeStates(), core::schedule::BetaCurve(), request, 1);
    QVERIFY(!run);
    QCOMPARE(run.error().toString(), std::string("length = 5000: the length D must lie in 2..4096"));
    request.length = 4096;
    request.numSteps = 2048;
    run = core::project::projectDecodeChain(threeStates(), core::schedule::BetaCurve(), request, 1);
    QVERIFY(!run);
    QVERIFY2(run.error().toString().rfind("steps = 2048: N·D = 8388608", 0) == 0, run.error().toString().c_str());
}

// The sequences the Decoding view shows come from the kept trajectories: with one letter a step
// (random order, N = D) each position's commit step is a different step, 1..D; with N = 1 all
// are step 1; and the letters are the run's first outputs (its first sample texts).
void tst_ChainDecoding::shownSequencesCommitOneLetterAStep() {
    const MarkovChain chain = threeStates();
    constexpr int length = 9;
    for (int steps : {length, 1}) {
        core::project::ChainDecodeRequest request;
        QVERIFY(core::categorical::applyDecodePreset("llada:random", 1.0, request.sampler));
        request.length = length;
        request.numSteps = steps;
        request.samples = 30;
        request.seed = 5;
        request.trajectories = 4;
        auto run = core::project::projectDecodeChain(chain, core::schedule::BetaCurve(), request, 2);
        QVERIFY(run);
        const auto shown = core::project::chainShownSequences(run->result, length);
        QCOMPARE(shown.size(), size_t{4});
        for (size_t i = 0; i < shown.size(); ++i) {
            std::vector<int> sorted = shown[i].commitStep;
            std::sort(sorted.begin(), sorted.end());
            for (int d = 0; d < length; ++d) QCOMPARE(sorted[static_cast<size_t>(d)], steps == 1 ? 1 : d + 1);
            QCOMPARE(core::project::chainText(chain, shown[i].states.data(), length), run->measures.samples[i]);
        }
        // Keeping trajectories changes no number: the same request without them.
        request.trajectories = 0;
        auto plain = core::project::projectDecodeChain(chain, core::schedule::BetaCurve(), request, 1);
        QVERIFY(plain);
        QCOMPARE(*plain->measures.crossEntropy.value, *run->measures.crossEntropy.value);
        QCOMPARE(*plain->measures.pairTotalVariation.value, *run->measures.pairTotalVariation.value);
        QCOMPARE(plain->result.commit, run->result.commit);
    }
}

// A project's chain reopens exactly: "english" as written, a chain file beside the project
// stored relative to it (the folder can move) and read back absolute.
void tst_ChainDecoding::projectsKeepTheirChain() {
    QTemporaryDir dir;
    auto project = core::project::exampleProject(7);
    QVERIFY(project);
    QCOMPARE(project->categorical.decoding.chain.source, std::string("english"));
    const std::string path = dir.filePath("p.json").toStdString();
    for (const std::string source : {std::string("english"), dir.filePath("c.json").toStdString()}) {
        project->categorical.decoding.chain.source = source;
        project->categorical.decoding.chain.length = 77;
        project->categorical.decoding.chain.samples = 33;
        const std::string text = core::project::projectToJson(*project, path);
        const auto json = core::io::parseJsonStrict(text, "p.json");
        QVERIFY(json);
        const auto& stored = (*json)["categorical"]["decoding"]["chain"];
        QCOMPARE(stored["source"].get<std::string>(), source == "english" ? source : std::string("c.json"));
        QCOMPARE(stored["length"].get<int>(), 77);
        QCOMPARE(stored["samples"].get<int>(), 33);
        auto reopened = core::project::projectFromJson(text, path);
        QVERIFY(reopened);
        QVERIFY(*reopened == *project);
    }
    // Without a chain the decoding object has no "chain" (older files stay as they were).
    project->categorical.decoding.chain = {};
    const auto json = core::io::parseJsonStrict(core::project::projectToJson(*project, path), "p.json");
    QVERIFY(json);
    QVERIFY(!(*json)["categorical"]["decoding"].contains("chain"));
}

void tst_ChainDecoding::badChainSettingsNameTheField() {
    const auto refused = [](const char* chain, const QString& start) {
        const std::string text = std::string(R"({"configs": [], "animated": -1, "chain": )") + chain + "}";
        const auto json = core::io::parseJsonStrict(text, "decoding");
        QVERIFY(json);
        auto settings = core::project::DecodingSettings::fromJson(*json);
        QVERIFY(!settings);
        QVERIFY2(QString::fromStdString(settings.error().toString()).startsWith(start),
                 qPrintable(QString::fromStdString(settings.error().toString())));
    };
    refused(R"({"source": "english", "length": 1})", "decoding.chain.length = 1:");
    refused(R"({"source": "english", "length": 5000})", "decoding.chain.length = 5000:");
    refused(R"({"source": "english", "samples": 1})", "decoding.chain.samples = 1:");
    refused(R"({"source": "english", "length": 4096, "samples": 100000})", "decoding.chain.samples = 100000:");
    refused(R"({"source": ""})", "decoding.chain.source = \"\":");
    refused(R"({"source": 3})", "decoding.chain.source = 3:");
    refused(R"([1])", "decoding.chain = an array:");
    // The sweep's N: powers of two below D, then D, within N·D ≤ 2²².
    QCOMPARE(core::project::chainSweepSteps(12), (std::vector<int>{1, 2, 4, 8, 12}));
    QCOMPARE(core::project::chainSweepSteps(2), (std::vector<int>{1, 2}));
    QCOMPARE(core::project::chainSweepSteps(4096).back(), 1024);
}

QTEST_APPLESS_MAIN(tst_ChainDecoding)
#include "tst_chain_decoding.moc"
