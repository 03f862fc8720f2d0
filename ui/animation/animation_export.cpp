// SPDX-License-Identifier: MIT
#include "ui/animation/animation_export.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QRegularExpression>
#include <cmath>

#include "core/io/file_io.h"
#include "core/io/staged_files.h"
#include "core/util/limits.h"
#include "ui/animation/chains_view.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/gif_writer.h"
#include "ui/views/particles_view.h"

namespace ui::animation {
namespace {

int framesPerStep(const AnimationSource& source, const AnimationExportOptions& options) {
    return source.glides ? options.framesPerStep : 1;
}

// Renders every frame and hands it to `sink` (image, index, is the last); stops at the first
// error or when `progress` cancels, and restores the view's position.
QString forEachFrame(const AnimationSource& source,
                     const AnimationExportOptions& options,
                     const AnimationProgress& progress,
                     const std::function<QString(const QImage&, int, bool)>& sink) {
    if (const QString problem = checkAnimationOptions(source, options); !problem.isEmpty()) {
        return problem;
    }
    const int perStep = framesPerStep(source, options);
    const int total = animationLength(source, options).frames;
    const double oldPosition = source.position();
    QString error;
    {
        charts::FigureRenderer renderer(source.widget, options.size);
        for (int i = 0; i < total && error.isEmpty(); ++i) {
            source.setPosition(static_cast<double>(i) / perStep);
            error = sink(renderer.render(), i, i + 1 == total);
            if (error.isEmpty() && progress && !progress(i + 1, total)) error = "cancelled";
        }
    }
    source.setPosition(oldPosition);
    return error;
}

// The frame's PNG bytes; empty when encoding failed.
std::string encodePng(const QImage& image) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) return {};
    return std::string(bytes.constData(), static_cast<size_t>(bytes.size()));
}

}  // namespace

AnimationSource chainsAnimation(ChainsView* view) {
    AnimationSource source;
    if (view == nullptr) return source;
    source.widget = view;
    source.steps = view->numSteps();
    source.glides = true;
    source.position = [view] { return view->position(); };
    source.setPosition = [view](double p) { view->setPosition(p); };
    return source;
}

AnimationSource particlesAnimation(views::ParticlesView* view) {
    AnimationSource source;
    if (view == nullptr) return source;
    source.widget = view;
    source.steps = std::max(0, view->frameCount() - 1);
    source.glides = false;  // the frames are the sampler's steps; nothing lies between them
    source.position = [view] { return static_cast<double>(view->frame()); };
    source.setPosition = [view](double p) { view->setFrame(static_cast<int>(std::lround(p))); };
    return source;
}

AnimationLength animationLength(const AnimationSource& source,
                                const AnimationExportOptions& options) {
    AnimationLength length;
    if (source.steps <= 0 || options.fps < 1) return length;
    length.frames = source.steps * framesPerStep(source, options) + 1;
    // GIF frame times are whole hundredths of a second.
    length.delayCs = std::max(1, static_cast<int>(std::lround(100.0 / options.fps)));
    length.heldFrames = static_cast<int>(std::lround(options.holdLastMs * options.fps / 1000.0));
    length.seconds =
        (length.frames * length.delayCs + std::lround(options.holdLastMs / 10.0)) / 100.0;
    return length;
}

QString checkAnimationOptions(const AnimationSource& source,
                              const AnimationExportOptions& options) {
    if (source.widget == nullptr || source.steps <= 0) {
        return QCoreApplication::translate("ui::animation", "the animation has no frames yet");
    }
    const QSize s = options.size;
    if (s.width() < 16 || s.height() < 16 || s.width() > 4096 || s.height() > 4096) {
        return QCoreApplication::translate(
                   "ui::animation", "animation size %1x%2: must lie between 16 and 4096 pixels")
            .arg(s.width())
            .arg(s.height());
    }
    if (options.framesPerStep < 1 || options.framesPerStep > 30) {
        return QCoreApplication::translate("ui::animation", "frames per step %1: must lie in 1..30")
            .arg(options.framesPerStep);
    }
    if (options.fps < 1 || options.fps > 50) {
        return QCoreApplication::translate("ui::animation",
                                           "frame rate %1: must lie in 1..50 frames per second")
            .arg(options.fps);
    }
    if (options.holdLastMs < 0 || options.holdLastMs > 20000) {
        return QCoreApplication::translate("ui::animation",
                                           "hold on the last frame %1 ms: must lie in 0..20000")
            .arg(options.holdLastMs);
    }
    const AnimationLength length = animationLength(source, options);
    // The GIF writer keeps every frame, one byte a pixel, until it encodes them.
    const double bytes = static_cast<double>(length.frames) * s.width() * s.height();
    if (bytes > kMaxAnimationBytes) {
        return QCoreApplication::translate("ui::animation",
                                           "%1 frames of %2x%3 pixels: the GIF writer holds "
                                           "%1·%2·%3·1 bytes = %4, over the 1 GiB an animation "
                                           "may hold (smaller or fewer frames)")
            .arg(length.frames)
            .arg(s.width())
            .arg(s.height())
            .arg(QString::fromStdString(core::limits::formatBytes(bytes)));
    }
    if (length.frames + length.heldFrames > kMaxAnimationFrames) {
        return QCoreApplication::translate(
                   "ui::animation",
                   "%1 frames: at most %2 (fewer frames per step or a shorter hold)")
            .arg(length.frames + length.heldFrames)
            .arg(kMaxAnimationFrames);
    }
    return {};
}

QString animationFormat(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == "gif" || suffix == "png" ? suffix : QString();
}

QString animationFrameName(const QString& prefix, int index) {
    return QString("%1_%2.png").arg(prefix).arg(index, 4, 10, QChar('0'));
}

QString exportAnimationGif(const AnimationSource& source,
                           const QString& path,
                           const AnimationExportOptions& options,
                           const AnimationProgress& progress) {
    if (animationFormat(path) != "gif") {
        return QCoreApplication::translate("ui::animation",
                                           "%1: an animated GIF is written as .gif")
            .arg(path);
    }
    const AnimationLength length = animationLength(source, options);
    charts::GifWriter writer(length.delayCs);
    const QString error =
        forEachFrame(source, options, progress, [&](const QImage& image, int, bool last) {
            const int hold = static_cast<int>(std::lround(options.holdLastMs / 10.0));
            writer.addFrame(image, last ? length.delayCs + hold : -1);
            return QString();
        });
    return error.isEmpty() ? writer.save(path) : error;
}

QString exportAnimationFrames(const AnimationSource& source,
                              const QString& prefix,
                              const AnimationExportOptions& options,
                              const AnimationProgress& progress) {
    const AnimationLength length = animationLength(source, options);
    const QFileInfo info(prefix);
    const QString base = info.fileName();
    if (base.isEmpty()) {
        return QCoreApplication::translate("ui::animation",
                                           "%1: a frame sequence needs a name before .png")
            .arg(prefix + ".png");
    }
    const QString folder = info.absolutePath();
    core::io::StagedFiles staged(folder.toStdString());
    const auto name = [&base](int index) { return animationFrameName(base, index).toStdString(); };
    int count = 0;
    const QString error =
        forEachFrame(source, options, progress, [&](const QImage& image, int index, bool last) {
            const std::string bytes = encodePng(image);
            if (bytes.empty()) {
                return QCoreApplication::translate("ui::animation",
                                                   "%1: encoding the PNG frame failed")
                    .arg(animationFrameName(prefix, index));
            }
            core::Status status = staged.write(name(index), bytes);
            // A video tool plays the sequence at fps: the hold is the last frame repeated.
            for (int h = 1; last && status && h <= length.heldFrames; ++h) {
                status = staged.write(name(index + h), bytes);
            }
            count = index + 1 + (last ? length.heldFrames : 0);
            return status ? QString() : QString::fromStdString(status.error().toString());
        });
    if (!error.isEmpty()) {
        return error;  // nothing moved: the staging folder goes with `staged`
    }
    // The previous sequence's frames past this one's end.
    static const QRegularExpression frameNumber(R"(^_([0-9]{4,})\.png$)");
    std::vector<std::string> stale;
    for (const QString& file :
         QDir(folder).entryList(QDir::Files | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot)) {
        if (!file.startsWith(base)) continue;
        const QRegularExpressionMatch m = frameNumber.match(file.mid(base.size()));
        if (m.hasMatch() && m.captured(1).toLongLong() >= count)
            stale.push_back(file.toStdString());
    }
    const core::Status committed = staged.commit(stale);
    return committed ? QString() : QString::fromStdString(committed.error().toString());
}

}  // namespace ui::animation
