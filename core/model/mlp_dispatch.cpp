// SPDX-License-Identifier: MIT
// Chooses the MLP's float kernels (mlp_kernels.h) once, by what the CPU supports.
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/model/mlp.h"
#include "core/model/mlp_kernels.h"

namespace core::model {

namespace {

// The kernel sets this build has and this CPU runs, best first; the portable ones last.
std::vector<const detail::MlpKernels*> availableKernels() {
    std::vector<const detail::MlpKernels*> kernels;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw")) {
        if (const detail::MlpKernels* k = detail::avx512MlpKernels()) {
            kernels.push_back(k);
        }
    }
    if (avx2) {
        if (const detail::MlpKernels* k = detail::avx2MlpKernels()) {
            kernels.push_back(k);
        }
    }
#endif
    kernels.push_back(&detail::kPortableMlpKernels);
    return kernels;
}

const detail::MlpKernels* bestKernels() { return availableKernels().front(); }

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

bool detail::selectMlpKernels(const char* name) {
    for (const MlpKernels* kernels : availableKernels()) {
        if (std::strcmp(kernels->name, name) == 0) {
            active().store(kernels, std::memory_order_relaxed);
            return true;
        }
    }
    return false;
}

void setMlpCpuDispatch(bool enabled) {
    active().store(enabled && dispatchWanted() ? bestKernels() : &detail::kPortableMlpKernels,
                   std::memory_order_relaxed);
}

}  // namespace core::model
