// SPDX-License-Identifier: MIT
#pragma once

#include <QBrush>
#include <QFont>
#include <QPen>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <vector>

class QAbstractAxis;
class QAbstractSeries;
class QChart;
class QChartView;
class QValueAxis;
class QLabel;

// A chart as a figure: its title above, the plot, its legend below. Qt Charts elides a title,
// an axis title, a tick label or a legend entry that does not fit ("Optimal reverse varian...");
// a figure must never lose a word, so the title and the legend are ordinary widgets that wrap
// to more lines, tick labels are thinned to round steps that fit, and what still cannot fit is
// reported (chart_export.h refuses to write such a figure).
namespace ui::charts {

// The legend of a chart, in rows that wrap to the width it has: every visible marker of the
// chart's own (hidden) QLegend, its key drawn with the series' own pen and brush (a line with
// its dashes, a scatter marker, a bar's or a band's fill), its label wrapped at spaces when a
// row is too narrow. Its font is the chart legend's font.
class FigureLegend : public QWidget {
    Q_OBJECT
public:
    explicit FigureLegend(QChart* chart, QWidget* parent = nullptr);

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // The labels shown, in order.
    QStringList labels() const;
    // Re-reads the chart's markers and font; relays out when anything changed.
    void sync();

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Entry {
        QString label;
        enum class Key { Line, Marker, Box } key = Key::Line;
        QPen pen;
        QBrush brush;
        enum class Shape { Circle, Square, Triangle } shape = Shape::Circle;  // Marker's
    };
    struct Placed {
        size_t entry;
        QRectF key;
        std::vector<std::pair<QPointF, QString>> lines;  // baseline origin, text
    };
    std::vector<Entry> entries() const;
    // Entries placed in rows for `width`; returns the height used.
    double place(double width, std::vector<Placed>* placed) const;
    QString signature() const;

    QChart* m_chart;
    QString m_signature;
};

class FigureChart : public QWidget {
    Q_OBJECT
public:
    // Takes `chart` (the view owns it); applies the figure style.
    explicit FigureChart(QChart* chart, QWidget* parent = nullptr);

    QChart* chart() const { return m_chart; }
    QChartView* view() const { return m_view; }
    FigureLegend* legend() const { return m_legend; }

    void setTitle(const QString& title);
    QString title() const;
    // No series has a point yet.
    bool isEmpty() const;
    // Hides the legend (a chart labelled on its axes).
    void setLegendShown(bool shown);
    // Fonts from the chart (title, legend), ticks refitted to the plot's size.
    void sync();

    // The chart's texts that Qt Charts had to shorten ("..."), after `sync`: empty when every
    // word is shown.
    QStringList elidedTexts() const;
    // The parts a layout gave less room than they need, after `sync`: a wrapped title or legend
    // cut at the bottom, a plot squeezed below its minimum (its axis titles overlap what lies
    // under it). Empty when every part has its room.
    QStringList squeezedParts() const;

    // The readout under a chart-view position: the nearest point of the nearest series within a
    // few pixels, as "series\nx = …, y = …" (whole numbers without decimals); empty elsewhere.
    QString readoutAt(const QPoint& position) const;
    // Zoom and pan: drag a rectangle to zoom into it, Ctrl+wheel zooms about the cursor,
    // Shift+drag or a middle-button drag pans, a double-click (or zoomReset) shows everything
    // again. The view never leaves the range shown before the first zoom, and the ticks stay
    // round. `position` is in chart-view pixels.
    void zoomAbout(const QPoint& position, double factor);  // factor > 1 zooms in
    void panBy(const QPoint& pixels);                       // the content follows the pointer
    void zoomReset();

    // The "?" beside the title: it shows the view's explanation (the readout has the plot).
    // Not part of an exported figure.
    QWidget* helpMark() const { return m_help; }
    void setHelpShown(bool shown);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Back inside the range of before the first zoom; ticks refitted.
    void settleZoom();
    void rememberFullRange();

    QChart* m_chart;
    QChartView* m_view;
    QLabel* m_title;
    QWidget* m_help;
    QWidget* m_helpBalance;  // as wide as the "?", left of the title: the title stays centred
    FigureLegend* m_legend;
    bool m_fitting = false;
    QString m_fittedFor;  // the plot size, axes and ranges the ticks were last fitted to
    void fitIfChanged();
    QPoint m_panFrom;  // the pointer's last position while panning
    bool m_panning = false;
};

// Keeps `series` out of the figure's legend (a guide such as a cursor, or a band read with its
// line). The chart's own legend markers cannot say so: Qt hides those that its hidden legend
// has no room for.
void hideFromLegend(QAbstractSeries* series);

// The FigureChart that shows `chart`, or nullptr.
FigureChart* figureOf(const QChart* chart);

// Ticks of every value axis of `chart` at round steps (1, 2, 2.5 or 5 × 10^k) whose labels do
// not collide at the plot's current size, anchored at a multiple of the step inside the range;
// logarithmic axes label every 10^k-th decade when each decade is too short for its label.
void fitTicks(QChart* chart);

// Removes every series and axis of `chart` (a view whose number of curves changes from run to
// run).
void clearChart(QChart* chart);

// Sets `axis` to [low, high] widened to round numbers, the same whatever the axis showed before:
// Qt's applyNiceNumbers starts from the tick count its previous call left, so a view that had
// shown other data got another range (the window's Kernel comparison 0–1, its export 0–0.6).
void setNiceRange(QValueAxis* axis, double low, double high);

// Sets a value or log axis's range. A value axis whose ticks fitTicks made dynamic keeps their
// interval until it fits them again, and Qt lays out every label at once: at a range a
// thousand times wider, a thousand of them (200 ms on the GUI thread for the Γ view's timestep
// axis going from 0..1 to 1..1000). Such an axis first gets an interval for the new range.
void setAxisRange(QAbstractAxis* axis, double low, double high);

// The type sizes of an exported figure in points at font scale 1: what journals ask of a figure
// in a column (7–9 pt; never below 7).
struct FigureType {
    double title = 8.0;
    double axisTitle = 7.5;
    double tick = 7.0;
    double legend = 7.5;
};

// Axis titles wider than their axis broken at spaces into lines (rich text), so that Qt Charts
// does not elide them; restoreAxisTitles puts the one-line titles back.
void wrapAxisTitles(QChart* chart);
void restoreAxisTitles(QChart* chart);

// A font of `points` at 96 CSS pixels to the inch (exports are laid out in CSS pixels), in whole
// pixels, never smaller than asked.
QFont figureFont(const QFont& base, double points);

}  // namespace ui::charts
