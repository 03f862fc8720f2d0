// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

#include <string>
#include <vector>

class QChart;
class QChartView;
class QLabel;

// Base of every chart view (STYLE.md §7): owns the QChartView with antialiasing, a footer for
// messages, and the numbers behind the chart for CSV export. Concrete charts build series and
// axes once and refresh them from core results.
namespace ui::charts {

// The numbers behind a chart: named columns of equal length.
struct ChartData {
    std::vector<std::string> header;
    std::vector<std::vector<double>> columns;
};

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(const QString& title, QWidget* parent = nullptr);

    QChart* chart() const { return m_chart; }
    QChartView* chartView() const { return m_view; }
    const ChartData& data() const { return m_data; }

    // Shows a message under the chart (an error or a note); empty hides it.
    void setMessage(const QString& message, bool isError = false);

    // Writes data() as CSV, atomically; returns an empty string or the reason it failed.
    QString exportCsv(const QString& path) const;

protected:
    void setData(ChartData data) { m_data = std::move(data); }

private:
    QChart* m_chart;
    QChartView* m_view;
    QLabel* m_message;
    ChartData m_data;
};

}  // namespace ui::charts
