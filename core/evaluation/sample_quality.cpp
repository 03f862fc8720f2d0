// SPDX-License-Identifier: MIT
#include "core/evaluation/sample_quality.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/data/gaussian_data.h"
#include "core/data/toys.h"
#include "core/gaussian/rng_streams.h"
#include "core/util/limits.h"
#include "core/util/rng.h"

namespace core::evaluation {

namespace {

// The first non-finite entry of `points`, named "field[row, column]".
Status checkFinite(const Matrix& points, const std::string& field) {
    for (Eigen::Index c = 0; c < points.cols(); ++c) {
        for (Eigen::Index r = 0; r < points.rows(); ++r) {
            if (!std::isfinite(points(r, c))) {
                return invalidArgument(field + " row " + std::to_string(r) + ", column " +
                                           std::to_string(c),
                                       formatValue(points(r, c)), "values must be finite");
            }
        }
    }
    return Status{};
}

Status checkPointSet(const Matrix& points, const std::string& field, Eigen::Index dimension) {
    if (points.cols() < 2) {
        return invalidArgument(field, std::to_string(points.cols()) + " points",
                               "at least 2 points are needed");
    }
    if (points.rows() != dimension) {
        return invalidArgument(field, std::to_string(points.rows()) + " dimensions",
                               "the samples have " + std::to_string(dimension) +
                                   "; both sets need the same dimension");
    }
    return checkFinite(points, field);
}

// k(x, y) = mean over h of exp(−‖x − y‖²/(2h²)), with −1/(2h²) precomputed.
double kernel(const Matrix& a, Eigen::Index i, const Matrix& b, Eigen::Index j,
              const std::vector<double>& negInvTwoH2) {
    const double d2 = (a.col(i) - b.col(j)).squaredNorm();
    double sum = 0.0;
    for (double c : negInvTwoH2) {
        sum += std::exp(c * d2);
    }
    return sum / static_cast<double>(negInvTwoH2.size());
}

// For every point p of `own` (size m): mean of k(p, ·) over the other points of `own`
// minus the mean of k(p, ·) over `other`: the estimate of μ_own(p) − μ_other(p).
// Each point's sums run sequentially, so the result does not depend on the thread count.
struct RowMeans {
    Vector within;  // (1/(m−1)) Σ_{q≠p} k(p, q)
    Vector across;  // (1/n) Σ_q k(p, y_q)
};
RowMeans rowMeans(const Matrix& own, const Matrix& other, const std::vector<double>& negInvTwoH2,
                  const ParallelOptions& parallel) {
    const Eigen::Index m = own.cols();
    const Eigen::Index n = other.cols();
    RowMeans out{Vector(m), Vector(m)};
    parallelFor(m, parallel, [&](int64_t p) {
        double within = 0.0;
        for (Eigen::Index q = 0; q < m; ++q) {
            if (q != p) within += kernel(own, p, own, q, negInvTwoH2);
        }
        double across = 0.0;
        for (Eigen::Index q = 0; q < n; ++q) {
            across += kernel(own, p, other, q, negInvTwoH2);
        }
        out.within(p) = within / static_cast<double>(m - 1);
        out.across(p) = across / static_cast<double>(n);
    }, 16);
    return out;
}

// Unbiased sample variance of v (v.size() ≥ 2), summed in index order.
double sampleVariance(const Vector& v) {
    const double mean = v.mean();
    return (v.array() - mean).square().sum() / static_cast<double>(v.size() - 1);
}

Matrix covariance(const Matrix& points, const Vector& mean) {
    const Matrix centred = points.colwise() - mean;
    return centred * centred.transpose() / static_cast<double>(points.cols() - 1);
}

// The symmetric PSD square root through the eigendecomposition; rounding makes tiny
// eigenvalues negative, which are clipped to 0.
Matrix psdSqrt(const Matrix& a) {
    Eigen::SelfAdjointEigenSolver<Matrix> solver(0.5 * (a + a.transpose()));
    const Vector roots = solver.eigenvalues().cwiseMax(0.0).cwiseSqrt();
    return solver.eigenvectors() * roots.asDiagonal() * solver.eigenvectors().transpose();
}

}  // namespace

Result<Mmd2> mmd2Unbiased(const Matrix& samples, const Matrix& reference,
                          const std::vector<double>& bandwidths, const ParallelOptions& parallel) {
    if (auto ok = checkPointSet(samples, "samples", samples.rows()); !ok) return ok.error();
    if (auto ok = checkPointSet(reference, "reference", samples.rows()); !ok) return ok.error();
    if (bandwidths.empty()) {
        return invalidArgument("bandwidths", "none", "at least one bandwidth is needed");
    }
    std::vector<double> negInvTwoH2;
    for (size_t b = 0; b < bandwidths.size(); ++b) {
        const double h = bandwidths[b];
        if (!(h > 0.0) || !std::isfinite(h)) {
            return invalidArgument("bandwidths[" + std::to_string(b) + "]", formatValue(h),
                                   "a bandwidth must be a finite number > 0");
        }
        negInvTwoH2.push_back(-1.0 / (2.0 * h * h));
    }
    const auto m = static_cast<double>(samples.cols());
    const auto n = static_cast<double>(reference.cols());
    const RowMeans x = rowMeans(samples, reference, negInvTwoH2, parallel);
    const RowMeans y = rowMeans(reference, samples, negInvTwoH2, parallel);
    // MMD²_u = mean_{i≠j} k(x_i, x_j) + mean_{i≠j} k(y_i, y_j) − 2 mean_{i,j} k(x_i, y_j)
    // (Gretton et al. 2012, eq. 3). The cross term is averaged over both passes, which
    // computed the same sum in two orders.
    const double cross = 0.5 * (x.across.mean() + y.across.mean());
    Mmd2 out;
    out.value = x.within.mean() + y.within.mean() - 2.0 * cross;
    // First-order variance of a two-sample U-statistic of degree (2, 2) (Lehmann; Hoeffding):
    // 4ζ₁₀/m + 4ζ₀₁/n, ζ₁₀ = Var_x[μ_P(x) − μ_Q(x)], estimated from the per-point means.
    const double zetaX = sampleVariance(x.within - x.across);
    const double zetaY = sampleVariance(y.within - y.across);
    out.standardError = std::sqrt(4.0 * zetaX / m + 4.0 * zetaY / n);
    if (!std::isfinite(out.value) || !std::isfinite(out.standardError)) {
        return makeError(ErrorCode::NumericalError, "mmd2", formatValue(out.value),
                         "the kernel sums are not finite");
    }
    return out;
}

Result<double> frechetDistance(const Matrix& samples, const Matrix& reference) {
    if (auto ok = limits::checkRange({"the data dimension d", 1, kMaxFrechetDimension}, "samples",
                             samples.rows());
        !ok) {
        return ok.error();
    }
    if (auto ok = checkPointSet(samples, "samples", samples.rows()); !ok) return ok.error();
    if (auto ok = checkPointSet(reference, "reference", samples.rows()); !ok) return ok.error();
    const Vector mu1 = samples.rowwise().mean();
    const Vector mu2 = reference.rowwise().mean();
    const Matrix sigma1 = covariance(samples, mu1);
    const Matrix sigma2 = covariance(reference, mu2);
    // tr((Σ₁^{1/2} Σ₂ Σ₁^{1/2})^{1/2}): the product is symmetric PSD, so its square root's
    // trace is the sum of the roots of its (clipped) eigenvalues (Dowson & Landau 1982).
    const Matrix root1 = psdSqrt(sigma1);
    const Matrix product = root1 * sigma2 * root1;
    Eigen::SelfAdjointEigenSolver<Matrix> solver(0.5 * (product + product.transpose()),
                                                 Eigen::EigenvaluesOnly);
    const double traceRoot = solver.eigenvalues().cwiseMax(0.0).cwiseSqrt().sum();
    const double distance =
        (mu1 - mu2).squaredNorm() + sigma1.trace() + sigma2.trace() - 2.0 * traceRoot;
    if (!std::isfinite(distance)) {
        return makeError(ErrorCode::NumericalError, "frechet", formatValue(distance),
                         "the Fréchet distance is not finite");
    }
    // Rounding can leave a tiny negative number where the fits agree; the distance is ≥ 0.
    return std::max(0.0, distance);
}

}  // namespace core::evaluation
