// SPDX-License-Identifier: MIT
#pragma once

#include <QSize>
#include <QString>
#include <functional>

#include "core/util/limits.h"

class QWidget;

namespace ui::views {
class ParticlesView;
}

// Exports an animated view for slides: an animated GIF, or a numbered PNG sequence
// (prefix_0000.png, …) for video tools. The Trajectories chains and the Particles view are
// animated; each export replays the view's precomputed frames as a figure (no buttons or
// sliders) and restores the view's position afterwards.
namespace ui::animation {

class ChainsView;

// What the exporter needs of an animated view.
struct AnimationSource {
    QWidget* widget = nullptr;  // rendered as a figure
    int steps = 0;              // positions 0..steps; 0: nothing to animate yet
    bool glides = false;        // fractional positions draw in-between frames (the dots glide)
    std::function<double()> position;
    std::function<void(double)> setPosition;
};
AnimationSource chainsAnimation(ChainsView* view);
AnimationSource particlesAnimation(views::ParticlesView* view);

inline constexpr int kMaxAnimationFrames = 5000;
// frames × pixels, one byte each: the one table's image limit (core/util/limits.h)
inline constexpr double kMaxAnimationBytes = core::limits::kMaxImageBytes;

struct AnimationExportOptions {
    QSize size{900, 560};   // pixels
    int framesPerStep = 4;  // frames per position step when the view glides (1..30), else 1
    int fps = 25;           // frames per second (1..50)
    int holdLastMs = 1500;  // the last frame stays this long before the loop restarts (0..20000)
};

// The export's frames and duration, for the dialog's preview and the tests.
struct AnimationLength {
    int frames = 0;        // distinct frames rendered
    int heldFrames = 0;    // copies of the last frame a PNG sequence adds for the hold
    double seconds = 0.0;  // the GIF's (and the sequence's at fps) play time, hold included
    int delayCs = 4;       // the GIF's frame time, 1/100 s
};
AnimationLength animationLength(const AnimationSource& source,
                                const AnimationExportOptions& options);

// The options' first problem, naming the field and the value; empty when they are usable.
QString checkAnimationOptions(const AnimationSource& source, const AnimationExportOptions& options);

// Called after each frame with (done, total); returning false cancels the export.
using AnimationProgress = std::function<bool(int done, int total)>;

// The format an animation is written in by the extension of `path` (any case): "gif", or "png"
// for a sequence of PNG frames (`path` less ".png" is their prefix); empty for any other name.
QString animationFormat(const QString& path);
// The file of frame `index` of the sequence `prefix`: prefix_0000.png, prefix_0001.png, …
QString animationFrameName(const QString& prefix, int index);

// Return an empty string or the reason it failed (a cancel says "cancelled"). The GIF (a path
// ending in .gif; any other is refused) is written atomically. A PNG sequence replaces the
// previous sequence of that prefix as a whole: its frames are written into a staging folder
// first and moved into place only when all are ready, and the previous sequence's frames past
// the new one's end are removed then; a failure or a cancel leaves the previous sequence as it
// was (core::io::StagedFiles).
QString exportAnimationGif(const AnimationSource& source,
                           const QString& path,
                           const AnimationExportOptions& options = {},
                           const AnimationProgress& progress = {});
QString exportAnimationFrames(const AnimationSource& source,
                              const QString& prefix,
                              const AnimationExportOptions& options = {},
                              const AnimationProgress& progress = {});

}  // namespace ui::animation
