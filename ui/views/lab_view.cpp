// SPDX-License-Identifier: MIT
#include "ui/views/lab_view.h"

#include <QApplication>
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QCoreApplication>
#include <QCursor>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/io/file_io.h"
#include "core/project/timesteps_export.h"
#include "ui/charts/chart_panel.h"
#include "ui/charts/figure_chart.h"
#include "ui/panels/lab_config_table.h"

namespace ui::views {

using core::project::LabCurve;
using core::project::LabRun;

namespace {

enum ChartIndex { Timesteps = 0, Steps = 1, Nll = 2, Quality = 3, SigmaSteps = 4 };
enum TimeAxis { AxisN = 0, AxisLogSnr = 1, AxisSigma = 2 };

QPen curvePen(const LabCurve& curve, bool reference) {
    return reference ? QPen(Qt::black, 2, Qt::DashLine)
                     : QPen(QColor(QString::fromStdString(curve.colour)), 2);
}

QString curveName(const LabCurve& curve, bool reference) {
    return reference ? QCoreApplication::translate("ui::views::LabView", "DP optimum (reference)")
                     : QString::fromStdString(core::project::labName(curve.config));
}

const LabRun* runAt(const LabCurve& curve, int k) {
    for (const LabRun& run : curve.runs) {
        if (run.k == k) return &run;
    }
    return nullptr;
}

// The value under the cursor as a tooltip: the charts have no hover readout of their own.
void addHoverTip(QXYSeries* series, const QString& xName, const QString& yName) {
    QObject::connect(series, &QXYSeries::hovered, series,
                     [series, xName, yName](const QPointF& point, bool state) {
                         if (!state) {
                             QToolTip::hideText();
                             return;
                         }
                         QToolTip::showText(QCursor::pos(), QString("%1\n%2 = %3, %4 = %5")
                                                                .arg(series->name(), xName)
                                                                .arg(point.x(), 0, 'g', 4)
                                                                .arg(yName)
                                                                .arg(point.y(), 0, 'g', 4));
                     });
}

// A line in the curve's pen with its points as a scatter series on top, on the chart's two
// axes. The points are set after the axes are attached, and drawn by a scatter series rather than
// the line's own point markers, which Qt 6.4 draws too large and, after a range change, also
// outside the plot area. The scatter's legend entry is hidden; it carries the hover tooltip.
QLineSeries* addLine(QChart* chart,
                     const LabCurve& curve,
                     bool reference,
                     const QList<QPointF>& points,
                     QAbstractAxis* x,
                     QAbstractAxis* y,
                     const QString& xName,
                     const QString& yName) {
    const QPen pen = curvePen(curve, reference);
    auto* line = new QLineSeries;
    line->setName(curveName(curve, reference));
    line->setPen(pen);
    chart->addSeries(line);
    line->attachAxis(x);
    line->attachAxis(y);
    line->replace(points);
    auto* marks = new QScatterSeries;
    marks->setName(line->name());
    marks->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    marks->setMarkerSize(reference ? 6.0 : 7.0);
    marks->setColor(pen.color());
    marks->setBorderColor(pen.color());
    chart->addSeries(marks);
    marks->attachAxis(x);
    marks->attachAxis(y);
    marks->replace(points);
    charts::hideFromLegend(marks);
    addHoverTip(marks, xName, yName);
    return line;
}

// A ±2 SE band behind a line, hidden from the legend (it is read with its line).
void addBand(QChart* chart,
             const LabCurve& curve,
             bool reference,
             const QList<QPointF>& upper,
             const QList<QPointF>& lower,
             QAbstractAxis* x,
             QAbstractAxis* y) {
    if (upper.size() < 2 || upper.size() != lower.size()) return;
    auto* upperSeries = new QLineSeries;
    auto* lowerSeries = new QLineSeries;
    upperSeries->replace(upper);
    lowerSeries->replace(lower);
    auto* band = new QAreaSeries(upperSeries, lowerSeries);
    // The band does not own its edges: they go with it.
    upperSeries->setParent(band);
    lowerSeries->setParent(band);
    QColor fill = reference ? QColor(Qt::black) : QColor(QString::fromStdString(curve.colour));
    fill.setAlpha(reference ? 25 : 45);
    band->setName(QCoreApplication::translate("ui::views::LabView", "±2 SE ") +
                  curveName(curve, reference));
    band->setPen(Qt::NoPen);
    band->setBrush(fill);
    chart->addSeries(band);
    band->attachAxis(x);
    band->attachAxis(y);
    charts::hideFromLegend(band);
}

// A value axis over [low, high], logarithmic when every value is positive and they span more
// than two decades (β̃ at small K costs hundreds of bits/dim against a few for the others).
QAbstractAxis* valueAxis(double low, double high, const QString& title, bool allowLog) {
    if (!(low <= high)) {
        low = 0.0;
        high = 1.0;
    }
    if (allowLog && low > 0.0 && high > 100.0 * low) {
        auto* axis = new QLogValueAxis;
        axis->setBase(10.0);
        axis->setLabelFormat("%g");
        charts::setAxisRange(axis, low / 2.0, high * 2.0);  // room for the markers at both ends
        axis->setTitleText(title + QCoreApplication::translate("ui::views::LabView", " (log)"));
        return axis;
    }
    auto* axis = new QValueAxis;
    const double margin = 0.06 * std::max(high - low, 1e-9 + 1e-3 * std::abs(high));
    charts::setNiceRange(axis, low - margin, high + margin);
    axis->setTitleText(title);
    return axis;
}

// K on a log axis; a linear one when the sweep spans less than a decade (a log axis would
// label at most one K).
QAbstractAxis* kAxis(const std::vector<int>& ks) {
    if (!ks.empty() && ks.back() < 10 * ks.front()) {
        auto* axis = new QValueAxis;
        const double margin = std::max(0.5, 0.08 * (ks.back() - ks.front()));
        charts::setAxisRange(axis, ks.front() - margin, ks.back() + margin);
        axis->setLabelFormat("%g");
        axis->setTitleText(QCoreApplication::translate("ui::views::LabView", "steps (timesteps)"));
        return axis;
    }
    auto* axis = new QLogValueAxis;
    axis->setBase(10.0);
    axis->setLabelFormat("%g");
    axis->setTitleText(QCoreApplication::translate("ui::views::LabView", "steps (timesteps, log)"));
    if (!ks.empty()) charts::setAxisRange(axis, ks.front() / 1.3, ks.back() * 1.3);
    return axis;
}

void setupChart(QChart* chart, const QString& title) {
    chart->setTitle(title);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    QFont font = chart->legend()->font();
    font.setPointSizeF(std::max(7.0, font.pointSizeF() - 1.0));
    chart->legend()->setFont(font);
    chart->setMargins(QMargins(4, 4, 4, 4));
}

}  // namespace

// The axes' choices, two lines of two (one line was 965 px: wider than a projector leaves the
// views).
QWidget* LabView::createSelectors() {
    auto* selectorRow = new QWidget;
    auto* selectors = new QGridLayout(selectorRow);
    selectors->setContentsMargins(8, 0, 8, 0);
    selectors->setHorizontalSpacing(6);
    selectors->setVerticalSpacing(2);
    m_axis->addItems({"n", tr("log-SNR λ"), tr("σ (log)")});
    m_stepAxis->addItems({tr("the step's t"), tr("step index")});
    m_sigmaStep->addItems({tr("the step"), tr("the ratio")});
    m_sigmaStep->setToolTip(
        tr("The fifth chart: each step in log σ, or its ratio to the step before."));
    const std::pair<QString, QComboBox*> choices[4] = {
        {tr("Steps for the timesteps and step costs:"), m_k},
        {tr("Timestep axis:"), m_axis},
        {tr("Step costs against:"), m_stepAxis},
        {tr("Steps in log σ:"), m_sigmaStep}};
    for (int i = 0; i < 4; ++i) {
        selectors->addWidget(new QLabel(choices[i].first), i / 2, 3 * (i % 2));
        selectors->addWidget(choices[i].second, i / 2, 3 * (i % 2) + 1);
    }
    selectors->setColumnMinimumWidth(2, 12);
    selectors->setColumnStretch(5, 1);
    return selectorRow;
}

// The five figures, in m_chartGrid (arrangeCharts places them).
void LabView::createCharts() {
    m_chartGrid = new QGridLayout;
    m_chartGrid->setSpacing(0);
    const QString titles[5] = {
        tr("Timesteps"), tr("Per-step cost"), tr("Negative ELBO against the number of steps"),
        tr("Sample quality against the number of steps"), tr("Steps in log σ")};
    for (int i = 0; i < 5; ++i) {
        m_charts[static_cast<size_t>(i)] = new QChart;
        setupChart(m_charts[static_cast<size_t>(i)], titles[i]);
        auto* figure = new charts::FigureChart(m_charts[static_cast<size_t>(i)]);
        QChartView* view = figure->view();
        charts::applyFigureStyle(m_charts[static_cast<size_t>(i)], view);
        view->setMinimumHeight(110);  // a figure in a column still holds the four
        m_chartViews[static_cast<size_t>(i)] = view;
        m_figures[static_cast<size_t>(i)] = figure;
    }
}

LabView::LabView(document::ProjectDocument* document, QWidget* parent)
    : ViewPanel(QT_TRANSLATE_NOOP("ui::views", "Lab"), parent),
      m_table(new panels::LabConfigTable(document)),
      m_document(document),
      m_k(new QComboBox),
      m_axis(new QComboBox),
      m_stepAxis(new QComboBox),
      m_sigmaStep(new QComboBox),
      m_run(new QPushButton(tr("Run"))),
      m_cancel(new QPushButton(tr("Cancel"))),
      m_progress(new QProgressBar),
      m_status(new QLabel),
      m_caption(new QLabel),
      m_errors(new QLabel) {
    auto* split = new QSplitter(Qt::Vertical);
    // The configuration table and its buttons scroll when the window is short (a 1280 × 720
    // projector): their full height and the charts' do not both fit it.
    auto* controls = new QScrollArea;
    controls->setWidget(createControls());
    controls->setWidgetResizable(true);
    controls->setFrameShape(QFrame::NoFrame);
    controls->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    controls->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    controls->setMinimumHeight(120);  // squeezed, still the table's first rows and a button row
    split->addWidget(controls);
    markControl(controls);  // the configuration table and its buttons are not the figure
    auto* charts = new QWidget;
    auto* chartsLayout = new QVBoxLayout(charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    QWidget* selectorRow = createSelectors();
    // Why a configuration did not run, first above the charts: under the table it sat below
    // the fold of the table's scrolling area at 1280 × 720, and the run looked complete.
    m_errors->setWordWrap(true);
    m_errors->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errors->setStyleSheet("color: #b00020; padding: 2px 8px;");
    m_errors->hide();
    chartsLayout->addWidget(m_errors);
    markControl(m_errors);
    chartsLayout->addWidget(selectorRow);
    markControl(selectorRow);
    createCharts();
    m_chartsBody = charts;
    // White between the charts too (the scrolling area's grey showed in exported figures).
    charts->setAutoFillBackground(true);
    {
        QPalette white = charts->palette();
        white.setColor(QPalette::Window, Qt::white);
        charts->setPalette(white);
    }
    arrangeCharts(2);
    chartsLayout->addLayout(m_chartGrid, 1);
    m_referenceNote = new QLabel;
    m_referenceNote->setWordWrap(true);
    m_referenceNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_referenceNote->setStyleSheet("padding: 2px 8px;");
    m_referenceNote->hide();
    chartsLayout->addWidget(m_referenceNote);
    markControl(m_referenceNote);  // the run's explanation, not part of the figure
    // The charts scroll rather than squeeze: on a short or narrow window (a 1280 × 720
    // projector, or the table opened up) their axis titles and tick labels were elided to "…".
    // See arrangeCharts for their rows and columns.
    m_chartsScroll = new QScrollArea;
    m_chartsScroll->setWidget(charts);
    m_chartsScroll->setWidgetResizable(true);
    m_chartsScroll->setFrameShape(QFrame::NoFrame);
    m_chartsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    split->addWidget(m_chartsScroll);
    m_chartsScroll->viewport()->installEventFilter(this);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    setBody(split);
    for (QComboBox* box : {m_k, m_axis, m_stepAxis, m_sigmaStep}) {
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            redraw();
            setStale(m_stale);
        });
    }
    connect(m_document, &document::ProjectDocument::gaussianChanged, this, &LabView::updateCaption);
    connect(m_document, &document::ProjectDocument::projectReplaced, this, &LabView::updateCaption);
    // On the status line, not the whole view: the charts show their points' values on hover.
    m_status->setToolTip(
        tr("The schedule lab: several configurations side by side on the same data and model, "
           "with the DP-optimal trajectory as the reference (Help ▸ Mathematics: "
           "gaussian.md#schedule-lab)."));
    updateCaption();
    setRunning(false);
    setStatus(tr("Not run yet: add configurations or pick a preset, then press Run."));
}

QWidget* LabView::createControls() {
    auto* top = new QWidget;
    top->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);  // the charts take the rest
    auto* layout = new QVBoxLayout(top);
    layout->setContentsMargins(6, 6, 6, 2);
    layout->addWidget(m_table, 1);
    auto* row = new QHBoxLayout;
    m_run->setToolTip(
        tr("Runs every configuration for every number of steps of the list, and the DP optimum "
           "(a job; Esc or Cancel stops it and keeps the previous results)."));
    m_cancel->setToolTip(tr("Cancel the run; the charts keep the previous results."));
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(200);
    m_status->setWordWrap(true);
    row->addWidget(m_run);
    row->addWidget(m_cancel);
    row->addWidget(m_progress);
    row->addWidget(m_status, 1);
    // The copies on a line of their own: one line for all was 775 px, wider than the views'
    // room on a 1280 × 720 projector beside the parameters and the Explanation.
    auto* copies = new QHBoxLayout;
    for (const auto convention : {core::schedule::TimestepConvention::Diffusers,
                                  core::schedule::TimestepConvention::KDiffusion}) {
        const bool diffusers = convention == core::schedule::TimestepConvention::Diffusers;
        auto* copy =
            new QPushButton(diffusers ? tr("Copy for diffusers") : tr("Copy for k-diffusion"));
        copy->setObjectName(diffusers ? "copyForDiffusers" : "copyForKDiffusion");
        copy->setToolTip(
            diffusers ? tr("Copies the selected configuration's timesteps at the chosen number of "
                           "steps as diffuscope timesteps --as diffusers prints them.")
                      : tr("Copies the selected configuration's σ at the chosen number of steps as "
                           "diffuscope timesteps --as k-diffusion prints them."));
        connect(copy, &QPushButton::clicked, this, [this, convention] {
            if (const QString text = pipelineText(convention); !text.isEmpty()) {
                QApplication::clipboard()->setText(text);
            }
        });
        copies->addWidget(copy);
    }
    copies->addStretch(1);
    layout->addLayout(row);
    layout->addLayout(copies);
    m_caption->setWordWrap(true);
    m_caption->setStyleSheet("background: #f3f3f6; padding: 4px;");
    m_caption->hide();
    layout->addWidget(m_caption);
    connect(m_run, &QPushButton::clicked, this, &LabView::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &LabView::cancelRequested);
    return top;
}

// The explanation of the preset whose configurations are the lab's (so undo updates it too).
void LabView::updateCaption() {
    const auto& configs = m_document->gaussian().lab.configs;
    for (const auto& preset : core::project::labPresets()) {
        if (!configs.empty() && preset.configs == configs) {
            m_caption->setText(
                QString("<b>%1.</b> %2")
                    .arg(QCoreApplication::translate("ui::labPresets", preset.title.c_str())
                             .toHtmlEscaped(),
                         QCoreApplication::translate("ui::labPresets", preset.explanation.c_str())
                             .toHtmlEscaped()));
            m_caption->show();
            return;
        }
    }
    m_caption->clear();
    m_caption->hide();
}

void LabView::setRunning(bool running) {
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    if (running) m_progress->setValue(0);
}

void LabView::setProgress(int permille, const QString& stage) {
    m_progress->setValue(permille);
    setStatus(tr("Running: %1 (%2%)…").arg(stage).arg(permille / 10));
}

void LabView::setStatus(const QString& status) { m_status->setText(status); }

std::vector<const LabCurve*> LabView::curvesToDraw() const {
    std::vector<const LabCurve*> curves;
    if (!m_result) return curves;
    for (const LabCurve& curve : m_result->curves) {
        if (curve.error.empty()) curves.push_back(&curve);
    }
    if (m_result->reference.error.empty()) curves.push_back(&m_result->reference);
    return curves;
}

int LabView::chosenK() const { return m_k->currentData().toInt(); }

void LabView::setResult(std::shared_ptr<const core::project::LabResult> result) {
    m_result = std::move(result);
    {
        const QSignalBlocker block(m_k);
        const int previous = chosenK();
        m_k->clear();
        for (int k : m_result->ks) m_k->addItem(QString::number(k), k);
        const int index = m_k->findData(previous);
        // Default: the middle K, where the configurations differ most visibly.
        m_k->setCurrentIndex(index >= 0 ? index : static_cast<int>(m_result->ks.size()) / 2);
    }
    QStringList errors;
    for (const LabCurve& curve : m_result->curves) {
        if (!curve.error.empty()) {
            errors << QString("%1: %2").arg(
                QString::fromStdString(core::project::labName(curve.config)),
                QString::fromStdString(curve.error));
        }
    }
    if (!m_result->reference.error.empty()) {
        errors << tr("DP optimum: ") + QString::fromStdString(m_result->reference.error);
    }
    m_errors->setText(errors.join('\n'));
    m_errors->setVisible(!errors.isEmpty());
    redraw();
    setStale(false);
}

void LabView::redraw() {
    // The reference's note at the chosen K (the core explains there why a configuration can
    // score a lower NLL than the DP optimum).
    QString note;
    if (m_result) {
        for (const auto& run : m_result->reference.runs) {
            if (run.k == chosenK()) note = QString::fromStdString(run.note);
        }
    }
    m_referenceNote->setText(note.isEmpty() ? QString()
                                            : tr("DP optimum (reference): %1").arg(note));
    m_referenceNote->setVisible(!note.isEmpty());
    drawTimesteps();
    drawSteps();
    drawAgainstK(Nll);
    drawAgainstK(Quality);
    drawSigmaSteps();
}

// Step k = log σ_{t_k} − log σ_{t_{k−1}} (k = 2..K, t increasing), or h_k/h_{k−1}: where the
// ratio is far from 1 a second-order multistep solver (DPM-Solver++(2M)) extrapolates badly.
void LabView::drawSigmaSteps() {
    QChart* chart = m_charts[SigmaSteps];
    charts::clearChart(chart);
    const auto curves = curvesToDraw();
    const int k = chosenK();
    const bool ratios = m_sigmaStep->currentIndex() == 1;
    double low = std::numeric_limits<double>::infinity(), high = -low;
    std::vector<QList<QPointF>> points(curves.size());
    for (size_t i = 0; i < curves.size(); ++i) {
        const LabRun* run = runAt(*curves[i], k);
        if (run == nullptr) continue;
        const std::vector<double> steps = core::project::logSigmaSteps(run->sigma);
        const std::vector<double> values =
            ratios ? core::project::logSigmaStepRatios(steps) : steps;
        const int first = ratios ? 3 : 2;  // the index k of values[0]
        for (size_t j = 0; j < values.size(); ++j) {
            if (!std::isfinite(values[j])) continue;  // into a zero-SNR end
            points[i].append(QPointF(static_cast<double>(j) + first, values[j]));
            low = std::min(low, values[j]);
            high = std::max(high, values[j]);
        }
    }
    auto* x = new QValueAxis;
    x->setLabelFormat("%d");
    charts::setAxisRange(x, 0.5, k + 0.5);
    x->setTitleText(tr("step k (timesteps increasing)"));
    const QString yName = ratios ? tr("step ratio") : tr("step in log σ");
    QAbstractAxis* y = valueAxis(low, high, yName, false);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (size_t i = 0; i < curves.size(); ++i) {
        addLine(chart, *curves[i], curves[i] == &m_result->reference, points[i], x, y, "k", yName);
    }
    // The colours are the other charts' (their legends name them): the height goes to the plot.
    charts::figureOf(chart)->setLegendShown(false);
    charts::figureOf(chart)->setTitle(
        ratios ? tr("Ratio of consecutive steps in log σ with %1 steps").arg(k)
               : tr("Steps in log σ with %1 steps").arg(k));
}

void LabView::drawTimesteps() {
    QChart* chart = m_charts[Timesteps];
    charts::clearChart(chart);
    const auto curves = curvesToDraw();
    const int k = chosenK();
    const int axis = m_axis->currentIndex();
    auto* rows = new QCategoryAxis;
    rows->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    charts::setAxisRange(rows, -0.7, static_cast<double>(curves.size()) - 0.3);
    double low = std::numeric_limits<double>::infinity(), high = -low;
    std::vector<QList<QPointF>> points(curves.size());
    for (size_t i = 0; i < curves.size(); ++i) {
        const LabRun* run = runAt(*curves[i], k);
        if (run == nullptr) continue;
        const double y = static_cast<double>(curves.size() - 1 - i);  // the reference at the bottom
        for (size_t j = 0; j < run->timesteps.size(); ++j) {
            double x = run->timesteps[j];
            if (axis == AxisLogSnr) x = j < run->logSnr.size() ? run->logSnr[j] : NAN;
            if (axis == AxisSigma) x = j < run->sigma.size() ? run->sigma[j] : NAN;
            // Infinite λ or σ at a zero-SNR end, and σ ≤ 0 on the log axis, are not drawn.
            if (!std::isfinite(x) || (axis == AxisSigma && x <= 0.0)) continue;
            points[i].append(QPointF(x, y));
            low = std::min(low, x);
            high = std::max(high, x);
        }
    }
    // Categories go in increasing order: the bottom row (the reference) first.
    rows->setStartValue(-0.7);
    // The reference's row is "DP optimum": its full name, in the other charts' legends, left
    // the rows' labels too little room beside a plot half a window wide.
    for (size_t i = curves.size(); i-- > 0;) {
        const bool reference = curves[i] == &m_result->reference;
        rows->append(reference ? tr("DP optimum") : curveName(*curves[i], false),
                     static_cast<double>(curves.size() - 1 - i));
    }
    QAbstractAxis* x = nullptr;
    if (axis == AxisN) {
        auto* n = new QValueAxis;
        charts::setAxisRange(n, 0, m_result ? m_result->numSteps : 1);
        n->setLabelFormat("%d");
        n->setTitleText(tr("timestep n"));
        x = n;
    } else if (axis == AxisLogSnr) {
        x = valueAxis(low, high, tr("log-SNR λ = ½ log(ᾱ/β̄)"), false);
    } else {
        x = valueAxis(low, high, "σ = √(β̄/ᾱ)", true);
        if (auto* log = qobject_cast<QLogValueAxis*>(x)) log->setTitleText(tr("σ = √(β̄/ᾱ) (log)"));
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(rows, Qt::AlignLeft);
    for (size_t i = 0; i < curves.size(); ++i) {
        const bool reference = curves[i] == &m_result->reference;
        addLine(chart, *curves[i], reference, points[i], x, rows, x->titleText(), "row");
    }
    charts::figureOf(chart)->setLegendShown(false);  // the rows are labelled on the axis
    charts::figureOf(chart)->setTitle(tr("Timesteps with %1 steps").arg(k));
}

void LabView::drawSteps() {
    QChart* chart = m_charts[Steps];
    charts::clearChart(chart);
    const auto curves = curvesToDraw();
    const int k = chosenK();
    const bool byIndex = m_stepAxis->currentIndex() == 1;
    double low = std::numeric_limits<double>::infinity(), high = -low;
    std::vector<QList<QPointF>> points(curves.size());
    for (size_t i = 0; i < curves.size(); ++i) {
        const LabRun* run = runAt(*curves[i], k);
        if (run == nullptr) continue;
        for (const auto& term : run->terms) {
            // Step j goes from τ_j to τ_{j−1}: the decoder is step 1, the pair (τ_{j−1}, τ_j)
            // step j, the prior step K + 1 (only against the index: at t it would share τ_K).
            const bool prior = term.s < 0;
            double x = 0.0;
            if (byIndex) {
                const auto& steps = run->timesteps;
                const auto at = std::lower_bound(steps.begin(), steps.end(), term.t);
                x = prior ? static_cast<double>(steps.size()) + 1.0
                          : static_cast<double>(at - steps.begin()) + 1.0;
            } else {
                if (prior) continue;
                x = term.t;
            }
            if (!std::isfinite(term.bitsPerDim)) continue;
            points[i].append(QPointF(x, term.bitsPerDim));
            low = std::min(low, term.bitsPerDim);
            high = std::max(high, term.bitsPerDim);
        }
        std::sort(points[i].begin(), points[i].end(),
                  [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    }
    auto* x = new QValueAxis;
    x->setLabelFormat("%d");
    if (byIndex) {
        charts::setAxisRange(x, 0.5, k + 1.5);
        x->setTitleText(tr("step j (1: decoder, last: prior)"));
    } else {
        charts::setAxisRange(x, 0, m_result ? m_result->numSteps : 1);
        x->setTitleText(tr("the step's later timestep t (prior not shown)"));
    }
    QAbstractAxis* y = valueAxis(low, high, tr("bits/dim"), true);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (size_t i = 0; i < curves.size(); ++i) {
        addLine(chart, *curves[i], curves[i] == &m_result->reference, points[i], x, y,
                byIndex ? "j" : "t", tr("bits/dim"));
    }
    charts::figureOf(chart)->setTitle(
        tr("Per-step cost with %1 steps (terms of the negative ELBO)").arg(k));
}

void LabView::drawAgainstK(int chartIndex) {
    QChart* chart = m_charts[static_cast<size_t>(chartIndex)];
    charts::clearChart(chart);
    const auto curves = curvesToDraw();
    const bool nll = chartIndex == Nll;
    std::string measure;
    struct Curve {
        QList<QPointF> line, upper, lower;
    };
    std::vector<Curve> drawn(curves.size());
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (size_t i = 0; i < curves.size(); ++i) {
        for (const LabRun& run : curves[i]->runs) {
            double value = run.nllBitsPerDim, se = run.nllStandardError;
            if (!nll) {
                if (!run.quality) continue;
                measure = run.quality->measure;
                value = run.quality->value;
                se = run.quality->standardError;
            }
            if (!std::isfinite(value)) continue;
            drawn[i].line.append(QPointF(run.k, value));
            low = std::min(low, value);
            high = std::max(high, value);
            if (std::isfinite(se)) {
                drawn[i].upper.append(QPointF(run.k, value + 2.0 * se));
                drawn[i].lower.append(QPointF(run.k, value - 2.0 * se));
                high = std::max(high, value + 2.0 * se);
                low = std::min(low, value - 2.0 * se);
            }
        }
    }
    QString yTitle = tr("bits/dim");
    if (!nll) {
        yTitle = measure == "mmd2"      ? tr("MMD² (unbiased)")
                 : measure == "frechet" ? tr("Fréchet distance")
                                        : tr("no quality (quality samples = 0)");
    }
    QAbstractAxis* x = kAxis(m_result ? m_result->ks : std::vector<int>{});
    // MMD² may dip below zero (unbiased): a linear axis then; bands below 0 are clipped by log.
    QAbstractAxis* y = valueAxis(low, high, yTitle, nll || measure == "frechet");
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const bool logY = qobject_cast<QLogValueAxis*>(y) != nullptr;
    for (size_t i = 0; i < curves.size(); ++i) {
        const bool reference = curves[i] == &m_result->reference;
        if (!logY) addBand(chart, *curves[i], reference, drawn[i].upper, drawn[i].lower, x, y);
        addLine(chart, *curves[i], reference, drawn[i].line, x, y, tr("steps"),
                nll ? tr("bits/dim") : QString::fromStdString(measure));
    }
    charts::figureOf(chart)->setTitle(
        nll ? tr("Negative ELBO against the number of steps%1")
                  .arg(logY ? "" : tr(" (bands: ±2 SE)"))
            : tr("Distance of the samples to held-out data%1 (lower is better)")
                  .arg(measure == "mmd2" ? ", ±2 SE" : ""));
}

void LabView::clearResult() {
    m_result.reset();
    setProvenance({});  // the run's, not the new project's
    for (QChart* chart : m_charts) charts::clearChart(chart);
    m_referenceNote->clear();
    m_referenceNote->hide();
    m_errors->clear();
    m_errors->hide();
    m_stale = false;
    setStatus(tr("Not run yet: add configurations or pick a preset, then press Run."));
}

void LabView::setStale(bool stale) {
    m_stale = stale;
    // Faded: still readable for comparison, clearly not the current settings'.
    const qreal opacity = stale ? 0.35 : 1.0;
    for (QChart* chart : m_charts) {
        for (QAbstractSeries* series : chart->series()) series->setOpacity(opacity);
    }
    if (!m_result) return;
    if (stale) {
        setStatus(
            tr("Stale: the configurations, numbers of steps or the project's schedule, data, model "
               "or Γ "
               "settings changed since this run; press Run to recompute."));
    } else {
        const auto failed = std::count_if(m_result->curves.begin(), m_result->curves.end(),
                                          [](const LabCurve& c) { return !c.error.empty(); });
        QString status = tr("%1 configuration(s) and the DP optimum on %2 (model: %3), N = %4.")
                             .arg(m_result->curves.size())
                             .arg(QString::fromStdString(m_result->data),
                                  QFileInfo(QString::fromStdString(m_result->model)).fileName())
                             .arg(m_result->numSteps);
        if (failed > 0) {
            status +=
                ' ' +
                tr("%1 of them could not run: why is said in red above the charts.").arg(failed);
        }
        setStatus(status);
    }
}

QString LabView::pipelineText(core::schedule::TimestepConvention convention) const {
    if (!m_result || m_result->curves.empty()) return {};
    // The selected row's configuration as it ran (rows may have changed since).
    const auto& configs = m_document->gaussian().lab.configs;
    const int row = std::max(0, m_table->table()->currentRow());
    const LabCurve* curve = &m_result->curves.front();
    if (row < static_cast<int>(configs.size())) {
        for (const LabCurve& c : m_result->curves) {
            if (c.config == configs[static_cast<size_t>(row)]) curve = &c;
        }
    }
    const LabRun* run = runAt(*curve, chosenK());
    if (run == nullptr) return {};
    auto schedule = core::schedule::gaussianScheduleFromSpec(
        core::project::labSchedule(curve->config, m_result->schedule), m_result->numSteps);
    if (!schedule) return {};
    const core::schedule::PipelineClass pipelineClass = core::project::pipelineClassOf(
        curve->config.trajectorySpec(chosenK()), m_result->numSteps);
    return QString::fromStdString(
        core::schedule::pipelineTimesteps(run->timesteps, *schedule, convention, true, pipelineClass)
            .text);
}

core::Result<std::string> LabView::csvText() const {
    if (!m_result) {
        return core::invalidArgument("view", "Lab", "the lab has not been run yet");
    }
    // The header block as every view's, then the core's tidy table (its own header line).
    std::string text = "# view: " + title().toStdString() + "\n";
    for (const std::string& line : provenance()) text += "# " + line + "\n";
    const QString version = QCoreApplication::applicationVersion();
    text += "# program: Diffuscope" +
            (version.isEmpty() ? std::string() : " " + version.toStdString()) + "\n";
    return text + core::project::labToCsv(*m_result);
}

// Two columns need the view about 130 characters wide (each chart's title, up to 60, with its
// tick labels and legend at the window's type); below that, one. The view's own width, not the
// scrolled charts': their scroll bar comes and goes with the columns' heights.
int LabView::windowColumns() const {
    return width() >= 130 * fontMetrics().averageCharWidth() ? 2 : 1;
}

void LabView::arrangeCharts(int columns) {
    if (columns == m_columns) return;
    m_columns = columns;
    for (charts::FigureChart* figure : m_figures) m_chartGrid->removeWidget(figure);
    for (int row = 0; row < 5; ++row) m_chartGrid->setRowStretch(row, 0);
    // Rows of 14 lines of text (the strip under two columns 12) hold a two-line title, a
    // two-line legend and a plot whose axis titles and labels are not elided; a figure lays out
    // at its own size.
    const int em = fontMetrics().height();
    if (columns == 2) {
        for (int i = 0; i < 4; ++i)
            m_chartGrid->addWidget(m_figures[static_cast<size_t>(i)], i / 2, i % 2);
        m_chartGrid->addWidget(m_figures[4], 2, 0, 1, 2);  // the fifth across both columns
        // The fifth chart is a strip: the four above keep most of the height.
        m_chartGrid->setRowStretch(0, 3);
        m_chartGrid->setRowStretch(1, 3);
        m_chartGrid->setRowStretch(2, 2);
        m_chartsBody->setMinimumHeight(m_figureMode ? 0 : 43 * em);
    } else {
        for (int i = 0; i < 5; ++i) {
            m_chartGrid->addWidget(m_figures[static_cast<size_t>(i)], i, 0, 1, 2);
            m_chartGrid->setRowStretch(i, 1);
        }
        m_chartsBody->setMinimumHeight(m_figureMode ? 0 : 73 * em);
    }
}

void LabView::setFigureMode(bool figure) {
    if (figure == m_figureMode) return;
    m_figureMode = figure;
    m_columns = 0;  // arranged again, with the minimum height of the mode
    arrangeCharts(figure ? 2 : windowColumns());
    // A scroll area gives its content the height the content prefers for its width, not the
    // size of the figure: while a figure is made, the charts fill the scroll area's viewport
    // exactly (eventFilter) and the figure's checks judge whether they fit.
    m_chartsScroll->setWidgetResizable(!figure);
    m_chartsScroll->setVerticalScrollBarPolicy(figure ? Qt::ScrollBarAlwaysOff
                                                      : Qt::ScrollBarAsNeeded);
    if (figure) m_chartsBody->setGeometry(m_chartsScroll->viewport()->rect());
}

bool LabView::eventFilter(QObject* watched, QEvent* event) {
    if (m_figureMode && watched == m_chartsScroll->viewport() && event->type() == QEvent::Resize) {
        m_chartsBody->setGeometry(QRect(QPoint(0, 0), static_cast<QResizeEvent*>(event)->size()));
    }
    return ViewPanel::eventFilter(watched, event);
}

void LabView::resizeEvent(QResizeEvent* event) {
    ViewPanel::resizeEvent(event);
    if (!m_figureMode) arrangeCharts(windowColumns());
}

}  // namespace ui::views
