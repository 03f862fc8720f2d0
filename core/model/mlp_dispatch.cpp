// SPDX-License-Identifier: MIT
// Chooses the MLP's float kernels (mlp_kernels.h) once, by what the CPU supports.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "core/model/mlp.h"
#include "core/model/mlp_kernels.h"

namespace core::model {

namespace {

const detail::MlpKernels* bestKernels() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        if (const detail::MlpKernels* kernels = detail::avx512MlpKernels()) {
            return kernels;
        }
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        if (const detail::MlpKernels* kernels = detail::avx2MlpKernels()) {
            return kernels;
        }
    }
#endif
    return &detail::kPortableMlpKernels;
}

bool dispatchWanted() {
    const char* value = std::getenv("DIFFUSCOPE_NO_CPU_DISPATCH");
    return value == nullptr || *value == '\0' || std::strcmp(value, "0") == 0;
}

std::atomic<const detail::MlpKernels*>& active() {
    static std::atomic<const detail::MlpKernels*> kernels{dispatchWanted() ? bestKernels()
                                                                           : &detail::kPortableMlpKernels};
    return kernels;
}

}  // namespace

const detail::MlpKernels& detail::activeMlpKernels() { return *active().load(std::memory_order_relaxed); }

const char* mlpKernelName() { return detail::activeMlpKernels().name; }

void setMlpCpuDispatch(bool enabled) {
    active().store(enabled && dispatchWanted() ? bestKernels() : &detail::kPortableMlpKernels,
                   std::memory_order_relaxed);
}

}  // namespace core::model
