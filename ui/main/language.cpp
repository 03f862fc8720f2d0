// SPDX-License-Identifier: MIT
#include "ui/main/language.h"

#include <QCoreApplication>
#include <QDir>
#include <QFont>
#include <QGuiApplication>
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

namespace {

// Japanese text falls back to a CJK font; left to fontconfig that is IPAGothic, whose Latin
// letters are fixed-pitch, so every Latin run inside a Japanese string ("ELBO", "π = …") looked
// typed. The UI font stays first (Latin runs keep it) and the proportional IPAPGothic comes next.
void useProportionalFallback() {
    if (qobject_cast<QGuiApplication*>(QCoreApplication::instance()) == nullptr) return;
    QFont font = QGuiApplication::font();
    QStringList families = font.families();
    if (families.isEmpty()) families << font.family();
    for (const char* cjk : {"IPAPGothic", "Noto Sans CJK JP"}) {
        if (!families.contains(cjk)) families << cjk;
    }
    font.setFamilies(families);
    QGuiApplication::setFont(font);
}

}  // namespace

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
    useProportionalFallback();
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
