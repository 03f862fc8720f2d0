// SPDX-License-Identifier: MIT
#include "ui/charts/chart_export.h"

#include <QAbstractAxis>
#include <QBuffer>
#include <QChart>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QImage>
#include <QLabel>
#include <QLayout>
#include <QLegend>
#include <QPainter>
#include <QPdfWriter>
#include <QPointer>
#include <QRegularExpression>
#include <QResizeEvent>
#include <QSplitter>
#include <QSvgGenerator>
#include <QWidget>
#include <cmath>
#include <optional>
#include <vector>

#include "core/io/file_io.h"
#include "core/io/staged_files.h"
#include "core/util/limits.h"
#include "ui/charts/chart_panel.h"
#include "ui/charts/figure_chart.h"
#include "ui/charts/presentation.h"
#include "ui/charts/view_panel.h"

namespace ui::charts {

std::optional<double> parseLengthExact(const QString& text, QString* error) {
    static const QRegularExpression pattern(R"(^\s*([0-9]+(?:\.[0-9]+)?)\s*(px|cm|mm|in)?\s*$)");
    const QRegularExpressionMatch match = pattern.match(text);
    // "-3in" is a length, only not one a figure can have: say so rather than "not a number".
    static const QRegularExpression negative(R"(^\s*-\s*[0-9]*\.?[0-9]+\s*(px|cm|mm|in)?\s*$)");
    if (!match.hasMatch() && negative.match(text).hasMatch()) {
        if (error)
            *error = QCoreApplication::translate(
                         "ui::chart_export",
                         "length %1: must be positive (16 to 16384 pixels, 0.43 to 433 cm)")
                         .arg(text);
        return std::nullopt;
    }
    if (!match.hasMatch()) {
        if (error)
            *error = QCoreApplication::translate(
                         "ui::chart_export", "length %1: expected a number with px, cm, mm or in")
                         .arg(text);
        return std::nullopt;
    }
    const double value = match.captured(1).toDouble();
    const QString unit = match.captured(2);
    const double inches = unit == "cm"   ? value / 2.54
                          : unit == "mm" ? value / 25.4
                          : unit == "in" ? value
                                         : value / 96.0;
    const double pixels = std::round(inches * 96.0);
    if (!(pixels >= 16 && pixels <= 16384)) {
        if (error)
            *error = QCoreApplication::translate(
                         "ui::chart_export",
                         "length %1: must lie between 16 and 16384 pixels (0.43 to 433 cm)")
                         .arg(text);
        return std::nullopt;
    }
    return inches * 96.0;
}

std::optional<int> parseLength(const QString& text, QString* error) {
    const std::optional<double> exact = parseLengthExact(text, error);
    if (!exact) return std::nullopt;
    return static_cast<int>(std::lround(*exact));
}

QString chartFormat(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "png" || suffix == "svg" || suffix == "pdf" || suffix == "csv") {
        return suffix;
    }
    return {};
}

namespace {

// A view shown in the window sits in its page's layout (or splitter), which gives it back its
// on-screen size at the next layout pass, and settling the figure delivers those: the window's
// Export view rendered the view at its size on screen into the canvas asked for (the corner of
// the plot at 8.5 × 6 cm, a small figure in a corner at 80 × 60 in). While a figure is laid
// out and rendered, its ancestors' layout requests wait; they are delivered afterwards, so the
// window lays itself out again as it was. A hidden view (the command line's) has none.
class AncestorLayoutsHeld : public QObject {
public:
    explicit AncestorLayoutsHeld(QWidget* widget) {
        for (QWidget* p = widget->parentWidget(); p != nullptr; p = p->parentWidget()) {
            // A layout sees its widget's LayoutRequest before any event filter does (a shown
            // page's stack laid the Γ view out at its on-screen size again): switched off.
            // The filter holds the widgets that lay out without a QLayout (splitters).
            QLayout* layout = p->layout();
            const bool enabled = layout != nullptr && layout->isEnabled();
            if (enabled) layout->setEnabled(false);
            p->installEventFilter(this);
            m_ancestors.push_back({p, enabled});
            if (p->isWindow()) break;
        }
    }
    ~AncestorLayoutsHeld() override {
        for (const auto& [p, enabled] : m_ancestors) {
            if (p == nullptr) continue;
            p->removeEventFilter(this);
            if (enabled && p->layout() != nullptr) p->layout()->setEnabled(true);
            QCoreApplication::postEvent(p, new QEvent(QEvent::LayoutRequest));
        }
    }
    AncestorLayoutsHeld(const AncestorLayoutsHeld&) = delete;
    AncestorLayoutsHeld& operator=(const AncestorLayoutsHeld&) = delete;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        return event->type() == QEvent::LayoutRequest || QObject::eventFilter(watched, event);
    }

private:
    struct Held {
        QPointer<QWidget> widget;
        bool layoutWasEnabled;
    };
    std::vector<Held> m_ancestors;
};

// Lays the widget out at the export size without showing it, so headless export works.
class SizeGuard {
public:
    SizeGuard(QWidget* widget, QSize size) : m_widget(widget), m_old(widget->size()) {
        m_widget->resize(size);
        m_widget->ensurePolished();
        if (m_widget->layout() != nullptr) {
            m_widget->layout()->activate();
        }
    }
    ~SizeGuard() { m_widget->resize(m_old); }

private:
    QWidget* m_widget;
    QSize m_old;
};

// Hides a view's controls and message footer while it is rendered, so the file holds the
// figure only; restores what was visible. A chart beside the view's main figure that has nothing
// to show yet (the NLL against K before it is computed) is left out too, not drawn empty.
class FigureOnly {
public:
    explicit FigureOnly(QWidget* widget) {
        auto* panel = qobject_cast<ViewPanel*>(widget);
        if (panel == nullptr) return;
        m_panel = panel;
        panel->setFigureMode(true);
        for (const QPointer<QWidget>& control : panel->controls()) {
            if (control != nullptr && !control->isHidden()) m_hidden.push_back(control);
        }
        if (!panel->messageLabel()->isHidden()) m_hidden.emplace_back(panel->messageLabel());
        const auto* chartPanel = qobject_cast<ChartPanel*>(widget);
        for (FigureChart* figure : widget->findChildren<FigureChart*>()) {
            if (!figure->isHidden() && figure->isEmpty() &&
                (chartPanel == nullptr || figure != chartPanel->figure())) {
                m_hidden.emplace_back(figure);
            }
            if (!figure->helpMark()->isHidden()) {
                figure->setHelpShown(false);
                m_withHelp.emplace_back(figure);
            }
        }
        for (const QPointer<QWidget>& w : m_hidden) w->hide();
        // A splitter's handle beside a hidden control would be drawn as a dotted grip.
        for (QSplitter* splitter : widget->findChildren<QSplitter*>()) {
            bool before = false;  // a shown widget before handle i
            for (int i = 0; i < splitter->count(); ++i) {
                const bool shown = !splitter->widget(i)->isHidden();
                QSplitterHandle* handle = splitter->handle(i);
                if (handle != nullptr && !handle->isHidden() && (!shown || !before)) {
                    handle->hide();
                    m_hidden.emplace_back(handle);
                }
                before = before || shown;
            }
        }
    }
    ~FigureOnly() {
        for (const QPointer<QWidget>& w : m_hidden) {
            if (w != nullptr) w->show();
        }
        for (const QPointer<FigureChart>& f : m_withHelp) {
            if (f != nullptr) f->setHelpShown(true);
        }
        if (m_panel != nullptr) m_panel->setFigureMode(false);
    }

private:
    std::vector<QPointer<QWidget>> m_hidden;
    std::vector<QPointer<FigureChart>> m_withHelp;
    QPointer<ViewPanel> m_panel;
};

// Sets the figure's type sizes (FigureType, in points, times the font scale) on every chart of
// `widget`, and strokes and markers scaled alike; restores the view as it was when destroyed.
class FigureTypeGuard {
public:
    FigureTypeGuard(QWidget* widget, double fontScale) : m_widget(widget) {
        m_hadFont = widget->testAttribute(Qt::WA_SetFont);
        m_font = widget->font();
        for (FigureChart* figure : figures()) {
            QChart* chart = figure->chart();
            Saved saved{chart, chart->titleFont(), chart->legend()->font(), {},
                        {},    chartScale(chart)};
            for (QAbstractAxis* axis : chart->axes()) {
                saved.axes.push_back(axis);
                saved.axisFonts.emplace_back(axis->labelsFont(), axis->titleFont());
            }
            m_saved.push_back(saved);
        }
        setChartsScale(widget, fontScale);  // strokes and markers
        const ui::charts::FigureType sizes;
        widget->setFont(figureFont(m_font, sizes.axisTitle * fontScale));
        for (const Saved& saved : m_saved) {
            QChart* chart = saved.chart;
            chart->setTitleFont(figureFont(saved.title, sizes.title * fontScale));
            chart->legend()->setFont(figureFont(saved.legend, sizes.legend * fontScale));
            for (size_t i = 0; i < saved.axes.size(); ++i) {
                saved.axes[i]->setLabelsFont(
                    figureFont(saved.axisFonts[i].first, sizes.tick * fontScale));
                QFont axisTitle =
                    figureFont(saved.axisFonts[i].second, sizes.axisTitle * fontScale);
                axisTitle.setBold(false);  // bold titles cost a column figure its room
                saved.axes[i]->setTitleFont(axisTitle);
            }
        }
    }
    ~FigureTypeGuard() {
        for (const Saved& saved : m_saved) {
            if (saved.chart.isNull()) continue;
            restoreAxisTitles(saved.chart);
            setChartScale(saved.chart, saved.scale);
            saved.chart->setTitleFont(saved.title);
            saved.chart->legend()->setFont(saved.legend);
            for (size_t i = 0; i < saved.axes.size(); ++i) {
                if (saved.axes[i].isNull()) continue;
                saved.axes[i]->setLabelsFont(saved.axisFonts[i].first);
                saved.axes[i]->setTitleFont(saved.axisFonts[i].second);
            }
        }
        m_widget->setFont(m_hadFont ? m_font : QFont());
    }
    FigureTypeGuard(const FigureTypeGuard&) = delete;
    FigureTypeGuard& operator=(const FigureTypeGuard&) = delete;

    std::vector<FigureChart*> figures() const {
        std::vector<FigureChart*> list;
        if (auto* self = qobject_cast<FigureChart*>(m_widget)) list.push_back(self);
        for (FigureChart* figure : m_widget->findChildren<FigureChart*>()) list.push_back(figure);
        return list;
    }

private:
    struct Saved {
        QPointer<QChart> chart;
        QFont title;
        QFont legend;
        std::vector<QPointer<QAbstractAxis>> axes;
        std::vector<std::pair<QFont, QFont>> axisFonts;
        double scale;
    };
    QWidget* m_widget;
    bool m_hadFont;
    QFont m_font;
    std::vector<Saved> m_saved;
};

// A widget that is not shown gets its resize events only when rendered; the charts need them
// now, to lay out their plots before the ticks are fitted and the texts checked.
void sendPendingResizes(QWidget* widget) {
    if (widget->testAttribute(Qt::WA_PendingResizeEvent)) {
        QResizeEvent event(widget->size(), QSize());
        QCoreApplication::sendEvent(widget, &event);
        widget->setAttribute(Qt::WA_PendingResizeEvent, false);
    }
    // A hidden widget's layout acts on a LayoutRequest only when shown: laid out here, before
    // its children are, as the render would.
    if (widget->layout() != nullptr) widget->layout()->activate();
    for (QObject* child : widget->children()) {
        if (auto* w = qobject_cast<QWidget*>(child); w != nullptr && !w->isWindow())
            sendPendingResizes(w);
    }
}

// Lays the figure out at its size until the ticks fitted to the plots stop moving it.
void settle(QWidget* widget, const std::vector<FigureChart*>& figures) {
    // Layouts cache their items' sizes: those of a splitter whose controls were just hidden, of
    // a legend whose font just changed, are stale until each widget says its geometry changed.
    for (QWidget* child : widget->findChildren<QWidget*>()) child->updateGeometry();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    for (int round = 0; round < 3; ++round) {
        for (FigureChart* figure : figures) figure->sync();
        if (widget->layout() != nullptr) {
            widget->layout()->invalidate();
            widget->layout()->activate();
        }
        sendPendingResizes(widget);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        for (FigureChart* figure : figures) {
            if (figure->chart()->layout() != nullptr) figure->chart()->layout()->activate();
            wrapAxisTitles(figure->chart());
        }
    }
    for (FigureChart* figure : figures) figure->sync();
    // What that last sync changed (a legend's font) laid out too, as the render would: the
    // widgets, then the charts their new sizes resized.
    for (int pass = 0; pass < 2; ++pass) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (widget->layout() != nullptr) widget->layout()->activate();
        sendPendingResizes(widget);
        for (FigureChart* figure : figures) {
            if (figure->chart()->layout() != nullptr) figure->chart()->layout()->activate();
        }
    }
}

// A length in CSS pixels as centimetres with one decimal, for the refusals; rounded up where it
// is a size the figure needs.
QString centimetres(double pixels, bool roundUp = false) {
    const double cm = pixels * 2.54 / 96.0;
    return QString::number(roundUp ? std::ceil(cm * 10.0 - 1e-9) / 10.0 : cm, 'f', 1);
}

// Whole or not at all: a full disk or a device path leaves any previous file as it was.
QString saveBytes(const QString& path, const QByteArray& bytes) {
    const core::Status status = core::io::writeFileAtomically(
        path.toStdString(), std::string(bytes.constData(), static_cast<size_t>(bytes.size())));
    return status ? QString() : QString::fromStdString(status.error().toString());
}

}  // namespace

struct FigureRenderer::State {
    State(QWidget* w, QSize s) : widget(w), size(s), held(w), figure(w), guard(w, s) {}
    QWidget* widget;
    QSize size;
    AncestorLayoutsHeld held;
    FigureOnly figure;  // declared before guard: the layout sees the controls hidden
    SizeGuard guard;
};

FigureRenderer::FigureRenderer(QWidget* widget, QSize size)
    : m_state(std::make_unique<State>(widget, size)) {}

FigureRenderer::~FigureRenderer() = default;

QImage FigureRenderer::render() const {
    QImage image(m_state->size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    m_state->widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    return image;
}

namespace {

// Lays `widget` out at `size` as the export does and returns why the figure cannot be written
// at that size (a layout that cannot shrink to it, a part past its edge, a text shortened or a
// part squeezed), or an empty string.
QString layoutProblem(QWidget* widget,
                      const std::vector<FigureChart*>& figures,
                      QSize size,
                      const ExportOptions& options,
                      const QString& path) {
    if (widget->size() != size) {
        widget->resize(size);
        if (widget->layout() != nullptr) widget->layout()->activate();
    }
    settle(widget, figures);
    {
        // A first render delivers what the layout still had pending (a hidden widget lays out
        // some of its children only when painted); the figure is settled again after it.
        QImage scratch(size, QImage::Format_RGB32);
        QPainter painter(&scratch);
        widget->render(&painter);
    }
    settle(widget, figures);
    // What the user can change: at the least font scale, only the size. A layout's minimum size
    // is not named: a figure laid out at it may still shorten a text, and a refusal names only
    // sizes that were laid out and checked (fittingSizeMm, below).
    const QString advice = options.fontScale > kMinFontScale
                               ? QCoreApplication::translate(
                                     "ui::chart_export", "make it larger or the font scale smaller")
                               : QCoreApplication::translate("ui::chart_export", "make it larger");
    const auto doesNotFit = [&]() {
        return QCoreApplication::translate(
                   "ui::chart_export",
                   "%1: at %2 × %3 cm and font scale %4 the %5 view does not "
                   "fit; %6")
            .arg(path)
            .arg(centimetres(size.width()))
            .arg(centimetres(size.height()))
            .arg(options.fontScale)
            .arg(widget->windowTitle())
            .arg(advice);
    };
    // A layout that cannot shrink to the size asked would be cut at the edges.
    if (widget->layout() != nullptr) {
        const QSize minimum = widget->layout()->totalMinimumSize();
        if (minimum.width() > size.width() || minimum.height() > size.height()) return doesNotFit();
    }
    // Parts laid out past the edge (a legend's rows taking more height than there is).
    for (QWidget* child : widget->findChildren<QWidget*>()) {
        if (!child->isVisibleTo(widget) || child->isWindow()) continue;
        const QRect at(child->mapTo(widget, QPoint(0, 0)), child->size());
        if (at.right() > widget->width() + 1 || at.bottom() > widget->height() + 1)
            return doesNotFit();
    }
    QStringList elided;
    for (FigureChart* figure : figures) {
        if (figure->isVisibleTo(widget) || figure == widget)
            elided << figure->elidedTexts() << figure->squeezedParts();
    }
    if (!elided.isEmpty()) {
        return QCoreApplication::translate(
                   "ui::chart_export",
                   "%1: at %2 × %3 cm and font scale %4 the figure cannot show %5 whole; %6")
            .arg(path)
            .arg(centimetres(size.width()))
            .arg(centimetres(size.height()))
            .arg(options.fontScale)
            .arg(elided.front().startsWith(QChar('"')) || elided.front().contains(QChar('"'))
                     ? elided.front()
                     : "\"" + elided.front() + "\"")
            .arg(advice);
    }
    return {};
}

// A size near `asked` at which the figure can be written, in whole millimetres: the least height
// at the asked width, or failing that the least width at the asked height, or failing both the
// least size of the asked proportions; none when nothing up to four times the asked size (at
// most 16384 pixels) fits. Every size returned was laid out and passed the checks (renderFigure
// then exports at it before naming it).
std::optional<QSizeF> fittingSizeMm(QWidget* widget,
                                    const std::vector<FigureChart*>& figures,
                                    QSize asked,
                                    const ExportOptions& options,
                                    const QString& path) {
    const double pxPerMm = 96.0 / 25.4;
    const QSizeF askedMm(asked.width() / pxPerMm, asked.height() / pxPerMm);
    enum class Grow { Height, Width, Both };
    for (const Grow grow : {Grow::Height, Grow::Width, Grow::Both}) {
        // The size in millimetres when the grown side (the height for Both) is `mm`.
        const auto sizeMm = [&](int mm) {
            switch (grow) {
                case Grow::Height:
                    return QSizeF(askedMm.width(), mm);
                case Grow::Width:
                    return QSizeF(mm, askedMm.height());
                default:
                    return QSizeF(std::round(askedMm.width() * mm / askedMm.height()), mm);
            }
        };
        const auto fits = [&](int mm) {
            const QSizeF size = sizeMm(mm);
            const QSize pixels(static_cast<int>(std::lround(size.width() * pxPerMm)),
                               static_cast<int>(std::lround(size.height() * pxPerMm)));
            return pixels.width() <= 16384 && pixels.height() <= 16384 &&
                   layoutProblem(widget, figures, pixels, options, path).isEmpty();
        };
        const double from = grow == Grow::Width ? askedMm.width() : askedMm.height();
        int bad = static_cast<int>(std::floor(from));  // does not fit, or is below the asked size
        int good = static_cast<int>(std::floor(4.0 * from));
        if (good <= bad || !fits(good)) continue;
        while (good - bad > 1) {
            const int middle = (good + bad) / 2;
            (fits(middle) ? good : bad) = middle;
        }
        return sizeMm(good);
    }
    return std::nullopt;
}

// Why `options` cannot be exported to `path` (size, DPI, font scale, the format `suffix` of
// its extension, the image's memory), or an empty string.
QString exportOptionsProblem(const QString& path,
                             const QString& suffix,
                             const ExportOptions& options) {
    if (options.size.width() < 16 || options.size.height() < 16 || options.size.width() > 16384 ||
        options.size.height() > 16384) {
        return QCoreApplication::translate(
                   "ui::chart_export", "export size %1x%2: must lie between 16 and 16384 pixels")
            .arg(options.size.width())
            .arg(options.size.height());
    }
    if (options.dpi < 24 || options.dpi > 1200) {
        return QCoreApplication::translate("ui::chart_export",
                                           "export DPI %1: must lie between 24 and 1200")
            .arg(options.dpi);
    }
    if (!(options.fontScale >= kMinFontScale && options.fontScale <= kMaxFontScale)) {
        return QCoreApplication::translate("ui::chart_export",
                                           "export font scale %1: must lie between 0.5 and 4")
            .arg(options.fontScale);
    }
    if (suffix != "png" && suffix != "svg" && suffix != "pdf") {
        return QCoreApplication::translate("ui::chart_export",
                                           "%1: a figure is written as .png, .svg or .pdf")
            .arg(path);
    }
    // The image's memory before anything is drawn (the one table, core/util/limits.h): a PNG at
    // its dpi, and the first layout pass at 96 dpi for every format.
    if (const core::Status s = core::limits::checkImage(suffix == "png" ? "the PNG" : "the image",
                                                        options.size.width(), options.size.height(),
                                                        suffix == "png" ? options.dpi : 96.0);
        !s) {
        return path + ": " + QString::fromStdString(s.error().toString());
    }
    return {};
}

// The SVG's header names the physical size typed (8.5 × 6 cm), not the whole-pixel canvas's
// (84.93 × 60.06 mm).
void setSvgPhysicalSize(QByteArray& bytes, const QSizeF& typedSize) {
    const auto mm = [](double pixels) {
        QString text = QString::number(pixels * 25.4 / 96.0, 'f', 2);
        while (text.endsWith('0')) text.chop(1);
        if (text.endsWith('.')) text.chop(1);
        return text;
    };
    static const QRegularExpression header(R"re(<svg width="[^"]*mm" height="[^"]*mm")re");
    const QByteArray exact = QString("<svg width=\"%1mm\" height=\"%2mm\"")
                                 .arg(mm(typedSize.width()), mm(typedSize.height()))
                                 .toUtf8();
    const QRegularExpressionMatch match = header.match(QString::fromUtf8(bytes.left(512)));
    if (match.hasMatch()) {
        bytes.replace(match.capturedStart(), match.capturedLength(), exact);
    }
}

// The laid-out `widget` encoded as `suffix` (png, svg or pdf) into `bytes`; an empty string or
// the problem, naming `path`.
QString encodeFigure(QWidget* widget,
                     const QString& suffix,
                     const ExportOptions& options,
                     const QString& path,
                     QByteArray& bytes) {
    // Without the window's background: a figure is white to the edge (the image is filled white
    // and SVG and PDF start from a white rectangle), never the grey of the GUI's panels.
    auto renderScaled = [widget](QPainter& painter) {
        widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    };
    bytes.clear();
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (suffix == "png") {
        const double scale = options.dpi / 96.0;
        QImage image(options.size * scale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.setDotsPerMeterX(static_cast<int>(options.dpi / 0.0254));
        image.setDotsPerMeterY(static_cast<int>(options.dpi / 0.0254));
        image.fill(Qt::white);  // a transparent background looks broken on dark slides
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            renderScaled(painter);
        }
        if (!image.save(&buffer, "PNG")) {
            return QCoreApplication::translate("ui::chart_export", "%1: encoding the PNG failed")
                .arg(path);
        }
    } else if (suffix == "svg") {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(options.size);
        generator.setViewBox(QRect(QPoint(0, 0), options.size));
        generator.setResolution(96);  // the canvas's physical size: size/96 inches
        generator.setTitle(widget->windowTitle());
        generator.setDescription("Exported by Diffuscope");
        {
            QPainter painter(&generator);
            painter.fillRect(QRect(QPoint(0, 0), options.size), Qt::white);
            renderScaled(painter);
        }
        if (options.typedSize.isValid()) setSvgPhysicalSize(bytes, options.typedSize);
    } else {
        QPdfWriter writer(&buffer);
        writer.setCreator("Diffuscope");
        writer.setResolution(96);
        // The page has the figure's physical size: 96 px to the inch, 72 pt to the inch.
        writer.setPageSize(QPageSize(QSizeF(options.size) * (72.0 / 96.0), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter painter(&writer);
        // The page is in points (1/72 in) and the writer draws at 96 dpi: scale to fill it.
        const QRect page = painter.viewport();
        painter.scale(static_cast<double>(page.width()) / options.size.width(),
                      static_cast<double>(page.height()) / options.size.height());
        renderScaled(painter);
    }
    buffer.close();
    return {};
}

// Renders `widget` as the figure `path` names (its extension is the format: png, svg or pdf)
// into `bytes`; returns an empty string or the problem, naming `path`, and in `fitsMm` (unless
// null) a size near the asked one at which the layout passed the checks, if any.
QString renderFigureOnce(QWidget* widget,
                         const QString& path,
                         const ExportOptions& options,
                         QByteArray* bytesOut,
                         std::optional<QSizeF>* fitsMm) {
    if (widget == nullptr) {
        return QCoreApplication::translate("ui::chart_export", "nothing to export");
    }
    const QString suffix = chartFormat(path);
    if (const QString problem = exportOptionsProblem(path, suffix, options); !problem.isEmpty()) {
        return problem;
    }
    const AncestorLayoutsHeld held(widget);
    FigureOnly figure(widget);
    // Laid out at the size asked, with the type in points: text never shrinks with the figure,
    // titles and legends wrap, ticks thin out; what still cannot fit refuses the export, naming
    // a size that fits.
    FigureTypeGuard type(widget, options.fontScale);
    SizeGuard guard(widget, options.size);
    const std::vector<FigureChart*> figures = type.figures();
    if (const QString problem = layoutProblem(widget, figures, options.size, options, path);
        !problem.isEmpty()) {
        if (fitsMm != nullptr)
            *fitsMm = fittingSizeMm(widget, figures, options.size, options, path);
        return problem;
    }
    return encodeFigure(widget, suffix, options, path, *bytesOut);
}

// renderFigureOnce, and on a refusal the size it fits at, once an export asked for that size
// (typed in centimetres, as the message gives it) has written it: a layout laid out after the
// search's other sizes can settle otherwise than one laid out afresh. When that export is
// refused too, the size it names is tried, up to four times; no size is named unless one wrote.
QString renderFigure(QWidget* widget,
                     const QString& path,
                     const ExportOptions& options,
                     QByteArray* bytesOut) {
    // Laid out twice before a refusal: from the view as the window shows it, the axes keep the
    // tick counts fitted to the screen and a layout can settle otherwise than from a figure
    // already laid out at the size; the second pass starts as a headless export does. (The
    // window refused, after a person typed it, the very size its refusal had named.)
    const auto twice = [&](const ExportOptions& at, QByteArray* bytes,
                           std::optional<QSizeF>* fitsAt) {
        const QString first = renderFigureOnce(widget, path, at, bytes, nullptr);  // no search
        return first.isEmpty() ? first : renderFigureOnce(widget, path, at, bytes, fitsAt);
    };
    std::optional<QSizeF> fits;
    const QString problem = twice(options, bytesOut, &fits);
    if (problem.isEmpty()) return problem;
    for (int tries = 0; tries < 4 && fits; ++tries) {
        const QString width = QString::number(fits->width() / 10.0, 'f', 1);
        const QString height = QString::number(fits->height() / 10.0, 'f', 1);
        ExportOptions at = options;
        at.size =
            QSize(parseLength(width + "cm").value_or(0), parseLength(height + "cm").value_or(0));
        at.typedSize = QSizeF();
        QByteArray scratch;
        std::optional<QSizeF> next;
        // From the view as it is on screen again, as the person who types the size next will
        // find it: the view's own re-layouts after the guards restored it run first.
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
        if (twice(at, &scratch, &next).isEmpty()) {
            return problem + QCoreApplication::translate(
                                 "ui::chart_export", " (at this font scale it fits at %1 × %2 cm)")
                                 .arg(width, height);
        }
        fits = next;
    }
    return problem;
}

}  // namespace

QString exportWidget(QWidget* widget, const QString& path, const ExportOptions& options) {
    QByteArray bytes;
    if (const QString error = renderFigure(widget, path, options, &bytes); !error.isEmpty()) {
        return error;
    }
    return saveBytes(path, bytes);
}

QString exportViewsToFolder(const QString& folder,
                            const std::vector<std::pair<QString, ViewPanel*>>& views,
                            const QStringList& formats,
                            const ExportOptions& options) {
    // The folders this call creates, deepest first: removed again when nothing is written.
    QStringList created;
    for (QString at = QDir(folder).absolutePath(); !at.isEmpty() && !QFileInfo::exists(at);
         at = QFileInfo(at).absolutePath()) {
        created << at;
        if (created.size() > 64) break;  // "/" always exists; a guard all the same
    }
    if (!QDir().mkpath(folder)) {
        return QCoreApplication::translate("ui::chart_export", "%1: cannot create the folder")
            .arg(folder);
    }
    QString error;
    {
        core::io::StagedFiles staged(folder.toStdString());
        for (const auto& [name, panel] : views) {
            for (const QString& format : formats) {
                const QString file = name + "." + format;
                const QString path = QDir(folder).filePath(file);
                core::Status status;
                if (format == "csv") {
                    const core::Result<std::string> text = panel->csvText();
                    if (!text) {
                        error = QString::fromStdString(text.error().field == "view"
                                                           ? text.error().message
                                                           : text.error().toString());
                    } else {
                        status = staged.write(file.toStdString(), *text);
                    }
                } else {
                    QByteArray bytes;
                    error = renderFigure(panel, path, options, &bytes);
                    if (error.isEmpty()) {
                        status = staged.write(file.toStdString(), bytes.toStdString());
                    }
                }
                if (error.isEmpty() && !status) {
                    error = QString::fromStdString(status.error().toString());
                }
                if (!error.isEmpty()) {
                    error = name + ": " + error;
                    break;
                }
            }
            if (!error.isEmpty()) break;
        }
        if (error.isEmpty()) {
            if (const core::Status status = staged.commit(); !status) {
                error = QString::fromStdString(status.error().toString());
            }
        }
    }  // the staging folder is gone
    if (!error.isEmpty()) {
        for (const QString& dir : created) QDir().rmdir(dir);  // only if empty
    }
    return error;
}

}  // namespace ui::charts
