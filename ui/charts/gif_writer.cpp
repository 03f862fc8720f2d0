// SPDX-License-Identifier: MIT
#include "ui/charts/gif_writer.h"

#include <QCoreApplication>

#include <gif_lib.h>

#include <algorithm>
#include <cstring>

#include "core/io/file_io.h"

namespace ui::charts {
namespace {

constexpr int kLevelsR = 6;
constexpr int kLevelsG = 7;
constexpr int kLevelsB = 6;
constexpr int kPaletteSize = 256;  // 252 used; GIF colour tables are powers of two

int level(int value, int levels) { return (value * (levels - 1) + 127) / 255; }

int writeToBuffer(GifFileType* gif, const GifByteType* data, int length) {
    auto* buffer = static_cast<QByteArray*>(gif->UserData);
    buffer->append(reinterpret_cast<const char*>(data), length);
    return length;
}

}  // namespace

int gifPaletteIndex(QRgb color) {
    return (level(qRed(color), kLevelsR) * kLevelsG + level(qGreen(color), kLevelsG)) * kLevelsB +
           level(qBlue(color), kLevelsB);
}

void GifWriter::addFrame(const QImage& input, int delayCs) {
    if (m_frames.empty()) {
        m_size = input.size();
    }
    const QImage frame = (input.size() == m_size ? input : input.scaled(m_size))
                             .convertToFormat(QImage::Format_RGB32);
    std::vector<unsigned char> indices(static_cast<size_t>(m_size.width()) * m_size.height());
    for (int y = 0; y < m_size.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(frame.constScanLine(y));
        for (int x = 0; x < m_size.width(); ++x) {
            indices[static_cast<size_t>(y) * m_size.width() + x] =
                static_cast<unsigned char>(gifPaletteIndex(line[x]));
        }
    }
    m_frames.push_back(std::move(indices));
    m_delays.push_back(std::clamp(delayCs < 0 ? m_delayCs : delayCs, 0, 65535));  // a uint16
}

QString GifWriter::save(const QString& path) const {
    if (m_frames.empty()) {
        return QCoreApplication::translate("ui::chart_export", "no frames to write");
    }
    QByteArray bytes;
    int error = 0;
    GifFileType* gif = EGifOpen(&bytes, writeToBuffer, &error);
    if (gif == nullptr) {
        return QCoreApplication::translate("ui::chart_export", "GIF encoder: %1")
            .arg(GifErrorString(error));
    }
    ColorMapObject* palette = GifMakeMapObject(kPaletteSize, nullptr);
    for (int r = 0; r < kLevelsR; ++r) {
        for (int g = 0; g < kLevelsG; ++g) {
            for (int b = 0; b < kLevelsB; ++b) {
                GifColorType& c = palette->Colors[(r * kLevelsG + g) * kLevelsB + b];
                c.Red = static_cast<GifByteType>(r * 255 / (kLevelsR - 1));
                c.Green = static_cast<GifByteType>(g * 255 / (kLevelsG - 1));
                c.Blue = static_cast<GifByteType>(b * 255 / (kLevelsB - 1));
            }
        }
    }
    EGifSetGifVersion(gif, true);
    bool ok = EGifPutScreenDesc(gif, m_size.width(), m_size.height(), 8, 0, palette) == GIF_OK;
    // NETSCAPE2.0 application extension: loop forever.
    const unsigned char loop[] = {1, 0, 0};
    ok = ok && EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_OK &&
         EGifPutExtensionBlock(gif, 3, loop) == GIF_OK && EGifPutExtensionTrailer(gif) == GIF_OK;
    for (size_t f = 0; f < m_frames.size(); ++f) {
        const auto& frame = m_frames[f];
        GraphicsControlBlock control{};
        control.DisposalMode = DISPOSE_DO_NOT;
        control.DelayTime = m_delays[f];
        control.TransparentColor = NO_TRANSPARENT_COLOR;
        GifByteType extension[4];
        const size_t length = EGifGCBToExtension(&control, extension);
        ok = ok && EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length),
                                    extension) == GIF_OK;
        ok = ok && EGifPutImageDesc(gif, 0, 0, m_size.width(), m_size.height(), false, nullptr) ==
                       GIF_OK;
        for (int y = 0; ok && y < m_size.height(); ++y) {
            ok = EGifPutLine(gif, const_cast<GifPixelType*>(frame.data() + static_cast<size_t>(y) *
                                                                             m_size.width()),
                             m_size.width()) == GIF_OK;
        }
    }
    const int lastError = gif->Error;
    if (EGifCloseFile(gif, &error) != GIF_OK) {
        ok = false;
    }
    GifFreeMapObject(palette);
    if (!ok) {
        return QCoreApplication::translate("ui::chart_export", "GIF encoder: %1")
            .arg(GifErrorString(lastError != 0 ? lastError : error));
    }
    const core::Status status = core::io::writeFileAtomically(
        path.toStdString(), std::string(bytes.constData(), static_cast<size_t>(bytes.size())));
    if (!status) {
        return QString::fromStdString(status.error().toString());
    }
    return {};
}

}  // namespace ui::charts
