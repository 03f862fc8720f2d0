// SPDX-License-Identifier: MIT
// libFuzzer target for the safetensors reader: any byte string must give a Checkpoint
// or an Error, never a crash, a sanitizer report or a huge allocation. A file that loads with
// only F32/F64 tensors must also survive write → read unchanged, bit for bit.
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/io/safetensors.h"

namespace {

template <typename T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool sameTensors(const core::io::Checkpoint& a, const core::io::Checkpoint& b) {
    if (a.metadata != b.metadata || a.tensors.size() != b.tensors.size()) {
        return false;
    }
    for (size_t i = 0; i < a.tensors.size(); ++i) {
        const auto& [nameA, x] = a.tensors[i];
        const auto& [nameB, y] = b.tensors[i];
        if (nameA != nameB || x.dtype != y.dtype || x.shape != y.shape ||
            !sameBits(x.data, y.data) || !sameBits(x.data64, y.data64)) {
            return false;
        }
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    core::Result<core::io::Checkpoint> read = core::io::parseSafetensors(bytes, "fuzz");
    if (!read.ok()) {
        // Every rejection carries a message.
        if (read.error().message.empty()) {
            __builtin_trap();
        }
        return 0;
    }
    for (const auto& [name, tensor] : read->tensors) {
        if (tensor.dtype != core::io::DType::F32 && tensor.dtype != core::io::DType::F64) {
            return 0;  // F16/BF16 are read-only
        }
    }
    core::Result<std::string> written = core::io::serializeSafetensors(*read);
    if (!written.ok()) {
        __builtin_trap();  // whatever the reader accepts, the writer must write
    }
    core::Result<core::io::Checkpoint> again = core::io::parseSafetensors(*written, "again");
    if (!again.ok() || !sameTensors(*read, *again)) {
        __builtin_trap();
    }
    return 0;
}
