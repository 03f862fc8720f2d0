// SPDX-License-Identifier: MIT
#include "ui/main/language.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace ui::language {
namespace {
constexpr const char* kSettingKey = "language";
constexpr const char* kResourceFolder = ":/i18n";
}  // namespace

QStringList available() {
    QStringList codes{"en"};
    const QStringList files = QDir(kResourceFolder).entryList({"diffuscope_*.qm"}, QDir::Files);
    for (const QString& file : files) {
        codes << file.mid(QString("diffuscope_").size()).chopped(3);
    }
    return codes;
}

QString savedChoice() {
    const QString choice = QSettings().value(kSettingKey, "system").toString();
    return choice == "system" || available().contains(choice) ? choice : QString("system");
}

void saveChoice(const QString& choice) { QSettings().setValue(kSettingKey, choice); }

QString resolve(const QString& choice) {
    if (choice != "system") {
        return choice;
    }
    const QString systemLanguage = QLocale::system().name().section('_', 0, 0);
    return available().contains(systemLanguage) ? systemLanguage : QString("en");
}

bool install(const QString& code) {
    if (code == "en") {
        return true;
    }
    if (!available().contains(code)) {
        return false;
    }
    auto* ours = new QTranslator(QCoreApplication::instance());
    if (!ours->load(QString("%1/diffuscope_%2.qm").arg(kResourceFolder, code))) {
        delete ours;
        return false;
    }
    QCoreApplication::installTranslator(ours);
    // Qt's own strings (the buttons of message boxes and file dialogs), when installed.
    auto* qtBase = new QTranslator(QCoreApplication::instance());
    const QStringList folders{QLibraryInfo::path(QLibraryInfo::TranslationsPath),
                              "/usr/share/qt6/translations"};
    bool loaded = false;
    for (const QString& folder : folders) {
        if (qtBase->load("qtbase_" + code, folder)) {
            loaded = true;
            break;
        }
    }
    if (loaded) {
        QCoreApplication::installTranslator(qtBase);
    } else {
        delete qtBase;
    }
    return true;
}

}  // namespace ui::language
