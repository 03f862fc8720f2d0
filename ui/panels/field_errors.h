// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>
#include <QString>
#include <map>

// The error labels a panel shows beside its fields (errors beside the field, not
// in a dialog): one hidden red label per field name, created where the panel lays it out.
namespace ui::panels {

class FieldErrors {
public:
    // A new label for `field`, to be placed in the panel's layout.
    QLabel* create(const QString& field) {
        auto* label = new QLabel;
        label->setWordWrap(true);
        label->setStyleSheet("color: #b00020;");
        label->hide();
        m_labels[field] = label;
        return label;
    }
    // Shows `message` under `field`; an empty message hides the label.
    void show(const QString& field, const QString& message) {
        if (auto it = m_labels.find(field); it != m_labels.end()) {
            it->second->setText(message);
            it->second->setVisible(!message.isEmpty());
        }
    }
    // The message shown under `field`, or an empty string.
    QString message(const QString& field) const {
        auto it = m_labels.find(field);
        return it == m_labels.end() || it->second->isHidden() ? QString() : it->second->text();
    }
    void hideAll() {
        for (auto& [field, label] : m_labels) {
            label->hide();
        }
    }

private:
    std::map<QString, QLabel*> m_labels;
};

}  // namespace ui::panels
