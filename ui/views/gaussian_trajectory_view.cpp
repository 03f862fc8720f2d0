// SPDX-License-Identifier: MIT
#include "ui/views/gaussian_trajectory_view.h"

#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QCoreApplication>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/charts/chart_panel.h"
#include "ui/charts/figure_chart.h"
#include "ui/charts/palette.h"
#include "ui/views/heatmap_widget.h"

namespace ui::views {

// A row's label on screen: the fixed ones translated (the CSV keeps them in English), the typed
// list's as it is.
static QString shownLabel(const QString& label) {
    return QCoreApplication::translate("ui::views::GaussianTrajectoryView",
                                       label.toUtf8().constData());
}

class TrajectoryCanvas : public QWidget {
public:
    explicit TrajectoryCanvas(GaussianTrajectoryView* view) : QWidget(view), m_view(view) {
        setMouseTracking(true);
    }
    // The rows and their labels whole, and a heatmap of at least four lines of text a side.
    QSize minimumSizeHint() const override {
        const double em = QFontMetricsF(font()).height();
        const GaussianTrajectoryView::CanvasLayout layout = m_view->canvasLayout(QSize(0, 0));
        const double top = layout.map.top();
        const double barRoom = 20.0 + QFontMetricsF(font()).horizontalAdvance("6.7e-05") + 8.0;
        return {static_cast<int>(std::ceil(layout.left + 4.0 * em + barRoom + 20.0)),
                static_cast<int>(std::ceil(top + 4.0 * em + 1.6 * em))};
    }

protected:
    void paintEvent(QPaintEvent*) override;
    // Tooltip events carry the readout under the cursor, so the view's own tooltip (what the
    // view shows) stays for the rest of the canvas.
    bool event(QEvent* event) override {
        if (event->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(event);
            const QString text = m_view->canvasTooltip(help->pos());
            if (!text.isEmpty()) {
                QToolTip::showText(help->globalPos(), text, this);
                return true;
            }
        }
        return QWidget::event(event);
    }

private:
    void paintTickRows(QPainter& painter, const GaussianTrajectoryView::CanvasLayout& layout);
    void paintHeatmap(QPainter& painter, const GaussianTrajectoryView::CanvasLayout& layout);

    GaussianTrajectoryView* m_view;
};

namespace {
// Where timestep n (1..N) sits on a row or on the heatmap's side.
double rowX(const GaussianTrajectoryView::CanvasLayout& layout, double step, int numSteps) {
    return layout.left + (step - 1.0) / std::max(1, numSteps - 1) * (layout.right - layout.left);
}

// "10⁻⁵": a whole power of ten with its exponent in superscript digits.
QString powerOfTen(int exponent) {
    static const QString digits = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
    QString text = QStringLiteral("10");
    if (exponent < 0) text += QChar(0x207B);  // superscript minus
    for (const QChar c : QString::number(std::abs(exponent))) text += digits[c.digitValue()];
    return text;
}

// Round ticks of a logarithmic colour bar over [10^low, 10^high]: whole powers of ten, every
// 1, 2, 5 or 10 decades so that at most six are drawn, or 1, 2 and 5 × 10^k where the bar spans
// less than two decades. Each tick is its log10 and its label.
std::vector<std::pair<double, QString>> logBarTicks(double low, double high) {
    std::vector<std::pair<double, QString>> ticks;
    if (!(high > low)) return ticks;
    if (high - low >= 2.0) {
        for (const int every : {1, 2, 5, 10, 20, 50}) {
            ticks.clear();
            for (int k = static_cast<int>(std::ceil(low / every)) * every; k <= high; k += every) {
                ticks.emplace_back(k, powerOfTen(k));
            }
            if (ticks.size() <= 6) break;
        }
        return ticks;
    }
    for (int k = static_cast<int>(std::floor(low)); k <= std::ceil(high); ++k) {
        for (const double m : {1.0, 2.0, 5.0}) {
            const double value = std::log10(m) + k;
            if (value >= low - 1e-9 && value <= high + 1e-9) {
                ticks.emplace_back(value, QString::number(m * std::pow(10.0, k), 'g', 1));
            }
        }
    }
    return ticks;
}
}  // namespace

std::vector<GaussianTrajectoryView::TickRow> GaussianTrajectoryView::tickRows() const {
    std::vector<TickRow> rows;
    const TickRow all[] = {
        {QT_TRANSLATE_NOOP("ui::views::GaussianTrajectoryView", "DP-optimal"), &m_rows.dp,
         m_rows.costDp, charts::palette::kDp},
        {QT_TRANSLATE_NOOP("ui::views::GaussianTrajectoryView", "even"), &m_rows.even,
         m_rows.costEven, charts::palette::kEven},
        {QT_TRANSLATE_NOOP("ui::views::GaussianTrajectoryView", "quadratic"), &m_rows.quadratic,
         m_rows.costQuadratic, charts::palette::kQuadratic},
        {m_rows.typedLabel, &m_rows.typed, m_rows.costTyped, charts::palette::kTypedList}};
    for (const TickRow& row : all) {
        if (!row.steps->empty()) rows.push_back(row);  // the last only when it is in use
    }
    return rows;
}

GaussianTrajectoryView::CanvasLayout GaussianTrajectoryView::canvasLayout(QSize size) const {
    // Every length follows the canvas's font, so an export at a larger font scale (or
    // presentation mode) keeps its labels whole.
    const QFontMetricsF metrics(m_canvas->font());
    const double em = metrics.height();
    CanvasLayout layout;
    for (const TickRow& row : tickRows()) {
        layout.left =
            std::max(layout.left,
                     metrics.horizontalAdvance(
                         QString("%1  ΣJ %2").arg(shownLabel(row.label)).arg(row.cost, 0, 'f', 3)) +
                         16.0);
    }
    layout.right = size.width() - 20.0;
    layout.rowsTop = std::max(layout.rowsTop, 0.9 * em);
    layout.rowHeight = std::max(layout.rowHeight, 1.7 * em);
    // Taller rows when a row misses an end, for the note under it.
    for (const TickRow& row : tickRows()) {
        if (row.steps->front() > 1 || row.steps->back() < m_numSteps)
            layout.rowHeight = std::max(30.0, 2.5 * em);
    }
    const double rowsBottom = layout.rowsTop + layout.rowHeight * tickRows().size();
    const double top =
        rowsBottom + 1.2 * em + 0.4 * em + 1.9 * em;  // "n = 1" line, "J(s, t)" above the bar
    // The whole width (less the colour bar and its labels) and the height left: J(s, t) need not
    // be drawn square, and a square left most of a wide figure white.
    const double barRoom = 20.0 + metrics.horizontalAdvance("6.7e-05") + 8.0;
    const double width = std::max(50.0, layout.right - layout.left - barRoom);
    const double height = std::max(50.0, size.height() - top - 1.6 * em);
    layout.map = QRectF(layout.left, top, width, height);
    return layout;
}

void TrajectoryCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    if (m_view->m_numSteps == 0) {
        painter.setPen(Qt::gray);
        painter.drawText(
            rect(), Qt::AlignCenter,
            QCoreApplication::translate("ui::views::TrajectoryCanvas", "Estimating Γ…"));
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    const GaussianTrajectoryView::CanvasLayout layout = m_view->canvasLayout(size());
    paintTickRows(painter, layout);
    paintHeatmap(painter, layout);
}

void TrajectoryCanvas::paintTickRows(QPainter& painter,
                                     const GaussianTrajectoryView::CanvasLayout& layout) {
    const int n = m_view->m_numSteps;
    double y = layout.rowsTop;
    const double em = QFontMetricsF(painter.font()).height();
    for (const GaussianTrajectoryView::TickRow& row : m_view->tickRows()) {
        painter.setPen(Qt::black);
        painter.drawText(QRectF(4, y + 7 - 0.6 * em, layout.left - 10, 1.2 * em),
                         Qt::AlignRight | Qt::AlignVCenter,
                         QString("%1  ΣJ %2").arg(shownLabel(row.label)).arg(row.cost, 0, 'f', 3));
        painter.setPen(QPen(QColor(200, 200, 205), 1));
        painter.drawLine(QPointF(layout.left, y + 7), QPointF(layout.right, y + 7));
        painter.setPen(QPen(row.colour, 2));
        for (int step : *row.steps) {
            painter.drawLine(QPointF(rowX(layout, step, n), y),
                             QPointF(rowX(layout, step, n), y + 14));
        }
        // A row that misses an end says so under that end: the classic spacing pitfalls.
        QFont small = painter.font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        painter.save();
        painter.setFont(small);
        painter.setPen(charts::palette::kVermillion);  // a warning
        if (row.steps->front() > 1) {
            painter.drawText(
                QRectF(layout.left, y + 15, layout.right - layout.left, em),
                Qt::AlignLeft | Qt::AlignVCenter,
                QCoreApplication::translate("ui::views::TrajectoryCanvas", "starts at n = %1 > 1")
                    .arg(row.steps->front()));
        }
        if (row.steps->back() < n) {
            painter.drawText(
                QRectF(layout.left, y + 15, layout.right - layout.left, em),
                Qt::AlignRight | Qt::AlignVCenter,
                QCoreApplication::translate("ui::views::TrajectoryCanvas", "ends at n = %1 < N")
                    .arg(row.steps->back()));
        }
        painter.restore();
        y += layout.rowHeight;
    }
    painter.setPen(QColor(110, 110, 115));
    painter.drawText(QRectF(layout.left, y, 6 * em, 1.2 * em), Qt::AlignLeft | Qt::AlignVCenter,
                     "n = 1");
    painter.drawText(QRectF(layout.right - 8 * em, y, 8 * em, 1.2 * em),
                     Qt::AlignRight | Qt::AlignVCenter, QString("n = %1").arg(n));
}

void TrajectoryCanvas::paintHeatmap(QPainter& painter,
                                    const GaussianTrajectoryView::CanvasLayout& layout) {
    const int n = m_view->m_numSteps;
    const QRectF map = layout.map;
    const double em = QFontMetricsF(painter.font()).height();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(map, m_view->m_heatmap);
    painter.setPen(QColor(150, 150, 155));
    painter.drawRect(map);
    painter.setPen(Qt::black);
    painter.drawText(
        QRectF(map.left(), map.bottom() + 4, layout.right + 20.0 - map.left(), 1.3 * em),
        Qt::AlignLeft,
        QCoreApplication::translate("ui::views::TrajectoryCanvas", "t → 1 to %1   (white: s ≥ t)")
            .arg(n));
    painter.save();
    painter.translate(map.left() - 8, map.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-map.height() / 2, -1.2 * em, map.height(), 1.2 * em), Qt::AlignCenter,
                     "← s");
    painter.restore();
    const auto& dp = m_view->m_rows.dp;
    if (dp.size() >= 2) {
        QPainterPath path;
        for (size_t k = 1; k < dp.size(); ++k) {
            const QPointF point(map.left() + (dp[k] - 1.0) / n * map.width(),
                                map.top() + (dp[k - 1] - 1.0) / n * map.height());
            k == 1 ? path.moveTo(point) : path.lineTo(point);
        }
        painter.setPen(QPen(Qt::white, 4));
        painter.drawPath(path);
        painter.setPen(QPen(charts::palette::kDp, 2));
        painter.drawPath(path);
    }
    // The colour bar: log10 J from the smallest to the largest cell shown.
    const QRectF bar(map.right() + 14, map.top(), 14, map.height());
    for (int y = 0; y < static_cast<int>(bar.height()); ++y) {
        painter.setPen(heatColor(1.0 - y / std::max(1.0, bar.height() - 1)));
        painter.drawLine(QPointF(bar.left(), bar.top() + y), QPointF(bar.right(), bar.top() + y));
    }
    painter.setPen(QColor(150, 150, 155));
    painter.drawRect(bar);
    painter.setPen(Qt::black);
    const double low = m_view->m_logLow, high = m_view->m_logHigh;
    for (const auto& [value, label] : logBarTicks(low, high)) {
        const double y = bar.top() + bar.height() * (high - value) / (high - low);
        painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 4, y));
        painter.drawText(QRectF(bar.right() + 6, y - 0.6 * em, 6 * em, 1.2 * em),
                         Qt::AlignLeft | Qt::AlignVCenter, label);
    }
    // Above the top tick's label (which reaches 0.6 em above the bar), not over it.
    painter.drawText(QRectF(bar.left() - 4, bar.top() - 1.9 * em, 6 * em, 1.2 * em), Qt::AlignLeft,
                     "J(s, t)");
}

QWidget* GaussianTrajectoryView::canvas() const { return m_canvas; }

QString GaussianTrajectoryView::pipelineText(core::schedule::TimestepConvention convention) const {
    if (!m_rows.schedule) return {};
    // The selected row, as "Copy" takes it; the trajectory in use when none is.
    const std::vector<TickRow> rows = tickRows();
    const int row = m_listing->currentRow();
    const std::vector<int>& steps = row >= 0 && row < static_cast<int>(rows.size())
                                        ? *rows[static_cast<size_t>(row)].steps
                                        : m_rows.inUse;
    if (steps.empty()) return {};
    const bool inUse = steps == m_rows.inUse;
    return QString::fromStdString(core::schedule::pipelineTimesteps(
                                      steps, *m_rows.schedule, convention, true,
                                      inUse ? m_rows.inUseClass : core::schedule::PipelineClass{})
                                      .text);
}

QWidget* GaussianTrajectoryView::createListing() {
    m_listing->setHorizontalHeaderLabels({tr("trajectory"), tr("steps"), "ΣJ", tr("timesteps n")});
    m_listing->verticalHeader()->setVisible(false);
    m_listing->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_listing->horizontalHeader()->setStretchLastSection(true);
    m_listing->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_listing->setSelectionMode(QAbstractItemView::SingleSelection);
    m_listing->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // The timesteps wrap onto more lines instead of ending in "…" (25 of them did not fit a
    // row at 1280 × 720); the table scrolls when they need more room than it has.
    m_listing->setWordWrap(true);
    m_listing->setTextElideMode(Qt::ElideNone);
    m_listing->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // A wider or narrower table wraps its rows anew: its height follows, once Qt has laid
    // the rows out again.
    connect(m_listing->horizontalHeader(), &QHeaderView::sectionResized, this,
            [this] { QTimer::singleShot(0, this, &GaussianTrajectoryView::fitListingHeight); });
    m_listing->setToolTip(
        tr("Every trajectory drawn above with its timesteps; select a row to copy "
           "it or to use it as the typed list."));
    auto* copy = new QPushButton(tr("Copy"));
    copy->setToolTip(tr("Copies the selected trajectory's timesteps (comma-separated)."));
    auto* use = new QPushButton(tr("Use as typed list"));
    use->setToolTip(
        tr("Switches the trajectory to a typed list holding the selected timesteps "
           "(one undo step)."));
    auto selectedSteps = [this]() -> QString {
        const int row = m_listing->currentRow();
        return row < 0 ? QString() : m_listing->item(row, 3)->text();
    };
    connect(copy, &QPushButton::clicked, this, [selectedSteps] {
        if (const QString steps = selectedSteps(); !steps.isEmpty()) {
            QApplication::clipboard()->setText(steps);
        }
    });
    connect(use, &QPushButton::clicked, this, [this, selectedSteps] {
        if (const QString steps = selectedSteps(); !steps.isEmpty()) emit useAsTypedList(steps);
    });
    auto* forDiffusers = new QPushButton(tr("Copy for diffusers"));
    forDiffusers->setToolTip(
        tr("Copies the selected trajectory as diffusers' set_timesteps(timesteps=…) takes it: "
           "the JSON of diffuscope timesteps --as diffusers."));
    auto* forKDiffusion = new QPushButton(tr("Copy for k-diffusion"));
    forKDiffusion->setToolTip(
        tr("Copies the selected trajectory as k-diffusion's sigmas: the JSON of diffuscope "
           "timesteps --as k-diffusion."));
    // No structured binding here: clang 14 cannot capture one in a lambda.
    for (const auto& entry :
         {std::pair{forDiffusers, core::schedule::TimestepConvention::Diffusers},
          std::pair{forKDiffusion, core::schedule::TimestepConvention::KDiffusion}}) {
        QPushButton* button = entry.first;
        const core::schedule::TimestepConvention convention = entry.second;
        button->setObjectName(convention == core::schedule::TimestepConvention::Diffusers
                                  ? "copyForDiffusers"
                                  : "copyForKDiffusion");
        connect(button, &QPushButton::clicked, this, [this, convention] {
            if (const QString text = pipelineText(convention); !text.isEmpty()) {
                QApplication::clipboard()->setText(text);
            }
        });
    }
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(copy);
    buttons->addWidget(use);
    buttons->addWidget(forDiffusers);
    buttons->addWidget(forKDiffusion);
    buttons->addStretch(1);
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(8, 0, 8, 0);
    row->addWidget(m_listing, 1);
    row->addLayout(buttons);
    return box;
}

void GaussianTrajectoryView::updateListing() {
    const std::vector<TickRow> rows = tickRows();
    m_listing->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        QStringList steps;
        for (int n : *rows[r].steps) steps << QString::number(n);
        auto* label = new QTableWidgetItem(shownLabel(rows[r].label));
        label->setForeground(rows[r].colour);
        m_listing->setItem(r, 0, label);
        m_listing->setItem(r, 1, new QTableWidgetItem(QString::number(rows[r].steps->size())));
        m_listing->setItem(r, 2, new QTableWidgetItem(QString::number(rows[r].cost, 'f', 4)));
        auto* list = new QTableWidgetItem(steps.join(", "));
        list->setToolTip(steps.join(", "));
        m_listing->setItem(r, 3, list);
    }
    if (m_listing->currentRow() < 0 && !rows.empty()) m_listing->selectRow(0);
    fitListingHeight();
}

// As tall as its rows, up to about seven lines: the heat map above takes the rest.
void GaussianTrajectoryView::fitListingHeight() {
    m_listing->resizeRowsToContents();
    int height = m_listing->horizontalHeader()->sizeHint().height() + 2 * m_listing->frameWidth();
    for (int r = 0; r < m_listing->rowCount(); ++r) height += m_listing->rowHeight(r);
    const int most = 4 * m_listing->verticalHeader()->defaultSectionSize() +
                     3 * m_listing->fontMetrics().lineSpacing() +
                     m_listing->horizontalHeader()->sizeHint().height() + 6;
    m_listing->setFixedHeight(std::min(height, most));
}

QString GaussianTrajectoryView::canvasTooltip(const QPoint& position) const {
    if (m_numSteps == 0) return {};
    const CanvasLayout layout = canvasLayout(m_canvas->size());
    const double x = position.x(), y = position.y();
    const std::vector<TickRow> rows = tickRows();
    const int row = static_cast<int>(std::floor((y - layout.rowsTop) / layout.rowHeight));
    if (row >= 0 && row < static_cast<int>(rows.size()) && x >= layout.left - 4 &&
        x <= layout.right + 4) {
        // The nearest timestep of that row.
        const std::vector<int>& steps = *rows[row].steps;
        size_t best = 0;
        for (size_t i = 1; i < steps.size(); ++i) {
            if (std::abs(rowX(layout, steps[i], m_numSteps) - x) <
                std::abs(rowX(layout, steps[best], m_numSteps) - x)) {
                best = i;
            }
        }
        QString text = tr("%1: n = %2 (timestep %3 of %4)")
                           .arg(shownLabel(rows[row].label))
                           .arg(steps[best])
                           .arg(best + 1)
                           .arg(steps.size());
        if (best > 0 && m_cost && m_cost->rows() == m_numSteps) {
            text += tr("\nstep (%1, %2): J = %3")
                        .arg(steps[best - 1])
                        .arg(steps[best])
                        .arg((*m_cost)(steps[best - 1] - 1, steps[best] - 1), 0, 'g', 4);
        }
        return text;
    }
    const QRectF map = layout.map;
    if (map.contains(position) && m_cost && m_cost->rows() == m_numSteps) {
        const int s = std::clamp(static_cast<int>((y - map.top()) / map.height() * m_numSteps) + 1,
                                 1, m_numSteps);
        const int t = std::clamp(static_cast<int>((x - map.left()) / map.width() * m_numSteps) + 1,
                                 1, m_numSteps);
        if (s >= t) return tr("s = %1 ≥ t = %2: no step").arg(s).arg(t);
        return tr("step (s = %1, t = %2): J = %3")
            .arg(s)
            .arg(t)
            .arg((*m_cost)(s - 1, t - 1), 0, 'g', 4);
    }
    return {};
}

namespace {
const char* const kKindNames[2] = {QT_TRANSLATE_NOOP("ui::views::GaussianTrajectoryView", "even"),
                                   QT_TRANSLATE_NOOP("ui::views::GaussianTrajectoryView", "DP")};
const char* const kVarianceNames[3] = {
    QT_TRANSLATE_NOOP("ui::views::GaussianTrajectoryView", "analytic σ²"), "β̃", "β"};
const char* const kKindIds[2] = {"even", "dp"};
const char* const kVarianceIds[3] = {"analytic", "small", "large"};
const QColor kKindColours[2] = {charts::palette::kEven, charts::palette::kDp};  // as the tick rows
const Qt::PenStyle kVarianceStyles[3] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine};
}  // namespace

GaussianTrajectoryView::GaussianTrajectoryView(QWidget* parent)
    : ViewPanel(QT_TRANSLATE_NOOP("ui::views", "Trajectory"), parent),
      m_canvas(new TrajectoryCanvas(this)),
      m_nllButton(new QPushButton(tr("Compute NLL vs steps"))),
      m_nllStatus(new QLabel),
      m_nllChart(new QChart),
      m_axisK(new QLogValueAxis),
      m_axisBits(new QValueAxis),
      m_axisBitsLog(new QLogValueAxis),
      m_listing(new QTableWidget(0, 4)) {
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_canvas, 3);
    QWidget* listing = createListing();
    layout->addWidget(listing);
    markControl(listing);
    auto* nllRow = new QWidget;
    auto* row = new QHBoxLayout(nllRow);
    row->setContentsMargins(8, 0, 8, 0);
    row->addWidget(m_nllButton);
    row->addWidget(m_nllStatus, 1);
    layout->addWidget(nllRow);
    markControl(nllRow);
    m_nllChart->setTitle(tr("Negative ELBO against the number of steps (bands: ±2 SE)"));
    m_nllFigure = new charts::FigureChart(m_nllChart);
    charts::applyFigureStyle(m_nllChart, m_nllFigure->view());
    m_nllFigure->view()->setMinimumHeight(200);
    layout->addWidget(m_nllFigure, 2);
    // Until the curves are computed the chart has nothing to show: the rows and the heatmap
    // take its room (the button and its status line say how to compute them).
    m_nllFigure->hide();
    setBody(body);

    m_nllStatus->setWordWrap(true);
    m_nllStatus->setText(
        tr("Not computed yet: the negative ELBO of 1000 points from the data's "
           "oracle for every number of steps is a job of seconds to a minute (cancel with Esc)."));
    m_nllButton->setToolTip(
        tr("Evaluates the negative ELBO (Help ▸ Mathematics: gaussian.md#nll) "
           "on the even and DP "
           "trajectories of 2 to 1000 steps (up to N) with the analytic σ², β̃ and "
           "β, reusing the Γ estimate."));
    connect(m_nllButton, &QPushButton::clicked, this, &GaussianTrajectoryView::nllRequested);

    m_nllChart->setAnimationOptions(QChart::NoAnimation);
    m_axisK->setBase(10.0);
    m_axisK->setLabelFormat("%g");
    m_axisK->setTitleText(tr("steps (denoiser evaluations)"));
    charts::setAxisRange(m_axisK, 1.5, 1500.0);
    m_axisBits->setTitleText(tr("bits/dim"));
    charts::setAxisRange(m_axisBits, 0.0, 1.0);
    m_axisBitsLog->setTitleText(tr("bits/dim"));
    m_axisBitsLog->setBase(10.0);
    m_axisBitsLog->setLabelFormat("%g");
    m_axisBitsLog->setVisible(false);
    m_nllChart->addAxis(m_axisK, Qt::AlignBottom);
    m_nllChart->addAxis(m_axisBits, Qt::AlignLeft);
    m_nllChart->addAxis(m_axisBitsLog, Qt::AlignLeft);
    for (int kind = 0; kind < 2; ++kind) {
        for (int v = 0; v < 3; ++v) {
            QColor fill = kKindColours[kind];
            fill.setAlpha(40);
            // QAreaSeries does not own its edges: parent them to the view.
            auto* upper = new QLineSeries(this);
            auto* lower = new QLineSeries(this);
            auto* band = new QAreaSeries(upper, lower);
            band->setName(tr("±2 SE %1, %2").arg(tr(kKindNames[kind]), tr(kVarianceNames[v])));
            band->setPen(Qt::NoPen);
            band->setBrush(fill);
            m_nllChart->addSeries(band);
            band->attachAxis(m_axisK);
            band->attachAxis(m_axisBits);
            charts::hideFromLegend(band);  // the bands are read with their line
            m_nllBands[kind][v] = band;
            auto* line = new QLineSeries;
            line->setName(QString("%1, %2").arg(tr(kKindNames[kind]), tr(kVarianceNames[v])));
            line->setPen(QPen(kKindColours[kind], 2, kVarianceStyles[v]));
            line->setPointsVisible(true);
            m_nllChart->addSeries(line);
            line->attachAxis(m_axisK);
            line->attachAxis(m_axisBits);
            m_nllLines[kind][v] = line;
        }
    }
    setToolTip(
        tr("The DP picks the timesteps whose summed cost ΣJ (the KL up to constants, "
           "Help ▸ Mathematics: conventions.md#dp-cost) is least; each step (s, t) of the path "
           "is a cell of the matrix."));
}

QList<QLineSeries*> GaussianTrajectoryView::nllSeries() const {
    QList<QLineSeries*> list;
    for (const auto& kind : m_nllLines) {
        for (QLineSeries* line : kind) {
            list.append(line);
        }
    }
    return list;
}

void GaussianTrajectoryView::setNllCurves(const NllCurves& curves) {
    m_nll = curves;
    m_nllFigure->setVisible(!curves.ks.empty());
    double low = 1e300, high = -1e300;
    for (int kind = 0; kind < 2; ++kind) {
        for (int v = 0; v < 3; ++v) {
            QList<QPointF> line, upper, lower;
            const auto& bits = curves.bitsPerDim[kind][v];
            const auto& se = curves.standardError[kind][v];
            for (size_t i = 0; i < curves.ks.size() && i < bits.size() && i < se.size(); ++i) {
                // Nothing non-finite or non-positive is plotted (the axis may be logarithmic;
                // a negative ELBO of discrete data is positive anyway).
                if (!std::isfinite(bits[i]) || !std::isfinite(se[i]) || bits[i] <= 0.0) {
                    continue;
                }
                const double k = curves.ks[i];
                line.append(QPointF(k, bits[i]));
                upper.append(QPointF(k, bits[i] + 2.0 * se[i]));
                if (bits[i] - 2.0 * se[i] > 0.0) {
                    lower.append(QPointF(k, bits[i] - 2.0 * se[i]));
                }
                low = std::min(low, bits[i]);
                high = std::max(high, bits[i] + 2.0 * se[i]);
            }
            m_nllLines[kind][v]->replace(line);
            m_nllBands[kind][v]->upperSeries()->replace(upper);
            m_nllBands[kind][v]->lowerSeries()->replace(lower);
        }
    }
    if (low <= high) {
        // β̃ with few steps costs hundreds of bits/dim against a handful for the others: a log
        // axis then, so that the good curves stay apart.
        useLogBits(high > 10.0 * low);
        const double margin = 0.05 * std::max(high - low, 1e-3);
        charts::setNiceRange(m_axisBits, std::max(0.0, low - margin), high + margin);
        charts::setAxisRange(m_axisBitsLog, low / 1.1, high * 1.1);
    }
    if (!curves.ks.empty()) {
        charts::setAxisRange(m_axisK, curves.ks.front() * 0.8, curves.ks.back() * 1.25);
    }
    setNllStale(false);
    updateData();
}

void GaussianTrajectoryView::useLogBits(bool log) {
    QAbstractAxis* from = log ? static_cast<QAbstractAxis*>(m_axisBits) : m_axisBitsLog;
    QAbstractAxis* to = log ? static_cast<QAbstractAxis*>(m_axisBitsLog) : m_axisBits;
    if (to->isVisible()) {
        return;
    }
    for (int kind = 0; kind < 2; ++kind) {
        for (int v = 0; v < 3; ++v) {
            for (QAbstractSeries* series : {static_cast<QAbstractSeries*>(m_nllLines[kind][v]),
                                            static_cast<QAbstractSeries*>(m_nllBands[kind][v])}) {
                series->detachAxis(from);
                series->attachAxis(to);
            }
        }
    }
    from->setVisible(false);
    to->setVisible(true);
}

void GaussianTrajectoryView::setNllStale(bool stale) {
    m_nllStale = stale;
    // Faded curves: still readable for comparison, clearly not the current parameters'.
    const qreal opacity = stale ? 0.3 : 1.0;
    for (int kind = 0; kind < 2; ++kind) {
        for (int v = 0; v < 3; ++v) {
            m_nllLines[kind][v]->setOpacity(opacity);
            m_nllBands[kind][v]->setOpacity(opacity);
        }
    }
    if (m_nll.ks.empty()) {
        return;
    }
    m_nllStatus->setText(
        stale ? tr("Stale: computed for other schedule, data or Γ settings; press the button "
                   "to recompute.")
              : tr("%1 points drawn from the data's oracle (seed %2; for toy: and csv: data "
                   "these are the data set's own points), 256 levels in [−1, 1]; %4; %3 s.")
                    .arg(m_nll.points)
                    .arg(m_nll.seed)
                    .arg(m_nll.seconds, 0, 'f', 1)
                    .arg(m_nll.scored));
}

void GaussianTrajectoryView::setNllStatus(const QString& status, bool running) {
    m_nllButton->setEnabled(!running);
    m_nllStatus->setText(status);
}

void GaussianTrajectoryView::updateData() {
    // One long table: a row per timestep of every trajectory drawn (quantity "timestep"), then
    // a row per (trajectory, variance, K) of the NLL curves (quantity "nll").
    charts::ChartData table;
    table.textHeader = {"quantity", "trajectory", "variance"};
    table.header = {"K", "timestep", "sum_J", "nll_bpd", "nll_se"};
    table.text.assign(3, {});
    table.columns.assign(5, {});
    auto addRow = [&table](const std::string& quantity, const std::string& trajectory,
                           const std::string& variance, std::array<double, 5> values) {
        table.text[0].push_back(quantity);
        table.text[1].push_back(trajectory);
        table.text[2].push_back(variance);
        for (size_t c = 0; c < values.size(); ++c) table.columns[c].push_back(values[c]);
    };
    const double none = std::nan("");
    for (const TickRow& row : tickRows()) {
        for (int n : *row.steps) {
            addRow("timestep", row.label.toStdString(), "",
                   {static_cast<double>(row.steps->size()), static_cast<double>(n), row.cost, none,
                    none});
        }
    }
    for (int kind = 0; kind < 2; ++kind) {
        for (int v = 0; v < 3; ++v) {
            const auto& bits = m_nll.bitsPerDim[kind][v];
            const auto& se = m_nll.standardError[kind][v];
            for (size_t i = 0; i < m_nll.ks.size() && i < bits.size() && i < se.size(); ++i) {
                addRow("nll", kKindIds[kind], kVarianceIds[v],
                       {static_cast<double>(m_nll.ks[i]), none, none, bits[i], se[i]});
            }
        }
    }
    setData(std::move(table));
}

void GaussianTrajectoryView::setTrajectories(std::shared_ptr<const core::Matrix> costShared,
                                             const Rows& rows) {
    m_rows = rows;
    m_cost = std::move(costShared);
    const core::Matrix& cost = *m_cost;
    m_numSteps = static_cast<int>(cost.rows());
    // Downsample to at most 512 pixels a side: each pixel shows the cell at its centre. The
    // colour scale spans log10 of the shown values; log10 keeps their order, so the range comes
    // from the values themselves and each pixel takes one log10.
    const int pixels = std::min(512, m_numSteps);
    m_heatmap = QImage(pixels, pixels, QImage::Format_RGB32);
    m_heatmap.fill(Qt::white);
    const auto cell = [&](int r, int c) {
        const int s = static_cast<int>((r + 0.5) * m_numSteps / pixels);
        const int t = static_cast<int>((c + 0.5) * m_numSteps / pixels);
        const double j = s < t ? cost(s, t) : std::nan("");
        return std::isfinite(j) && j > 0 ? j : std::nan("");
    };
    double lowest = std::numeric_limits<double>::infinity();
    double highest = 0.0;
    for (int r = 0; r < pixels; ++r) {
        for (int c = r; c < pixels; ++c) {
            const double j = cell(r, c);
            if (j == j) {
                lowest = std::min(lowest, j);
                highest = std::max(highest, j);
            }
        }
    }
    const bool any = lowest <= highest;
    const double low = any ? std::log10(lowest) : 0.0;
    const double high = any ? std::log10(highest) : 0.0;
    m_logLow = low;
    m_logHigh = high;
    const double span = std::max(1e-12, high - low);
    for (int r = 0; r < pixels && any; ++r) {
        auto* line = reinterpret_cast<QRgb*>(m_heatmap.scanLine(r));
        for (int c = r; c < pixels; ++c) {
            const double j = cell(r, c);
            if (j == j) {
                line[c] = heatRgb((std::log10(j) - low) / span);
            }
        }
    }
    updateData();
    updateListing();
    setMessage(
        tr("ΣJ along each path, the KL up to constants (Help ▸ Mathematics: "
           "conventions.md#dp-cost): DP %1, even %2, quadratic %3%4.")
            .arg(rows.costDp, 0, 'f', 4)
            .arg(rows.costEven, 0, 'f', 4)
            .arg(rows.costQuadratic, 0, 'f', 4)
            .arg(rows.typed.empty()
                     ? QString()
                     : QString(", %1 %2").arg(rows.typedLabel).arg(rows.costTyped, 0, 'f', 4)));
    m_canvas->update();
}

}  // namespace ui::views
