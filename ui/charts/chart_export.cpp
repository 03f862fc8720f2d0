// SPDX-License-Identifier: MIT
#include "ui/charts/chart_export.h"

#include <QCoreApplication>

#include <QFileInfo>
#include <QPointer>
#include <QRegularExpression>
#include <QImage>
#include <QLabel>
#include <QLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>
#include <QBuffer>

#include "core/io/file_io.h"
#include "ui/charts/view_panel.h"

#include <cmath>
#include <vector>

namespace ui::charts {

std::optional<int> parseLength(const QString& text, QString* error) {
    static const QRegularExpression pattern(R"(^\s*([0-9]+(?:\.[0-9]+)?)\s*(px|cm|mm|in)?\s*$)");
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch()) {
        if (error)
            *error = QCoreApplication::translate(
                         "ui::chart_export", "length %1: expected a number with px, cm, mm or in")
                         .arg(text);
        return std::nullopt;
    }
    const double value = match.captured(1).toDouble();
    const QString unit = match.captured(2);
    const double inches = unit == "cm" ? value / 2.54 : unit == "mm" ? value / 25.4 : unit == "in" ? value : value / 96.0;
    const double pixels = std::round(inches * 96.0);
    if (!(pixels >= 16 && pixels <= 16384)) {
        if (error)
            *error = QCoreApplication::translate(
                         "ui::chart_export",
                         "length %1: must lie between 16 and 16384 pixels (0.43 to 433 cm)")
                         .arg(text);
        return std::nullopt;
    }
    return static_cast<int>(pixels);
}

QString withImageExtension(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "png" || suffix == "svg" || suffix == "pdf") {
        return path;
    }
    return path + ".png";
}

namespace {

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
// figure only; restores what was visible.
class FigureOnly {
public:
    explicit FigureOnly(QWidget* widget) {
        auto* panel = qobject_cast<ViewPanel*>(widget);
        if (panel == nullptr) return;
        for (const QPointer<QWidget>& control : panel->controls()) {
            if (control != nullptr && !control->isHidden()) m_hidden.push_back(control);
        }
        if (!panel->messageLabel()->isHidden()) m_hidden.emplace_back(panel->messageLabel());
        for (const QPointer<QWidget>& w : m_hidden) w->hide();
    }
    ~FigureOnly() {
        for (const QPointer<QWidget>& w : m_hidden) {
            if (w != nullptr) w->show();
        }
    }

private:
    std::vector<QPointer<QWidget>> m_hidden;
};

// Whole or not at all: a full disk or a device path leaves any previous file as it was.
QString saveBytes(const QString& path, const QByteArray& bytes) {
    const core::Status status = core::io::writeFileAtomically(
        path.toStdString(), std::string(bytes.constData(), static_cast<size_t>(bytes.size())));
    return status ? QString() : QString::fromStdString(status.error().toString());
}

}  // namespace

struct FigureRenderer::State {
    State(QWidget* w, QSize s) : widget(w), size(s), figure(w), guard(w, s) {}
    QWidget* widget;
    QSize size;
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
    m_state->widget->render(&painter);
    return image;
}

QString exportWidget(QWidget* widget, const QString& requestedPath, const ExportOptions& options) {
    if (widget == nullptr) {
        return QCoreApplication::translate("ui::chart_export", "nothing to export");
    }
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
    if (!(options.fontScale >= 0.5 && options.fontScale <= 4.0)) {
        return QCoreApplication::translate("ui::chart_export",
                                           "export font scale %1: must lie between 0.5 and 4")
            .arg(options.fontScale);
    }
    const QString path = withImageExtension(requestedPath);
    const QString suffix = QFileInfo(path).suffix().toLower();
    FigureOnly figure(widget);
    // Laid out smaller and drawn scaled up: text and lines grow, the figure keeps its size.
    const double scale = options.fontScale;
    SizeGuard guard(widget, QSize(static_cast<int>(std::lround(options.size.width() / scale)),
                                  static_cast<int>(std::lround(options.size.height() / scale))));
    auto renderScaled = [widget, scale](QPainter& painter) {
        painter.scale(scale, scale);
        widget->render(&painter);
    };
    QByteArray bytes;
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
        QPainter painter(&generator);
        painter.fillRect(QRect(QPoint(0, 0), options.size), Qt::white);
        renderScaled(painter);
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
    return saveBytes(path, bytes);
}

}  // namespace ui::charts
