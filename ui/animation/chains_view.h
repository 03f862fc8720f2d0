// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "core/project/categorical_runs.h"
#include "ui/charts/view_panel.h"

class QCheckBox;

// The "Trajectories" view of the categorical explorer: K horizontal lanes,
// one dot per chain moving between lanes step by step, and beside them the exact marginal as
// an outlined bar with the chains' histogram filled over it. It replays recorded frames: the
// position may be fractional (dots glide between lanes), and scrubbing never recomputes.
namespace ui::animation {

enum class Direction { Forward, Reverse };

class ChainCanvas;

class ChainsView : public charts::ViewPanel {
    Q_OBJECT
public:
    explicit ChainsView(QWidget* parent = nullptr);

    void setChains(std::shared_ptr<const core::project::CategoricalChains> chains, int numClasses);
    void setDirection(Direction direction);
    // Animation position in steps, 0..M: forward shows node ⌊p⌋ → ⌊p⌋+1, reverse node M − p.
    void setPosition(double position);

    // Digit tiles this many times larger (fewer of them): presentation mode's 1.6.
    void setTileScale(double scale);
    // How many samples the image grid shows now.
    int tilesShown() const;

    // A figure's title names the time shown but not the player's step count.
    void setFigureMode(bool figure) override;
    // "images" while sequences of several positions are drawn as image tiles.
    QString explanationVariant() const override;

    // Decoding (a mask state, D > 1, reverse): each decoded position coloured by the step that
    // committed it (dark: early) instead of by its value. The check box above the tiles.
    void setColourByCommit(bool on);
    bool colourByCommit() const;
    // The step of the replay (1 = the first step taken) from which position d of chain b has
    // stayed unmasked up to the frame shown; 0 while it is masked or the replay is forward.
    int commitStep(int chain, int position) const;

    Direction direction() const { return m_direction; }
    double position() const { return m_position; }
    int numSteps() const;
    // The frame (index into the trajectory) shown at the current position, and the chains'
    // histogram at a frame.
    int currentFrame() const;
    std::vector<double> histogram(int frame) const;

private:
    void updateData();

    std::shared_ptr<const core::project::CategoricalChains> m_chains;
    int m_numClasses = 0;
    int m_maskClass = -1;  // the mask state's class (drawn apart in the images), or −1
    Direction m_direction = Direction::Reverse;
    double m_position = 0.0;
    double m_tileScale = 1.0;
    bool m_figure = false;
    ChainCanvas* m_canvas;
    QCheckBox* m_byCommit;
    friend class ChainCanvas;
};

}  // namespace ui::animation
