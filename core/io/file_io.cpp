// SPDX-License-Identifier: MIT
#include "core/io/file_io.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util/limits.h"

namespace core::io {

Error ioError(const std::string& path, const std::string& message) {
    return makeError(ErrorCode::IoError, path, "", message);
}

std::string errnoText(int error) { return std::strerror(error); }

namespace {

using limits::formatBytes;

// What a non-regular file is, for the message.
std::string kindOf(mode_t mode) {
    if (S_ISDIR(mode)) {
        return "a folder";
    }
    if (S_ISCHR(mode) || S_ISBLK(mode)) {
        return "a device";
    }
    if (S_ISFIFO(mode)) {
        return "a FIFO (named pipe)";
    }
    if (S_ISSOCK(mode)) {
        return "a socket";
    }
    return "not a regular file";
}

std::string folderOf(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) {
        return ".";
    }
    return slash == 0 ? "/" : path.substr(0, slash);
}

// The file a write to `path` replaces: `path` itself, or the target of a link to a regular
// file. Refuses everything that is not (or would not become) a regular file.
Result<std::string> resolveTarget(const std::string& path) {
    if (path.empty()) {
        return ioError("output path", "the path is empty");
    }
    struct stat link {};
    if (::lstat(path.c_str(), &link) != 0) {
        if (errno != ENOENT) {
            return ioError(path, "cannot write here: " + errnoText(errno));
        }
        struct stat folder {};
        const std::string parent = folderOf(path);
        if (::stat(parent.c_str(), &folder) != 0 || !S_ISDIR(folder.st_mode)) {
            return ioError(path, "cannot write here: the folder " + parent + " does not exist");
        }
        return path;
    }
    if (S_ISLNK(link.st_mode)) {
        struct stat target {};
        if (::stat(path.c_str(), &target) != 0) {
            return ioError(path, "is a symbolic link whose target does not exist; refusing to "
                                 "replace the link");
        }
        if (!S_ISREG(target.st_mode)) {
            return ioError(path, "is a symbolic link to " + kindOf(target.st_mode) +
                                     ", not to a regular file; refusing to write to it");
        }
        char resolved[PATH_MAX];
        if (::realpath(path.c_str(), resolved) == nullptr) {
            return ioError(path, "cannot resolve the symbolic link: " + errnoText(errno));
        }
        return std::string(resolved);
    }
    if (!S_ISREG(link.st_mode)) {
        return ioError(path, "is " + kindOf(link.st_mode) +
                                 ", not a regular file; refusing to write to it");
    }
    return path;
}

// resolveTarget, and the permissions the write will need, checked now so that long work does
// not end in "cannot write": the folder must take a new file (the temporary one), and an
// existing file must be writable (rename would replace even a write-protected one).
Result<std::string> writeTarget(const std::string& path) {
    Result<std::string> target = resolveTarget(path);
    if (!target) {
        return target;
    }
    const std::string folder = folderOf(*target);
    if (::access(folder.c_str(), W_OK | X_OK) != 0) {
        const int error = errno;
        return ioError(path, "cannot write in the folder " + folder + ": " + errnoText(error));
    }
    if (::access(target->c_str(), F_OK) == 0 && ::access(target->c_str(), W_OK) != 0) {
        const int error = errno;
        return ioError(path, "the file is write-protected (" + errnoText(error) +
                                 "); refusing to replace it");
    }
    return target;
}

// A unique name beside `target` (same folder, hence same file system, so rename is atomic).
std::string temporaryName(const std::string& target) {
    static std::atomic<unsigned> counter{0};
    return target + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

}  // namespace

namespace {

// The first `count` bytes of `path` (all of it with SIZE_MAX), if it is a regular file of at
// most `maxBytes`: checked with stat before opening, and with fstat after (O_NONBLOCK: a path
// swapped for a FIFO in between neither blocks the open nor passes).
Result<std::string> readRegular(const std::string& path, uint64_t maxBytes, size_t count) {
    if (path.empty()) {
        return ioError("input path", "the path is empty");
    }
    const auto tooLarge = [&](uint64_t size) {
        return ioError(path, "the file is " + formatBytes(static_cast<double>(size)) +
                                 ", more than the limit of " +
                                 formatBytes(static_cast<double>(maxBytes)) + " for this input");
    };
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        return ioError(path, "cannot open the file: " + errnoText(errno));
    }
    if (!S_ISREG(info.st_mode)) {
        return ioError(path, "is " + kindOf(info.st_mode) + ", not a regular file");
    }
    if (static_cast<uint64_t>(info.st_size) > maxBytes) {
        return tooLarge(static_cast<uint64_t>(info.st_size));
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        return ioError(path, "cannot open the file: " + errnoText(errno));
    }
    struct stat opened {};
    if (::fstat(fd, &opened) != 0) {
        const int error = errno;
        ::close(fd);
        return ioError(path, "cannot read the file's status: " + errnoText(error));
    }
    if (!S_ISREG(opened.st_mode) || static_cast<uint64_t>(opened.st_size) > maxBytes) {
        ::close(fd);
        return S_ISREG(opened.st_mode)
                   ? tooLarge(static_cast<uint64_t>(opened.st_size))
                   : ioError(path, "is " + kindOf(opened.st_mode) + ", not a regular file");
    }
    std::string contents(std::min(static_cast<size_t>(opened.st_size), count), '\0');
    size_t done = 0;
    char extra[4096];
    while (done < count) {
        // Past the size fstat gave, the file grew while being read: read on into `extra`.
        const bool grown = done >= contents.size();
        char* into = grown ? extra : contents.data() + done;
        const size_t room = grown ? std::min(sizeof extra, count - done) : contents.size() - done;
        const ssize_t got = ::read(fd, into, room);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            const int error = errno;
            ::close(fd);
            return ioError(path, "reading the file failed: " + errnoText(error));
        }
        if (got == 0) {
            break;
        }
        if (grown) {
            if (done + static_cast<size_t>(got) > maxBytes) {
                ::close(fd);
                return tooLarge(done + static_cast<size_t>(got));
            }
            contents.append(extra, static_cast<size_t>(got));
        }
        done += static_cast<size_t>(got);
    }
    ::close(fd);
    contents.resize(done);  // the file may also have shrunk
    return contents;
}

}  // namespace

Result<std::string> readRegularFile(const std::string& path, uint64_t maxBytes) {
    return readRegular(path, maxBytes, SIZE_MAX);
}

Result<std::string> readRegularFileHead(const std::string& path, size_t count) {
    return readRegular(path, UINT64_MAX, count);
}

Status checkWritablePath(const std::string& path) {
    Result<std::string> target = writeTarget(path);
    if (!target) {
        return target.error();
    }
    return {};
}

Status writeFileAtomically(const std::string& path, const std::string& contents) {
    Result<std::string> resolved = writeTarget(path);
    if (!resolved) {
        return resolved.error();
    }
    const std::string& target = *resolved;
    // Keep the permissions of the file being replaced; a new file gets 0666 less the umask.
    mode_t mode = 0666;
    struct stat existing {};
    const bool replacing = ::stat(target.c_str(), &existing) == 0;
    if (replacing) {
        mode = existing.st_mode & 07777;
    }
    const std::string temporary = temporaryName(target);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) {
        const int error = errno;
        return ioError(path, "cannot create the file: " + errnoText(error));
    }
    const auto abandon = [&](const std::string& reason) {
        ::close(fd);
        ::unlink(temporary.c_str());
        return ioError(path, reason + "; the previous file, if any, is unchanged");
    };
    size_t written = 0;
    while (written < contents.size()) {
        const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            const int error = errno;  // before anything else can change it
            return abandon("writing the file failed after " +
                           formatBytes(static_cast<double>(written)) + " of " +
                           formatBytes(static_cast<double>(contents.size())) + ": " +
                           errnoText(error));
        }
        if (n == 0) {
            return abandon("writing the file failed: no bytes were accepted");
        }
        written += static_cast<size_t>(n);
    }
    if (replacing) {
        (void)::fchmod(fd, mode);  // open's mode is masked by the umask; keep the old one
    }
    if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
        const int error = errno;
        return abandon("flushing the file to disk failed: " + errnoText(error));
    }
    struct stat written_info {};
    if (::fstat(fd, &written_info) != 0 ||
        static_cast<uint64_t>(written_info.st_size) != contents.size()) {
        return abandon("the written file has " +
                       formatBytes(static_cast<double>(written_info.st_size)) + " instead of " +
                       formatBytes(static_cast<double>(contents.size())));
    }
    if (::close(fd) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        return ioError(path, "closing the file failed: " + errnoText(error) +
                                 "; the previous file, if any, is unchanged");
    }
    if (::rename(temporary.c_str(), target.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        return ioError(path, "cannot replace the file: " + errnoText(error) +
                                 "; the previous file, if any, is unchanged");
    }
    // Make the rename itself durable; a failure here cannot be undone and does not lose data.
    const int folder = ::open(folderOf(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder >= 0) {
        (void)::fsync(folder);
        ::close(folder);
    }
    return {};
}

}  // namespace core::io
