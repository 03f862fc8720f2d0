// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QVBoxLayout;

// Base of every view in the central tabs: a body widget, a footer for messages, and the
// numbers behind the view for CSV export. Image export renders the whole panel
// (ui/charts/chart_export.h), so a view is exported as it looks.
namespace ui::charts {

// The numbers behind a view: named columns (they may differ in length).
struct ChartData {
    std::vector<std::string> header;
    std::vector<std::vector<double>> columns;
};

class ViewPanel : public QWidget {
    Q_OBJECT
public:
    explicit ViewPanel(const QString& title, QWidget* parent = nullptr);

    const QString& title() const { return m_title; }
    const ChartData& data() const { return m_data; }

    // Shows a message under the view (an error or a note); empty hides it.
    void setMessage(const QString& message, bool isError = false);
    QString message() const;

    // Writes data() as CSV, atomically; returns an empty string or the reason it failed. A view
    // whose numbers are a table of the core's (the Lab) writes that instead.
    virtual QString exportCsv(const QString& path) const;

protected:
    void setBody(QWidget* body);
    void setData(ChartData data) { m_data = std::move(data); }

private:
    QString m_title;
    QVBoxLayout* m_layout;
    QLabel* m_message;
    ChartData m_data;
};

}  // namespace ui::charts
