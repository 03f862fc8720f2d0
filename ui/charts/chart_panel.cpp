// SPDX-License-Identifier: MIT
#include "ui/charts/chart_panel.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QVBoxLayout>

#include "core/io/csv.h"

namespace ui::charts {

ChartPanel::ChartPanel(const QString& title, QWidget* parent)
    : QWidget(parent), m_chart(new QChart), m_view(new QChartView), m_message(new QLabel) {
    setWindowTitle(title);
    m_chart->setTitle(title);
    m_chart->setAnimationOptions(QChart::NoAnimation);  // frames stream; animation would lag
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_view->setChart(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_message->setWordWrap(true);
    m_message->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_message);
}

void ChartPanel::setMessage(const QString& message, bool isError) {
    m_message->setText(message);
    m_message->setStyleSheet(isError ? "color: #b00020; padding: 4px;" : "padding: 4px;");
    m_message->setVisible(!message.isEmpty());
}

QString ChartPanel::exportCsv(const QString& path) const {
    if (m_data.columns.empty()) {
        return "this chart has no data yet";
    }
    const core::Status status = core::io::writeFileAtomically(
        path.toStdString(), core::io::formatCsv(m_data.header, m_data.columns));
    return status ? QString() : QString::fromStdString(status.error().toString());
}

}  // namespace ui::charts
