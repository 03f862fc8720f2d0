// SPDX-License-Identifier: MIT
// Tests of core/categorical/decoding: the decoding samplers of masked diffusion against closed
// forms on two-position tables (ancestral = (Σ_n Δβ_n²)·p1⊗p2 + (1 − Σ_n Δβ_n²)·p, ordered
// samplers with one token per step reproduce p, N = 1 gives p1⊗p2, greedy argmax by hand), a
// remasking step enumerated here from the table directly, the float32 Gumbel law by an
// independent integral, and Monte Carlo against exact.
#include <QTest>

#include <cmath>
#include <functional>
#include <map>
#include <tuple>
#include <numbers>
#include <vector>

#include "core/categorical/decoding.h"
#include "core/categorical/prior.h"
#include "core/model/categorical_oracles.h"
#include "core/project/decoding_runs.h"

using core::Vector;
using core::data::CategoricalTable;
using namespace core::categorical;

namespace {

// x1, x2 in {0, 1} (mask state 2), correlated: p1 = (0.5, 0.5), p2 = (0.55, 0.45).
CategoricalTable tableA() {
    auto t = core::data::makeCategoricalTable(2, 3, {0, 0, 0, 1, 1, 0, 1, 1}, {0.4, 0.1, 0.15, 0.35});
    if (!t) qFatal("%s", t.error().toString().c_str());
    return *t;
}

// p(0,0) = 0.36, p(0,1) = 0.34, p(1,1) = 0.30: p1 = (0.70, 0.30), p2 = (0.36, 0.64).
CategoricalTable tableGreedy() {
    auto t = core::data::makeCategoricalTable(2, 3, {0, 0, 0, 1, 1, 1}, {0.36, 0.34, 0.30});
    if (!t) qFatal("%s", t.error().toString().c_str());
    return *t;
}

Vector maskedPi(int k) { return *parsePrior("masked:" + std::to_string(k)); }

// The rows' x as a key, and p per key.
using Law = std::map<std::vector<int>, double>;
Law dataLaw(const CategoricalTable& t) {
    Law out;
    for (int r = 0; r < t.numRows(); ++r) out[{t.row(r)[0], t.row(r)[1]}] += t.probability[r];
    return out;
}
Law outputLaw(const DecodeResult& r) {
    Law out;
    for (const DecodeRow& row : r.distribution) out[row.x] = row.p;
    return out;
}
Law productOfMarginals(const CategoricalTable& t) {
    const Vector p1 = t.marginal(0, 0), p2 = t.marginal(0, 1);
    Law out;
    for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b) out[{a, b}] = p1[a] * p2[b];
    return out;
}
double maxDifference(const Law& a, const Law& b) {
    double worst = 0.0;
    for (const auto& [x, v] : a) worst = std::max(worst, std::abs(v - (b.count(x) ? b.at(x) : 0.0)));
    for (const auto& [x, v] : b) worst = std::max(worst, std::abs(v - (a.count(x) ? a.at(x) : 0.0)));
    return worst;
}

DecodeResult run(const CategoricalTable& t, const core::schedule::BetaCurve& curve, DecodingSampler s, int n,
                 int64_t samples = 0, int threads = 1, uint64_t seed = 7) {
    const core::model::TableOracle oracle(t, maskedPi(t.numClasses - 1));
    DecodeOptions o;
    o.sampler = s;
    o.numSteps = n;
    o.samples = samples;
    o.seed = seed;
    o.parallel.numThreads = threads;
    auto r = decode(t, oracle, maskedPi(t.numClasses - 1), curve, o);
    if (!r) qFatal("%s", r.error().toString().c_str());
    return *r;
}

DecodingSampler sampler(DecodeOrder order, DecodeValues values = DecodeValues::Sample, double tau = 1.0) {
    DecodingSampler s;
    s.order = order;
    s.values = values;
    s.temperature = tau;
    return s;
}

double cosineBeta(double t) {
    auto f = [](double u) {
        const double c = std::cos((u + 0.008) / 1.008 * std::numbers::pi / 2.0);
        return c * c;
    };
    return t >= 1.0 ? 1.0 : 1.0 - f(t) / f(0.0);
}

}  // namespace

class tst_Decoding : public QObject {
    Q_OBJECT
private slots:
    void ancestralMixesProductAndJoint_data() {
        QTest::addColumn<bool>("cosine");
        QTest::addColumn<int>("steps");
        for (int n : {1, 2, 3, 5, 16}) {
            QTest::addRow("linear N=%d", n) << false << n;
            QTest::addRow("cosine N=%d", n) << true << n;
        }
    }
    // Both positions unmask at the same step with probability w = Σ_n (β_n − β_{n−1})², and then
    // from p1⊗p2; otherwise one conditions on the other: output = w p1⊗p2 + (1 − w) p.
    void ancestralMixesProductAndJoint() {
        QFETCH(bool, cosine);
        QFETCH(int, steps);
        const CategoricalTable t = tableA();
        double w = 0.0;
        for (int n = 1; n <= steps; ++n) {
            const double b1 = cosine ? cosineBeta(double(n) / steps) : double(n) / steps;
            const double b0 = cosine ? (n == 1 ? 0.0 : cosineBeta(double(n - 1) / steps)) : double(n - 1) / steps;
            w += (b1 - b0) * (b1 - b0);
        }
        const DecodeResult r =
            run(t, cosine ? core::schedule::cosineCurve() : core::schedule::linearCurve(),
                sampler(DecodeOrder::Ancestral), steps);
        QVERIFY(r.exact);
        Law expected;
        const Law p = dataLaw(t), q = productOfMarginals(t);
        for (const auto& [x, v] : p) expected[x] = w * q.at(x) + (1.0 - w) * v;
        QVERIFY2(maxDifference(outputLaw(r), expected) < 1e-12, qPrintable(QString::number(maxDifference(outputLaw(r), expected))));
        // Expected tokens per step D·Δβ, step N first.
        QCOMPARE(int(r.tokensPerStep.size()), steps);
        QVERIFY(std::abs(r.tokensPerStep.back() - 2.0 * (cosine ? cosineBeta(1.0 / steps) : 1.0 / steps)) < 1e-12);
    }

    void orderedSamplersReproduceTheData_data() {
        QTest::addColumn<int>("order");
        QTest::addRow("random") << int(DecodeOrder::Random);
        QTest::addRow("confidence") << int(DecodeOrder::Confidence);
        QTest::addRow("margin") << int(DecodeOrder::Margin);
        QTest::addRow("entropy") << int(DecodeOrder::Entropy);
    }
    // One token per step with sampled values: the chain rule in some order, so exactly p.
    void orderedSamplersReproduceTheData() {
        QFETCH(int, order);
        for (const CategoricalTable& t : {tableA(), tableGreedy()}) {
            const DecodeResult r = run(t, core::schedule::linearCurve(), sampler(DecodeOrder(order)), 2);
            QCOMPARE(r.tokensPerStep, (std::vector<double>{1.0, 1.0}));
            QVERIFY(r.klDataOutput.value.has_value());
            QVERIFY2(*r.klDataOutput.value < 1e-12, qPrintable(QString::number(*r.klDataOutput.value)));
            QVERIFY(maxDifference(outputLaw(r), dataLaw(t)) < 1e-12);
            QVERIFY(*r.totalVariation.value < 1e-12);
        }
    }

    // N = 1: both from the marginals, KL(data ‖ output) = I(X1; X2).
    void oneStepGivesTheProductOfMarginals() {
        const CategoricalTable t = tableA();
        const Law p = dataLaw(t), q = productOfMarginals(t);
        double mutual = 0.0, entropy = 0.0, reverse = 0.0;
        for (const auto& [x, v] : p) {
            mutual += v * std::log(v / q.at(x));
            reverse += q.at(x) * std::log(q.at(x) / v);
            entropy -= q.at(x) * std::log(q.at(x));
        }
        for (auto order : {DecodeOrder::Ancestral, DecodeOrder::Random, DecodeOrder::Confidence}) {
            const DecodeResult r = run(t, core::schedule::cosineCurve(), sampler(order), 1);
            QVERIFY(std::abs(*r.klDataOutput.value - mutual) < 1e-12);
            QVERIFY(std::abs(*r.klOutputData.value - reverse) < 1e-12);
            QVERIFY(std::abs(*r.entropy.value - entropy) < 1e-12);
            QCOMPARE(r.tokensPerStep.size(), size_t(1));
        }
        // A row the product puts mass on and the data do not: KL(output ‖ data) is infinite.
        const DecodeResult g = run(tableGreedy(), core::schedule::linearCurve(), sampler(DecodeOrder::Ancestral), 1);
        QVERIFY(!g.klOutputData.value.has_value());
        QVERIFY(g.klDataOutput.value.has_value());
    }

    // Greedy by hand on tableGreedy: confidence 0.70 (x1) > 0.64 (x2), margin 0.40 > 0.28,
    // entropy H(0.7) < H(0.36): x1 = 0 first; then p(x2 | x1 = 0) = (0.36, 0.34)/0.7 → 0.
    // N = 1 argmax takes each marginal's argmax instead: (0, 1).
    void argmaxIsAPointMass() {
        const CategoricalTable t = tableGreedy();
        for (auto order : {DecodeOrder::Confidence, DecodeOrder::Margin, DecodeOrder::Entropy}) {
            const DecodeResult r = run(t, core::schedule::linearCurve(), sampler(order, DecodeValues::Argmax), 2);
            QCOMPARE(r.distribution.size(), size_t(1));
            QCOMPARE(r.distribution[0].x, (std::vector<int>{0, 0}));
            QCOMPARE(*r.entropy.value, 0.0);
            QVERIFY(std::abs(r.rowProbability[0] - 1.0) < 1e-15);
        }
        const DecodeResult one = run(t, core::schedule::linearCurve(), sampler(DecodeOrder::Ancestral, DecodeValues::Argmax), 1);
        QCOMPARE(one.distribution.size(), size_t(1));
        QCOMPARE(one.distribution[0].x, (std::vector<int>{0, 1}));
    }

    // Monte Carlo within 4 standard errors of exact, and the same for 1 and 2 threads.
    void monteCarloAgreesWithExact() {
        const CategoricalTable t = tableA();
        for (auto s : {sampler(DecodeOrder::Ancestral), sampler(DecodeOrder::Entropy, DecodeValues::Temperature, 0.7)}) {
            const DecodeResult exact = run(t, core::schedule::cosineCurve(), s, 3);
            QCOMPARE(outputLaw(run(t, core::schedule::cosineCurve(), s, 3, 0, 2)), outputLaw(exact));
            const DecodeResult mc = run(t, core::schedule::cosineCurve(), s, 3, 40000, 1);
            const DecodeResult mc2 = run(t, core::schedule::cosineCurve(), s, 3, 40000, 2);
            QVERIFY(!mc.exact);
            const std::pair<const DecodeMeasure*, const DecodeMeasure*> pairs[] = {
                {&exact.entropy, &mc.entropy}, {&exact.klDataOutput, &mc.klDataOutput},
                {&exact.klOutputData, &mc.klOutputData}, {&exact.totalVariation, &mc.totalVariation},
                {&exact.positionEntropy, &mc.positionEntropy}};
            for (const auto& [e, m] : pairs) {
                QVERIFY(m->standardError > 0.0);
                QVERIFY2(std::abs(*e->value - *m->value) < 4.0 * m->standardError,
                         qPrintable(QString("%1 vs %2 ± %3").arg(*e->value).arg(*m->value).arg(m->standardError)));
            }
            QCOMPARE(*mc.entropy.value, *mc2.entropy.value);
            QCOMPARE(mc.entropy.standardError, mc2.entropy.standardError);
            QCOMPARE(*mc.totalVariation.value, *mc2.totalVariation.value);
            QCOMPARE(mc.rowProbability, mc2.rowProbability);
        }
    }

    void remaskCapZeroIsAncestral() {
        const CategoricalTable t = tableA();
        DecodingSampler capped = sampler(DecodeOrder::Ancestral);
        capped.remask = DecodeRemask::Cap;
        capped.eta = 0.0;
        for (int n : {2, 4}) {
            const DecodeResult a = run(t, core::schedule::cosineCurve(), sampler(DecodeOrder::Ancestral), n);
            const DecodeResult b = run(t, core::schedule::cosineCurve(), capped, n);
            QCOMPARE(outputLaw(a), outputLaw(b));
        }
    }

    // ReMDM rescale:0.5 on a linear schedule, N = 3, against every path enumerated here with
    // the posterior of the table computed directly from its rows.
    void remaskAgainstEnumeration() {
        const CategoricalTable t = tableA();
        const int n = 3;
        const double eta = 0.5;
        // F_d(i | x): the rows consistent with the unmasked positions of x, weighted by p.
        auto posterior = [&](const std::vector<int>& x, int d) {
            std::vector<double> f(2, 0.0);
            for (int r = 0; r < t.numRows(); ++r) {
                bool ok = true;
                for (int e = 0; e < 2; ++e) ok = ok && (x[e] == 2 || x[e] == t.row(r)[e]);
                if (ok) f[t.row(r)[d]] += t.probability[r];
            }
            const double s = f[0] + f[1];
            return std::vector<double>{f[0] / s, f[1] / s};
        };
        Law states{{{2, 2}, 1.0}};
        for (int step = n; step >= 1; --step) {
            const double alphaT = 1.0 - double(step) / n, alphaS = 1.0 - double(step - 1) / n;
            const double sigmaMax = alphaT <= 0.0 ? 1.0 : std::min(1.0, (1.0 - alphaS) / alphaT);
            const double sigma = step == 1 ? 0.0 : eta * sigmaMax;
            const double unmask = step == 1 ? 1.0 : (alphaS - (1.0 - sigma) * alphaT) / (1.0 - alphaT);
            Law next;
            for (const auto& [x, p] : states) {
                std::vector<std::vector<std::pair<int, double>>> options(2);
                for (int d = 0; d < 2; ++d) {
                    if (x[d] == 2) {
                        const auto f = posterior(x, d);
                        options[d] = {{2, 1.0 - unmask}, {0, unmask * f[0]}, {1, unmask * f[1]}};
                    } else {
                        options[d] = {{x[d], 1.0 - sigma}, {2, sigma}};
                    }
                }
                for (const auto& [a, pa] : options[0])
                    for (const auto& [b, pb] : options[1])
                        if (pa * pb > 0.0) next[{a, b}] += p * pa * pb;
            }
            states = next;
        }
        DecodingSampler s = sampler(DecodeOrder::Ancestral);
        s.remask = DecodeRemask::Rescale;
        s.eta = eta;
        const DecodeResult r = run(t, core::schedule::linearCurve(), s, n);
        QVERIFY2(maxDifference(outputLaw(r), states) < 1e-12, qPrintable(QString::number(maxDifference(outputLaw(r), states))));
        // Remasking changes the output here (not the ancestral mixture).
        const DecodeResult plain = run(t, core::schedule::linearCurve(), sampler(DecodeOrder::Ancestral), n);
        QVERIFY(maxDifference(outputLaw(r), outputLaw(plain)) > 1e-3);
        // Monte Carlo agrees with it; confidence remasking exactly (ψ carried in the state) agrees with
        // its Monte Carlo.
        const DecodeResult mc = run(t, core::schedule::linearCurve(), s, n, 40000, 2);
        QVERIFY(std::abs(*mc.entropy.value - *r.entropy.value) < 4.0 * mc.entropy.standardError);
        DecodingSampler conf = sampler(DecodeOrder::Ancestral);
        conf.remask = DecodeRemask::Confidence;
        const DecodeResult confExact = run(t, core::schedule::linearCurve(), conf, n);
        const DecodeResult confMc = run(t, core::schedule::linearCurve(), conf, n, 40000, 2);
        QVERIFY(std::abs(*confMc.entropy.value - *confExact.entropy.value) < 4.0 * confMc.entropy.standardError);
        QVERIFY(std::abs(*confMc.totalVariation.value - *confExact.totalVariation.value) <
                4.0 * confMc.totalVariation.standardError);
        for (int row = 0; row < t.numRows(); ++row) {
            const double q = confExact.rowProbability[row];
            QVERIFY(std::abs(confMc.rowProbability[row] - q) < 4.0 * std::sqrt(q * (1.0 - q) / 40000));
        }
        // It remasks: not the ancestral output.
        QVERIFY(maxDifference(outputLaw(confExact), outputLaw(plain)) > 1e-3);
    }

    // The float32 law against an independent trapezoid integral of the clamped-Gumbel model.
    // Confidence remasking by hand on tableA, N = 3: a state is (x, ψ); a decoded position ℓ is
    // remasked with σ^max·exp(−ψ_ℓ)/Σ exp(−ψ) over the decoded ones, a masked one unmasks with
    // (α_s − α_t)/(1 − α_t) (η = 0 there, as ReMDM's code has it) and takes ψ = F of its value.
    void confRemaskAgainstEnumeration() {
        const CategoricalTable t = tableA();
        const int n = 3;
        auto posterior = [&](const std::vector<int>& x, int d) {
            std::vector<double> f(2, 0.0);
            for (int r = 0; r < t.numRows(); ++r) {
                bool ok = true;
                for (int e = 0; e < 2; ++e) ok = ok && (x[e] == 2 || x[e] == t.row(r)[e]);
                if (ok) f[t.row(r)[d]] += t.probability[r];
            }
            return std::vector<double>{f[0] / (f[0] + f[1]), f[1] / (f[0] + f[1])};
        };
        using State = std::pair<std::vector<int>, std::vector<double>>;  // x, ψ
        std::map<State, double> states{{{{2, 2}, {0.0, 0.0}}, 1.0}};
        for (int step = n; step >= 1; --step) {
            const double alphaT = 1.0 - double(step) / n, alphaS = 1.0 - double(step - 1) / n;
            const double sigmaMax = alphaT <= 0.0 ? 1.0 : std::min(1.0, (1.0 - alphaS) / alphaT);
            const double unmask = step == 1 ? 1.0 : (alphaS - alphaT) / (1.0 - alphaT);
            std::map<State, double> next;
            for (const auto& [state, p] : states) {
                const auto& [x, psi] = state;
                double sum = 0.0;
                for (int d = 0; d < 2; ++d) sum += x[d] != 2 ? std::exp(-psi[d]) : 0.0;
                std::vector<std::vector<std::tuple<int, double, double>>> options(2);
                for (int d = 0; d < 2; ++d) {
                    if (x[d] == 2) {
                        const auto f = posterior(x, d);
                        options[d] = {{2, 0.0, 1.0 - unmask}, {0, f[0], unmask * f[0]}, {1, f[1], unmask * f[1]}};
                    } else {
                        const double s = sigmaMax * std::exp(-psi[d]) / sum;
                        options[d] = {{x[d], psi[d], 1.0 - s}, {2, 0.0, s}};
                    }
                }
                for (const auto& [a, psiA, pa] : options[0])
                    for (const auto& [b, psiB, pb] : options[1])
                        if (pa * pb > 0.0) next[{{a, b}, {psiA, psiB}}] += p * pa * pb;
            }
            states = next;
        }
        Law expected;
        for (const auto& [state, p] : states) expected[state.first] += p;
        DecodingSampler conf = sampler(DecodeOrder::Ancestral);
        conf.remask = DecodeRemask::Confidence;
        const DecodeResult r = run(t, core::schedule::linearCurve(), conf, n);
        QVERIFY2(maxDifference(outputLaw(r), expected) < 1e-12,
                 qPrintable(QString::number(maxDifference(outputLaw(r), expected))));
    }

    void float32GumbelLaw() {
        DecodingSampler s = sampler(DecodeOrder::Ancestral, DecodeValues::Sample);
        s.gumbel = GumbelPrecision::Float32;
        const std::vector<double> mild{0.6, 0.3, 0.1};
        const auto law = valueLaw(mild, s);
        for (int i = 0; i < 3; ++i) QVERIFY(std::abs(law[i] - mild[i]) < 1e-6);
        // Gap 17 between the log-weights: P(class 1) = ∫ f(g) F(g − 17) over g < g_max plus the
        // atom at g_max.
        const double gap = 17.0;
        const std::vector<double> far{1.0 / (1.0 + std::exp(-gap)), std::exp(-gap) / (1.0 + std::exp(-gap))};
        const double gmax = -std::log(-std::log(1.0 - std::ldexp(1.0, -24)));
        auto F = [&](double x) { return x >= gmax ? 1.0 : std::exp(-std::exp(-x)); };
        const int m = 400000;
        const double lo = -8.0, h = (gmax - lo) / m;
        double integral = 0.0;
        for (int i = 0; i <= m; ++i) {
            const double g = lo + i * h;
            integral += (i == 0 || i == m ? 0.5 : 1.0) * h * std::exp(-g - std::exp(-g)) * F(g - gap);
        }
        const double atom = 1.0 - std::exp(-std::exp(-gmax));
        const double expected = integral + atom * F(gmax - gap);
        const auto law32 = valueLaw(far, s);
        QVERIFY2(std::abs(law32[1] - expected) < 1e-3 * expected,
                 qPrintable(QString("%1 vs %2").arg(law32[1]).arg(expected)));
        QVERIFY(law32[1] < 0.7 * far[1]);  // the truncation shows (about 0.58 of e^{−17})
        // Gap 25: no float32 draw reaches it; float64 keeps e^{−25}.
        const std::vector<double> farther{1.0, std::exp(-25.0)};
        QCOMPARE(valueLaw(farther, s)[1], 0.0);
        s.gumbel = GumbelPrecision::Float64;
        QVERIFY(valueLaw(farther, s)[1] > 1e-12);
    }

    // Low temperature: x2's ratio 10^5 at τ = 0.45 is a log-weight gap of 25.6, so float32 never
    // draws x2 = 1 (rows (·, 1) get 0) while float64 gives them e^{−25.6}; Monte Carlo in float32
    // matches the exact float32 law.
    void float32TruncationInDecoding() {
        const double z = 1.0 + 1e-5;
        auto t = core::data::makeCategoricalTable(2, 3, {0, 0, 0, 1, 1, 0, 1, 1},
                                                  {0.4 / z, 0.4e-5 / z, 0.6 / z, 0.6e-5 / z});
        QVERIFY(t.ok());
        DecodingSampler s = sampler(DecodeOrder::Ancestral, DecodeValues::Temperature, 0.45);
        s.gumbel = GumbelPrecision::Float32;
        const DecodeResult exact32 = run(*t, core::schedule::linearCurve(), s, 1);
        QCOMPARE(exact32.rowProbability[1], 0.0);
        QCOMPARE(exact32.rowProbability[3], 0.0);
        QVERIFY(!exact32.klDataOutput.value.has_value());
        const DecodeResult mc32 = run(*t, core::schedule::linearCurve(), s, 1, 20000, 2);
        QCOMPARE(mc32.rowProbability[1], 0.0);
        QCOMPARE(mc32.rowProbability[3], 0.0);
        const double q0 = exact32.rowProbability[0];
        QVERIFY(q0 > 0.2 && q0 < 0.4);
        QVERIFY(std::abs(mc32.rowProbability[0] - q0) < 4.0 * std::sqrt(q0 * (1.0 - q0) / 20000));
        QVERIFY(std::abs(*mc32.entropy.value - *exact32.entropy.value) < 4.0 * mc32.entropy.standardError);
        s.gumbel = GumbelPrecision::Float64;
        const DecodeResult exact64 = run(*t, core::schedule::linearCurve(), s, 1);
        QVERIFY(exact64.rowProbability[1] > 0.0);
        QVERIFY(exact64.klDataOutput.value.has_value());
    }

    void tokensPerStep() {
        QCOMPARE(orderedTokensPerStep(core::schedule::linearCurve(), 2, 2), (std::vector<int>{1, 1}));
        // round(2.5) = 2 (half to even): step 2 unmasks 2, step 1 the other 3.
        QCOMPARE(orderedTokensPerStep(core::schedule::linearCurve(), 2, 5), (std::vector<int>{2, 3}));
        // round(2·(1 − n/4)) = 0, 0, 1, 2, 2 for n = 4..0 (round(0.5) = 0, round(1.5) = 2).
        QCOMPARE(orderedTokensPerStep(core::schedule::linearCurve(), 4, 2), (std::vector<int>{0, 1, 1, 0}));
    }

    void trajectoriesRecordEveryStep() {
        const CategoricalTable t = tableA();
        const core::model::TableOracle oracle(t, maskedPi(2));
        DecodeOptions o;
        o.sampler = sampler(DecodeOrder::Confidence);
        o.numSteps = 2;
        o.trajectories = 3;
        auto r = decode(t, oracle, maskedPi(2), core::schedule::linearCurve(), o);
        QVERIFY(r.ok());
        QCOMPARE(r->trajectories.size(), size_t(3));
        for (const auto& tr : r->trajectories) {
            QCOMPARE(tr.states.size(), size_t(6));
            QCOMPARE(tr.states[0], 2);
            QCOMPARE(tr.states[1], 2);
            // One position after step 2, both after step 1.
            QCOMPARE(int(tr.states[2] != 2) + int(tr.states[3] != 2), 1);
            QVERIFY(tr.states[4] != 2 && tr.states[5] != 2);
        }
    }

    // A Monte Carlo run keeps its first chains whole as the trajectories: the same chains, step
    // by step, as a run that only animates (which runs them one by one), on any thread count,
    // and more trajectories than chains continue with the next keys.
    void monteCarloKeepsItsChainsAsTrajectories() {
        const CategoricalTable t = tableA();
        const core::model::TableOracle oracle(t, maskedPi(2));
        DecodeOptions animate;
        animate.sampler = sampler(DecodeOrder::Ancestral);
        animate.numSteps = 3;
        animate.trajectories = 7;
        auto alone = decode(t, oracle, maskedPi(2), core::schedule::linearCurve(), animate);
        QVERIFY(alone.ok());
        QCOMPARE(alone->trajectories.size(), size_t(7 * t.numConditions()));
        for (const int threads : {1, 2}) {
            for (const int trajectories : {3, 7}) {
                DecodeOptions o = animate;
                o.samples = 5;
                o.trajectories = trajectories;
                o.parallel.numThreads = threads;
                auto r = decode(t, oracle, maskedPi(2), core::schedule::linearCurve(), o);
                QVERIFY(r.ok());
                QCOMPARE(r->trajectories.size(), size_t(trajectories * t.numConditions()));
                for (size_t i = 0; i < r->trajectories.size(); ++i) {
                    QCOMPARE(r->trajectories[i].condition, alone->trajectories[i].condition);
                    QCOMPARE(r->trajectories[i].states, alone->trajectories[i].states);
                }
            }
        }
    }

    void errorsNameFieldAndValue() {
        const CategoricalTable t = tableA();
        const core::model::TableOracle oracle(t, maskedPi(2));
        DecodeOptions o;
        o.numSteps = 2;
        // π not absorbing.
        const Vector uniform = Vector::Constant(3, 1.0 / 3.0);
        const core::model::TableOracle plain(t, uniform);
        auto notMasked = decode(t, plain, uniform, core::schedule::linearCurve(), o);
        QVERIFY(!notMasked.ok());
        QCOMPARE(notMasked.error().field, std::string("pi"));
        // Remasking with an ordered sampler.
        o.sampler = sampler(DecodeOrder::Confidence);
        o.sampler.remask = DecodeRemask::Cap;
        o.sampler.eta = 0.1;
        auto remask = decode(t, oracle, maskedPi(2), core::schedule::linearCurve(), o);
        QVERIFY(!remask.ok());
        QCOMPARE(remask.error().field, std::string("--remask"));
        QCOMPARE(remask.error().value, std::string("cap:0.1"));
        // Data on the mask class.
        auto onMask = core::data::makeCategoricalTable(2, 3, {0, 2, 1, 1}, {0.5, 0.5});
        QVERIFY(onMask.ok());
        o.sampler = {};
        auto bad = decode(*onMask, oracle, maskedPi(2), core::schedule::linearCurve(), o);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().field, std::string("table"));
        // (K + 1)^D = 3^16 > 2^24 without --samples.
        auto wide = core::data::makeCategoricalTable(16, 3, std::vector<int>(16, 0), {1.0});
        QVERIFY(wide.ok());
        const core::model::TableOracle wideOracle(*wide, maskedPi(2));
        o.sampler = {};
        auto tooMany = decode(*wide, wideOracle, maskedPi(2), core::schedule::linearCurve(), o);
        QVERIFY(!tooMany.ok());
        QCOMPARE(tooMany.error().field, std::string("D"));
        QCOMPARE(tooMany.error().value, std::string("16"));
        QVERIFY(tooMany.error().message.find("16777216") != std::string::npos);
        o.samples = 10;
        QVERIFY(decode(*wide, wideOracle, maskedPi(2), core::schedule::linearCurve(), o).ok());
        o.samples = 0;
        // Parsers.
        auto order = parseDecodeOrder("sideways");
        QVERIFY(!order.ok());
        QCOMPARE(order.error().field, std::string("--order"));
        QCOMPARE(order.error().value, std::string("sideways"));
        DecodingSampler s;
        auto tau = parseDecodeValues("temperature:0", s);
        QVERIFY(!tau.ok());
        QCOMPARE(tau.error().field, std::string("--values"));
        auto eta = parseDecodeRemask("cap:1.5", s);
        QVERIFY(!eta.ok());
        QCOMPARE(eta.error().value, std::string("cap:1.5"));
    }

    // LLaDA's get_num_transfer_tokens: ⌊L/N⌋ a step, the remainder on the first steps, per
    // block; 37 over 8 steps is 5, 5, 5, 5, 5, 4, 4, 4.
    void lladaTokensPerStep() {
        DecodingSampler s = sampler(DecodeOrder::LowConfidence);
        s.count = DecodeCount::Llada;
        QCOMPARE(samplerTokensPerStep(s, core::schedule::linearCurve(), 8, 37),
                 (std::vector<int>{5, 5, 5, 5, 5, 4, 4, 4}));
        QCOMPARE(samplerTokensPerStep(s, core::schedule::linearCurve(), 4, 3), (std::vector<int>{1, 1, 1, 0}));
        s.blocks = 2;  // blocks of 3 positions, 2 steps each
        QCOMPARE(samplerTokensPerStep(s, core::schedule::linearCurve(), 4, 6), (std::vector<int>{2, 1, 2, 1}));
        s.count = DecodeCount::Schedule;  // the schedule's k_n within each block
        QCOMPARE(samplerTokensPerStep(s, core::schedule::linearCurve(), 4, 10),
                 (std::vector<int>{2, 3, 2, 3}));
        QVERIFY(checkDecodeBlocks(s, 4, 10).ok());
        const core::Status uneven = checkDecodeBlocks(s, 3, 10);
        QVERIFY(!uneven.ok());
        QCOMPARE(uneven.error().field, std::string("--blocks"));
        QCOMPARE(uneven.error().value, std::string("2"));
        QVERIFY(uneven.error().message.find("D = 10") != std::string::npos &&
                uneven.error().message.find("N = 3") != std::string::npos);
    }

    // Closed forms of the presets: llada:random one token a step is the chain rule (the data);
    // every preset at N = 1 draws each position from its marginal (the product); τ = 0 at N = 2
    // on tableGreedy: low-confidence draws argmaxes 0 (0.70) and 1 (0.64), keeps x1 = 0, then
    // x2's argmax given x1 = 0 is 0: one point mass (0, 0).
    void lladaPresetsClosedForms() {
        const CategoricalTable t = tableA();
        for (const char* name : {"llada:low_confidence", "llada:random"}) {
            DecodingSampler s;
            QVERIFY(applyDecodePreset(name, 1.0, s).ok());
            QCOMPARE(int(s.count), int(DecodeCount::Llada));
            const Law one = outputLaw(run(t, core::schedule::linearCurve(), s, 1));
            QVERIFY2(maxDifference(one, productOfMarginals(t)) < 1e-12, name);
        }
        DecodingSampler random;
        QVERIFY(applyDecodePreset("llada:random", 1.0, random).ok());
        QVERIFY(maxDifference(outputLaw(run(t, core::schedule::linearCurve(), random, 2)), dataLaw(t)) < 1e-12);
        DecodingSampler greedy;
        QVERIFY(applyDecodePreset("llada:low_confidence", 0.0, greedy).ok());
        QCOMPARE(int(greedy.values), int(DecodeValues::Argmax));
        const DecodeResult point = run(tableGreedy(), core::schedule::linearCurve(), greedy, 2);
        QCOMPARE(point.distribution.size(), size_t(1));
        QCOMPARE(point.distribution[0].x, (std::vector<int>{0, 0}));
    }

    // Low-confidence ranks after the draw, so its law differs from confidence's (which ranks
    // before): at N = 2 on tableA with sampled values, by brute force over the first step's
    // joint draw (v1, v2) ~ p1 × p2: the position whose drawn value has the larger marginal
    // probability is kept (ties to x1), then the other is drawn from its conditional.
    void lowConfidenceAgainstBruteForce() {
        const CategoricalTable t = tableA();
        const Law p = dataLaw(t);
        const Vector p1 = t.marginal(0, 0), p2 = t.marginal(0, 1);
        Law expected;
        for (int v1 = 0; v1 < 2; ++v1) {
            for (int v2 = 0; v2 < 2; ++v2) {
                const double w = p1[v1] * p2[v2];
                if (p1[v1] >= p2[v2]) {
                    for (int b = 0; b < 2; ++b) expected[{v1, b}] += w * p.at({v1, b}) / p1[v1];
                } else {
                    for (int a = 0; a < 2; ++a) expected[{a, v2}] += w * p.at({a, v2}) / p2[v2];
                }
            }
        }
        DecodingSampler s;
        QVERIFY(applyDecodePreset("llada:low_confidence", 1.0, s).ok());
        const DecodeResult exact = run(t, core::schedule::linearCurve(), s, 2);
        QVERIFY(maxDifference(outputLaw(exact), expected) < 1e-12);
        // Monte Carlo within 4 standard errors, the same for 1 and 2 threads.
        const DecodeResult mc = run(t, core::schedule::linearCurve(), s, 2, 40000, 1);
        const DecodeResult mc2 = run(t, core::schedule::linearCurve(), s, 2, 40000, 2);
        QVERIFY2(std::abs(*mc.entropy.value - *exact.entropy.value) < 4.0 * mc.entropy.standardError,
                 qPrintable(QString("%1 vs %2").arg(*mc.entropy.value).arg(*exact.entropy.value)));
        QCOMPARE(mc.rowProbability, mc2.rowProbability);
    }

    // Dream's count on its float32 grid linspace(1, 1e-3, N + 1): int(M·(1 − s/t)) of the M still
    // masked, the rest at the last step; 37 over 8 steps is 4, 4, 4, 4, 5, 5, 5, 6 (Dream's own
    // loop, run with torch, gives the same).
    void dreamTokensPerStep() {
        DecodingSampler s = sampler(DecodeOrder::LowConfidence);
        s.count = DecodeCount::Dream;
        QCOMPARE(samplerTokensPerStep(s, core::schedule::linearCurve(), 8, 37),
                 (std::vector<int>{4, 4, 4, 4, 5, 5, 5, 6}));
        QCOMPARE(samplerTokensPerStep(s, core::schedule::linearCurve(), 4, 5), (std::vector<int>{1, 1, 1, 2}));
        const std::vector<float> grid = dreamTimes(2);
        QCOMPARE(grid, (std::vector<float>{1.0f, 0.5005f, 1e-3f}));
    }

    // Dream's presets: origin at N = 1 and any of them with one step draw every position from
    // its marginal; origin is the ancestral sampler on Dream's times (each masked token unmasks
    // with 1 − s/t), so at N = 2 on tableA it mixes product and joint with w = P(both at once)
    // = (1 − s/t)² + (s/t)², s/t = 0.5005 in float32. Dream's presets take no blocks.
    void dreamPresetsClosedForms() {
        const CategoricalTable t = tableA();
        for (const char* name : {"dream:origin", "dream:maskgit_plus", "dream:topk_margin", "dream:entropy"}) {
            DecodingSampler s;
            QVERIFY(applyDecodePreset(name, 1.0, s).ok());
            QVERIFY2(maxDifference(outputLaw(run(t, core::schedule::linearCurve(), s, 1)), productOfMarginals(t)) < 1e-12,
                     name);
            DecodingSampler blocked;
            blocked.blocks = 2;
            const core::Status refused = applyDecodePreset(name, 1.0, blocked);
            QVERIFY(!refused.ok());
            QCOMPARE(refused.error().field, std::string("--blocks"));
        }
        DecodingSampler origin;
        QVERIFY(applyDecodePreset("dream:origin", 1.0, origin).ok());
        const double ratio = static_cast<double>(0.5005f / 1.0f);
        const double a = static_cast<double>(1.0f - 0.5005f);
        QCOMPARE(a, 1.0 - ratio);
        const double w = a * a + (1.0 - a) * (1.0 - a);
        const Law p = dataLaw(t), q = productOfMarginals(t);
        Law expected;
        for (const auto& [x, v] : p) expected[x] = w * q.at(x) + (1.0 - w) * v;
        // The cosine schedule is ignored: Dream's times are its own.
        QVERIFY(maxDifference(outputLaw(run(t, core::schedule::cosineCurve(), origin, 2)), expected) < 1e-12);
        DecodingSampler wrongTimes = sampler(DecodeOrder::Random);
        wrongTimes.times = DecodeTimes::Dream;
        QVERIFY(!validateDecodingSampler(wrongTimes).ok());
        DecodingSampler wrongScores = sampler(DecodeOrder::Ancestral);
        wrongScores.temperedScores = true;
        const core::Status scores = validateDecodingSampler(wrongScores);
        QVERIFY(!scores.ok());
        QCOMPARE(scores.error().field, std::string("--scores"));
        auto spec = core::project::parseSamplerSpec("preset=dream:topk_margin;temperature=0.5");
        QVERIFY(spec.ok());
        QCOMPARE(core::project::samplerSpec(*spec),
                 std::string("order=margin;values=temperature:0.5;remask=none;gumbel=float64;per-step=dream;"
                             "scores=tempered"));
        QVERIFY(*core::project::parseSamplerSpec(core::project::samplerSpec(*spec)) == *spec);
    }

    // MDLM at N = 1 by hand on tableGreedy (no ties in any argmax): t = 1, s = 1 − float32((1 − 1e-5)/1), each position
    // unmasks with a = (t − s)/t; a position left masked takes F's argmax given the other
    // (both left: each its marginal's argmax). The masks' argmax fill counts with the last step.
    void mdlmAgainstBruteForce() {
        const CategoricalTable t = tableGreedy();
        const Law p = dataLaw(t);
        const Vector p1 = t.marginal(0, 0), p2 = t.marginal(0, 1);
        const float s = 1.0f - static_cast<float>(1.0 - 1e-5);
        const double gap = static_cast<double>(1.0f - s);
        const double a = gap / (gap + s);
        QCOMPARE(gridUnmaskProbability(DecodeTimes::Mdlm, mdlmTimes(1), 0), a);
        const auto argmaxGiven = [&](int d, int other) {  // argmax_v p(x_d = v | x_other)
            std::vector<double> w(2, 0.0);
            for (const auto& [x, v] : p) {
                if (x[1 - d] == other) w[x[d]] += v;
            }
            return w[1] > w[0] ? 1 : 0;
        };
        const int m1 = p1[1] > p1[0] ? 1 : 0, m2 = p2[1] > p2[0] ? 1 : 0;
        Law expected;
        for (int u = 0; u < 2; ++u) {
            for (int v = 0; v < 2; ++v) {
                expected[{u, v}] += a * a * p1[u] * p2[v];
            }
            expected[{u, argmaxGiven(1, u)}] += a * (1.0 - a) * p1[u];
            expected[{argmaxGiven(0, u), u}] += (1.0 - a) * a * p2[u];
        }
        expected[{m1, m2}] += (1.0 - a) * (1.0 - a);
        DecodingSampler mdlm;
        QVERIFY(applyDecodePreset("mdlm", 1.0, mdlm).ok());
        const DecodeResult r = run(t, core::schedule::cosineCurve(), mdlm, 1);
        QVERIFY(maxDifference(outputLaw(r), expected) < 1e-12);
        QCOMPARE(r.tokensPerStep, (std::vector<double>{2.0}));
        // Monte Carlo keeps the fill too (its last trajectory state is the output).
        const DecodeResult mc = run(t, core::schedule::cosineCurve(), mdlm, 3, 40000, 2);
        const DecodeResult exact3 = run(t, core::schedule::cosineCurve(), mdlm, 3);
        QVERIFY(std::abs(*mc.entropy.value - *exact3.entropy.value) < 4.0 * mc.entropy.standardError);
        DecodingSampler warm;
        const core::Status refused = applyDecodePreset("mdlm", 0.5, warm);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().field, std::string("--temperature"));
        QCOMPARE(refused.error().value, std::string("0.5"));
    }

    // ReMDM, Fast-dLLM and the EB-sampler in closed form. remdm:cap:0 is MDLM (their weights
    // differ only by float32 rounding: (t − s)/t against (α_s − α_t)/(1 − α_t), 1e-7 at most);
    // fast-dllm:τ with τ > 1 keeps only the most confident token, LLaDA's low-confidence one
    // token a step; eb:0 takes one token a step (no entropy is 0 on tableA or the D = 3 table)
    // and is then the entropy order on the tempered scores; with N = 1 both take everything in
    // one step (the last step finishes the block): the product of the marginals. The ReMDM
    // presets take neither blocks nor a temperature; the loop needs MDLM's times.
    void remdmFastDllmEbClosedForms() {
        const CategoricalTable t = tableA();
        DecodingSampler cap0, mdlm;
        QVERIFY(applyDecodePreset("remdm:cap:0", 1.0, cap0).ok());
        QVERIFY(applyDecodePreset("mdlm", 1.0, mdlm).ok());
        for (int n : {1, 2, 3, 8}) {
            QVERIFY(maxDifference(outputLaw(run(t, core::schedule::linearCurve(), cap0, n)),
                                  outputLaw(run(t, core::schedule::linearCurve(), mdlm, n))) < 1e-7);
        }
        auto three = core::data::makeCategoricalTable(3, 3, {0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1},
                                                      {0.31, 0.17, 0.22, 0.09, 0.21});
        QVERIFY(three.ok());
        for (const CategoricalTable& table : {t, *three}) {
            const int d = table.numPositions;
            for (double tau : {0.0, 0.5, 1.0}) {
                DecodingSampler fast, llada, eb, entropy;
                QVERIFY(applyDecodePreset("fast-dllm:1.5", tau, fast).ok());
                QVERIFY(applyDecodePreset("llada:low_confidence", tau, llada).ok());
                QVERIFY(maxDifference(outputLaw(run(table, core::schedule::linearCurve(), fast, d)),
                                      outputLaw(run(table, core::schedule::linearCurve(), llada, d))) < 1e-12);
                if (tau == 0.0) continue;
                QVERIFY(applyDecodePreset("eb:0", tau, eb).ok());
                QVERIFY(applyDecodePreset("dream:entropy", tau, entropy).ok());
                entropy.count = DecodeCount::Llada;  // one token a step at N = D
                const DecodeResult bounded = run(table, core::schedule::linearCurve(), eb, d);
                QCOMPARE(bounded.tokensPerStep.size(), static_cast<size_t>(d));
                for (double k : bounded.tokensPerStep) QVERIFY(std::abs(k - 1.0) < 1e-12);
                QVERIFY(maxDifference(outputLaw(bounded),
                                      outputLaw(run(table, core::schedule::linearCurve(), entropy, d))) < 1e-12);
            }
        }
        for (const char* name : {"fast-dllm:0.6", "eb:0.4"}) {
            DecodingSampler s;
            QVERIFY(applyDecodePreset(name, 1.0, s).ok());
            QVERIFY2(maxDifference(outputLaw(run(t, core::schedule::linearCurve(), s, 1)), productOfMarginals(t)) < 1e-12,
                     name);
        }
        for (const char* name : {"remdm:cap:0.1", "remdm:rescale:0.1", "remdm:conf", "remdm:loop:0.1,0.5,0.1,0.9"}) {
            DecodingSampler blocked;
            blocked.blocks = 2;
            const core::Status noBlocks = applyDecodePreset(name, 1.0, blocked);
            QVERIFY(!noBlocks.ok());
            QCOMPARE(noBlocks.error().field, std::string("--blocks"));
            DecodingSampler warm;
            const core::Status noTemperature = applyDecodePreset(name, 0.5, warm);
            QVERIFY(!noTemperature.ok());
            QCOMPARE(noTemperature.error().field, std::string("--temperature"));
        }
        DecodingSampler loop = sampler(DecodeOrder::Ancestral);
        QVERIFY(parseDecodeRemask("loop:0.1,0.5,0.1,0.9", loop).ok());
        QCOMPARE(decodeRemaskText(loop), std::string("loop:0.1,0.5,0.1,0.9"));
        const core::Status needsMdlm = validateDecodingSampler(loop);
        QVERIFY(!needsMdlm.ok());
        QCOMPARE(needsMdlm.error().field, std::string("--remask"));
        QCOMPARE(needsMdlm.error().value, std::string("loop:0.1,0.5,0.1,0.9"));
        for (const char* bad : {"loop:0.1,0.5", "loop:0.1,0.2,0.5,0.9", "loop:0.1,0.5,0.1,0", "loop:2,0.5,0.1,0.9"}) {
            DecodingSampler s;
            const core::Status refused = parseDecodeRemask(bad, s);
            QVERIFY2(!refused.ok(), bad);
            QCOMPARE(refused.error().field, std::string("--remask"));
            QCOMPARE(refused.error().value, std::string(bad));
        }
        const core::Status badPreset = applyDecodePreset("fast-dllm:-1", 1.0, loop);
        QVERIFY(!badPreset.ok());
        QCOMPARE(badPreset.error().field, std::string("--preset"));
        QCOMPARE(badPreset.error().value, std::string("fast-dllm:-1"));
        DecodingSampler threshold = sampler(DecodeOrder::Margin);
        QVERIFY(parseDecodeCount("threshold:0.5", threshold).ok());
        const core::Status wrongOrder = validateDecodingSampler(threshold);
        QVERIFY(!wrongOrder.ok());
        QCOMPARE(wrongOrder.error().field, std::string("--per-step"));
        QCOMPARE(wrongOrder.error().value, std::string("threshold:0.5"));
        auto spec = core::project::parseSamplerSpec("preset=fast-dllm:0.9;temperature=0.5;blocks=2");
        QVERIFY(spec.ok());
        QCOMPARE(core::project::samplerSpec(*spec),
                 std::string("order=low-confidence;values=temperature:0.5;remask=none;gumbel=float64;"
                             "per-step=threshold:0.9;blocks=2"));
        QVERIFY(*core::project::parseSamplerSpec(core::project::samplerSpec(*spec)) == *spec);
        auto loopSpec = core::project::parseSamplerSpec("preset=remdm:loop:0.02,0.55,0.05,0.9");
        QVERIFY(loopSpec.ok());
        QVERIFY(*core::project::parseSamplerSpec(core::project::samplerSpec(*loopSpec)) == *loopSpec);
    }

    // commit: Σ_d P(d unmasked after step n) is the expected number unmasked by then (the
    // tokens per step summed, without remasking), each entry a probability, non-decreasing in
    // n and 1 after the last step; Monte Carlo agrees entry by entry within 4 standard errors.
    void commitSumsAndBounds() {
        const CategoricalTable t = tableA();
        std::vector<DecodingSampler> samplers = {sampler(DecodeOrder::Ancestral), sampler(DecodeOrder::Confidence)};
        for (const char* name : {"llada:low_confidence", "dream:origin", "mdlm", "fast-dllm:0.6", "eb:0.3"}) {
            DecodingSampler s;
            QVERIFY(applyDecodePreset(name, 1.0, s).ok());
            samplers.push_back(s);
        }
        for (const DecodingSampler& s : samplers) {
            const std::string spec = core::project::samplerSpec(s);
            const int n = 3;
            const DecodeResult exact = run(t, core::schedule::cosineCurve(), s, n);
            QCOMPARE(exact.commit.size(), size_t(n * 2));
            double expected = 0.0;
            for (int i = 0; i < n; ++i) {
                expected += exact.tokensPerStep[static_cast<size_t>(i)];
                const double a = exact.commit[static_cast<size_t>(i) * 2], b = exact.commit[static_cast<size_t>(i) * 2 + 1];
                QVERIFY2(std::abs(a + b - expected) < 1e-12, spec.c_str());
                QVERIFY(a >= 0.0 && a <= 1.0 + 1e-15 && b >= 0.0 && b <= 1.0 + 1e-15);
                if (i > 0) QVERIFY(a >= exact.commit[static_cast<size_t>(i - 1) * 2] - 1e-15);
            }
            QVERIFY(std::abs(exact.commit[4] - 1.0) < 1e-12 && std::abs(exact.commit[5] - 1.0) < 1e-12);
            const DecodeResult mc = run(t, core::schedule::cosineCurve(), s, n, 20000, 2);
            QCOMPARE(mc.commitStandardError.size(), exact.commit.size());
            for (size_t j = 0; j < exact.commit.size(); ++j) {
                const double se = mc.commitStandardError[j];
                QVERIFY2(std::abs(mc.commit[j] - exact.commit[j]) <= 4.0 * se + 1e-12,
                         qPrintable(QString("%1 [%2]: %3 vs %4 ± %5").arg(spec.c_str()).arg(j).arg(mc.commit[j])
                                        .arg(exact.commit[j]).arg(se)));
            }
            // commit_score: each position commits once a chain here with a score in [0, 1], so
            // the Monte Carlo mean's standard error is at most 0.5/√M.
            for (int d = 0; d < 2; ++d) {
                QVERIFY2(std::abs(mc.commitScore[d] - exact.commitScore[d]) < 4.0 * 0.5 / std::sqrt(20000.0),
                         qPrintable(QString("%1 score [%2]: %3 vs %4").arg(spec.c_str()).arg(d)
                                        .arg(mc.commitScore[d]).arg(exact.commitScore[d])));
            }
            // One thread or two: the same counts and scores.
            const DecodeResult one = run(t, core::schedule::cosineCurve(), s, n, 20000, 1);
            QCOMPARE(one.commit, mc.commit);
            QCOMPARE(one.commitScore, mc.commitScore);
        }
    }

    // commit_score at N = 1, where every position commits at once from its marginal p_d (the
    // mask entry of the table's marginal is 0): the
    // drawn value's probability has mean Σ_v p_d(v)² (ancestral, low-confidence), confidence
    // commits with max_v p_d(v), margin with |p_d(0) − p_d(1)|, entropy with H(p_d).
    void commitScoreClosedForms() {
        const CategoricalTable t = tableA();
        const std::vector<Vector> marginals = {t.marginal(0, 0), t.marginal(0, 1)};
        DecodingSampler low;
        QVERIFY(applyDecodePreset("llada:low_confidence", 1.0, low).ok());
        const std::vector<std::pair<DecodingSampler, std::function<double(const Vector&)>>> cases = {
            {sampler(DecodeOrder::Ancestral), [](const Vector& p) { return p.squaredNorm(); }},
            {low, [](const Vector& p) { return p.squaredNorm(); }},
            {sampler(DecodeOrder::Confidence), [](const Vector& p) { return p.maxCoeff(); }},
            {sampler(DecodeOrder::Margin), [](const Vector& p) { return std::abs(p[0] - p[1]); }},
            {sampler(DecodeOrder::Entropy), [](const Vector& p) { return -(p[0] * std::log(p[0]) + p[1] * std::log(p[1])); }},
        };
        for (const auto& [s, expected] : cases) {
            const DecodeResult r = run(t, core::schedule::linearCurve(), s, 1);
            for (int d = 0; d < 2; ++d) {
                QVERIFY2(std::abs(r.commitScore[d] - expected(marginals[d])) < 1e-12,
                         qPrintable(QString("%1 [%2]: %3 vs %4").arg(core::project::samplerSpec(s).c_str()).arg(d)
                                        .arg(r.commitScore[d]).arg(expected(marginals[d]))));
            }
        }
    }

    // Presets and their options in a project's sampler spec, and what they refuse.
    void presetSpecs() {
        auto preset = core::project::parseSamplerSpec("preset=llada:low_confidence;temperature=0.5;blocks=2");
        QVERIFY(preset.ok());
        QCOMPARE(core::project::samplerSpec(*preset),
                 std::string("order=low-confidence;values=temperature:0.5;remask=none;gumbel=float64;"
                             "per-step=llada;blocks=2"));
        auto back = core::project::parseSamplerSpec(core::project::samplerSpec(*preset));
        QVERIFY(back.ok());
        QVERIFY(*back == *preset);
        auto greedy = core::project::parseSamplerSpec("preset=llada:random;temperature=0");
        QVERIFY(greedy.ok());
        QCOMPARE(int(greedy->values), int(DecodeValues::Argmax));
        auto both = core::project::parseSamplerSpec("preset=llada:random;order=margin", "decoding.sampler");
        QVERIFY(!both.ok());
        QCOMPARE(both.error().field, std::string("decoding.sampler"));
        QVERIFY(both.error().message.find("order") != std::string::npos);
        auto unknown = core::project::parseSamplerSpec("preset=llada:fast", "s");
        QVERIFY(!unknown.ok());
        QCOMPARE(unknown.error().field, std::string("s.preset"));
        QCOMPARE(unknown.error().value, std::string("llada:fast"));
        auto cold = core::project::parseSamplerSpec("preset=llada:random;temperature=-1", "s");
        QVERIFY(!cold.ok());
        QCOMPARE(cold.error().field, std::string("s.temperature"));
        QCOMPARE(cold.error().value, std::string("-1"));
        QVERIFY(!core::project::parseSamplerSpec("order=margin;temperature=0.5").ok());
        auto ancestralBlocks = core::project::parseSamplerSpec("order=ancestral;blocks=2", "s");
        QVERIFY(!ancestralBlocks.ok());
        QCOMPARE(ancestralBlocks.error().field, std::string("s"));
    }

    void samplerSpecRoundTrips() {
        DecodingSampler s;
        s.order = DecodeOrder::Ancestral;
        s.values = DecodeValues::Temperature;
        s.temperature = 0.25;
        s.remask = DecodeRemask::Cap;
        s.eta = 0.02;
        s.gumbel = GumbelPrecision::Float32;
        const std::string spec = core::project::samplerSpec(s);
        QCOMPARE(spec, std::string("order=ancestral;values=temperature:0.25;remask=cap:0.02;gumbel=float32"));
        auto back = core::project::parseSamplerSpec(spec);
        QVERIFY(back.ok());
        QVERIFY(*back == s);
        auto partial = core::project::parseSamplerSpec("values=argmax;order=margin");
        QVERIFY(partial.ok());
        QCOMPARE(int(partial->order), int(DecodeOrder::Margin));
        auto twice = core::project::parseSamplerSpec("order=margin;order=random", "decoding.sampler");
        QVERIFY(!twice.ok());
        QCOMPARE(twice.error().field, std::string("decoding.sampler"));
        auto mixed = core::project::parseSamplerSpec("order=margin;remask=conf");
        QVERIFY(!mixed.ok());
    }
};

QTEST_GUILESS_MAIN(tst_Decoding)
#include "tst_decoding.moc"
