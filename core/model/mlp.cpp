// SPDX-License-Identifier: MIT
#include "core/model/mlp.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/util/rng.h"

namespace core::model {

namespace {

constexpr double kLayerNormEpsilon = 1e-5;  // PyTorch's nn.LayerNorm default
constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kInvSqrtTwoPi = 0.39894228040143267794;

template <typename Scalar>
using RowMajorMat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// act(x) elementwise.
template <typename Scalar, typename Derived>
void applyActivation(Activation activation, const Eigen::MatrixBase<Derived>& x,
                     Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& out) {
    out.resize(x.rows(), x.cols());
    if (activation == Activation::SiLU) {
        out = x.array() / (Scalar(1) + (-x.array()).exp());
    } else {
        out = x.unaryExpr([](Scalar v) {
            return Scalar(0.5) * v * (Scalar(1) + std::erf(v * Scalar(kSqrtHalf)));
        });
    }
}

// grad ⊙= act'(x) elementwise.
template <typename Scalar, typename Derived>
void multiplyActivationDerivative(Activation activation, const Eigen::MatrixBase<Derived>& x,
                                  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& grad) {
    if (activation == Activation::SiLU) {
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

}  // namespace

Status MlpConfig::validate() const {
    if (inputs < 1) {
        return invalidArgument("inputs", std::to_string(inputs), "the network needs at least one input");
    }
    if (outputs < 1) {
        return invalidArgument("outputs", std::to_string(outputs), "the network needs at least one output");
    }
    if (width < 1) {
        return invalidArgument("width", std::to_string(width), "the width must be at least 1");
    }
    if (depth < 0) {
        return invalidArgument("depth", std::to_string(depth), "the number of residual blocks must be ≥ 0");
    }
    if (timeEmbedding < 0 || timeEmbedding % 2 != 0) {
        return invalidArgument("timeEmbedding", std::to_string(timeEmbedding),
                               "the time embedding size must be even and ≥ 0");
    }
    if (!std::isfinite(timeScale) || timeScale <= 0.0) {
        return invalidArgument("timeScale", formatValue(timeScale), "the time scale must be finite and > 0");
    }
    if (numConditions < 0) {
        return invalidArgument("numConditions", std::to_string(numConditions),
                               "the number of conditions must be ≥ 0");
    }
    if (numConditions > 0 && conditionEmbedding < 1) {
        return invalidArgument("conditionEmbedding", std::to_string(conditionEmbedding),
                               "a conditional network needs a condition embedding of size ≥ 1");
    }
    return {};
}

int MlpConfig::firstLayerInputs() const {
    return inputs + timeEmbedding + (numConditions > 0 ? conditionEmbedding : 0);
}

const char* activationName(Activation activation) {
    return activation == Activation::SiLU ? "silu" : "gelu";
}

Result<Activation> parseActivation(const std::string& name, const std::string& field) {
    if (name == "silu" || name == "SiLU") {
        return Activation::SiLU;
    }
    if (name == "gelu" || name == "GELU") {
        return Activation::GELU;
    }
    return invalidArgument(field, name, "unknown activation (expected silu or gelu)");
}

template <typename Scalar>
void BasicMlp<Scalar>::timeEmbedding(double t, int size, double scale, Scalar* out) {
    const int half = size / 2;
    for (int i = 0; i < half; ++i) {
        const double omega = std::exp(-std::log(10000.0) * static_cast<double>(i) / half);
        const double arg = scale * t * omega;
        out[i] = static_cast<Scalar>(std::sin(arg));
        out[half + i] = static_cast<Scalar>(std::cos(arg));
    }
}

template <typename Scalar>
Result<BasicMlp<Scalar>> BasicMlp<Scalar>::create(const MlpConfig& config, uint64_t seed) {
    if (Status s = config.validate(); !s) {
        return s.error();
    }
    BasicMlp mlp;
    mlp.m_config = config;
    const int64_t w = config.width;
    int64_t offset = 0;
    auto add = [&](std::string name, std::vector<int64_t> shape) {
        int64_t size = 1;
        for (int64_t e : shape) {
            size *= e;
        }
        mlp.m_layout.push_back(TensorSpec{std::move(name), std::move(shape), offset, size});
        offset += size;
        return offset - size;
    };
    if (config.numConditions > 0) {
        mlp.m_condEmb = add("condition_embedding.weight", {config.numConditions + 1, config.conditionEmbedding});
    }
    mlp.m_inW = add("input.weight", {w, config.firstLayerInputs()});
    mlp.m_inB = add("input.bias", {w});
    for (int b = 0; b < config.depth; ++b) {
        const std::string prefix = "blocks." + std::to_string(b) + ".";
        if (config.layerNorm) {
            mlp.m_normW.push_back(add(prefix + "norm.weight", {w}));
            mlp.m_normB.push_back(add(prefix + "norm.bias", {w}));
        } else {
            mlp.m_normW.push_back(-1);
            mlp.m_normB.push_back(-1);
        }
        mlp.m_l1W.push_back(add(prefix + "linear1.weight", {w, w}));
        mlp.m_l1B.push_back(add(prefix + "linear1.bias", {w}));
        mlp.m_l2W.push_back(add(prefix + "linear2.weight", {w, w}));
        mlp.m_l2B.push_back(add(prefix + "linear2.bias", {w}));
    }
    if (config.layerNorm) {
        mlp.m_normW.push_back(add("output_norm.weight", {w}));
        mlp.m_normB.push_back(add("output_norm.bias", {w}));
    } else {
        mlp.m_normW.push_back(-1);
        mlp.m_normB.push_back(-1);
    }
    mlp.m_outW = add("output.weight", {config.outputs, w});
    mlp.m_outB = add("output.bias", {config.outputs});
    mlp.m_params.assign(static_cast<size_t>(offset), Scalar(0));

    // Deterministic init, one counter-based stream per tensor, PyTorch's defaults.
    for (size_t k = 0; k < mlp.m_layout.size(); ++k) {
        const TensorSpec& spec = mlp.m_layout[k];
        CounterRng rng(seed, k, 0);
        Scalar* p = mlp.m_params.data() + spec.offset;
        const std::string& name = spec.name;
        const bool isNorm = name.find("norm.") != std::string::npos;
        if (name == "condition_embedding.weight") {
            for (int64_t i = 0; i < spec.size; ++i) {
                p[i] = static_cast<Scalar>(rng.normal());
            }
        } else if (isNorm) {
            const bool weight = name.ends_with(".weight");
            for (int64_t i = 0; i < spec.size; ++i) {
                p[i] = weight ? Scalar(1) : Scalar(0);
            }
        } else {
            // nn.Linear: weight and bias ~ U(−1/√fan_in, 1/√fan_in); fan_in = the weight's
            // column count (the bias uses its layer's weight).
            int64_t fanIn = w;
            if (name.starts_with("input.")) {
                fanIn = config.firstLayerInputs();
            }
            const double bound = 1.0 / std::sqrt(static_cast<double>(fanIn));
            for (int64_t i = 0; i < spec.size; ++i) {
                p[i] = static_cast<Scalar>((2.0 * rng.uniform() - 1.0) * bound);
            }
        }
    }
    return mlp;
}

template <typename Scalar>
std::vector<NamedTensor> BasicMlp<Scalar>::parameters() const {
    std::vector<NamedTensor> out;
    out.reserve(m_layout.size());
    for (const TensorSpec& spec : m_layout) {
        NamedTensor t{spec.name, spec.shape, std::vector<float>(static_cast<size_t>(spec.size))};
        for (int64_t i = 0; i < spec.size; ++i) {
            t.data[static_cast<size_t>(i)] = static_cast<float>(m_params[static_cast<size_t>(spec.offset + i)]);
        }
        out.push_back(std::move(t));
    }
    return out;
}

template <typename Scalar>
Status BasicMlp<Scalar>::setParameters(const std::vector<NamedTensor>& tensors) {
    std::map<std::string, const NamedTensor*> byName;
    for (const NamedTensor& t : tensors) {
        if (!byName.emplace(t.name, &t).second) {
            return invalidArgument(t.name, "", "tensor given twice");
        }
    }
    auto shapeText = [](const std::vector<int64_t>& shape) {
        std::string s = "[";
        for (size_t i = 0; i < shape.size(); ++i) {
            s += (i ? ", " : "") + std::to_string(shape[i]);
        }
        return s + "]";
    };
    for (const TensorSpec& spec : m_layout) {
        auto it = byName.find(spec.name);
        if (it == byName.end()) {
            return invalidArgument(spec.name, "", "tensor missing (expected shape " + shapeText(spec.shape) + ")");
        }
        const NamedTensor& t = *it->second;
        if (t.shape != spec.shape) {
            return invalidArgument(spec.name, shapeText(t.shape),
                                   "wrong shape, expected " + shapeText(spec.shape));
        }
        if (static_cast<int64_t>(t.data.size()) != spec.size) {
            return invalidArgument(spec.name, std::to_string(t.data.size()),
                                   "element count does not match the shape " + shapeText(spec.shape));
        }
        for (size_t i = 0; i < t.data.size(); ++i) {
            if (!std::isfinite(t.data[i])) {
                return makeError(ErrorCode::NumericalError, spec.name, formatValue(t.data[i]),
                                 "non-finite value at element " + std::to_string(i));
            }
        }
        byName.erase(it);
    }
    if (!byName.empty()) {
        return invalidArgument(byName.begin()->first, "", "unknown tensor for this architecture");
    }
    for (const TensorSpec& spec : m_layout) {
        const NamedTensor& t = *std::find_if(tensors.begin(), tensors.end(),
                                             [&](const NamedTensor& n) { return n.name == spec.name; });
        for (int64_t i = 0; i < spec.size; ++i) {
            m_params[static_cast<size_t>(spec.offset + i)] = static_cast<Scalar>(t.data[static_cast<size_t>(i)]);
        }
    }
    return {};
}

template <typename Scalar>
void BasicMlp<Scalar>::forward(const Eigen::Ref<const Mat>& x,
                               std::span<const double> t,
                               std::span<const int> conditions,
                               Workspace& ws,
                               Eigen::Ref<Mat> out) const {
    using ConstRowMap = Eigen::Map<const RowMajorMat<Scalar>>;
    using ConstVecMap = Eigen::Map<const Vec>;
    const MlpConfig& c = m_config;
    const Eigen::Index batch = x.cols();
    const Eigen::Index w = c.width;
    const Scalar* p = m_params.data();
    eigen_assert(x.rows() == c.inputs && static_cast<Eigen::Index>(t.size()) == batch);
    eigen_assert(out.rows() == c.outputs && out.cols() == batch);

    // z = [x; temb(t); condition embedding]
    ws.input.resize(c.firstLayerInputs(), batch);
    ws.input.topRows(c.inputs) = x;
    for (Eigen::Index b = 0; b < batch; ++b) {
        timeEmbedding(t[static_cast<size_t>(b)], c.timeEmbedding, c.timeScale,
                      ws.input.col(b).data() + c.inputs);
    }
    ws.conditions.clear();
    if (c.numConditions > 0) {
        eigen_assert(static_cast<Eigen::Index>(conditions.size()) == batch);
        ws.conditions.assign(conditions.begin(), conditions.end());
        const ConstRowMap table(p + m_condEmb, c.numConditions + 1, c.conditionEmbedding);
        for (Eigen::Index b = 0; b < batch; ++b) {
            const int cond = conditions[static_cast<size_t>(b)];
            eigen_assert(cond >= 0 && cond <= c.numConditions);
            ws.input.col(b).tail(c.conditionEmbedding) = table.row(cond).transpose();
        }
    }

    const size_t depth = static_cast<size_t>(c.depth);
    ws.hidden.resize(depth + 1);
    ws.act1.resize(depth + 1);
    ws.pre2.resize(depth);
    ws.act2.resize(depth);
    ws.normed.resize(c.layerNorm ? depth + 1 : 0);
    ws.rstd.resize(c.layerNorm ? depth + 1 : 0);

    ws.hidden[0].noalias() = ConstRowMap(p + m_inW, w, ws.input.rows()) * ws.input;
    ws.hidden[0].colwise() += ConstVecMap(p + m_inB, w);
    for (size_t k = 0; k <= depth; ++k) {
        const Mat* u = &ws.hidden[k];
        if (c.layerNorm) {
            // LayerNorm over the width, per column: x̂ = (h − μ)/√(var + ε), u = γ x̂ + β.
            const Mat& h = ws.hidden[k];
            Mat& normed = ws.normed[k];
            const RowVec mean = h.colwise().mean();
            normed = h.rowwise() - mean;
            ws.rstd[k] = ((normed.array().square().colwise().sum() / Scalar(w)) + Scalar(kLayerNormEpsilon))
                             .rsqrt()
                             .matrix();
            normed.array().rowwise() *= ws.rstd[k].array();
            // normed now holds x̂; the affine part is applied on the fly (backward needs x̂).
            Mat affine = (normed.array().colwise() * ConstVecMap(p + m_normW[k], w).array()).matrix();
            affine.colwise() += ConstVecMap(p + m_normB[k], w);
            applyActivation<Scalar>(c.activation, affine, ws.act1[k]);
        } else {
            applyActivation<Scalar>(c.activation, *u, ws.act1[k]);
        }
        if (k == depth) {
            break;
        }
        ws.pre2[k].noalias() = ConstRowMap(p + m_l1W[k], w, w) * ws.act1[k];
        ws.pre2[k].colwise() += ConstVecMap(p + m_l1B[k], w);
        applyActivation<Scalar>(c.activation, ws.pre2[k], ws.act2[k]);
        ws.hidden[k + 1] = ws.hidden[k];
        ws.hidden[k + 1].noalias() += ConstRowMap(p + m_l2W[k], w, w) * ws.act2[k];
        ws.hidden[k + 1].colwise() += ConstVecMap(p + m_l2B[k], w);
    }
    out.noalias() = ConstRowMap(p + m_outW, c.outputs, w) * ws.act1[depth];
    out.colwise() += ConstVecMap(p + m_outB, c.outputs);
}

template <typename Scalar>
void BasicMlp<Scalar>::backward(const Workspace& ws,
                                const Eigen::Ref<const Mat>& dOut,
                                std::span<Scalar> grad) const {
    using ConstRowMap = Eigen::Map<const RowMajorMat<Scalar>>;
    using RowMap = Eigen::Map<RowMajorMat<Scalar>>;
    using ConstVecMap = Eigen::Map<const Vec>;
    using VecMap = Eigen::Map<Vec>;
    const MlpConfig& c = m_config;
    const Eigen::Index w = c.width;
    const Eigen::Index batch = dOut.cols();
    const Scalar* p = m_params.data();
    Scalar* g = grad.data();
    eigen_assert(static_cast<int64_t>(grad.size()) == numParameters());
    const size_t depth = static_cast<size_t>(c.depth);

    // Gradient with respect to the input of act at level k (u_k), then through LayerNorm to h_k.
    auto throughNormAndActivation = [&](size_t k, Mat& dAct) {
        if (!c.layerNorm) {
            multiplyActivationDerivative<Scalar>(c.activation, ws.hidden[k], dAct);
            return;
        }
        const ConstVecMap gamma(p + m_normW[k], w);
        const Mat& xhat = ws.normed[k];
        Mat affine = (xhat.array().colwise() * gamma.array()).matrix();
        affine.colwise() += ConstVecMap(p + m_normB[k], w);
        multiplyActivationDerivative<Scalar>(c.activation, affine, dAct);
        // dAct is now ∂L/∂u. LayerNorm backward (per column, over the width):
        // ∂L/∂h = rstd·(d x̂ − mean(d x̂) − x̂·mean(d x̂ ⊙ x̂)), d x̂ = γ ⊙ ∂L/∂u.
        VecMap(g + m_normW[k], w) += (dAct.array() * xhat.array()).rowwise().sum().matrix();
        VecMap(g + m_normB[k], w) += dAct.rowwise().sum();
        Mat dXhat = (dAct.array().colwise() * gamma.array()).matrix();
        const RowVec meanD = dXhat.colwise().mean();
        const RowVec meanDX = (dXhat.array() * xhat.array()).colwise().mean().matrix();
        dAct = dXhat.rowwise() - meanD;
        dAct.array() -= xhat.array().rowwise() * meanDX.array();
        dAct.array().rowwise() *= ws.rstd[k].array();
    };

    // Output layer.
    RowMap(g + m_outW, c.outputs, w).noalias() += dOut * ws.act1[depth].transpose();
    VecMap(g + m_outB, c.outputs) += dOut.rowwise().sum();
    Mat dH = ConstRowMap(p + m_outW, c.outputs, w).transpose() * dOut;
    throughNormAndActivation(depth, dH);

    // Residual blocks in reverse: dH is ∂L/∂h_{k+1}; the skip passes it to h_k unchanged.
    for (size_t kk = depth; kk-- > 0;) {
        const size_t k = kk;
        RowMap(g + m_l2W[k], w, w).noalias() += dH * ws.act2[k].transpose();
        VecMap(g + m_l2B[k], w) += dH.rowwise().sum();
        Mat dZ = ConstRowMap(p + m_l2W[k], w, w).transpose() * dH;
        multiplyActivationDerivative<Scalar>(c.activation, ws.pre2[k], dZ);
        RowMap(g + m_l1W[k], w, w).noalias() += dZ * ws.act1[k].transpose();
        VecMap(g + m_l1B[k], w) += dZ.rowwise().sum();
        Mat dU = ConstRowMap(p + m_l1W[k], w, w).transpose() * dZ;
        throughNormAndActivation(k, dU);
        dH += dU;
    }

    // Input layer and condition embedding.
    const Eigen::Index nIn = ws.input.rows();
    RowMap(g + m_inW, w, nIn).noalias() += dH * ws.input.transpose();
    VecMap(g + m_inB, w) += dH.rowwise().sum();
    if (c.numConditions > 0) {
        const Eigen::Index ce = c.conditionEmbedding;
        const Mat dEmb = ConstRowMap(p + m_inW, w, nIn).rightCols(ce).transpose() * dH;
        RowMap table(g + m_condEmb, c.numConditions + 1, ce);
        for (Eigen::Index b = 0; b < batch; ++b) {
            table.row(ws.conditions[static_cast<size_t>(b)]) += dEmb.col(b).transpose();
        }
    }
}

template class BasicMlp<float>;
template class BasicMlp<double>;

}  // namespace core::model
