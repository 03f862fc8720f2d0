// SPDX-License-Identifier: MIT
#include "ui/document/recovery_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QRandomGenerator>
#include <QStandardPaths>

#include "core/io/file_io.h"

namespace ui::document {
namespace {

constexpr const char* kCopySuffix = ".diffuscope.json";

// A lock that only a dead owner makes stale: the default also expires locks older than 30 s,
// which would hand a running instance's copy to another one.
std::unique_ptr<QLockFile> lockFor(const QString& copy) {
    auto lock = std::make_unique<QLockFile>(RecoveryStore::lockPathOf(copy));
    lock->setStaleLockTime(0);
    return lock;
}

core::Error recoveryError(const QString& path, const std::string& message) {
    return core::makeError(core::ErrorCode::IoError, path.toStdString(), "", message);
}

}  // namespace

RecoveryStore::RecoveryStore(const QString& folder)
    : m_folder(folder.isEmpty() ? defaultFolder() : folder) {
    startFreshCopy();
    // A crash after the copy was removed (saved work) leaves only a stale lock: tidy it away.
    const QDir dir(m_folder);
    for (const QString& name : dir.entryList({"recovery*.lock"}, QDir::Files)) {
        QString copy = dir.filePath(name);
        copy.chop(5);  // ".lock"
        if (!QFileInfo::exists(copy + kCopySuffix)) {
            lockFor(copy + kCopySuffix)->tryLock(0);  // taken only when stale; unlock deletes it
        }
    }
}

RecoveryStore::~RecoveryStore() = default;

QString RecoveryStore::defaultFolder() {
    const QString overridden = qEnvironmentVariable("DIFFUSCOPE_RECOVERY_DIR");
    return overridden.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)
                                : overridden;
}

QString RecoveryStore::lockPathOf(const QString& copy) {
    QString base = copy;
    if (base.endsWith(kCopySuffix)) {
        base.chop(static_cast<int>(qstrlen(kCopySuffix)));
    }
    return base + ".lock";
}

void RecoveryStore::startFreshCopy() {
    m_lock.reset();
    m_copyPath =
        QDir(m_folder).filePath(QString("recovery-%1-%2%3")
                                    .arg(QCoreApplication::applicationPid())
                                    .arg(QRandomGenerator::global()->generate(), 8, 16, QChar('0'))
                                    .arg(kCopySuffix));
}

core::Status RecoveryStore::write(const QByteArray& bytes) {
    if (!m_lock) {
        QDir().mkpath(m_folder);
        auto lock = lockFor(m_copyPath);
        if (!lock->tryLock(0)) {
            return recoveryError(lock->fileName(), "cannot lock the recovery copy (error " +
                                                       std::to_string(lock->error()) + ")");
        }
        m_lock = std::move(lock);
    }
    return core::io::writeFileAtomically(
        m_copyPath.toStdString(),
        std::string(bytes.constData(), static_cast<size_t>(bytes.size())));
}

void RecoveryStore::removeCopy() { QFile::remove(m_copyPath); }

QStringList RecoveryStore::orphans() const {
    const QFileInfoList copies =
        QDir(m_folder).entryInfoList({QString("recovery*") + kCopySuffix}, QDir::Files, QDir::Time);
    QStringList out;
    for (const QFileInfo& copy : copies) {
        const QString path = copy.absoluteFilePath();
        if (QFileInfo(path) == QFileInfo(m_copyPath)) {
            continue;
        }
        // A live owner holds the lock; a dead one's lock is stale and tryLock takes it over.
        auto probe = lockFor(path);
        if (probe->tryLock(0)) {
            out << path;
        }
    }
    return out;
}

core::Status RecoveryStore::adopt(const QString& orphan) {
    if (QFileInfo(orphan) == QFileInfo(m_copyPath)) {
        return {};
    }
    auto lock = lockFor(orphan);
    if (!lock->tryLock(0)) {
        return recoveryError(orphan, "another running Diffuscope is using this recovery copy");
    }
    if (!QFileInfo::exists(orphan)) {
        return recoveryError(orphan, "the recovery copy no longer exists");
    }
    removeCopy();
    m_lock = std::move(lock);
    m_copyPath = QFileInfo(orphan).absoluteFilePath();
    return {};
}

void RecoveryStore::release() { startFreshCopy(); }

core::Status RecoveryStore::discard(const QString& orphan) {
    if (QFileInfo(orphan) == QFileInfo(m_copyPath)) {
        removeCopy();
        return {};
    }
    auto lock = lockFor(orphan);
    if (!lock->tryLock(0)) {
        return recoveryError(orphan, "another running Diffuscope is using this recovery copy");
    }
    if (QFileInfo::exists(orphan) && !QFile::remove(orphan)) {
        return recoveryError(orphan, "cannot delete the recovery copy");
    }
    return {};
}

}  // namespace ui::document
