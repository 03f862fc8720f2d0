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

// "toy:NAME,n=…,seed=…" → (name, seed); the same parser as core::data::toyFromSpec.
struct ToyParts {
    std::string name;
    uint64_t seed = 0;
};
ToyParts toyParts(const std::string& spec) {
    ToyParts parts;
    const std::string rest = spec.substr(4);
    parts.name = rest.substr(0, rest.find(','));
    const size_t at = rest.find("seed=");
    if (at != std::string::npos) {
        parts.seed = std::strtoull(rest.c_str() + at + 5, nullptr, 10);
    }
    return parts;
}

// The seed of a toy's held-out draw: a function of the toy's own seed and the quality seed
// that never equals the toy's seed, so the reference shares no point index stream with it.
uint64_t heldOutToySeed(uint64_t toySeed, uint64_t seed) {
    uint64_t s = (toySeed ^ 0x51A1'17E5'0000'0000ull) + 0x9E37'79B9'7F4A'7C15ull * (seed + 1);
    return s == toySeed ? s + 1 : s;
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

Result<Matrix> heldOutReference(const std::string& dataSpec, int count, uint64_t seed,
                                const project::SetupSources& sources) {
    if (data::isDigitsSpec(dataSpec)) {
        if (dataSpec != "digits" && dataSpec != "digits:train" && dataSpec != "digits:test") {
            return invalidArgument("data", dataSpec, "digits takes :train or :test");
        }
        auto digits = sources.digits();
        if (!digits) return digits.error();
        return data::digitsPoints(**digits, false);
    }
    if (auto ok = limits::checkRange(limits::kSamples, "reference count", count); !ok) {
        return ok.error();
    }
    if (dataSpec.rfind("csv:", 0) == 0) {
        return invalidArgument("data", dataSpec,
                               "a CSV file has no held-out split; compare with `--data` of "
                               "a toy, a distribution or the digits");
    }
    if (dataSpec.rfind("toy:", 0) == 0) {
        // Check the spec as the oracle does, then draw the same toy under another seed.
        if (auto points = data::toyFromSpec(dataSpec); !points) return points.error();
        const ToyParts parts = toyParts(dataSpec);
        Result<data::Toy> toy = data::parseToy(parts.name);
        if (!toy) return toy.error();
        return data::makeToy(*toy, count, heldOutToySeed(parts.seed, seed));
    }
    auto oracle = project::gaussianData(dataSpec, sources);
    if (!oracle) return oracle.error();
    const model::GaussianDataSampler& sampler = **oracle;
    const int d = sampler.dimension();
    if (auto ok = limits::checkMemory("reference count", std::to_string(count), "d·count·8 bytes",
                                      8.0 * d * count);
        !ok) {
        return ok.error();
    }
    Matrix points(d, count);
    Vector x(d);
    for (int i = 0; i < count; ++i) {
        CounterRng rng(seed, gaussian::rngStream(gaussian::RngPurpose::QualityReference, i), 0);
        sampler.sampleData(static_cast<uint64_t>(i), rng, x);
        points.col(i) = x;
    }
    return points;
}

Result<SampleQuality> sampleQuality(const Matrix& samples, const std::string& dataSpec, uint64_t seed,
                                    const project::SetupSources& sources, const ParallelOptions& parallel) {
    Result<Matrix> reference = heldOutReference(dataSpec, kQualityReferenceCount, seed, sources);
    if (!reference) return reference.error();
    if (reference->rows() != samples.rows()) {
        return invalidArgument("samples", std::to_string(samples.rows()) + " columns",
                               "the data " + dataSpec + " has " +
                                   std::to_string(reference->rows()) + " dimensions");
    }
    const Eigen::Index used = std::min<Eigen::Index>(samples.cols(), kMaxQualitySamples);
    const Matrix head = samples.leftCols(used);
    SampleQuality out;
    out.numSamples = static_cast<int>(used);
    out.numReference = static_cast<int>(reference->cols());
    if (data::isDigitsSpec(dataSpec)) {
        out.reference = "digits:test";
    } else if (dataSpec.rfind("toy:", 0) == 0) {
        const ToyParts parts = toyParts(dataSpec);
        out.reference = "toy:" + parts.name + ",n=" + std::to_string(kQualityReferenceCount) +
                        ",seed=" + std::to_string(heldOutToySeed(parts.seed, seed));
    } else {
        out.reference = dataSpec + " (" + std::to_string(kQualityReferenceCount) +
                        " held-out draws, seed " + std::to_string(seed) + ")";
    }
    if (samples.rows() <= 2) {
        Result<Mmd2> mmd = mmd2Unbiased(head, *reference, kMmdBandwidths, parallel);
        if (!mmd) return mmd.error();
        out.measure = "mmd2";
        out.value = mmd->value;
        out.standardError = mmd->standardError;
        out.bandwidths = kMmdBandwidths;
    } else {
        Result<double> distance = frechetDistance(head, *reference);
        if (!distance) return distance.error();
        out.measure = "frechet";
        out.value = *distance;
        out.standardError = std::numeric_limits<double>::quiet_NaN();
    }
    return out;
}

}  // namespace core::evaluation
