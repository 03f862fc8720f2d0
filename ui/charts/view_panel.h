// SPDX-License-Identifier: MIT
#pragma once

#include <QPointer>
#include <QTimer>
#include <QWidget>
#include <string>
#include <vector>

#include "core/util/result.h"

class QLabel;
class QVBoxLayout;

// Base of every view in the central tabs: a body widget, a footer for messages, and the
// numbers behind the view for CSV export. Image export renders the panel without its controls
// and messages (ui/charts/chart_export.h): the figure only.
namespace ui::charts {

// The numbers behind a view as one tidy table: named columns of equal length, one row per
// observation; the text columns (series names, kinds) come first in the CSV.
struct ChartData {
    std::vector<std::string> header;
    std::vector<std::vector<double>> columns;
    std::vector<std::string> textHeader;
    std::vector<std::vector<std::string>> text;
};

class ViewPanel : public QWidget {
    Q_OBJECT
public:
    explicit ViewPanel(const QString& title, QWidget* parent = nullptr);

    const QString& title() const { return m_title; }
    const ChartData& data() const { return m_data; }

    // Out of date: the project was replaced or edited and this view still shows the previous
    // results. A banner says so, the Explanation's "Now" list says so instead of the old
    // provenance, and the next results (setData) clear it. `computing`: whether the new
    // results are on their way, or were cancelled.
    void setStale(bool stale, bool computing = true);
    bool isStale() const { return m_stale; }
    QString staleText() const;
    // An edit's results are on their way (a job): out of date unless they arrive within
    // kAwaitResultsMs, so that quick recomputations (a drag of π) never flash the banner while
    // slow ones never leave old curves unmarked.
    void awaitResults();
    static constexpr int kAwaitResultsMs = 250;

    // Which of the view's explanations applies now, when it has several ("images" for the
    // Particles view drawing images); empty for its only one.
    virtual QString explanationVariant() const { return {}; }

    // Shows a message under the view (an error or a note); empty hides it.
    void setMessage(const QString& message, bool isError = false);
    QString message() const;

    // What the numbers were computed from ("schedule: linear", "N: 1000", …), written as the
    // CSV's header block with the view's name and the program's version.
    // Set when the view shows results of its own: it is current again.
    void setProvenance(std::vector<std::string> lines) {
        m_provenance = std::move(lines);
        setStale(false);
    }
    const std::vector<std::string>& provenance() const { return m_provenance; }
    // The CSV text of data() with its header block; an error when there is no data yet. A view
    // whose numbers are a table of the core's (the Lab) writes that table instead.
    virtual core::Result<std::string> csvText() const;
    // Writes csvText() atomically; returns an empty string or the reason it failed.
    QString exportCsv(const QString& path) const;

    // The widgets that are not part of the figure (buttons, sliders, status lines, lists):
    // hidden while the view is exported, with the message footer.
    const std::vector<QPointer<QWidget>>& controls() const { return m_controls; }
    QLabel* messageLabel() const { return m_message; }
    // True while the view is laid out and rendered as a figure (an export), false after: a view
    // whose window layout differs from its figure's (the Lab's charts scroll, in one column on
    // a narrow window) switches here.
    virtual void setFigureMode(bool figure) { (void)figure; }

protected:
    void setBody(QWidget* body);
    void markControl(QWidget* widget) { m_controls.emplace_back(widget); }
    void setData(ChartData data) {
        m_data = std::move(data);
        setStale(false);
    }

private:
    QString m_title;
    QVBoxLayout* m_layout;
    QLabel* m_message;
    QLabel* m_staleBanner;
    bool m_stale = false;
    QTimer* m_awaitResults;
    ChartData m_data;
    std::vector<std::string> m_provenance;
    std::vector<QPointer<QWidget>> m_controls;
};

}  // namespace ui::charts
