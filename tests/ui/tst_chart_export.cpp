// SPDX-License-Identifier: MIT
// Tests of ui/charts export: PNG, SVG, PDF and CSV files are written and decode back.
#include <QChart>
#include <QFile>
#include <QImage>
#include <QLineSeries>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include "core/io/csv.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/chart_panel.h"

namespace {

class SineChart : public ui::charts::ChartPanel {
public:
    SineChart() : ChartPanel("sine") {
        auto* series = new QLineSeries;
        ui::charts::ChartData data{{"x", "y"}, {{}, {}}};
        for (int i = 0; i <= 100; ++i) {
            const double x = i / 100.0;
            series->append(x, std::sin(6.28 * x));
            data.columns[0].push_back(x);
            data.columns[1].push_back(std::sin(6.28 * x));
        }
        chart()->addSeries(series);
        auto* axisX = new QValueAxis;
        auto* axisY = new QValueAxis;
        chart()->addAxis(axisX, Qt::AlignBottom);
        chart()->addAxis(axisY, Qt::AlignLeft);
        series->attachAxis(axisX);
        series->attachAxis(axisY);
        setData(std::move(data));
    }
};

// Counts pixels that are neither white nor transparent: a blank render has none.
int inkedPixels(const QImage& image) {
    int count = 0;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            const QRgb p = image.pixel(x, y);
            if (qAlpha(p) > 0 && (qRed(p) < 200 || qGreen(p) < 200 || qBlue(p) < 200)) {
                ++count;
            }
        }
    }
    return count;
}

}  // namespace

class tst_ChartExport : public QObject {
    Q_OBJECT

private slots:
    void pngHasTheRequestedSizeAndInk_data();
    void pngHasTheRequestedSizeAndInk();
    void svgAndPdfAreValid();
    void csvRoundTrips();
    void badRequestsAreRefused();
};

void tst_ChartExport::pngHasTheRequestedSizeAndInk_data() {
    QTest::addColumn<int>("dpi");
    QTest::newRow("screen") << 96;
    QTest::newRow("print") << 192;
}

void tst_ChartExport::pngHasTheRequestedSizeAndInk() {
    QFETCH(int, dpi);
    QTemporaryDir dir;
    SineChart chart;
    const QString path = dir.filePath("chart");  // no extension: ".png" is added
    QCOMPARE(ui::charts::exportWidget(&chart, path, {.size = {640, 400}, .dpi = dpi}), QString());
    QImage image(path + ".png");
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(640, 400) * (dpi / 96));
    QVERIFY2(inkedPixels(image) > 500, "the exported chart is blank");
}

void tst_ChartExport::svgAndPdfAreValid() {
    QTemporaryDir dir;
    SineChart chart;
    const QString svg = dir.filePath("chart.svg");
    const QString pdf = dir.filePath("chart.pdf");
    QCOMPARE(ui::charts::exportWidget(&chart, svg), QString());
    QCOMPARE(ui::charts::exportWidget(&chart, pdf), QString());
    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QImage rendered(600, 400, QImage::Format_ARGB32);
    rendered.fill(Qt::white);
    QPainter painter(&rendered);
    renderer.render(&painter);
    painter.end();
    QVERIFY2(inkedPixels(rendered) > 200, "the SVG draws nothing");
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.startsWith("%PDF-"));
    QVERIFY(bytes.contains("%%EOF"));
    QVERIFY(bytes.size() > 2000);
}

void tst_ChartExport::csvRoundTrips() {
    QTemporaryDir dir;
    SineChart chart;
    const QString path = dir.filePath("chart.csv");
    QCOMPARE(chart.exportCsv(path), QString());
    const auto table = core::io::readCsv(path.toStdString());
    QVERIFY(table.ok());
    QCOMPARE(table->header, (std::vector<std::string>{"x", "y"}));
    QCOMPARE(table->rows.size(), size_t{101});
    for (size_t r = 0; r < table->rows.size(); ++r) {
        QCOMPARE(*core::io::fieldAsDouble(*table, r, 1), chart.data().columns[1][r]);
    }
}

void tst_ChartExport::badRequestsAreRefused() {
    SineChart chart;
    QTemporaryDir dir;
    QVERIFY(!ui::charts::exportWidget(&chart, dir.filePath("a.png"), {.size = {0, 10}}).isEmpty());
    QVERIFY(!ui::charts::exportWidget(&chart, dir.filePath("a.png"), {.dpi = 5000}).isEmpty());
    QVERIFY(!ui::charts::exportWidget(&chart, "/nonexistent-dir/a.png").isEmpty());
}

QTEST_MAIN(tst_ChartExport)
#include "tst_chart_export.moc"
