// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

// Checkpoint files in the safetensors layout (huggingface/safetensors, docs "Format"):
//
//   8 bytes   N, the header length, unsigned little-endian
//   N bytes   a UTF-8 JSON object: {"__metadata__": {"key": "value", ...},
//             "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...}
//             padded with spaces (the writer pads N to a multiple of 8, as safetensors ≥ 0.4)
//   the data  raw little-endian tensors; data_offsets are relative to the first byte after
//             the header, together they cover the data section exactly, without gaps
//
// The reader checks every size, offset and shape against the file before it reads a byte of
// tensor data, so a truncated, oversized or inconsistent file is an Error naming the tensor
// and the problem, never a crash or a huge allocation. It accepts what PyTorch's
// `safetensors.torch.save_file` writes: any tensor order in the header, header lengths not a
// multiple of 8 (files from older writers), zero-sized tensors, scalars (shape []).
//
// Non-finite values (NaN, ±inf) are loaded as they are: the file is read faithfully. Callers
// that need finite weights (the model loaders) call checkFinite(), which names the first
// offending tensor and element; `diffuscope info` prints a count per tensor.
namespace core::io {

// Element types this reader understands. F16 and BF16 are read (and widened to float), F32 and
// F64 are read and written.
enum class DType { F16, BF16, F32, F64 };

// "F16", "BF16", "F32", "F64": the spelling of the safetensors header.
const char* dtypeName(DType dtype);
// Bytes per element: 2, 2, 4, 8.
int dtypeSize(DType dtype);

struct Tensor {
    DType dtype = DType::F32;      // the element type in the file (F32 or F64 when writing)
    std::vector<int64_t> shape;    // row-major (C order) dimensions; empty for a scalar
    std::vector<float> data;       // every element as float (F64 rounded to nearest), row-major
    std::vector<double> data64;    // F64 tensors only: the exact values (writeSafetensors
                                   // writes these for an F64 tensor and ignores `data`)

    // The product of the dimensions (1 for a scalar). Assumes a validated shape.
    int64_t numElements() const;
};

// An F32 tensor owning `values` (row-major); an F64 tensor keeps `values` exactly.
Tensor makeF32Tensor(std::vector<int64_t> shape, std::vector<float> values);
Tensor makeF64Tensor(std::vector<int64_t> shape, std::vector<double> values);

struct Checkpoint {
    // The tensors by name, in the order of the file's header (writing keeps this order and lays
    // the data out in it). std::map would reorder; the vector keeps what PyTorch wrote.
    std::vector<std::pair<std::string, Tensor>> tensors;
    // The `__metadata__` object: string → string, as the format requires. Numbers and lists are
    // stored as JSON text (see checkpoint_metadata.h).
    std::map<std::string, std::string> metadata;

    // The tensor named `name`, or nullptr.
    const Tensor* find(const std::string& name) const;
    // Adds or replaces the tensor `name` (a replaced tensor keeps its position).
    void set(const std::string& name, Tensor tensor);
};

// The largest header the reader accepts (as safetensors' MAX_HEADER_SIZE): 100 MB.
constexpr uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;

// Reads and validates the file at `path`. Errors name the path, the tensor (or header field)
// and the problem: ErrorCode::IoError when the file cannot be read, ParseError otherwise.
Result<Checkpoint> readSafetensors(const std::string& path);
// The bytes of a checkpoint file (at most kMaxCheckpointFileBytes), after its first bytes were
// checked to start a safetensors file: a large file of anything else is refused at once.
Result<std::string> readSafetensorsBytes(const std::string& path);
// The same for bytes already in memory; `path` only labels the messages.
Result<Checkpoint> parseSafetensors(std::string_view bytes, const std::string& path);

// The file contents for `checkpoint`, in the standard layout: header keys "__metadata__" first
// (left out when the metadata is empty), then the tensors in order, offsets back to back, the
// header padded with spaces to a multiple of 8. Errors (InvalidArgument) name the tensor: an
// empty or reserved name, a repeated name, a dtype other than F32/F64, a negative dimension, or
// a value count that does not match the shape.
Result<std::string> serializeSafetensors(const Checkpoint& checkpoint);
// serializeSafetensors, then writeFileAtomically: a temporary file beside `path` renamed over
// it, so a failed write leaves the old file as it was.
Status writeSafetensors(const std::string& path, const Checkpoint& checkpoint);

// The tensor `name` with exactly `expectedShape`; otherwise an error naming the tensor, the
// expected and the actual shape (or that it is missing). `path` labels the message.
Result<const Tensor*> requireTensor(const Checkpoint& checkpoint, const std::string& name,
                                    const std::vector<int64_t>& expectedShape,
                                    const std::string& path = {});

// Ok when every element of every tensor is finite; otherwise an error (NumericalError) naming
// the first tensor, the flat index and the value.
Status checkFinite(const Checkpoint& checkpoint, const std::string& path = {});
// How many elements of `tensor` are NaN or ±inf.
int64_t countNonFinite(const Tensor& tensor);

// "[2, 3]" / "[]": a shape as the messages and `diffuscope info` print it.
std::string formatShape(const std::vector<int64_t>& shape);

}  // namespace core::io
