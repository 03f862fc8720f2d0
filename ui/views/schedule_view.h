// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <vector>

#include "core/categorical/information.h"
#include "ui/charts/chart_panel.h"
#include "ui/document/project_model.h"

class QLineSeries;
class QScatterSeries;
class QValueAxis;

// The "Schedule & information" view of the categorical explorer: β(t), the
// keep probability 1 − β(t), I(X_0;X_t) in bits, the impurity G_t (both summed over the
// positions when D > 1, and named so), markers at the chosen trajectory's nodes and a cursor at
// the time slider's node.
namespace ui::views {

class ScheduleView : public charts::ChartPanel {
    Q_OBJECT
public:
    explicit ScheduleView(QWidget* parent = nullptr);

    // Recomputes the cheap curves (O(N K²)) from the setup.
    void setSetup(std::shared_ptr<const document::CategoricalSetup> setup);
    // The nodes of the trajectory in use (even, typed or DP), drawn as markers.
    void setTrajectory(const std::vector<int>& nodes, const QString& label);
    // The time cursor, a grid node index.
    void setCursorTime(double t);
    // A figure carries no time cursor: the cursor follows the player, not the data.
    void setFigureMode(bool figure) override;

    const core::categorical::InformationCurves& curves() const { return m_curves; }
    // The data's joint entropy and the sum of its positions' entropies (nats).
    const core::categorical::DataEntropy& entropy() const { return m_entropy; }

private:
    std::shared_ptr<const document::CategoricalSetup> m_setup;
    core::categorical::InformationCurves m_curves;
    core::categorical::DataEntropy m_entropy;
    QLineSeries* m_beta;
    QLineSeries* m_keep;
    QLineSeries* m_information;
    QLineSeries* m_impurity;
    QScatterSeries* m_markers;
    QLineSeries* m_cursor;
    QValueAxis* m_axisT;
    QValueAxis* m_axisProbability;
    QValueAxis* m_axisBits;
    // Σ_d G_t,d runs up to D: an axis of its own (right) when D > 1, the probability axis else.
    QValueAxis* m_axisImpurity;
};

}  // namespace ui::views
