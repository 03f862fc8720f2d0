// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

#include "core/util/result.h"

// Every file the program reads or writes goes through these two functions, so that the rules
// hold everywhere: only regular files are read (never a device, a FIFO or a directory), nothing
// larger than a stated limit is loaded, and a write either lands whole or leaves the old file
// exactly as it was.
namespace core::io {

// The default size limit of an input file: far above any table, Γ file or project we write.
inline constexpr uint64_t kMaxInputFileBytes = 256ull << 20;  // 256 MiB
// Checkpoints hold weights and may be larger.
inline constexpr uint64_t kMaxCheckpointFileBytes = 2ull << 30;  // 2 GiB

// Reads the whole of `path` into memory. Refused, with one line naming the path and the reason,
// before anything is allocated: a path that does not exist, is not a regular file (a directory,
// a device such as /dev/zero, a FIFO, a socket; a symbolic link counts as its target), or is
// larger than `maxBytes` (the limit is in the message). Never blocks on a FIFO.
Result<std::string> readRegularFile(const std::string& path,
                                    uint64_t maxBytes = kMaxInputFileBytes);

// The first `count` bytes of `path` (fewer if the file is shorter), with the same checks as
// readRegularFile but no size limit: enough to recognise a file's kind before reading it all.
Result<std::string> readRegularFileHead(const std::string& path, size_t count);

// Whether `path` may be written: it does not exist yet (its folder does), or it is a regular
// file, or a symbolic link to one (the link is kept and its target replaced). A device, FIFO,
// socket, directory or dangling link is refused. Call before long work that ends in a write.
Status checkWritablePath(const std::string& path);

// Writes `contents` to a temporary file beside `path` (its target, for a link), checks that
// every byte was written, flushed to disk and that the file has the expected size, then renames
// it over `path`. On any failure the temporary file is removed, `path` is untouched and the
// error names the path and the reason (e.g. "No space left on device").
Status writeFileAtomically(const std::string& path, const std::string& contents);

// The two halves of every file error here: an IoError naming `path`, and errno's text.
Error ioError(const std::string& path, const std::string& message);
std::string errnoText(int error);

}  // namespace core::io
