// SPDX-License-Identifier: MIT
#include "ui/charts/gif_writer.h"

#include <gif_lib.h>

#include <QCoreApplication>
#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "core/io/file_io.h"

namespace ui::charts {
namespace {

constexpr int kLevelsR = 6;
constexpr int kLevelsG = 7;
constexpr int kLevelsB = 6;
constexpr int kPaletteSize = 256;  // GIF colour tables are powers of two
constexpr int kExact = kPaletteSize - kLevelsR * kLevelsG * kLevelsB;  // 4

int level(int value, int levels) { return (value * (levels - 1) + 127) / 255; }

int writeToBuffer(GifFileType* gif, const GifByteType* data, int length) {
    auto* buffer = static_cast<QByteArray*>(gif->UserData);
    buffer->append(reinterpret_cast<const char*>(data), length);
    return length;
}

}  // namespace

int gifPaletteIndex(QRgb color, int offset) {
    return offset +
           (level(qRed(color), kLevelsR) * kLevelsG + level(qGreen(color), kLevelsG)) * kLevelsB +
           level(qBlue(color), kLevelsB);
}

int GifWriter::indexOf(QRgb colour) const {
    const QRgb rgb = colour & 0xffffffu;
    for (size_t i = 0; i < m_exact.size(); ++i) {
        if ((m_exact[i] & 0xffffffu) == rgb) return static_cast<int>(i);
    }
    return gifPaletteIndex(colour, kExact);
}

void GifWriter::addFrame(const QImage& input, int delayCs) {
    if (m_frames.empty()) {
        m_size = input.size();
    }
    const QImage frame = (input.size() == m_size ? input : input.scaled(m_size))
                             .convertToFormat(QImage::Format_RGB32);
    if (m_frames.empty()) {
        // The first frame's most frequent colours, exactly.
        std::unordered_map<QRgb, long long> counts;
        for (int y = 0; y < m_size.height(); ++y) {
            const auto* line = reinterpret_cast<const QRgb*>(frame.constScanLine(y));
            for (int x = 0; x < m_size.width(); ++x) ++counts[line[x] & 0xffffffu];
        }
        std::vector<std::pair<long long, QRgb>> ranked;
        ranked.reserve(counts.size());
        for (const auto& [colour, count] : counts) ranked.emplace_back(count, colour);
        std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;  // deterministic
        });
        m_exact.clear();
        for (size_t i = 0; i < ranked.size() && m_exact.size() < static_cast<size_t>(kExact); ++i) {
            m_exact.push_back(ranked[i].second);
        }
    }
    // One look-up per distinct colour of the frame, not per pixel.
    std::unordered_map<QRgb, unsigned char> cache;
    std::vector<unsigned char> indices(static_cast<size_t>(m_size.width()) * m_size.height());
    for (int y = 0; y < m_size.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(frame.constScanLine(y));
        for (int x = 0; x < m_size.width(); ++x) {
            auto [it, inserted] = cache.try_emplace(line[x], 0);
            if (inserted) it->second = static_cast<unsigned char>(indexOf(line[x]));
            indices[static_cast<size_t>(y) * m_size.width() + x] = it->second;
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
    for (int i = 0; i < kExact; ++i) {
        const QRgb colour = i < static_cast<int>(m_exact.size()) ? m_exact[static_cast<size_t>(i)]
                                                                 : qRgb(255, 255, 255);
        palette->Colors[i] = {static_cast<GifByteType>(qRed(colour)),
                              static_cast<GifByteType>(qGreen(colour)),
                              static_cast<GifByteType>(qBlue(colour))};
    }
    for (int r = 0; r < kLevelsR; ++r) {
        for (int g = 0; g < kLevelsG; ++g) {
            for (int b = 0; b < kLevelsB; ++b) {
                GifColorType& c = palette->Colors[kExact + (r * kLevelsG + g) * kLevelsB + b];
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
        ok = ok &&
             EGifPutImageDesc(gif, 0, 0, m_size.width(), m_size.height(), false, nullptr) == GIF_OK;
        for (int y = 0; ok && y < m_size.height(); ++y) {
            ok = EGifPutLine(gif,
                             const_cast<GifPixelType*>(frame.data() +
                                                       static_cast<size_t>(y) * m_size.width()),
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
