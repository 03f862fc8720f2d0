// SPDX-License-Identifier: MIT
#include "ui/views/matrices_view.h"

#include <QCoreApplication>
#include <QHBoxLayout>

#include "core/categorical/reverse_kernel.h"
#include "core/categorical/transition.h"
#include "ui/views/heatmap_widget.h"

namespace ui::views {
namespace {
QString num(double v) { return QString::number(v, 'g', 6); }
// A title's number: three significant digits (the tooltips keep six, the CSV all).
QString titleNumber(double v) { return QString::number(v, 'g', 3); }
// "s = 0.500" kept on one line where a title wraps.
QString unbroken(QString text) { return text.replace(' ', QChar(0x00A0)); }
}  // namespace

MatricesView::MatricesView(QWidget* parent)
    : ViewPanel(QT_TRANSLATE_NOOP("ui::views", "Matrices"), parent),
      m_forward(new HeatmapWidget),
      m_step(new HeatmapWidget),
      m_reverse(new HeatmapWidget) {
    auto* body = new QWidget;
    auto* layout = new QHBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(6);
    layout->addWidget(m_forward, 1);
    layout->addWidget(m_step, 1);
    layout->addWidget(m_reverse, 1);
    layout->addWidget(new ColorBar);
    setBody(body);
    m_forward->setTooltipProvider([this](int r, int c) { return forwardFormula(r, c); });
    m_step->setTooltipProvider([this](int r, int c) { return stepFormula(r, c); });
    m_reverse->setTooltipProvider([this](int r, int c) { return reverseFormula(r, c); });
    setToolTip(tr("Hover a cell to see where its value comes from."));
}

void MatricesView::setSetup(std::shared_ptr<const document::CategoricalSetup> setup) {
    m_setup = std::move(setup);
    recompute();
}

void MatricesView::setStep(int nodeS, int nodeT) {
    m_nodeS = nodeS;
    m_nodeT = nodeT;
    recompute();
}

void MatricesView::recompute() {
    if (!m_setup) {
        return;
    }
    const auto& s = *m_setup;
    if (s.params.condition == core::project::kAllConditions) {
        setMessage(tr("The matrices use the denoiser of one condition: choose one."), true);
        return;
    }
    const int n = s.grid.numSteps();
    m_nodeT = std::clamp(m_nodeT, 0, n);
    m_nodeS = std::clamp(m_nodeS, 0, m_nodeT);
    const double betaS = s.grid.beta[m_nodeS];
    const double betaT = s.grid.beta[m_nodeT];
    const int k = s.numClasses();
    m_p0t = core::categorical::denseForward(s.pi, betaT);
    m_pst = core::categorical::denseStep(s.pi, betaS, betaT);
    m_f.resize(k, k);
    core::Vector row(k);
    const core::model::DenoiserTime time{s.grid.t[m_nodeT], betaT};
    for (int j = 0; j < k; ++j) {
        s.positionOracle->predictPosition(s.position, j, s.params.condition, time,
                                          {row.data(), static_cast<size_t>(row.size())});
        m_f.row(j) = row.transpose();
    }
    m_q = core::categorical::reverseKernelMatrix(s.params.kernel, m_f, s.pi, betaS, betaT);
    const QString ts = unbroken(QString("s = %1,").arg(s.grid.t[m_nodeS], 0, 'f', 3)) + " " +
                       unbroken(QString("t = %1").arg(s.grid.t[m_nodeT], 0, 'f', 3));
    m_forward->setMatrix(m_p0t, "P₀,ₜ   (" + unbroken("βₜ = " + titleNumber(betaT)) + ")",
                         tr("row i = x₀, column j = xₜ"));
    m_step->setMatrix(m_pst, QString("Pₛ,ₜ   (%1)").arg(ts), tr("row k = xₛ, column j = xₜ"));
    m_reverse->setMatrix(
        m_q,
        tr("Q = P(Xₛ | Xₜ)   (%1 kernel)")
            .arg(s.params.kernel == core::categorical::KernelForm::D3pm ? tr("D3PM-style")
                                                                        : tr("closed-form")),
        tr("row j = xₜ, column k = xₛ"));

    charts::ChartData data;
    data.header = {"row", "column", "P0t", "Pst", "F", "Q"};
    data.columns.assign(6, {});
    for (int r = 0; r < k; ++r) {
        for (int c = 0; c < k; ++c) {
            data.columns[0].push_back(r);
            data.columns[1].push_back(c);
            data.columns[2].push_back(m_p0t(r, c));
            data.columns[3].push_back(m_pst(r, c));
            data.columns[4].push_back(m_f(r, c));
            data.columns[5].push_back(m_q(r, c));
        }
    }
    setData(std::move(data));
    QString where;
    if (s.numPositions() > 1) {
        where = tr(" Position %1 of %2, with its own marginal posterior as F.")
                    .arg(s.position)
                    .arg(s.numPositions());
    }
    // The same pair of nodes in both directions: the forward matrices go from s to t, the
    // reverse kernel back from t to s.
    setMessage(tr("Grid nodes %1 and %2 (%3): Pₛ,ₜ steps forward from s to t, Q back from t to "
                  "s; condition C = %4.%5 Hover a cell for its formula.")
                   .arg(m_nodeS)
                   .arg(m_nodeT)
                   .arg(ts)
                   .arg(document::qs(s.params.conditionNames[s.params.condition]))
                   .arg(where));
}

QString MatricesView::forwardFormula(int i, int j) const {
    if (!m_setup || i >= m_p0t.rows() || j >= m_p0t.cols()) {
        return {};
    }
    const double betaT = m_setup->grid.beta[m_nodeT];
    return tr("<b>P₀,ₜ[%1, %2] = %3</b><br>= (1 − βₜ)·δ<sub>ij</sub> + βₜ·π<sub>j</sub>"
              "<br>= (1 − %4)·%5 + %4·%6")
        .arg(i)
        .arg(j)
        .arg(num(m_p0t(i, j)), num(betaT), i == j ? "1" : "0", num(m_setup->pi[j]));
}

QString MatricesView::stepFormula(int k, int j) const {
    if (!m_setup || k >= m_pst.rows() || j >= m_pst.cols()) {
        return {};
    }
    const double betaS = m_setup->grid.beta[m_nodeS];
    const double betaT = m_setup->grid.beta[m_nodeT];
    const double keep = core::categorical::keepProbability(betaS, betaT);
    return tr("<b>Pₛ,ₜ[%1, %2] = %3</b><br>= keep·δ<sub>kj</sub> + (1 − keep)·π<sub>j</sub>,"
              " keep = (1 − βₜ)/(1 − βₛ)<br>keep = (1 − %4)/(1 − %5) = %6"
              "<br>= %6·%7 + %8·%9")
        .arg(k)
        .arg(j)
        .arg(num(m_pst(k, j)), num(betaT), num(betaS), num(keep), k == j ? "1" : "0",
             num(1.0 - keep), num(m_setup->pi[j]));
}

QString MatricesView::reverseFormula(int j, int k) const {
    if (!m_setup || j >= m_q.rows() || k >= m_q.cols()) {
        return {};
    }
    const double bs = m_setup->grid.beta[m_nodeS];
    const double bt = m_setup->grid.beta[m_nodeT];
    const double pij = m_setup->pi[j];
    const double pik = m_setup->pi[k];
    const double fjk = m_f(j, k);
    const double fjj = m_f(j, j);
    if (m_setup->params.kernel == core::categorical::KernelForm::D3pm) {
        return tr("<b>Q[%1, %2] = %3</b><br>D3PM-style: ∝ Σ<sub>i</sub> F<sub>j</sub>[i]·"
                  "P₀,ₛ[i, k]·Pₛ,ₜ[k, j], normalised over k (no division by P₀,ₜ[i, j])")
            .arg(j)
            .arg(k)
            .arg(num(m_q(j, k)));
    }
    if (bt <= 0.0 || bt == bs) {
        return tr("<b>Q[%1, %2] = %3</b><br>no noise between s and t: q<sub>j</sub> = "
                  "δ<sub>j</sub>")
            .arg(j)
            .arg(k)
            .arg(num(m_q(j, k)));
    }
    const double d = 1.0 - bt + bt * pij;
    const double a = (bt - bs) / bt;
    const double b = (bt - bs) * bs / ((1.0 - bs) * bt);
    const double c = bs * (1.0 - bt) / ((1.0 - bs) * bt);
    return tr("<b>Q[%1, %2] = q<sub>j</sub>[k] = %3</b> (closed form, "
              "Help ▸ Mathematics: categorical.md#reverse-kernel)<br>"
              "= (βₜ − βₛ)/βₜ · F<sub>j</sub>[k]<br>"
              "+ (βₜ − βₛ)βₛ/((1 − βₛ)βₜ) · ((1 − βₜ)(1 − F<sub>j</sub>[j]) + "
              "βₜ π<sub>j</sub>)/d<sub>j</sub> · π<sub>k</sub><br>"
              "+ βₛ(1 − βₜ)/((1 − βₛ)βₜ) · (1 + (βₜ − βₛ)F<sub>j</sub>[j]/"
              "d<sub>j</sub>) · δ<sub>jk</sub><br>"
              "with βₛ = %4, βₜ = %5, F<sub>j</sub>[k] = %6, F<sub>j</sub>[j] = %7, "
              "π<sub>j</sub> = %8, π<sub>k</sub> = %9, d<sub>j</sub> = %10<br>"
              "= %11·%6 + %12·%13·%9 + %14·%15·%16")
        .arg(j)
        .arg(k)
        .arg(num(m_q(j, k)), num(bs), num(bt), num(fjk), num(fjj), num(pij), num(pik), num(d))
        .arg(num(a), num(b), num(((1.0 - bt) * (1.0 - fjj) + bt * pij) / d), num(c),
             num(1.0 + (bt - bs) * fjj / d), j == k ? "1" : "0");
}

}  // namespace ui::views
