// SPDX-License-Identifier: MIT
// Tests of the Gaussian Particles view: the sampler settings round-trip and validate;
// both panes start from the same noise and end where core::gaussian::sampleReverse ends; the
// forward frames follow q(x_n|x_0); the view paints; d = 64 shows images; changing only the
// sampler reuses Γ.
#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QImageReader>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QWheelEvent>
#include <QApplication>
#include <QTest>

#include <cmath>

#include "core/data/gaussian_data.h"
#include "core/model/oracle_specs.h"
#include "core/gaussian/sampler.h"
#include "tests/support/project_choices.h"
#include "ui/document/project_document.h"
#include "ui/main/gaussian_explorer.h"
#include "ui/views/variance_view.h"
#include "ui/panels/gaussian_panel.h"
#include "ui/views/particles_view.h"
#include "ui/animation/animation_dialog.h"
#include "ui/animation/animation_export.h"
#include "ui/charts/chart_export.h"
#include "tests/support/test_support.h"

using ui::document::GaussianParams;

namespace {

// Small enough for the sanitizer build: N = 100, M = 30, K = 8.
GaussianParams smallParams() {
    GaussianParams p;
    p.numSteps = 100;
    p.gammaSamples = 30;
    p.pathSteps = 8;
    p.data = "gaussian:d=2,s=0.5";
    p.particleCount = 300;
    return p;
}

// Pixels that differ from the white background.
int inkedPixels(const QImage& image) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            if (image.pixel(x, y) != qRgb(255, 255, 255)) ++count;
        }
    }
    return count;
}

}  // namespace

class tst_ParticlesView : public QObject {
    Q_OBJECT

private slots:
    void paramsRoundTrip();
    void paramsValidate_data();
    void paramsValidate();
    void panesShareNoiseAndMatchTheCore_data();
    void panesShareNoiseAndMatchTheCore();
    void forwardFramesFollowTheMarginal();
    void trailingTrajectoryStartsLate();
    void rendersNonBlank();
    void exportsAnAnimationForSlides();
    void playerStepsAndStopsAtTheEnd();
    void imageDataShowsAGrid();
    void onlySamplerChangeReusesGamma();
    void cancelStopsTheParticlesPromptly();
    void panelEditsTheSampler();
    void zoomsPansAndReadsOut();
};

void tst_ParticlesView::paramsRoundTrip() {
    GaussianParams p = smallParams();
    p.sampler = test_support::samplerKind("analytic-ddim");
    p.compareSampler.reset();
    p.clipFirst = false;
    p.particleCount = 20000;
    const auto back = GaussianParams::fromJson(p.toJson());
    DS_VERIFY_OK(back);
    QVERIFY(*back == p);
    // The new fields are optional on read: an older project gets the defaults.
    core::io::Json old = p.toJson();
    for (const char* key : {"sampler", "compareSampler", "clipFirst", "particleCount"}) {
        old.erase(key);
    }
    const auto defaults = GaussianParams::fromJson(old);
    DS_VERIFY_OK(defaults);
    QVERIFY(defaults->sampler == test_support::samplerKind("analytic-ddpm"));
    QVERIFY(defaults->compareSampler == test_support::samplerKind("ddpm"));
    QCOMPARE(defaults->clipFirst, true);
    QCOMPARE(defaults->particleCount, 500);
    core::io::Json wrongType = p.toJson();
    wrongType["clipFirst"] = "yes";
    QVERIFY(!GaussianParams::fromJson(wrongType).ok());
    wrongType = p.toJson();
    wrongType["particleCount"] = 2.5;
    QVERIFY(!GaussianParams::fromJson(wrongType).ok());
}

void tst_ParticlesView::paramsValidate_data() {
    QTest::addColumn<QString>("sampler");
    QTest::addColumn<QString>("compareSampler");
    QTest::addColumn<int>("particles");
    QTest::addColumn<QString>("field");  // empty: valid
    QTest::newRow("defaults") << "analytic-ddpm" << "ddpm" << 500 << "";
    QTest::newRow("ddim vs none") << "ddim" << "none" << 1 << "";
    QTest::newRow("most particles") << "ddpm" << "analytic-ddim" << 20000 << "";
    QTest::newRow("unknown sampler") << "euler" << "ddpm" << 500 << "sampler";
    QTest::newRow("none is no sampler A") << "none" << "ddpm" << 500 << "sampler";
    QTest::newRow("unknown compare") << "ddpm" << "heun" << 500 << "compareSampler";
    QTest::newRow("no particles") << "ddpm" << "ddpm" << 0 << "particleCount";
    QTest::newRow("too many particles") << "ddpm" << "ddpm" << 20001 << "particleCount";
}

void tst_ParticlesView::paramsValidate() {
    QFETCH(QString, sampler);
    QFETCH(QString, compareSampler);
    QFETCH(int, particles);
    QFETCH(QString, field);
    // The samplers are enums: a name that is none of them can only come from a file, whose
    // reader refuses it naming the field and the value.
    GaussianParams p = smallParams();
    p.particleCount = particles;
    core::io::Json json = p.toJson();
    json["sampler"] = sampler.toStdString();
    json["compareSampler"] = compareSampler.toStdString();
    const auto read = GaussianParams::fromJson(json);
    if (field.isEmpty()) {
        DS_VERIFY_OK(read);
        DS_VERIFY_OK(read->validate());
        return;
    }
    QVERIFY(!read.ok());
    QCOMPARE(QString::fromStdString(read.error().field), "gaussian." + field);
    if (field != "particleCount") {
        QVERIFY(read.error().value.find((field == "sampler" ? sampler : compareSampler).toStdString()) !=
                std::string::npos);
    }
}

void tst_ParticlesView::panesShareNoiseAndMatchTheCore_data() {
    QTest::addColumn<QString>("samplerA");
    QTest::addColumn<QString>("samplerB");
    QTest::addColumn<double>("eta");
    QTest::addColumn<bool>("clip");
    QTest::newRow("analytic-ddpm vs ddpm") << "analytic-ddpm" << "ddpm" << 1.0 << true;
    QTest::newRow("analytic-ddim vs ddim, eta 0") << "analytic-ddim" << "ddim" << 0.0 << false;
    QTest::newRow("ddim eta 0.5 vs analytic-ddpm") << "ddim" << "analytic-ddpm" << 0.5 << true;
    QTest::newRow("dpm-solver++2m vs dpm-solver-1") << "dpm-solver++2m" << "dpm-solver-1" << 0.0
                                                   << false;
    QTest::newRow("dpm-solver++3m vs ddim") << "dpm-solver++3m" << "ddim" << 0.0 << false;
}

void tst_ParticlesView::panesShareNoiseAndMatchTheCore() {
    QFETCH(QString, samplerA);
    QFETCH(QString, samplerB);
    QFETCH(double, eta);
    QFETCH(bool, clip);
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    GaussianParams p = smallParams();
    p.sampler = test_support::samplerKind(samplerA);
    p.compareSampler = test_support::samplerKind(samplerB);
    p.eta = eta;
    p.clipFirst = clip;
    p.seed = 7;
    QVERIFY(document.setGaussian(p, "small").ok());
    explorer.waitForJobs();
    const auto results = explorer.results();
    QVERIFY(results != nullptr && results->params == p);
    ui::views::ParticlesView* view = explorer.particlesView();
    QVERIFY2(view->frames() != nullptr, qPrintable(view->message()));
    QVERIFY(view->comparing());
    const int k = static_cast<int>(results->trajectory.timesteps.size());
    QCOMPARE(view->frameCount(), 2 * (k + 1));
    // Frame k + 1 is the first reverse frame, x_{τ_K}: the same noise in both panes.
    view->setFrame(k + 1);
    QCOMPARE(view->frameLabel(), QString("reverse n = %1").arg(results->trajectory.timesteps.back()));
    const core::Matrix* startA = view->particles(0, k + 1);
    const core::Matrix* startB = view->particles(1, k + 1);
    QVERIFY(startA != nullptr && startB != nullptr);
    QCOMPARE(startA->cols(), Eigen::Index{300});
    QVERIFY(*startA == *startB);
    // The final samples equal the core sampler called directly, from an oracle built here, the
    // explorer's Γ and trajectory, and the parameters spelled out (F.2 clip with y = 1).
    auto oracle = core::model::gaussianOracleFromSpec("gaussian:d=2,s=0.5");
    DS_VERIFY_OK(oracle);
    const auto& data = view->data();
    QCOMPARE(data.header, (std::vector<std::string>{"sample", "x", "y"}));
    QCOMPARE(data.columns[0].size(), size_t{600});
    for (int pane = 0; pane < 2; ++pane) {
        const QString name = pane == 0 ? samplerA : samplerB;
        auto kind = core::gaussian::parseSamplerKind(name.toStdString());
        DS_VERIFY_OK(kind);
        core::gaussian::SamplerParams direct{.kind = *kind,
                                             .eta = eta,
                                             .clipFirst = clip ? 1.0 : 0.0,
                                             .count = 300,
                                             .seed = 7};
        auto expected = core::gaussian::sampleReverse(**oracle, results->schedule, results->gamma,
                                                      results->trajectory.timesteps, direct);
        DS_VERIFY_OK(expected);
        const core::Matrix* last = view->particles(pane, view->frameCount() - 1);
        QVERIFY(last != nullptr);
        QVERIFY(*last == expected->samples);
        // CSV export: a row per final sample of this pane, after the other pane's.
        for (int b = 0; b < 300; ++b) {
            const size_t row = static_cast<size_t>(pane * 300 + b);
            QCOMPARE(QString::fromStdString(data.text[0][row]), QString(pane == 0 ? "A" : "B"));
            QCOMPARE(QString::fromStdString(data.text[1][row]), name);
            QCOMPARE(data.columns[0][row], static_cast<double>(b));
            QCOMPARE(data.columns[1][row], expected->samples(0, b));
            QCOMPARE(data.columns[2][row], expected->samples(1, b));
        }
    }
}

void tst_ParticlesView::forwardFramesFollowTheMarginal() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    GaussianParams p = smallParams();
    p.particleCount = 20000;
    p.trajectory = ui::document::GaussianTrajectory::Even;
    QVERIFY(document.setGaussian(p, "many particles").ok());
    explorer.waitForJobs();
    const auto results = explorer.results();
    ui::views::ParticlesView* view = explorer.particlesView();
    QVERIFY2(view->frames() != nullptr, qPrintable(view->message()));
    const auto& forward = view->frames()->forward;
    QCOMPARE(forward.frameSteps.front(), 0);
    QCOMPARE(forward.frameSteps.back(), 100);
    for (size_t f = 0; f < forward.frames.size(); ++f) {
        const int n = forward.frameSteps[f];
        const core::Matrix& x = forward.frames[f];
        QCOMPARE(x.cols(), Eigen::Index{20000});
        // q(x_n) = N(0, (ᾱ_n·0.25 + β̄_n) I) for data N(0, 0.5² I)
        // (docs/gaussian.md#exact-oracles). Pooling both coordinates gives M = 40000 independent
        // values: the sample variance has relative standard error √(2/(M − 1)) ≈ 0.0071 and the
        // mean standard error √(v/M); allow 5 of each.
        const double v = results->schedule.alphaBar(n) * 0.25 + results->schedule.betaBar(n);
        const double m = static_cast<double>(x.size());
        const double mean = x.mean();
        const double variance = (x.array() - mean).square().sum() / (m - 1.0);
        DS_COMPARE_ABS(mean, 0.0, 5.0 * std::sqrt(v / m));
        DS_COMPARE_ABS(variance / v, 1.0, 5.0 * std::sqrt(2.0 / (m - 1.0)));
    }
    // Every particle moves continuously: consecutive frames are correlated, not redrawn.
    const core::Matrix& a = forward.frames[1];
    const core::Matrix& b = forward.frames[2];
    const double correlation = ((a.array() - a.mean()) * (b.array() - b.mean())).mean() /
                               std::sqrt((a.array() - a.mean()).square().mean() *
                                         (b.array() - b.mean()).square().mean());
    QVERIFY2(correlation > 0.5, qPrintable(QString::number(correlation)));
}

// trailing:8 on N = 100 (N/K = 12.5, rounded half to even): n = 12, 25, 38, …, 100. The
// forward frames skip n = 1 (0, τ_1, …, τ_K, as the reverse ones), the reverse samplers end with
// x̂_0 from x_12, and the Variance view's message says where the trajectory starts.
void tst_ParticlesView::trailingTrajectoryStartsLate() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    GaussianParams p = smallParams();
    p.trajectory = ui::document::GaussianTrajectory::Trailing;
    QVERIFY(document.setGaussian(p, "trailing").ok());
    explorer.waitForJobs();
    const auto results = explorer.results();
    QVERIFY(results != nullptr);
    QCOMPARE(results->trajectory.timesteps, (std::vector<int>{12, 25, 38, 50, 62, 75, 88, 100}));
    ui::views::ParticlesView* view = explorer.particlesView();
    QVERIFY2(view->frames() != nullptr, qPrintable(view->message()));
    const auto& forward = view->frames()->forward;
    QCOMPARE(forward.frameSteps, (std::vector<int>{0, 12, 25, 38, 50, 62, 75, 88, 100}));
    QCOMPARE(forward.frames.size(), forward.frameSteps.size());
    QCOMPARE(view->frames()->reverseA.frameSteps,
             (std::vector<int>{100, 88, 75, 62, 50, 38, 25, 12, 0}));
    QVERIFY2(explorer.varianceView()->message().contains("starts at n = 12"),
             qPrintable(explorer.varianceView()->message()));
}

void tst_ParticlesView::rendersNonBlank() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    QVERIFY(document.setGaussian(smallParams(), "small").ok());
    explorer.waitForJobs();
    ui::views::ParticlesView* view = explorer.particlesView();
    view->resize(900, 600);
    for (int frame : {0, view->frameCount() / 2, view->frameCount() - 1}) {
        view->setFrame(frame);
        const QImage image = view->grab().toImage();
        // Density, axes and dots: well over 2% of the pixels.
        QVERIFY2(inkedPixels(image) > image.width() * image.height() / 50,
                 qPrintable(QString::number(inkedPixels(image))));
    }
    // Pane B drawn in red: present when comparing, gone with compareSampler = none.
    auto redPixels = [&] {
        const QImage image = view->grab().toImage();
        int count = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                if (c.red() > c.green() + 60 && c.red() > c.blue() + 60) ++count;
            }
        }
        return count;
    };
    QVERIFY(redPixels() > 100);
    GaussianParams p = smallParams();
    p.compareSampler.reset();
    QVERIFY(document.setGaussian(p, "none").ok());
    explorer.waitForJobs();
    QVERIFY(!view->comparing());
    QVERIFY(view->particles(1, view->frameCount() - 1) == nullptr);
    // The CSV: sample, x, y, and pane A only.
    QCOMPARE(view->data().columns.size(), size_t{3});
    QCOMPARE(std::count(view->data().text[0].begin(), view->data().text[0].end(), "A"),
             static_cast<long>(view->data().text[0].size()));
    QCOMPARE(redPixels(), 0);
}

// The Particles view zooms and pans like every chart and reads out the particle under the
// cursor: Ctrl+wheel about the cursor, a pan that stops at the axes' full range, double-click
// back to everything.
void tst_ParticlesView::zoomsPansAndReadsOut() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    QVERIFY(document.setGaussian(smallParams(), "small").ok());
    explorer.waitForJobs();
    ui::views::ParticlesView* view = explorer.particlesView();
    view->resize(900, 600);
    view->setFrame(view->frameCount() - 1);
    (void)view->grab();  // lays the panes out
    const QRectF full = view->visibleWindow();
    QVERIFY(full.width() >= 6.0);  // ±3 at least
    QWidget* canvas = view->canvas();
    // The centre of pane A's plot: about the data's (0, 0).
    const QPointF centre(canvas->width() / 4.0, canvas->height() / 2.0);
    QWheelEvent wheel(centre, canvas->mapToGlobal(centre), {}, QPoint(0, 3 * 120), Qt::NoButton,
                      Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(canvas, &wheel);
    const QRectF zoomed = view->visibleWindow();
    QVERIFY2(std::abs(zoomed.width() - full.width() / std::pow(1.25, 3)) < 1e-9,
             qPrintable(QString::number(zoomed.width())));
    // A pan far to the left stops at the full range's edge.
    view->panBy(QPointF(5000, 0));
    QCOMPARE(view->visibleWindow().left(), full.left());
    // The readout names the pane and the nearest particle's coordinates.
    const core::Matrix* x = view->particles(0, view->frameCount() - 1);
    QVERIFY(x != nullptr);
    view->resetZoom();
    (void)view->grab();
    QString text;
    // Scan pane A for a readout: some pixel lies within reach of a particle.
    for (int py = 0; py < canvas->height() && text.isEmpty(); py += 6) {
        for (int px = 0; px < canvas->width() / 2 && text.isEmpty(); px += 6) {
            text = view->readoutAt(QPointF(px, py));
        }
    }
    QVERIFY2(text.startsWith("A (") && text.contains("x = ") && text.contains("y = "), qPrintable(text));
    // Its coordinates are one of the particles', to the printed digits.
    const double u = text.section("x = ", 1).section(',', 0, 0).toDouble();
    bool matches = false;
    for (Eigen::Index b = 0; b < x->cols(); ++b) {
        matches = matches || std::abs((*x)(0, b) - u) <= 5e-4 * std::max(1.0, std::abs(u));
    }
    QVERIFY2(matches, qPrintable(text));
    QTest::mouseDClick(canvas, Qt::LeftButton, Qt::NoModifier, centre.toPoint());
    QCOMPARE(view->visibleWindow(), full);
}

// File ▸ Export animation on the Gaussian side: the Particles frames (one per sampler step, no
// in-between frames), drawn as a figure without the Play button or the slider; the dialog's
// preview follows its fields.
void tst_ParticlesView::exportsAnAnimationForSlides() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    QVERIFY(document.setGaussian(smallParams(), "small").ok());
    explorer.waitForJobs();
    ui::views::ParticlesView* view = explorer.particlesView();
    view->setFrame(2);
    const ui::animation::AnimationSource source = ui::animation::particlesAnimation(view);
    QCOMPARE(source.steps, view->frameCount() - 1);
    QVERIFY(!source.glides);
    QTemporaryDir dir;
    const QString gif = dir.filePath("particles.gif");
    const ui::animation::AnimationExportOptions options{
        .size = {480, 300}, .framesPerStep = 4, .fps = 10, .holdLastMs = 0};
    QCOMPARE(ui::animation::exportAnimationGif(source, gif, options), QString());
    QImageReader reader(gif);
    QCOMPARE(reader.imageCount(), view->frameCount());  // framesPerStep ignored: no gliding
    QCOMPARE(view->frame(), 2);  // restored
    // The first frame is the figure alone: the same as the view rendered without controls,
    // different from the view with its Play button.
    ui::charts::FigureRenderer renderer(view, options.size);
    view->setFrame(0);
    const QImage figure = renderer.render();
    const QImage first = reader.read().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(reader.nextImageDelay(), 100);  // 10 frames/s
    QCOMPARE(first.size(), figure.size());
    int differing = 0;
    for (int y = 0; y < figure.height(); ++y) {
        for (int x = 0; x < figure.width(); ++x) {
            const QColor a = figure.pixelColor(x, y), b = first.pixelColor(x, y);
            // The GIF's 252-colour palette moves a channel by at most 26.
            if (std::abs(a.red() - b.red()) > 26 || std::abs(a.green() - b.green()) > 26 ||
                std::abs(a.blue() - b.blue()) > 26) {
                ++differing;
            }
        }
    }
    QVERIFY2(differing == 0, qPrintable(QString::number(differing)));
    for (QPushButton* button : view->findChildren<QPushButton*>()) {
        QVERIFY2(!button->isVisibleTo(view), qPrintable(button->text()));  // while rendering
    }

    ui::animation::AnimationDialog dialog(source, "Particles");
    QVERIFY(!dialog.framesPerStepBox()->isEnabled());
    dialog.fpsBox()->setValue(10);
    dialog.holdBox()->setValue(1.0);
    const int frames = view->frameCount();
    QVERIFY2(dialog.preview().startsWith(QString("%1 frames · %2 s").arg(frames).arg((frames * 10 + 100) / 100.0, 0, 'f', 1)),
             qPrintable(dialog.preview()));
}

// The player's controls: one frame back or on (pausing), a speed, and play that stops on the
// last frame when looping is off and starts from the first when played again.
void tst_ParticlesView::playerStepsAndStopsAtTheEnd() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    QVERIFY(document.setGaussian(smallParams(), "small").ok());
    explorer.waitForJobs();
    ui::views::ParticlesView* view = explorer.particlesView();
    const int last = view->frameCount() - 1;
    view->setFrame(3);
    view->stepBy(1);
    QCOMPARE(view->frame(), 4);
    view->stepBy(-10);
    QCOMPARE(view->frame(), 0);  // clamped, not wrapped
    view->setSpeed(4.0);
    QCOMPARE(view->speed(), 4.0);
    view->setLooping(false);
    view->setFrame(last - 2);
    view->setPlaying(true);
    view->stepBy(0);  // a step pauses
    QVERIFY(!view->isPlaying());
    view->setPlaying(true);
    QTRY_VERIFY_WITH_TIMEOUT(!view->isPlaying(), 5000);
    QCOMPARE(view->frame(), last);
    view->setPlaying(true);  // again: from the start
    QVERIFY(view->frame() < last);
    view->setPlaying(false);
}

void tst_ParticlesView::imageDataShowsAGrid() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    GaussianParams p = smallParams();
    p.data = "gaussian:d=64,s=0.5";
    QVERIFY(document.setGaussian(p, "d = 64").ok());
    explorer.waitForJobs();
    ui::views::ParticlesView* view = explorer.particlesView();
    QVERIFY2(view->frames() != nullptr, qPrintable(view->message()));
    QVERIFY(view->showsImages());
    const core::Matrix* last = view->particles(0, view->frameCount() - 1);
    QVERIFY(last != nullptr);
    QCOMPARE(last->rows(), Eigen::Index{64});
    QCOMPARE(last->cols(), Eigen::Index{ui::jobs::kMaxParticleImages});
    // The CSV: a row per (pane, sample) with the sample's 64 values.
    QCOMPARE(view->data().columns.size(), size_t{65});
    QCOMPARE(QString::fromStdString(view->data().header[64]), QString("x64"));
    QCOMPARE(QString::fromStdString(view->data().text[1].front()), QString("analytic-ddpm"));
    QCOMPARE(view->data().columns[64].front(), (*last)(63, 0));
    view->resize(900, 600);
    const QImage image = view->grab().toImage();
    // 36 images of 8×8 grey cells per pane: many mid-grey pixels.
    int grey = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.red() == c.green() && c.green() == c.blue() && c.red() > 20 && c.red() < 235) {
                ++grey;
            }
        }
    }
    QVERIFY2(grey > image.width() * image.height() / 10, qPrintable(QString::number(grey)));
}

void tst_ParticlesView::onlySamplerChangeReusesGamma() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    QVERIFY(document.setGaussian(smallParams(), "small").ok());
    explorer.waitForJobs();
    const auto first = explorer.results();
    QVERIFY(first != nullptr && first->particles != nullptr);
    QSignalSpy started(explorer.runner(), &ui::jobs::JobRunner::started);
    for (auto edit : {+[](GaussianParams& p) { p.sampler = test_support::samplerKind("ddpm"); },
                      +[](GaussianParams& p) { p.compareSampler = test_support::samplerKind("analytic-ddim"); },
                      +[](GaussianParams& p) { p.clipFirst = false; },
                      +[](GaussianParams& p) { p.particleCount = 50; }}) {
        GaussianParams p = document.gaussian();
        edit(p);
        QVERIFY(document.setGaussian(p, "sampler").ok());
        explorer.waitForJobs();
        const auto next = explorer.results();
        QVERIFY(next != first && next->params == p);
        QVERIFY(next->gammaReused);
        QVERIFY(next->data == first->data);  // the same job result, not rebuilt
        QCOMPARE(next->estimate.gamma, first->estimate.gamma);
        QVERIFY(next->particles != nullptr && next->particles != first->particles);
    }
    // Only the particles were sampled again: no Γ, trajectory or variance job ran.
    QCOMPARE(started.count(), 4);
    for (const auto& arguments : started) {
        QCOMPARE(arguments.at(0).toString(), QString("Particles"));
    }
    QCOMPARE(explorer.particlesView()->frames()->count, 50);
    QCOMPARE(explorer.particlesView()->frames()->samplerA, std::string("ddpm"));
    // The data changing does estimate Γ again.
    GaussianParams p = document.gaussian();
    p.data = "gaussian:d=2,s=0.3";
    QVERIFY(document.setGaussian(p, "data").ok());
    explorer.waitForJobs();
    QVERIFY(!explorer.results()->gammaReused);
}

void tst_ParticlesView::cancelStopsTheParticlesPromptly() {
    ui::document::ProjectDocument document;
    ui::GaussianExplorer explorer(&document);
    GaussianParams p = smallParams();
    p.data = "toy:moons,n=2000";
    QVERIFY(document.setGaussian(p, "moons").ok());
    explorer.waitForJobs();
    // 20000 particles through an empirical oracle of 2000 points: seconds of work.
    p.particleCount = 20000;
    QVERIFY(document.setGaussian(p, "many").ok());
    QTRY_VERIFY(explorer.runner()->isRunning());
    QTest::qWait(100);
    QElapsedTimer timer;
    timer.start();
    explorer.cancelJobs();
    explorer.runner()->waitForFinished();
    QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(explorer.particlesView()->message(), QString("Particle sampling cancelled."));
    QCOMPARE(explorer.results()->params.particleCount, 300);  // the old frames stay
}

void tst_ParticlesView::panelEditsTheSampler() {
    ui::document::ProjectDocument document;
    ui::jobs::JobRunner files, checks;  // what the explorer owns in the window
    ui::panels::GaussianPanel panel(&document, &files, &checks);
    const GaussianParams before = document.gaussian();
    auto* sampler = panel.findChild<QComboBox*>("sampler");
    auto* compare = panel.findChild<QComboBox*>("compareSampler");
    QVERIFY(sampler != nullptr && compare != nullptr);
    QVERIFY(test_support::samplerKind(sampler->currentData().toString()) == before.sampler);
    sampler->setCurrentIndex(sampler->findData("ddim"));
    QVERIFY(document.gaussian().sampler == test_support::samplerKind("ddim"));
    compare->setCurrentIndex(compare->findData("none"));
    QVERIFY(!document.gaussian().compareSampler.has_value());
    document.undoStack()->undo();
    document.undoStack()->undo();
    QVERIFY(document.gaussian() == before);
    QVERIFY(test_support::samplerKind(sampler->currentData().toString()) == before.sampler);
}

QTEST_MAIN(tst_ParticlesView)
#include "tst_particles_view.moc"
