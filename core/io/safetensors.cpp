// SPDX-License-Identifier: MIT
#include "core/io/safetensors.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <set>

#include "core/io/csv.h"
#include "core/io/json.h"
#include "core/io/reader_text.h"
#include "core/io/zip_archive.h"

// Tensor bytes are copied straight into float/double: the layout is little-endian.
static_assert(std::endian::native == std::endian::little,
              "safetensors.cpp assumes a little-endian host");

namespace core::io {
namespace {

// The largest dimension accepted: 2^53, as when JSON numbers were read as doubles (no real
// file comes near it, and the byte count of such a shape overflows anyway).
constexpr uint64_t kMaxDimension = uint64_t{1} << 53;

Error parseError(const std::string& field, std::string value, std::string message) {
    return makeError(ErrorCode::ParseError, field, std::move(value), std::move(message));
}

// A file that is not a safetensors file is named by its kind when its first bytes tell it: a
// TorchScript .pt's "PK\3\4" read as a header length is 578 712 552 184 433 488 bytes, which
// says nothing to the user. Asked only once the header is refused, since a valid header length
// can begin with any of these bytes.
Error refusedHeader(std::string_view head, const std::string& path, Error why) {
    const auto startsWith = [&](std::string_view magic) {
        return head.size() >= magic.size() && head.substr(0, magic.size()) == magic;
    };
    std::string kind;
    if (looksLikeZip(head)) {
        kind = "a ZIP archive, as a TorchScript .pt model is";
    } else if (startsWith(std::string_view("\x93NUMPY", 6))) {
        kind = "a NumPy .npy array";
    } else if (startsWith(std::string_view("\x1f\x8b", 2))) {
        kind = "gzip-compressed";
    } else if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x80 &&
               head[1] >= 2 && head[1] <= 5) {
        kind = "a Python pickle, as an old torch.save checkpoint is";
    } else if ((startsWith("{") || startsWith("[")) &&
               std::all_of(head.begin(), head.end(), [](char c) {
                   return (c >= 0x20 && c < 0x7F) || c == '\n' || c == '\r' || c == '\t';
               })) {
        kind = "JSON text";  // text throughout: a length's bytes are mostly zero
    }
    if (kind.empty()) return why;
    return parseError(path, "", "not a safetensors file: the file is " + kind);
}

std::string tensorField(const std::string& path, const std::string& name,
                        const std::string& key = {}) {
    std::string field = path + ": tensor '" + name + "'";
    if (!key.empty()) {
        field += " " + key;
    }
    return field;
}

// RFC 3629 UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF.
bool isValidUtf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        int extra = 0;
        uint32_t code = 0;
        if ((c & 0xE0) == 0xC0) {
            extra = 1;
            code = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            code = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            code = c & 0x07;
        } else {
            return false;
        }
        if (i + extra >= s.size()) {
            return false;
        }
        for (int k = 1; k <= extra; ++k) {
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80) {
                return false;
            }
            code = (code << 6) | (d & 0x3F);
        }
        static constexpr uint32_t kMinCode[4] = {0, 0x80, 0x800, 0x10000};
        if (code < kMinCode[extra] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
            return false;
        }
        i += static_cast<size_t>(extra) + 1;
    }
    return true;
}

bool parseDType(const std::string& text, DType& out) {
    static constexpr DType kAll[] = {DType::F16, DType::BF16, DType::F32, DType::F64};
    for (const DType d : kAll) {
        if (text == dtypeName(d)) {
            out = d;
            return true;
        }
    }
    return false;
}

// Element count and byte size of `shape` in `dtype`, or false on 64-bit overflow.
bool byteSize(const std::vector<int64_t>& shape, DType dtype, uint64_t& elements,
              uint64_t& bytes) {
    elements = 1;
    for (const int64_t d : shape) {
        if (d < 0 || __builtin_mul_overflow(elements, static_cast<uint64_t>(d), &elements)) {
            return false;
        }
    }
    return !__builtin_mul_overflow(elements, static_cast<uint64_t>(dtypeSize(dtype)), &bytes);
}

// IEEE binary16 → binary32, exact (every half is a float).
float halfToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1Fu;
    const uint32_t mantissa = h & 0x3FFu;
    if (exponent == 0) {
        // Zero or subnormal: mantissa · 2^−24, exact in float.
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    uint32_t bits = 0;
    if (exponent == 0x1F) {
        bits = sign | 0x7F800000u | (mantissa << 13);  // inf, or NaN keeping its payload
    } else {
        bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);  // rebias 15 → 127
    }
    return std::bit_cast<float>(bits);
}

// bfloat16 is the top half of a binary32.
float bfloat16ToFloat(uint16_t b) {
    return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

// double → float, rounding to nearest; magnitudes beyond the float range become ±inf
// explicitly (the plain conversion is undefined behaviour there in C++).
float narrowToFloat(double d) {
    // FLT_MAX plus half an ulp: from here on round-to-nearest gives infinity.
    constexpr double kOverflow = 0x1.ffffffp+127;
    if (std::isfinite(d) && std::abs(d) >= kOverflow) {
        return d > 0 ? std::numeric_limits<float>::infinity()
                     : -std::numeric_limits<float>::infinity();
    }
    return static_cast<float>(d);
}

struct Entry {
    std::string name;
    Tensor tensor;
    uint64_t begin = 0;
    uint64_t end = 0;
};

Result<Entry> parseEntry(const std::string& path, const std::string& name, const Json& info,
                         uint64_t dataSize) {
    Entry entry;
    entry.name = name;
    if (name.empty()) {
        return parseError(path + ": tensor ''", "", "a tensor has an empty name");
    }
    if (!info.is_object()) {
        return parseError(tensorField(path, name), jsonValueText(info),
                          "a tensor entry must be an object with dtype, shape and data_offsets");
    }
    const Json* dtype = nullptr;
    const Json* shape = nullptr;
    const Json* offsets = nullptr;
    for (const auto& [key, value] : info.items()) {
        const Json** slot = key == "dtype"          ? &dtype
                            : key == "shape"        ? &shape
                            : key == "data_offsets" ? &offsets
                                                    : nullptr;
        if (slot == nullptr) {
            return parseError(tensorField(path, name), printable(key),
                              "unknown key in a tensor entry (expected dtype, shape, "
                              "data_offsets)");
        }
        if (*slot != nullptr) {
            return parseError(tensorField(path, name), key, "the key appears twice");
        }
        *slot = &value;
    }
    for (const auto& [key, value] : {std::pair{"dtype", dtype}, std::pair{"shape", shape},
                                     std::pair{"data_offsets", offsets}}) {
        if (value == nullptr) {
            return parseError(tensorField(path, name), key, "the tensor entry has no " +
                                                                std::string(key));
        }
    }

    if (!dtype->is_string()) {
        return parseError(tensorField(path, name, "dtype"), jsonValueText(*dtype),
                          "the dtype must be a string");
    }
    if (!parseDType(dtype->get<std::string>(), entry.tensor.dtype)) {
        return makeError(ErrorCode::Unsupported, tensorField(path, name, "dtype"),
                         printable(dtype->get<std::string>(), 40),
                         "unknown or unsupported dtype (this reader reads F16, BF16, F32, F64)");
    }

    if (!shape->is_array()) {
        return parseError(tensorField(path, name, "shape"), jsonValueText(*shape),
                          "the shape must be an array of non-negative integers");
    }
    for (const Json& d : *shape) {
        const std::optional<uint64_t> dim = jsonUint64(d);
        if (!dim || *dim > kMaxDimension) {
            return parseError(tensorField(path, name, "shape"), jsonValueText(d),
                              "a dimension is not a non-negative integer (at most 2^53)");
        }
        entry.tensor.shape.push_back(static_cast<int64_t>(*dim));
    }
    uint64_t elements = 0;
    uint64_t bytes = 0;
    if (!byteSize(entry.tensor.shape, entry.tensor.dtype, elements, bytes)) {
        return parseError(tensorField(path, name, "shape"), formatShape(entry.tensor.shape),
                          "the shape's size in bytes overflows 64 bits");
    }

    // Offsets are read exactly as 64-bit integers; a number with a fraction or an exponent
    // only up to 2^53.
    const std::optional<uint64_t> begin =
        offsets->is_array() && offsets->size() == 2 ? jsonUint64((*offsets)[0]) : std::nullopt;
    const std::optional<uint64_t> end =
        offsets->is_array() && offsets->size() == 2 ? jsonUint64((*offsets)[1]) : std::nullopt;
    if (!begin || !end) {
        return parseError(tensorField(path, name, "data_offsets"),
                          offsets->is_array() ? std::to_string(offsets->size()) + " values"
                                              : jsonValueText(*offsets),
                          "data_offsets must be [begin, end], two non-negative integers");
    }
    entry.begin = *begin;
    entry.end = *end;
    const std::string offsetsText =
        "[" + std::to_string(entry.begin) + ", " + std::to_string(entry.end) + "]";
    if (entry.end < entry.begin) {
        return parseError(tensorField(path, name, "data_offsets"), offsetsText,
                          "the offsets are reversed (end before begin)");
    }
    if (entry.end > dataSize) {
        return parseError(tensorField(path, name, "data_offsets"), offsetsText,
                          "the tensor runs past the end of the data section (" +
                              std::to_string(dataSize) + " bytes; the file is truncated?)");
    }
    if (entry.end - entry.begin != bytes) {
        return parseError(tensorField(path, name, "data_offsets"), offsetsText,
                          "the tensor covers " + std::to_string(entry.end - entry.begin) +
                              " bytes but shape " + formatShape(entry.tensor.shape) + " of " +
                              dtypeName(entry.tensor.dtype) + " needs " + std::to_string(bytes));
    }
    return entry;
}

Status parseMetadata(const std::string& path, const Json& value,
                     std::map<std::string, std::string>& out) {
    if (!value.is_object()) {
        return parseError(path + ": __metadata__", jsonValueText(value),
                          "the metadata must be an object of strings");
    }
    for (const auto& [key, v] : value.items()) {
        if (!isValidUtf8(key) || (v.is_string() && !isValidUtf8(v.get<std::string>()))) {
            return parseError(path + ": __metadata__", "",
                              "a key or value is not valid UTF-8 after unescaping");
        }
        if (!v.is_string()) {
            return parseError(path + ": __metadata__ '" + key + "'", jsonValueText(v),
                              "a metadata value is not a string (the format requires strings)");
        }
        if (!out.emplace(key, v.get<std::string>()).second) {
            return parseError(path + ": __metadata__ '" + key + "'", "",
                              "the metadata key appears twice");
        }
    }
    return {};
}

void decode(const char* src, Tensor& t) {
    const size_t n = static_cast<size_t>(t.numElements());
    t.data.resize(n);
    if (n == 0) {
        return;  // an empty vector's data() may be null, which memcpy must not see
    }
    switch (t.dtype) {
        case DType::F32: std::memcpy(t.data.data(), src, n * 4); break;
        case DType::F64:
            t.data64.resize(n);
            std::memcpy(t.data64.data(), src, n * 8);
            std::transform(t.data64.begin(), t.data64.end(), t.data.begin(), narrowToFloat);
            break;
        case DType::F16:
        case DType::BF16:
            for (size_t i = 0; i < n; ++i) {
                uint16_t h = 0;
                std::memcpy(&h, src + 2 * i, 2);
                t.data[i] = t.dtype == DType::F16 ? halfToFloat(h) : bfloat16ToFloat(h);
            }
            break;
    }
}

}  // namespace

const char* dtypeName(DType dtype) {
    switch (dtype) {
        case DType::F16: return "F16";
        case DType::BF16: return "BF16";
        case DType::F32: return "F32";
        case DType::F64: return "F64";
    }
    return "?";
}

int dtypeSize(DType dtype) {
    switch (dtype) {
        case DType::F16:
        case DType::BF16: return 2;
        case DType::F32: return 4;
        case DType::F64: return 8;
    }
    return 0;
}

int64_t Tensor::numElements() const {
    return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
}

Tensor makeF32Tensor(std::vector<int64_t> shape, std::vector<float> values) {
    Tensor t;
    t.dtype = DType::F32;
    t.shape = std::move(shape);
    t.data = std::move(values);
    return t;
}

Tensor makeF64Tensor(std::vector<int64_t> shape, std::vector<double> values) {
    Tensor t;
    t.dtype = DType::F64;
    t.shape = std::move(shape);
    t.data.resize(values.size());
    std::transform(values.begin(), values.end(), t.data.begin(), narrowToFloat);
    t.data64 = std::move(values);
    return t;
}

const Tensor* Checkpoint::find(const std::string& name) const {
    for (const auto& [n, t] : tensors) {
        if (n == name) {
            return &t;
        }
    }
    return nullptr;
}

void Checkpoint::set(const std::string& name, Tensor tensor) {
    for (auto& [n, t] : tensors) {
        if (n == name) {
            t = std::move(tensor);
            return;
        }
    }
    tensors.emplace_back(name, std::move(tensor));
}

std::string formatShape(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) {
        s += i ? ", " : "";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

Result<Checkpoint> parseSafetensors(std::string_view bytes, const std::string& path) {
    if (bytes.size() < 8) {
        return parseError(path, std::to_string(bytes.size()) + " bytes",
                          "the file is shorter than the 8-byte header length (truncated?)");
    }
    uint64_t headerSize = 0;
    std::memcpy(&headerSize, bytes.data(), 8);
    const std::string_view head = bytes.substr(0, 8);
    if (headerSize > kMaxSafetensorsHeaderBytes) {
        return refusedHeader(head, path,
                             parseError(path + ": header length", std::to_string(headerSize),
                                        "the header is larger than the 100 MB limit (not a "
                                        "safetensors file?)"));
    }
    if (headerSize > bytes.size() - 8) {
        return refusedHeader(head, path,
                             parseError(path + ": header length", std::to_string(headerSize),
                                        "the header runs past the end of the file (" +
                                            std::to_string(bytes.size()) + " bytes; truncated?)"));
    }
    const std::string header(bytes.substr(8, headerSize));
    if (header.empty() || header[0] != '{') {
        return refusedHeader(head, path,
                             parseError(path + ": header", header.empty() ? "empty" : "",
                                        "the header does not start with '{' (not a safetensors "
                                        "file?)"));
    }
    // Raw control characters and bytes that are not UTF-8 are refused before parsing, so the
    // message names the byte rather than the parser's state.
    for (size_t i = 0; i < header.size(); ++i) {
        const auto c = static_cast<unsigned char>(header[i]);
        if (c < 0x20 && c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            return parseError(path + ": header", "byte " + std::to_string(8 + i),
                              "a control character in the JSON header");
        }
    }
    if (!isValidUtf8(header)) {
        return parseError(path + ": header", "", "the JSON header is not valid UTF-8");
    }
    Result<Json> json = parseJsonStrict(header, path + " (header)");
    if (!json) {
        return json.error();
    }
    if (!json->is_object()) {
        return parseError(path + ": header", "", "the header must be a JSON object");
    }

    const uint64_t dataSize = bytes.size() - 8 - headerSize;
    Checkpoint checkpoint;
    std::vector<Entry> entries;
    std::set<std::string> names;
    bool metadataSeen = false;
    for (const auto& [name, value] : json->items()) {
        // \u escapes could spell lone surrogates, which the raw-byte check above cannot see
        // (the parser refuses them too).
        if (!isValidUtf8(name)) {
            return parseError(path + ": header", "", "a name is not valid UTF-8 after unescaping");
        }
        if (name == "__metadata__") {
            if (metadataSeen) {
                return parseError(path + ": __metadata__", "", "the header has two metadata objects");
            }
            metadataSeen = true;
            if (Status s = parseMetadata(path, value, checkpoint.metadata); !s) {
                return s.error();
            }
            continue;
        }
        if (!names.insert(name).second) {
            return parseError(tensorField(path, name), "", "the tensor name appears twice");
        }
        Result<Entry> entry = parseEntry(path, name, value, dataSize);
        if (!entry) {
            return entry.error();
        }
        entries.push_back(std::move(entry).value());
    }

    // The tensors must tile the data section: sorted by offset, each starts where the previous
    // one ended (safetensors' validate(): no gaps, no overlaps, no trailing bytes).
    std::vector<size_t> order(entries.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return std::pair(entries[a].begin, entries[a].end) <
               std::pair(entries[b].begin, entries[b].end);
    });
    uint64_t expected = 0;
    std::string previous;
    for (const size_t i : order) {
        const Entry& e = entries[i];
        const std::string offsetsText =
            "[" + std::to_string(e.begin) + ", " + std::to_string(e.end) + "]";
        if (e.begin < expected) {
            return parseError(tensorField(path, e.name, "data_offsets"), offsetsText,
                              "the tensor overlaps tensor '" + previous + "' (which ends at " +
                                  std::to_string(expected) + ")");
        }
        if (e.begin > expected) {
            return parseError(tensorField(path, e.name, "data_offsets"), offsetsText,
                              "a gap of " + std::to_string(e.begin - expected) +
                                  " bytes before the tensor (" +
                                  (previous.empty() ? "at the start of the data"
                                                    : "after tensor '" + previous + "'") +
                                  ")");
        }
        expected = e.end;
        previous = e.name;
    }
    if (expected != dataSize) {
        return parseError(path, std::to_string(dataSize - expected) + " bytes",
                          "trailing bytes after the last tensor's data");
    }

    const char* data = bytes.data() + 8 + headerSize;
    checkpoint.tensors.reserve(entries.size());
    for (Entry& e : entries) {
        decode(data + e.begin, e.tensor);
        checkpoint.tensors.emplace_back(std::move(e.name), std::move(e.tensor));
    }
    return checkpoint;
}

Result<std::string> readSafetensorsBytes(const std::string& path) {
    Result<std::string> head = readRegularFileHead(path, 9);
    if (!head) {
        return head.error();
    }
    if (head->size() == 9) {  // a shorter file is left to the parser's own message
        uint64_t headerSize = 0;
        std::memcpy(&headerSize, head->data(), 8);
        // The parser's own messages, given before the rest of the file is read.
        if (headerSize > kMaxSafetensorsHeaderBytes) {
            return refusedHeader(*head, path,
                                 parseError(path + ": header length", std::to_string(headerSize),
                                            "the header is larger than the 100 MB limit (not a "
                                            "safetensors file?)"));
        }
        if ((*head)[8] != '{') {
            return refusedHeader(*head, path,
                                 parseError(path + ": header", headerSize == 0 ? "empty" : "",
                                            "the header does not start with '{' (not a "
                                            "safetensors file?)"));
        }
    }
    return readRegularFile(path, kMaxCheckpointFileBytes);
}

Result<Checkpoint> readSafetensors(const std::string& path) {
    Result<std::string> bytes = readSafetensorsBytes(path);
    if (!bytes) {
        return bytes.error();
    }
    return parseSafetensors(*bytes, path);
}

Result<std::string> serializeSafetensors(const Checkpoint& checkpoint) {
    // Keys in the order inserted: the metadata first, then the tensors in the checkpoint's order.
    Json json = Json::object();
    if (!checkpoint.metadata.empty()) {
        Json metadata = Json::object();
        for (const auto& [key, value] : checkpoint.metadata) {
            if (!isValidUtf8(key) || !isValidUtf8(value)) {
                return invalidArgument("__metadata__ '" + key + "'", "",
                                       "metadata keys and values must be UTF-8");
            }
            metadata[key] = value;
        }
        json["__metadata__"] = std::move(metadata);
    }
    std::set<std::string> names;
    uint64_t offset = 0;
    for (const auto& [name, t] : checkpoint.tensors) {
        const std::string field = "tensor '" + name + "'";
        if (name.empty() || name == "__metadata__" || !isValidUtf8(name)) {
            return invalidArgument(field, "", "a tensor name must be non-empty UTF-8 and not "
                                              "__metadata__");
        }
        if (!names.insert(name).second) {
            return invalidArgument(field, "", "the tensor name appears twice");
        }
        if (t.dtype != DType::F32 && t.dtype != DType::F64) {
            return invalidArgument(field + " dtype", dtypeName(t.dtype),
                                   "only F32 and F64 tensors are written");
        }
        uint64_t elements = 0;
        uint64_t bytes = 0;
        if (!byteSize(t.shape, t.dtype, elements, bytes)) {
            return invalidArgument(field + " shape", formatShape(t.shape),
                                   "a negative dimension or a size that overflows 64 bits");
        }
        const size_t count = t.dtype == DType::F64 ? t.data64.size() : t.data.size();
        if (count != elements) {
            return invalidArgument(field, std::to_string(count) + " values",
                                   "shape " + formatShape(t.shape) + " needs " +
                                       std::to_string(elements) + " values");
        }
        Json entry = Json::object();
        entry["dtype"] = dtypeName(t.dtype);
        entry["shape"] = t.shape;
        entry["data_offsets"] = Json::array({offset, offset + bytes});
        json[name] = std::move(entry);
        offset += bytes;
    }
    // Compact, as safetensors writes it; every string was checked to be UTF-8 above.
    std::string header = json.dump();
    // Spaces up to a multiple of 8, so the data that follows starts 8-byte aligned.
    header.append((8 - header.size() % 8) % 8, ' ');

    std::string out;
    out.reserve(8 + header.size() + offset);
    const uint64_t headerSize = header.size();
    out.append(reinterpret_cast<const char*>(&headerSize), 8);
    out += header;
    for (const auto& [name, t] : checkpoint.tensors) {
        if (t.numElements() == 0) {
            continue;
        }
        if (t.dtype == DType::F64) {
            out.append(reinterpret_cast<const char*>(t.data64.data()), t.data64.size() * 8);
        } else {
            out.append(reinterpret_cast<const char*>(t.data.data()), t.data.size() * 4);
        }
    }
    return out;
}

Status writeSafetensors(const std::string& path, const Checkpoint& checkpoint) {
    Result<std::string> bytes = serializeSafetensors(checkpoint);
    if (!bytes) {
        Error e = bytes.error();
        e.field = path + ": " + e.field;
        return e;
    }
    return writeFileAtomically(path, *bytes);
}

Result<const Tensor*> requireTensor(const Checkpoint& checkpoint, const std::string& name,
                                    const std::vector<int64_t>& expectedShape,
                                    const std::string& path) {
    const std::string field = (path.empty() ? "" : path + ": ") + "tensor '" + name + "'";
    const Tensor* t = checkpoint.find(name);
    if (t == nullptr) {
        return makeError(ErrorCode::InvalidArgument, field, "",
                         "the checkpoint has no such tensor (expected shape " +
                             formatShape(expectedShape) + ")");
    }
    if (t->shape != expectedShape) {
        return makeError(ErrorCode::InvalidArgument, field + " shape", formatShape(t->shape),
                         "expected shape " + formatShape(expectedShape));
    }
    return t;
}

int64_t countNonFinite(const Tensor& tensor) {
    if (tensor.dtype == DType::F64) {
        return std::count_if(tensor.data64.begin(), tensor.data64.end(),
                             [](double v) { return !std::isfinite(v); });
    }
    return std::count_if(tensor.data.begin(), tensor.data.end(),
                         [](float v) { return !std::isfinite(v); });
}

Status checkFinite(const Checkpoint& checkpoint, const std::string& path) {
    for (const auto& [name, t] : checkpoint.tensors) {
        const size_t n = t.dtype == DType::F64 ? t.data64.size() : t.data.size();
        for (size_t i = 0; i < n; ++i) {
            const double v = t.dtype == DType::F64 ? t.data64[i] : t.data[i];
            if (!std::isfinite(v)) {
                return makeError(ErrorCode::NumericalError,
                                 (path.empty() ? "" : path + ": ") + "tensor '" + name +
                                     "' element " + std::to_string(i),
                                 formatValue(v), "the checkpoint holds a non-finite weight");
            }
        }
    }
    return {};
}

}  // namespace core::io
