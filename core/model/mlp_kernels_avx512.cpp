// SPDX-License-Identifier: MIT
// The MLP's kernels compiled for AVX-512 F/DQ/VL/BW and FMA (core/CMakeLists.txt gives this file the
// flags), run only on CPUs that have them (mlp_dispatch.cpp). Eigen is seen here under a
// namespace of its own, so none of its instantiations can be merged with another file's.
#include "core/model/mlp_kernels.h"

#if defined(__x86_64__)
#if defined(__AVX512F__) && defined(__AVX512DQ__) && defined(__AVX512VL__) && defined(__AVX512BW__) && defined(__FMA__)

#define Eigen diffuscope_avx512_Eigen
#define DIFFUSCOPE_MLP_KERNEL_NS avx512
#include "core/model/mlp_kernels_impl.h"

namespace core::model::detail {

const MlpKernels* avx512MlpKernels() {
    static constexpr MlpKernels kernels{"avx512", &avx512::forwardFloat, &avx512::backwardFloat};
    return &kernels;
}

}  // namespace core::model::detail

#else

namespace core::model::detail {

const MlpKernels* avx512MlpKernels() { return nullptr; }

}  // namespace core::model::detail

#endif
#endif
