// SPDX-License-Identifier: MIT
#include "core/model/mlp.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <type_traits>

#include "core/model/mlp_kernels.h"
#include "core/util/rng.h"

// The portable kernels: this build's own instruction set and Eigen.
#define DIFFUSCOPE_MLP_KERNEL_NS portable
#include "core/model/mlp_kernels_impl.h"

namespace core::model {

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

namespace detail {

const MlpKernels kPortableMlpKernels{"portable", &portable::forwardFloat, &portable::backwardFloat};

}  // namespace detail

template <typename Scalar>
detail::MlpView<Scalar> BasicMlp<Scalar>::kernelView() const {
    const MlpConfig& c = m_config;
    detail::MlpView<Scalar> view;
    view.outputs = c.outputs;
    view.width = c.width;
    view.depth = c.depth;
    view.firstInputs = c.firstLayerInputs();
    view.numConditions = c.numConditions;
    view.conditionEmbedding = c.conditionEmbedding;
    view.gelu = c.activation == Activation::GELU;
    view.layerNorm = c.layerNorm;
    view.params = m_params.data();
    view.condEmb = m_condEmb;
    view.inW = m_inW;
    view.inB = m_inB;
    view.outW = m_outW;
    view.outB = m_outB;
    view.normW = m_normW.data();
    view.normB = m_normB.data();
    view.l1W = m_l1W.data();
    view.l1B = m_l1B.data();
    view.l2W = m_l2W.data();
    view.l2B = m_l2B.data();
    return view;
}

namespace {

template <typename Scalar>
using RowMajorMat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The arrays of a workspace (const for backward) as the kernels see them; `pointers` holds them.
template <typename Data, typename Workspace>
Data activations(Workspace& ws, int64_t batch, std::vector<typename Data::Pointer>& pointers) {
    pointers.clear();
    size_t begin[6] = {};
    size_t list = 0;
    auto add = [&](auto& matrices) {
        begin[list++] = pointers.size();
        for (auto& m : matrices) {
            pointers.push_back(m.data());
        }
    };
    add(ws.hidden);
    add(ws.normed);
    add(ws.rstd);
    add(ws.act1);
    add(ws.pre2);
    add(ws.act2);
    pointers.push_back(nullptr);  // no reallocation below; data() valid even when all are empty
    Data data;
    data.batch = batch;
    data.input = ws.input.data();
    data.conditions = ws.conditions.empty() ? nullptr : ws.conditions.data();
    data.hidden = pointers.data() + begin[0];
    data.normed = pointers.data() + begin[1];
    data.rstd = pointers.data() + begin[2];
    data.act1 = pointers.data() + begin[3];
    data.pre2 = pointers.data() + begin[4];
    data.act2 = pointers.data() + begin[5];
    return data;
}

}  // namespace

template <typename Scalar>
void BasicMlp<Scalar>::forward(const Eigen::Ref<const Mat>& x,
                               std::span<const double> t,
                               std::span<const int> conditions,
                               Workspace& ws,
                               Eigen::Ref<Mat> out) const {
    using ConstRowMap = Eigen::Map<const RowMajorMat<Scalar>>;
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
    const size_t norms = c.layerNorm ? depth + 1 : 0;
    auto sized = [&](std::vector<Mat>& list, size_t count) {
        list.resize(count);
        for (Mat& m : list) {
            m.resize(w, batch);
        }
    };
    sized(ws.hidden, depth + 1);
    sized(ws.act1, depth + 1);
    sized(ws.pre2, depth);
    sized(ws.act2, depth);
    sized(ws.normed, norms);
    ws.rstd.resize(norms);
    for (RowVec& v : ws.rstd) {
        v.resize(batch);
    }
    std::vector<Scalar*> pointers;
    const auto data = activations<detail::MlpForwardData<Scalar>>(ws, batch, pointers);
    if constexpr (std::is_same_v<Scalar, float>) {
        detail::activeMlpKernels().forward(kernelView(), data, out.data(), out.outerStride());
    } else {
        detail::portable::forward<Scalar>(kernelView(), data, out.data(), out.outerStride());
    }
}

template <typename Scalar>
void BasicMlp<Scalar>::backward(const Workspace& ws,
                                const Eigen::Ref<const Mat>& dOut,
                                std::span<Scalar> grad) const {
    eigen_assert(static_cast<int64_t>(grad.size()) == numParameters());
    eigen_assert(dOut.rows() == m_config.outputs && dOut.cols() == ws.input.cols());
    std::vector<const Scalar*> pointers;
    const auto data = activations<detail::MlpBackwardData<Scalar>>(ws, dOut.cols(), pointers);
    if constexpr (std::is_same_v<Scalar, float>) {
        detail::activeMlpKernels().backward(kernelView(), data, dOut.data(), dOut.outerStride(), grad.data());
    } else {
        detail::portable::backward<Scalar>(kernelView(), data, dOut.data(), dOut.outerStride(), grad.data());
    }
}

template class BasicMlp<float>;
template class BasicMlp<double>;

}  // namespace core::model
