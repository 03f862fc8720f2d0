// SPDX-License-Identifier: MIT
// libFuzzer target for what reads a TorchScript archive before LibTorch does: the ZIP
// directory, every entry's CRC, and the diffuscope.json contract. Any byte string must give a
// contract or an Error with a one-line message of valid UTF-8 (the archive's names and the
// contract's text escaped), never a crash, a sanitizer report or a huge allocation.
#include <cstdint>
#include <string_view>

#include "core/io/reader_text.h"
#include "core/io/zip_archive.h"
#include "core/model/torch_contract.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto contract = core::model::readTorchContract(bytes, "fuzz");
    if (!contract.ok()) {
        fuzz::checkError(contract.error());
        // printable() leaves one line of valid UTF-8 text as it is.
        const std::string message = contract.error().toString();
        if (core::io::printable(message, message.size()) != message) __builtin_trap();
    }
    if (contract.ok() && (contract->elements() < 1 || contract->numSteps < 1)) {
        __builtin_trap();  // a contract that passed its checks must be usable
    }
    // The entries one by one, as the contract reader does for its own.
    auto entries = core::io::listZip(bytes, "fuzz");
    if (!entries.ok()) {
        return 0;
    }
    for (const auto& entry : *entries) {
        auto read = core::io::readZipEntry(bytes, entry, 1 << 20, "fuzz");
        if (read.ok() && read->size() != entry.size) {
            __builtin_trap();
        }
    }
    return 0;
}
