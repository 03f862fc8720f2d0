// SPDX-License-Identifier: MIT
#include "ui/charts/chart_export.h"

#include <QFileInfo>
#include <QImage>
#include <QLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>
#include <QBuffer>

#include "core/io/file_io.h"

namespace ui::charts {

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

// Whole or not at all: a full disk or a device path leaves any previous file as it was.
QString saveBytes(const QString& path, const QByteArray& bytes) {
    const core::Status status = core::io::writeFileAtomically(
        path.toStdString(), std::string(bytes.constData(), static_cast<size_t>(bytes.size())));
    return status ? QString() : QString::fromStdString(status.error().toString());
}

}  // namespace

QString exportWidget(QWidget* widget, const QString& requestedPath, const ExportOptions& options) {
    if (widget == nullptr) {
        return "nothing to export";
    }
    if (options.size.width() < 16 || options.size.height() < 16 || options.size.width() > 16384 ||
        options.size.height() > 16384) {
        return QString("export size %1x%2: must lie between 16 and 16384 pixels")
            .arg(options.size.width())
            .arg(options.size.height());
    }
    if (options.dpi < 24 || options.dpi > 1200) {
        return QString("export DPI %1: must lie between 24 and 1200").arg(options.dpi);
    }
    const QString path = withImageExtension(requestedPath);
    const QString suffix = QFileInfo(path).suffix().toLower();
    SizeGuard guard(widget, options.size);
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
            widget->render(&painter);
        }
        if (!image.save(&buffer, "PNG")) {
            return path + ": encoding the PNG failed";
        }
    } else if (suffix == "svg") {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(options.size);
        generator.setViewBox(QRect(QPoint(0, 0), options.size));
        generator.setTitle(widget->windowTitle());
        generator.setDescription("Exported by Diffuscope");
        QPainter painter(&generator);
        painter.fillRect(QRect(QPoint(0, 0), options.size), Qt::white);
        widget->render(&painter);
    } else {
        QPdfWriter writer(&buffer);
        writer.setCreator("Diffuscope");
        writer.setResolution(96);
        writer.setPageSize(QPageSize(QSizeF(options.size), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter painter(&writer);
        // The page is in points (1/72 in) and the writer draws at 96 dpi: scale to fill it.
        const QRect page = painter.viewport();
        painter.scale(static_cast<double>(page.width()) / options.size.width(),
                      static_cast<double>(page.height()) / options.size.height());
        widget->render(&painter);
    }
    buffer.close();
    return saveBytes(path, bytes);
}

}  // namespace ui::charts
