// SPDX-License-Identifier: MIT
#pragma once

#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <functional>

// Runs the built `diffuscope` binary (its path comes from CMake) and collects its output.
namespace test_support {

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

// Runs `program` (a copy of the binary somewhere else); `workingDirectory` empty: this one's.
inline CliResult runProgram(const QString& program, const QStringList& arguments, int timeoutMs,
                            const std::function<void()>& childSetup, const QString& workingDirectory) {
    QProcess process;
    process.setProgram(program);
    process.setArguments(arguments);
    if (!workingDirectory.isEmpty()) {
        process.setWorkingDirectory(workingDirectory);
    }
    if (childSetup) {
        process.setChildProcessModifier(childSetup);
    }
    process.start();
    CliResult result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.err = "timed out";
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

// `childSetup`, when given, runs in the child before the binary starts (resource limits, a user).
inline CliResult runCli(const QStringList& arguments, int timeoutMs = 120000,
                        const std::function<void()>& childSetup = {}) {
    return runProgram(QStringLiteral(DIFFUSCOPE_BINARY), arguments, timeoutMs, childSetup, QString());
}

}  // namespace test_support
