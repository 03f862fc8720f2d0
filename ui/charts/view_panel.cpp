// SPDX-License-Identifier: MIT
#include "ui/charts/view_panel.h"

#include <QApplication>
#include <QCoreApplication>
#include <QLabel>
#include <QPalette>
#include <QVBoxLayout>

#include "core/io/csv.h"

namespace ui::charts {

ViewPanel::ViewPanel(const QString& title, QWidget* parent)
    : QWidget(parent),
      m_title(title),
      m_layout(new QVBoxLayout(this)),
      m_message(new QLabel),
      m_staleBanner(new QLabel) {
    setWindowTitle(QCoreApplication::translate("ui::views", title.toUtf8().constData()));
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(0);
    m_message->setWordWrap(true);
    m_message->setContentsMargins(8, 4, 8, 4);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    m_layout->addWidget(m_message);
    m_staleBanner->setWordWrap(true);
    QPalette amber = m_staleBanner->palette();
    amber.setColor(QPalette::Window, QColor(0xff, 0xf3, 0xcd));
    amber.setColor(QPalette::WindowText, QColor(0x66, 0x4d, 0x03));
    m_staleBanner->setPalette(amber);
    m_staleBanner->setAutoFillBackground(true);
    m_staleBanner->setContentsMargins(8, 3, 8, 3);
    m_staleBanner->hide();
    m_layout->insertWidget(0, m_staleBanner);
    markControl(m_staleBanner);  // never part of a figure
    m_awaitResults = new QTimer(this);
    m_awaitResults->setSingleShot(true);
    m_awaitResults->setInterval(kAwaitResultsMs);
    connect(m_awaitResults, &QTimer::timeout, this, [this] { setStale(true); });
}

void ViewPanel::awaitResults() { m_awaitResults->start(); }

void ViewPanel::setStale(bool stale, bool computing) {
    m_awaitResults->stop();
    m_stale = stale;
    m_staleBanner->setText(
        computing ? QCoreApplication::translate("ui::charts::ViewPanel",
                                                "Out of date: these are the results of the previous settings; the "
                                                "new ones are being computed.")
                  : QCoreApplication::translate("ui::charts::ViewPanel",
                                                "Out of date: these are the results of the previous settings; the "
                                                "new ones were cancelled."));
    m_staleBanner->setVisible(stale);
}

QString ViewPanel::staleText() const { return m_stale ? m_staleBanner->text() : QString(); }

void ViewPanel::setBody(QWidget* body) { m_layout->insertWidget(1, body, 1); }  // under the banner

void ViewPanel::setMessage(const QString& message, bool isError) {
    m_message->setText(message);
    // Margins and a palette, not a style sheet: a label with a style sheet keeps its font when
    // the application's changes (presentation mode left the status lines small).
    QPalette palette = m_message->palette();
    palette.setColor(
        QPalette::WindowText,
        isError ? QColor(0xb0, 0x00, 0x20) : QApplication::palette().color(QPalette::WindowText));
    m_message->setPalette(palette);
    m_message->setVisible(!message.isEmpty());
}

QString ViewPanel::message() const { return m_message->isHidden() ? QString() : m_message->text(); }

core::Result<std::string> ViewPanel::csvText() const {
    if (m_data.columns.empty() && m_data.text.empty()) {
        return core::invalidArgument("view", m_title.toStdString(), "this view has no data yet");
    }
    core::io::CsvOutput table{.comments = {},
                              .textHeader = m_data.textHeader,
                              .text = m_data.text,
                              .header = m_data.header,
                              .columns = m_data.columns};
    table.comments.push_back("view: " + m_title.toStdString());
    table.comments.insert(table.comments.end(), m_provenance.begin(), m_provenance.end());
    const QString version = QCoreApplication::applicationVersion();
    table.comments.push_back("program: Diffuscope" +
                             (version.isEmpty() ? std::string() : " " + version.toStdString()));
    return core::io::formatCsvTable(table);
}

QString ViewPanel::exportCsv(const QString& path) const {
    const core::Result<std::string> text = csvText();
    if (!text) {
        // "No data yet" in the view's own words; a ragged table with the column it names.
        return QString::fromStdString(text.error().field == "view" ? text.error().message
                                                                   : text.error().toString());
    }
    const core::Status status = core::io::writeFileAtomically(path.toStdString(), *text);
    return status ? QString() : QString::fromStdString(status.error().toString());
}

}  // namespace ui::charts
