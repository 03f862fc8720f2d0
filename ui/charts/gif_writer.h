// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QString>
#include <vector>

// Animated GIF export with Debian's giflib (the Trajectories animation as an animated
// GIF). The palette is the first frame's 4 most frequent colours, kept exactly (the background
// and the lanes' shading), and a 6×7×6 RGB cube for every other colour (a channel moves by at
// most 26): the cube alone turned the lanes' near-white shading into white.
namespace ui::charts {

class GifWriter {
public:
    // delayCs: the time each frame is shown, in hundredths of a second (giflib's unit).
    explicit GifWriter(int delayCs = 4) : m_delayCs(delayCs) {}

    // Adds a frame shown for delayCs hundredths of a second (< 0: the writer's delay); every
    // frame must have the first frame's size (others are scaled to it).
    void addFrame(const QImage& frame, int delayCs = -1);
    int frameCount() const { return static_cast<int>(m_frames.size()); }

    // Encodes all frames looping forever and writes the file atomically; returns an empty
    // string or the reason it failed.
    QString save(const QString& path) const;

private:
    int indexOf(QRgb colour) const;

    int m_delayCs;
    std::vector<QRgb> m_exact;  // the palette's exact colours, its first entries
    QSize m_size;
    std::vector<std::vector<unsigned char>> m_frames;  // palette indices, row-major
    std::vector<int> m_delays;                         // per frame, 1/100 s
};

// The index of an RGB colour in the writer's cube, after `offset` exact colours.
int gifPaletteIndex(QRgb color, int offset = 0);

}  // namespace ui::charts
