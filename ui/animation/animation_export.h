// SPDX-License-Identifier: MIT
#pragma once

#include <QSize>
#include <QString>

// Exports the Trajectories animation: an animated GIF, or a numbered PNG sequence
// (prefix_0000.png, …) for video tools. Both replay the recorded frames of a ChainsView and
// restore its position afterwards.
namespace ui::animation {

class ChainsView;

struct AnimationExportOptions {
    QSize size{900, 560};   // pixels
    int framesPerStep = 4;  // in-between frames per trajectory step (the dots glide)
    int delayCs = 4;        // GIF frame time in 1/100 s (25 fps)
};

// Returns an empty string or the reason it failed.
QString exportAnimationGif(ChainsView* view, const QString& path,
                           const AnimationExportOptions& options = {});
// Writes `prefix`_NNNN.png files; returns an empty string or the reason it failed.
QString exportAnimationFrames(ChainsView* view, const QString& prefix,
                              const AnimationExportOptions& options = {});

}  // namespace ui::animation
