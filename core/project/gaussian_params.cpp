// SPDX-License-Identifier: MIT
#include "core/project/gaussian_params.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <tuple>

#include "core/gaussian/spacing.h"
#include "core/gaussian/trajectory_dp.h"
#include "core/project/path_steps.h"
#include "core/schedule/diffusers_config.h"
#include "core/schedule/gaussian_schedule.h"
#include "core/util/limits.h"

namespace core::project {

const std::vector<Choice<GaussianTrajectory>> kGaussianTrajectories = {
    {GaussianTrajectory::Dp, "dp", "DP-optimal"},
    {GaussianTrajectory::Even, "even", "even"},
    {GaussianTrajectory::Quadratic, "quadratic", "quadratic"},
    {GaussianTrajectory::List, "list", "typed list"},
    {GaussianTrajectory::Linspace, "linspace", "linspace (diffusers)"},
    {GaussianTrajectory::Leading, "leading", "leading (diffusers)"},
    {GaussianTrajectory::Trailing, "trailing", "trailing (diffusers)"},
    {GaussianTrajectory::LogSnr, "logsnr", "uniform log-SNR (DPM-Solver)"},
    {GaussianTrajectory::Karras, "karras", "Karras σ (EDM)"},
    {GaussianTrajectory::AysSd15, "ays:sd15", "Align Your Steps (SD 1.5)"},
    {GaussianTrajectory::AysSdxl, "ays:sdxl", "Align Your Steps (SDXL)"},
};

const std::vector<Choice<gaussian::DpVariant>> kDpVariants = {
    {gaussian::DpVariant::Clipped, "clipped", "clipped cost (default)"},
    {gaussian::DpVariant::Segmented, "segmented", "segmented (paper code)"},
};

const std::vector<Choice<gaussian::ReverseVariance>> kReverseVariances = {
    {gaussian::ReverseVariance::Small, "small", "β̃ (small)"},
    {gaussian::ReverseVariance::Large, "large", "β (large)"},
    {gaussian::ReverseVariance::Analytic, "analytic", "analytic optimum"},
};

const std::vector<Choice<gaussian::SamplerKind>> kSamplers = {
    {gaussian::SamplerKind::AnalyticDdpm, "analytic-ddpm", "analytic-ddpm"},
    {gaussian::SamplerKind::AnalyticDdim, "analytic-ddim", "analytic-ddim"},
    {gaussian::SamplerKind::Ddpm, "ddpm", "ddpm"},
    {gaussian::SamplerKind::Ddim, "ddim", "ddim"},
    {gaussian::SamplerKind::DpmSolver1, "dpm-solver-1", "dpm-solver-1"},
    {gaussian::SamplerKind::DpmSolverPp2M, "dpm-solver++2m", "dpm-solver++(2M)"},
    {gaussian::SamplerKind::DpmSolverPp3M, "dpm-solver++3m", "dpm-solver++(3M)"},
};

const std::vector<Choice<GammaEstimatorChoice>> kGammaEstimators = {
    {GammaEstimatorChoice::Auto, "auto", "low-variance (default)"},
    {GammaEstimatorChoice::Score, "score", "score ‖ε_θ‖²/d (paper)"},
    {GammaEstimatorChoice::Denoising, "denoising", "denoising (exact oracle only)"},
    {GammaEstimatorChoice::Error, "error", "error 1 − ‖ε_θ − ε‖²/d"},
};

// Each built-in schedule also with its zero terminal SNR transform (a custom table takes the
// suffix too: "csv:FILE,zero-snr").
const std::vector<Choice<std::string>> kGaussianSchedules = {
    {"linear", "linear", "linear"},
    {"cosine", "cosine", "cosine"},
    {"scaled-linear", "scaled-linear", "scaled-linear"},
    {"sigmoid", "sigmoid", "sigmoid"},
    {"linear,zero-snr", "linear,zero-snr", "linear, zero terminal SNR"},
    {"cosine,zero-snr", "cosine,zero-snr", "cosine, zero terminal SNR"},
    {"scaled-linear,zero-snr", "scaled-linear,zero-snr", "scaled-linear, zero terminal SNR"},
    {"sigmoid,zero-snr", "sigmoid,zero-snr", "sigmoid, zero terminal SNR"},
};

const std::vector<Choice<std::string>> kGaussianDataPresets = {
    {"toy:moons,n=2000", "toy:moons,n=2000", "two moons"},
    {"toy:checkerboard,n=2000", "toy:checkerboard,n=2000", "checkerboard"},
    {"toy:swissroll,n=2000", "toy:swissroll,n=2000", "swiss roll"},
    {"toy:ring,n=2000", "toy:ring,n=2000", "ring"},
    {"gaussian:d=2,s=0.5", "gaussian:d=2,s=0.5", "Gaussian N(0, 0.5² I), d = 2"},
    {"digits", "digits", "8×8 digits (64-D, training split)"},
    {std::string(kDefaultMixtureSpec), kDefaultMixtureSpec, "Gaussian mixture (drag on the plane)"},
};

Result<gaussian::GammaEstimator> resolveEstimator(GammaEstimatorChoice choice, bool exactModel,
                                                  const std::string& field) {
    switch (choice) {
        case GammaEstimatorChoice::Auto:
            // For the oracle the better of two unbiased forms; for a network the error form,
            // which never exceeds the bound (with the score form and M ~ 50 in 2-D, hundreds
            // of timesteps do, and the DP trajectory routes through them).
            return exactModel ? gaussian::GammaEstimator::Denoising
                              : gaussian::GammaEstimator::Error;
        case GammaEstimatorChoice::Score: return gaussian::GammaEstimator::Score;
        case GammaEstimatorChoice::Error: return gaussian::GammaEstimator::Error;
        case GammaEstimatorChoice::Denoising:
            if (!exactModel) {
                return invalidArgument(field, "denoising",
                                       "the denoising estimator needs the exact oracle");
            }
            return gaussian::GammaEstimator::Denoising;
    }
    return invalidArgument(field, "", "unknown estimator");
}

Status GaussianParams::validate() const {
    // Sizes before anything else reads the text (the one table, core/util/limits.h).
    for (const auto& [field, text, limit] :
         {std::tuple{"schedule", &schedule, &limits::kSpecText},
          std::tuple{"data", &data, &limits::kSpecText}, std::tuple{"model", &model, &limits::kSpecText},
          std::tuple{"trajectoryList", &trajectoryList, &limits::kListText},
          std::tuple{"importedGammaName", &importedGammaName, &limits::kSpecText}}) {
        if (Status s = limits::checkText(*limit, field, *text); !s) return s;
    }
    // The Lab's labels and specs too: the GUI's edits are checked here, not by the reader.
    for (size_t i = 0; i < lab.configs.size(); ++i) {
        const std::string prefix = "lab.configs[" + std::to_string(i) + "].";
        const LabConfig& c = lab.configs[i];
        for (const auto& [key, text, limit] :
             {std::tuple{"name", &c.name, &limits::kNameText},
              std::tuple{"schedule", &c.schedule, &limits::kSpecText},
              std::tuple{"trajectory", &c.trajectory, &limits::kSpecText}}) {
            if (Status s = limits::checkText(*limit, prefix + key, *text); !s) return s;
        }
    }
    // A custom table ("csv:FILE", "diffusers:FILE") is read by the panel before it is applied
    // and by the job; here only its form is checked, so that a project whose file moved still
    // opens.
    const std::string base = schedule::splitScheduleSpec(schedule).base;
    const bool custom = schedule::isFileScheduleSpec(base);
    if (!custom && choiceId(kGaussianSchedules, base).empty()) {
        return invalidArgument("schedule", schedule,
                               "expected linear, cosine, scaled-linear, sigmoid, csv:FILE or "
                               "diffusers:FILE, optionally followed by ,zero-snr");
    }
    if (Status s = limits::checkRange(limits::kGaussianSteps, "N", numSteps); !s) return s;
    if (!(eta >= 0.0 && eta <= 1.0)) {
        return invalidArgument("eta", formatValue(eta), "η must lie in [0, 1]");
    }
    if (data.empty()) {
        return invalidArgument("data", "", "choose a data set");
    }
    if (Status s = limits::checkRange(limits::kGammaSamples, "M", gammaSamples); !s) return s;
    if (trajectory == GaussianTrajectory::List) {
        // The core's own check: whole timesteps, strictly increasing, from 1 to N.
        auto steps = schedule::gaussianScheduleFromSpec("linear", numSteps);  // N only
        if (!steps) return steps.error();
        auto resolved = gaussian::resolveTrajectory(trajectorySpec(), *steps, nullptr);
        if (!resolved) return resolved.error();
    }
    // diffusers' spacings take K = 1 as its schedulers do.
    const int fewest = trajectory == GaussianTrajectory::Linspace || trajectory == GaussianTrajectory::Leading ||
                               trajectory == GaussianTrajectory::Trailing
                           ? 1
                           : 2;
    if (pathSteps < fewest || pathSteps > numSteps) {
        return invalidArgument("K", std::to_string(pathSteps),
                               "K must lie in " + std::to_string(fewest) + "..N = " + std::to_string(numSteps));
    }
    if (Status s = checkPathStepsAsked(pathStepsAsked, limits::kGaussianSteps); !s) {
        return s;
    }
    if (leadingOffset < 0) {
        return invalidArgument("leadingOffset", std::to_string(leadingOffset),
                               "the offset must be ≥ 0");
    }
    if (!(std::isfinite(karrasRho) && karrasRho > 0.0)) {
        return invalidArgument("karrasRho", formatValue(karrasRho), "ρ must be finite and > 0");
    }
    if (!diffusersClass.empty() && !gaussian::isDiffusersClass(diffusersClass)) {
        return invalidArgument("diffusersClass", diffusersClass,
                               "not a diffusers scheduler class whose spacing is known here");
    }
    if (const std::string kind = choiceId(kGaussianTrajectories, trajectory);
        gaussian::isSpacingKind(kind)) {
        // The core's own check of the spec, e.g. an offset that leaves 1..N.
        const std::string spec = trajectorySpec();
        auto parsed = gaussian::parseSpacing(kind, gaussian::splitTrajectoryKind(spec).second,
                                             numSteps);
        if (!parsed) {
            Error e = parsed.error();
            if (e.field == "offset") e.field = "leadingOffset";
            if (e.field == "rho") e.field = "karrasRho";
            if (e.field == "class") e.field = "diffusersClass";
            return e;
        }
    }
    if (!importedGamma.empty()) {
        if (static_cast<int>(importedGamma.size()) != numSteps) {
            return invalidArgument("gamma", std::to_string(importedGamma.size()),
                                   "the imported Γ has " + std::to_string(importedGamma.size()) +
                                       " entries but N = " + std::to_string(numSteps));
        }
        for (size_t i = 0; i < importedGamma.size(); ++i) {
            if (!std::isfinite(importedGamma[i]) || importedGamma[i] < 0.0) {
                return invalidArgument("gamma[" + std::to_string(i + 1) + "]",
                                       formatValue(importedGamma[i]), "Γ must be finite and ≥ 0");
            }
        }
    }
    return limits::checkRange(limits::kViewParticles, "particles", particleCount);
}

Status GaussianParams::setTrajectorySpec(const std::string& spec, const std::string& field) {
    const auto [kind, rest] = gaussian::splitTrajectoryKind(spec);
    auto parsed = parseChoice(kGaussianTrajectories, kind, field);
    if (!parsed) {
        return invalidArgument(field, spec,
                               "expected even:K, quadratic:K, dp:K, list:n1,n2,…, linspace:K, "
                               "leading:K[,offset=O], trailing:K (each [,class=C]), logsnr:K, "
                               "karras:K[,rho=ρ], "
                               "ays:sd15[:K] or ays:sdxl[:K]");
    }
    GaussianParams next = *this;
    next.trajectory = *parsed;
    if (*parsed == GaussianTrajectory::List) {
        next.trajectoryList = rest;
    } else if (gaussian::isSpacingKind(kind)) {
        auto spacing = gaussian::parseSpacing(kind, rest, numSteps);
        if (!spacing) return spacing.error();
        next.pathSteps = spacing->numTimesteps;
        next.leadingOffset = static_cast<int>(std::min<long long>(spacing->offset, 1 << 30));
        next.karrasRho = spacing->rho;
        next.diffusersClass = spacing->diffusersClass;
    } else {
        auto k = gaussian::parseNumTimesteps(rest, spec, kind, numSteps);
        if (!k) return k.error();
        next.pathSteps = *k;
    }
    *this = std::move(next);
    return {};
}

namespace {

// Whether `list` (the typed timesteps) is a valid trajectory for N = n: the core's own check.
bool listFits(const std::string& list, int n) {
    auto steps = schedule::gaussianScheduleFromSpec("linear", n);  // N only
    return steps && gaussian::resolveTrajectory("list:" + list, *steps, nullptr).ok();
}

}  // namespace

GaussianParams GaussianParams::withNumSteps(int n) const {
    GaussianParams p = *this;
    if (n == numSteps) return p;
    p.numSteps = n;
    p.importedGamma.clear();  // Γ_1..Γ_N of the old N
    p.importedGammaName.clear();
    const int asked = pathStepsWanted(pathSteps, pathStepsAsked, numSteps);
    p.pathSteps = std::min(asked, n);
    p.pathStepsAsked = asked > n ? asked : 0;
    if (!listFits(p.trajectoryList, n)) {
        // Kept, it would stay invalid (or become so when the list is chosen again).
        p.trajectoryList.clear();
        if (p.trajectory == GaussianTrajectory::List) p.trajectory = GaussianTrajectory::Even;
    }
    return p;
}

namespace {

// The schedule of `p` when the imported Γ fits its N; else why not.
Result<schedule::GaussianSchedule> scheduleForImport(const GaussianParams& p) {
    if (static_cast<int>(p.importedGamma.size()) != p.numSteps) {
        return invalidArgument("gamma", std::to_string(p.importedGamma.size()),
                               "the imported Γ has " + std::to_string(p.importedGamma.size()) +
                                   " entries but N = " + std::to_string(p.numSteps));
    }
    return schedule::gaussianScheduleFromSpec(p.schedule, p.numSteps);
}

}  // namespace

Result<std::vector<int>> GaussianParams::importedGammaOverBound() const {
    auto schedule = scheduleForImport(*this);
    if (!schedule) return schedule.error();
    std::vector<double> table{0.0};  // gammaOverBound's table is indexed by n, entry 0 unused
    table.insert(table.end(), importedGamma.begin(), importedGamma.end());
    return gaussian::gammaOverBound(*schedule, table);
}

Result<std::vector<int>> GaussianParams::clipImportedGamma() {
    auto schedule = scheduleForImport(*this);
    if (!schedule) return schedule.error();
    std::vector<int> clipped;
    for (int n = 1; n <= numSteps; ++n) {
        const double betaBar = schedule->betaBar(n);
        double& gamma = importedGamma[static_cast<size_t>(n - 1)];
        if (!(betaBar * gamma > 1.0)) continue;  // gammaOverBound's test
        // The largest Γ with β̄Γ ≤ 1 in floating point (1/β̄ itself may round above it).
        double bound = 1.0 / betaBar;
        while (bound * betaBar > 1.0) bound = std::nextafter(bound, 0.0);
        gamma = bound;
        clipped.push_back(n);
    }
    return clipped;
}

namespace {

// FNV-1a over the bytes: a stable fingerprint of the imported values for the Γ key.
uint64_t fingerprint(const std::vector<double>& values) {
    uint64_t hash = 14695981039346656037ull;
    for (double v : values) {
        unsigned char bytes[sizeof(double)];
        std::memcpy(bytes, &v, sizeof v);
        for (unsigned char b : bytes) {
            hash = (hash ^ b) * 1099511628211ull;
        }
    }
    return hash;
}

// The estimator as the Γ key has always written it (keys of saved caches stay valid).
const char* estimatorKey(GammaEstimatorChoice choice) {
    switch (choice) {
        case GammaEstimatorChoice::Auto: return "denoising";
        case GammaEstimatorChoice::Score: return "score";
        case GammaEstimatorChoice::Denoising: return "denoising-only";
        case GammaEstimatorChoice::Error: return "error";
    }
    return "";
}

}  // namespace

std::string GaussianParams::gammaKey() const {
    std::string key = schedule + "|" + std::to_string(numSteps) + "|" + data + "|" + model + "|" +
                      std::to_string(gammaSamples) + "|" + estimatorKey(estimator) + "|" +
                      std::to_string(seed);
    if (!importedGamma.empty()) {
        // The values themselves: two imports of different files must not share a result.
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx",
                      static_cast<unsigned long long>(fingerprint(importedGamma)));
        key += std::string("|import:") + hex;
    }
    return key;
}

std::string GaussianParams::scheduleTrajectorySpec() const {
    return schedule::scheduleSpecTrajectory(schedule, pathSteps);
}

std::string GaussianParams::scheduleNote() const {
    return schedule::scheduleSpecNote(schedule);
}

std::string GaussianParams::trajectorySpec() const {
    if (trajectory == GaussianTrajectory::List) return "list:" + trajectoryList;
    if (trajectory == GaussianTrajectory::AysSd15 || trajectory == GaussianTrajectory::AysSdxl) {
        const std::string kind = choiceId(kGaussianTrajectories, trajectory);
        return pathSteps == 10 ? kind : kind + ":" + std::to_string(pathSteps);
    }
    std::string spec = choiceId(kGaussianTrajectories, trajectory) + ":" + std::to_string(pathSteps);
    if (trajectory == GaussianTrajectory::Leading && leadingOffset != 0) {
        spec += ",offset=" + std::to_string(leadingOffset);
    }
    if (trajectory == GaussianTrajectory::Karras && karrasRho != 7.0) {
        spec += ",rho=" + shortestText(karrasRho);
    }
    const bool diffusersSpacing = trajectory == GaussianTrajectory::Linspace ||
                                  trajectory == GaussianTrajectory::Leading ||
                                  trajectory == GaussianTrajectory::Trailing;
    if (diffusersSpacing && !diffusersClass.empty()) spec += ",class=" + diffusersClass;
    return spec;
}

io::Json GaussianParams::toJson() const {
    io::Json o = {{"schedule", schedule},
                  {"numSteps", numSteps},
                  {"eta", eta},
                  {"data", data},
                  {"gammaSamples", gammaSamples},
                  {"estimator", choiceId(kGammaEstimators, estimator)},
                  {"trajectory", choiceId(kGaussianTrajectories, trajectory)},
                  {"pathSteps", pathSteps},
                  {"seed", std::to_string(seed)},  // 64 bits do not fit a JSON double
                  {"sampler", choiceId(kSamplers, sampler)},
                  {"compareSampler",
                   compareSampler ? choiceId(kSamplers, *compareSampler) : std::string("none")},
                  {"clipFirst", clipFirst},
                  {"particleCount", particleCount}};
    if (!model.empty()) {
        o["model"] = model;
    }
    if (!trajectoryList.empty()) {
        o["trajectoryList"] = trajectoryList;
    }
    // Optional, written only when set, so that files without them read as before.
    if (leadingOffset != 0) {
        o["leadingOffset"] = leadingOffset;
    }
    if (!diffusersClass.empty()) {
        o["diffusersClass"] = diffusersClass;
    }
    if (karrasRho != 7.0) {
        o["karrasRho"] = karrasRho;
    }
    if (dpVariant != gaussian::DpVariant::Clipped) {
        o["dpVariant"] = choiceId(kDpVariants, dpVariant);
    }
    if (!importedGamma.empty()) {
        o["importedGamma"] = importedGamma;
        o["importedGammaName"] = importedGammaName;
    }
    if (lab != LabSettings{}) {
        o["lab"] = lab.toJson();
    }
    if (pathStepsCapped(pathSteps, pathStepsAsked, numSteps)) {
        o["pathStepsAsked"] = pathStepsAsked;
    }
    return o;
}

namespace {

Status readSamplers(const io::JsonFields& read, GaussianParams& p) {
    if (auto s = readChoice(read, "sampler", kSamplers, p.sampler); !s) return s;
    if (!read.has("compareSampler")) return {};
    auto text = read.string("compareSampler");
    if (!text) return text.error();
    if (*text == "none") {
        p.compareSampler.reset();
        return {};
    }
    auto kind = parseChoice(kSamplers, *text, read.prefix() + "compareSampler");
    if (!kind) {
        return invalidArgument(read.prefix() + "compareSampler", *text,
                               "expected none, ddpm, ddim, analytic-ddpm or analytic-ddim");
    }
    p.compareSampler = *kind;
    return {};
}

// "estimator", or the true/false "denoisingEstimator" of the first files (false was score).
Status readEstimator(const io::JsonFields& read, GaussianParams& p) {
    if (read.has("estimator")) return readChoice(read, "estimator", kGammaEstimators, p.estimator);
    bool denoising = true;
    if (auto s = read.booleanOr("denoisingEstimator", denoising); !s) return s;
    p.estimator = denoising ? GammaEstimatorChoice::Auto : GammaEstimatorChoice::Score;
    return {};
}

}  // namespace

namespace {

// validate() names the fields as the panel does (N, M, K, gamma[n] with n = 1..N); a file's
// reader names them as the file does (numSteps, gammaSamples, pathSteps, importedGamma[i] with
// i = 0..N−1).
std::string gaussianFileKey(const std::string& field) {
    if (field == "N") return "numSteps";
    if (field == "M") return "gammaSamples";
    if (field == "K") return "pathSteps";
    if (field == "particles") return "particleCount";
    if (field == "gamma") return "importedGamma";
    if (field.rfind("gamma[", 0) == 0 && field.back() == ']') {
        const long n = std::strtol(field.c_str() + 6, nullptr, 10);
        return "importedGamma[" + std::to_string(n - 1) + "]";
    }
    return field;
}

}  // namespace

Result<GaussianParams> GaussianParams::fromJson(const io::Json& json) {
    const io::JsonFields read(json, "gaussian.");
    GaussianParams p;
    for (Status s : {read.stringOr("schedule", p.schedule), read.integerOr("numSteps", p.numSteps),
                     read.numberOr("eta", p.eta), read.stringOr("data", p.data),
                     read.integerOr("gammaSamples", p.gammaSamples), readEstimator(read, p),
                     readChoice(read, "trajectory", kGaussianTrajectories, p.trajectory),
                     read.stringOr("trajectoryList", p.trajectoryList),
                     read.integerOr("pathSteps", p.pathSteps),
                     read.integerOr("pathStepsAsked", p.pathStepsAsked),
                     readChoice(read, "dpVariant", kDpVariants, p.dpVariant),
                     read.integerOr("leadingOffset", p.leadingOffset),
                     read.stringOr("diffusersClass", p.diffusersClass),
                     read.numberOr("karrasRho", p.karrasRho), read.stringOr("model", p.model),
                     read.stringOr("importedGammaName", p.importedGammaName), readSamplers(read, p),
                     read.booleanOr("clipFirst", p.clipFirst),
                     read.integerOr("particleCount", p.particleCount)}) {
        if (!s) return s.error();
    }
    if (const io::Json* raw = read.raw("importedGamma"); raw != nullptr && raw->is_array()) {
        if (Status s = limits::checkCount(limits::kSteps, "gaussian.importedGamma", raw->size());
            !s && !raw->empty()) {
            return s.error();
        }
    }
    if (read.has("importedGamma")) {
        auto values = read.numbers("importedGamma");
        if (!values) return values.error();
        p.importedGamma = *values;
    }
    if (const io::Json* lab = read.raw("lab")) {
        auto settings = LabSettings::fromJson(*lab);
        if (!settings) {
            Error e = settings.error();
            e.field = "gaussian." + e.field;
            return e;
        }
        p.lab = std::move(settings).value();
    }
    if (read.has("seed")) {
        auto seed = read.textUint64("seed");
        if (!seed) return seed.error();
        p.seed = *seed;
    }
    if (auto valid = p.validate(); !valid) {
        Error e = valid.error();
        e.field = "gaussian." + gaussianFileKey(e.field);
        return e;
    }
    return p;
}

std::vector<std::string> GaussianParams::provenance() const {
    auto file = [](const std::string& path) {
        const size_t slash = path.find_last_of('/');
        return slash == std::string::npos ? path : path.substr(slash + 1);
    };
    const std::string gamma =
        importedGamma.empty()
            ? "estimated, M = " + std::to_string(gammaSamples) + ", estimator " +
                  choiceId(kGammaEstimators, estimator) + ", seed " + std::to_string(seed)
            : "imported (" + file(importedGammaName) + ")";
    return {"process: gaussian",
            "schedule: " + schedule,
            "N: " + std::to_string(numSteps),
            "eta: " + shortestText(eta),
            "data: " + data,
            "model: " + (model.empty() ? std::string("exact oracle of the data") : file(model)),
            "gamma: " + gamma,
            "trajectory: " + trajectorySpec(),
            "dp cost: " + choiceId(kDpVariants, dpVariant),
            "sampler: " + choiceId(kSamplers, sampler),
            "compare sampler: " +
                (compareSampler ? choiceId(kSamplers, *compareSampler) : std::string("none")),
            "seed: " + std::to_string(seed)};
}

}  // namespace core::project
