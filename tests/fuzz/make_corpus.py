#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the seed corpus of the safetensors fuzzer to tests/data/safetensors_corpus/:
valid files in the layout safetensors.torch.save_file produces (compact JSON, "__metadata__"
first, header padded with spaces to a multiple of 8) and mutations of them (truncated, bad
lengths, bad offsets, bad dtypes, ...). Deterministic; rerun after changing it."""
import json
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "safetensors_corpus")
SIZES = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2}
PACK = {"F64": "<d", "F32": "<f"}


def build(tensors, metadata=None, pad=True):
    """tensors: list of (name, dtype, shape, raw bytes) in data order."""
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    offset = 0
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode()
    if pad:
        text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(t[3] for t in tensors)


def values(dtype, xs):
    if dtype in PACK:
        return b"".join(struct.pack(PACK[dtype], x) for x in xs)
    if dtype == "F16":
        return b"".join(struct.pack("<e", x) for x in xs)
    return b"".join(struct.pack("<f", x)[2:] for x in xs)  # BF16: top half of the float


def main():
    os.makedirs(OUT, exist_ok=True)
    files = {}
    files["valid_f32_meta"] = build(
        [("net.0.weight", "F32", [2, 3], values("F32", [1, -2.5, 3, 0.5, 1e-3, 7])),
         ("net.0.bias", "F32", [3], values("F32", [0.1, 0.2, 0.3]))],
        {"format_version": "1", "process": "categorical", "pi": "[0.25,0.75]"})
    files["valid_torch_order"] = build(
        [("a.weight", "F64", [2, 2], values("F64", [0.5, -1, 2, 1e-3])),
         ("b", "F32", [3], values("F32", [1, 2, 3]))], {"format": "pt"})
    files["valid_half"] = build(
        [("h", "F16", [4], values("F16", [1, -2.5, 65504, 6e-8])),
         ("b", "BF16", [2, 1], values("BF16", [1, -2.5]))])
    files["valid_scalar_empty"] = build(
        [("s", "F64", [], values("F64", [3.14])), ("e", "F32", [0, 4], b""),
         ("w", "F32", [1, 1, 1], values("F32", [float("nan")]))], {})
    files["valid_unpadded"] = build([("x", "F32", [1], values("F32", [2]))], None, pad=False)
    files["valid_empty"] = build([], None)

    base = files["valid_f32_meta"]
    n = struct.unpack("<Q", base[:8])[0]
    header = base[8:8 + n]
    data = base[8 + n:]

    def with_header(h, d=data, length=None):
        return struct.pack("<Q", len(h) if length is None else length) + h + d

    files["mut_truncated_data"] = base[:-5]
    files["mut_truncated_header"] = base[:8 + n // 2]
    files["mut_short"] = base[:5]
    files["mut_length_huge"] = with_header(header, length=1 << 40)
    files["mut_length_past_eof"] = with_header(header, length=len(base))
    files["mut_trailing"] = base + b"\0\0\0\0"
    files["mut_dtype_i32"] = with_header(header.replace(b'"F32"', b'"I32"', 1))
    files["mut_offsets_reversed"] = with_header(header.replace(b"[0,24]", b"[24,0]"))
    files["mut_offsets_overlap"] = with_header(header.replace(b"[24,36]", b"[20,32]"))
    files["mut_shape_overflow"] = with_header(header.replace(b"[2,3]", b"[4294967296,4294967296,2]"))
    files["mut_shape_negative"] = with_header(header.replace(b"[2,3]", b"[-2,-3]"))
    files["mut_metadata_number"] = with_header(header.replace(b'"1"', b"1"))
    files["mut_duplicate"] = with_header(header.replace(b'"net.0.bias"', b'"net.0.weight"'))
    files["mut_bad_json"] = with_header(header[:-10])
    files["mut_escape"] = with_header(header.replace(b"net.0.bias", b"net\\u0000\\ud800"))
    for name, blob in sorted(files.items()):
        with open(os.path.join(OUT, name + ".safetensors"), "wb") as f:
            f.write(blob)
    print(f"{len(files)} files in {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
