// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QString>

#include <vector>

// Animated GIF export with Debian's giflib (the Trajectories animation as an animated
// GIF). Frames are mapped to a fixed 252-colour palette (a 6×7×6 RGB cube), which keeps
// chart colours recognisable and costs one table look-up per pixel.
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
    int m_delayCs;
    QSize m_size;
    std::vector<std::vector<unsigned char>> m_frames;  // palette indices, row-major
    std::vector<int> m_delays;                         // per frame, 1/100 s
};

// The palette index of an RGB colour in the writer's fixed palette.
int gifPaletteIndex(QRgb color);

}  // namespace ui::charts
