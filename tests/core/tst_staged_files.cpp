// SPDX-License-Identifier: MIT
// core::io::StagedFiles: a set of files replaces files of a folder as one change; whatever fails
// (a write, a name taken by a folder at the last moment, a cancel) leaves the folder as it was,
// with no staging folder left behind.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

#include "core/io/staged_files.h"

namespace {

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

// Every entry of `dir`, hidden ones too, with the bytes of the files.
QMap<QString, QByteArray> listing(const QString& dir) {
    QMap<QString, QByteArray> entries;
    for (const QString& name :
         QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)) {
        QFile file(dir + "/" + name);
        entries.insert(name, QFileInfo(file).isDir() ? QByteArray("<dir>")
                             : file.open(QIODevice::ReadOnly) ? file.readAll()
                                                              : QByteArray("<unreadable>"));
    }
    return entries;
}

}  // namespace

class tst_StagedFiles : public QObject {
    Q_OBJECT

private slots:
    void commitReplacesAndRemovesStale();
    void nothingChangesWithoutACommit();
    void aFailedCommitPutsEverythingBack();
    void refusals();
};

void tst_StagedFiles::commitReplacesAndRemovesStale() {
    QTemporaryDir dir;
    writeFile(dir.filePath("a.txt"), "old a");
    writeFile(dir.filePath("stale.txt"), "old stale");
    writeFile(dir.filePath("other.txt"), "not ours");
    core::io::StagedFiles staged(dir.path().toStdString());
    QVERIFY(staged.write("a.txt", "new a").ok());
    QVERIFY(staged.write("b.txt", "new b").ok());
    // Until the commit, the folder shows only the (hidden) staging folder.
    QCOMPARE(listing(dir.path()).value("a.txt"), QByteArray("old a"));
    QVERIFY(!QFile::exists(dir.filePath("b.txt")));
    QVERIFY(staged.commit({"stale.txt", "missing.txt"}).ok());
    QCOMPARE(listing(dir.path()), (QMap<QString, QByteArray>{
                                      {"a.txt", "new a"}, {"b.txt", "new b"}, {"other.txt", "not ours"}}));
}

void tst_StagedFiles::nothingChangesWithoutACommit() {
    QTemporaryDir dir;
    writeFile(dir.filePath("a.txt"), "old a");
    const auto before = listing(dir.path());
    {
        core::io::StagedFiles staged(dir.path().toStdString());
        QVERIFY(staged.write("a.txt", "new a").ok());
        QVERIFY(staged.write("b.txt", "new b").ok());
    }  // cancelled
    QCOMPARE(listing(dir.path()), before);
}

// A name taken by a folder after it was staged: the files already moved aside come back.
void tst_StagedFiles::aFailedCommitPutsEverythingBack() {
    QTemporaryDir dir;
    writeFile(dir.filePath("a.txt"), "old a");
    writeFile(dir.filePath("stale.txt"), "old stale");
    core::io::StagedFiles staged(dir.path().toStdString());
    QVERIFY(staged.write("a.txt", "new a").ok());
    QVERIFY(staged.write("b.txt", "new b").ok());
    QVERIFY(QDir().mkdir(dir.filePath("b.txt")));
    writeFile(dir.filePath("b.txt/inside"), "keep");
    const auto before = listing(dir.path());
    const core::Status status = staged.commit({"stale.txt"});
    QVERIFY(!status.ok());
    const QString message = QString::fromStdString(status.error().toString());
    QVERIFY2(message.contains(dir.filePath("b.txt")) && message.contains("folder") &&
                 message.contains("unchanged"),
             qPrintable(message));
    QCOMPARE(listing(dir.path()).value("a.txt"), QByteArray("old a"));
    QCOMPARE(listing(dir.path()).value("stale.txt"), QByteArray("old stale"));
    QVERIFY(QFile::exists(dir.filePath("b.txt/inside")));
    // Only the staging folder is still there, until `staged` goes.
    auto after = listing(dir.path());
    QCOMPARE(after.size(), before.size());
}

void tst_StagedFiles::refusals() {
    QTemporaryDir dir;
    QVERIFY(QDir().mkdir(dir.filePath("taken.png")));
    std::optional<core::io::StagedFiles> staged(std::in_place, dir.path().toStdString());
    const core::Status folder = staged->write("taken.png", "x");
    QVERIFY(!folder.ok());
    QVERIFY(QString::fromStdString(folder.error().toString()).contains("folder"));
    QVERIFY(staged->write("a.png", "x").ok());
    QVERIFY(!staged->write("a.png", "y").ok());  // twice
    QVERIFY(!staged->write("sub/a.png", "x").ok());
    QVERIFY(!staged->write("..", "x").ok());
    staged.reset();
    QCOMPARE(listing(dir.path()), (QMap<QString, QByteArray>{{"taken.png", "<dir>"}}));
    core::io::StagedFiles missing((dir.path() + "/missing").toStdString());
    const core::Status status = missing.write("a.png", "x");
    QVERIFY(!status.ok());
    QVERIFY2(QString::fromStdString(status.error().toString()).contains("does not exist"),
             qPrintable(QString::fromStdString(status.error().toString())));
}

QTEST_GUILESS_MAIN(tst_StagedFiles)
#include "tst_staged_files.moc"
