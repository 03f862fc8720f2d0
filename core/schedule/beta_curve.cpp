// SPDX-License-Identifier: MIT
#include "core/schedule/beta_curve.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/io/csv.h"

namespace core::schedule {
namespace {

// Fritsch & Carlson (1980), "Monotone piecewise cubic interpolation": three-point slopes,
// zeroed at flat secants and scaled back into the monotonicity region α² + β² ≤ 9.
std::vector<double> fritschCarlsonSlopes(const std::vector<double>& x, const std::vector<double>& y) {
    const size_t n = x.size();
    std::vector<double> secant(n - 1);
    for (size_t k = 0; k + 1 < n; ++k) {
        secant[k] = (y[k + 1] - y[k]) / (x[k + 1] - x[k]);
    }
    std::vector<double> slope(n);
    slope[0] = secant[0];
    slope[n - 1] = secant[n - 2];
    for (size_t k = 1; k + 1 < n; ++k) {
        slope[k] = (secant[k - 1] * secant[k] <= 0.0) ? 0.0 : 0.5 * (secant[k - 1] + secant[k]);
    }
    for (size_t k = 0; k + 1 < n; ++k) {
        if (secant[k] == 0.0) {
            slope[k] = 0.0;
            slope[k + 1] = 0.0;
            continue;
        }
        const double a = slope[k] / secant[k];
        const double b = slope[k + 1] / secant[k];
        const double r = a * a + b * b;
        if (r > 9.0) {
            const double tau = 3.0 / std::sqrt(r);
            slope[k] = tau * a * secant[k];
            slope[k + 1] = tau * b * secant[k];
        }
    }
    return slope;
}

}  // namespace

BetaCurve::BetaCurve() = default;

double BetaCurve::operator()(double t) const {
    if (!(t > 0.0)) {
        return 0.0;  // also maps NaN to 0: callers validate times, the curve never returns NaN
    }
    if (t >= 1.0) {
        return 1.0;
    }
    switch (m_kind) {
        case BetaCurveKind::Linear:
            return t;
        case BetaCurveKind::Cosine: {
            constexpr double kS = 0.008;
            const auto f = [](double u) {
                const double c = std::cos((u + kS) / (1.0 + kS) * std::numbers::pi / 2.0);
                return c * c;
            };
            return std::clamp(1.0 - f(t) / f(0.0), 0.0, 1.0);
        }
        case BetaCurveKind::Power:
            return std::pow(t, m_exponent);
        case BetaCurveKind::Custom: {
            const auto it = std::upper_bound(m_knotT.begin(), m_knotT.end(), t);
            const size_t k = static_cast<size_t>(it - m_knotT.begin()) - 1;
            const double h = m_knotT[k + 1] - m_knotT[k];
            const double u = (t - m_knotT[k]) / h;
            // Cubic Hermite basis on [t_k, t_{k+1}].
            const double h00 = (1.0 + 2.0 * u) * (1.0 - u) * (1.0 - u);
            const double h10 = u * (1.0 - u) * (1.0 - u);
            const double h01 = u * u * (3.0 - 2.0 * u);
            const double h11 = u * u * (u - 1.0);
            const double value = h00 * m_knotBeta[k] + h10 * h * m_knotSlope[k] +
                                 h01 * m_knotBeta[k + 1] + h11 * h * m_knotSlope[k + 1];
            return std::clamp(value, m_knotBeta[k], m_knotBeta[k + 1]);
        }
        case BetaCurveKind::InformationLinear: {
            // I(β) is nonincreasing (data processing: P₀,ₜ' = P₀,ₜ P_{t,t'}), so bisection on β
            // finds the smallest β with I(β) ≤ (1 − t)·I(0) to machine precision.
            const auto& information = *m_information;
            const double target = (1.0 - t) * information(0.0);
            double lo = 0.0;
            double hi = 1.0;
            for (int iteration = 0; iteration < 200 && hi - lo > 0.0; ++iteration) {
                const double mid = 0.5 * (lo + hi);
                if (mid <= lo || mid >= hi) {
                    break;
                }
                if (information(mid) > target) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return 0.5 * (lo + hi);
        }
    }
    return t;
}

std::vector<double> BetaCurve::evaluate(const std::vector<double>& times) const {
    std::vector<double> betas(times.size());
    for (size_t i = 0; i < times.size(); ++i) {
        betas[i] = (*this)(times[i]);
    }
    // Information-linear bisection is monotone in t up to rounding; make it exactly so.
    for (size_t i = 1; i < betas.size(); ++i) {
        betas[i] = std::max(betas[i], betas[i - 1]);
    }
    return betas;
}

BetaCurve linearCurve() { return BetaCurve(); }

BetaCurve cosineCurve() {
    BetaCurve curve;
    curve.m_kind = BetaCurveKind::Cosine;
    curve.m_spec = "cosine";
    return curve;
}

Result<BetaCurve> powerCurve(double exponent) {
    if (!std::isfinite(exponent) || exponent <= 0.0) {
        return invalidArgument("power", formatValue(exponent),
                               "the exponent p of β(t) = t^p must be a finite number > 0");
    }
    BetaCurve curve;
    curve.m_kind = BetaCurveKind::Power;
    curve.m_exponent = exponent;
    curve.m_spec = "power:" + formatValue(exponent);
    return curve;
}

Result<BetaCurve> customCurve(std::vector<ControlPoint> points) {
    for (size_t i = 0; i < points.size(); ++i) {
        const std::string field = "points[" + std::to_string(i) + "]";
        const ControlPoint& p = points[i];
        if (!std::isfinite(p.t) || !std::isfinite(p.beta)) {
            return invalidArgument(field, formatValue(p.t) + "," + formatValue(p.beta),
                                   "a control point is not a finite number");
        }
        if (p.t < 0.0 || p.t > 1.0) {
            return invalidArgument(field + ".t", formatValue(p.t), "t must lie in [0, 1]");
        }
        if (p.beta < 0.0 || p.beta > 1.0) {
            return invalidArgument(field + ".beta", formatValue(p.beta), "β must lie in [0, 1]");
        }
        if (i > 0 && !(p.t > points[i - 1].t)) {
            return invalidArgument(field + ".t", formatValue(p.t),
                                   "control points are out of order: t must increase strictly "
                                   "(previous t = " + formatValue(points[i - 1].t) + ")");
        }
        if (i > 0 && p.beta < points[i - 1].beta) {
            return invalidArgument(field + ".beta", formatValue(p.beta),
                                   "β(t) must be nondecreasing (previous β = " +
                                       formatValue(points[i - 1].beta) + ")");
        }
    }
    if (!points.empty() && points.front().t == 0.0 && points.front().beta != 0.0) {
        return invalidArgument("points[0].beta", formatValue(points.front().beta),
                               "β(0) must be 0");
    }
    if (!points.empty() && points.back().t == 1.0 && points.back().beta != 1.0) {
        return invalidArgument("points[" + std::to_string(points.size() - 1) + "].beta",
                               formatValue(points.back().beta), "β(1) must be 1");
    }
    if (points.empty() || points.front().t > 0.0) {
        points.insert(points.begin(), ControlPoint{0.0, 0.0});
    }
    if (points.back().t < 1.0) {
        points.push_back(ControlPoint{1.0, 1.0});
    }
    BetaCurve curve;
    curve.m_kind = BetaCurveKind::Custom;
    curve.m_spec = "custom";
    for (const ControlPoint& p : points) {
        curve.m_knotT.push_back(p.t);
        curve.m_knotBeta.push_back(p.beta);
    }
    curve.m_knotSlope = fritschCarlsonSlopes(curve.m_knotT, curve.m_knotBeta);
    return curve;
}

Result<BetaCurve> informationLinearCurve(std::function<double(double)> information) {
    if (!information) {
        return invalidArgument("schedule", "info-linear",
                               "the information-linear schedule needs a data table");
    }
    const double total = information(0.0);
    if (!std::isfinite(total) || total <= 0.0) {
        return invalidArgument("schedule", "info-linear",
                               "the data has no entropy (I(X0;X0) = " + formatValue(total) +
                                   "), so I(X0;Xt) = (1 − t)·H(X0) defines no schedule");
    }
    BetaCurve curve;
    curve.m_kind = BetaCurveKind::InformationLinear;
    curve.m_spec = "info-linear";
    curve.m_information = std::make_shared<const std::function<double(double)>>(std::move(information));
    return curve;
}

Result<std::vector<ControlPoint>> readControlPoints(const std::string& path) {
    Result<io::CsvTable> table = io::readCsv(path);
    if (!table) {
        return table.error();
    }
    Result<int> tColumn = io::findColumn(*table, "t");
    if (!tColumn) {
        return tColumn.error();
    }
    Result<int> betaColumn = io::findColumn(*table, "beta");
    if (!betaColumn) {
        return betaColumn.error();
    }
    std::vector<ControlPoint> points;
    for (size_t row = 0; row < table->rows.size(); ++row) {
        Result<double> t = io::fieldAsDouble(*table, row, *tColumn);
        if (!t) {
            return t.error();
        }
        Result<double> beta = io::fieldAsDouble(*table, row, *betaColumn);
        if (!beta) {
            return beta.error();
        }
        points.push_back({*t, *beta});
    }
    if (Result<BetaCurve> curve = customCurve(points); !curve) {
        // Name the file line rather than the point index: that is what the user can edit.
        Error error = curve.error();
        const size_t open = error.field.find('[');
        const size_t close = error.field.find(']');
        if (open != std::string::npos && close != std::string::npos) {
            const size_t index = std::stoul(error.field.substr(open + 1, close - open - 1));
            if (index < table->lineNumbers.size()) {
                const std::string column = error.field.find(".beta") != std::string::npos
                                               ? " column 'beta'"
                                               : (error.field.find(".t") != std::string::npos
                                                      ? " column 't'"
                                                      : "");
                error.field = path + ":" + std::to_string(table->lineNumbers[index]) + column;
            }
        } else {
            error.field = path;
        }
        return error;
    }
    return points;
}

Result<BetaCurve> readCustomCurve(const std::string& path) {
    Result<std::vector<ControlPoint>> points = readControlPoints(path);
    if (!points) return points.error();
    return customCurve(std::move(points).value());
}

Result<BetaCurve> parseBetaCurve(const std::string& spec,
                                 const std::function<double(double)>& information,
                                 const std::string& field) {
    const size_t colon = spec.find(':');
    const std::string id = spec.substr(0, colon);
    const std::string parameter = colon == std::string::npos ? "" : spec.substr(colon + 1);
    const bool hasParameter = colon != std::string::npos;
    if (id == "linear" && !hasParameter) {
        return linearCurve();
    }
    if (id == "cosine" && !hasParameter) {
        return cosineCurve();
    }
    if (id == "power") {
        char* end = nullptr;
        const double exponent = std::strtod(parameter.c_str(), &end);
        if (parameter.empty() || end != parameter.c_str() + parameter.size()) {
            return makeError(ErrorCode::ParseError, field, spec,
                             "the exponent of power:P is not a number");
        }
        Result<BetaCurve> curve = powerCurve(exponent);
        if (!curve) {
            return invalidArgument(field, spec, curve.error().message);
        }
        return curve;
    }
    if (id == "custom" && !parameter.empty()) {
        return readCustomCurve(parameter);
    }
    if (id == "info-linear" && !hasParameter) {
        if (!information) {
            return invalidArgument(field, spec, "the information-linear schedule needs a data table");
        }
        Result<BetaCurve> curve = informationLinearCurve(information);
        if (!curve) {
            return invalidArgument(field, spec, curve.error().message);
        }
        return curve;
    }
    return makeError(ErrorCode::ParseError, field, spec,
                     "unknown schedule (expected linear, cosine, power:P, custom:FILE or "
                     "info-linear)");
}

Status validateBetaValues(const std::vector<double>& betas, const std::string& field) {
    for (size_t i = 0; i < betas.size(); ++i) {
        const std::string name = field + "[" + std::to_string(i) + "]";
        if (std::isnan(betas[i])) {
            return invalidArgument(name, "nan", "β is not a number");
        }
        if (betas[i] < 0.0 || betas[i] > 1.0) {
            return invalidArgument(name, formatValue(betas[i]), "β must lie in [0, 1]");
        }
        if (i > 0 && betas[i] < betas[i - 1]) {
            return invalidArgument(name, formatValue(betas[i]),
                                   "β must be nondecreasing (previous β = " +
                                       formatValue(betas[i - 1]) + ")");
        }
    }
    if (!betas.empty() && betas.front() != 0.0) {
        return invalidArgument(field + "[0]", formatValue(betas.front()), "β(0) must be 0");
    }
    if (!betas.empty() && betas.back() != 1.0) {
        return invalidArgument(field + "[" + std::to_string(betas.size() - 1) + "]",
                               formatValue(betas.back()), "β(1) must be 1");
    }
    return {};
}

const std::vector<BetaCurveInfo>& betaCurveRegistry() {
    static const std::vector<BetaCurveInfo> kRegistry = {
        {BetaCurveKind::Linear, "linear", "Linear β(t) = t", ""},
        {BetaCurveKind::Cosine, "cosine", "Cosine (Nichol & Dhariwal)", ""},
        {BetaCurveKind::Power, "power", "Power β(t) = t^p", "p > 0"},
        {BetaCurveKind::Custom, "custom", "Custom monotone cubic", "CSV file of t,beta"},
        {BetaCurveKind::InformationLinear, "info-linear", "Information-linear (from data)", ""},
    };
    return kRegistry;
}

}  // namespace core::schedule
