// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>

#include <vector>

#include "core/util/eigen_types.h"
#include "ui/charts/view_panel.h"

// The Trajectory view of the Gaussian explorer (issue 6, view 4, first part): the DP-chosen
// timesteps against the even and quadratic ones as rows of ticks over 1..N, and the DP's cost
// matrix J(s, t) as a heatmap (log colour scale) with the chosen path drawn on it.
namespace ui::views {

class TrajectoryCanvas;

class GaussianTrajectoryView : public charts::ViewPanel {
    Q_OBJECT
public:
    explicit GaussianTrajectoryView(QWidget* parent = nullptr);

    struct Rows {
        std::vector<int> dp;         // the trajectory in use when it is the DP one
        std::vector<int> even;
        std::vector<int> quadratic;
        double costDp = 0.0;         // Σ J along each path
        double costEven = 0.0;
        double costQuadratic = 0.0;
    };
    // cost: the N×N matrix of core::gaussian::dpCostMatrix (node n − 1 = timestep n).
    void setTrajectories(const core::Matrix& cost, const Rows& rows);

private:
    friend class TrajectoryCanvas;
    TrajectoryCanvas* m_canvas;
    QImage m_heatmap;  // N×N downsampled to at most 512×512, upper triangle
    int m_numSteps = 0;
    Rows m_rows;
};

}  // namespace ui::views
