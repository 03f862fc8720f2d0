// SPDX-License-Identifier: MIT
#include "core/model/gaussian_oracles.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>

#include <Eigen/Eigenvalues>

#include "core/io/csv.h"
#include "core/io/json.h"

namespace core::model {
namespace {

std::string numberText(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

bool allFinite(const Matrix& m) { return m.allFinite(); }

// Reads a JSON array of numbers into a vector; `field` names it in the error.
Result<Vector> readNumberArray(const io::Json* value, const std::string& field) {
    if (value == nullptr || !value->is_array()) {
        return makeError(ErrorCode::ParseError, field, "", "an array of numbers is expected");
    }
    Vector v(static_cast<Eigen::Index>(value->size()));
    for (size_t i = 0; i < value->size(); ++i) {
        if (!(*value)[i].is_number()) {
            return makeError(ErrorCode::ParseError, field + "[" + std::to_string(i) + "]", "",
                             "a number is expected");
        }
        v[static_cast<Eigen::Index>(i)] = (*value)[i].get<double>();
    }
    return v;
}

}  // namespace

// ---------------------------------------------------------------- isotropic Gaussian

Result<std::shared_ptr<IsotropicGaussianOracle>> IsotropicGaussianOracle::create(Vector mean,
                                                                                 double stddev) {
    if (mean.size() < 1) {
        return invalidArgument("d", "0", "the dimension must be at least 1");
    }
    if (!mean.allFinite()) {
        return invalidArgument("mean", "", "the mean must be finite");
    }
    if (!(stddev > 0.0 && std::isfinite(stddev))) {
        return invalidArgument("s", numberText(stddev), "the standard deviation must be > 0");
    }
    return std::shared_ptr<IsotropicGaussianOracle>(
        new IsotropicGaussianOracle(std::move(mean), stddev));
}

void IsotropicGaussianOracle::predictEps(const ConstMatrixRef& x,
                                         const NoiseLevel& level,
                                         MatrixRef eps) const {
    // B.7: score = −(x − √ᾱ μ)/(ᾱ s² + β̄), ε = −√β̄·score.
    const double variance = level.alphaBar * m_stddev * m_stddev + level.betaBar;
    const double scale = std::sqrt(level.betaBar) / variance;
    const Vector shift = std::sqrt(level.alphaBar) * m_mean;
    eps.noalias() = scale * (x.colwise() - shift);
}

void IsotropicGaussianOracle::sampleData(uint64_t, CounterRng& rng, VectorRef out) const {
    for (Eigen::Index i = 0; i < m_mean.size(); ++i) {
        out[i] = m_mean[i] + m_stddev * rng.normal();
    }
}

std::string IsotropicGaussianOracle::describe() const {
    return "gaussian:d=" + std::to_string(m_mean.size()) + ",s=" + numberText(m_stddev);
}

double IsotropicGaussianOracle::exactGamma(double alphaBar, double betaBar) const {
    return 1.0 / (alphaBar * m_stddev * m_stddev + betaBar);
}

double IsotropicGaussianOracle::exactPosteriorVariance(double alphaBar, double betaBar) const {
    const double s2 = m_stddev * m_stddev;
    return s2 * betaBar / (alphaBar * s2 + betaBar);
}

// ---------------------------------------------------------------- Gaussian mixture

Result<std::shared_ptr<GaussianMixtureOracle>> GaussianMixtureOracle::create(
    std::vector<GaussianComponent> components) {
    if (components.empty()) {
        return invalidArgument("components", "0", "a mixture needs at least one component");
    }
    const Eigen::Index d = components.front().mean.size();
    if (d < 1) {
        return invalidArgument("components[0].mean", "", "the mean must not be empty");
    }
    double totalWeight = 0.0;
    for (size_t k = 0; k < components.size(); ++k) {
        const std::string field = "components[" + std::to_string(k) + "]";
        const GaussianComponent& c = components[k];
        if (!(c.weight > 0.0 && std::isfinite(c.weight))) {
            return invalidArgument(field + ".weight", numberText(c.weight), "must be > 0");
        }
        if (c.mean.size() != d || !c.mean.allFinite()) {
            return invalidArgument(field + ".mean", std::to_string(c.mean.size()) + " values",
                                   "needs " + std::to_string(d) + " finite values");
        }
        totalWeight += c.weight;
    }
    auto oracle = std::shared_ptr<GaussianMixtureOracle>(new GaussianMixtureOracle());
    oracle->m_dimension = static_cast<int>(d);
    for (size_t k = 0; k < components.size(); ++k) {
        const std::string field = "components[" + std::to_string(k) + "]";
        const GaussianComponent& c = components[k];
        Prepared p;
        p.logWeight = std::log(c.weight / totalWeight);
        p.mean = c.mean;
        if (c.isDiagonal) {
            if (c.diagonal.size() != d || !c.diagonal.allFinite() ||
                !(c.diagonal.minCoeff() > 0.0)) {
                return invalidArgument(field + ".diagonal", "",
                                       "needs " + std::to_string(d) + " positive variances");
            }
            p.eigenvalues = c.diagonal;
        } else {
            if (c.covariance.rows() != d || c.covariance.cols() != d ||
                !allFinite(c.covariance)) {
                return invalidArgument(field + ".covariance", "",
                                       "needs a finite " + std::to_string(d) + "×" +
                                           std::to_string(d) + " matrix");
            }
            if ((c.covariance - c.covariance.transpose()).cwiseAbs().maxCoeff() >
                1e-9 * std::max(1.0, c.covariance.cwiseAbs().maxCoeff())) {
                return invalidArgument(field + ".covariance", "", "must be symmetric");
            }
            Eigen::SelfAdjointEigenSolver<Matrix> solver(c.covariance);
            if (solver.info() != Eigen::Success || !(solver.eigenvalues().minCoeff() > 0.0)) {
                return invalidArgument(field + ".covariance", "", "must be positive definite");
            }
            p.eigenvalues = solver.eigenvalues();
            p.basis = solver.eigenvectors();
        }
        p.sqrtEigenvalues = p.eigenvalues.cwiseSqrt();
        oracle->m_components.push_back(std::move(p));
    }
    oracle->m_spec = std::move(components);
    return oracle;
}

Result<std::shared_ptr<GaussianMixtureOracle>> GaussianMixtureOracle::fromJsonFile(
    const std::string& path) {
    Result<std::string> text = io::readTextFile(path);
    if (!text) {
        return text.error();
    }
    Result<io::Json> json = io::parseJsonStrict(*text, path);
    if (!json) {
        return json.error();
    }
    const io::Json* list = io::JsonFields(*json, "").raw("components");
    if (list == nullptr || !list->is_array()) {
        return makeError(ErrorCode::ParseError, path, "",
                         "the mixture spec needs a \"components\" array");
    }
    std::vector<GaussianComponent> components;
    for (size_t k = 0; k < list->size(); ++k) {
        const io::Json& item = (*list)[k];
        const std::string field = path + ": components[" + std::to_string(k) + "]";
        if (!item.is_object()) {
            return makeError(ErrorCode::ParseError, field, "", "an object is expected");
        }
        const io::JsonFields fields(item, field + ".");
        GaussianComponent c;
        if (const io::Json* w = fields.raw("weight")) {
            if (!w->is_number()) {
                return makeError(ErrorCode::ParseError, field + ".weight", "", "not a number");
            }
            c.weight = w->get<double>();
        }
        Result<Vector> mean = readNumberArray(fields.raw("mean"), field + ".mean");
        if (!mean) {
            return mean.error();
        }
        c.mean = std::move(mean).value();
        const Eigen::Index d = c.mean.size();
        // One form of the covariance: with two, one of them would be ignored without a word.
        std::string given;
        for (const char* key : {"covariance", "diagonal", "variance"}) {
            if (fields.has(key)) given += std::string(given.empty() ? "" : " and ") + "\"" + key + "\"";
        }
        if (given.find(" and ") != std::string::npos) {
            return makeError(ErrorCode::ParseError, field, given,
                             "give one of \"covariance\", \"diagonal\" or \"variance\", not "
                             "several");
        }
        if (const io::Json* cov = fields.raw("covariance")) {
            if (!cov->is_array() || static_cast<Eigen::Index>(cov->size()) != d) {
                return makeError(ErrorCode::ParseError, field + ".covariance", "",
                                 "needs " + std::to_string(d) + " rows");
            }
            c.isDiagonal = false;
            c.covariance.resize(d, d);
            for (Eigen::Index i = 0; i < d; ++i) {
                Result<Vector> row = readNumberArray(
                    &(*cov)[static_cast<size_t>(i)],
                    field + ".covariance[" + std::to_string(i) + "]");
                if (!row) {
                    return row.error();
                }
                if (row->size() != d) {
                    return makeError(ErrorCode::ParseError,
                                     field + ".covariance[" + std::to_string(i) + "]", "",
                                     "needs " + std::to_string(d) + " values");
                }
                c.covariance.row(i) = row->transpose();
            }
        } else if (const io::Json* diag = fields.raw("diagonal")) {
            Result<Vector> values = readNumberArray(diag, field + ".diagonal");
            if (!values) {
                return values.error();
            }
            c.diagonal = std::move(values).value();
        } else if (const io::Json* var = fields.raw("variance")) {
            if (!var->is_number()) {
                return makeError(ErrorCode::ParseError, field + ".variance", "", "not a number");
            }
            c.diagonal = Vector::Constant(d, var->get<double>());
        } else {
            return makeError(ErrorCode::ParseError, field, "",
                             "needs \"covariance\", \"diagonal\" or \"variance\"");
        }
        components.push_back(std::move(c));
    }
    Result<std::shared_ptr<GaussianMixtureOracle>> oracle = create(std::move(components));
    if (!oracle) {
        Error e = oracle.error();
        e.field = path + ": " + e.field;
        return e;
    }
    return oracle;
}

void GaussianMixtureOracle::predictEps(const ConstMatrixRef& x,
                                       const NoiseLevel& level,
                                       MatrixRef eps) const {
    const Eigen::Index d = x.rows();
    const Eigen::Index batch = x.cols();
    const int numK = numComponents();
    const double sqrtAlphaBar = std::sqrt(level.alphaBar);
    // Per component: y = Uᵀ(x − √ᾱ m), c = ᾱλ + β̄; log N = −½Σy²/c − ½Σ log c (+ const);
    // the component's ε is √β̄·U(y/c). Responsibilities by log-sum-exp over components.
    Matrix logits(numK, batch);
    std::vector<Matrix> componentEps(static_cast<size_t>(numK));
    Matrix y(d, batch);
    for (int k = 0; k < numK; ++k) {
        const Prepared& p = m_components[static_cast<size_t>(k)];
        const Vector c = (level.alphaBar * p.eigenvalues.array() + level.betaBar).matrix();
        const double logDet = c.array().log().sum();
        const Vector shift = sqrtAlphaBar * p.mean;
        if (p.basis.size() == 0) {
            y.noalias() = x.colwise() - shift;
        } else {
            y.noalias() = p.basis.transpose() * (x.colwise() - shift);
        }
        const Vector inverse = c.cwiseInverse();
        y.array().colwise() *= inverse.array();  // y ← y/c
        // Σ y²/c = Σ (y/c)²·c.
        logits.row(k) = (p.logWeight - 0.5 * logDet -
                         0.5 * (y.array().square().colwise() * c.array()).colwise().sum())
                            .matrix();
        Matrix& out = componentEps[static_cast<size_t>(k)];
        if (p.basis.size() == 0) {
            out = y;
        } else {
            out.noalias() = p.basis * y;
        }
    }
    const double sqrtBetaBar = std::sqrt(level.betaBar);
    for (Eigen::Index b = 0; b < batch; ++b) {
        const double top = logits.col(b).maxCoeff();
        double total = 0.0;
        for (int k = 0; k < numK; ++k) {
            logits(k, b) = std::exp(logits(k, b) - top);
            total += logits(k, b);
        }
        eps.col(b).setZero();
        for (int k = 0; k < numK; ++k) {
            eps.col(b) += (logits(k, b) / total) * componentEps[static_cast<size_t>(k)].col(b);
        }
        eps.col(b) *= sqrtBetaBar;
    }
}

double GaussianMixtureOracle::logDensity(const ConstVectorRef& x, const NoiseLevel& level) const {
    const double d = m_dimension;
    double top = -std::numeric_limits<double>::infinity();
    std::vector<double> terms;
    for (const Prepared& p : m_components) {
        const Vector c = (level.alphaBar * p.eigenvalues.array() + level.betaBar).matrix();
        Vector diff = x - std::sqrt(level.alphaBar) * p.mean;
        if (p.basis.size() != 0) {
            diff = p.basis.transpose() * diff;
        }
        const double value = p.logWeight - 0.5 * c.array().log().sum() -
                             0.5 * (diff.array().square() / c.array()).sum() -
                             0.5 * d * std::log(2.0 * std::numbers::pi);
        terms.push_back(value);
        top = std::max(top, value);
    }
    double total = 0.0;
    for (double t : terms) {
        total += std::exp(t - top);
    }
    return top + std::log(total);
}

void GaussianMixtureOracle::sampleData(uint64_t, CounterRng& rng, VectorRef out) const {
    std::vector<double> weights;
    for (const Prepared& p : m_components) {
        weights.push_back(std::exp(p.logWeight));
    }
    const Prepared& p = m_components[static_cast<size_t>(rng.categorical(weights))];
    Vector z(m_dimension);
    for (int i = 0; i < m_dimension; ++i) {
        z[i] = rng.normal() * p.sqrtEigenvalues[i];
    }
    if (p.basis.size() == 0) {
        out = p.mean + z;
    } else {
        out = p.mean + p.basis * z;
    }
}

double GaussianMixtureOracle::variancePerDimension() const {
    // Var = Σ w (tr S + ‖m‖²) − ‖Σ w m‖² (law of total variance).
    Vector meanTotal = Vector::Zero(m_dimension);
    double second = 0.0;
    for (const Prepared& p : m_components) {
        const double w = std::exp(p.logWeight);
        meanTotal += w * p.mean;
        second += w * (p.eigenvalues.sum() + p.mean.squaredNorm());
    }
    return (second - meanTotal.squaredNorm()) / m_dimension;
}

bool GaussianMixtureOracle::dataMean(VectorRef out) const {
    out.setZero();
    for (const Prepared& p : m_components) {
        out += std::exp(p.logWeight) * p.mean;
    }
    return true;
}

std::string GaussianMixtureOracle::describe() const {
    return "gmm: " + std::to_string(numComponents()) + " components in d=" +
           std::to_string(m_dimension);
}

// ---------------------------------------------------------------- empirical data set

Result<std::shared_ptr<GaussianEmpiricalOracle>> GaussianEmpiricalOracle::create(Matrix points) {
    if (points.rows() < 1 || points.cols() < 1) {
        return invalidArgument("data", std::to_string(points.cols()) + " points",
                               "the data set is empty");
    }
    if (!points.allFinite()) {
        return invalidArgument("data", "", "the data set holds a non-finite value");
    }
    return std::shared_ptr<GaussianEmpiricalOracle>(new GaussianEmpiricalOracle(std::move(points)));
}

GaussianEmpiricalOracle::GaussianEmpiricalOracle(Matrix points)
    : m_points(std::move(points)), m_squaredNorms(m_points.colwise().squaredNorm().transpose()) {}

void GaussianEmpiricalOracle::predictEps(const ConstMatrixRef& x,
                                 const NoiseLevel& level,
                                 MatrixRef eps) const {
    // B.7: w_m ∝ exp(−‖x − √ᾱ x⁽ᵐ⁾‖²/(2β̄)); ε = (x − √ᾱ Σ w_m x⁽ᵐ⁾)/√β̄.
    // ‖x − √ᾱ x_m‖² = ‖x‖² − 2√ᾱ x_mᵀx + ᾱ‖x_m‖²: one matrix product for the whole batch.
    const double sqrtAlphaBar = std::sqrt(level.alphaBar);
    Matrix logits(m_points.cols(), x.cols());
    logits.noalias() = (2.0 * sqrtAlphaBar) * (m_points.transpose() * x);
    logits.colwise() -= level.alphaBar * m_squaredNorms;
    // ‖x‖² is the same for every m of a column: it cancels in the softmax.
    const double inverse = 1.0 / (2.0 * level.betaBar);
    Vector columnMax = logits.colwise().maxCoeff().transpose();
    for (Eigen::Index b = 0; b < x.cols(); ++b) {
        logits.col(b) = ((logits.col(b).array() - columnMax[b]) * inverse).exp().matrix();
        logits.col(b) /= logits.col(b).sum();
    }
    eps.noalias() = m_points * logits;
    eps = (x - sqrtAlphaBar * eps) / std::sqrt(level.betaBar);
}

void GaussianEmpiricalOracle::sampleData(uint64_t index, CounterRng&, VectorRef out) const {
    out = m_points.col(static_cast<Eigen::Index>(index % static_cast<uint64_t>(m_points.cols())));
}

double GaussianEmpiricalOracle::variancePerDimension() const {
    const Vector mean = m_points.rowwise().mean();
    return (m_points.colwise() - mean).squaredNorm() / static_cast<double>(m_points.size());
}

bool GaussianEmpiricalOracle::dataMean(VectorRef out) const {
    out = m_points.rowwise().mean();
    return true;
}

std::string GaussianEmpiricalOracle::describe() const {
    return "empirical: " + std::to_string(numPoints()) + " points in d=" +
           std::to_string(dimension());
}

}  // namespace core::model
