// SPDX-License-Identifier: MIT
#include "core/schedule/gaussian_schedule.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "core/io/csv.h"
#include "core/schedule/diffusers_config.h"

namespace core::schedule {
namespace {

// numpy.linspace(start, stop, num)[k]: start + k·step, the last point set to stop exactly.
double linspaceAt(double start, double stop, int num, int k) {
    if (num == 1) {
        return start;
    }
    if (k == num - 1) {
        return stop;
    }
    const double step = (stop - start) / (num - 1);
    return start + k * step;
}

Status checkSteps(int numSteps) {
    if (numSteps < 1) {
        return invalidArgument("N", std::to_string(numSteps), "needs at least 1 timestep");
    }
    return {};
}

}  // namespace

double GaussianSchedule::alphaTS(int s, int t) const {
    return std::exp(m_logAlphaBar[t] - m_logAlphaBar[s]);
}

double GaussianSchedule::betaTS(int s, int t) const {
    return -std::expm1(m_logAlphaBar[t] - m_logAlphaBar[s]);
}

double GaussianSchedule::betaTildeST(int s, int t) const {
    if (s == 0) {
        return 0.0;
    }
    return betaTS(s, t) * m_betaBar[s] / m_betaBar[t];
}

Result<GaussianSchedule> GaussianSchedule::fromBetas(const std::vector<double>& betas,
                                                     const std::string& field) {
    if (betas.empty()) {
        return invalidArgument(field, "0 values", "a schedule needs at least one β_n");
    }
    GaussianSchedule schedule;
    const size_t n = betas.size();
    schedule.m_beta.assign(n + 1, 0.0);
    schedule.m_alphaBar.assign(n + 1, 1.0);
    schedule.m_betaBar.assign(n + 1, 0.0);
    schedule.m_logAlphaBar.assign(n + 1, 0.0);
    for (size_t i = 1; i <= n; ++i) {
        const double b = betas[i - 1];
        // Written so that NaN fails too.
        if (!(b > 0.0 && b < 1.0)) {
            return invalidArgument(field + "[" + std::to_string(i) + "]", std::to_string(b),
                                   "β_n must lie in the open interval (0, 1)");
        }
        schedule.m_beta[i] = b;
        schedule.m_logAlphaBar[i] = schedule.m_logAlphaBar[i - 1] + std::log1p(-b);
        schedule.m_alphaBar[i] = std::exp(schedule.m_logAlphaBar[i]);
        schedule.m_betaBar[i] = -std::expm1(schedule.m_logAlphaBar[i]);
    }
    if (!(schedule.m_alphaBar[n] > 0.0)) {
        return invalidArgument(field, std::to_string(n) + " values",
                               "ᾱ_N underflows to 0: the schedule destroys the data too fast");
    }
    return schedule;
}

Result<GaussianSchedule> GaussianSchedule::fromTables(const std::vector<double>& betas,
                                                     const std::vector<double>& alphaBars,
                                                     const std::string& field) {
    if (betas.empty() || betas.size() != alphaBars.size()) {
        return invalidArgument(field, std::to_string(betas.size()) + " values",
                               "a schedule needs as many ᾱ_n as β_n, at least one");
    }
    GaussianSchedule schedule;
    const size_t n = betas.size();
    schedule.m_beta.assign(n + 1, 0.0);
    schedule.m_alphaBar.assign(n + 1, 1.0);
    schedule.m_betaBar.assign(n + 1, 0.0);
    schedule.m_logAlphaBar.assign(n + 1, 0.0);
    for (size_t i = 1; i <= n; ++i) {
        const double b = betas[i - 1];
        const double a = alphaBars[i - 1];
        const bool zeroSnrEnd = i == n && n >= 2 && b == 1.0 && a == 0.0;
        // Written so that NaN fails too.
        if (!zeroSnrEnd && !(b > 0.0 && b < 1.0)) {
            return invalidArgument(field + " β[" + std::to_string(i) + "]", formatValue(b),
                                   "β_n must lie in the open interval (0, 1)");
        }
        if (!zeroSnrEnd && !(a > 0.0 && a < schedule.m_alphaBar[i - 1])) {
            return invalidArgument(field + " ᾱ[" + std::to_string(i) + "]", formatValue(a),
                                   "ᾱ_n must decrease strictly and stay in (0, 1)");
        }
        schedule.m_beta[i] = b;
        schedule.m_alphaBar[i] = a;
        schedule.m_betaBar[i] = 1.0 - a;
        schedule.m_logAlphaBar[i] = zeroSnrEnd ? -std::numeric_limits<double>::infinity()
                                               : std::log(a);
    }
    return schedule;
}

Result<GaussianSchedule> GaussianSchedule::withZeroTerminalSnr(const GaussianSchedule& base,
                                                               const std::string& spec) {
    const int numSteps = base.numSteps();
    if (numSteps < 2) {
        return invalidArgument("schedule", spec, "the zero-SNR transform needs N ≥ 2");
    }
    GaussianSchedule schedule = base;
    const double s1 = std::exp(0.5 * base.m_logAlphaBar[1]);
    const double sN = std::exp(0.5 * base.m_logAlphaBar[numSteps]);
    const double span = s1 - sN;
    // log ᾱ'_n = log ᾱ_1 + 2·log((s_n − s_N)/(s_1 − s_N)): exactly log ᾱ_1 at n = 1, −∞ at N.
    for (int n = 1; n <= numSteps; ++n) {
        const double sn = n == 1 ? s1 : std::exp(0.5 * base.m_logAlphaBar[n]);
        const double ratio = n == numSteps ? 0.0 : (sn - sN) / span;
        schedule.m_logAlphaBar[n] = base.m_logAlphaBar[1] + 2.0 * std::log(ratio);
        schedule.m_alphaBar[n] = std::exp(schedule.m_logAlphaBar[n]);
        schedule.m_betaBar[n] = -std::expm1(schedule.m_logAlphaBar[n]);
        schedule.m_beta[n] = -std::expm1(schedule.m_logAlphaBar[n] - schedule.m_logAlphaBar[n - 1]);
        const bool last = n == numSteps;
        if (!(schedule.m_beta[n] > 0.0 && (last ? schedule.m_beta[n] == 1.0
                                                : schedule.m_beta[n] < 1.0))) {
            return invalidArgument("schedule", spec,
                                   "the zero-SNR transform gives β_" + std::to_string(n) + " = " +
                                       std::to_string(schedule.m_beta[n]) + ", outside (0, 1)");
        }
    }
    return schedule;
}

Result<GaussianSchedule> linearSchedule(int numSteps) {
    if (Status s = checkSteps(numSteps); !s) {
        return s.error();
    }
    const double scale = 1000.0 / numSteps;
    std::vector<double> betas(static_cast<size_t>(numSteps));
    for (int k = 0; k < numSteps; ++k) {
        betas[k] = linspaceAt(scale * 1e-4, scale * 0.02, numSteps, k);
    }
    return GaussianSchedule::fromBetas(betas, "linear schedule β");
}

Result<GaussianSchedule> cosineSchedule(int numSteps) {
    if (Status s = checkSteps(numSteps); !s) {
        return s.error();
    }
    auto f = [](double u) {
        const double c = std::cos((u + 0.008) / 1.008 * std::numbers::pi / 2.0);
        return c * c;
    };
    std::vector<double> betas(static_cast<size_t>(numSteps));
    for (int n = 1; n <= numSteps; ++n) {
        const double ratio = f(static_cast<double>(n) / numSteps) /
                             f(static_cast<double>(n - 1) / numSteps);
        betas[n - 1] = std::min(1.0 - ratio, 0.999);
    }
    return GaussianSchedule::fromBetas(betas, "cosine schedule β");
}

Result<GaussianSchedule> scaledLinearSchedule(int numSteps, double betaStart, double betaEnd) {
    if (Status s = checkSteps(numSteps); !s) {
        return s.error();
    }
    if (!(betaStart > 0.0 && betaEnd < 1.0 && betaStart <= betaEnd)) {
        return invalidArgument("scaled-linear", std::to_string(betaStart) + ".." +
                                                    std::to_string(betaEnd),
                               "needs 0 < β_start ≤ β_end < 1");
    }
    std::vector<double> betas(static_cast<size_t>(numSteps));
    for (int k = 0; k < numSteps; ++k) {
        const double r = linspaceAt(std::sqrt(betaStart), std::sqrt(betaEnd), numSteps, k);
        betas[k] = r * r;
    }
    return GaussianSchedule::fromBetas(betas, "scaled-linear schedule β");
}

Result<GaussianSchedule> sigmoidSchedule(int numSteps, double betaStart, double betaEnd) {
    if (Status s = checkSteps(numSteps); !s) {
        return s.error();
    }
    if (!(betaStart > 0.0 && betaEnd < 1.0 && betaStart <= betaEnd)) {
        return invalidArgument("sigmoid", std::to_string(betaStart) + ".." +
                                              std::to_string(betaEnd),
                               "needs 0 < β_start ≤ β_end < 1");
    }
    std::vector<double> betas(static_cast<size_t>(numSteps));
    for (int k = 0; k < numSteps; ++k) {
        const double x = linspaceAt(-6.0, 6.0, numSteps, k);
        betas[k] = betaStart + (betaEnd - betaStart) / (1.0 + std::exp(-x));
    }
    return GaussianSchedule::fromBetas(betas, "sigmoid schedule β");
}

Result<GaussianSchedule> customScheduleFromCsv(const std::string& path) {
    Result<io::CsvTable> table = io::readCsv(path);
    if (!table) {
        return table.error();
    }
    int betaColumn = -1;
    int alphaBarColumn = -1;
    int nColumn = -1;
    for (size_t c = 0; c < table->header.size(); ++c) {
        if (table->header[c] == "beta") {
            betaColumn = static_cast<int>(c);
        } else if (table->header[c] == "alpha_bar") {
            alphaBarColumn = static_cast<int>(c);
        } else if (table->header[c] == "n") {
            nColumn = static_cast<int>(c);
        }
    }
    if (betaColumn < 0 && alphaBarColumn < 0) {
        return makeError(ErrorCode::ParseError, path, "",
                         "a custom schedule needs a 'beta' or an 'alpha_bar' column");
    }
    if (table->rows.empty()) {
        return makeError(ErrorCode::ParseError, path, "", "the schedule has no rows");
    }
    std::vector<double> betas;
    double previousAlphaBar = 1.0;
    for (size_t r = 0; r < table->rows.size(); ++r) {
        if (nColumn >= 0) {
            Result<long long> n = io::fieldAsInt(*table, r, nColumn);
            if (!n) {
                return n.error();
            }
            if (*n != static_cast<long long>(r) + 1) {
                return makeError(ErrorCode::ParseError,
                                 path + ":" + std::to_string(table->lineNumbers[r]),
                                 std::to_string(*n),
                                 "n must count 1, 2, … without gaps (expected " +
                                     std::to_string(r + 1) + ")");
            }
        }
        const int column = betaColumn >= 0 ? betaColumn : alphaBarColumn;
        Result<double> value = io::fieldAsDouble(*table, r, column);
        if (!value) {
            return value.error();
        }
        if (betaColumn >= 0) {
            betas.push_back(*value);
        } else {
            if (!(*value > 0.0 && *value < previousAlphaBar)) {
                return makeError(ErrorCode::ParseError,
                                 path + ":" + std::to_string(table->lineNumbers[r]),
                                 std::to_string(*value),
                                 "alpha_bar must decrease strictly and stay in (0, 1)");
            }
            betas.push_back(1.0 - *value / previousAlphaBar);
            previousAlphaBar = *value;
        }
    }
    return GaussianSchedule::fromBetas(betas, path);
}

ScheduleSpecParts splitScheduleSpec(const std::string& spec) {
    const std::string suffix = kZeroSnrSuffix;
    if (spec.size() > suffix.size() &&
        spec.compare(spec.size() - suffix.size(), suffix.size(), suffix) == 0) {
        return {spec.substr(0, spec.size() - suffix.size()), true};
    }
    return {spec, false};
}

Result<GaussianSchedule> gaussianScheduleFromSpec(const std::string& spec, int numSteps) {
    const ScheduleSpecParts parts = splitScheduleSpec(spec);
    if (parts.zeroSnr) {
        Result<GaussianSchedule> base = gaussianScheduleFromSpec(parts.base, numSteps);
        if (!base) {
            Error error = base.error();
            if (error.field == "schedule" && error.value == parts.base) {
                error.value = spec;  // name what was typed
            }
            return error;
        }
        return GaussianSchedule::withZeroTerminalSnr(*base, spec);
    }
    if (spec.rfind("csv:", 0) == 0) {
        Result<GaussianSchedule> schedule = customScheduleFromCsv(spec.substr(4));
        if (schedule && numSteps > 0 && schedule->numSteps() != numSteps) {
            return invalidArgument("steps", std::to_string(numSteps),
                                   "the schedule file has " +
                                       std::to_string(schedule->numSteps()) + " steps");
        }
        return schedule;
    }
    if (spec.rfind(kDiffusersPrefix, 0) == 0) {
        const std::string path = spec.substr(std::string(kDiffusersPrefix).size());
        Result<DiffusersConfig> config = readDiffusersConfig(path);
        if (!config) return config.error();
        // N is the config's: a different --steps is refused, never silently replaced.
        if (numSteps > 0 && config->numTrainTimesteps != numSteps) {
            return invalidArgument("steps", std::to_string(numSteps),
                                   path + " has num_train_timesteps = " +
                                       std::to_string(config->numTrainTimesteps));
        }
        return diffusersSchedule(*config, path);
    }
    if (spec == "linear") {
        return linearSchedule(numSteps);
    }
    if (spec == "cosine") {
        return cosineSchedule(numSteps);
    }
    if (spec == "scaled-linear") {
        return scaledLinearSchedule(numSteps);
    }
    if (spec == "sigmoid") {
        return sigmoidSchedule(numSteps);
    }
    return invalidArgument("schedule", spec,
                           "expected linear, cosine, scaled-linear, sigmoid, csv:FILE or "
                           "diffusers:FILE, optionally followed by ,zero-snr");
}

}  // namespace core::schedule
