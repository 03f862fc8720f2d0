// SPDX-License-Identifier: MIT
#include "core/model/mlp_denoisers.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

namespace core::model {

namespace {
constexpr Eigen::Index kEpsChunk = 256;  // columns per forward pass in predictEps
}

Result<CategoricalMlpDenoiser> CategoricalMlpDenoiser::create(Mlp mlp, int numClasses, int numPositions) {
    if (numClasses < 2) {
        return invalidArgument("numClasses", std::to_string(numClasses), "K must be at least 2");
    }
    if (numPositions < 1) {
        return invalidArgument("numPositions", std::to_string(numPositions), "D must be at least 1");
    }
    const int expected = numClasses * numPositions;
    if (mlp.config().inputs != expected) {
        return invalidArgument("inputs", std::to_string(mlp.config().inputs),
                               "the network must have D·K = " + std::to_string(expected) + " inputs");
    }
    if (mlp.config().outputs != expected) {
        return invalidArgument("outputs", std::to_string(mlp.config().outputs),
                               "the network must have D·K = " + std::to_string(expected) + " outputs");
    }
    return CategoricalMlpDenoiser(std::move(mlp), numClasses, numPositions);
}

int CategoricalMlpDenoiser::numConditions() const {
    return std::max(1, m_mlp.config().numConditions);
}

void CategoricalMlpDenoiser::encode(std::span<const int> xt, int numClasses, float* column) {
    std::fill(column, column + xt.size() * static_cast<size_t>(numClasses), 0.0f);
    for (size_t d = 0; d < xt.size(); ++d) {
        column[d * static_cast<size_t>(numClasses) + static_cast<size_t>(xt[d])] = 1.0f;
    }
}

void CategoricalMlpDenoiser::softmax(const float* logits, int numClasses, int numPositions,
                                     double* out, int excluded) {
    for (int d = 0; d < numPositions; ++d) {
        const float* l = logits + static_cast<size_t>(d) * numClasses;
        double* o = out + static_cast<size_t>(d) * numClasses;
        double shift = -std::numeric_limits<double>::infinity();
        for (int k = 0; k < numClasses; ++k) {
            if (k != excluded) shift = std::max(shift, static_cast<double>(l[k]));
        }
        double total = 0.0;
        for (int k = 0; k < numClasses; ++k) {
            o[k] = k == excluded ? 0.0 : std::exp(static_cast<double>(l[k]) - shift);
            total += o[k];
        }
        for (int k = 0; k < numClasses; ++k) {
            o[k] /= total;
        }
    }
}

void CategoricalMlpDenoiser::predict(std::span<const int> xt,
                                     int condition,
                                     const DenoiserTime& time,
                                     std::span<double> out) const {
    assert(static_cast<int>(xt.size()) == m_numPositions);
    assert(static_cast<int>(out.size()) == m_numPositions * m_numClasses);
    const int inputs = m_numPositions * m_numClasses;
    MatrixF x(inputs, 1);
    encode(xt, m_numClasses, x.data());
    MatrixF logits(inputs, 1);
    Mlp::Workspace ws;
    const double t = time.t;
    const int cond = m_mlp.config().numConditions > 0 ? condition : 0;
    assert(cond >= 0 && cond <= m_mlp.config().numConditions);
    m_mlp.forward(x, std::span<const double>(&t, 1), std::span<const int>(&cond, 1), ws, logits);
    softmax(logits.data(), m_numClasses, m_numPositions, out.data(), m_maskClass);
}

Result<GaussianMlpEpsModel> GaussianMlpEpsModel::create(Mlp mlp, int numSteps) {
    if (numSteps < 1) {
        return invalidArgument("numSteps", std::to_string(numSteps), "N must be at least 1");
    }
    if (mlp.config().outputs != mlp.config().inputs) {
        return invalidArgument("outputs", std::to_string(mlp.config().outputs),
                               "an ε-model must have as many outputs as inputs (" +
                                   std::to_string(mlp.config().inputs) + ")");
    }
    return GaussianMlpEpsModel(std::move(mlp), numSteps);
}

void GaussianMlpEpsModel::predictEps(const ConstMatrixRef& x, const NoiseLevel& level, MatrixRef eps) const {
    const Eigen::Index d = x.rows();
    assert(d == dimension() && eps.rows() == d && eps.cols() == x.cols());
    const double t = networkTime(level.timestep, m_numSteps);
    const int cond = m_mlp.config().noCondition();
    Mlp::Workspace ws;
    for (Eigen::Index begin = 0; begin < x.cols(); begin += kEpsChunk) {
        const Eigen::Index n = std::min(kEpsChunk, x.cols() - begin);
        const MatrixF xf = x.middleCols(begin, n).cast<float>();
        MatrixF out(d, n);
        const std::vector<double> times(static_cast<size_t>(n), t);
        const std::vector<int> conds(static_cast<size_t>(n), cond);
        m_mlp.forward(xf, times, conds, ws, out);
        eps.middleCols(begin, n) = out.cast<double>();
    }
}

}  // namespace core::model
