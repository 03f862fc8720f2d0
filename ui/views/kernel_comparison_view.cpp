// SPDX-License-Identifier: MIT
#include "ui/views/kernel_comparison_view.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QValueAxis>

#include "ui/charts/figure_chart.h"
#include "ui/charts/palette.h"

namespace ui::views {

KernelComparisonView::KernelComparisonView(QWidget* parent)
    : ChartPanel(QT_TRANSLATE_NOOP("ui::views", "Kernel comparison"), parent),
      m_series(new QBarSeries),
      m_data(new QBarSet(tr("data P(X₀ | C)"))),
      m_closed(new QBarSet(tr("reverse sampling, closed form"))),
      m_d3pm(new QBarSet(tr("reverse sampling, D3PM-style kernel"))),
      m_axisClass(new QBarCategoryAxis),
      m_axisProbability(new QValueAxis) {
    m_data->setColor(charts::palette::kData);
    m_closed->setColor(charts::palette::kClosedForm);
    m_d3pm->setColor(charts::palette::kD3pm);
    m_series->append(m_data);
    m_series->append(m_closed);
    m_series->append(m_d3pm);
    chart()->addSeries(m_series);
    m_axisClass->setTitleText(tr("class"));
    m_axisProbability->setTitleText(tr("probability"));
    chart()->addAxis(m_axisClass, Qt::AlignBottom);
    chart()->addAxis(m_axisProbability, Qt::AlignLeft);
    m_series->attachAxis(m_axisClass);
    m_series->attachAxis(m_axisProbability);
    setToolTip(
        tr("Where reverse sampling ends, computed exactly by propagating distributions "
           "along the trajectory from π, with the exact denoiser."));
}

void KernelComparisonView::showOneConditionNeeded() {
    setMessage(tr("The reverse marginals use the denoiser of one condition: choose one."), true);
}

void KernelComparisonView::setResult(const core::project::KernelComparison& result,
                                     int numPositions,
                                     int position) {
    const core::Vector& p0 = result.data;
    const core::Vector& endClosed = result.closedForm;
    const core::Vector& endD3pm = result.d3pm;
    const int k = static_cast<int>(p0.size());
    QStringList categories;
    QList<qreal> data, closedValues, d3pmValues;
    std::vector<double> classes, c0, c1, c2;
    double top = 0.0;
    for (int i = 0; i < k; ++i) {
        categories << QString::number(i);
        data << p0[i];
        closedValues << endClosed[i];
        d3pmValues << endD3pm[i];
        classes.push_back(i);
        c0.push_back(p0[i]);
        c1.push_back(endClosed[i]);
        c2.push_back(endD3pm[i]);
        top = std::max({top, p0[i], endClosed[i], endD3pm[i]});
    }
    m_data->remove(0, m_data->count());
    m_closed->remove(0, m_closed->count());
    m_d3pm->remove(0, m_d3pm->count());
    m_data->append(data);
    m_closed->append(closedValues);
    m_d3pm->append(d3pmValues);
    m_axisClass->setCategories(categories);
    charts::setNiceRange(m_axisProbability, 0.0, std::min(1.0, top * 1.1 + 0.01));
    m_klClosed = result.klClosed;
    m_klD3pm = result.klD3pm;
    setData({{"class", "data", "closed_form", "d3pm"}, {classes, c0, c1, c2}});
    const QString where =
        numPositions > 1 ? tr(" (position %1, each position on its own)").arg(position) : QString();
    setMessage(tr("After %1 reverse steps%4: KL(data ‖ closed form) = %2 nats, "
                  "KL(data ‖ D3PM-style) = %3 nats.")
                   .arg(result.numSteps)
                   .arg(m_klClosed, 0, 'g', 3)
                   .arg(m_klD3pm, 0, 'g', 3)
                   .arg(where));
}

}  // namespace ui::views
