// SPDX-License-Identifier: MIT
// Figures that fit the size asked: every view of the moons example (both processes, the lab
// included) exported as SVG at a one-column size (8.5 × 6 cm) and a two-column one (17 × 11 cm),
// at font scale 1 and 1.5. Each export either holds every word of every title, axis title and
// legend entry, with no text shortened to "...", or refuses naming what does not fit. The
// single-chart views must fit a one-column figure at font scale 1, and every view the
// two-column figure at font scale 1.
#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLayout>
#include <QLineSeries>
#include <QChartView>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_panel.h"
#include "ui/charts/figure_chart.h"
#include "ui/document/project_document.h"
#include "ui/main/categorical_explorer.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/views/chain_text.h"
#include "ui/views/commit_raster.h"
#include "ui/views/gaussian_trajectory_view.h"
#include "ui/views/kernel_comparison_view.h"
#include "ui/views/variance_view.h"

using core::project::LabConfig;

namespace {

// The texts of an SVG's <text> elements, in order, entities decoded.
QStringList svgTexts(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QString svg = QString::fromUtf8(file.readAll());
    static const QRegularExpression text(R"(<text[^>]*>([^<]*)</text>)");
    QStringList texts;
    for (auto it = text.globalMatch(svg); it.hasNext();) {
        QString t = it.next().captured(1);
        t.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&");
        texts << t;
    }
    return texts;
}

// What the figure must show in words: the charts' titles, axis titles and legend entries.
QStringList expectedWords(QWidget* view) {
    QStringList words;
    for (auto* figure : view->findChildren<ui::charts::FigureChart*>()) {
        if (!figure->isVisibleTo(view) || figure->isEmpty()) continue;
        QStringList texts{figure->title()};
        for (QAbstractAxis* axis : figure->chart()->axes()) {
            if (axis->isVisible() && axis->isTitleVisible()) texts << axis->titleText();
        }
        if (figure->legend()->isVisibleTo(view)) texts << figure->legend()->labels();
        for (const QString& text : texts) words << text.split(' ', Qt::SkipEmptyParts);
    }
    for (auto* raster : view->findChildren<ui::views::CommitRaster*>()) {
        if (!raster->isVisibleTo(view)) continue;
        for (const QString& text : raster->texts()) words << text.split(' ', Qt::SkipEmptyParts);
    }
    for (auto* text : view->findChildren<ui::views::ChainText*>()) {
        if (!text->isVisibleTo(view)) continue;
        for (const QString& line : text->texts()) words << line.split(' ', Qt::SkipEmptyParts);
    }
    return words;
}

QString views(const std::vector<std::pair<QString, ui::charts::ViewPanel*>>& all) {
    QStringList names;
    for (const auto& [name, view] : all) names << name;
    return names.join(", ");
}

}  // namespace

class tst_FigureLayout : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void everyViewFitsOrSaysWhy_data();
    void everyViewFitsOrSaysWhy();
    void legendKeysDrawTheSeriesBrush();
    void anEmptyChartIsLeftOut();
    void aPartCutByItsNeighboursIsRefused();
    void aLegendGetsItsRowsWhenItsFigureNarrows();
    void thePdfCarriesItsText();
    void cleanupTestCase();

private:
    ui::charts::ViewPanel* view(const QString& name) const {
        for (const auto& [n, v] : m_views) {
            if (n == name) return v;
        }
        return nullptr;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<ui::document::ProjectDocument> m_document;
    std::unique_ptr<ui::CategoricalExplorer> m_categorical;
    std::unique_ptr<ui::GaussianExplorer> m_gaussian;
    std::vector<std::pair<QString, ui::charts::ViewPanel*>> m_views;
    // The Decoding view needs a mask state: the example's table with one, on its own.
    std::unique_ptr<ui::document::ProjectDocument> m_maskedDocument;
    std::unique_ptr<ui::CategoricalExplorer> m_masked;
    // And a table of 16 sequences (D = 4, K = 2): their upright labels need the figure's width.
    std::unique_ptr<ui::document::ProjectDocument> m_sixteenDocument;
    std::unique_ptr<ui::CategoricalExplorer> m_sixteen;
    // And text decoded from the English chain (example 7, made short).
    std::unique_ptr<ui::document::ProjectDocument> m_chainDocument;
    std::unique_ptr<ui::CategoricalExplorer> m_chain;
};

void tst_FigureLayout::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    m_document = std::make_unique<ui::document::ProjectDocument>();
    // Example 3: the categorical table and the moons with their network; a small lab.
    m_document->loadExample(ui::document::examples().at(2).project);
    auto p = m_document->gaussian();
    p.gammaSamples = 20;
    LabConfig even;
    even.name = "even";
    LabConfig karras;
    karras.name = "karras";
    karras.trajectory = "karras";
    LabConfig logsnr;
    logsnr.name = "logsnr, β̃";
    logsnr.trajectory = "logsnr";
    logsnr.variance = core::gaussian::ReverseVariance::Small;
    logsnr.sampler = core::gaussian::SamplerKind::Ddpm;
    p.lab.configs = {even, karras, logsnr};
    p.lab.ks = {5, 10, 25};
    p.lab.qualitySamples = 100;
    p.lab.nllPoints = 100;
    QVERIFY(m_document->setGaussian(p, "small lab"));
    m_categorical = std::make_unique<ui::CategoricalExplorer>(m_document.get());
    m_gaussian = std::make_unique<ui::GaussianExplorer>(m_document.get());
    m_gaussian->waitForJobs();
    m_gaussian->runLab();
    m_gaussian->waitForJobs();
    m_categorical->waitForJobs();
    m_categorical->setPosition(static_cast<double>(m_categorical->trajectory().size() - 1));
    m_views = m_categorical->views();
    std::erase_if(m_views, [](const auto& entry) { return entry.first == "decoding"; });
    m_maskedDocument = std::make_unique<ui::document::ProjectDocument>();
    auto masked = m_maskedDocument->categorical();
    masked.maskState = true;
    QVERIFY(m_maskedDocument->setCategorical(masked, "mask state"));
    m_masked = std::make_unique<ui::CategoricalExplorer>(m_maskedDocument.get());
    m_masked->waitForJobs();
    for (const auto& entry : m_masked->views()) {
        if (entry.first == "decoding") m_views.push_back(entry);
    }
    {
        const QString csv = m_dir.filePath("sixteen.csv");
        QFile file(csv);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("x1,x2,x3,x4,p\n");
        for (int i = 0; i < 16; ++i) {
            file.write(QString("%1,%2,%3,%4,%5\n")
                           .arg(i >> 3 & 1).arg(i >> 2 & 1).arg(i >> 1 & 1).arg(i & 1)
                           .arg((i % 5 + 1) / 46.0, 0, 'g', 17).toUtf8());
        }
        file.close();
        m_sixteenDocument = std::make_unique<ui::document::ProjectDocument>();
        auto sixteen = m_sixteenDocument->categorical().withNumClasses(2);
        sixteen.pi = {0.5, 0.5};
        sixteen.maskState = true;
        sixteen.conditionNames = {"all"};
        sixteen.dataSource = ui::document::CategoricalData::CsvFile;
        sixteen.csvPath = csv.toStdString();
        const core::Status set = m_sixteenDocument->setCategorical(sixteen, "sixteen sequences");
        QVERIFY2(set.ok(), set.ok() ? "" : set.error().toString().c_str());
        m_sixteen = std::make_unique<ui::CategoricalExplorer>(m_sixteenDocument.get());
        m_sixteen->waitForJobs();
        for (const auto& entry : m_sixteen->views()) {
            if (entry.first == "decoding") m_views.emplace_back("decoding-16", entry.second);
        }
    }
    {
        m_chainDocument = std::make_unique<ui::document::ProjectDocument>();
        auto text = ui::document::examples().at(6).project;
        text.categorical.decoding.configs.resize(2);
        text.categorical.decoding.chain.length = 48;
        text.categorical.decoding.chain.samples = 20;
        m_chainDocument->loadExample(text);
        m_chain = std::make_unique<ui::CategoricalExplorer>(m_chainDocument.get());
        m_chain->waitForJobs();
        for (const auto& entry : m_chain->views()) {
            if (entry.first == "decoding") m_views.emplace_back("decoding-chain", entry.second);
        }
    }
    for (const auto& entry : m_gaussian->views()) m_views.push_back(entry);
    QVERIFY2(m_views.size() >= 12, qPrintable(views(m_views)));
}

// A two-line title takes height that the grid does not give its row: the plot under it would be
// pushed over the next row's title, and a legend of several rows cut at the figure's bottom.
// Such parts are named in the refusal; at a size with room the figure is written.
void tst_FigureLayout::aPartCutByItsNeighboursIsRefused() {
    // Example 1's table with a mask state: argmax's infinite KL adds a legend entry.
    ui::document::ProjectDocument document;
    document.loadExample(ui::document::examples().at(0).project);
    auto masked = document.categorical();
    masked.maskState = true;
    QVERIFY(document.setCategorical(masked, "mask state"));
    ui::CategoricalExplorer explorer(&document);
    explorer.waitForJobs();
    ui::charts::ViewPanel* panel = nullptr;
    for (const auto& [name, v] : explorer.views()) {
        if (name == "decoding") panel = v;
    }
    QVERIFY(panel != nullptr);
    const QString path = m_dir.filePath("cut.svg");
    const QString error = ui::charts::exportWidget(
        panel, path, {.size = {*ui::charts::parseLength("12cm"), *ui::charts::parseLength("7cm")}});
    QVERIFY2(error.contains("does not fit") || error.contains("the plot of \"") ||
                 error.contains("the legend of \""),
             qPrintable(error));
    QVERIFY(!QFile::exists(path));
    QCOMPARE(ui::charts::exportWidget(
                 panel, path, {.size = {*ui::charts::parseLength("13cm"), *ui::charts::parseLength("9cm")}}),
             QString());
    for (auto* figure : panel->findChildren<ui::charts::FigureChart*>()) {
        if (figure->isVisibleTo(panel)) QCOMPARE(figure->squeezedParts(), QStringList());
    }
    // One figure given less height than its title and plot need together.
    auto* chart = new QChart;
    auto* series = new QLineSeries;
    series->append(0, 0);
    series->append(1, 1);
    chart->addSeries(series);
    chart->createDefaultAxes();
    ui::charts::FigureChart figure(chart);
    figure.setTitle("A title long enough to wrap to several lines in a narrow figure");
    figure.resize(160, 400);
    figure.layout()->activate();
    QCOMPARE(figure.squeezedParts(), QStringList());
    figure.resize(160, figure.view()->minimumHeight());
    figure.layout()->activate();
    QVERIFY2(figure.squeezedParts().join(' ').contains("the plot of \"A title long"),
             qPrintable(figure.squeezedParts().join(", ")));
}

// In the window: a legend laid out wide (one or two rows) that gains rows when its figure gets
// narrower is given their height, not the height it had (a Fixed policy capped it at its old
// size hint and cut the last row).
void tst_FigureLayout::aLegendGetsItsRowsWhenItsFigureNarrows() {
    auto* chart = new QChart;
    for (const char* name : {"data entropy H(p)", "ancestral", "confidence", "confidence, argmax", "margin",
                             "entropy", "random", "ancestral, N = 4"}) {
        auto* series = new QLineSeries;
        series->setName(name);
        series->append(0, 0);
        series->append(1, 1);
        chart->addSeries(series);
    }
    chart->createDefaultAxes();
    ui::charts::FigureChart figure(chart);
    figure.resize(900, 500);
    figure.sync();
    figure.show();
    QVERIFY(QTest::qWaitForWindowExposed(&figure));
    const int wide = figure.legend()->height();
    figure.resize(300, 500);
    QTest::qWait(50);
    QCoreApplication::processEvents();
    ui::charts::FigureLegend* legend = figure.legend();
    QVERIFY2(legend->heightForWidth(legend->width()) > wide,
             qPrintable(QString("%1 rows' height at 300 px, %2 at 900").arg(legend->heightForWidth(legend->width())).arg(wide)));
    QVERIFY2(legend->height() >= legend->heightForWidth(legend->width()),
             qPrintable(QString("legend %1 px high, its rows need %2").arg(legend->height()).arg(legend->heightForWidth(legend->width()))));
}

void tst_FigureLayout::cleanupTestCase() {
    m_chain.reset();
    m_chainDocument.reset();
    m_sixteen.reset();
    m_sixteenDocument.reset();
    m_masked.reset();
    m_maskedDocument.reset();
    m_gaussian.reset();
    m_categorical.reset();
    m_document.reset();
}

void tst_FigureLayout::everyViewFitsOrSaysWhy_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("width");
    QTest::addColumn<QString>("height");
    QTest::addColumn<double>("fontScale");
    QTest::addColumn<bool>("mustFit");
    // The views of one chart, and the Trajectories and Particles: a one-column figure.
    const QStringList single = {"trajectories", "schedule", "step-costs", "kernels", "particles",
                                "gamma", "variance", "gaussian-trajectory", "compare", "matrices"};
    for (const char* name : {"trajectories", "schedule", "step-costs", "matrices", "kernels", "particles",
                             "gamma", "variance", "gaussian-trajectory", "compare", "lab",
                             "decoding", "decoding-16", "decoding-chain"}) {
        const QString n = name;
        QTest::addRow("%s 8.5x6 1", name) << n << "8.5cm" << "6cm" << 1.0 << single.contains(n);
        QTest::addRow("%s 8.5x6 1.5", name) << n << "8.5cm" << "6cm" << 1.5 << false;
        // The lab's five charts take three rows: a two-column figure 13 cm high.
        const int high = n == "lab" ? 13 : 11;
        const QString height = QString("%1cm").arg(high);
        QTest::addRow("%s 17x%d 1", name, high) << n << "17cm" << height << 1.0 << true;
        QTest::addRow("%s 17x%d 1.5", name, high) << n << "17cm" << height << 1.5
                                                  << single.contains(n);
        // The least font scale: small type must not crowd the tick labels into "...".
        QTest::addRow("%s 17x%d 0.5", name, high) << n << "17cm" << height << 0.5 << true;
        QTest::addRow("%s 8.5x6 0.5", name) << n << "8.5cm" << "6cm" << 0.5 << single.contains(n);
    }
}

void tst_FigureLayout::everyViewFitsOrSaysWhy() {
    QFETCH(QString, name);
    QFETCH(QString, width);
    QFETCH(QString, height);
    QFETCH(double, fontScale);
    QFETCH(bool, mustFit);
    ui::charts::ViewPanel* panel = view(name);
    QVERIFY2(panel != nullptr, qPrintable(name + " not in " + views(m_views)));
    const QSize size(*ui::charts::parseLength(width), *ui::charts::parseLength(height));
    const QString path = m_dir.filePath(QString("%1-%2-%3.svg").arg(name, width).arg(fontScale));
    QFile::remove(path);
    const QString error = ui::charts::exportWidget(panel, path, {.size = size, .fontScale = fontScale});
    if (!error.isEmpty()) {
        QVERIFY2(!mustFit, qPrintable(error));
        // The refusal says what does not fit, at which size, and writes nothing.
        QVERIFY2(error.contains("cannot show") || error.contains("does not fit"), qPrintable(error));
        QVERIFY2(error.contains(QString::number(fontScale)), qPrintable(error));
        // At the least font scale, only a larger size can help.
        QVERIFY2(error.contains("font scale smaller") == (fontScale > 0.5), qPrintable(error));
        // No size is named but the asked one and the one that fits (a layout's minimum size was
        // named once, and a figure laid out at it still shortened a text).
        QCOMPARE(error.count(" cm"), error.contains("it fits at") ? 2 : 1);
        QVERIFY(!QFile::exists(path));
        // The size the refusal names is one that fits.
        const QRegularExpressionMatch fits =
            QRegularExpression("it fits at ([0-9.]+) × ([0-9.]+) cm").match(error);
        if (fits.hasMatch()) {
            const QSize named(*ui::charts::parseLength(fits.captured(1) + "cm"),
                              *ui::charts::parseLength(fits.captured(2) + "cm"));
            QCOMPARE(ui::charts::exportWidget(panel, path, {.size = named, .fontScale = fontScale}), QString());
            QVERIFY(QFile::remove(path));
        }
        return;
    }
    const QStringList texts = svgTexts(path);
    QVERIFY2(!texts.isEmpty(), qPrintable(path));
    for (const QString& text : texts) {
        QVERIFY2(!text.contains("...") && !text.contains(QChar(0x2026)),
                 qPrintable(QString("%1: \"%2\" was shortened").arg(path, text)));
    }
    // Every word, where the text is drawn in runs (a subscript in another font is a run of its
    // own): spaces do not count.
    const QString all = texts.join(QString()).remove(' ');
    for (const QString& word : expectedWords(panel)) {
        QVERIFY2(all.contains(QString(word).remove(' ')),
                 qPrintable(QString("%1: the word \"%2\" is missing").arg(path, word)));
    }
}

// The legend's keys are the series' own: the kernel comparison's bars and the variance's band
// are filled with their brush, not drawn as empty boxes.
void tst_FigureLayout::legendKeysDrawTheSeriesBrush() {
    for (const char* name : {"kernels", "variance"}) {
        auto* panel = qobject_cast<ui::charts::ChartPanel*>(view(name));
        QVERIFY(panel != nullptr);
        ui::charts::FigureLegend* legend = panel->figure()->legend();
        const QString png = m_dir.filePath(QString("legend-%1.png").arg(name));
        QCOMPARE(ui::charts::exportWidget(panel, png, {.size = {640, 420}}), QString());
        // The legend's own rendering: every filled key has pixels of its brush's colour.
        legend->resize(400, legend->heightForWidth(400));
        QVERIFY2(legend->height() > 0, qPrintable(legend->labels().join(", ")));
        QImage image(legend->size(), QImage::Format_RGB32);
        image.fill(Qt::white);
        legend->render(&image, QPoint(), QRegion(), QWidget::DrawChildren);
        std::vector<std::pair<QString, QColor>> fills;
        for (QAbstractSeries* series : panel->chart()->series()) {
            if (auto* area = qobject_cast<QAreaSeries*>(series); area != nullptr && !series->name().isEmpty()) {
                fills.emplace_back(series->name(), area->brush().color());
            }
            if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
                for (QBarSet* set : bars->barSets()) fills.emplace_back(set->label(), set->brush().color());
            }
        }
        QVERIFY(!fills.empty());
        for (const auto& [label, colour] : fills) {
            // A translucent fill over white.
            const double a = colour.alphaF();
            const QColor over = QColor::fromRgbF(static_cast<float>(colour.redF() * a + (1 - a)),
                                                 static_cast<float>(colour.greenF() * a + (1 - a)),
                                                 static_cast<float>(colour.blueF() * a + (1 - a)));
            int found = 0;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    found += std::abs(c.red() - over.red()) < 12 && std::abs(c.green() - over.green()) < 12 &&
                             std::abs(c.blue() - over.blue()) < 12;
                }
            }
            QVERIFY2(found > 20, qPrintable(QString("%1: the key of \"%2\" is not filled").arg(name, label)));
        }
    }
    // The kernel comparison's bar sets, by their brushes.
    auto* kernels = qobject_cast<ui::views::KernelComparisonView*>(view("kernels"));
    QVERIFY(kernels != nullptr);
    QVERIFY(kernels->figure()->legend()->labels().size() >= 3);
}

// The NLL against K of the Trajectory view is computed on request: before that, its export
// leaves the empty chart out (no title, no legend) instead of drawing it empty.
void tst_FigureLayout::anEmptyChartIsLeftOut() {
    auto* trajectory = qobject_cast<ui::views::GaussianTrajectoryView*>(view("gaussian-trajectory"));
    QVERIFY(trajectory != nullptr);
    const QString svg = m_dir.filePath("trajectory.svg");
    QCOMPARE(ui::charts::exportWidget(trajectory, svg, {.size = {800, 600}}), QString());
    const QString all = svgTexts(svg).join(' ');
    QVERIFY2(!all.contains("Negative ELBO"), qPrintable(all));
    QVERIFY(all.contains("DP-optimal"));
    // On screen too it waits for its curves (the button beside it computes them), leaving the
    // room to the rows and the heatmap.
    const auto figures = trajectory->findChildren<ui::charts::FigureChart*>();
    QCOMPARE(figures.size(), qsizetype{1});
    QVERIFY(figures.front()->isHidden());
}

// A PDF keeps its words as text (embedded fonts with a ToUnicode map): pdftotext reads the
// title and the axis titles back.
void tst_FigureLayout::thePdfCarriesItsText() {
    const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
    if (pdftotext.isEmpty()) QSKIP("pdftotext (poppler-utils) is not installed");
    const QString pdf = m_dir.filePath("variance.pdf");
    QCOMPARE(ui::charts::exportWidget(view("variance"), pdf, {.size = {454, 302}}), QString());
    QProcess process;
    process.start(pdftotext, {pdf, "-"});
    QVERIFY(process.waitForFinished(20000));
    const QString text = QString::fromUtf8(process.readAllStandardOutput());
    for (const char* word : {"Optimal", "reverse", "variance", "bounds", "(Theorem", "timestep"}) {
        QVERIFY2(text.contains(word), qPrintable(QString("%1 not in: %2").arg(word, text)));
    }
}

QTEST_MAIN(tst_FigureLayout)
#include "tst_figure_layout.moc"
