// SPDX-License-Identifier: MIT
// The MLP's kernels compiled for AVX2 and FMA (-mavx2 -mfma) (core/CMakeLists.txt gives this file the
// flags), run only on CPUs that have them (mlp_dispatch.cpp). Eigen is seen here under a
// namespace of its own, so none of its instantiations can be merged with another file's.
#include "core/model/mlp_kernels.h"

#if defined(__x86_64__)
#if defined(__AVX2__) && defined(__FMA__)

#define Eigen diffuscope_avx2_Eigen
#define DIFFUSCOPE_MLP_KERNEL_NS avx2
#include "core/model/mlp_kernels_impl.h"

namespace core::model::detail {

const MlpKernels* avx2MlpKernels() {
    static constexpr MlpKernels kernels{"avx2", &avx2::forwardFloat, &avx2::backwardFloat};
    return &kernels;
}

}  // namespace core::model::detail

#else

namespace core::model::detail {

const MlpKernels* avx2MlpKernels() { return nullptr; }

}  // namespace core::model::detail

#endif
#endif
