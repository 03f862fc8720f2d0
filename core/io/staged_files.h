// SPDX-License-Identifier: MIT
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/util/result.h"

namespace core::io {

// Several files that replace files of one folder as a single change (every view of an export,
// the frames of a PNG sequence): all are there afterwards, or none, and what was there before
// stays until the new set is complete.
//
// Each file is written (writeFileAtomically) into a hidden staging folder inside `folder`, so
// the final moves are renames within one file system. commit() first moves the files the set
// replaces, and the stale ones it names, aside into a second hidden folder, then moves the new
// files in; a failure at any point moves everything back. Without a successful commit (an error,
// a cancel) the staging folder is removed and `folder` is exactly as it was. A symbolic link in
// the way is replaced by the new file (its target is left alone).
class StagedFiles {
public:
    explicit StagedFiles(std::string folder);
    ~StagedFiles();
    StagedFiles(const StagedFiles&) = delete;
    StagedFiles& operator=(const StagedFiles&) = delete;

    // Stages `name` (a file name without '/') with `contents`. Refused, naming folder/name: a
    // name given twice, a name whose place is taken by something that is not a regular file (a
    // folder, a FIFO, a device), a folder that does not take new files, a failed write.
    Status write(const std::string& name, const std::string& contents);

    // Moves every staged file into the folder, replacing files of the same names, and removes
    // the files named in `stale` (names of this folder not written this time). All or nothing.
    Status commit(const std::vector<std::string>& stale = {});

    // folder/name.
    std::string pathOf(const std::string& name) const;

private:
    void removeStaging();

    std::string m_folder;
    std::string m_staging;  // empty until the first write
    std::vector<std::string> m_names;
    std::set<std::string> m_known;
};

}  // namespace core::io
