// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <memory>

#include "core/util/result.h"

class QLockFile;

// The recovery copies of unsaved work. Each running window owns one copy,
// recovery-<pid>-<random>.diffuscope.json, and holds the lock file beside it while it runs, so
// that another instance never offers or deletes a copy whose owner is alive. A copy whose lock
// is stale (its owner died) is an orphan: the next start offers it.
namespace ui::document {

class RecoveryStore {
public:
    // folder: where the copies live; empty means $DIFFUSCOPE_RECOVERY_DIR if set, else the
    // application's data folder.
    explicit RecoveryStore(const QString& folder = {});
    ~RecoveryStore();  // releases the lock; the copy stays (see removeCopy)
    RecoveryStore(const RecoveryStore&) = delete;
    RecoveryStore& operator=(const RecoveryStore&) = delete;

    static QString defaultFolder();
    const QString& folder() const { return m_folder; }
    // This instance's copy (it may not exist yet).
    const QString& copyPath() const { return m_copyPath; }

    // Writes this instance's copy atomically, taking its lock first.
    core::Status write(const QByteArray& bytes);
    // The work was saved or explicitly discarded: deletes this instance's copy.
    void removeCopy();

    // The copies whose owner is no longer running, newest first.
    QStringList orphans() const;
    // Makes an orphan this instance's copy (locked from now on); fails when another instance
    // took it first. This instance's previous copy is deleted.
    core::Status adopt(const QString& orphan);
    // Lets go of the current copy without deleting it (e.g. it could not be read) and starts
    // a fresh one.
    void release();
    // Deletes an orphan, unless another instance has taken it.
    core::Status discard(const QString& orphan);

    // The lock file that guards a copy.
    static QString lockPathOf(const QString& copy);

private:
    void startFreshCopy();

    QString m_folder;
    QString m_copyPath;
    std::unique_ptr<QLockFile> m_lock;  // held while this instance's copy exists
};

}  // namespace ui::document
