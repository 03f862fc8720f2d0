// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/model/mlp_kernels.h"
#include "core/util/result.h"

// A residual MLP with manual gradients, the network behind the learned denoisers
// (double for analysis, float for networks: `Mlp` is float32; `MlpDouble` is the same
// code in double, used as the finite-difference reference in tests).
//
// Architecture (batches are column-major: one example per column):
//   z      = [x ; temb(t) ; condition_embedding[c]]                      (inputs + E + Ce)
//   h_0    = input.weight · z + input.bias                               (width)
//   block b (b = 0..depth−1, pre-activation residual):
//     u    = LayerNorm_b(h_b)  (blocks.b.norm; identity without layer norm)
//     h_b+1 = h_b + linear2(act(linear1(act(u))))
//   out    = output.weight · act(LayerNorm_out(h_depth)) + output.bias   (outputs)
// act is SiLU x·σ(x) or exact GELU x·Φ(x) (PyTorch's nn.SiLU / nn.GELU()); LayerNorm is
// PyTorch's (biased variance, ε = 1e−5, affine).
// temb(t) = [sin(s·t·ω_0), …, sin(s·t·ω_{H−1}), cos(s·t·ω_0), …, cos(s·t·ω_{H−1})] with
// H = E/2, ω_i = 10000^(−i/H), s = timeScale (DDPM's sinusoidal embedding of Vaswani et al. 2017
// applied to s·t, so t ∈ [0, 1] with s = 1000 spans the frequencies of N = 1000 timesteps).
//
// Parameters, as named tensors with PyTorch's names and shapes (weights [out, in], row-major,
// exactly as nn.Linear stores them), in this order:
//   condition_embedding.weight  [numConditions + 1, Ce]  only if numConditions > 0; row
//                                                        numConditions = "no condition"
//   input.weight                [width, inputs + E + Ce]
//   input.bias                  [width]
//   blocks.{b}.norm.weight      [width]                  only with layer norm
//   blocks.{b}.norm.bias        [width]                  only with layer norm
//   blocks.{b}.linear1.weight   [width, width]
//   blocks.{b}.linear1.bias     [width]
//   blocks.{b}.linear2.weight   [width, width]
//   blocks.{b}.linear2.bias     [width]
//   output_norm.weight          [width]                  only with layer norm
//   output_norm.bias            [width]                  only with layer norm
//   output.weight               [outputs, width]
//   output.bias                 [outputs]
// A PyTorch module with these attribute names (nn.Embedding, nn.Linear, nn.LayerNorm,
// nn.ModuleList "blocks") has the same state_dict keys.
namespace core::model {

enum class Activation { SiLU, GELU };

struct MlpConfig {
    int inputs = 1;                 // data inputs: D·K one-hot (categorical) or d (Gaussian)
    int outputs = 1;                // D·K logits or d components of ε
    int width = 128;                // hidden width
    int depth = 2;                  // residual blocks (≥ 0)
    Activation activation = Activation::SiLU;  // nonlinearity
    bool layerNorm = false;         // LayerNorm before each block and before the output layer
    int timeEmbedding = 32;         // E, size of the sinusoidal embedding of t (even, 0 = none)
    double timeScale = 1000.0;      // s in temb(t): the embedding sees s·t
    int numConditions = 0;          // condition labels (0 = unconditional, no embedding)
    int conditionEmbedding = 32;    // Ce, size of the learned condition embedding

    // Errors name the field ("width", "timeEmbedding", ...).
    Status validate() const;
    // Inputs of the first layer: inputs + E + (numConditions > 0 ? Ce : 0).
    int firstLayerInputs() const;
    // The index meaning "no condition" (classifier-free guidance): numConditions.
    int noCondition() const { return numConditions; }
};

const char* activationName(Activation activation);   // "silu" / "gelu"
Result<Activation> parseActivation(const std::string& name, const std::string& field = "activation");

// A parameter tensor as safetensors and PyTorch see it: a name, a shape and row-major data.
struct NamedTensor {
    std::string name;            // e.g. "blocks.0.linear1.weight"
    std::vector<int64_t> shape;  // e.g. {width, width}
    std::vector<float> data;     // row-major, Π shape entries
};

// Where one tensor lives in the flat parameter vector.
struct TensorSpec {
    std::string name;            // as in NamedTensor
    std::vector<int64_t> shape;  // as in NamedTensor
    int64_t offset = 0;          // first element in the flat vector
    int64_t size = 0;            // Π shape
};

template <typename Scalar>
class BasicMlp {
public:
    using Mat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
    using Vec = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
    using RowVec = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;

    // Activations of one forward pass, kept for backward. Owned by the caller; one per thread.
    struct Workspace {
        Mat input;                     // z, firstLayerInputs × B
        std::vector<int> conditions;   // condition per column (empty when unconditional)
        std::vector<Mat> hidden;       // h_0 .. h_depth
        std::vector<Mat> normed;       // normalised x̂ = (h − μ)/σ of each LayerNorm (depth + 1;
                                       // empty without norm); the affine γ x̂ + β is recomputed
        std::vector<RowVec> rstd;      // 1/σ per column of each LayerNorm
        std::vector<Mat> act1;         // act(u) per block and before the output (depth + 1)
        std::vector<Mat> pre2;         // linear1 outputs (depth)
        std::vector<Mat> act2;         // act(linear1 outputs) (depth)
    };

    BasicMlp() = default;

    // A network with parameters initialised deterministically from `seed` (CounterRng keyed by
    // (seed, tensor index)): linear layers as PyTorch's nn.Linear, U(−1/√fan_in, 1/√fan_in)
    // for weights and biases; embeddings N(0, 1); LayerNorm weight 1, bias 0.
    static Result<BasicMlp> create(const MlpConfig& config, uint64_t seed);

    const MlpConfig& config() const { return m_config; }
    int64_t numParameters() const { return static_cast<int64_t>(m_params.size()); }
    const std::vector<TensorSpec>& layout() const { return m_layout; }
    // The flat parameter vector (tensors of layout() back to back); optimisers work on it.
    std::span<const Scalar> flat() const { return m_params; }
    std::span<Scalar> flat() { return m_params; }

    // Copies of the parameters as named tensors (float), in layout() order.
    std::vector<NamedTensor> parameters() const;
    // Sets every parameter from named tensors (any order). Errors name the tensor: missing,
    // unknown, wrong shape, wrong element count or non-finite values. On error nothing changes.
    Status setParameters(const std::vector<NamedTensor>& tensors);

    // out = network(x, t, c) for a batch of B columns. x is inputs × B; t has B times;
    // conditions has B indices in 0..numConditions (numConditions = none), ignored (may be
    // empty) when the network is unconditional; out must be outputs × B. Keeps what backward
    // needs in `ws`. Const and thread-safe with one workspace per thread.
    void forward(const Eigen::Ref<const Mat>& x,
                 std::span<const double> t,
                 std::span<const int> conditions,
                 Workspace& ws,
                 Eigen::Ref<Mat> out) const;

    // Adds ∂L/∂θ to grad (layout() order, numParameters() entries) given dOut = ∂L/∂out of the
    // last forward through `ws`. Does not change the network or the workspace.
    void backward(const Workspace& ws, const Eigen::Ref<const Mat>& dOut, std::span<Scalar> grad) const;

    // The sinusoidal time embedding (E entries) into out; exposed for tests.
    static void timeEmbedding(double t, int size, double scale, Scalar* out);

private:
    // The network as the kernels (mlp_kernels.h) see it.
    detail::MlpView<Scalar> kernelView() const;

    MlpConfig m_config;
    std::vector<Scalar> m_params;
    std::vector<TensorSpec> m_layout;
    // Offsets into m_params, −1 when absent.
    int64_t m_condEmb = -1;
    int64_t m_inW = 0, m_inB = 0;
    std::vector<int64_t> m_normW, m_normB;      // depth + 1 (last = output_norm), −1 without
    std::vector<int64_t> m_l1W, m_l1B, m_l2W, m_l2B;  // depth
    int64_t m_outW = 0, m_outB = 0;
};

extern template class BasicMlp<float>;
extern template class BasicMlp<double>;

using Mlp = BasicMlp<float>;
using MlpDouble = BasicMlp<double>;

// The matrix kernels Mlp runs (MlpDouble always runs the portable ones): "portable", compiled
// for the build's instruction set (SSE2 on x86-64 unless DIFFUSCOPE_NATIVE_ARCH), or on x86-64
// "avx2" (AVX2 + FMA) or "avx512" (AVX-512 F/DQ/VL/BW + FMA), the best the CPU has, chosen at
// the first use. The results differ from the portable kernels' by rounding only (FMA, wider
// sums); every kernel set is deterministic and the same for any thread count.
// DIFFUSCOPE_NO_CPU_DISPATCH=1 in the environment keeps the portable kernels.
const char* mlpKernelName();
// true: choose as at start-up (the CPU's best kernels, the portable ones if
// DIFFUSCOPE_NO_CPU_DISPATCH is set and not 0, reading the environment again); false: the
// portable ones. For tests and comparisons; call it while no network is running.
void setMlpCpuDispatch(bool enabled);

}  // namespace core::model
