// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QRectF>
#include <QTimer>
#include <memory>

#include "ui/charts/view_panel.h"
#include "ui/jobs/particle_jobs.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QToolButton;

// The Particles view of the Gaussian explorer: two panes side by side (sampler A |
// sampler B, B hidden when the document's compareSampler is "none"). Each shows the particles
// of one frame over the data density: first the forward process x_0 → x_{τ_K}, then reverse
// sampling from the same x_{τ_K} for both samplers back to x_0. Image data (d a square) are
// drawn as a grid of the first samples. Frames are precomputed; the slider never recomputes.
namespace ui::views {

class ParticleCanvas;

class ParticlesView : public charts::ViewPanel {
    Q_OBJECT
public:
    explicit ParticlesView(QWidget* parent = nullptr);

    void setFrames(std::shared_ptr<const jobs::ParticleFrames> frames);
    void clear(const QString& reason);
    std::shared_ptr<const jobs::ParticleFrames> frames() const { return m_frames; }

    // Forward frames 0..K, then reverse frames K+1..2K+1.
    int frameCount() const;
    int frame() const { return m_frame; }
    void setFrame(int frame);
    // "forward n = …" or "reverse n = …" for the current frame.
    QString frameLabel() const;
    // The d×B particles of pane 0 (A) or 1 (B) at `frame`; nullptr when absent.
    const core::Matrix* particles(int pane, int frame) const;
    bool comparing() const;
    bool showsImages() const;
    QString explanationVariant() const override { return showsImages() ? "images" : QString(); }
    // Zoom, pan and readout of the scatter panes (positions in the canvas's pixels).
    QWidget* canvas() const;
    void zoomAbout(const QPointF& at, double factor);
    void panBy(const QPointF& pixels);
    void resetZoom();
    // Zoomed by `zoom` (≥ 1) about the data's point `centre`.
    void setZoom(double zoom, const QPointF& centre = {});
    // The axes fitted to the data's points (with a margin), about the origin.
    void fitToData();
    QRectF visibleWindow() const;  // data coordinates, y up
    QString readoutAt(const QPointF& at) const;

    // Digit tiles this many times larger (fewer of them): presentation mode's 1.6.
    void setTileScale(double scale);
    int tilesShown() const;

    void setPlaying(bool playing);
    bool isPlaying() const { return m_timer.isActive(); }
    // Playback as in the categorical player: one frame back or on, a speed (1 = a loop of all
    // frames in about 6 s) and whether play starts again after the last frame or stops there.
    void stepBy(int frames);
    void setSpeed(double speed);
    double speed() const;
    void setLooping(bool loop);

private:
    void updateControls();

    std::shared_ptr<const jobs::ParticleFrames> m_frames;
    QImage m_density;  // grey, built once per result
    int m_frame = 0;
    double m_tileScale = 1.0;
    ParticleCanvas* m_canvas;
    QPushButton* m_play;
    QToolButton* m_back;
    QToolButton* m_forward;
    QComboBox* m_speed;
    QCheckBox* m_loop;
    QSlider* m_slider;
    QLabel* m_label;
    QTimer m_timer;
    friend class ParticleCanvas;
};

}  // namespace ui::views
