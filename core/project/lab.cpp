// SPDX-License-Identifier: MIT
#include "core/project/lab.h"

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "core/data/digits.h"
#include "core/data/gaussian_data.h"
#include "core/gaussian/gamma.h"
#include "core/gaussian/spacing.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/project/gaussian_runs.h"
#include "core/project/gaussian_setup.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/limits.h"

namespace core::project {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool needsGamma(const LabConfig& c) {
    return c.variance == gaussian::ReverseVariance::Analytic ||
           c.sampler == gaussian::SamplerKind::AnalyticDdpm ||
           c.sampler == gaussian::SamplerKind::AnalyticDdim || c.trajectory.rfind("dp", 0) == 0;
}

bool isCancel(const Error& e) { return e.code == ErrorCode::Cancelled; }

void addNote(std::string& note, const std::string& text) {
    if (text.empty()) return;
    note += (note.empty() ? "" : "; ") + text;
}

// One schedule the lab runs on, with what is computed once for it.
struct ScheduleWork {
    std::string spec;
    std::optional<schedule::GaussianSchedule> schedule;
    std::vector<double> gamma;   // Γ table (entry 0 unused); empty when nobody needs it
    bool wantsGamma = false;
    std::string error;           // every configuration on it fails with this
};

// A configuration being run: a user's (curve ≥ 0) or the reference (curve = −1).
struct Work {
    LabCurve* curve = nullptr;
    size_t schedule = 0;
    std::vector<gaussian::ResolvedTrajectory> trajectories;  // one per K
};

// λ, σ and the notes of a run from its timesteps.
void fillAxes(LabRun& run, const schedule::GaussianSchedule& s) {
    for (int n : run.timesteps) {
        const double a = s.alphaBar(n), b = s.betaBar(n);
        run.logSnr.push_back(a == 0.0 ? -kInf : 0.5 * std::log(a / b));
        run.sigma.push_back(a == 0.0 ? kInf : std::sqrt(b / a));
    }
    if (!run.timesteps.empty() && s.alphaBar(run.timesteps.back()) == 0.0) {
        addNote(run.note, "zero terminal SNR at n = " + std::to_string(run.timesteps.back()) +
                              ": σ is infinite and λ is −∞ there (null in JSON, empty in CSV)");
    }
}

// Γ on all N timesteps for one schedule, as the project's Γ (projectGamma): its import when it is
// the project's schedule, else the project's estimator, M and seed.
Result<std::vector<double>> scheduleGamma(const GaussianParams& params, const GaussianSetup& setup,
                                          const ScheduleWork& work,
                                          const ParallelOptions& parallel, Progress* progress) {
    GaussianParams onSchedule = params;
    GaussianSetup setupOn = setup;
    if (work.spec != params.schedule) {
        onSchedule.schedule = work.spec;
        onSchedule.importedGamma.clear();
        setupOn.schedule = *work.schedule;
    }
    Progress quiet;
    auto gamma = projectGamma(onSchedule, setupOn, nullptr, nullptr, parallel.numThreads,
                              progress != nullptr ? *progress : quiet);
    if (!gamma) return gamma.error();
    return std::move(gamma->table);
}

// The schedules of every configuration (the project's first), built, with Γ where needed.
Result<std::vector<ScheduleWork>> buildSchedules(const GaussianParams& params,
                                                 const GaussianSetup& setup,
                                                 std::vector<Work>& works,
                                                 const ParallelOptions& parallel,
                                                 Progress* progress) {
    std::vector<ScheduleWork> schedules(1);
    schedules[0].spec = params.schedule;
    schedules[0].schedule = setup.schedule;
    for (Work& w : works) {
        const std::string spec = labSchedule(w.curve->config, params.schedule);
        size_t i = 0;
        while (i < schedules.size() && schedules[i].spec != spec) ++i;
        if (i == schedules.size()) {
            ScheduleWork s;
            s.spec = spec;
            if (setup.usesNetwork) {
                // ε_θ(x, n) was fitted to the project's ᾱ_n only.
                s.error = "schedule = " + spec + ": the network was trained on the project's "
                          "schedule " + params.schedule + "; compare schedules with the exact oracle";
            } else if (auto built = schedule::gaussianScheduleFromSpec(spec, params.numSteps)) {
                s.schedule = std::move(built).value();
            } else {
                s.error = built.error().toString();
            }
            schedules.push_back(std::move(s));
        }
        w.schedule = i;
        schedules[i].wantsGamma = schedules[i].wantsGamma || needsGamma(w.curve->config);
    }
    for (size_t i = 0; i < schedules.size(); ++i) {
        ScheduleWork& s = schedules[i];
        if (!s.wantsGamma || !s.error.empty()) continue;
        if (progress) progress->setStage("Γ on " + s.spec);
        auto gamma = scheduleGamma(params, setup, s, parallel, progress);
        if (!gamma) {
            if (isCancel(gamma.error())) return gamma.error();
            s.error = gamma.error().toString();
            continue;
        }
        s.gamma = std::move(gamma).value();
    }
    return schedules;
}

// Every configuration's trajectory at every K (a failure is the configuration's error).
Status resolveAll(const GaussianParams& params, const std::vector<int>& ks,
                  const std::vector<ScheduleWork>& schedules, std::vector<Work>& works,
                  const ParallelOptions& parallel, Progress* progress) {
    if (progress) progress->setStage("trajectories");
    const gaussian::DpOptions options{.variant = params.dpVariant, .parallel = parallel};
    for (Work& w : works) {
        const ScheduleWork& s = schedules[w.schedule];
        if (!s.error.empty()) {
            w.curve->error = s.error;
            continue;
        }
        for (int k : ks) {
            if (progress && !progress->poll()) {
                return makeError(ErrorCode::Cancelled, "", "", "the lab was cancelled");
            }
            auto t = gaussian::resolveTrajectory(w.curve->config.trajectorySpec(k), *s.schedule,
                                                 s.gamma.empty() ? nullptr : &s.gamma, options);
            if (!t) {
                if (isCancel(t.error())) return t.error();
                w.curve->error = t.error().toString();
                w.trajectories.clear();
                break;
            }
            w.trajectories.push_back(std::move(t).value());
        }
    }
    return {};
}

struct NllSetup {
    std::shared_ptr<model::GaussianOracle> data;  // held out for the digits
    gaussian::NllParams params;
};

// The NLL of every (configuration, K) on each schedule from one negativeElboSweep.
Status sweepNll(const GaussianSetup& setup, const NllSetup& nll,
                const std::vector<ScheduleWork>& schedules, std::vector<Work>& works,
                Progress* progress) {
    for (size_t si = 0; si < schedules.size(); ++si) {
        std::vector<std::vector<int>> trajectories;
        std::vector<gaussian::ReverseVariance> variances;
        for (const Work& w : works) {
            if (w.schedule != si || !w.curve->error.empty()) continue;
            const auto v = w.curve->config.variance;
            if (std::find(variances.begin(), variances.end(), v) == variances.end()) {
                variances.push_back(v);
            }
            for (const auto& t : w.trajectories) {
                if (std::find(trajectories.begin(), trajectories.end(), t.timesteps) ==
                    trajectories.end()) {
                    trajectories.push_back(t.timesteps);
                }
            }
        }
        if (trajectories.empty()) continue;
        if (progress) progress->setStage("NLL on " + schedules[si].spec);
        auto sweep = gaussian::negativeElboSweep(*setup.model, *nll.data, *schedules[si].schedule,
                                                 schedules[si].gamma, trajectories, variances,
                                                 nll.params, progress);
        if (!sweep && isCancel(sweep.error())) return sweep.error();
        for (Work& w : works) {
            if (w.schedule != si || !w.curve->error.empty()) continue;
            if (!sweep) {
                w.curve->error = sweep.error().toString();
                continue;
            }
            const size_t v = std::find(variances.begin(), variances.end(),
                                       w.curve->config.variance) - variances.begin();
            for (size_t i = 0; i < w.trajectories.size(); ++i) {
                const size_t t = std::find(trajectories.begin(), trajectories.end(),
                                           w.trajectories[i].timesteps) - trajectories.begin();
                const gaussian::NllResult& r = (*sweep)[t][v];
                LabRun& run = w.curve->runs[i];
                run.nllBitsPerDim = r.bitsPerDim;
                run.nllStandardError = r.standardError;
                run.terms.push_back(r.prior);
                run.terms.insert(run.terms.end(), r.pairs.begin(), r.pairs.end());
                run.terms.push_back(r.decoder);
            }
        }
    }
    return {};
}

// Samples of every (configuration, K) and their quality against held-out data.
Status sampleAll(const GaussianParams& params, const LabSettings& settings,
                 const GaussianSetup& setup, const SetupSources& sources,
                 const std::vector<ScheduleWork>& schedules, std::vector<Work>& works,
                 const ParallelOptions& parallel, Progress* progress) {
    if (settings.qualitySamples == 0) return {};
    size_t total = 0, done = 0;
    for (const Work& w : works) total += w.curve->error.empty() ? w.trajectories.size() : 0;
    for (Work& w : works) {
        if (!w.curve->error.empty()) continue;
        const LabConfig& c = w.curve->config;
        const ScheduleWork& s = schedules[w.schedule];
        for (size_t i = 0; i < w.trajectories.size(); ++i) {
            if (progress) {
                progress->setStage("samples " + std::to_string(++done) + "/" +
                                   std::to_string(total) + ": " + labName(c) + ", K = " + std::to_string(w.curve->runs[i].k));
            }
            // DDIM as the lab's samplers name it is the deterministic one (η = 0), whatever η
            // the project's forward process has: with η = 1 it would repeat DDPM.
            gaussian::SamplerParams sp{
                .kind = c.sampler,
                .eta = 0.0,
                .ddpmVariance = c.variance == gaussian::ReverseVariance::Large
                                    ? gaussian::BaselineVariance::Large
                                    : gaussian::BaselineVariance::Small,
                .clipFirst = params.clipFirst ? kClipFirstY : 0.0,
                .count = settings.qualitySamples,
                .seed = params.seed,
                .parallel = parallel};
            auto samples = gaussian::sampleReverse(*setup.model, *s.schedule, s.gamma,
                                                   w.trajectories[i].timesteps, sp, progress);
            if (!samples) {
                if (isCancel(samples.error())) return samples.error();
                w.curve->error = samples.error().toString();
                w.curve->runs.clear();
                break;
            }
            auto quality = project::sampleQuality(samples->samples, params.data, params.seed,
                                                     sources, parallel);
            if (quality) {
                w.curve->runs[i].quality = std::move(quality).value();
            } else {
                if (isCancel(quality.error())) return quality.error();
                addNote(w.curve->runs[i].note, "no sample quality: " + quality.error().toString());
            }
        }
    }
    return {};
}

// Why a configuration can beat the DP optimum's measured NLL, in the numbers of the run: the DP
// minimises the step costs J predicted from Γ (the pairs' KL terms up to constants), while the
// NLL is measured on its own points, with the prior and decoder terms that J leaves out and a
// first timestep τ₁ that the spacing chooses. Written into the reference's note at every K where
// a configuration on the project's schedule scores lower.
void explainReference(LabResult& result, const GaussianParams& params, const LabSettings& settings,
                      const std::vector<Work>& works) {
    for (size_t i = 0; i < result.reference.runs.size(); ++i) {
        LabRun& ref = result.reference.runs[i];
        if (!std::isfinite(ref.nllBitsPerDim) || ref.terms.size() < 2) continue;
        const LabCurve* best = nullptr;
        for (const Work& w : works) {
            const LabCurve* c = w.curve;
            if (c == &result.reference || !c->error.empty() || w.schedule != 0 || i >= c->runs.size()) continue;
            const LabRun& run = c->runs[i];
            if (std::isfinite(run.nllBitsPerDim) && run.nllBitsPerDim < ref.nllBitsPerDim &&
                (best == nullptr || run.nllBitsPerDim < best->runs[i].nllBitsPerDim)) {
                best = c;
            }
        }
        if (best == nullptr) continue;
        const LabRun& run = best->runs[i];
        const auto split = [](const LabRun& r) {
            double pairs = 0.0;
            for (size_t t = 1; t + 1 < r.terms.size(); ++t) pairs += r.terms[t].bitsPerDim;
            return std::array<double, 3>{r.terms.front().bitsPerDim, pairs, r.terms.back().bitsPerDim};
        };
        const auto a = split(run), b = split(ref);
        const auto f = [](double v) {
            std::ostringstream out;
            out.setf(std::ios::fixed);
            out.precision(3);
            out << v;
            return out.str();
        };
        std::string note = "at K = " + std::to_string(ref.k) + ", " + labName(best->config) + " scores " +
                           f(run.nllBitsPerDim) + " bits/dim, below this " + f(ref.nllBitsPerDim) +
                           ": the DP minimises the step costs J predicted from Γ (M = " +
                           std::to_string(params.gammaSamples) + " draws), not the NLL measured on " +
                           std::to_string(settings.nllPoints) + " points; measured, the steps cost " +
                           f(a[1]) + " against " + f(b[1]) + ", the decoder (from τ₁ = " +
                           std::to_string(run.timesteps.empty() ? 0 : run.timesteps.front()) + " against " +
                           std::to_string(ref.timesteps.empty() ? 0 : ref.timesteps.front()) + ") " + f(a[2]) +
                           " against " + f(b[2]) + " and the prior " + f(a[0]) + " against " + f(b[0]) +
                           " bits/dim";
        addNote(ref.note, note);
    }
}

// Refusals before anything large is allocated.
Status checkSizes(const GaussianParams& params, const LabSettings& settings, int dimension) {
    const double runs = (settings.configs.size() + 1.0) * settings.ks.size();
    if (Status s = limits::checkMemory(
            "lab.qualitySamples", std::to_string(settings.qualitySamples),
            "(configurations + 1) × Ks × samples × d × 8 bytes",
            runs * settings.qualitySamples * dimension * 8.0);
        !s) {
        return s;
    }
    // negativeElboSweep keeps two doubles per (distinct timestep, point) per schedule.
    return limits::checkMemory("lab.nllPoints", std::to_string(settings.nllPoints),
                               "N × points × 16 bytes",
                               16.0 * params.numSteps * settings.nllPoints);
}

}  // namespace

Result<LabResult> runLab(const GaussianParams& params, const LabSettings& settings,
                         const SetupSources& sources, const ParallelOptions& parallel,
                         Progress* progress) {
    if (Status s = params.validate(); !s) return s.error();
    if (Status s = settings.validate(params.numSteps); !s) return s.error();
    if (settings.configs.empty()) {
        return invalidArgument("lab.configs", "none", "add at least one configuration");
    }
    if (progress) progress->setStage("set-up");
    auto setup = GaussianSetup::build(params, sources, true);
    if (!setup) return setup.error();
    const int d = static_cast<const model::GaussianDataSampler&>(*setup->data).dimension();
    if (Status s = checkSizes(params, settings, d); !s) return s.error();

    LabResult result;
    result.numSteps = params.numSteps;
    result.data = params.data;
    result.model = params.model.empty() ? "oracle" : params.model;
    result.schedule = params.schedule;
    result.ks = settings.ks;
    for (size_t i = 0; i < settings.configs.size(); ++i) {
        const LabConfig& c = settings.configs[i];
        result.curves.push_back({.config = c, .colour = labColour(c, static_cast<int>(i))});
    }
    result.reference = {.config = {.name = "DP optimum",
                                   .colour = kLabReferenceColour,
                                   .trajectory = "dp",
                                   .variance = gaussian::ReverseVariance::Analytic,
                                   .sampler = gaussian::SamplerKind::AnalyticDdpm},
                        .colour = kLabReferenceColour};
    std::vector<Work> works;
    for (LabCurve& c : result.curves) works.push_back({.curve = &c});
    works.push_back({.curve = &result.reference});

    auto schedules = buildSchedules(params, *setup, works, parallel, progress);
    if (!schedules) return schedules.error();
    if (Status s = resolveAll(params, settings.ks, *schedules, works, parallel, progress); !s) {
        return s.error();
    }
    for (Work& w : works) {
        if (!w.curve->error.empty()) continue;
        const auto& s = *(*schedules)[w.schedule].schedule;
        for (const auto& t : w.trajectories) {
            LabRun run;
            run.k = static_cast<int>(t.timesteps.size());
            run.timesteps = t.timesteps;
            addNote(run.note, t.note);
            addNote(run.note, gaussian::trajectoryEndsNote(t.timesteps, params.numSteps));
            if (!t.gammaOverBound.empty()) {
                addNote(run.note, std::to_string(t.gammaOverBound.size()) +
                                      " timesteps with β̄Γ over its bound 1");
            }
            fillAxes(run, s);
            w.curve->runs.push_back(std::move(run));
        }
    }

    NllSetup nll;
    // As the explorer's NLL curves: the held-out data (the digits' test split, on their grid).
    auto heldOut = heldOutData(params.data, sources);
    if (!heldOut) return heldOut.error();
    nll.data = *heldOut;
    nll.params.levels = heldOutLevels(params.data);
    nll.params.numSamples = settings.nllPoints;
    nll.params.seed = params.seed;
    nll.params.parallel = parallel;
    if (Status s = sweepNll(*setup, nll, *schedules, works, progress); !s) return s.error();
    explainReference(result, params, settings, works);
    if (Status s = sampleAll(params, settings, *setup, sources, *schedules, works, parallel,
                             progress);
        !s) {
        return s.error();
    }
    for (Work& w : works) {
        if (!w.curve->error.empty()) w.curve->runs.clear();
    }
    return result;
}

std::vector<double> logSigmaSteps(const std::vector<double>& sigma) {
    std::vector<double> steps;
    for (size_t k = 1; k < sigma.size(); ++k) {
        steps.push_back(std::log(sigma[k]) - std::log(sigma[k - 1]));
    }
    return steps;
}

std::vector<double> logSigmaStepRatios(const std::vector<double>& steps) {
    std::vector<double> ratios;
    for (size_t k = 1; k < steps.size(); ++k) {
        const bool finite = std::isfinite(steps[k]) && std::isfinite(steps[k - 1]);
        ratios.push_back(finite ? steps[k] / steps[k - 1]
                                : std::numeric_limits<double>::quiet_NaN());
    }
    return ratios;
}

namespace {

io::Json finiteOrNull(double v) { return std::isfinite(v) ? io::Json(v) : io::Json(nullptr); }

io::Json numbersOrNull(const std::vector<double>& values) {
    io::Json out = io::Json::array();
    for (double v : values) out.push_back(finiteOrNull(v));
    return out;
}

io::Json curveJson(const LabCurve& curve, const std::string& projectSchedule) {
    const LabConfig& c = curve.config;
    io::Json o = {{"name", labName(c)},
                  {"colour", curve.colour},
                  {"schedule", labSchedule(c, projectSchedule)},
                  {"trajectory", c.trajectory},
                  {"variance", choiceId(kReverseVariances, c.variance)},
                  {"sampler", choiceId(kSamplers, c.sampler)}};
    if (!curve.error.empty()) o["error"] = curve.error;
    io::Json runs = io::Json::array();
    for (const LabRun& r : curve.runs) {
        io::Json terms = io::Json::array();
        for (const auto& t : r.terms) {
            terms.push_back({{"s", t.s}, {"t", t.t}, {"bpd", finiteOrNull(t.bitsPerDim)}});
        }
        io::Json quality = nullptr;
        if (r.quality) {
            const auto& q = *r.quality;
            quality = {{"measure", q.measure},
                       {"value", finiteOrNull(q.value)},
                       {"standard_error", finiteOrNull(q.standardError)},
                       {"num_samples", q.numSamples},
                       {"num_reference", q.numReference},
                       {"reference", q.reference},
                       {"bandwidths", q.bandwidths}};
        }
        io::Json run = {{"k", r.k},
                        {"timesteps", r.timesteps},
                        {"log_snr", numbersOrNull(r.logSnr)},
                        {"sigma", numbersOrNull(r.sigma)},
                        {"log_sigma_steps", numbersOrNull(logSigmaSteps(r.sigma))},
                        {"log_sigma_step_ratios",
                         numbersOrNull(logSigmaStepRatios(logSigmaSteps(r.sigma)))},
                        {"nll_bpd", finiteOrNull(r.nllBitsPerDim)},
                        {"nll_standard_error", finiteOrNull(r.nllStandardError)},
                        {"terms", std::move(terms)},
                        {"quality", std::move(quality)}};
        if (!r.note.empty()) run["note"] = r.note;
        runs.push_back(std::move(run));
    }
    o["runs"] = std::move(runs);
    return o;
}

// `rowStart`: the row's first cell, which is quoted when it starts with '#' (after blanks): the
// row would be a comment to the readers that skip them (ours, pandas' comment='#'); quoted, the
// line starts with '"' instead.
std::string csvField(const std::string& text, bool rowStart = false) {
    const size_t first = text.find_first_not_of(" \t");
    const bool looksLikeComment = rowStart && first != std::string::npos && text[first] == '#';
    if (!looksLikeComment && text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string csvNumber(double v) {
    if (!std::isfinite(v)) return {};
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

}  // namespace

io::Json labToJson(const LabResult& result) {
    io::Json configs = io::Json::array();
    for (const LabCurve& c : result.curves) configs.push_back(curveJson(c, result.schedule));
    return {{"num_steps", result.numSteps},
            {"data", result.data},
            {"model", result.model},
            {"schedule", result.schedule},
            {"ks", result.ks},
            {"configs", std::move(configs)},
            {"reference", curveJson(result.reference, result.schedule)}};
}

std::string labToCsv(const LabResult& result) {
    std::ostringstream out;
    out << "config,schedule,trajectory,variance,sampler,k,nll_bpd,nll_se,quality_measure,quality,"
           "quality_se,timesteps,log_sigma_steps,log_sigma_step_ratios,note\n";
    // Space-separated as the timesteps; a step into an infinite σ is "inf", its ratio "nan".
    const auto numbers = [](const std::vector<double>& values) {
        std::string text;
        for (double v : values) {
            text += (text.empty() ? "" : " ") +
                    (std::isnan(v) ? std::string("nan") : std::isinf(v) ? std::string(v > 0 ? "inf" : "-inf") : csvNumber(v));
        }
        return text;
    };
    auto writeCurve = [&](const LabCurve& curve) {
        const LabConfig& c = curve.config;
        const std::string head = csvField(labName(c), true) + "," +
                                 csvField(labSchedule(c, result.schedule)) + "," +
                                 csvField(c.trajectory) + "," + choiceId(kReverseVariances, c.variance) +
                                 "," + choiceId(kSamplers, c.sampler) + ",";
        if (!curve.error.empty()) {
            for (int k : result.ks) {
                out << head << k << ",,,,,,,,," << csvField("error: " + curve.error) << '\n';
            }
            return;
        }
        for (const LabRun& r : curve.runs) {
            std::string steps;
            for (int n : r.timesteps) steps += (steps.empty() ? "" : " ") + std::to_string(n);
            out << head << r.k << ',' << csvNumber(r.nllBitsPerDim) << ','
                << csvNumber(r.nllStandardError) << ',' << (r.quality ? r.quality->measure : "")
                << ',' << (r.quality ? csvNumber(r.quality->value) : "") << ','
                << (r.quality ? csvNumber(r.quality->standardError) : "") << ',' << steps << ','
                << numbers(logSigmaSteps(r.sigma)) << ','
                << numbers(logSigmaStepRatios(logSigmaSteps(r.sigma))) << ',' << csvField(r.note)
                << '\n';
        }
    };
    for (const LabCurve& c : result.curves) writeCurve(c);
    writeCurve(result.reference);
    return out.str();
}

const LabPreset* findLabPreset(const std::string& id) {
    for (const LabPreset& preset : labPresets()) {
        if (preset.id == id) return &preset;
    }
    return nullptr;
}

Status applyLabPreset(const LabPreset& preset, GaussianParams& params) {
    const std::string base = schedule::splitScheduleSpec(params.schedule).base;
    if (!preset.schedule.empty() && base != preset.schedule) {
        if (!params.model.empty()) {
            return invalidArgument(
                "preset", preset.id,
                "runs on the " + preset.schedule + " schedule, but the project's network was "
                "trained on " + params.schedule + "; use a project with the exact oracle");
        }
        params.schedule = preset.schedule;
    }
    params.lab.configs = preset.configs;
    if (!preset.ks.empty()) params.lab.ks = preset.ks;
    return {};
}

}  // namespace core::project
