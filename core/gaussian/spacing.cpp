// SPDX-License-Identifier: MIT
#include "core/gaussian/spacing.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace core::gaussian {
namespace {

// "a,b,c" split at commas (empty parts kept).
std::vector<std::string> splitCommas(const std::string& text) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos
                                                                     : comma - start));
        if (comma == std::string::npos) {
            return parts;
        }
        start = comma + 1;
    }
}

Result<long long> parseWhole(const std::string& text, const std::string& field,
                             const std::string& expected) {
    errno = 0;
    char* end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE) {
        return invalidArgument(field, text, expected);
    }
    return value;
}

// λ_n = ½·log(ᾱ_n/β̄_n) for n = 1..N (entry 0 unused), non-increasing in n.
Result<std::vector<double>> logSnrs(const schedule::GaussianSchedule& schedule) {
    const int numSteps = schedule.numSteps();
    std::vector<double> lambda(static_cast<size_t>(numSteps) + 1, 0.0);
    for (int n = 1; n <= numSteps; ++n) {
        lambda[n] = 0.5 * (schedule.logAlphaBar(n) - std::log(schedule.betaBar(n)));
        if (!std::isfinite(lambda[n])) {
            return makeError(ErrorCode::NumericalError, "log-SNR λ_" + std::to_string(n),
                             formatValue(lambda[n]), "the schedule's log-SNR is not finite");
        }
    }
    return lambda;
}

// The n in 1..N whose value[n] (non-increasing in n) is nearest to `target`; ties: the smaller n.
int nearestNonIncreasing(const std::vector<double>& value, double target) {
    const int numSteps = static_cast<int>(value.size()) - 1;
    // First n with value[n] ≤ target; every n before it has value[n] > target.
    const auto it = std::partition_point(value.begin() + 1, value.end(),
                                         [target](double v) { return v > target; });
    const int below = static_cast<int>(it - value.begin());  // N + 1 when none
    if (below == 1) {
        return 1;
    }
    int above = below - 1;
    if (below <= numSteps && target - value[below] < value[above] - target) {
        return below;
    }
    // value[above] is nearest (or tied): take the smallest n with the same value.
    while (above > 1 && value[above - 1] == value[above]) {
        --above;
    }
    return above;
}

// linspace, leading and trailing as diffusers' set_timesteps computes them (n = t + 1,
// increasing); they need only N.
std::vector<int> diffusersSpacing(const SpacingSpec& spec, int numSteps) {
    const int k = spec.numTimesteps;
    std::vector<int> n(static_cast<size_t>(k));
    switch (spec.kind) {
        case SpacingKind::Linspace: {
            // NumPy's linspace(0, N − 1, P): i·step, the last value exactly N − 1; then rounded.
            // DDIM, DDPM, Euler: P = K points. DPMSolverMultistep, UniPC: P = K + 1, t = 0
            // dropped. Euler rounds to float32 first (its fractional timesteps).
            const bool drop = dropsLastPoint(spec.diffusersClass);
            const int points = drop ? k + 1 : k;
            // One point (K = 1 without the drop) is NumPy's [0]: linspace's start.
            const double step = points > 1 ? static_cast<double>(numSteps - 1) / (points - 1) : 0.0;
            const bool euler = spec.diffusersClass == kEulerClass;
            for (int i = 0; i < k; ++i) {
                const int p = drop ? i + 1 : i;
                double t = p == points - 1 && points > 1 ? numSteps - 1.0 : p * step;
                if (euler) t = static_cast<double>(static_cast<float>(t));
                n[i] = static_cast<int>(std::nearbyint(t)) + 1;
            }
            break;
        }
        case SpacingKind::Leading: {
            // i·⌊N/K⌋ + O for i = 0..K − 1; DPMSolverMultistep, UniPC: i·⌊N/(K + 1)⌋ + O for
            // i = 1..K (their K + 1 points without the first).
            const bool drop = dropsLastPoint(spec.diffusersClass);
            const int ratio = numSteps / (drop ? k + 1 : k);
            for (int i = 0; i < k; ++i) {
                const long long p = drop ? i + 1 : i;
                n[i] = static_cast<int>(p * ratio + spec.offset) + 1;
            }
            break;
        }
        case SpacingKind::Trailing: {
            // diffusers' np.round(np.arange(N, 0, −N/K)) − 1 as NumPy computes it: the first
            // two values N and N − N/K, then N + i·δ with δ = (N − N/K) − N (DOUBLE_fill), each
            // rounded half to even. Where an exact tie lands an ulp off (N = 250, K = 76,
            // i = 57: 62.50000000000001) this gives diffusers' t, not the exact rounding. The
            // first K values are kept where arange yields K + 1 (N = 1000, K = 61).
            const double start = numSteps;
            const double ratio = static_cast<double>(numSteps) / k;
            const double second = start + -ratio;
            const double delta = second - start;
            for (int i = 0; i < k; ++i) {
                const double v = i == 0 ? start : i == 1 ? second : start + i * delta;
                n[k - 1 - i] = static_cast<int>(std::nearbyint(v));  // t + 1
            }
            break;
        }
        default:
            break;
    }
    return n;
}

}  // namespace

std::vector<double> eulerTimesteps(const SpacingSpec& spec, int numSteps) {
    if (spec.diffusersClass != kEulerClass) return {};
    const int k = spec.numTimesteps;
    std::vector<double> t(static_cast<size_t>(k));
    if (spec.kind == SpacingKind::Linspace) {
        const double step = k > 1 ? static_cast<double>(numSteps - 1) / (k - 1) : 0.0;
        for (int i = 0; i < k; ++i) {
            const double v = i == k - 1 && k > 1 ? numSteps - 1.0 : i * step;
            t[static_cast<size_t>(k - 1 - i)] = static_cast<double>(static_cast<float>(v));
        }
        return t;
    }
    // leading and trailing: whole values, those of spacingTimesteps.
    const std::vector<int> whole = diffusersSpacing(spec, numSteps);
    for (int i = 0; i < k; ++i) t[static_cast<size_t>(k - 1 - i)] = whole[i] - 1;
    return t;
}

bool isSpacingKind(const std::string& kind) {
    return kind == "linspace" || kind == "leading" || kind == "trailing" || kind == "logsnr" ||
           kind == "karras" || kind == "ays:sd15" || kind == "ays:sdxl";
}

std::pair<std::string, std::string> splitTrajectoryKind(const std::string& spec) {
    size_t colon = spec.find(':');
    if (colon != std::string::npos && spec.compare(0, colon, "ays") == 0) {
        colon = spec.find(':', colon + 1);
    }
    if (colon == std::string::npos) return {spec, ""};
    return {spec.substr(0, colon), spec.substr(colon + 1)};
}

int minNumTimesteps(const std::string& kind) {
    return kind == "linspace" || kind == "leading" || kind == "trailing" ? 1 : 2;
}

Result<int> parseNumTimesteps(const std::string& text, const std::string& spec,
                              const std::string& kind, int numSteps) {
    Result<long long> value = parseWhole(text, "trajectory", "");
    if (!value) {
        return invalidArgument("trajectory", spec, "expected " + kind + ":K with a whole K");
    }
    const int least = minNumTimesteps(kind);
    if (*value < least || *value > numSteps) {  // checked in 64 bits: the cast below is exact
        return invalidArgument("K", text,
                               "the number of timesteps must lie in " + std::to_string(least) +
                                   "..N = " + std::to_string(numSteps));
    }
    return static_cast<int>(*value);
}

Result<SpacingSpec> parseSpacing(const std::string& kind, const std::string& rest, int numSteps) {
    SpacingSpec spec;
    if (kind == "linspace") spec.kind = SpacingKind::Linspace;
    else if (kind == "leading") spec.kind = SpacingKind::Leading;
    else if (kind == "trailing") spec.kind = SpacingKind::Trailing;
    else if (kind == "logsnr") spec.kind = SpacingKind::LogSnr;
    else if (kind == "karras") spec.kind = SpacingKind::Karras;
    else if (kind == "ays:sd15") spec.kind = SpacingKind::AysSd15;
    else if (kind == "ays:sdxl") spec.kind = SpacingKind::AysSdxl;
    else return invalidArgument("trajectory", kind, "not a timestep spacing");
    const bool ays = spec.kind == SpacingKind::AysSd15 || spec.kind == SpacingKind::AysSdxl;
    const std::vector<std::string> parts = splitCommas(ays && rest.empty() ? "10" : rest);
    Result<int> k = parseNumTimesteps(parts.front(), kind + ":" + rest, kind, numSteps);
    if (!k) {
        return k.error();
    }
    spec.numTimesteps = *k;
    // The options each kind takes, each at most once.
    std::vector<std::string> allowed;
    if (spec.kind == SpacingKind::Leading) allowed = {"offset", "class"};
    if (spec.kind == SpacingKind::Linspace || spec.kind == SpacingKind::Trailing) allowed = {"class"};
    if (spec.kind == SpacingKind::Karras) allowed = {"rho"};
    std::vector<std::string> seen;
    std::string offsetText;
    for (size_t i = 1; i < parts.size(); ++i) {
        const std::string& part = parts[i];
        const size_t eq = part.find('=');
        const std::string name = part.substr(0, eq);
        const bool known = std::find(allowed.begin(), allowed.end(), name) != allowed.end();
        if (eq == std::string::npos || !known ||
            std::find(seen.begin(), seen.end(), name) != seen.end()) {
            std::string options;
            for (const std::string& a : allowed) options += (options.empty() ? "" : ", ") + a + "=…";
            return invalidArgument("trajectory", part,
                                   allowed.empty()
                                       ? kind + ":K takes no options"
                                       : kind + ":K takes each of these options at most once: " +
                                             options);
        }
        seen.push_back(name);
        const std::string text = part.substr(eq + 1);
        if (name == "offset") {
            offsetText = text;
        } else if (name == "class") {
            if (!isDiffusersClass(text)) {
                std::string classes;
                for (const char* c : kDiffusersClasses) {
                    classes += (classes.empty() ? "" : ", ") + std::string(c);
                }
                return invalidArgument("class", text, "expected one of " + classes);
            }
            spec.diffusersClass = text;
        } else {
            errno = 0;
            char* end = nullptr;
            const double rho = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(rho) ||
                rho <= 0.0) {
                return invalidArgument("rho", text, "ρ must be a finite number > 0");
            }
            spec.rho = rho;
        }
    }
    if (!offsetText.empty() || std::find(seen.begin(), seen.end(), "offset") != seen.end()) {
        Result<long long> offset = parseWhole(offsetText, "offset", "a whole offset expected");
        if (!offset) {
            return offset.error();
        }
        // The largest 0-based timestep, i·⌊N/K⌋ + O at i = K − 1 (or i·⌊N/(K + 1)⌋ at i = K
        // for the classes that drop a point), must stay in 0..N − 1 (n = t + 1 in 1..N).
        const long long k = spec.numTimesteps;
        const long long last = dropsLastPoint(spec.diffusersClass)
                                   ? k * (numSteps / (k + 1))
                                   : (k - 1) * (numSteps / k);
        const long long maxOffset = numSteps - 1 - last;
        if (*offset < 0 || *offset > maxOffset) {
            return invalidArgument("offset", offsetText,
                                   "leading:" + std::to_string(spec.numTimesteps) +
                                       " needs 0 ≤ offset ≤ " + std::to_string(maxOffset) +
                                       " to keep its timesteps in 1..N = " +
                                       std::to_string(numSteps));
        }
        spec.offset = *offset;
    }
    return spec;
}

int makeDistinct(std::vector<int>& timesteps, int numSteps) {
    const std::vector<int> before = [&] {
        std::vector<int> sorted = timesteps;
        std::sort(sorted.begin(), sorted.end());
        return sorted;
    }();
    timesteps = before;
    for (size_t i = 1; i < timesteps.size(); ++i) {
        timesteps[i] = std::max(timesteps[i], timesteps[i - 1] + 1);
    }
    if (!timesteps.empty()) {
        timesteps.back() = std::min(timesteps.back(), numSteps);
        for (size_t i = timesteps.size() - 1; i-- > 0;) {
            timesteps[i] = std::min(timesteps[i], timesteps[i + 1] - 1);
        }
    }
    int moved = 0;
    for (size_t i = 0; i < timesteps.size(); ++i) {
        moved += timesteps[i] != before[i] ? 1 : 0;
    }
    return moved;
}

Result<Spacing> spacingTimesteps(const SpacingSpec& spec,
                                 const schedule::GaussianSchedule& schedule) {
    const int numSteps = schedule.numSteps();
    const int k = spec.numTimesteps;
    const bool diffusers = spec.kind == SpacingKind::Linspace || spec.kind == SpacingKind::Leading ||
                           spec.kind == SpacingKind::Trailing;
    if (k < (diffusers ? 1 : 2) || k > numSteps) {
        return invalidArgument("K", std::to_string(k),
                               std::string("the number of timesteps must lie in ") + (diffusers ? "1" : "2") +
                                   "..N = " + std::to_string(numSteps));
    }
    Spacing result;
    result.timesteps.resize(static_cast<size_t>(k));
    std::vector<int>& n = result.timesteps;
    switch (spec.kind) {
        case SpacingKind::Linspace:
        case SpacingKind::Leading:
        case SpacingKind::Trailing:
            n = diffusersSpacing(spec, numSteps);
            break;
        case SpacingKind::AysSd15:
        case SpacingKind::AysSdxl: {
            const int* list = spec.kind == SpacingKind::AysSd15 ? kAysSd15 : kAysSdxl;
            if (list[0] + 1 > numSteps) {
                return invalidArgument("N", std::to_string(numSteps),
                                       "the Align Your Steps lists need N ≥ 1000 (they end at "
                                       "t = 999)");
            }
            if (k == 10) {
                // The published list itself, n = t + 1.
                for (int i = 0; i < 10; ++i) n[i] = list[9 - i] + 1;
                break;
            }
            if (schedule.zeroTerminalSnr() && list[0] + 1 == numSteps) {
                return invalidArgument("trajectory", spec.kind == SpacingKind::AysSd15
                                                         ? "ays:sd15:" + std::to_string(k)
                                                         : "ays:sdxl:" + std::to_string(k),
                                       "needs a finite σ at the list's first timestep; the "
                                       "zero-SNR schedule has ᾱ_N = 0 (use K = 10)");
            }
            Result<std::vector<double>> lambda = logSnrs(schedule);
            if (!lambda) return lambda.error();
            const std::vector<double>& l = *lambda;
            // The AYS how-to's loglinear_interp: log σ (= −λ) linear over the 11 published
            // noise levels — the list's 10 timesteps and σ_min at t = 0 (n = 1) — sampled at
            // K + 1 evenly spaced positions, the last (σ_min) dropped; then the nearest
            // timestep. Position x = 10·i/K counts from the list's first (largest) timestep;
            // its whole part and fraction are taken in integers, so that a position on a
            // published level is that level exactly.
            const auto nodeLambda = [&](int j) { return j == 10 ? l[1] : l[list[j] + 1]; };
            for (int i = 0; i < k; ++i) {
                const int j = 10 * i / k;
                const double fraction = static_cast<double>(10 * i - j * k) / k;
                const double low = nodeLambda(j);
                const double high = nodeLambda(j + 1);
                n[k - 1 - i] = nearestNonIncreasing(l, low + (high - low) * fraction);
            }
            result.moved = makeDistinct(n, numSteps);
            break;
        }
        case SpacingKind::LogSnr:
        case SpacingKind::Karras: {
            if (schedule.zeroTerminalSnr()) {
                // λ_N = −∞ and σ_N = ∞: the targets would all collapse to one end.
                const bool logSnr = spec.kind == SpacingKind::LogSnr;
                return invalidArgument(
                    "trajectory", (logSnr ? "logsnr:" : "karras:") + std::to_string(k),
                    logSnr ? "needs a finite λ_N = ½·log(ᾱ_N/β̄_N); the zero-SNR schedule has "
                             "ᾱ_N = 0 (use linspace, trailing, even or dp)"
                           : "needs a finite σ_N = √(β̄_N/ᾱ_N); the zero-SNR schedule has "
                             "ᾱ_N = 0 (use linspace, trailing, even or dp)");
            }
            Result<std::vector<double>> lambda = logSnrs(schedule);
            if (!lambda) {
                return lambda.error();
            }
            const std::vector<double>& l = *lambda;
            for (int i = 0; i < k; ++i) {
                const double fraction = static_cast<double>(i) / (k - 1);
                double target = 0.0;  // in λ = −log σ
                if (spec.kind == SpacingKind::LogSnr) {
                    target = l[1] + (l[numSteps] - l[1]) * fraction;
                } else {
                    // σ*_i = (σ_N^{1/ρ} + i/(K−1)·(σ_1^{1/ρ} − σ_N^{1/ρ}))^ρ, log σ_n = −λ_n.
                    const double high = std::exp(-l[numSteps] / spec.rho);
                    const double low = std::exp(-l[1] / spec.rho);
                    target = -spec.rho * std::log(high + fraction * (low - high));
                }
                n[i] = nearestNonIncreasing(l, target);
            }
            result.moved = makeDistinct(n, numSteps);
            break;
        }
    }
    for (size_t i = 0; i < n.size(); ++i) {
        if (n[i] < 1 || n[i] > numSteps || (i > 0 && n[i] <= n[i - 1])) {
            return makeError(ErrorCode::NumericalError, "trajectory", std::to_string(n[i]),
                             "the spacing did not give distinct timesteps in 1..N");
        }
    }
    return result;
}

std::string trajectoryEndsNote(const std::vector<int>& timesteps, int numSteps) {
    if (timesteps.empty()) {
        return {};
    }
    std::string note;
    const int last = timesteps.back();
    const int first = timesteps.front();
    if (last < numSteps) {
        note = "trajectory ends at n = " + std::to_string(last) + " < N = " +
               std::to_string(numSteps) + ": sampling starts from N(0, I) although q(x_" +
               std::to_string(last) + "|x_0) is not noise";
    }
    if (first > 1) {
        note += std::string(note.empty() ? "" : "; ") + "trajectory starts at n = " +
                std::to_string(first) + " > 1: the decoder reads x̂_0 from x_" +
                std::to_string(first);
    }
    return note;
}

}  // namespace core::gaussian
