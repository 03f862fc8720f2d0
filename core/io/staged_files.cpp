// SPDX-License-Identifier: MIT
#include "core/io/staged_files.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/io/file_io.h"

namespace core::io {
namespace {

// A hidden folder inside `folder` with a unique name; empty (and errno set) when it cannot be made.
std::string makeHiddenFolder(const std::string& folder, const char* kind) {
    std::string pattern = folder + "/.diffuscope-" + kind + "-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        return {};
    }
    return pattern;
}

void syncFolder(const std::string& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
}

}  // namespace

StagedFiles::StagedFiles(std::string folder) : m_folder(std::move(folder)) {
    if (m_folder.empty()) {
        m_folder = ".";
    }
    while (m_folder.size() > 1 && m_folder.back() == '/') {
        m_folder.pop_back();
    }
}

StagedFiles::~StagedFiles() { removeStaging(); }

std::string StagedFiles::pathOf(const std::string& name) const {
    return m_folder == "/" ? "/" + name : m_folder + "/" + name;
}

void StagedFiles::removeStaging() {
    if (m_staging.empty()) {
        return;
    }
    std::error_code ignored;
    std::filesystem::remove_all(m_staging, ignored);
    m_staging.clear();
}

Status StagedFiles::write(const std::string& name, const std::string& contents) {
    const std::string path = pathOf(name);
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
        return ioError(path, "not a file name of the folder " + m_folder);
    }
    if (m_known.count(name) != 0) {
        return ioError(path, "the same file is written twice in one export");
    }
    // What stands at the place now must be replaceable: a regular file, a link to one, nothing.
    if (Status writable = checkWritablePath(path); !writable) {
        return writable;
    }
    if (m_staging.empty()) {
        m_staging = makeHiddenFolder(m_folder, "staging");
        if (m_staging.empty()) {
            const int error = errno;
            return ioError(path, "cannot write in the folder " + m_folder + ": " + errnoText(error));
        }
    }
    if (Status written = writeFileAtomically(m_staging + "/" + name, contents); !written) {
        Error e = written.error();
        e.field = path;  // the file the user asked for, not its staging copy
        return e;
    }
    m_known.insert(name);
    m_names.push_back(name);
    return {};
}

Status StagedFiles::commit(const std::vector<std::string>& stale) {
    std::vector<std::string> replaced = m_names;
    for (const std::string& name : stale) {
        if (m_known.count(name) == 0 && name.find('/') == std::string::npos && !name.empty()) {
            replaced.push_back(name);
        }
    }
    if (replaced.empty()) {
        return {};
    }
    const std::string aside = makeHiddenFolder(m_folder, "previous");
    if (aside.empty()) {
        const int error = errno;
        return ioError(m_folder, "cannot write in the folder: " + errnoText(error) +
                                     "; nothing was changed");
    }
    std::vector<std::string> movedAside;
    std::vector<std::string> movedIn;
    // Puts the folder back as it was: the new files out, the previous ones back.
    const auto rollBack = [&](const std::string& path, const std::string& reason) {
        for (const std::string& name : movedIn) {
            ::unlink(pathOf(name).c_str());
        }
        for (auto it = movedAside.rbegin(); it != movedAside.rend(); ++it) {
            (void)::rename((aside + "/" + *it).c_str(), pathOf(*it).c_str());
        }
        std::error_code ignored;
        std::filesystem::remove_all(aside, ignored);
        return ioError(path, reason + "; the previous files are unchanged");
    };
    for (const std::string& name : replaced) {
        const std::string path = pathOf(name);
        struct stat info {};
        if (::lstat(path.c_str(), &info) != 0) {
            if (errno == ENOENT) continue;
            const int error = errno;
            return rollBack(path, "cannot read the file's status: " + errnoText(error));
        }
        if (S_ISDIR(info.st_mode)) {
            if (m_known.count(name) == 0) continue;  // a stale name that is a folder: not ours
            return rollBack(path, "is a folder, not a regular file; refusing to replace it");
        }
        if (::rename(path.c_str(), (aside + "/" + name).c_str()) != 0) {
            const int error = errno;
            return rollBack(path, "cannot move the previous file aside: " + errnoText(error));
        }
        movedAside.push_back(name);
    }
    for (const std::string& name : m_names) {
        const std::string path = pathOf(name);
        if (::rename((m_staging + "/" + name).c_str(), path.c_str()) != 0) {
            const int error = errno;
            return rollBack(path, "cannot move the new file into place: " + errnoText(error));
        }
        movedIn.push_back(name);
    }
    std::error_code ignored;
    std::filesystem::remove_all(aside, ignored);
    removeStaging();
    syncFolder(m_folder);
    m_names.clear();
    m_known.clear();
    return {};
}

}  // namespace core::io
