// SPDX-License-Identifier: MIT
// Tests of the Compare view (its curves are tested in tests/core/tst_compare_curves): the view
// follows the document, draws something, exports its columns and shows an error instead of
// crashing on a bad schedule.
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <vector>

#include "core/data/digits.h"
#include "core/io/csv.h"
#include "core/project/compare_curves.h"
#include "core/schedule/gaussian_schedule.h"
#include "tests/support/test_support.h"
#include "tests/support/project_choices.h"
#include "ui/charts/palette.h"
#include "ui/document/bundled_data.h"
#include "ui/document/project_model.h"
#include "ui/document/project_document.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/views/compare_view.h"

using ui::document::CategoricalParams;
using ui::document::GaussianParams;

namespace {

int countColour(const QImage& image, const QColor& colour) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green()) +
                    std::abs(c.blue() - colour.blue()) <
                60) {
                ++n;
            }
        }
    }
    return n;
}

}  // namespace

class tst_CompareView : public QObject {
    Q_OBJECT

private slots:
    void followsTheDocument();
    void rendersAndExports();
    void badScheduleShowsAnError();
};

namespace {

// What the explorer's job computes for the view.
core::Result<ui::views::CompareCurves> curvesOf(const CategoricalParams& categorical,
                                                const GaussianParams& gaussian) {
    const auto& digits = ui::document::bundledDigits();
    if (!digits) return digits.error();
    return core::project::computeCompareCurves(categorical, gaussian, *digits);
}

}  // namespace

void tst_CompareView::followsTheDocument() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    explorer.cancelJobs();  // Γ is not needed here
    bool listed = false;
    for (const auto& [name, view] : explorer.views()) {
        listed = listed || (name == "compare" && view == explorer.compareView());
    }
    QVERIFY(listed);
    auto* view = explorer.compareView();
    explorer.compareRunner()->waitForFinished();  // computed off the GUI thread
    QCOMPARE(static_cast<int>(view->curves().gaussian.size()), document.gaussian().numSteps + 1);
    QCOMPARE(view->curves().levels, 4);
    const auto before = view->curves().categorical;
    // A categorical edit: the digits at 8 levels with a linear schedule.
    CategoricalParams c = document.categorical().withDigits(8);
    c.schedule = test_support::categoricalSchedule("linear");
    QVERIFY(document.setCategorical(c, "digits").ok());
    explorer.compareRunner()->waitForFinished();
    QCOMPARE(view->curves().levels, 8);
    QVERIFY(view->curves().categorical != before);
    // A Gaussian edit: N.
    GaussianParams g = document.gaussian();
    g.numSteps = 300;
    QVERIFY(document.setGaussian(g, "N").ok());
    explorer.compareRunner()->waitForFinished();
    QCOMPARE(static_cast<int>(view->curves().gaussian.size()), 301);
    document.undoStack()->undo();
    explorer.compareRunner()->waitForFinished();
    QCOMPARE(static_cast<int>(view->curves().gaussian.size()), 1001);
    explorer.cancelJobs();
}

void tst_CompareView::rendersAndExports() {
    ui::views::CompareView view;
    view.showCurves(curvesOf(CategoricalParams::example(), GaussianParams{}), {});
    view.resize(900, 600);
    const QImage image = view.grab().toImage();
    QVERIFY(!image.isNull());
    // Both curves are drawn in their colours (coarse pixel counts, tst_qareaseries style).
    QVERIFY2(countColour(image, ui::charts::palette::kCategorical) > 200, "no categorical curve");
    QVERIFY2(countColour(image, ui::charts::palette::kGaussian) > 200, "no Gaussian curve");
    QTemporaryDir dir;
    const QString path = dir.filePath("compare.csv");
    QCOMPARE(view.exportCsv(path), QString());
    // One long table: a row per point of each process, each on its own time grid.
    const auto table = core::io::readCsv(path.toStdString());
    QVERIFY(table.ok());
    QCOMPARE(table->header,
             (std::vector<std::string>{"process", "t", "fraction_left", "information_nats", "snr"}));
    int categorical = 0, gaussian = 0;
    for (const auto& row : table->rows) {
        categorical += row[0] == "categorical";
        gaussian += row[0] == "gaussian";
    }
    QCOMPARE(categorical, core::project::kCategoricalPoints + 1);
    QCOMPARE(gaussian, 1001);  // n = 0..N
}

void tst_CompareView::badScheduleShowsAnError() {
    ui::views::CompareView view;
    GaussianParams g;
    g.schedule = "nonsense";
    view.showCurves(curvesOf(CategoricalParams::example(), g), {});
    QVERIFY(view.message().contains("nonsense"));
    QVERIFY(view.data().columns.empty());
    // And recovers with a good one.
    view.showCurves(curvesOf(CategoricalParams::example(), GaussianParams{}), {});
    QVERIFY(!view.data().columns.empty());
    QVERIFY(!view.message().contains("nonsense"));
}

QTEST_MAIN(tst_CompareView)
#include "tst_compare_view.moc"
