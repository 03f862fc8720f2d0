// SPDX-License-Identifier: MIT
#include "ui/charts/view_panel.h"

#include <QLabel>
#include <QVBoxLayout>

#include "core/io/csv.h"

namespace ui::charts {

ViewPanel::ViewPanel(const QString& title, QWidget* parent)
    : QWidget(parent), m_title(title), m_layout(new QVBoxLayout(this)), m_message(new QLabel) {
    setWindowTitle(title);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(0);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    m_layout->addWidget(m_message);
}

void ViewPanel::setBody(QWidget* body) { m_layout->insertWidget(0, body, 1); }

void ViewPanel::setMessage(const QString& message, bool isError) {
    m_message->setText(message);
    m_message->setStyleSheet(isError ? "color: #b00020; padding: 4px 8px;" : "padding: 4px 8px;");
    m_message->setVisible(!message.isEmpty());
}

QString ViewPanel::message() const { return m_message->isHidden() ? QString() : m_message->text(); }

QString ViewPanel::exportCsv(const QString& path) const {
    if (m_data.columns.empty()) {
        return "this view has no data yet";
    }
    const core::Status status = core::io::writeFileAtomically(
        path.toStdString(), core::io::formatCsv(m_data.header, m_data.columns));
    return status ? QString() : QString::fromStdString(status.error().toString());
}

}  // namespace ui::charts
