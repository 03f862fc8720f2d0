// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/model/gaussian_eps_model.h"
#include "core/util/result.h"

// Exact ε/score oracles of docs/gaussian.md#exact-oracles. Each is both the model and the sampler
// of the data it is exact for, so Γ estimated with it is exact up to Monte Carlo error. All are
// immutable after construction and safe to share between threads.
namespace core::model {

class GaussianOracle : public GaussianEpsModel, public GaussianDataSampler {
public:
    // A one-line description for CLI output and plots.
    virtual std::string describe() const = 0;
};

// Data N(μ, s²I): q_n = N(√ᾱ_n μ, (ᾱ_n s² + β̄_n) I), so Γ_n = 1/(ᾱ_n s² + β̄_n) exactly.
class IsotropicGaussianOracle final : public GaussianOracle {
public:
    // mean has length d ≥ 1; stddev s > 0 (checked by create()).
    static Result<std::shared_ptr<IsotropicGaussianOracle>> create(Vector mean, double stddev);

    int dimension() const override { return static_cast<int>(m_mean.size()); }
    void predictEps(const ConstMatrixRef& x, const NoiseLevel& level, MatrixRef eps) const override;
    void sampleData(uint64_t index, CounterRng& rng, VectorRef out) const override;
    double variancePerDimension() const override { return m_stddev * m_stddev; }
    bool dataMean(VectorRef out) const override {
        out = m_mean;
        return true;
    }
    std::string describe() const override;

    // The closed forms of B.7, for tests and plots.
    double exactGamma(double alphaBar, double betaBar) const;
    double exactPosteriorVariance(double alphaBar, double betaBar) const;

private:
    IsotropicGaussianOracle(Vector mean, double stddev)
        : m_mean(std::move(mean)), m_stddev(stddev) {}
    Vector m_mean;
    double m_stddev;
};

// One mixture component: weight, mean, covariance S = U·diag(λ)·Uᵀ (U = I when diagonal).
struct GaussianComponent {
    double weight = 1.0;           // w_k > 0 (normalised by the mixture)
    Vector mean;                   // m_k, length d
    Matrix covariance;             // S_k, d×d symmetric positive definite (if full)
    Vector diagonal;               // diag(S_k), length d, when the covariance is diagonal
    bool isDiagonal = true;        // which of the two above is set
};

// Σ w_k N(m_k, S_k): q_n = Σ w_k N(√ᾱ_n m_k, ᾱ_n S_k + β̄_n I); the score is the
// responsibility-weighted sum of the components' scores, responsibilities by log-sum-exp.
// Each S_k is eigendecomposed once, so a noise level costs no factorisation.
class GaussianMixtureOracle final : public GaussianOracle {
public:
    static Result<std::shared_ptr<GaussianMixtureOracle>> create(
        std::vector<GaussianComponent> components);
    // Reads the JSON spec: {"components": [{"weight": w, "mean": [..],
    //   "covariance": [[..], ..] | "diagonal": [..] | "variance": v}, ..]}.
    static Result<std::shared_ptr<GaussianMixtureOracle>> fromJsonFile(const std::string& path);

    int dimension() const override { return m_dimension; }
    int numComponents() const { return static_cast<int>(m_components.size()); }
    void predictEps(const ConstMatrixRef& x, const NoiseLevel& level, MatrixRef eps) const override;
    void sampleData(uint64_t index, CounterRng& rng, VectorRef out) const override;
    double variancePerDimension() const override;
    bool dataMean(VectorRef out) const override;
    std::string describe() const override;

    // log q_n(x) for one point (tests: the score is its gradient).
    double logDensity(const ConstVectorRef& x, const NoiseLevel& level) const;

private:
    struct Prepared {
        double logWeight;     // log w_k after normalisation
        Vector mean;          // m_k
        Matrix basis;         // U_k (empty when diagonal)
        Vector eigenvalues;   // λ_k (diag(S_k) when diagonal)
        Vector sqrtEigenvalues;
    };
    GaussianMixtureOracle() = default;
    std::vector<Prepared> m_components;
    int m_dimension = 0;
    std::vector<GaussianComponent> m_spec;
};

// A finite data set {x⁽ᵐ⁾}: q_n = (1/P) Σ N(√ᾱ_n x⁽ᵐ⁾, β̄_n I); softmax weights in log space.
// Data point `index` is x⁽index mod P⁾ (deterministic, no random draw).
class GaussianEmpiricalOracle final : public GaussianOracle {
public:
    // points is d×P (one data point per column), P ≥ 1, all finite.
    static Result<std::shared_ptr<GaussianEmpiricalOracle>> create(Matrix points);

    int dimension() const override { return static_cast<int>(m_points.rows()); }
    int numPoints() const { return static_cast<int>(m_points.cols()); }
    const Matrix& points() const { return m_points; }
    void predictEps(const ConstMatrixRef& x, const NoiseLevel& level, MatrixRef eps) const override;
    void sampleData(uint64_t index, CounterRng& rng, VectorRef out) const override;
    double variancePerDimension() const override;
    bool dataMean(VectorRef out) const override;
    std::string describe() const override;

private:
    explicit GaussianEmpiricalOracle(Matrix points);
    Matrix m_points;
    Vector m_squaredNorms;
};

}  // namespace core::model
