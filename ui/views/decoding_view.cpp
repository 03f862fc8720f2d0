// SPDX-License-Identifier: MIT
#include "ui/views/decoding_view.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QFileDialog>
#include <QFileInfo>
#include <QScatterSeries>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/project/decoding_runs.h"
#include "core/util/limits.h"
#include "ui/charts/chart_panel.h"
#include "ui/charts/figure_chart.h"
#include "ui/charts/palette.h"
#include "ui/views/chain_text.h"
#include "ui/views/commit_raster.h"

namespace ui::views {

QString decodingDisplayName(const core::project::DecodingConfig& config) {
    // The default set's names (core::project::DecodingSettings::defaultConfigs), for lupdate.
    [[maybe_unused]] static constexpr const char* kDefaultNames[] = {
        QT_TRANSLATE_NOOP("ui::decodingDefaults", "ancestral"),
        QT_TRANSLATE_NOOP("ui::decodingDefaults", "confidence"),
        QT_TRANSLATE_NOOP("ui::decodingDefaults", "confidence, argmax"),
        QT_TRANSLATE_NOOP("ui::decodingDefaults", "margin"),
        QT_TRANSLATE_NOOP("ui::decodingDefaults", "entropy"),
        QT_TRANSLATE_NOOP("ui::decodingDefaults", "random")};
    for (const auto& d : core::project::DecodingSettings::defaultConfigs()) {
        if (config.name == d.name) {
            return QCoreApplication::translate("ui::decodingDefaults", d.name.c_str());
        }
    }
    return QString::fromStdString(core::project::decodingName(config));
}

namespace {

enum Column { Name = 0, Colour = 1, Sampler = 2, NumColumns = 3 };

// Tables with more sequences than this get no distribution chart: the bars would be hairs.
constexpr int kMaxDistributionRows = 64;
// More sequences than this give the distribution a row of its own: their labels need the width.
constexpr int kWideDistributionRows = 12;

void setupChart(QChart* chart) {
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    QFont font = chart->legend()->font();
    font.setPointSizeF(std::max(7.0, font.pointSizeF() - 1.0));
    chart->legend()->setFont(font);
}

QString measureTitle(int index, bool chain = false) {
    if (chain) {
        switch (index) {
            case DecodingView::Entropy:
                return QCoreApplication::translate("ui::views::DecodingView", "Cross-entropy per letter");
            case DecodingView::KlDataOutput:
                return QCoreApplication::translate("ui::views::DecodingView", "Pair total variation");
            case DecodingView::LongestRepeat:
                return QCoreApplication::translate("ui::views::DecodingView", "Longest run of one letter");
            default:
                break;
        }
    }
    switch (index) {
        case DecodingView::Entropy:
            return QCoreApplication::translate("ui::views::DecodingView",
                                               "Entropy of the output (nats)");
        case DecodingView::KlDataOutput:
            return QCoreApplication::translate("ui::views::DecodingView",
                                               "KL(data ‖ output) (nats)");
        case DecodingView::KlOutputData:
            return QCoreApplication::translate("ui::views::DecodingView",
                                               "KL(output ‖ data) (nats)");
        case DecodingView::TotalVariation:
            return QCoreApplication::translate("ui::views::DecodingView", "Total variation");
        case DecodingView::PositionEntropy:
            return QCoreApplication::translate("ui::views::DecodingView",
                                               "Mean entropy per position (nats)");
        case DecodingView::Accuracy:
            return QCoreApplication::translate("ui::views::DecodingView",
                                               "Decoded images the classifier recognises");
        default:
            return QCoreApplication::translate("ui::views::DecodingView",
                                               "Output distribution against the data");
    }
}

// The black triangles that mark an infinite KL above a chart (and their legend entry).
QScatterSeries* addInfiniteMarkers(QChart* chart, const QString& name) {
    auto* inf = new QScatterSeries;
    inf->setName(name);
    inf->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    inf->setMarkerSize(9.0);
    inf->setColor(Qt::black);
    inf->setBorderColor(Qt::black);
    chart->addSeries(inf);
    return inf;
}

const std::vector<double>& measureOf(const DecodingViewData::Curve& curve, int index, bool chain) {
    if (chain && index == DecodingView::Entropy) return curve.crossEntropy;
    if (chain && index == DecodingView::KlDataOutput) return curve.pairTotalVariation;
    if (index == DecodingView::LongestRepeat) return curve.longestRepeat;
    switch (index) {
        case DecodingView::Entropy:
            return curve.entropy;
        case DecodingView::KlDataOutput:
            return curve.klDataOutput;
        case DecodingView::KlOutputData:
            return curve.klOutputData;
        case DecodingView::PositionEntropy:
            return curve.positionEntropy;
        case DecodingView::Accuracy:
            return curve.accuracy;
        default:
            return curve.totalVariation;
    }
}

const std::vector<double>& errorOf(const DecodingViewData::Curve& curve, int index, bool chain) {
    if (chain && index == DecodingView::Entropy) return curve.crossEntropyError;
    if (chain && index == DecodingView::KlDataOutput) return curve.pairTotalVariationError;
    if (index == DecodingView::LongestRepeat) return curve.longestRepeatError;
    switch (index) {
        case DecodingView::Entropy:
            return curve.entropyError;
        case DecodingView::KlDataOutput:
            return curve.klDataOutputError;
        case DecodingView::KlOutputData:
            return curve.klOutputDataError;
        case DecodingView::PositionEntropy:
            return curve.positionEntropyError;
        case DecodingView::Accuracy:
            return curve.accuracyError;
        default:
            return curve.totalVariationError;
    }
}

// One sampler's curve of a measure against N: finite runs as line pieces with their points and
// ±1 standard error bars (Monte Carlo), at N·dodge; returns where an infinite value needs its
// marker (at markerY).
QList<QPointF> drawMeasureCurve(QChart* chart,
                                QAbstractAxis* x,
                                QValueAxis* y,
                                const DecodingViewData::Curve& curve,
                                const std::vector<double>& values,
                                const std::vector<double>& errors,
                                const std::vector<int>& steps,
                                double dodge,
                                double markerY) {
    const QPen pen(curve.colour, 2);
    QList<QPointF> infinitePoints;
    // Finite runs as line pieces: an infinite value is a gap, with a marker above the plot.
    QList<QPointF> piece;
    QList<QPointF> all;
    auto flush = [&] {
        if (piece.isEmpty()) return;
        auto* line = new QLineSeries;
        line->setName(curve.name);
        line->setPen(pen);
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
        line->replace(piece);
        charts::hideFromLegend(line);  // the figure's legend is the distribution chart's
        piece.clear();
    };
    for (size_t i = 0; i < steps.size() && i < values.size(); ++i) {
        if (std::isfinite(values[i])) {
            const double at = steps[i] * dodge;
            piece.append(QPointF(at, values[i]));
            all.append(QPointF(at, values[i]));
            // ±1 standard error (Monte Carlo), within the plot.
            const double se = i < errors.size() ? errors[i] : 0.0;
            if (se > 0.0 && std::isfinite(se)) {
                auto* bar = new QLineSeries;
                bar->setPen(QPen(curve.colour, 1.5));
                chart->addSeries(bar);
                bar->attachAxis(x);
                bar->attachAxis(y);
                bar->replace({QPointF(at, std::max(y->min(), values[i] - se)),
                              QPointF(at, std::min(y->max(), values[i] + se))});
                charts::hideFromLegend(bar);
            }
        } else {
            flush();
            if (std::isinf(values[i])) infinitePoints.append(QPointF(steps[i], markerY));
        }
    }
    flush();
    auto* marks = new QScatterSeries;
    marks->setName(curve.name);
    marks->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    marks->setMarkerSize(6.0);
    marks->setColor(curve.colour);
    marks->setBorderColor(curve.colour);
    chart->addSeries(marks);
    marks->attachAxis(x);
    marks->attachAxis(y);
    marks->replace(all);
    charts::hideFromLegend(marks);
    return infinitePoints;
}

// A measure's unit, the title of its chart's vertical axis (none for a total variation).
QString measureUnit(int index, bool chain) {
    if (index == DecodingView::Accuracy) return QCoreApplication::translate("ui::views::DecodingView", "fraction");
    if (index == DecodingView::LongestRepeat) {
        return QCoreApplication::translate("ui::views::DecodingView", "letters");
    }
    if (index == DecodingView::TotalVariation || (chain && index == DecodingView::KlDataOutput)) return {};
    return QCoreApplication::translate("ui::views::DecodingView", "nats");
}

// A chain's CSV: its measures with their standard errors, and the first sequence decoded.
charts::ChartData chainCsv(const DecodingViewData& data) {
    charts::ChartData table;
    table.textHeader = {"sampler", "first_sequence"};
    table.text.resize(2);
    table.header = {"N",
                    "cross_entropy",
                    "cross_entropy_standard_error",
                    "chain_entropy",
                    "pair_total_variation",
                    "pair_total_variation_standard_error",
                    "longest_repeat",
                    "longest_repeat_standard_error",
                    "position_entropy",
                    "samples"};
    table.columns.resize(table.header.size());
    for (const auto& curve : data.curves) {
        for (size_t i = 0; i < data.steps.size() && i < curve.crossEntropy.size(); ++i) {
            table.text[0].push_back(curve.name.toStdString());
            std::string first;
            if (i < curve.shown.size() && !curve.shown[i].empty()) {
                for (uint8_t state : curve.shown[i].front().states) {
                    first += state < data.chainStates.size() ? data.chainStates[state].toStdString() : "?";
                }
            }
            table.text[1].push_back(first);
            const double values[] = {static_cast<double>(data.steps[i]),
                                     curve.crossEntropy[i],
                                     curve.crossEntropyError[i],
                                     data.chainEntropy,
                                     curve.pairTotalVariation[i],
                                     curve.pairTotalVariationError[i],
                                     curve.longestRepeat[i],
                                     curve.longestRepeatError[i],
                                     curve.positionEntropy[i],
                                     static_cast<double>(data.samples)};
            for (size_t c = 0; c < table.columns.size(); ++c) table.columns[c].push_back(values[c]);
        }
    }
    return table;
}

}  // namespace

DecodingView::DecodingView(document::ProjectDocument* document, QWidget* parent)
    : ViewPanel(QT_TRANSLATE_NOOP("ui::views", "Decoding"), parent),
      m_document(document),
      m_table(new QTableWidget(0, NumColumns)),
      m_distSampler(new QComboBox),
      m_distSteps(new QComboBox),
      m_animated(new QComboBox),
      m_add(new QPushButton(tr("Add"))),
      m_addPreset(new QPushButton(tr("Add preset"))),
      m_remove(new QPushButton(tr("Remove"))),
      m_defaults(new QPushButton(tr("Default samplers"))),
      m_cancel(new QPushButton(tr("Cancel"))),
      m_progress(new QProgressBar),
      m_status(new QLabel),
      m_errors(new QLabel),
      m_note(new QLabel) {
    auto* split = new QSplitter(Qt::Vertical);
    QWidget* controls = createControls();
    split->addWidget(controls);
    markControl(controls);
    auto* charts = new QWidget;
    auto* chartsLayout = new QVBoxLayout(charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    QWidget* selectorRow = createSelectors();
    chartsLayout->addWidget(selectorRow);
    markControl(selectorRow);
    auto* grid = new QGridLayout;
    m_chartGrid = grid;
    grid->setSpacing(0);
    for (int i = 0; i < NumCharts; ++i) {
        auto* chart = new QChart;
        setupChart(chart);
        m_charts[static_cast<size_t>(i)] = chart;
        auto* figure = new charts::FigureChart(chart);
        figure->setTitle(measureTitle(i));
        charts::applyFigureStyle(chart, figure->view());
        figure->view()->setMinimumHeight(110);
        // One legend for the whole figure, under the tall distribution chart: legends under
        // each small chart would need more height than a grid row gives them.
        figure->setLegendShown(i == Distribution);
        if (i == Distribution) m_distributionFigure = figure;
    }
    m_commit = new CommitRaster;
    m_commit->setObjectName("commitRaster");
    m_commit->setToolTip(tr("Which token when: the probability that each position is unmasked after "
                            "each step, for the sampler and N chosen above (for the digits, each "
                            "pixel's mean commit step)."));
    createChainText();
    arrangeGrid(Arrangement::Tall);
    chartsLayout->addLayout(grid, 1);
    m_note->setWordWrap(true);
    m_note->setStyleSheet("padding: 2px 8px;");
    chartsLayout->addWidget(m_note);
    markControl(m_note);
    split->addWidget(charts);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    setBody(split);

    connect(m_distSampler, &QComboBox::currentIndexChanged, this, [this] {
        if (m_refreshing) return;
        drawDistribution();
        drawCommit();
        drawText();
    });
    connect(m_distSteps, &QComboBox::currentIndexChanged, this, [this] {
        if (m_refreshing) return;
        drawDistribution();
        drawCommit();
        drawText();
    });
    connect(m_textStep, &QSlider::valueChanged, this, [this](int step) {
        m_text->setShownStep(step);
        m_textStepLabel->setText(tr("%1 of %2").arg(step).arg(m_text->numSteps()));
    });
    connect(m_animated, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (m_refreshing || index < 0) return;
        core::project::DecodingSettings settings = m_document->categorical().decoding;
        settings.animated = m_animated->itemData(index).toInt();
        if (settings.animated != m_document->categorical().decoding.animated) {
            applySettings(settings, tr("Choose the animated sampler"));
        }
    });
    connect(m_document, &document::ProjectDocument::categoricalChanged, this,
            &DecodingView::onDocumentChanged);
    connect(m_document, &document::ProjectDocument::projectReplaced, this,
            &DecodingView::onDocumentChanged);
    setRunning(false);
    onDocumentChanged();
    redraw();
}

// The decoded text of a chain with its step slider above it (a control: not part of the figure).
void DecodingView::createChainText() {
    m_text = new ChainText;
    m_text->setObjectName("chainText");
    m_text->setToolTip(tr("Decoded text: each letter on the colour of the step that unmasked it (early "
                          "dark, late bright); a dot is a position still masked after the step chosen "
                          "above. A letter a remasking sampler changed later counts from its last "
                          "unmasking."));
    // Parented here: it enters the grid only for a chain, and must not leak otherwise.
    m_textPanel = new QWidget(this);
    auto* textLayout = new QVBoxLayout(m_textPanel);
    textLayout->setContentsMargins(0, 0, 0, 0);
    textLayout->setSpacing(0);
    textLayout->addWidget(m_textStepRow);
    textLayout->addWidget(m_text, 1);
    markControl(m_textStepRow);
    m_textPanel->hide();
}

// Which distribution is drawn (sampler and N; hidden where none is drawn, the digits) and
// which sampler the Trajectories view animates.
QWidget* DecodingView::createSelectors() {
    // Long sampler names shorten their combo boxes before the window outgrows a projector's
    // 1280 pixels beside a lesson; where there is room they show whole.
    for (QComboBox* box : {m_distSampler, m_animated}) box->setMinimumWidth(box->fontMetrics().height() * 7);
    auto* selectorRow = new QWidget;
    // The two choices on lines of their own: side by side they were squeezed to "ancestra" and
    // "reverse s" beside the Explanation on a 1280 × 720 projector.
    auto* selectors = new QVBoxLayout(selectorRow);
    selectors->setContentsMargins(8, 0, 8, 0);
    selectors->setSpacing(2);
    // The distribution's and the commit raster's sampler and N.
    m_distSelectors = new QWidget;
    auto* distribution = new QHBoxLayout(m_distSelectors);
    distribution->setContentsMargins(0, 0, 0, 0);
    m_distLabel = new QLabel(tr("Distribution and commits of:"));
    distribution->addWidget(m_distLabel);
    distribution->addWidget(m_distSampler);
    distribution->addWidget(new QLabel(tr("at N =")));
    distribution->addWidget(m_distSteps);
    // A chain's text after a chosen step, over the text: drag to watch the letters arrive.
    m_textStepRow = new QWidget;
    auto* textStep = new QHBoxLayout(m_textStepRow);
    textStep->setContentsMargins(4, 2, 4, 0);
    textStep->addWidget(new QLabel(tr("Text after step:")));
    m_textStep = new QSlider(Qt::Horizontal);
    m_textStep->setObjectName("textStep");
    m_textStep->setMinimumWidth(80);
    m_textStep->setToolTip(tr("Show the text as it stands after this many steps: later letters are "
                              "still masked (·)."));
    m_textStepLabel = new QLabel;
    textStep->addWidget(m_textStep, 1);
    textStep->addWidget(m_textStepLabel);
    // What is decoded, on the same line: the second holds which sampler Trajectories animates,
    // or for a chain (whose decodes are not animated there) its D and M.
    distribution->addWidget(createChainControls());
    distribution->addStretch(1);
    selectors->addWidget(m_distSelectors);
    auto* second = new QHBoxLayout;
    second->addWidget(m_chainSizes);
    m_animatedRow = new QWidget;
    auto* animated = new QHBoxLayout(m_animatedRow);
    animated->setContentsMargins(0, 0, 0, 0);
    animated->addWidget(new QLabel(tr("Sampler animated in Trajectories:")));
    animated->addWidget(m_animated);
    second->addWidget(m_animatedRow);
    second->addStretch(1);
    selectors->addLayout(second);
    return selectorRow;
}

// What is decoded (the project's data, or sequences of a Markov chain) with the chain's D and M.
QWidget* DecodingView::createChainControls() {
    // What is decoded: the project's data, or sequences of a Markov chain of letters.
    m_chainRow = new QWidget;
    auto* chainRow = new QHBoxLayout(m_chainRow);
    chainRow->setContentsMargins(6, 0, 0, 0);
    m_chainSource = new QComboBox;
    m_chainSource->setObjectName("chainSource");
    m_chainSource->setMinimumWidth(m_chainSource->fontMetrics().height() * 7);
    m_chainSource->setToolTip(
        tr("Decode the project's data, or sequences of a Markov chain: the bundled chain of English "
           "letters or a chain file (diffuscope chain --text fits one). On a chain the denoiser is the "
           "chain's exact one and every decoded sequence is judged by its true likelihood."));
    m_chainLength = new QSpinBox;
    m_chainLength->setObjectName("chainLength");
    m_chainLength->setRange(static_cast<int>(core::limits::kChainLength.min),
                            static_cast<int>(core::limits::kChainLength.max));
    m_chainLength->setKeyboardTracking(false);
    m_chainLength->setToolTip(tr("D, the letters of each decoded sequence."));
    m_chainSamples = new QSpinBox;
    m_chainSamples->setObjectName("chainSamples");
    m_chainSamples->setRange(2, 100000);
    m_chainSamples->setKeyboardTracking(false);
    m_chainSamples->setToolTip(tr("M, the sequences decoded for each sampler and N (Monte Carlo; the "
                                  "charts show ±1 standard error)."));
    chainRow->addWidget(new QLabel(tr("Decode:")));
    chainRow->addWidget(m_chainSource);
    // D and M only where a chain is decoded.
    m_chainSizes = new QWidget;
    auto* sizes = new QHBoxLayout(m_chainSizes);
    sizes->setContentsMargins(0, 0, 12, 0);
    sizes->addWidget(new QLabel(tr("length D")));
    sizes->addWidget(m_chainLength);
    sizes->addWidget(new QLabel(tr("sequences M")));
    sizes->addWidget(m_chainSamples);
    connect(m_chainSource, &QComboBox::activated, this, [this](int index) {
        if (m_refreshing) return;
        const QString source = m_chainSource->itemData(index).toString();
        if (source != QLatin1String("…")) {
            setChainSource(source);
            return;
        }
        const QString file = QFileDialog::getOpenFileName(this, tr("Open a chain file"), QString(),
                                                          tr("Chain files (*.json);;All files (*)"));
        if (file.isEmpty() || !setChainSource(file)) fillChainControls();
    });
    connect(m_chainLength, &QSpinBox::valueChanged, this, [this](int length) {
        if (m_refreshing) return;
        core::project::DecodingChain chain = m_document->categorical().decoding.chain;
        if (chain.length == length) return;
        chain.length = length;
        applyChain(chain, tr("Set the decoded length D"));
    });
    connect(m_chainSamples, &QSpinBox::valueChanged, this, [this](int samples) {
        if (m_refreshing) return;
        core::project::DecodingChain chain = m_document->categorical().decoding.chain;
        if (chain.samples == samples) return;
        chain.samples = samples;
        applyChain(chain, tr("Set the decoded sequences M"));
    });
    return m_chainRow;
}

QWidget* DecodingView::createControls() {
    auto* top = new QWidget;
    top->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    auto* layout = new QVBoxLayout(top);
    layout->setContentsMargins(6, 6, 6, 2);
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Colour"), tr("Sampler")});
    m_table->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(Colour, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(Sampler, QHeaderView::Stretch);
    m_table->setColumnWidth(Name, 180);
    m_table->verticalHeader()->setDefaultSectionSize(22);
    m_table->setMaximumHeight(150);
    m_table->setToolTip(
        tr("One decoding sampler per row. Sampler: order=ancestral|random|confidence|margin|"
           "entropy|low-confidence; values=sample|argmax|temperature:τ; remask=cap:η|rescale:η|"
           "conf|loop:η,t_on,t_off,α_on (with the ancestral order; loop with times=mdlm); "
           "gumbel=float64|float32; per-step=schedule|llada|dream|threshold:τ|eb:γ; blocks=B; "
           "times=schedule|dream|mdlm; scores=plain|tempered. Or a reference code's sampler: "
           "preset=llada:low_confidence|llada:random|dream:origin|dream:maskgit_plus|"
           "dream:topk_margin|dream:entropy|mdlm|remdm:cap:η|remdm:rescale:η|remdm:conf|"
           "remdm:loop:η,t_on,t_off,α_on|fast-dllm:τ|eb:γ with temperature=τ (not for mdlm and "
           "remdm; and blocks=B for llada, fast-dllm and eb). Keys are separated by ';'. Colour: "
           "#rrggbb, or empty for the palette's."));
    layout->addWidget(m_table, 1);
    auto* row = new QHBoxLayout;
    m_add->setToolTip(tr("Add a sampler (ancestral order) at the end."));
    m_addPreset->setObjectName("addPreset");
    m_addPreset->setToolTip(
        tr("Add a reference code's sampler as its code runs it: LLaDA's generate(), Dream's "
           "diffusion_generate, MDLM's and ReMDM's ddpm_cache, Fast-dLLM's threshold decoding or "
           "the EB-sampler. Edit its numbers, and add temperature=τ (and blocks=B for LLaDA's, "
           "Fast-dLLM's and the EB-sampler's) to its sampler string."));
    auto* presets = new QMenu(m_addPreset);
    for (const char* preset : core::categorical::kDecodePresets) {
        const QString name = QString::fromLatin1(preset);
        presets->addAction(name, this, [this, name] { addPreset(name); });
    }
    m_addPreset->setMenu(presets);
    m_remove->setToolTip(tr("Remove the selected sampler."));
    m_defaults->setToolTip(
        tr("Replace the samplers by the default set: ancestral; confidence "
           "with sampled values; confidence with argmax; margin; entropy; "
           "random."));
    m_cancel->setToolTip(tr("Cancel the computation; the charts keep the previous results."));
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(200);
    m_status->setWordWrap(true);
    row->addWidget(m_add);
    row->addWidget(m_addPreset);
    row->addWidget(m_remove);
    row->addWidget(m_defaults);
    row->addSpacing(12);
    row->addWidget(m_cancel);
    row->addWidget(m_progress);
    row->addWidget(m_status, 1);
    layout->addLayout(row);
    m_errors->setWordWrap(true);
    m_errors->setStyleSheet("color: #b00020;");
    m_errors->hide();
    layout->addWidget(m_errors);
    connect(m_add, &QPushButton::clicked, this, [this] { addConfig(); });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const auto rows = m_table->selectionModel()->selectedRows();
        removeConfig(!rows.isEmpty() ? rows.front().row() : m_table->currentRow());
    });
    connect(m_defaults, &QPushButton::clicked, this, [this] { resetConfigs(); });
    connect(m_cancel, &QPushButton::clicked, this, &DecodingView::cancelRequested);
    connect(m_table, &QTableWidget::cellChanged, this, &DecodingView::onItemChanged);
    return top;
}

void DecodingView::onDocumentChanged() {
    fillTable();
    fillSelectors();
    fillChainControls();
    // A chain decodes with a mask state of its own, whatever the project's π.
    const bool masked = m_document->categorical().maskState || m_document->categorical().decoding.chain.active();
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_table, m_add, m_addPreset, m_remove, m_defaults}) {
        w->setEnabled(masked);
    }
}

void DecodingView::fillTable() {
    m_refreshing = true;
    const auto& configs = m_document->categorical().decoding.configs;
    m_table->setRowCount(static_cast<int>(configs.size()));
    for (int r = 0; r < static_cast<int>(configs.size()); ++r) {
        const auto& c = configs[static_cast<size_t>(r)];
        const QString colour = QString::fromStdString(core::project::decodingColour(c, r));
        const QString texts[NumColumns] = {QString::fromStdString(c.name),
                                           QString::fromStdString(c.colour),
                                           QString::fromStdString(c.sampler)};
        for (int col = 0; col < NumColumns; ++col) {
            QTableWidgetItem* item = m_table->item(r, col);
            if (item == nullptr) {
                item = new QTableWidgetItem;
                m_table->setItem(r, col, item);
            }
            if (item->text() != texts[col]) item->setText(texts[col]);
        }
        QTableWidgetItem* swatch = m_table->item(r, Colour);
        swatch->setBackground(QColor(colour));
        swatch->setForeground(QColor(colour).lightnessF() < 0.5 ? Qt::white : Qt::black);
        if (c.colour.empty()) swatch->setToolTip(tr("The palette's colour %1").arg(colour));
    }
    // As high as its rows (two at least): the charts keep the height a short list does not need.
    const int rows = std::max(2, m_table->rowCount());
    m_table->setMaximumHeight(std::min(150, m_table->horizontalHeader()->height() + rows * 22 + 4));
    m_refreshing = false;
}

void DecodingView::fillSelectors() {
    m_refreshing = true;
    const auto& decoding = m_document->categorical().decoding;
    const int distIndex = m_distSampler->currentIndex();
    m_distSampler->clear();
    for (const auto& c : decoding.configs) {
        m_distSampler->addItem(decodingDisplayName(c));
    }
    if (distIndex >= 0 && distIndex < m_distSampler->count()) {
        m_distSampler->setCurrentIndex(distIndex);
    }
    m_animated->clear();
    m_animated->addItem(tr("reverse sampler (the kernel)"), -1);
    for (int i = 0; i < static_cast<int>(decoding.configs.size()); ++i) {
        m_animated->addItem(decodingDisplayName(decoding.configs[static_cast<size_t>(i)]), i);
    }
    m_animated->setCurrentIndex(decoding.animated + 1);
    m_animated->setEnabled(m_document->categorical().maskState);
    m_refreshing = false;
}

void DecodingView::fillChainControls() {
    m_refreshing = true;
    const core::project::DecodingChain& chain = m_document->categorical().decoding.chain;
    m_chainSource->clear();
    m_chainSource->addItem(tr("the project's data"), QString());
    m_chainSource->addItem(tr("English letters"), QString::fromLatin1(core::project::kBundledChain));
    const QString source = QString::fromStdString(chain.source);
    if (chain.active() && source != QLatin1String(core::project::kBundledChain)) {
        m_chainSource->addItem(tr("chain %1").arg(QFileInfo(source).fileName()), source);
        m_chainSource->setItemData(m_chainSource->count() - 1, source, Qt::ToolTipRole);
    }
    m_chainSource->addItem(tr("Chain file…"), QStringLiteral("…"));
    m_chainSource->setCurrentIndex(std::max(0, m_chainSource->findData(source)));
    m_chainLength->setValue(chain.length);
    m_chainSamples->setValue(chain.samples);
    // The second selector line holds the chain's D and M or the animated sampler, never both
    // (even while a chain's first results are on their way): it stays within a lesson's width.
    m_chainSizes->setVisible(chain.active());
    m_animatedRow->setVisible(!chain.active());
    m_refreshing = false;
}

bool DecodingView::applyChain(const core::project::DecodingChain& chain, const QString& undoText) {
    core::project::DecodingSettings settings = m_document->categorical().decoding;
    settings.chain = chain;
    const bool applied = applySettings(settings, undoText);
    if (!applied) fillChainControls();
    return applied;
}

bool DecodingView::setChainSource(const QString& source) {
    core::project::DecodingChain chain = m_document->categorical().decoding.chain;
    if (QString::fromStdString(chain.source) == source) return true;
    chain.source = source.toStdString();
    return applyChain(chain, source.isEmpty() ? tr("Decode the project's data") : tr("Decode a chain"));
}

bool DecodingView::applySettings(const core::project::DecodingSettings& settings,
                                 const QString& undoText) {
    document::CategoricalParams params = m_document->categorical();
    params.decoding = settings;
    const core::Status status = m_document->setCategorical(params, undoText);
    if (!status) {
        setErrors(QString::fromStdString(status.error().toString()));
        fillTable();
        return false;
    }
    return true;
}

void DecodingView::onItemChanged(int row, int column) {
    if (m_refreshing) return;
    core::project::DecodingSettings settings = m_document->categorical().decoding;
    if (row < 0 || row >= static_cast<int>(settings.configs.size())) return;
    auto& c = settings.configs[static_cast<size_t>(row)];
    const std::string text = m_table->item(row, column)->text().trimmed().toStdString();
    switch (column) {
        case Name:
            c.name = text;
            break;
        case Colour:
            c.colour = text;
            break;
        default:
            c.sampler = text;
            break;
    }
    if (settings == m_document->categorical().decoding) return;
    applySettings(settings, tr("Edit a decoding sampler"));
}

bool DecodingView::addConfig() {
    core::project::DecodingSettings settings = m_document->categorical().decoding;
    core::project::DecodingConfig config;
    // A name no other sampler has.
    for (int i = static_cast<int>(settings.configs.size()) + 1;; ++i) {
        config.name = tr("sampler %1").arg(i).toStdString();
        if (std::none_of(settings.configs.begin(), settings.configs.end(),
                         [&](const auto& c) { return c.name == config.name; })) {
            break;
        }
    }
    settings.configs.push_back(config);
    return applySettings(settings, tr("Add a decoding sampler"));
}

bool DecodingView::addPreset(const QString& preset) {
    core::project::DecodingSettings settings = m_document->categorical().decoding;
    core::project::DecodingConfig config;
    config.sampler = "preset=" + preset.toStdString();
    // The preset's name, numbered when another sampler has it.
    for (int i = 1;; ++i) {
        config.name = preset.toStdString() + (i == 1 ? "" : " (" + std::to_string(i) + ")");
        if (std::none_of(settings.configs.begin(), settings.configs.end(),
                         [&](const auto& c) { return c.name == config.name; })) {
            break;
        }
    }
    settings.configs.push_back(config);
    return applySettings(settings, tr("Add a decoding sampler"));
}

bool DecodingView::removeConfig(int row) {
    core::project::DecodingSettings settings = m_document->categorical().decoding;
    if (row < 0 || row >= static_cast<int>(settings.configs.size())) return false;
    settings.configs.erase(settings.configs.begin() + row);
    if (settings.animated == row)
        settings.animated = -1;
    else if (settings.animated > row)
        --settings.animated;
    return applySettings(settings, tr("Remove a decoding sampler"));
}

bool DecodingView::setSampler(int row, const QString& spec) {
    core::project::DecodingSettings settings = m_document->categorical().decoding;
    if (row < 0 || row >= static_cast<int>(settings.configs.size())) return false;
    settings.configs[static_cast<size_t>(row)].sampler = spec.toStdString();
    return applySettings(settings, tr("Edit a decoding sampler"));
}

bool DecodingView::resetConfigs() {
    core::project::DecodingSettings settings = m_document->categorical().decoding;
    settings.configs = core::project::DecodingSettings::defaultConfigs();
    settings.animated = -1;
    return applySettings(settings, tr("Default decoding samplers"));
}

void DecodingView::setRunning(bool running) {
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    if (!running) m_progress->setValue(0);
}

void DecodingView::setProgress(int permille, const QString& stage) {
    m_progress->setValue(permille);
    if (!stage.isEmpty()) m_status->setText(stage);
}

void DecodingView::setStatus(const QString& status) { m_status->setText(status); }

void DecodingView::setErrors(const QString& errors) {
    m_errors->setText(errors);
    m_errors->setVisible(!errors.isEmpty());
}

void DecodingView::clear(const QString& reason) {
    m_data.reset();
    setStatus(reason);
    m_note->clear();
    redraw();
    setData({});
}

void DecodingView::setResult(std::shared_ptr<const DecodingViewData> data) {
    m_data = std::move(data);
    m_refreshing = true;
    const QString steps = m_distSteps->currentText();
    m_distSteps->clear();
    if (m_data) {
        for (int n : m_data->steps) m_distSteps->addItem(QString::number(n));
        const int again = m_distSteps->findText(steps);
        m_distSteps->setCurrentIndex(again >= 0 ? again : m_distSteps->count() - 1);
    }
    m_refreshing = false;
    m_note->setText(!m_data         ? QString()
                    : anyInfinite() ? m_data->note + ' ' + infiniteExplanation() + '.'
                                    : m_data->note);
    redraw();
    // The CSV: one row per sampler and N.
    charts::ChartData table;
    if (m_data && m_data->chain) {
        table = chainCsv(*m_data);
    } else if (m_data) {
        table.textHeader = {"sampler"};
        table.text.resize(1);
        table.header = {"N",
                        "entropy",
                        "kl_data_output",
                        "kl_output_data",
                        "total_variation",
                        "position_entropy",
                        "data_entropy"};
        if (m_data->digits) {
            table.header.insert(table.header.end(),
                                {"accuracy", "data_accuracy", "data_position_entropy"});
        }
        // Which token when, per position: its mean commit step (the raster's summary).
        const size_t measures = table.header.size();
        int dims = 0;
        for (const auto& curve : m_data->curves) {
            if (!curve.commit.empty() && !m_data->steps.empty()) {
                dims = static_cast<int>(curve.commit.front().size()) / std::max(1, m_data->steps.front());
            }
        }
        for (int d = 0; d < dims; ++d) table.header.push_back("mean_commit_step_" + std::to_string(d + 1));
        table.columns.resize(table.header.size());
        for (const auto& curve : m_data->curves) {
            for (size_t i = 0; i < m_data->steps.size() && i < curve.entropy.size(); ++i) {
                table.text[0].push_back(curve.name.toStdString());
                table.columns[0].push_back(m_data->steps[i]);
                table.columns[1].push_back(curve.entropy[i]);
                table.columns[2].push_back(curve.klDataOutput[i]);
                table.columns[3].push_back(curve.klOutputData[i]);
                table.columns[4].push_back(curve.totalVariation[i]);
                table.columns[5].push_back(curve.positionEntropy[i]);
                table.columns[6].push_back(m_data->dataEntropy);
                if (m_data->digits) {
                    table.columns[7].push_back(i < curve.accuracy.size()
                                                   ? curve.accuracy[i]
                                                   : std::numeric_limits<double>::quiet_NaN());
                    table.columns[8].push_back(m_data->dataAccuracy);
                    table.columns[9].push_back(m_data->dataPositionEntropy);
                }
                const std::vector<double> mean =
                    i < curve.commit.size() ? meanCommitSteps(curve.commit[i], m_data->steps[i], dims)
                                            : std::vector<double>(static_cast<size_t>(dims), std::nan(""));
                for (int d = 0; d < dims; ++d) table.columns[measures + static_cast<size_t>(d)].push_back(mean[static_cast<size_t>(d)]);
            }
        }
    }
    setData(std::move(table));
}

void DecodingView::arrangeGrid(Arrangement arrangement) {
    if (arrangement == m_arrangement) return;
    m_arrangement = arrangement;
    QGridLayout* grid = m_chartGrid;
    auto place = [grid](QWidget* widget, int row, int column, int rows, int columns) {
        grid->removeWidget(widget);
        grid->addWidget(widget, row, column, rows, columns);
    };
    auto figure = [this](int index) { return charts::figureOf(m_charts[static_cast<size_t>(index)]); };
    for (int c = 0; c < 5; ++c) grid->setColumnStretch(c, 0);
    for (int r = 0; r < 2; ++r) grid->setRowStretch(r, 0);
    switch (arrangement) {
    case Arrangement::Tall:
    case Arrangement::Digits:
        // The small charts two by two, then the distribution and the raster at full height.
        // The small charts keep a quarter each of what is not the raster's: their axis titles
        // fit at 1280 × 720. For the digits the accuracy chart takes the left half alone.
        for (int i = Entropy; i <= TotalVariation; ++i) place(figure(i), i / 2, i % 2, 1, 1);
        place(m_distributionFigure, 0, 2, 2, 1);
        place(m_commit, 0, 3, 2, 1);
        grid->setColumnStretch(0, arrangement == Arrangement::Digits ? 1 : 2);
        grid->setColumnStretch(1, arrangement == Arrangement::Digits ? 0 : 2);
        grid->setColumnStretch(2, arrangement == Arrangement::Digits ? 1 : 3);
        grid->setColumnStretch(3, 1);
        break;
    case Arrangement::Wide:
        // Many sequences: their labels need the width, so the distribution spans
        // the row under the four small charts and the raster keeps the right edge.
        for (int i = Entropy; i <= TotalVariation; ++i) place(figure(i), 0, i, 1, 1);
        place(m_distributionFigure, 1, 0, 1, 4);
        place(m_commit, 0, 4, 2, 1);
        for (int c = 0; c < 4; ++c) grid->setColumnStretch(c, 2);
        grid->setColumnStretch(4, 1);
        grid->setRowStretch(0, 2);
        grid->setRowStretch(1, 3);
        break;
    case Arrangement::Chain:
        // Three measures in a row (the longest run with the legend) over the decoded text;
        // the raster at full height on the right, where its step axis has room.
        place(figure(Entropy), 0, 0, 1, 1);
        place(figure(KlDataOutput), 0, 1, 1, 1);
        place(m_distributionFigure, 0, 2, 1, 1);
        place(m_textPanel, 1, 0, 1, 3);
        place(m_commit, 0, 3, 2, 1);
        for (int c = 0; c < 3; ++c) grid->setColumnStretch(c, 2);
        grid->setColumnStretch(3, 1);
        grid->setRowStretch(0, 2);
        grid->setRowStretch(1, 1);
        break;
    case Arrangement::None:
        break;
    }
    m_textPanel->setVisible(arrangement == Arrangement::Chain);
    if (arrangement != Arrangement::Chain) grid->removeWidget(m_textPanel);
}

void DecodingView::redraw() {
    const bool digits = m_data && m_data->digits;
    const bool chain = m_data && m_data->chain;
    // For the digits the entropy chart's place shows the accuracy and the sequence measures
    // (plug-in estimates from far fewer images than there are) are left out; a chain has no
    // data distribution to compare with, so KL(output ‖ data) goes.
    for (int i = KlDataOutput; i <= TotalVariation; ++i) {
        if (auto* figure = charts::figureOf(m_charts[static_cast<size_t>(i)]))
            figure->setVisible(!digits && !(chain && i != KlDataOutput));
    }
    const bool manySequences = m_data && m_data->exact && m_data->rowLabels.size() > kWideDistributionRows &&
                               m_data->rowLabels.size() <= kMaxDistributionRows;
    arrangeGrid(chain           ? Arrangement::Chain
                : digits        ? Arrangement::Digits
                : manySequences ? Arrangement::Wide
                                : Arrangement::Tall);
    for (int i = Entropy; i <= TotalVariation; ++i) {
        if (auto* figure = charts::figureOf(m_charts[static_cast<size_t>(i)])) {
            figure->setTitle(measureTitle(digits && i == Entropy ? Accuracy : i, chain));
        }
    }
    m_distLabel->setText(chain ? tr("Text and commits of:") : tr("Distribution and commits of:"));
    drawMeasure(digits ? Accuracy : Entropy);
    for (int i = KlDataOutput; i <= TotalVariation; ++i) {
        if (!chain || i == KlDataOutput) drawMeasure(i);
    }
    drawDistribution();
    drawCommit();
    drawText();
}

void DecodingView::drawText() {
    const DecodingViewData::Curve* curve = nullptr;
    const int stepIndex = m_distSteps->currentIndex();
    if (m_data && m_data->chain) {
        for (const auto& c : m_data->curves) {
            if (c.config == m_distSampler->currentIndex()) curve = &c;
        }
    }
    if (curve == nullptr || stepIndex < 0 || static_cast<size_t>(stepIndex) >= curve->shown.size()) {
        m_text->clear(m_data && m_data->chain ? tr("No text for this sampler.") : QString());
        m_textStep->setEnabled(false);
        return;
    }
    const int n = m_data->steps[static_cast<size_t>(stepIndex)];
    m_text->setSequences(m_data->chainStates, curve->shown[static_cast<size_t>(stepIndex)], n,
                         tr("Decoded text, %1, N = %2").arg(curve->name).arg(n));
    m_textStep->setEnabled(true);
    const QSignalBlocker block(m_textStep);
    m_textStep->setRange(0, n);
    m_textStep->setValue(n);
    m_textStepLabel->setText(tr("%1 of %2").arg(n).arg(n));
}

void DecodingView::drawCommit() {
    const int curveIndex = m_distSampler->currentIndex();
    const int stepIndex = m_distSteps->currentIndex();
    const DecodingViewData::Curve* curve = nullptr;
    if (m_data) {
        for (const auto& c : m_data->curves) {
            if (c.config == curveIndex) curve = &c;
        }
    }
    if (curve == nullptr || stepIndex < 0 || static_cast<size_t>(stepIndex) >= curve->commit.size() ||
        curve->commit[static_cast<size_t>(stepIndex)].empty()) {
        m_commit->clear(m_data ? tr("No commits for this sampler.") : QString());
        return;
    }
    const int n = m_data->steps[static_cast<size_t>(stepIndex)];
    const std::vector<double>& commit = curve->commit[static_cast<size_t>(stepIndex)];
    const int dims = static_cast<int>(commit.size()) / std::max(1, n);
    const QString caption = m_data->imageSide > 0
                                ? tr("Which pixel first: mean commit step, %1, N = %2").arg(curve->name).arg(n)
                                : tr("Which token when: P(unmasked after each step), %1, N = %2")
                                      .arg(curve->name)
                                      .arg(n);
    m_commit->setCommit(commit, n, dims, m_data->imageSide, caption);
}

void DecodingView::drawMeasure(int index) {
    // The per-position entropy takes the distribution chart's place.
    QChart* chart = m_charts[static_cast<size_t>(index == PositionEntropy || index == LongestRepeat ? Distribution
                                                 : index == Accuracy                                ? Entropy
                                                                                                    : index)];
    charts::clearChart(chart);
    auto* x = new QLogValueAxis;
    x->setBase(2.0);
    x->setLabelFormat("%g");
    x->setTitleText(tr("steps N (log)"));
    auto* y = new QValueAxis;
    // The total variation has no unit, and its chart's title names it.
    const bool chain = m_data && m_data->chain;
    y->setTitleText(measureUnit(index, chain));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    if (!m_data || m_data->steps.empty()) {
        charts::setAxisRange(x, 1, 2);
        charts::setAxisRange(y, 0, 1);
        if (auto* figure = charts::figureOf(chart)) figure->sync();
        return;
    }
    const auto& steps = m_data->steps;
    // The data's own value as a dashed line: its entropy, or for the digits the real images'
    // accuracy and per-pixel entropy.
    const bool reference =
        index == Entropy || (m_data->digits && (index == Accuracy || index == PositionEntropy));
    const double referenceValue = index == Entropy && chain ? m_data->chainEntropy
                                  : index == Entropy    ? m_data->dataEntropy
                                  : index == Accuracy ? m_data->dataAccuracy
                                                      : m_data->dataPositionEntropy;
    double top = reference ? referenceValue : 0.0;
    bool infinite = false;
    for (const auto& curve : m_data->curves) {
        for (double v : measureOf(curve, index, chain)) {
            if (std::isfinite(v))
                top = std::max(top, v);
            else if (std::isinf(v))
                infinite = true;
        }
    }
    // Values that are zero but for rounding (a KL of 1e-17) get the range of zero.
    top = top > 1e-9 ? top * 1.08 : 1.0;
    if (index == Accuracy) {
        // From a tenth below the lowest accuracy (or the reference) up to 1.
        double low = referenceValue;
        for (const auto& curve : m_data->curves) {
            for (double v : curve.accuracy) {
                if (std::isfinite(v)) low = std::min(low, v);
            }
        }
        low = std::max(0.0, std::floor(low * 10.0 - 0.5) / 10.0);
        // A little above 1: the points at 1 are drawn whole, and 1 gets its tick.
        charts::setAxisRange(y, low, 1.0 + 0.04 * (1.0 - low));
    } else {
        // Room above the curves for the markers of an infinite KL.
        charts::setNiceRange(y, 0.0, infinite ? top * 1.12 : top);
    }
    const double markerY = y->min() + 0.94 * (y->max() - y->min());
    charts::setAxisRange(x, steps.front() / 1.3, steps.back() * 1.3);
    if (reference) {
        auto* line = new QLineSeries;
        line->setName(referenceName());
        line->setPen(QPen(Qt::black, 1.5, Qt::DashLine));
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
        line->replace({QPointF(steps.front() / 1.3, referenceValue),
                       QPointF(steps.back() * 1.3, referenceValue)});
        charts::hideFromLegend(line);
    }
    QList<QPointF> infinitePoints;
    const int numCurves = static_cast<int>(m_data->curves.size());
    for (int c = 0; c < numCurves; ++c) {
        const auto& curve = m_data->curves[static_cast<size_t>(c)];
        const std::vector<double>& values = measureOf(curve, index, chain);
        const std::vector<double>& errors = errorOf(curve, index, chain);
        // Monte Carlo: samplers side by side at each N, a few percent apart on the log axis, so
        // that curves that coincide within their errors stay distinguishable; the data keep the
        // true N. Exact curves stand at N itself.
        const double dodge = !m_data->exact && numCurves > 1
                                 ? std::pow(2.0, 0.06 * (c - (numCurves - 1) / 2.0))
                                 : 1.0;
        infinitePoints +=
            drawMeasureCurve(chart, x, y, curve, values, errors, steps, dodge, markerY);
    }
    if (!infinitePoints.isEmpty()) {
        auto* inf = addInfiniteMarkers(chart, infiniteName());
        inf->attachAxis(x);
        inf->attachAxis(y);
        inf->replace(infinitePoints);
        charts::hideFromLegend(inf);
    }
    if (auto* figure = charts::figureOf(chart)) figure->sync();
}

void DecodingView::drawDistribution() {
    QChart* chart = m_charts[Distribution];
    charts::clearChart(chart);
    auto* categories = new QBarCategoryAxis;
    auto* y = new QValueAxis;
    categories->setTitleText(tr("sequence"));
    y->setTitleText(tr("probability"));
    chart->addAxis(categories, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const int curveIndex = m_distSampler->currentIndex();
    const int stepIndex = m_distSteps->currentIndex();
    const bool drawable = m_data && m_data->exact && !m_data->rowLabels.isEmpty() &&
                          m_data->rowLabels.size() <= kMaxDistributionRows;
    auto* figure = static_cast<charts::FigureChart*>(m_distributionFigure);
    if (m_data && !drawable) {
        // Too many sequences for bars (or only samples of them): the mean entropy of each
        // position's output marginal against N instead, defined for any D; on a chain the
        // longest run of one letter.
        const int measure = m_data->chain ? LongestRepeat : PositionEntropy;
        drawMeasure(measure);
        addLegendEntries(chart);
        figure->setTitle(measureTitle(measure, m_data->chain));
        figure->sync();
        return;
    }
    addLegendEntries(chart);
    figure->setTitle(measureTitle(Distribution));
    if (!drawable || curveIndex < 0 || stepIndex < 0) {
        charts::setAxisRange(y, 0, 1);
        figure->sync();
        return;
    }
    const DecodingViewData::Curve* curve = nullptr;
    for (const auto& c : m_data->curves) {
        if (c.config == curveIndex) curve = &c;
    }
    auto* series = new QBarSeries;
    auto* data = new QBarSet(tr("data"));
    data->setColor(charts::palette::kData);
    double top = 0.0;
    for (double p : m_data->dataRows) {
        data->append(p);
        top = std::max(top, p);
    }
    series->append(data);
    if (curve != nullptr && static_cast<size_t>(stepIndex) < curve->rows.size()) {
        auto* output = new QBarSet(
            tr("%1, N = %2").arg(curve->name).arg(m_data->steps[static_cast<size_t>(stepIndex)]));
        output->setColor(curve->colour);
        for (double p : curve->rows[static_cast<size_t>(stepIndex)]) {
            output->append(p);
            top = std::max(top, p);
        }
        series->append(output);
    }
    chart->addSeries(series);
    categories->setCategories(m_data->rowLabels);
    series->attachAxis(categories);
    series->attachAxis(y);
    charts::setNiceRange(y, 0.0, std::min(1.0, top * 1.1 + 0.01));
    figure->sync();
}

QString DecodingView::infiniteName() { return tr("infinite KL"); }

QString DecodingView::referenceName() const {
    if (m_data && m_data->chain) return tr("the chain's entropy");
    return m_data && m_data->digits ? tr("real training images") : tr("data entropy H(p)");
}

QString DecodingView::infiniteExplanation() {
    return tr(
        "▲ infinite KL: KL(data ‖ output) when the output gives probability 0 to a data "
        "sequence, KL(output ‖ data) when it puts mass where the data has none");
}

bool DecodingView::anyInfinite() const {
    // The digits' charts and a chain's leave the KLs out.
    if (!m_data || m_data->digits || m_data->chain) return false;
    for (const auto& curve : m_data->curves) {
        for (const auto* values : {&curve.klDataOutput, &curve.klOutputData}) {
            if (std::any_of(values->begin(), values->end(), [](double v) { return std::isinf(v); }))
                return true;
        }
    }
    return false;
}

// The line charts' legend, as entries of the distribution chart: series without points.
void DecodingView::addLegendEntries(QChart* chart) {
    if (!m_data) return;
    auto* entropy = new QLineSeries;
    entropy->setName(referenceName());
    entropy->setPen(QPen(Qt::black, 1.5, Qt::DashLine));
    chart->addSeries(entropy);
    for (const auto& curve : m_data->curves) {
        auto* line = new QLineSeries;
        line->setName(curve.name);
        line->setPen(QPen(curve.colour, 2));
        chart->addSeries(line);
    }
    if (anyInfinite()) {
        addInfiniteMarkers(chart, infiniteName());
    }
}

}  // namespace ui::views
