// SPDX-License-Identifier: MIT
#include "ui/charts/presentation.h"

#include <QAbstractAxis>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLegend>
#include <QScatterSeries>
#include <QXYSeries>
#include <algorithm>
#include <cmath>

namespace ui::charts {
namespace {

constexpr const char* kScaleProperty = "diffuscopeChartScale";

QFont scaled(QFont font, double factor) {
    if (font.pointSizeF() > 0) {
        font.setPointSizeF(font.pointSizeF() * factor);
    } else if (font.pixelSize() > 0) {
        font.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * factor))));
    }
    return font;
}

QPen scaled(QPen pen, double factor) {
    pen.setWidthF(pen.widthF() * factor);
    return pen;
}

}  // namespace

double chartScale(const QChart* chart) {
    const QVariant scale = chart->property(kScaleProperty);
    return scale.isValid() ? scale.toDouble() : 1.0;
}

void setChartScale(QChart* chart, double scale) {
    const double factor = scale / chartScale(chart);
    if (factor == 1.0) return;
    chart->setProperty(kScaleProperty, scale);
    chart->setTitleFont(scaled(chart->titleFont(), factor));
    chart->legend()->setFont(scaled(chart->legend()->font(), factor));
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(scaled(axis->labelsFont(), factor));
        axis->setTitleFont(scaled(axis->titleFont(), factor));
    }
    for (QAbstractSeries* series : chart->series()) {
        if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
            scatter->setMarkerSize(scatter->markerSize() * factor);
        } else if (auto* line = qobject_cast<QXYSeries*>(series)) {
            line->setPen(scaled(line->pen(), factor));
        } else if (auto* area = qobject_cast<QAreaSeries*>(series)) {
            area->setPen(scaled(area->pen(), factor));
        }
    }
    // The axes measured their labels with the old fonts: lay the chart out again.
    if (chart->layout() != nullptr) chart->layout()->invalidate();
}

void setChartsScale(QWidget* root, double scale) {
    for (QChartView* view : root->findChildren<QChartView*>()) {
        if (view->chart() != nullptr) setChartScale(view->chart(), scale);
    }
}

}  // namespace ui::charts
