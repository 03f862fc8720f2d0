// SPDX-License-Identifier: MIT
// Tests of ui/charts export: PNG, SVG, PDF and CSV files are written and decode back.
#include <QApplication>
#include <QChart>
#include <QHelpEvent>
#include <QToolTip>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <cmath>
#include <set>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include "core/io/csv.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/chart_panel.h"
#include "ui/charts/gif_writer.h"
#include "ui/charts/export_dialog.h"
#include "tests/support/test_support.h"

namespace {

class SineChart : public ui::charts::ChartPanel {
public:
    SineChart() : ChartPanel("sine") {
        auto* series = new QLineSeries;
        series->setName("sine");
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
        axisX->setTitleText("x");
        axisY->setTitleText("y");
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

// A view with a control under its figure: a bright red button, marked as a control, and a
// message footer.
class PanelWithControl : public ui::charts::ViewPanel {
public:
    PanelWithControl() : ViewPanel("with control") {
        auto* body = new QWidget;
        auto* layout = new QVBoxLayout(body);
        auto* figure = new QLabel("figure");
        figure->setStyleSheet("background: white; color: black; font-size: 40px;");
        layout->addWidget(figure, 1);
        button = new QLabel("Play");
        button->setStyleSheet("background: #ff0000; color: #ff0000; min-height: 60px;");
        button->setAutoFillBackground(true);
        layout->addWidget(button);
        markControl(button);
        setBody(body);
        setMessage("a status line");
    }
    QLabel* button;
};

int redPixels(const QImage& image) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            count += qRed(p) > 230 && qGreen(p) < 30 && qBlue(p) < 30;
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
    void writesOnlyTheFileNamed();
    void exportsTheFigureOnly();
    void physicalSizesAndFontScale();
    void lengthsParse();
    void readoutShowsTheValueUnderTheCursor();
    void gifKeepsTheFrequentColoursExactly();
};

// A GIF frame keeps its most frequent colours exactly (the chains' lane shading, near-white, used
// to become white in the 6×7×6 cube) and moves every other channel by at most 26.
void tst_ChartExport::gifKeepsTheFrequentColoursExactly() {
    QImage frame(120, 80, QImage::Format_RGB32);
    frame.fill(Qt::white);
    QPainter painter(&frame);
    painter.fillRect(QRect(0, 0, 120, 30), QColor(246, 247, 250));
    painter.fillRect(QRect(0, 30, 120, 30), QColor(236, 238, 243));
    painter.fillRect(QRect(10, 65, 40, 10), QColor(0x00, 0x72, 0xB2));
    painter.end();
    ui::charts::GifWriter writer(10);
    writer.addFrame(frame);
    QTemporaryDir dir;
    const QString path = dir.filePath("lanes.gif");
    QCOMPARE(writer.save(path), QString());
    QImageReader reader(path);
    const QImage back = reader.read().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(back.pixelColor(5, 5), QColor(246, 247, 250));
    QCOMPARE(back.pixelColor(5, 40), QColor(236, 238, 243));
    QCOMPARE(back.pixelColor(5, 75), QColor(Qt::white));
    const QColor blue = back.pixelColor(20, 70);
    QVERIFY(std::abs(blue.red() - 0x00) <= 26 && std::abs(blue.green() - 0x72) <= 26 && std::abs(blue.blue() - 0xB2) <= 26);
}

// The readout under the cursor is the nearest point of the nearest series, with the series'
// name and the point's own values (not the cursor's coordinates); away from every curve, none.
void tst_ChartExport::readoutShowsTheValueUnderTheCursor() {
    SineChart chart;
    chart.resize(600, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QChart* c = chart.chart();
    auto* series = static_cast<QLineSeries*>(c->series().front());
    const QPointF point = series->at(25);  // x = 0.25, y = sin(1.57)
    const QPointF inChart = c->mapToPosition(point, series);
    const QPoint inView = chart.chartView()->mapFromScene(c->mapToScene(inChart)) + QPoint(2, 3);
    const QString text = chart.readoutAt(inView);
    QVERIFY2(text.startsWith("sine\n"), qPrintable(text));
    const QRegularExpression numbers(R"(x = ([-0-9.e]+),\s+y = ([-0-9.e]+))");
    const auto match = numbers.match(text);
    QVERIFY2(match.hasMatch(), qPrintable(text));
    QCOMPARE(match.captured(1), QString("0.25"));
    DS_COMPARE_ABS(match.captured(2).toDouble(), point.y(), 1e-3);
    // 60 pixels below the crest of the sine: no point within reach.
    const QPointF crest = c->mapToPosition(series->at(25), series);
    const QPoint below = chart.chartView()->mapFromScene(c->mapToScene(crest)) + QPoint(0, 60);
    QCOMPARE(chart.readoutAt(below), QString());
    QCOMPARE(chart.readoutAt(QPoint(1, 1)), QString());  // outside the plot area
    // A resting pointer asks for a tooltip: the plot answers with the readout, never with the
    // view's long explanation (that is the "?" beside the title).
    chart.setToolTip("the view's explanation");
    QWidget* viewport = chart.chartView()->viewport();
    QHelpEvent rest(QEvent::ToolTip, inView, viewport->mapToGlobal(inView));
    QApplication::sendEvent(viewport, &rest);
    QCOMPARE(QToolTip::text(), text);
    QHelpEvent away(QEvent::ToolTip, below, viewport->mapToGlobal(below));
    QApplication::sendEvent(viewport, &away);
    QVERIFY(QToolTip::text() != "the view's explanation");
}

// The controls and the message footer are not in the file, and are back on screen after.
void tst_ChartExport::exportsTheFigureOnly() {
    QTemporaryDir dir;
    PanelWithControl panel;
    panel.resize(400, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY2(redPixels(panel.grab().toImage()) > 1000, "the control is not drawn on screen");
    const QString png = dir.filePath("figure.png");
    QCOMPARE(ui::charts::exportWidget(&panel, png, {.size = {400, 300}}), QString());
    QCOMPARE(redPixels(QImage(png)), 0);
    const QString svg = dir.filePath("figure.svg");
    QCOMPARE(ui::charts::exportWidget(&panel, svg, {.size = {400, 300}}), QString());
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(text.contains("figure"));
    QVERIFY(!text.contains("Play"));
    QVERIFY(!text.contains("a status line"));
    QVERIFY(panel.button->isVisible());
    QCOMPARE(panel.message(), QString("a status line"));
}

// 12 cm × 8 cm: a PDF page of 340.2 × 226.8 pt, an SVG of 120 × 80 mm, a PNG at 300 dpi of
// 1417 × 945 pixels; a font scale of 2 draws the text larger in a figure of the same size.
void tst_ChartExport::physicalSizesAndFontScale() {
    QTemporaryDir dir;
    SineChart chart;
    const QSize size(*ui::charts::parseLength("12cm"), *ui::charts::parseLength("8cm"));
    QCOMPARE(size, QSize(454, 302));  // round(12/2.54·96), round(8/2.54·96)
    const QString pdf = dir.filePath("c.pdf");
    QCOMPARE(ui::charts::exportWidget(&chart, pdf, {.size = size}), QString());
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    const QByteArray pdfBytes = pdfFile.readAll();
    // 454 px · 72/96 = 340.5 pt; 302 px · 72/96 = 226.5 pt (the page is rounded to what Qt keeps).
    const QRegularExpression box(R"(/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\])");
    const auto match = box.match(QString::fromLatin1(pdfBytes));
    QVERIFY2(match.hasMatch(), "no MediaBox");
    DS_COMPARE_ABS(match.captured(1).toDouble(), 340.5, 1.0);
    DS_COMPARE_ABS(match.captured(2).toDouble(), 226.5, 1.0);
    const QString svg = dir.filePath("c.svg");
    QCOMPARE(ui::charts::exportWidget(&chart, svg, {.size = size}), QString());
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    const QRegularExpression width(R"(width="([0-9.]+)mm")");
    const auto w = width.match(QString::fromUtf8(svgText));
    QVERIFY2(w.hasMatch(), svgText.left(400).constData());
    DS_COMPARE_ABS(w.captured(1).toDouble(), 454 * 25.4 / 96, 0.5);
    const QString png = dir.filePath("c.png");
    QCOMPARE(ui::charts::exportWidget(&chart, png, {.size = size, .dpi = 300}), QString());
    QCOMPARE(QImage(png).size(), QSize(1419, 944));  // 454·300/96 = 1418.75, 302·300/96 = 943.75
    // The type is in points at 96 CSS pixels to the inch, whatever the figure's size: the title
    // 8 pt (10.67 px), the tick labels 7 pt (9.33 px), the axis titles 7.5 pt (10 px); font
    // scale 2 doubles every one of them, in a figure of the same size.
    const auto fontSizes = [&](double fontScale, QSize at) {
        const QString file = dir.filePath(QString("f%1-%2.svg").arg(fontScale).arg(at.width()));
        const QString error = ui::charts::exportWidget(&chart, file, {.size = at, .fontScale = fontScale});
        QFile f(file);
        std::set<double> sizes;
        if (!error.isEmpty() || !f.open(QIODevice::ReadOnly)) return sizes;
        // Every text element's size.
        static const QRegularExpression group(R"re(<text [^>]*font-size="([0-9.]+)")re");
        for (auto it = group.globalMatch(QString::fromUtf8(f.readAll())); it.hasNext();) {
            sizes.insert(std::round(it.next().captured(1).toDouble() * 100.0) / 100.0);
        }
        return sizes;
    };
    const std::set<double> one = fontSizes(1.0, size);
    QStringList listed;
    for (double v : one) listed << QString::number(v);
    QVERIFY2(one.contains(10.67) && one.contains(9.33) && one.contains(10.0), qPrintable(listed.join(", ")));
    QCOMPARE(fontSizes(1.0, size * 2), one);  // a larger figure: the same type
    const std::set<double> two = fontSizes(2.0, size);
    QCOMPARE(two.size(), one.size());
    for (auto a = one.begin(), b = two.begin(); a != one.end(); ++a, ++b) {
        DS_COMPARE_ABS(*b, 2.0 * *a, 0.02);  // sizes kept to two decimals
    }
    const QString big = dir.filePath("big.png");
    QVERIFY(!ui::charts::exportWidget(&chart, big, {.size = size, .fontScale = 9.0}).isEmpty());
}

void tst_ChartExport::lengthsParse() {
    QCOMPARE(*ui::charts::parseLength("800"), 800);
    QCOMPARE(*ui::charts::parseLength("800px"), 800);
    QCOMPARE(*ui::charts::parseLength("2in"), 192);
    QCOMPARE(*ui::charts::parseLength("2.54cm"), 96);
    QCOMPARE(*ui::charts::parseLength("25.4 mm"), 96);
    QString error;
    QVERIFY(!ui::charts::parseLength("12 furlongs", &error));
    QVERIFY2(error.contains("12 furlongs"), qPrintable(error));
    QVERIFY(!ui::charts::parseLength("0.1cm", &error));
    QVERIFY2(error.contains("0.1cm") && error.contains("16"), qPrintable(error));
    // A negative length is a length, just not one a figure can have.
    for (const QString text : {"-3in", "-800", " - 2.5 cm", "-.5mm"}) {
        QVERIFY(!ui::charts::parseLength(text, &error));
        QVERIFY2(error.startsWith("length " + text + ": must be positive"), qPrintable(error));
    }
}

void tst_ChartExport::pngHasTheRequestedSizeAndInk_data() {
    QTest::addColumn<int>("dpi");
    QTest::newRow("screen") << 96;
    QTest::newRow("print") << 192;
}

void tst_ChartExport::pngHasTheRequestedSizeAndInk() {
    QFETCH(int, dpi);
    QTemporaryDir dir;
    SineChart chart;
    const QString path = dir.filePath("chart.png");
    QCOMPARE(ui::charts::exportWidget(&chart, path, {.size = {640, 400}, .dpi = dpi}), QString());
    QImage image(path);
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

// The file written is the one named: a name whose extension is not an image format is refused
// naming the formats (it used to get ".png" added and be reported under the name given), and
// the export dialog adds an extension only to a name without one, the chosen format's.
void tst_ChartExport::writesOnlyTheFileNamed() {
    SineChart chart;
    QTemporaryDir dir;
    for (const QString name : {"chart", "chart.jpg", "chart.svgz", "chart.csv", "chart.png.bak"}) {
        const QString path = dir.filePath(name);
        const QString error = ui::charts::exportWidget(&chart, path, {.size = {400, 300}});
        QCOMPARE(error, path + ": a figure is written as .png, .svg or .pdf");
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList());
    }
    const QString upper = dir.filePath("chart.PDF");
    QCOMPARE(ui::charts::exportWidget(&chart, upper, {.size = {400, 300}}), QString());
    QFile pdf(upper);
    QVERIFY(pdf.open(QIODevice::ReadOnly) && pdf.readAll().startsWith("%PDF-"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList{"chart.PDF"});
    QCOMPARE(ui::charts::chartFormat("a.CSV"), QString("csv"));
    QCOMPARE(ui::charts::chartFormat("a.jpg"), QString());
    QCOMPARE(ui::charts::chartFormat("a"), QString());
    QCOMPARE(ui::charts::withFilterSuffix("/x/fig", "SVG drawing (*.svg)"), QString("/x/fig.svg"));
    QCOMPARE(ui::charts::withFilterSuffix("/x/fig.pdf", "SVG drawing (*.svg)"), QString("/x/fig.pdf"));
    QCOMPARE(ui::charts::withFilterSuffix("/x/fig.jpg", "PNG image (*.png)"), QString("/x/fig.jpg"));
}

QTEST_MAIN(tst_ChartExport)
#include "tst_chart_export.moc"
