// SPDX-License-Identifier: MIT
#include "core/io/zip_archive.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "core/io/reader_text.h"
#include "core/util/limits.h"

namespace core::io {
namespace {

constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kEndOfDirectory = 0x06054b50;
constexpr uint32_t kZip64EndOfDirectory = 0x06064b50;
constexpr uint32_t kZip64Locator = 0x07064b50;
// The largest number of entries accepted: a TorchScript archive holds a few per tensor.
constexpr uint64_t kMaxEntries = 1'000'000;

Error zipError(const std::string& path, const std::string& what, const std::string& message) {
    return makeError(ErrorCode::ParseError, path + ": " + what, "", message);
}

// Little-endian reads that fail instead of reading past the end.
struct Reader {
    std::string_view bytes;
    bool ok(uint64_t offset, uint64_t count) const {
        return offset <= bytes.size() && count <= bytes.size() - offset;
    }
    uint64_t le(uint64_t offset, int count) const {
        uint64_t value = 0;
        for (int i = count - 1; i >= 0; --i) {
            value = (value << 8) | static_cast<unsigned char>(bytes[offset + i]);
        }
        return value;
    }
};

}  // namespace

bool looksLikeZip(std::string_view bytes) {
    return bytes.size() >= 4 && bytes.substr(0, 4) == std::string_view("PK\3\4", 4);
}

Result<std::vector<ZipEntry>> listZip(std::string_view bytes, const std::string& path,
                                      uint64_t maxTotalBytes) {
    const Reader r{bytes};
    // The end-of-directory record is the last 22 bytes plus a comment of up to 65535 bytes.
    if (bytes.size() < 22) {
        return zipError(path, "zip", "the file is too short to be a ZIP archive");
    }
    uint64_t end = bytes.size() - 22;
    const uint64_t lowest = bytes.size() > 22 + 65535 ? bytes.size() - 22 - 65535 : 0;
    while (r.le(end, 4) != kEndOfDirectory) {
        if (end == lowest) {
            return zipError(path, "zip", "no end-of-directory record (truncated or not a ZIP file)");
        }
        --end;
    }
    uint64_t count = r.le(end + 10, 2);
    uint64_t directorySize = r.le(end + 12, 4);
    uint64_t directoryOffset = r.le(end + 16, 4);
    if ((count == 0xffff || directorySize == 0xffffffff || directoryOffset == 0xffffffff) &&
        end >= 20 && r.le(end - 20, 4) == kZip64Locator) {
        const uint64_t record = r.le(end - 20 + 8, 8);
        if (!r.ok(record, 56) || r.le(record, 4) != kZip64EndOfDirectory) {
            return zipError(path, "zip64 end of directory", "points outside the file");
        }
        count = r.le(record + 32, 8);
        directorySize = r.le(record + 40, 8);
        directoryOffset = r.le(record + 48, 8);
    }
    if (!r.ok(directoryOffset, directorySize)) {
        return zipError(path, "zip directory", "lies outside the file (truncated?)");
    }
    // Each central header takes at least 46 bytes: a count beyond that is a lie.
    if (count > kMaxEntries || count > directorySize / 46) {
        return zipError(path, "zip directory", std::to_string(count) +
                                                   " entries do not fit in its " +
                                                   std::to_string(directorySize) + " bytes");
    }
    std::vector<ZipEntry> entries;
    entries.reserve(count);
    uint64_t at = directoryOffset;
    const uint64_t directoryEnd = directoryOffset + directorySize;
    for (uint64_t i = 0; i < count; ++i) {
        if (at + 46 > directoryEnd || r.le(at, 4) != kCentralHeader) {
            return zipError(path, "zip directory entry " + std::to_string(i), "is damaged");
        }
        ZipEntry e;
        e.method = static_cast<uint16_t>(r.le(at + 10, 2));
        e.crc = static_cast<uint32_t>(r.le(at + 16, 4));
        e.compressedSize = r.le(at + 20, 4);
        e.size = r.le(at + 24, 4);
        const uint64_t nameLength = r.le(at + 28, 2);
        const uint64_t extraLength = r.le(at + 30, 2);
        const uint64_t commentLength = r.le(at + 32, 2);
        e.localHeaderOffset = r.le(at + 42, 4);
        const uint64_t next = at + 46 + nameLength + extraLength + commentLength;
        if (next > directoryEnd) {
            return zipError(path, "zip directory entry " + std::to_string(i), "is damaged");
        }
        e.name.assign(bytes.substr(at + 46, nameLength));
        // ZIP64 extra field: the saturated sizes and offset follow in this order.
        uint64_t extra = at + 46 + nameLength;
        const uint64_t extraEnd = extra + extraLength;
        while (extra + 4 <= extraEnd) {
            const uint64_t id = r.le(extra, 2);
            const uint64_t length = r.le(extra + 2, 2);
            if (extra + 4 + length > extraEnd) break;
            if (id == 0x0001) {
                uint64_t field = extra + 4;
                for (uint64_t* value : {&e.size, &e.compressedSize, &e.localHeaderOffset}) {
                    if (*value == 0xffffffff && field + 8 <= extra + 4 + length) {
                        *value = r.le(field, 8);
                        field += 8;
                    }
                }
            }
            extra += 4 + length;
        }
        entries.push_back(std::move(e));
        at = next;
    }
    // What the entries declare, in all: at most the limit, before any byte is inflated.
    uint64_t total = 0;
    for (const ZipEntry& e : entries) {
        if (e.size > maxTotalBytes - total) {
            return zipError(path, "zip directory",
                            "its entries declare more than " +
                                limits::formatBytes(static_cast<double>(maxTotalBytes)) +
                                " uncompressed (entry '" + printable(e.name) + "' declares " +
                                limits::formatBytes(static_cast<double>(e.size)) +
                                "), more than a model file may hold");
        }
        total += e.size;
    }
    // Every entry's local header and data, [header, data end): disjoint from all the others'.
    struct Range {
        uint64_t begin, end;
        size_t entry;
    };
    std::vector<Range> ranges;
    ranges.reserve(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
        const ZipEntry& e = entries[i];
        const uint64_t header = e.localHeaderOffset;
        if (!r.ok(header, 30) || r.le(header, 4) != kLocalHeader) {
            return zipError(path, "zip entry '" + printable(e.name) + "'",
                            "its local header is missing (truncated?)");
        }
        const uint64_t data = header + 30 + r.le(header + 26, 2) + r.le(header + 28, 2);
        if (!r.ok(data, e.compressedSize)) {
            return zipError(path, "zip entry '" + printable(e.name) + "'",
                            "its data lie outside the file (truncated?)");
        }
        ranges.push_back({header, data + e.compressedSize, i});
    }
    std::sort(ranges.begin(), ranges.end(),
              [](const Range& a, const Range& b) { return a.begin < b.begin; });
    for (size_t k = 1; k < ranges.size(); ++k) {
        if (ranges[k].begin < ranges[k - 1].end) {
            return zipError(path,
                            "zip entry '" + printable(entries[ranges[k].entry].name) + "'",
                            "its bytes overlap those of entry '" +
                                printable(entries[ranges[k - 1].entry].name) + "' (offsets " +
                                std::to_string(ranges[k].begin) + " and " +
                                std::to_string(ranges[k - 1].begin) +
                                "): a crafted archive, refused");
        }
    }
    return entries;
}

namespace {

// The entry's compressed bytes, after checking the local header and the bounds.
Result<std::string_view> entryData(std::string_view bytes, const ZipEntry& entry,
                                   const std::string& path) {
    const Reader r{bytes};
    const std::string what = "zip entry '" + printable(entry.name) + "'";
    const uint64_t header = entry.localHeaderOffset;
    if (!r.ok(header, 30) || r.le(header, 4) != kLocalHeader) {
        return zipError(path, what, "its local header is missing (truncated?)");
    }
    const uint64_t data = header + 30 + r.le(header + 26, 2) + r.le(header + 28, 2);
    if (!r.ok(data, entry.compressedSize)) {
        return zipError(path, what, "its data lie outside the file (truncated?)");
    }
    if (entry.method == 0 && entry.compressedSize != entry.size) {
        return zipError(path, what, "a stored entry whose two sizes differ");
    }
    if (entry.method != 0 && entry.method != 8) {
        return zipError(path, what, "compression method " + std::to_string(entry.method) +
                                        " is not supported");
    }
    return bytes.substr(data, entry.compressedSize);
}

uint32_t crcOf(uint32_t crc, std::string_view piece) {
    while (!piece.empty()) {
        const size_t n = std::min<size_t>(piece.size(), 1u << 30);
        crc = static_cast<uint32_t>(
            crc32(crc, reinterpret_cast<const Bytef*>(piece.data()), static_cast<uInt>(n)));
        piece.remove_prefix(n);
    }
    return crc;
}

}  // namespace

Status checkZipEntry(std::string_view bytes, const ZipEntry& entry, const std::string& path) {
    auto data = entryData(bytes, entry, path);
    if (!data) return data.error();
    const std::string what = "zip entry '" + printable(entry.name) + "'";
    uint32_t crc = 0;
    if (entry.method == 0) {
        crc = crcOf(0, *data);
    } else {
        z_stream z{};
        if (inflateInit2(&z, -MAX_WBITS) != Z_OK) {
            return zipError(path, what, "zlib could not start");
        }
        std::string piece(1 << 16, '\0');
        std::string_view in = *data;
        int status = Z_OK;
        while (status == Z_OK) {
            const size_t feed = std::min<size_t>(in.size(), 1u << 30);
            z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
            z.avail_in = static_cast<uInt>(feed);
            z.next_out = reinterpret_cast<Bytef*>(piece.data());
            z.avail_out = static_cast<uInt>(piece.size());
            status = inflate(&z, Z_NO_FLUSH);
            in.remove_prefix(feed - z.avail_in);
            crc = crcOf(crc, std::string_view(piece.data(), piece.size() - z.avail_out));
            if (z.total_out > entry.size) break;  // more than the directory says: damaged
            if (status == Z_BUF_ERROR && z.avail_out != 0) break;  // no progress: truncated
            if (status == Z_BUF_ERROR) status = Z_OK;
        }
        const uint64_t produced = z.total_out;
        inflateEnd(&z);
        if (status != Z_STREAM_END || produced != entry.size) {
            return zipError(path, what, "its compressed data are damaged");
        }
    }
    if (crc != entry.crc) {
        return zipError(path, what, "its CRC-32 does not match (damaged file)");
    }
    return {};
}

Result<std::string> readZipEntry(std::string_view bytes, const ZipEntry& entry, uint64_t maxBytes,
                                 const std::string& path) {
    const std::string what = "zip entry '" + printable(entry.name) + "'";
    if (entry.size > maxBytes) {
        return zipError(path, what, std::to_string(entry.size) + " bytes exceed the limit of " +
                                        std::to_string(maxBytes));
    }
    if (Status intact = checkZipEntry(bytes, entry, path); !intact) {
        return intact.error();
    }
    auto data = entryData(bytes, entry, path);
    if (entry.method == 0) {
        return std::string(*data);
    }
    std::string out(entry.size, '\0');
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) {
        return zipError(path, what, "zlib could not start");
    }
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data->data()));
    z.avail_in = static_cast<uInt>(std::min<uint64_t>(data->size(), UINT32_MAX));
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int status = inflate(&z, Z_FINISH);
    inflateEnd(&z);
    if (status != Z_STREAM_END) {
        return zipError(path, what, "its compressed data are damaged");
    }
    return out;
}

}  // namespace core::io
