// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/file_io.h"
#include "core/util/result.h"

// Just enough of the ZIP format to look inside a TorchScript archive (which PyTorch writes as a
// ZIP file) before LibTorch sees it: the central directory's entries and the bytes of a small
// entry, stored or deflated. Every offset and size is checked against the buffer, so a
// truncated or hostile file gives an error, never a read out of bounds.
namespace core::io {

struct ZipEntry {
    std::string name;
    uint16_t method = 0;            // 0 stored, 8 deflated
    uint64_t compressedSize = 0;
    uint64_t size = 0;              // uncompressed
    uint64_t localHeaderOffset = 0;
    uint32_t crc = 0;               // CRC-32 of the uncompressed bytes
};

// Whether `bytes` start like a ZIP file ("PK\3\4").
bool looksLikeZip(std::string_view bytes);

// The entries of the central directory (ZIP64 included). `path` labels the messages. Refused:
// entries whose local header and data overlap another entry's (a ZIP "bomb" points hundreds of
// entries at one stream), and entries whose declared uncompressed sizes sum to more than
// `maxTotalBytes` (the model file limit): what the CRC checks inflate stays within it, since
// each entry's inflation stops past its declared size.
Result<std::vector<ZipEntry>> listZip(std::string_view bytes, const std::string& path,
                                      uint64_t maxTotalBytes = kMaxCheckpointFileBytes);

// The uncompressed bytes of `entry`, refused (naming the entry and the limit) when larger than
// `maxBytes`, and checked against the entry's CRC-32.
Result<std::string> readZipEntry(std::string_view bytes, const ZipEntry& entry, uint64_t maxBytes,
                                 const std::string& path);

// Whether the entry's bytes match its CRC-32, read in place (a stored entry is not copied; a
// deflated one is inflated in pieces): a damaged archive is refused before another reader
// trusts its contents.
Status checkZipEntry(std::string_view bytes, const ZipEntry& entry, const std::string& path);

}  // namespace core::io
