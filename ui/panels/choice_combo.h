// SPDX-License-Identifier: MIT
#pragma once

#include <QComboBox>
#include <QCoreApplication>
#include <QString>
#include <algorithm>
#include <string>
#include <vector>

#include "core/project/choice.h"

// Combo boxes of an enumerated parameter, filled from the core's table of its choices: the
// label shown (translated), the identifier (as in files and on the command line) as the item's
// data.
namespace ui::panels {

template <typename Enum>
void addChoices(QComboBox* box, const std::vector<core::project::Choice<Enum>>& choices) {
    for (const auto& c : choices) {
        const std::string label(c.label);  // translated (ui/panels/choice_labels.cpp lists them)
        box->addItem(QCoreApplication::translate("ui::panels::choices", label.c_str()),
                     QString::fromUtf8(c.id.data(), static_cast<qsizetype>(c.id.size())));
    }
}

// The value of the current item (the first choice if the box shows none).
template <typename Enum>
Enum chosen(const QComboBox* box, const std::vector<core::project::Choice<Enum>>& choices) {
    const std::string id = box->currentData().toString().toStdString();
    for (const auto& c : choices) {
        if (c.id == id) return c.value;
    }
    return choices.front().value;
}

template <typename Enum>
void showChoice(QComboBox* box,
                const std::vector<core::project::Choice<Enum>>& choices,
                const Enum& value) {
    const QString id = QString::fromStdString(core::project::choiceId(choices, value));
    box->setCurrentIndex(std::max(0, box->findData(id)));
}

}  // namespace ui::panels
