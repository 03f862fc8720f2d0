// SPDX-License-Identifier: MIT
#include "ui/charts/figure_chart.h"

#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarLegendMarker>
#include <QBarSet>
#include <QBarCategoryAxis>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QCursor>
#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPainter>
#include <QPointer>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QScreen>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWheelEvent>
#include <QXYSeries>
#include <algorithm>
#include <cmath>

namespace ui::charts {
namespace {

constexpr const char* kFigureProperty = "diffuscopeFigure";
constexpr const char* kMinorTicksProperty = "diffuscopeMinorTicks";
constexpr const char* kNoLegendProperty = "diffuscopeNoLegend";
constexpr const char* kAutoFormatProperty = "diffuscopeAutoFormat";

// Splits `text` at spaces into lines no wider than `width` (a word wider than that has a line
// of its own).
QStringList wrapWords(const QString& text, const QFontMetricsF& metrics, double width) {
    if (metrics.horizontalAdvance(text) <= width) return {text};
    QStringList lines;
    QString line;
    for (const QString& word : text.split(' ', Qt::SkipEmptyParts)) {
        const QString candidate = line.isEmpty() ? word : line + ' ' + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(candidate) > width) {
            lines << line;
            line = word;
        } else {
            line = candidate;
        }
    }
    if (!line.isEmpty()) lines << line;
    return lines;
}

// The label Qt Charts prints for `value` with `format` (its createValueLabels' rules).
QString tickLabel(const QString& format, double value, double interval) {
    if (format.isEmpty()) {
        const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(interval))));
        return QString::number(value, 'f', decimals);
    }
    static const QRegularExpression integer(R"(%[-+ #0]*\d*[dic])");
    if (integer.match(format).hasMatch()) {
        return QString::asprintf(format.toLatin1().constData(), static_cast<qint64>(value));
    }
    return QString::asprintf(format.toLatin1().constData(), value);
}

// Fixed decimals of a printf format ("%.2f" → 2), −1 when the format chooses them ("%g").
int fixedDecimals(const QString& format) {
    static const QRegularExpression fixed(R"(%[-+ #0]*\d*\.(\d+)[fF])");
    static const QRegularExpression integer(R"(%[-+ #0]*\d*[dic])");
    if (const auto match = fixed.match(format); match.hasMatch()) return match.captured(1).toInt();
    if (integer.match(format).hasMatch()) return 0;
    return -1;
}

// Whether `labels` tick labels of `text` pixels (a label's width on a horizontal axis, its
// height on a vertical one) fit the slots Qt Charts gives them: the axis's length over the
// number of labels, less 4 px of padding on each side, holding the label's text box with its
// half-pixel margin on each side. A label that misses its slot is printed as "...". The
// padding does not scale with the type: at font scale 0.5 it, not the type, decides.
bool labelsFitTheirSlots(double length, int labels, double text) {
    constexpr double kPadding = 4.0;  // Qt Charts' labelPadding()
    constexpr double kMargin = 0.5;   // Qt Charts' textMargin(), the text box's document margin
    return labels <= 1 || length / labels - 2.0 * kPadding >= text + 2.0 * kMargin + 1.0;
}

void fitValueAxis(QValueAxis* axis, const QRectF& area) {
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    const double length = horizontal ? area.width() : area.height();
    const double low = axis->min();
    const double high = axis->max();
    const double range = high - low;
    if (!(length > 0.0) || !(range > 0.0) || !std::isfinite(range)) return;
    const QFontMetricsF metrics(axis->labelsFont());
    // An axis without a format of its own gets one from its step (below): Qt measures the
    // axis's width with decimals of its own choosing and elides the labels it then prints.
    const bool automatic =
        axis->labelFormat().isEmpty() || axis->property(kAutoFormatProperty).toBool();
    const QString format = automatic ? QString() : axis->labelFormat();
    const int decimals = fixedDecimals(format);
    const double em = metrics.height();
    const int top = static_cast<int>(std::floor(std::log10(range)));
    double chosen = 0.0;
    for (int exponent = top - 3; exponent <= top + 1 && chosen == 0.0; ++exponent) {
        for (double mantissa : {1.0, 2.0, 2.5, 5.0}) {
            const double step = mantissa * std::pow(10.0, exponent);
            if (decimals >= 0) {
                // A label with fewer decimals than the step would print two ticks alike.
                const double scaled = step * std::pow(10.0, decimals);
                if (std::abs(scaled - std::round(scaled)) > 1e-9 * scaled || scaled < 1.0 - 1e-9) {
                    continue;
                }
            }
            const double first = std::ceil(low / step - 1e-9) * step;
            const double spacing = step / range * length;
            const int labels = static_cast<int>(std::floor((high - first) / step + 1e-9)) + 1;
            double needed = 0.0;
            double text = em;
            if (horizontal) {
                double widest = 0.0;
                for (double v = first; v <= high + 1e-9 * step; v += step) {
                    widest =
                        std::max(widest, metrics.horizontalAdvance(tickLabel(
                                             format, std::abs(v) < 1e-12 * step ? 0.0 : v, step)));
                }
                needed = widest + 1.5 * em;
                text = widest;
            } else {
                needed = 2.2 * em;
            }
            if (spacing >= needed && labelsFitTheirSlots(length, labels, text)) {
                chosen = step;
                break;
            }
        }
    }
    if (chosen == 0.0) chosen = std::pow(10.0, top + 1);
    if (automatic) {
        int places = 0;
        while (places < 12 && std::abs(chosen * std::pow(10.0, places) -
                                       std::round(chosen * std::pow(10.0, places))) >
                                  1e-9 * chosen * std::pow(10.0, places)) {
            ++places;
        }
        const QString fixed = QString("%.%1f").arg(places);
        axis->setProperty(kAutoFormatProperty, true);
        if (axis->labelFormat() != fixed) axis->setLabelFormat(fixed);
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    const double anchor = std::ceil(low / chosen - 1e-9) * chosen;
    if (axis->tickAnchor() != anchor) axis->setTickAnchor(anchor);
    if (axis->tickInterval() != chosen) axis->setTickInterval(chosen);
}

// A labelled tick every `every` powers of `unit` (10, or 2 for a base-2 axis): as few as keep
// each label whole.
void fitLogAxis(QLogValueAxis* axis, const QRectF& area, double unit) {
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    const double length = horizontal ? area.width() : area.height();
    if (!(axis->min() > 0.0) || !(axis->max() > axis->min()) || !(length > 0.0)) return;
    if (!axis->property(kMinorTicksProperty).isValid()) {
        axis->setProperty(kMinorTicksProperty, axis->minorTickCount());
    }
    const QFontMetricsF metrics(axis->labelsFont());
    const double logUnit = std::log(unit);
    const double decades = std::log(axis->max() / axis->min()) / logUnit;
    const double perDecade = length / std::max(decades, 1e-9);
    double needed = 2.0 * metrics.height();
    double text = metrics.height();
    if (horizontal) {
        double widest = 0.0;
        for (double e = std::floor(std::log(axis->min()) / logUnit);
             e <= std::ceil(std::log(axis->max()) / logUnit); ++e) {
            widest = std::max(widest, metrics.horizontalAdvance(QString::asprintf(
                                          axis->labelFormat().isEmpty()
                                              ? "%g"
                                              : axis->labelFormat().toLatin1().constData(),
                                          std::pow(unit, e))));
        }
        needed = widest + 1.5 * metrics.height();
        text = widest;
    }
    int every = std::max(1, static_cast<int>(std::ceil(needed / perDecade - 1e-9)));
    while (every < 64 &&
           !labelsFitTheirSlots(length, static_cast<int>(std::floor(decades / every)) + 1, text)) {
        ++every;
    }
    const double base = std::pow(unit, every);
    if (axis->base() != base) axis->setBase(base);
    // Minor ticks mark 2…9 of a decade; across several decades they would be misleading.
    const int minor = every == 1 ? axis->property(kMinorTicksProperty).toInt() : 0;
    if (axis->minorTickCount() != minor) axis->setMinorTickCount(minor);
}

}  // namespace

QFont figureFont(const QFont& base, double points) {
    // In points of the screen's logical DPI, so that it is `points` at 96 CSS pixels to the inch
    // (and code that scales a font by its point size keeps working).
    const QScreen* screen = QGuiApplication::primaryScreen();
    const double dpi = screen != nullptr && screen->logicalDotsPerInchY() > 0
                           ? screen->logicalDotsPerInchY()
                           : 96.0;
    QFont font = base;
    font.setPointSizeF(points * 96.0 / dpi);
    return font;
}

void clearChart(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

void setNiceRange(QValueAxis* axis, double low, double high) {
    axis->setTickCount(5);  // Qt's default: what a new axis starts from
    setAxisRange(axis, low, high);
    axis->applyNiceNumbers();
}

void setAxisRange(QAbstractAxis* axis, double low, double high) {
    if (auto* value = qobject_cast<QValueAxis*>(axis)) {
        constexpr double kMostLabels = 20.0;
        const double range = high - low;
        if (value->tickType() == QValueAxis::TicksDynamic && value->tickInterval() > 0.0 &&
            std::isfinite(range) && range / value->tickInterval() > kMostLabels) {
            // 1, 2 or 5 × 10^k, about a fifth of the range: fitTicks refines it for the plot.
            const double magnitude = std::pow(10.0, std::floor(std::log10(range / 5.0)));
            double step = magnitude;
            for (double mantissa : {2.0, 5.0, 10.0}) {
                if (range / step <= 10.0) break;
                step = mantissa * magnitude;
            }
            value->setTickAnchor(std::ceil(low / step) * step);
            value->setTickInterval(step);
        }
        value->setRange(low, high);
    } else if (auto* log = qobject_cast<QLogValueAxis*>(axis)) {
        log->setRange(low, high);
    } else if (axis != nullptr) {
        axis->setRange(low, high);
    }
}

void fitTicks(QChart* chart) {
    const QRectF area = chart->plotArea();
    if (area.isEmpty()) return;
    for (QAbstractAxis* axis : chart->axes()) {
        if (!axis->isVisible() || qobject_cast<QCategoryAxis*>(axis) != nullptr) continue;
        if (auto* bars = qobject_cast<QBarCategoryAxis*>(axis); bars && bars->orientation() == Qt::Horizontal) {
            // Category labels lie flat while each fits its slot, else stand upright: Qt would
            // print a crowded flat label as "...", and upright ones cost height a plot may lack.
            const QFontMetricsF metrics(bars->labelsFont());
            double widest = 0.0;
            for (const QString& label : bars->categories()) widest = std::max(widest, metrics.horizontalAdvance(label));
            const int angle = labelsFitTheirSlots(area.width(), static_cast<int>(bars->count()), widest) ? 0 : -90;
            if (bars->labelsAngle() != angle) bars->setLabelsAngle(angle);
        } else if (auto* value = qobject_cast<QValueAxis*>(axis)) {
            fitValueAxis(value, area);
        } else if (auto* log = qobject_cast<QLogValueAxis*>(axis)) {
            for (double unit : {10.0, 2.0}) {
                const double powers = std::log(log->base()) / std::log(unit);
                if (std::abs(powers - std::round(powers)) < 1e-9) {
                    fitLogAxis(log, area, unit);
                    break;
                }
            }
        }
    }
}

namespace {
constexpr const char* kOneLineTitle = "diffuscopeOneLineTitle";
}

void wrapAxisTitles(QChart* chart) {
    const QRectF area = chart->plotArea();
    if (area.isEmpty()) return;
    for (QAbstractAxis* axis : chart->axes()) {
        if (!axis->isVisible() || !axis->isTitleVisible()) continue;
        if (!axis->property(kOneLineTitle).isValid())
            axis->setProperty(kOneLineTitle, axis->titleText());
        const QString title = axis->property(kOneLineTitle).toString();
        const double length = axis->orientation() == Qt::Horizontal ? area.width() : area.height();
        // Qt gives a title the axis's length less its label padding at both ends (5 px each).
        const QStringList lines = wrapWords(title, QFontMetricsF(axis->titleFont()),
                                            std::min(0.95 * length, length - 14.0));
        QStringList escaped;
        for (const QString& line : lines) escaped << line.toHtmlEscaped();
        const QString text = lines.size() <= 1 ? title : escaped.join("<br>");
        if (axis->titleText() != text) axis->setTitleText(text);
    }
}

void restoreAxisTitles(QChart* chart) {
    for (QAbstractAxis* axis : chart->axes()) {
        const QVariant title = axis->property(kOneLineTitle);
        if (!title.isValid()) continue;
        if (axis->titleText() != title.toString()) axis->setTitleText(title.toString());
        axis->setProperty(kOneLineTitle, QVariant());
    }
}

// ---- FigureLegend

FigureLegend::FigureLegend(QChart* chart, QWidget* parent) : QWidget(parent), m_chart(chart) {
    // Its height is its rows' at the width it gets (heightForWidth). Not Fixed: a Fixed item's
    // maximum is its sizeHint, taken at its width of the moment, which capped a legend that
    // gained a row when its figure got narrower (its last row cut in the window).
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setFont(chart->legend()->font());
    m_signature = signature();
}

std::vector<FigureLegend::Entry> FigureLegend::entries() const {
    std::vector<Entry> list;
    for (QLegendMarker* marker : m_chart->legend()->markers()) {
        if (marker->label().isEmpty() || marker->series() == nullptr ||
            !marker->series()->isVisible() ||
            marker->series()->property(kNoLegendProperty).toBool()) {
            continue;
        }
        Entry entry;
        entry.label = marker->label();
        switch (marker->type()) {
            case QLegendMarker::LegendMarkerTypeXY:
                if (auto* scatter = qobject_cast<QScatterSeries*>(marker->series())) {
                    entry.key = Entry::Key::Marker;
                    entry.brush = scatter->brush();
                    entry.pen = scatter->pen();
                    entry.shape = scatter->markerShape() == QScatterSeries::MarkerShapeCircle
                                      ? Entry::Shape::Circle
                                  : scatter->markerShape() == QScatterSeries::MarkerShapeTriangle
                                      ? Entry::Shape::Triangle
                                      : Entry::Shape::Square;
                } else if (auto* xy = qobject_cast<QXYSeries*>(marker->series())) {
                    entry.pen = xy->pen();
                }
                break;
            case QLegendMarker::LegendMarkerTypeArea:
                entry.key = Entry::Key::Box;
                if (auto* area = qobject_cast<QAreaSeries*>(marker->series())) {
                    entry.brush = area->brush();
                    entry.pen = area->pen();
                }
                break;
            case QLegendMarker::LegendMarkerTypeBar:
                entry.key = Entry::Key::Box;
                if (QBarSet* set = static_cast<QBarLegendMarker*>(marker)->barset()) {
                    entry.brush = set->brush();
                    entry.pen = set->pen();
                }
                break;
            default:
                entry.key = Entry::Key::Box;
                entry.brush = marker->brush();
                entry.pen = marker->pen();
                break;
        }
        list.push_back(entry);
    }
    return list;
}

QString FigureLegend::signature() const {
    QString text = font().toString();
    for (const Entry& entry : entries()) {
        text += '\n' + entry.label + ' ' + QString::number(static_cast<int>(entry.key)) + ' ' +
                QString::number(static_cast<int>(entry.shape)) + ' ' +
                entry.pen.color().name(QColor::HexArgb) + ' ' +
                entry.brush.color().name(QColor::HexArgb) + ' ' +
                QString::number(static_cast<int>(entry.pen.style()));
    }
    return text;
}

void FigureLegend::sync() {
    if (font() != m_chart->legend()->font()) setFont(m_chart->legend()->font());
    const QString now = signature();
    if (now != m_signature) {
        m_signature = now;
        updateGeometry();
        update();
    }
}

QStringList FigureLegend::labels() const {
    QStringList list;
    for (const Entry& entry : entries()) list << entry.label;
    return list;
}

double FigureLegend::place(double width, std::vector<Placed>* placed) const {
    const std::vector<Entry> list = entries();
    if (list.empty()) return 0.0;
    const QFontMetricsF metrics(font());
    const double em = metrics.height();
    const double margin = 0.3 * em;
    const double keyWidth = 1.8 * em;
    const double keyGap = 0.35 * em;
    const double entryGap = 1.0 * em;
    const double usable = std::max(1.0, width - 2 * margin);
    struct Item {
        size_t entry;
        QStringList lines;
        double width;
    };
    std::vector<std::vector<Item>> rows(1);
    double rowWidth = 0.0;
    for (size_t i = 0; i < list.size(); ++i) {
        const double textWidth = metrics.horizontalAdvance(list[i].label);
        double itemWidth = keyWidth + keyGap + textWidth;
        const double start = rows.back().empty() ? 0.0 : rowWidth + entryGap;
        if (!rows.back().empty() && start + itemWidth > usable) {
            rows.emplace_back();
            rowWidth = 0.0;
        }
        const double offset = rows.back().empty() ? 0.0 : rowWidth + entryGap;
        const QStringList lines =
            wrapWords(list[i].label, metrics, usable - offset - keyWidth - keyGap);
        double widest = 0.0;
        for (const QString& line : lines)
            widest = std::max(widest, metrics.horizontalAdvance(line));
        itemWidth = keyWidth + keyGap + widest;
        rows.back().push_back({i, lines, itemWidth});
        rowWidth = offset + itemWidth;
    }
    double y = margin;
    for (const auto& row : rows) {
        double total = 0.0;
        int height = 1;
        for (const Item& item : row) {
            total += item.width;
            height = std::max(height, static_cast<int>(item.lines.size()));
        }
        total += entryGap * static_cast<double>(row.size() - 1);
        double x = margin + std::max(0.0, (usable - total) / 2.0);  // rows centred
        for (const Item& item : row) {
            if (placed != nullptr) {
                Placed p{item.entry, QRectF(x, y + 0.15 * em, keyWidth, 0.7 * em), {}};
                for (int l = 0; l < item.lines.size(); ++l) {
                    p.lines.emplace_back(QPointF(x + keyWidth + keyGap,
                                                 y + metrics.ascent() + l * metrics.lineSpacing()),
                                         item.lines[l]);
                }
                placed->push_back(std::move(p));
            }
            x += item.width + entryGap;
        }
        y += height * metrics.lineSpacing() + 0.15 * em;
    }
    return y + margin;
}

int FigureLegend::heightForWidth(int width) const {
    return static_cast<int>(std::ceil(place(width, nullptr)));
}

QSize FigureLegend::sizeHint() const {
    const int width = std::max(200, this->width());
    return {width, heightForWidth(width)};
}

// One row: the layout asks heightForWidth for the rows at the width it gives.
QSize FigureLegend::minimumSizeHint() const {
    if (entries().empty()) return {0, 0};
    const QFontMetricsF metrics(font());
    return {40, static_cast<int>(std::ceil(metrics.lineSpacing() + 0.75 * metrics.height()))};
}

void FigureLegend::paintEvent(QPaintEvent*) {
    std::vector<Placed> placed;
    place(width(), &placed);
    const std::vector<Entry> list = entries();
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setFont(font());
    const QColor textColour = m_chart->legend()->labelColor();
    for (const Placed& p : placed) {
        const Entry& entry = list[p.entry];
        const QRectF& key = p.key;
        switch (entry.key) {
            case Entry::Key::Line: {
                QPen pen = entry.pen;
                pen.setWidthF(std::min(pen.widthF(), 0.35 * key.height() + 1.0));
                pen.setCapStyle(Qt::FlatCap);
                painter.setPen(pen);
                painter.drawLine(QPointF(key.left(), key.center().y()),
                                 QPointF(key.right(), key.center().y()));
                break;
            }
            case Entry::Key::Marker: {
                painter.setPen(entry.pen);
                painter.setBrush(entry.brush);
                const double d = key.height();
                const QRectF dot(key.center().x() - d / 2, key.center().y() - d / 2, d, d);
                if (entry.shape == Entry::Shape::Circle) {
                    painter.drawEllipse(dot);
                } else if (entry.shape == Entry::Shape::Triangle) {
                    painter.drawPolygon(QPolygonF({QPointF(dot.center().x(), dot.top()),
                                                   dot.bottomRight(), dot.bottomLeft()}));
                } else {
                    painter.drawRect(dot);
                }
                break;
            }
            case Entry::Key::Box: {
                painter.setBrush(entry.brush);
                QPen pen = entry.pen;
                if (pen.style() == Qt::NoPen || pen.color().alpha() == 0) {
                    QColor edge = entry.brush.color();
                    edge.setAlpha(std::max(edge.alpha(), 160));
                    pen = QPen(edge, 1);
                }
                pen.setWidthF(std::min(pen.widthF(), 1.5));
                painter.setPen(pen);
                painter.drawRect(key);
                break;
            }
        }
        painter.setPen(textColour);
        painter.setBrush(Qt::NoBrush);
        for (const auto& [origin, text] : p.lines) painter.drawText(origin, text);
    }
}

// ---- FigureChart

namespace {

// The "?" beside a figure's title: hovering or clicking it shows the explanation of the view it
// belongs to (the view's tooltip), which used to replace the readout over the plot.
class HelpMark : public QLabel {
public:
    explicit HelpMark(QWidget* figure) : QLabel("?"), m_figure(figure) {
        setAlignment(Qt::AlignCenter);
        setFixedSize(18, 18);
        setStyleSheet(
            "QLabel { color: #555; border: 1px solid #aaa; border-radius: 9px; background: white; "
            "}");
        setCursor(Qt::WhatsThisCursor);
        setAccessibleName(
            QCoreApplication::translate("ui::charts::FigureChart", "What this view shows"));
    }

protected:
    bool event(QEvent* event) override {
        if (event->type() == QEvent::ToolTip || event->type() == QEvent::MouseButtonRelease) {
            const QString text = explanation();
            if (!text.isEmpty()) QToolTip::showText(QCursor::pos(), text, this);
            return true;
        }
        return QLabel::event(event);
    }

private:
    QString explanation() const {
        for (QWidget* w = m_figure; w != nullptr; w = w->parentWidget()) {
            if (!w->toolTip().isEmpty()) return w->toolTip();
        }
        return {};
    }
    QWidget* m_figure;
};

}  // namespace

FigureChart::FigureChart(QChart* chart, QWidget* parent)
    : QWidget(parent),
      m_chart(chart),
      m_view(new QChartView(chart)),
      m_title(new QLabel),
      m_help(new HelpMark(this)),
      m_helpBalance(new QWidget),
      m_legend(new FigureLegend(chart)) {
    m_chart->setProperty(kFigureProperty, QVariant::fromValue(static_cast<QObject*>(this)));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_title->setWordWrap(true);
    m_title->setAlignment(Qt::AlignCenter);
    m_title->setTextFormat(Qt::PlainText);
    m_title->setFont(chart->titleFont());
    m_title->setStyleSheet("background: white; color: black; padding: 2px 4px 0px 4px;");
    m_title->hide();
    m_legend->setAutoFillBackground(true);
    QPalette white = m_legend->palette();
    white.setColor(QPalette::Window, Qt::white);
    m_legend->setPalette(white);
    // White to its edges, the margins beside the title and the "?" included: a figure exported
    // from a scrolling view showed the view's grey there.
    setAutoFillBackground(true);
    setPalette(white);
    auto* titleRow = new QHBoxLayout;
    titleRow->setContentsMargins(0, 0, 4, 0);
    m_helpBalance->setFixedSize(m_help->size());
    titleRow->addWidget(m_helpBalance);  // the title stays centred over the plot
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_help, 0, Qt::AlignVCenter);
    layout->addLayout(titleRow);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    m_view->setMouseTracking(true);
    m_view->setRubberBand(QChartView::RectangleRubberBand);
    m_view->viewport()->setStatusTip(QCoreApplication::translate(
        "ui::charts::FigureChart",
        "Drag a rectangle to zoom in, Ctrl+wheel to zoom about the cursor, "
        "Shift+drag to pan; double-click to see everything again."));
    // The title and the legend are ours; the chart's own would elide.
    if (!m_chart->title().isEmpty()) setTitle(m_chart->title());
    m_chart->setTitle(QString());
    // The chart's legend stays "visible" (its markers report their series' visibility through
    // it) but takes no room and draws nothing: detached, transparent and tiny.
    m_chart->legend()->detachFromChart();
    m_chart->legend()->setOpacity(0.0);
    m_chart->legend()->setGeometry(QRectF(0, 0, 1, 1));
    m_view->viewport()->installEventFilter(this);
    connect(m_chart, &QChart::plotAreaChanged, this, [this] {
        if (m_fitting) return;
        // After the layout that moved the plot; refitting changes the labels, hence the area.
        QTimer::singleShot(0, this, [this] {
            m_fitting = true;
            fitTicks(m_chart);
            wrapAxisTitles(m_chart);  // a long axis title beside a short plot: two lines, not "…"
            m_fitting = false;
        });
    });
}

void FigureChart::setTitle(const QString& title) {
    m_title->setText(title);
    m_title->setVisible(!title.isEmpty());
}

QString FigureChart::title() const { return m_title->text(); }

bool FigureChart::isEmpty() const {
    for (QAbstractSeries* series : m_chart->series()) {
        if (auto* xy = qobject_cast<QXYSeries*>(series); xy != nullptr && xy->count() > 0)
            return false;
        if (auto* area = qobject_cast<QAreaSeries*>(series);
            area != nullptr && area->upperSeries() != nullptr && area->upperSeries()->count() > 0) {
            return false;
        }
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series);
            bars != nullptr && bars->count() > 0)
            return false;
    }
    return true;
}

void FigureChart::setHelpShown(bool shown) {
    m_help->setVisible(shown);
    m_helpBalance->setVisible(shown);
}

void FigureChart::setLegendShown(bool shown) { m_legend->setVisible(shown); }

// Room for a plot whatever the type size: the axis labels and titles plus a few lines of plot,
// so a splitter or a small window cannot squeeze the plot until Qt elides its tick labels; as
// wide as a few tick labels beside a plot of the same width.
static void keepPlotRoom(QChart* chart, QChartView* view) {
    double em = QFontMetricsF(chart->titleFont()).height();
    for (QAbstractAxis* axis : chart->axes()) {
        em = std::max({em, QFontMetricsF(axis->labelsFont()).height(),
                       QFontMetricsF(axis->titleFont()).height()});
    }
    // The view's own minimum (set by whoever made it) stays the floor; the type's room is on top.
    if (!view->property("diffuscopeOwnMinimum").isValid()) {
        view->setProperty("diffuscopeOwnMinimum", view->minimumSize());
    }
    const QSize own = view->property("diffuscopeOwnMinimum").toSize();
    // A vertical axis's title wraps between words, so its longest word is the least plot
    // height that prints it whole; the tick labels and titles under the plot come on top.
    double word = 0.0;
    for (QAbstractAxis* axis : chart->axes()) {
        if (axis->orientation() != Qt::Vertical || !axis->isVisible() || !axis->isTitleVisible()) continue;
        const QFontMetricsF metrics(axis->titleFont());
        QString title = axis->property(kOneLineTitle).toString();
        if (title.isEmpty()) title = axis->titleText();
        for (const QString& w : title.split(' ', Qt::SkipEmptyParts)) word = std::max(word, metrics.horizontalAdvance(w));
    }
    const QSize room(std::max(own.width(), static_cast<int>(std::ceil(8.0 * em))),
                     std::max({own.height(), static_cast<int>(std::ceil(7.0 * em)),
                               static_cast<int>(std::ceil(word + 4.5 * em))}));
    if (view->minimumSize() != room) view->setMinimumSize(room);
}

void FigureChart::sync() {
    keepPlotRoom(m_chart, m_view);
    if (m_title->font() != m_chart->titleFont()) m_title->setFont(m_chart->titleFont());
    m_legend->sync();
    m_fitting = true;
    fitTicks(m_chart);
    m_fitting = false;
}

// Axes replaced with the plot's size unchanged (the Lab draws new ones on every run) or a size
// changed while a fit was under way emit no plotAreaChanged the fit could follow: the ticks of
// a wider plot stayed, elided ("1…", "2…"). Checked before each frame, refitted when needed.
void FigureChart::fitIfChanged() {
    if (m_fitting) return;
    QString key =
        QString("%1x%2").arg(m_chart->plotArea().width()).arg(m_chart->plotArea().height());
    for (QAbstractAxis* axis : m_chart->axes()) {
        key += QString(";%1").arg(reinterpret_cast<quintptr>(axis));
        if (auto* value = qobject_cast<QValueAxis*>(axis)) {
            key += QString(":%1:%2").arg(value->min()).arg(value->max());
        } else if (auto* log = qobject_cast<QLogValueAxis*>(axis)) {
            key += QString(":%1:%2").arg(log->min()).arg(log->max());
        }
    }
    if (key == m_fittedFor) return;
    m_fitting = true;
    fitTicks(m_chart);
    wrapAxisTitles(m_chart);
    m_fitting = false;
    m_fittedFor = key;
}

bool FigureChart::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_view->viewport()) return QWidget::eventFilter(watched, event);
    switch (event->type()) {
        case QEvent::Paint:
            fitIfChanged();
            keepPlotRoom(m_chart, m_view);  // the fonts may have grown (presentation mode)
            m_legend->sync();               // series renamed, shown or hidden since the last frame
            if (m_title->font() != m_chart->titleFont()) m_title->setFont(m_chart->titleFont());
            break;
        case QEvent::MouseButtonPress: {
            auto* press = static_cast<QMouseEvent*>(event);
            if (press->button() == Qt::MiddleButton ||
                (press->button() == Qt::LeftButton && (press->modifiers() & Qt::ShiftModifier))) {
                rememberFullRange();
                m_panning = true;
                m_panFrom = press->position().toPoint();
                m_view->viewport()->setCursor(Qt::ClosedHandCursor);
                return true;  // not a rubber band
            }
            if (press->button() == Qt::LeftButton) rememberFullRange();  // a rubber band may follow
            break;
        }
        case QEvent::MouseMove: {
            auto* move = static_cast<QMouseEvent*>(event);
            if (m_panning) {
                const QPoint now = move->position().toPoint();
                panBy(now - m_panFrom);
                m_panFrom = now;
                return true;
            }
            // The readout follows the pointer and stays while it rests (the view's explanation is
            // the "?" beside the title, not a tooltip over the plot).
            const QString text = readoutAt(move->position().toPoint());
            if (text.isEmpty()) {
                QToolTip::hideText();
            } else {
                QToolTip::showText(move->globalPosition().toPoint(), text, m_view->viewport());
            }
            break;
        }
        case QEvent::ToolTip: {
            auto* help = static_cast<QHelpEvent*>(event);
            const QString text = readoutAt(help->pos());
            if (text.isEmpty()) {
                QToolTip::hideText();
            } else {
                QToolTip::showText(help->globalPos(), text, m_view->viewport());
            }
            return true;  // never the view's long explanation over the plot
        }
        case QEvent::MouseButtonRelease:
            if (m_panning) {
                m_panning = false;
                m_view->viewport()->unsetCursor();
                return true;
            }
            // After the rubber band's zoom.
            QTimer::singleShot(0, this, [this] { settleZoom(); });
            break;
        case QEvent::MouseButtonDblClick:
            zoomReset();
            return true;
        case QEvent::Wheel: {
            auto* wheel = static_cast<QWheelEvent*>(event);
            if (!(wheel->modifiers() & Qt::ControlModifier)) break;
            const int steps = wheel->angleDelta().y() / 120;
            if (steps != 0) zoomAbout(wheel->position().toPoint(), std::pow(1.25, steps));
            return true;
        }
        default:
            break;
    }
    return QWidget::eventFilter(watched, event);
}

namespace {
constexpr const char* kFullMin = "diffuscopeFullMin";
constexpr const char* kFullMax = "diffuscopeFullMax";

// x as people read an axis value: whole numbers without decimals (timesteps), else 4 digits.
QString axisNumber(double v) {
    if (std::abs(v - std::round(v)) < 1e-9 * std::max(1.0, std::abs(v)) && std::abs(v) < 1e15) {
        return QString::number(static_cast<qint64>(std::llround(v)));
    }
    return QString::number(v, 'g', 4);
}

QString axisName(QAbstractSeries* series, Qt::Orientation orientation, const char* fallback) {
    for (QAbstractAxis* axis : series->attachedAxes()) {
        if (axis->orientation() != orientation) continue;
        QString title = axis->property("diffuscopeOneLineTitle").isValid()
                            ? axis->property("diffuscopeOneLineTitle").toString()
                            : axis->titleText();
        title = title.section(' ', 0, 0);
        if (!title.isEmpty() && title != "log") return title;
    }
    return fallback;
}
}  // namespace

QString FigureChart::readoutAt(const QPoint& position) const {
    const QPointF inChart = m_chart->mapFromScene(m_view->mapToScene(position));
    if (!m_chart->plotArea().contains(inChart)) return {};
    // The nearest drawn point of any named, visible series, within 24 pixels.
    const double reach = 24.0;
    double best = reach * reach;
    QXYSeries* found = nullptr;
    QPointF value;
    for (QAbstractSeries* series : m_chart->series()) {
        auto* xy = qobject_cast<QXYSeries*>(series);
        if (xy == nullptr || !xy->isVisible() || xy->name().isEmpty() ||
            xy->property(kNoLegendProperty).toBool()) {
            continue;
        }
        const QList<QPointF> points = xy->points();
        for (const QPointF& p : points) {
            const QPointF at = m_chart->mapToPosition(p, xy);
            const double d = (at.x() - inChart.x()) * (at.x() - inChart.x()) +
                             (at.y() - inChart.y()) * (at.y() - inChart.y());
            if (d < best) {
                best = d;
                found = xy;
                value = p;
            }
        }
    }
    if (found == nullptr) return {};
    return QString("%1\n%2 = %3,  %4 = %5")
        .arg(found->name(), axisName(found, Qt::Horizontal, "x"), axisNumber(value.x()),
             axisName(found, Qt::Vertical, "y"), axisNumber(value.y()));
}

void FigureChart::rememberFullRange() {
    if (m_chart->isZoomed()) return;
    for (QAbstractAxis* axis : m_chart->axes()) {
        if (auto* v = qobject_cast<QValueAxis*>(axis)) {
            axis->setProperty(kFullMin, v->min());
            axis->setProperty(kFullMax, v->max());
        } else if (auto* l = qobject_cast<QLogValueAxis*>(axis)) {
            axis->setProperty(kFullMin, l->min());
            axis->setProperty(kFullMax, l->max());
        }
    }
}

void FigureChart::settleZoom() {
    for (QAbstractAxis* axis : m_chart->axes()) {
        if (!axis->property(kFullMin).isValid() || qobject_cast<QCategoryAxis*>(axis) != nullptr)
            continue;
        const double fullMin = axis->property(kFullMin).toDouble();
        const double fullMax = axis->property(kFullMax).toDouble();
        auto* log = qobject_cast<QLogValueAxis*>(axis);
        auto* value = qobject_cast<QValueAxis*>(axis);
        if (log == nullptr && value == nullptr) continue;
        // In the axis's own scale: a log axis pans and zooms in decades.
        const auto to = [log](double v) { return log != nullptr ? std::log10(v) : v; };
        const auto from = [log](double v) { return log != nullptr ? std::pow(10.0, v) : v; };
        double low = to(log != nullptr ? log->min() : value->min());
        double high = to(log != nullptr ? log->max() : value->max());
        const double a = to(fullMin), b = to(fullMax);
        if (!(std::isfinite(low) && std::isfinite(high) && std::isfinite(a) && std::isfinite(b)))
            continue;
        if (high - low >= b - a) {
            low = a;
            high = b;
        } else if (low < a) {
            high += a - low;
            low = a;
        } else if (high > b) {
            low -= high - b;
            high = b;
        } else {
            continue;
        }
        axis->setRange(from(low), from(high));
    }
    m_fitting = true;
    fitTicks(m_chart);
    m_fitting = false;
}

void FigureChart::zoomAbout(const QPoint& position, double factor) {
    if (!(factor > 0.0)) return;
    const QPointF centre = m_chart->mapFromScene(m_view->mapToScene(position));
    const QRectF area = m_chart->plotArea();
    if (!area.contains(centre)) return;
    rememberFullRange();
    // The rectangle that keeps the point under the cursor where it is.
    const QRectF zoomed(centre.x() - (centre.x() - area.left()) / factor,
                        centre.y() - (centre.y() - area.top()) / factor, area.width() / factor,
                        area.height() / factor);
    QAbstractSeries* series = m_chart->series().isEmpty() ? nullptr : m_chart->series().front();
    const QPointF value = series != nullptr ? m_chart->mapToValue(centre, series) : QPointF();
    m_chart->zoomIn(zoomed);
    settleZoom();
    // Round ticks may have changed the labels' width and so moved the plot: bring the value that
    // was under the cursor back under it.
    for (int round = 0; round < 2 && series != nullptr; ++round) {
        if (m_chart->layout() != nullptr) m_chart->layout()->activate();
        const QPointF now = m_chart->mapToPosition(value, series);
        const QPointF off = now - centre;
        if (std::abs(off.x()) < 0.5 && std::abs(off.y()) < 0.5) break;
        m_chart->scroll(off.x(), -off.y());
        settleZoom();
    }
}

void FigureChart::panBy(const QPoint& pixels) {
    rememberFullRange();
    m_chart->scroll(-pixels.x(), pixels.y());
    settleZoom();
}

void FigureChart::zoomReset() {
    m_chart->zoomReset();
    m_fitting = true;
    fitTicks(m_chart);
    m_fitting = false;
}

QStringList FigureChart::elidedTexts() const {
    QStringList elided;
    if (m_chart->scene() != nullptr) {
        const QRectF plot = m_chart->mapToScene(m_chart->plotArea()).boundingRect();
        for (QGraphicsItem* item : m_chart->scene()->items()) {
            if (!item->isVisible() || item->effectiveOpacity() <= 0.0) continue;
            QString text;
            if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item)) {
                text = rich->toPlainText();
            } else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
                text = simple->text();
            }
            if (!text.endsWith("...") && !text.endsWith(QChar(0x2026))) continue;
            // Name what was shortened: an axis title whose start it is, or the tick labels of
            // the axis on that side of the plot.
            const QString stem = text.chopped(text.endsWith("...") ? 3 : 1).trimmed();
            const QPointF at = item->sceneBoundingRect().center();
            const Qt::Alignment side = at.y() > plot.bottom() ? Qt::AlignBottom
                                       : at.y() < plot.top()  ? Qt::AlignTop
                                       : at.x() < plot.left() ? Qt::AlignLeft
                                                              : Qt::AlignRight;
            QString named;
            for (QAbstractAxis* axis : m_chart->axes()) {
                const QString title = axis->property("diffuscopeOneLineTitle").isValid()
                                          ? axis->property("diffuscopeOneLineTitle").toString()
                                          : axis->titleText();
                if (!stem.isEmpty() && title.startsWith(stem)) {
                    named = title;
                    break;
                }
                if (named.isEmpty() && axis->isVisible() && axis->alignment() == side) {
                    named = title.isEmpty()
                                ? QCoreApplication::translate("ui::charts::FigureChart",
                                                              "the tick labels of \"%1\"")
                                      .arg(this->title())
                                : QCoreApplication::translate("ui::charts::FigureChart",
                                                              "the tick labels of \"%1\"")
                                      .arg(title);
                }
            }
            elided << (named.isEmpty() ? text : named);
        }
    }
    // A word wider than the figure cannot be wrapped.
    const auto tooWide = [&elided](const QString& text, const QFont& font, double width) {
        const QFontMetricsF metrics(font);
        for (const QString& word : text.split(' ', Qt::SkipEmptyParts)) {
            if (metrics.horizontalAdvance(word) > width) elided << text;
        }
    };
    if (m_title->isVisible())
        tooWide(m_title->text(), m_title->font(), m_title->contentsRect().width());
    if (m_legend->isVisible()) {
        for (const QString& label : m_legend->labels())
            tooWide(label, m_legend->font(),
                    m_legend->width() - 3.0 * QFontMetricsF(m_legend->font()).height());
    }
    elided.removeDuplicates();
    return elided;
}

QStringList FigureChart::squeezedParts() const {
    // Shown within the figure: an exported figure's widgets are laid out but never shown.
    const auto shown = [this](const QWidget* part) { return part->isVisibleTo(this); };
    const auto named = [](const QString& text) { return "\"" + text + "\""; };
    QStringList squeezed;
    if (shown(m_title) && m_title->height() + 1 < m_title->heightForWidth(m_title->width())) {
        squeezed << named(m_title->text());
    }
    if (shown(m_legend) && m_legend->height() + 1 < m_legend->heightForWidth(m_legend->width())) {
        squeezed << QCoreApplication::translate("ui::charts::FigureChart", "the legend of %1")
                        .arg(named(title()));
    }
    // A plot below its minimum, or pushed past the figure's bottom when the figure got less
    // height than its parts need together.
    if (shown(m_view) && (m_view->height() + 1 < m_view->minimumHeight() ||
                          m_view->geometry().bottom() > height() + 1 ||
                          (shown(m_legend) && m_legend->geometry().bottom() > height() + 1))) {
        squeezed << QCoreApplication::translate("ui::charts::FigureChart", "the plot of %1")
                        .arg(named(title()));
    }
    return squeezed;
}

void hideFromLegend(QAbstractSeries* series) {
    series->setProperty(kNoLegendProperty, true);
    if (QChart* chart = series->chart()) {
        for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(false);
    }
}

FigureChart* figureOf(const QChart* chart) {
    if (chart == nullptr) return nullptr;
    return qobject_cast<FigureChart*>(chart->property(kFigureProperty).value<QObject*>());
}

}  // namespace ui::charts
