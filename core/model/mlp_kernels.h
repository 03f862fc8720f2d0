// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

// The layers of BasicMlp (mlp.h) as kernels over plain arrays, so that one body
// (mlp_kernels_impl.h) can be compiled more than once: for the build's own instruction set
// (mlp.cpp) and, on x86-64, for AVX2/FMA and for AVX-512 (mlp_kernels_avx2.cpp,
// mlp_kernels_avx512.cpp), chosen once at start-up by the CPU (mlp_dispatch.cpp). This header
// includes no Eigen: the other instruction sets' files see Eigen under a namespace of their own
// (see mlp_kernels_impl.h), and nothing of theirs may be merged with the default build's.
//
// Matrices are column-major (one example per column) unless named row-major; every array is
// contiguous. Offsets index the flat parameter vector, −1 when absent.
namespace core::model::detail {

template <typename Scalar>
struct MlpView {
    int outputs = 1;
    int width = 1;
    int depth = 0;
    int firstInputs = 1;             // rows of the input z
    int numConditions = 0;
    int conditionEmbedding = 0;
    bool gelu = false;               // SiLU otherwise
    bool layerNorm = false;
    const Scalar* params = nullptr;  // the flat parameter vector
    int64_t condEmb = -1, inW = 0, inB = 0, outW = 0, outB = 0;
    const int64_t* normW = nullptr;  // depth + 1 entries each
    const int64_t* normB = nullptr;
    const int64_t* l1W = nullptr;    // depth entries each
    const int64_t* l1B = nullptr;
    const int64_t* l2W = nullptr;
    const int64_t* l2B = nullptr;
};

// The activations of one forward pass (BasicMlp::Workspace), allocated by the caller.
template <typename Scalar, typename Ptr>
struct MlpActivations {
    using Pointer = Ptr;
    int64_t batch = 0;
    const Scalar* input = nullptr;   // z, firstInputs × batch
    const int* conditions = nullptr; // batch entries (conditional networks)
    const Ptr* hidden = nullptr;     // depth + 1 arrays, width × batch
    const Ptr* normed = nullptr;     // depth + 1 (layer norm only), width × batch
    const Ptr* rstd = nullptr;       // depth + 1 (layer norm only), batch
    const Ptr* act1 = nullptr;       // depth + 1, width × batch
    const Ptr* pre2 = nullptr;       // depth, width × batch
    const Ptr* act2 = nullptr;       // depth, width × batch
};

template <typename Scalar>
using MlpForwardData = MlpActivations<Scalar, Scalar*>;
template <typename Scalar>
using MlpBackwardData = MlpActivations<Scalar, const Scalar*>;

// One instruction set's float kernels.
struct MlpKernels {
    const char* name;  // "portable", "avx2", "avx512"
    // Fills the activations from data.input and writes out (outputs × batch, column stride
    // outStride).
    void (*forward)(const MlpView<float>& net, const MlpForwardData<float>& data, float* out,
                    int64_t outStride);
    // Adds ∂L/∂θ to grad given dOut (outputs × batch, column stride dOutStride).
    void (*backward)(const MlpView<float>& net, const MlpBackwardData<float>& data,
                     const float* dOut, int64_t dOutStride, float* grad);
};

extern const MlpKernels kPortableMlpKernels;  // mlp.cpp
#if defined(__x86_64__)
// Compiled for their instruction sets; call only on a CPU that has it (mlp_dispatch.cpp).
// Null when the compiler did not get the flags (a build without the x86-64 options).
const MlpKernels* avx2MlpKernels();
const MlpKernels* avx512MlpKernels();
#endif

// The float kernels in use (chosen once, changed by setMlpCpuDispatch in mlp.h or below).
const MlpKernels& activeMlpKernels();
// Uses the kernels named "portable", "avx2" or "avx512" if this build has them and the CPU runs
// them (false, and no change, otherwise): for tests and benchmarks of each kernel set.
bool selectMlpKernels(const char* name);

}  // namespace core::model::detail
