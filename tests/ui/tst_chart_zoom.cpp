// SPDX-License-Identifier: MIT
// Zoom and pan on every chart (ChartPanel): the point under the cursor stays put when zooming
// about it, a pan moves the content with the pointer, double-click shows everything again;
// the mouse gestures (Ctrl+wheel, Shift+drag, double-click) reach the same code, also on a
// logarithmic axis; a plain wheel is left to whatever scrolls.
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QTest>
#include <QValueAxis>
#include <QWheelEvent>

#include "ui/charts/chart_panel.h"

namespace {

struct Fixture {
    ui::charts::ChartPanel panel{"zoom"};
    QValueAxis* x = new QValueAxis;
    QAbstractAxis* y = nullptr;
    QLineSeries* series = new QLineSeries;

    explicit Fixture(bool logY) {
        for (int i = 1; i <= 100; ++i) series->append(i / 10.0, logY ? std::pow(10.0, i / 25.0) : i / 10.0);
        panel.chart()->addSeries(series);
        x->setRange(0.0, 10.0);
        if (logY) {
            auto* axis = new QLogValueAxis;
            axis->setRange(1.0, 1e4);
            y = axis;
        } else {
            auto* axis = new QValueAxis;
            axis->setRange(0.0, 10.0);
            y = axis;
        }
        panel.chart()->addAxis(x, Qt::AlignBottom);
        panel.chart()->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        panel.resize(700, 500);
        panel.show();
        QApplication::processEvents();
    }
    // The chart-view pixel of a value.
    QPoint pixelOf(QPointF value) const {
        const QPointF inChart = panel.chart()->mapToPosition(value, series);
        return panel.chartView()->mapFromScene(panel.chart()->mapToScene(inChart));
    }
    QPointF valueAt(QPoint pixel) const {
        return panel.chart()->mapToValue(
            panel.chart()->mapFromScene(panel.chartView()->mapToScene(pixel)), series);
    }
};

}  // namespace

class tst_ChartZoom : public QObject {
    Q_OBJECT
private slots:
    void zoomKeepsThePointUnderTheCursor();
    void panMovesWithThePointer();
    void gesturesReachTheChart();
    void logarithmicAxesZoomToo();
};

void tst_ChartZoom::zoomKeepsThePointUnderTheCursor() {
    Fixture f(false);
    const QPoint at = f.pixelOf({2.5, 7.5});
    f.panel.zoomAbout(at, 2.0);
    QVERIFY2(std::abs(f.x->max() - f.x->min() - 5.0) < 0.05,
             qPrintable(QString("%1..%2").arg(f.x->min()).arg(f.x->max())));
    const QPointF stays = f.valueAt(at);
    QVERIFY2(std::abs(stays.x() - 2.5) < 0.05 && std::abs(stays.y() - 7.5) < 0.05,
             qPrintable(QString("%1, %2").arg(stays.x()).arg(stays.y())));
    f.panel.zoomReset();
    QCOMPARE(f.x->min(), 0.0);
    QCOMPARE(f.x->max(), 10.0);
}

void tst_ChartZoom::panMovesWithThePointer() {
    Fixture f(false);
    f.panel.zoomAbout(f.pixelOf({5.0, 5.0}), 2.0);  // x shows 2.5..7.5
    const int pixelsPerUnit = f.pixelOf({6.0, 5.0}).x() - f.pixelOf({5.0, 5.0}).x();
    f.panel.panBy(QPoint(pixelsPerUnit, 0));  // drag one unit to the right
    // What was at x = 1.5 is now at the left edge, where x = 2.5 was.
    QVERIFY2(std::abs(f.x->min() - 1.5) < 0.05 && std::abs(f.x->max() - 6.5) < 0.05,
             qPrintable(QString("%1..%2").arg(f.x->min()).arg(f.x->max())));
    // Further than the data's range goes: the view stops at its edge (no negative timesteps).
    f.panel.panBy(QPoint(5 * pixelsPerUnit, 0));
    QVERIFY2(std::abs(f.x->min()) < 1e-9 && std::abs(f.x->max() - 5.0) < 0.05,
             qPrintable(QString("%1..%2").arg(f.x->min()).arg(f.x->max())));
    // The ticks stay round: at multiples of a 1-2-2.5-5 step, from a multiple on.
    QCOMPARE(f.x->tickType(), QValueAxis::TicksDynamic);
    const double step = f.x->tickInterval();
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
    QVERIFY2(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 2.5) < 1e-9 ||
                 std::abs(mantissa - 5) < 1e-9,
             qPrintable(QString::number(step)));
    const double anchor = f.x->tickAnchor() / step;
    QVERIFY2(std::abs(anchor - std::round(anchor)) < 1e-9, qPrintable(QString::number(f.x->tickAnchor())));
}

void tst_ChartZoom::gesturesReachTheChart() {
    Fixture f(false);
    QWidget* viewport = f.panel.chartView()->viewport();
    const QPoint centre = f.pixelOf({5.0, 5.0});
    // A plain wheel does not zoom (it scrolls whatever holds the chart).
    QWheelEvent plain(centre, viewport->mapToGlobal(centre), {}, QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(viewport, &plain);
    QCOMPARE(f.x->max() - f.x->min(), 10.0);
    QWheelEvent ctrl(centre, viewport->mapToGlobal(centre), {}, QPoint(0, 240), Qt::NoButton,
                     Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(viewport, &ctrl);
    QVERIFY2(std::abs(f.x->max() - f.x->min() - 10.0 / 1.5625) < 0.05,
             qPrintable(QString::number(f.x->max() - f.x->min())));
    const double minBefore = f.x->min();
    QTest::mousePress(viewport, Qt::LeftButton, Qt::ShiftModifier, centre);
    QTest::mouseMove(viewport, centre + QPoint(80, 0));
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::ShiftModifier, centre + QPoint(80, 0));
    QVERIFY2(f.x->min() < minBefore - 0.1, qPrintable(QString::number(f.x->min())));
    QTest::mouseDClick(viewport, Qt::LeftButton, Qt::NoModifier, centre);
    QCOMPARE(f.x->min(), 0.0);
    QCOMPARE(f.x->max(), 10.0);
}

void tst_ChartZoom::logarithmicAxesZoomToo() {
    Fixture f(true);
    auto* y = static_cast<QLogValueAxis*>(f.y);
    const QPoint at = f.pixelOf({5.0, 100.0});
    f.panel.zoomAbout(at, 2.0);
    // Two decades of four remain, centred on 100 on a log scale.
    QVERIFY2(std::abs(std::log10(y->max() / y->min()) - 2.0) < 0.02,
             qPrintable(QString("%1..%2").arg(y->min()).arg(y->max())));
    QVERIFY2(std::abs(std::log10(f.valueAt(at).y()) - 2.0) < 0.02,
             qPrintable(QString::number(f.valueAt(at).y())));
}

QTEST_MAIN(tst_ChartZoom)
#include "tst_chart_zoom.moc"
