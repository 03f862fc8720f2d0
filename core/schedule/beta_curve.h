// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/util/result.h"

// β(t) curves of the categorical process (docs/categorical.md#schedules): nondecreasing maps [0,1]
// → [0,1] with β(0) = 0 and β(1) = 1 exactly. A BetaCurve is a small immutable value, cheap to
// copy.
namespace core::schedule {

enum class BetaCurveKind { Linear, Cosine, Power, Custom, InformationLinear };

// One control point of a custom curve.
struct ControlPoint {
    double t = 0.0;     // time in [0, 1], strictly increasing along the list
    double beta = 0.0;  // β(t) in [0, 1], nondecreasing along the list

    bool operator==(const ControlPoint&) const = default;
};

class BetaCurve {
public:
    BetaCurve();  // linear

    BetaCurveKind kind() const { return m_kind; }
    // A textual spec that parseBetaCurve understands again (custom curves: "custom").
    const std::string& spec() const { return m_spec; }
    // β(t); t is clamped to [0, 1]. Exactly 0 at t ≤ 0 and 1 at t ≥ 1.
    double operator()(double t) const;
    // β at each of the given times.
    std::vector<double> evaluate(const std::vector<double>& times) const;

private:
    friend BetaCurve linearCurve();
    friend BetaCurve cosineCurve();
    friend Result<BetaCurve> powerCurve(double exponent);
    friend Result<BetaCurve> customCurve(std::vector<ControlPoint> points);
    friend Result<BetaCurve> informationLinearCurve(std::function<double(double)> information);

    BetaCurveKind m_kind = BetaCurveKind::Linear;
    std::string m_spec = "linear";
    double m_exponent = 1.0;
    std::vector<double> m_knotT, m_knotBeta, m_knotSlope;        // custom: Hermite knots
    std::shared_ptr<const std::function<double(double)>> m_information;  // info-linear: I(β)
};

// β(t) = t.
BetaCurve linearCurve();
// β(t) = 1 − f(t)/f(0), f(t) = cos²(((t + s)/(1 + s))·π/2), s = 0.008; β(1) = 1 exactly.
BetaCurve cosineCurve();
// β(t) = t^p, p > 0 and finite.
Result<BetaCurve> powerCurve(double exponent);
// Monotone piecewise-cubic Hermite curve (Fritsch & Carlson 1980) through the points. (0,0)
// and (1,1) are added when t = 0 or t = 1 is missing; if present they must have β = 0 and 1.
// Errors (field "points[i]") for NaN, t outside [0,1], t not strictly increasing, β outside
// [0,1] or decreasing, β(0) ≠ 0, β(1) ≠ 1.
Result<BetaCurve> customCurve(std::vector<ControlPoint> points);
// β(t) solving I(β) = (1 − t)·I(0) by bisection (docs/categorical.md#schedules,
// information-linear), where `information` is the (summed) mutual information I(X_0;X_t) as a
// function of β_t; it must be nonincreasing with I(1) = 0. Error if I(0) ≤ 0 (data without
// entropy).
Result<BetaCurve> informationLinearCurve(std::function<double(double)> information);

// Reads a custom curve from a CSV file with a header containing columns `t` and `beta`; the
// points as written (checked as customCurve checks them, errors naming the file's line).
Result<BetaCurve> readCustomCurve(const std::string& path);
Result<std::vector<ControlPoint>> readControlPoints(const std::string& path);

// "linear", "cosine", "power:P", "custom:FILE"; "info-linear" needs `information` (else an
// error saying the schedule needs a data table). `field` names the option in errors.
Result<BetaCurve> parseBetaCurve(const std::string& spec,
                                 const std::function<double(double)>& information = {},
                                 const std::string& field = "schedule");

// Checks that a tabulated curve is usable: finite, within [0,1], nondecreasing, ends 0 and 1.
Status validateBetaValues(const std::vector<double>& betas, const std::string& field);

// The registry of β(t) kinds for combo boxes and help texts.
struct BetaCurveInfo {
    BetaCurveKind kind;        // the kind
    std::string id;            // spec prefix: "linear", "power", ...
    std::string displayName;   // for people
    std::string parameter;     // what follows "id:" in a spec, empty if nothing
};
const std::vector<BetaCurveInfo>& betaCurveRegistry();

}  // namespace core::schedule
