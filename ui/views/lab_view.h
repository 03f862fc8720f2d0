// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <memory>

#include "core/project/lab.h"
#include "core/schedule/diffusers_config.h"
#include "ui/charts/view_panel.h"
#include "ui/document/project_document.h"

class QChart;
class QChartView;
class QComboBox;
class QGridLayout;
class QLabel;
class QResizeEvent;
class QScrollArea;
class QProgressBar;
class QPushButton;

namespace ui::charts {
class FigureChart;
}

namespace ui::panels {
class LabConfigTable;
}

// The Lab view of the Gaussian explorer (docs/gaussian.md, "Schedule lab"): the configurations'
// editor on the left, and four charts of the last run on the right, each configuration in its
// colour and the DP optimum in black dashes: (1) the timesteps of one K on one axis (n, log-SNR
// or σ), one row per configuration; (2) the per-step costs of that K; (3) the negative ELBO
// against K; (4) the sample quality against K; (5) the steps in log σ against the step index,
// or the ratio of consecutive steps. Runs are requested (runRequested) and shown by
// the explorer's job; results stay until the next run, and edits only mark them stale.
namespace ui::views {

class LabView : public charts::ViewPanel {
    Q_OBJECT
public:
    explicit LabView(document::ProjectDocument* document, QWidget* parent = nullptr);

    // Shows a finished run (replacing the previous one, clearing the stale mark).
    void setResult(std::shared_ptr<const core::project::LabResult> result);
    const std::shared_ptr<const core::project::LabResult>& result() const { return m_result; }
    // Marks the charts as computed for other settings (faded, with a note) or current again.
    void setStale(bool stale);
    // No run to show (a new project): the charts empty, the status says so.
    void clearResult();
    bool isStale() const { return m_stale; }
    // While a run is going: Run disabled, Cancel enabled, the progress shown.
    void setRunning(bool running);
    void setProgress(int permille, const QString& stage);
    void setStatus(const QString& status);

    // The charts: 0 timesteps, 1 per-step costs, 2 NLL against K, 3 quality against K, 4 the
    // steps in log σ (or their ratios) against the step index.
    QChart* chart(int index) const { return m_charts[static_cast<size_t>(index)]; }
    panels::LabConfigTable* configTable() const { return m_table; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QComboBox* kSelector() const { return m_k; }
    QComboBox* axisSelector() const { return m_axis; }
    QComboBox* stepAxisSelector() const { return m_stepAxis; }
    QComboBox* sigmaStepSelector() const { return m_sigmaStep; }
    QLabel* captionLabel() const { return m_caption; }

    // What "Copy for diffusers" / "Copy for k-diffusion" put on the clipboard: the timesteps of
    // the configuration selected in the table (the first when none is) at the chosen K, exactly
    // as `diffuscope timesteps --as diffusers|k-diffusion` prints them; empty without a run of it.
    QString pipelineText(core::schedule::TimestepConvention convention) const;

    // Writes labToCsv (one row per configuration and K, the reference last).
    core::Result<std::string> csvText() const override;

    // In the window the charts scroll, two to a row when there is room and one otherwise; a
    // figure (an export) always has the two columns and the size asked.
    void setFigureMode(bool figure) override;
    int chartColumns() const { return m_columns; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    void runRequested();
    void cancelRequested();

private:
    QWidget* createControls();
    QWidget* createSelectors();
    void createCharts();
    void updateCaption();
    void redraw();
    void drawTimesteps();
    void drawSteps();
    void drawAgainstK(int chartIndex);
    void drawSigmaSteps();
    // The curves in drawing order: the configurations, then the reference.
    std::vector<const core::project::LabCurve*> curvesToDraw() const;
    int chosenK() const;

    panels::LabConfigTable* m_table;
    document::ProjectDocument* m_document;
    std::array<QChart*, 5> m_charts{};
    std::array<QChartView*, 5> m_chartViews{};
    std::array<charts::FigureChart*, 5> m_figures{};
    QWidget* m_chartsBody = nullptr;  // the charts, their selectors and the note, scrolled
    QScrollArea* m_chartsScroll = nullptr;
    QGridLayout* m_chartGrid = nullptr;
    int m_columns = 0;
    bool m_figureMode = false;
    void arrangeCharts(int columns);
    int windowColumns() const;
    QComboBox* m_k;
    QComboBox* m_axis;
    QComboBox* m_stepAxis;
    QComboBox* m_sigmaStep;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_caption;
    QLabel* m_errors;
    QLabel* m_referenceNote =
        nullptr;  // why a configuration can beat the DP optimum, at the chosen K
    std::shared_ptr<const core::project::LabResult> m_result;
    bool m_stale = false;
};

}  // namespace ui::views
