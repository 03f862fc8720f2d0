// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "ui/charts/view_panel.h"
#include "ui/document/project_model.h"

// The "Matrices" view: heatmaps of P₀,ₜ, P_{s,t} and the reverse matrix Q
// (row j = q_j) for the step (s, t) at the time slider, with a colour bar. Hovering a cell
// shows its value and the formula it came from with the numbers filled in.
namespace ui::views {

class HeatmapWidget;

class MatricesView : public charts::ViewPanel {
    Q_OBJECT
public:
    explicit MatricesView(QWidget* parent = nullptr);

    void setSetup(std::shared_ptr<const document::CategoricalSetup> setup);
    // The step shown: grid nodes s < t (s = t shows the identity step).
    void setStep(int nodeS, int nodeT);

    // The cells' hover texts, for tests and for the teaching aid.
    QString forwardFormula(int i, int j) const;
    QString stepFormula(int k, int j) const;
    QString reverseFormula(int j, int k) const;
    const core::Matrix& reverseMatrix() const { return m_q; }

private:
    void recompute();

    std::shared_ptr<const document::CategoricalSetup> m_setup;
    int m_nodeS = 0;
    int m_nodeT = 1;
    core::Matrix m_p0t;
    core::Matrix m_pst;
    core::Matrix m_f;  // row j = F(· | j) at t
    core::Matrix m_q;
    HeatmapWidget* m_forward;
    HeatmapWidget* m_step;
    HeatmapWidget* m_reverse;
};

}  // namespace ui::views
