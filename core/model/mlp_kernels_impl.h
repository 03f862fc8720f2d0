// SPDX-License-Identifier: MIT
// The body of the MLP's kernels (mlp_kernels.h), included by exactly one file per instruction
// set, each with its own DIFFUSCOPE_MLP_KERNEL_NS. The files compiled for other instruction sets
// first `#define Eigen <a name of their own>`, so that every Eigen template they instantiate
// (the matrix products above all) has a mangled name of its own: the linker merges identical
// inline instantiations across files and would otherwise run one file's AVX2 product on a CPU
// without AVX2, or the portable product in the AVX2 kernels. For the same reason these files
// must instantiate nothing of the standard library that the rest of the program could share
// (the kernels use plain arrays, Eigen and <cmath> only).
//
// Determinism: where Eigen vectorises an assignment it handles the elements before the first
// packet-aligned address of the destination one at a time, and a reduction the elements before
// the first aligned address of its source. Exact operations (+, −, ×, /, copies) give the same
// bits either way, but exp, sums and FMA do not, so those would depend on where the caller's
// arrays happen to lie (16-byte aligned by malloc, while AVX packets are 32 or 64 bytes) and a
// run would not repeat itself. Every such operation therefore writes into, and reduces over,
// matrices allocated here (aligned to the packet), and only exact copies and additions touch the
// caller's arrays. With 16-byte packets (the default build) malloc's alignment is the packet's,
// and the kernels keep their direct form, bit for bit the results of the code before them.
#pragma once

#include <cmath>
#include <cstdint>

#include <Eigen/Core>

#include "core/model/mlp_kernels.h"

#ifndef DIFFUSCOPE_MLP_KERNEL_NS
#error "define DIFFUSCOPE_MLP_KERNEL_NS before including mlp_kernels_impl.h"
#endif

namespace core::model::detail::DIFFUSCOPE_MLP_KERNEL_NS {
namespace {

constexpr double kLayerNormEpsilon = 1e-5;  // PyTorch's nn.LayerNorm default
constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kInvSqrtTwoPi = 0.39894228040143267794;
// Packets wider than malloc's 16-byte alignment: go through aligned temporaries (top of the file).
constexpr bool kAlignedTemporaries = EIGEN_MAX_ALIGN_BYTES > 16;

template <typename Scalar>
struct Types {
    using Mat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
    using RowVec = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;
    using RowMajorMat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using MatMap = Eigen::Map<Mat>;
    using ConstMatMap = Eigen::Map<const Mat>;
    using RowVecMap = Eigen::Map<RowVec>;
    using ConstRowVecMap = Eigen::Map<const RowVec>;
    using RowMap = Eigen::Map<RowMajorMat>;
    using ConstRowMap = Eigen::Map<const RowMajorMat>;
    using Vec = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
    using VecMap = Eigen::Map<Vec>;
    using ConstVecMap = Eigen::Map<const Vec>;
    using StridedMap = Eigen::Map<Mat, 0, Eigen::OuterStride<>>;
    using ConstStridedMap = Eigen::Map<const Mat, 0, Eigen::OuterStride<>>;
};

// out = act(x) elementwise (through an aligned temporary: see the top of the file).
template <typename Scalar, typename Derived, typename Out>
void applyActivation(bool gelu, const Eigen::MatrixBase<Derived>& x, Out&& out) {
    if (!gelu) {
        if constexpr (kAlignedTemporaries) {
            const typename Types<Scalar>::Mat aligned = x.array() / (Scalar(1) + (-x.array()).exp());
            out = aligned;
        } else {
            out = x.array() / (Scalar(1) + (-x.array()).exp());
        }
    } else {
        out = x.unaryExpr([](Scalar v) {
            return Scalar(0.5) * v * (Scalar(1) + std::erf(v * Scalar(kSqrtHalf)));
        });
    }
}

// grad ⊙= act'(x) elementwise.
template <typename Scalar, typename Derived, typename Grad>
void multiplyActivationDerivative(bool gelu, const Eigen::MatrixBase<Derived>& x, Grad& grad) {
    if (!gelu) {
        // d/dx x·σ(x) = σ(x)·(1 + x·(1 − σ(x)))
        grad.array() *= x.unaryExpr([](Scalar v) {
            const Scalar s = Scalar(1) / (Scalar(1) + std::exp(-v));
            return s * (Scalar(1) + v * (Scalar(1) - s));
        }).array();
    } else {
        // d/dx x·Φ(x) = Φ(x) + x·φ(x)
        grad.array() *= x.unaryExpr([](Scalar v) {
            const Scalar cdf = Scalar(0.5) * (Scalar(1) + std::erf(v * Scalar(kSqrtHalf)));
            return cdf + v * Scalar(kInvSqrtTwoPi) * std::exp(Scalar(-0.5) * v * v);
        }).array();
    }
}

template <typename Scalar>
void forward(const MlpView<Scalar>& net, const MlpForwardData<Scalar>& ws, Scalar* outData,
             int64_t outStride) {
    using T = Types<Scalar>;
    using Mat = typename T::Mat;
    using RowVec = typename T::RowVec;
    using MatMap = typename T::MatMap;
    using ConstRowMap = typename T::ConstRowMap;
    using ConstVecMap = typename T::ConstVecMap;
    const Eigen::Index batch = ws.batch;
    const Eigen::Index w = net.width;
    const Scalar* p = net.params;
    const size_t depth = static_cast<size_t>(net.depth);
    auto map = [&](Scalar* data) { return MatMap(data, w, batch); };
    const typename T::ConstMatMap input(ws.input, net.firstInputs, batch);

    map(ws.hidden[0]).noalias() = ConstRowMap(p + net.inW, w, net.firstInputs) * input;
    map(ws.hidden[0]).colwise() += ConstVecMap(p + net.inB, w);
    for (size_t k = 0; k <= depth; ++k) {
        MatMap act1 = map(ws.act1[k]);
        if (net.layerNorm) {
            // LayerNorm over the width, per column: x̂ = (h − μ)/√(var + ε), u = γ x̂ + β.
            // Computed in aligned temporaries (see the top of the file), then copied.
            const Mat h = map(ws.hidden[k]);
            const RowVec mean = h.colwise().mean();
            Mat normed = h.rowwise() - mean;
            const RowVec rstd =
                ((normed.array().square().colwise().sum() / Scalar(w)) + Scalar(kLayerNormEpsilon))
                    .rsqrt()
                    .matrix();
            normed.array().rowwise() *= rstd.array();
            map(ws.normed[k]) = normed;
            typename T::RowVecMap(ws.rstd[k], batch) = rstd;
            // normed holds x̂; the affine part is applied on the fly (backward needs x̂).
            Mat affine = (normed.array().colwise() * ConstVecMap(p + net.normW[k], w).array()).matrix();
            affine.colwise() += ConstVecMap(p + net.normB[k], w);
            applyActivation<Scalar>(net.gelu, affine, act1);
        } else {
            applyActivation<Scalar>(net.gelu, map(ws.hidden[k]), act1);
        }
        if (k == depth) {
            break;
        }
        MatMap pre2 = map(ws.pre2[k]);
        pre2.noalias() = ConstRowMap(p + net.l1W[k], w, w) * act1;
        pre2.colwise() += ConstVecMap(p + net.l1B[k], w);
        applyActivation<Scalar>(net.gelu, pre2, map(ws.act2[k]));
        MatMap next = map(ws.hidden[k + 1]);
        next = map(ws.hidden[k]);
        next.noalias() += ConstRowMap(p + net.l2W[k], w, w) * map(ws.act2[k]);
        next.colwise() += ConstVecMap(p + net.l2B[k], w);
    }
    typename T::StridedMap out(outData, net.outputs, batch, Eigen::OuterStride<>(outStride));
    out.noalias() = ConstRowMap(p + net.outW, net.outputs, w) * map(ws.act1[depth]);
    out.colwise() += ConstVecMap(p + net.outB, net.outputs);
}

template <typename Scalar>
void backward(const MlpView<Scalar>& net, const MlpBackwardData<Scalar>& ws, const Scalar* dOutData,
              int64_t dOutStride, Scalar* g) {
    using T = Types<Scalar>;
    using Mat = typename T::Mat;
    using RowVec = typename T::RowVec;
    using ConstMatMap = typename T::ConstMatMap;
    using ConstRowMap = typename T::ConstRowMap;
    using RowMap = typename T::RowMap;
    using ConstVecMap = typename T::ConstVecMap;
    using VecMap = typename T::VecMap;
    using Vec = typename T::Vec;
    const Eigen::Index w = net.width;
    const Eigen::Index batch = ws.batch;
    const Scalar* p = net.params;
    const size_t depth = static_cast<size_t>(net.depth);
    auto map = [&](const Scalar* data) { return ConstMatMap(data, w, batch); };
    // g[0..rows) += the row sums of x, summed in an aligned vector (see the top of the file).
    auto addRowSums = [](Scalar* to, const auto& x) {
        if constexpr (kAlignedTemporaries) {
            const Vec sums = x.rowwise().sum();
            VecMap(to, x.rows()) += sums;
        } else {
            VecMap(to, x.rows()) += x.rowwise().sum();
        }
    };
    const typename T::ConstStridedMap dOut(dOutData, net.outputs, batch, Eigen::OuterStride<>(dOutStride));

    // Gradient with respect to the input of act at level k (u_k), then through LayerNorm to h_k.
    auto throughNormAndActivation = [&](size_t k, Mat& dAct) {
        if (!net.layerNorm) {
            multiplyActivationDerivative<Scalar>(net.gelu, map(ws.hidden[k]), dAct);
            return;
        }
        const ConstVecMap gamma(p + net.normW[k], w);
        const Mat xhat = map(ws.normed[k]);  // aligned (see the top of the file)
        Mat affine = (xhat.array().colwise() * gamma.array()).matrix();
        affine.colwise() += ConstVecMap(p + net.normB[k], w);
        multiplyActivationDerivative<Scalar>(net.gelu, affine, dAct);
        // dAct is now ∂L/∂u. LayerNorm backward (per column, over the width):
        // ∂L/∂h = rstd·(d x̂ − mean(d x̂) − x̂·mean(d x̂ ⊙ x̂)), d x̂ = γ ⊙ ∂L/∂u.
        addRowSums(g + net.normW[k], (dAct.array() * xhat.array()).matrix());
        addRowSums(g + net.normB[k], dAct);
        Mat dXhat = (dAct.array().colwise() * gamma.array()).matrix();
        const RowVec meanD = dXhat.colwise().mean();
        const RowVec meanDX = (dXhat.array() * xhat.array()).colwise().mean().matrix();
        dAct = dXhat.rowwise() - meanD;
        dAct.array() -= xhat.array().rowwise() * meanDX.array();
        dAct.array().rowwise() *= typename T::ConstRowVecMap(ws.rstd[k], batch).array();
    };

    // Output layer.
    RowMap(g + net.outW, net.outputs, w).noalias() += dOut * map(ws.act1[depth]).transpose();
    addRowSums(g + net.outB, dOut);
    Mat dH = ConstRowMap(p + net.outW, net.outputs, w).transpose() * dOut;
    throughNormAndActivation(depth, dH);

    // Residual blocks in reverse: dH is ∂L/∂h_{k+1}; the skip passes it to h_k unchanged.
    for (size_t kk = depth; kk-- > 0;) {
        const size_t k = kk;
        RowMap(g + net.l2W[k], w, w).noalias() += dH * map(ws.act2[k]).transpose();
        addRowSums(g + net.l2B[k], dH);
        Mat dZ = ConstRowMap(p + net.l2W[k], w, w).transpose() * dH;
        multiplyActivationDerivative<Scalar>(net.gelu, map(ws.pre2[k]), dZ);
        RowMap(g + net.l1W[k], w, w).noalias() += dZ * map(ws.act1[k]).transpose();
        addRowSums(g + net.l1B[k], dZ);
        Mat dU = ConstRowMap(p + net.l1W[k], w, w).transpose() * dZ;
        throughNormAndActivation(k, dU);
        dH += dU;
    }

    // Input layer and condition embedding.
    const Eigen::Index nIn = net.firstInputs;
    const ConstMatMap input(ws.input, nIn, batch);
    RowMap(g + net.inW, w, nIn).noalias() += dH * input.transpose();
    addRowSums(g + net.inB, dH);
    if (net.numConditions > 0) {
        const Eigen::Index ce = net.conditionEmbedding;
        const Mat dEmb = ConstRowMap(p + net.inW, w, nIn).rightCols(ce).transpose() * dH;
        RowMap table(g + net.condEmb, net.numConditions + 1, ce);
        for (Eigen::Index b = 0; b < batch; ++b) {
            table.row(ws.conditions[b]) += dEmb.col(b).transpose();
        }
    }
}

void forwardFloat(const MlpView<float>& net, const MlpForwardData<float>& data, float* out,
                  int64_t outStride) {
    forward<float>(net, data, out, outStride);
}

void backwardFloat(const MlpView<float>& net, const MlpBackwardData<float>& data, const float* dOut,
                   int64_t dOutStride, float* grad) {
    backward<float>(net, data, dOut, dOutStride, grad);
}

}  // namespace
}  // namespace core::model::detail::DIFFUSCOPE_MLP_KERNEL_NS
