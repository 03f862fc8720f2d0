// SPDX-License-Identifier: MIT
#include "core/categorical/reverse_marginal.h"

#include <cmath>
#include <limits>
#include <string>

namespace core::categorical {

Result<std::vector<std::vector<Vector>>> reverseMarginals(const model::CategoricalDenoiser& denoiser,
                                                          int position,
                                                          int condition,
                                                          const Vector& pi,
                                                          const TimeGrid& grid,
                                                          const std::vector<KernelForm>& forms) {
    if (!denoiser.factorised() && denoiser.numPositions() != 1) {
        return invalidArgument("denoiser", "", "exact reverse marginals need a factorised model");
    }
    if (position < 0 || position >= denoiser.numPositions()) {
        return invalidArgument("position", std::to_string(position), "no such position");
    }
    if (auto valid = validateTimeGrid(grid); !valid) {
        return valid.error();
    }
    const int k = denoiser.numClasses();
    const int m = grid.numSteps();
    std::vector<std::vector<Vector>> marginals(
        forms.size(), std::vector<Vector>(static_cast<size_t>(m) + 1, Vector::Zero(k)));
    for (auto& perForm : marginals) {
        perForm[m] = pi;
    }
    Matrix f(k, k);
    Vector row(k);
    std::vector<int> xt(static_cast<size_t>(denoiser.numPositions()), 0);
    std::vector<double> prediction(static_cast<size_t>(denoiser.numPositions()) * k);
    for (int n = m; n >= 1; --n) {
        const model::DenoiserTime time{grid.t[n], grid.beta[n]};
        for (int j = 0; j < k; ++j) {
            if (denoiser.factorised()) {
                denoiser.predictPosition(position, j, condition, time,
                                         {row.data(), static_cast<size_t>(row.size())});
            } else {
                xt[0] = j;
                denoiser.predict(xt, condition, time, prediction);
                row = Eigen::Map<const Vector>(prediction.data(), k);
            }
            f.row(j) = row.transpose() / row.sum();
        }
        for (size_t form = 0; form < forms.size(); ++form) {
            const Matrix q = reverseKernelMatrix(forms[form], f, pi, grid.beta[n - 1], grid.beta[n]);
            marginals[form][n - 1] = (marginals[form][n].transpose() * q).transpose();
        }
    }
    return marginals;
}

Result<std::vector<Vector>> reverseMarginals(const model::CategoricalDenoiser& denoiser,
                                             int position,
                                             int condition,
                                             const Vector& pi,
                                             const TimeGrid& grid,
                                             KernelForm form) {
    auto all = reverseMarginals(denoiser, position, condition, pi, grid, std::vector{form});
    if (!all) {
        return all.error();
    }
    return std::move(all->front());
}

double klDivergence(const ConstVectorRef& p, const ConstVectorRef& q) {
    double kl = 0.0;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        if (p[i] <= 0.0) {
            continue;
        }
        if (q[i] <= 0.0) {
            return std::numeric_limits<double>::infinity();
        }
        kl += p[i] * std::log(p[i] / q[i]);
    }
    return std::max(0.0, kl);
}

}  // namespace core::categorical
