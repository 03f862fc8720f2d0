// SPDX-License-Identifier: MIT
#include "ui/animation/animation_export.h"

#include <QCoreApplication>

#include <QBuffer>
#include <QImage>
#include <QPainter>

#include <functional>

#include "core/io/file_io.h"
#include "ui/animation/chains_view.h"
#include "ui/charts/gif_writer.h"

namespace ui::animation {
namespace {

// Renders every frame of the animation and hands it to `sink`; stops at the first error.
QString forEachFrame(ChainsView* view,
                     const AnimationExportOptions& options,
                     const std::function<QString(const QImage&, int)>& sink) {
    if (view == nullptr || view->numSteps() == 0) {
        return QCoreApplication::translate("ui::chart_export", "the animation has no frames yet");
    }
    if (options.framesPerStep < 1 || options.framesPerStep > 60) {
        return QCoreApplication::translate("ui::chart_export",
                                           "frames per step %1: must lie in 1..60")
            .arg(options.framesPerStep);
    }
    const QSize oldSize = view->size();
    const double oldPosition = view->position();
    view->resize(options.size);
    const int steps = view->numSteps();
    const int total = steps * options.framesPerStep + 1;
    QString error;
    for (int i = 0; i < total && error.isEmpty(); ++i) {
        view->setPosition(static_cast<double>(i) / options.framesPerStep);
        QImage image(options.size, QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        view->render(&painter);
        painter.end();
        error = sink(image, i);
    }
    view->setPosition(oldPosition);
    view->resize(oldSize);
    return error;
}

}  // namespace

QString exportAnimationGif(ChainsView* view, const QString& path,
                           const AnimationExportOptions& options) {
    charts::GifWriter writer(options.delayCs);
    const QString error = forEachFrame(view, options, [&](const QImage& image, int) {
        writer.addFrame(image);
        return QString();
    });
    return error.isEmpty() ? writer.save(path) : error;
}

QString exportAnimationFrames(ChainsView* view, const QString& prefix,
                              const AnimationExportOptions& options) {
    return forEachFrame(view, options, [&](const QImage& image, int index) {
        const QString path = QString("%1_%2.png").arg(prefix).arg(index, 4, 10, QChar('0'));
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (!image.save(&buffer, "PNG")) {
            return QCoreApplication::translate("ui::chart_export",
                                               "%1: encoding the PNG frame failed")
                .arg(path);
        }
        const core::Status status = core::io::writeFileAtomically(
            path.toStdString(), std::string(bytes.constData(), static_cast<size_t>(bytes.size())));
        return status ? QString() : QString::fromStdString(status.error().toString());
    });
}

}  // namespace ui::animation
