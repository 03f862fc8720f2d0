// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QImage>
#include <QRectF>
#include <QString>
#include <array>
#include <memory>
#include <vector>

#include "core/project/gaussian_runs.h"
#include "core/schedule/diffusers_config.h"
#include "core/util/eigen_types.h"
#include "ui/charts/view_panel.h"

class QAreaSeries;
class QChart;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QPushButton;
class QTableWidget;
class QValueAxis;

// The Trajectory view of the Gaussian explorer: the DP-chosen
// timesteps against the even and quadratic ones as rows of ticks over 1..N, and the DP's cost
// matrix J(s, t) as a heatmap (log colour scale) with the chosen path drawn on it; below them
// (view 4, second part) the negative ELBO in bits/dim against K for the even and DP trajectories
// and three reverse variances, computed on request by a job (the button emits nllRequested()).
namespace ui::charts {
class FigureChart;
}

namespace ui::views {

class TrajectoryCanvas;

// The NLL-against-K table of core::project::nllSweep: entries [kind][variance][K index], kind 0
// even, 1 DP; variance 0 analytic σ², 1 β̃ (small), 2 β (large).
struct NllCurves : core::project::NllSweep {
    double seconds = 0.0;  // how long the job took
    QString scored;        // the model scored and the Γ used ("the network x.safetensors, Γ …")
};

class GaussianTrajectoryView : public charts::ViewPanel {
    Q_OBJECT
public:
    explicit GaussianTrajectoryView(QWidget* parent = nullptr);

    struct Rows {
        std::vector<int> dp;  // the trajectory in use when it is the DP one
        std::vector<int> even;
        std::vector<int> quadratic;
        double costDp = 0.0;  // Σ J along each path
        double costEven = 0.0;
        double costQuadratic = 0.0;
        // The trajectory in use when it is none of the three above (a typed list or a
        // spacing family), with its label ("typed list", "trailing:10", …).
        std::vector<int> typed;
        double costTyped = 0.0;
        QString typedLabel = QT_TRANSLATE_NOOP("ui::views::GaussianTrajectoryView", "typed list");
        // The trajectory in use and its schedule, for "Copy for diffusers/k-diffusion".
        std::vector<int> inUse;
        core::schedule::PipelineClass inUseClass;  // its diffusers class (class=), if any
        std::shared_ptr<const core::schedule::GaussianSchedule> schedule;
    };
    // cost: the N×N matrix of core::gaussian::dpCostMatrix (node n − 1 = timestep n).
    // `cost` is shared, not copied: a copy of the 8 MB matrix at N = 1000 took 20–40 ms of the
    // GUI thread.
    void setTrajectories(std::shared_ptr<const core::Matrix> cost, const Rows& rows);

    // Shows the NLL-against-K curves (replacing older ones, clearing the stale mark).
    void setNllCurves(const NllCurves& curves);
    // The NLL against the number of steps has been computed (its chart is shown).
    bool hasNllCurves() const { return !m_nll.ks.empty(); }
    // Marks the curves as computed for other parameters (drawn faded) or current again.
    void setNllStale(bool stale);
    bool nllStale() const { return m_nllStale; }
    // While the job runs the button is disabled; `status` goes beside it.
    void setNllStatus(const QString& status, bool running);
    // The series of the NLL chart, for tests: six lines named "<kind>, <variance>".
    QList<QLineSeries*> nllSeries() const;
    QPushButton* nllButton() const { return m_nllButton; }
    // The listing: one row per trajectory drawn (label, K, ΣJ, its timesteps).
    QTableWidget* listing() const { return m_listing; }
    // What "Copy for diffusers" / "Copy for k-diffusion" put on the clipboard: the selected
    // listing row's trajectory (the one in use when none is selected) exactly as `diffuscope
    // timesteps --as diffusers|k-diffusion` prints it; empty before the first run.
    QString pipelineText(core::schedule::TimestepConvention convention) const;
    // The tooltip of the canvas at a position (tick rows: the nearest timestep; heatmap: the
    // cell's s, t and J); empty elsewhere. Public for tests.
    QString canvasTooltip(const QPoint& position) const;
    QWidget* canvas() const;

    // The rows drawn, in order, with their colours (empty rows left out).
    struct TickRow {
        QString label;
        const std::vector<int>* steps;
        double cost;
        QColor colour;
    };
    std::vector<TickRow> tickRows() const;
    // The geometry the canvas paints with, shared by painting and hovering.
    struct CanvasLayout {
        double left = 60.0, right = 0.0, rowsTop = 14.0, rowHeight = 24.0;  // left: from the labels
        QRectF map;                                                         // the heatmap
    };
    CanvasLayout canvasLayout(QSize size) const;

signals:
    // The user asked for the NLL-against-K curves.
    void nllRequested();
    // "Use as typed list" on a listed trajectory: its timesteps, "1, 12, …".
    void useAsTypedList(const QString& timesteps);

private:
    friend class TrajectoryCanvas;
    void updateData();
    void updateListing();
    QWidget* createListing();
    void fitListingHeight();
    void useLogBits(bool log);

    TrajectoryCanvas* m_canvas;
    QPushButton* m_nllButton;
    QLabel* m_nllStatus;
    QChart* m_nllChart;
    charts::FigureChart* m_nllFigure = nullptr;  // m_nllChart with its title and legend
    QLogValueAxis* m_axisK;
    QValueAxis* m_axisBits;
    QLogValueAxis* m_axisBitsLog;  // used when the values span more than a decade (β̃ at small K)
    std::array<std::array<QLineSeries*, 3>, 2> m_nllLines{};
    std::array<std::array<QAreaSeries*, 3>, 2> m_nllBands{};
    NllCurves m_nll;
    bool m_nllStale = false;
    QTableWidget* m_listing;
    QImage m_heatmap;  // N×N downsampled to at most 512×512, upper triangle
    std::shared_ptr<const core::Matrix> m_cost;  // J(s, t), for the heatmap's hover readout
    double m_logLow = 0.0, m_logHigh = 0.0;      // log10 J at the colour map's ends
    int m_numSteps = 0;
    Rows m_rows;
};

}  // namespace ui::views
