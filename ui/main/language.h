// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

// The user interface's language: English (the source strings) or a translation compiled into
// the application (translations/diffuscope_<code>.ts, embedded as ":/i18n/diffuscope_<code>.qm").
namespace ui::language {

// The codes offered besides "system": "en" and every embedded translation.
QStringList available();

// The "language" setting: "system" (the default), "en", "ja", …
QString savedChoice();
void saveChoice(const QString& choice);

// "system" becomes the system locale's language when a translation for it exists, else "en";
// a code of its own is returned as it is.
QString resolve(const QString& choice);

// Installs the translators for `code` ("en" installs none) into the running application: ours,
// and Qt's own (standard dialogs' buttons) when the system has it. False for a code that has
// no translation.
bool install(const QString& code);

}  // namespace ui::language
