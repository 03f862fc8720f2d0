// SPDX-License-Identifier: MIT
#include "ui/animation/chains_view.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "ui/charts/palette.h"
#include "ui/views/heatmap_widget.h"

namespace ui::animation {

// Paints lanes, dots and bars; all geometry comes from the view's frames and position.
class ChainCanvas : public QWidget {
public:
    explicit ChainCanvas(ChainsView* view) : QWidget(view), m_view(view) {
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        setMinimumSize(300, 200);
    }
    QSize sizeHint() const override { return {900, 560}; }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    // D > 1: each chain as a small image (8×8 for the digits), classes as grey levels.
    void paintImages(QPainter& painter,
                     const std::vector<int>& states,
                     const std::vector<float>* preview,
                     int numPositions,
                     int numClasses,
                     bool forward,
                     double position,
                     int steps,
                     double t);

    // Where the lanes (one per class) and the marginal bars beside them sit.
    struct LaneLayout {
        double top, laneHeight, left, lanesRight, barsLeft, barsWidth;
    };
    // Exact marginal outlined, the chains' histogram filled, at one frame.
    void paintMarginalBars(QPainter& painter,
                           const LaneLayout& lanes,
                           int frame,
                           const core::Vector& marginal,
                           int numClasses);

    ChainsView* m_view;
};

namespace {

// "Reverse: π → data   t = 0.500   (step 5 of K = 10)": the header of both layouts; a figure's
// leaves the player's step count out. Drawn wrapped at spaces in `box` (two lines' room).
void drawHeader(QPainter& painter,
                const QRectF& box,
                bool forward,
                double t,
                int step,
                int steps,
                bool figure,
                const QString& suffix = {}) {
    const QString direction =
        forward ? QCoreApplication::translate("ui::animation::ChainCanvas", "Forward: data → π")
                : QCoreApplication::translate("ui::animation::ChainCanvas", "Reverse: π → data");
    const QString header =
        figure ? QCoreApplication::translate("ui::animation::ChainCanvas", "%1   t = %2")
                     .arg(direction)
                     .arg(t, 0, 'f', 3)
               : QCoreApplication::translate("ui::animation::ChainCanvas",
                                             "%1   t = %2   (step %3 of %4)")
                     .arg(direction)
                     .arg(t, 0, 'f', 3)
                     .arg(step)
                     .arg(steps);
    // "t = 0.500" stays on one line.
    const QString unbroken =
        QString(header).replace("t = ", QString("t") + QChar(0x00A0) + "=" + QChar(0x00A0));
    painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, unbroken + suffix);
}

}  // namespace

void ChainCanvas::paintImages(QPainter& painter,
                              const std::vector<int>& states,
                              const std::vector<float>* preview,
                              int numPositions,
                              int numClasses,
                              bool forward,
                              double position,
                              int steps,
                              double t) {
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(Qt::black);
    drawHeader(
        painter, QRectF(12, 2, width() - 24, 30), forward, t,
        static_cast<int>(std::round(position)), steps, m_view->m_figure,
        (preview != nullptr
             ? QCoreApplication::translate("ui::animation::ChainCanvas",
                                           "   each sample xₜ | the denoiser's x̂₀ = E[X₀|xₜ]")
             : QString()) +
            // The mask state has no grey of its own: say what the blue cells are.
            (m_view->m_maskClass >= 0
                 ? QCoreApplication::translate("ui::animation::ChainCanvas", "   sky blue: masked")
                 : QString()) +
            (m_view->colourByCommit() && !forward
                 ? QCoreApplication::translate("ui::animation::ChainCanvas",
                                               ", colour: the step that committed it (dark: early)")
                 : QString()));
    painter.setFont(font());
    // Square images when D is a square (8×8 digits), else one row of D cells.
    const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(numPositions))));
    const int columns = side * side == numPositions ? side : numPositions;
    const int rows = side * side == numPositions ? side : 1;
    const int chains = static_cast<int>(states.size()) / numPositions;
    const int shown = std::min(chains, m_view->tilesShown());
    const int panes = preview != nullptr ? 2 : 1;  // sample, and its x̂_0 beside it
    const int perRow = std::max(1, static_cast<int>(std::ceil(std::sqrt(shown * 1.6))));
    const int gridRows = (shown + perRow - 1) / perRow;
    const double top = 34.0;
    const double cellW = (width() - 24.0) / perRow;
    const double cellH = (height() - top - 8.0) / std::max(1, gridRows);
    const double pixel =
        std::max(1.0, std::min((cellW - 8.0 * panes) / (columns * panes), (cellH - 8.0) / rows));
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int b = 0; b < shown; ++b) {
        const double paneW = pixel * columns + 4.0;
        const double x0 = 12.0 + (b % perRow) * cellW + (cellW - paneW * panes + 4.0) / 2.0;
        const double y0 = top + (b / perRow) * cellH + (cellH - pixel * rows) / 2.0;
        for (int pane = 0; pane < panes; ++pane) {
            const double left = x0 + pane * paneW;
            for (int d = 0; d < numPositions; ++d) {
                const size_t at = static_cast<size_t>(b) * numPositions + d;
                const double value = pane == 0 ? states[at] : (*preview)[at];
                // Class 0 is the background (white), the top data class black, as ink on
                // paper; a masked position is sky blue, so decoding shows pixels appearing.
                const int mask = m_view->m_maskClass;
                const int inked = mask >= 0 ? mask : numClasses;
                const int grey = std::clamp(
                    static_cast<int>(std::lround(255.0 - value * 255.0 / std::max(1, inked - 1))),
                    0, 255);
                const bool masked = pane == 0 && mask >= 0 && states[at] == mask;
                QColor colour = masked ? charts::palette::kSkyBlue : QColor(grey, grey, grey);
                if (pane == 0 && !masked && m_view->colourByCommit() && !forward) {
                    const int committed = m_view->commitStep(b, d);
                    colour = views::heatColor(steps > 1 ? (committed - 1.0) / (steps - 1.0) : 0.0);
                }
                painter.fillRect(QRectF(left + (d % columns) * pixel, y0 + (d / columns) * pixel,
                                        pixel + 0.5, pixel + 0.5),
                                 colour);
            }
            painter.setPen(pane == 0 ? QColor(200, 200, 205) : QColor(120, 160, 220));
            painter.drawRect(QRectF(left - 1, y0 - 1, pixel * columns + 1, pixel * rows + 1));
        }
    }
}

namespace {

// A fixed pseudo-random offset in [0, 1) per chain, so a dot keeps its place in its lane.
double jitter(int chain, int salt) {
    uint64_t x =
        static_cast<uint64_t>(chain) * 0x9E3779B97F4A7C15ULL + salt * 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 29;
    return static_cast<double>(x >> 11) * 0x1.0p-53;
}

QColor classColor(int k) {
    // The Okabe–Ito colours for the first seven classes (colour-blind safe, as every view);
    // further classes take golden-ratio hues, so neighbours still differ.
    static const QColor okabeIto[] = {charts::palette::kBlue,          charts::palette::kVermillion,
                                      charts::palette::kBluishGreen,   charts::palette::kOrange,
                                      charts::palette::kReddishPurple, charts::palette::kSkyBlue,
                                      charts::palette::kGrey};
    if (k >= 0 && k < 7) return okabeIto[k];
    return QColor::fromHsvF(static_cast<float>(std::fmod(k * 0.61803398875, 1.0)), 0.65f, 0.85f);
}

}  // namespace

void ChainCanvas::paintMarginalBars(QPainter& painter,
                                    const LaneLayout& lanes,
                                    int frame,
                                    const core::Vector& marginal,
                                    int numClasses) {
    const std::vector<double> histogram = m_view->histogram(frame);
    double maxValue = 1e-12;
    for (int c = 0; c < numClasses; ++c) {
        maxValue = std::max({maxValue, marginal[c], histogram[c]});
    }
    for (int c = 0; c < numClasses; ++c) {
        const double y = lanes.top + (c + 0.15) * lanes.laneHeight;
        const double h = lanes.laneHeight * 0.7;
        // The chains' bar is thinner than the marginal's box and centred in it, so a bar that
        // is longer than its box reads as "more chains than expected", not as an overflow.
        painter.setPen(Qt::NoPen);
        painter.setBrush(charts::palette::withAlpha(charts::palette::kSampled, 190));
        painter.drawRect(QRectF(lanes.barsLeft, y + h * 0.25,
                                histogram[c] / maxValue * lanes.barsWidth, h * 0.5));
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(charts::palette::kExact, 2));
        painter.drawRect(QRectF(lanes.barsLeft, y, marginal[c] / maxValue * lanes.barsWidth, h));
    }
}

namespace {

// The bars' legend, drawn with the bars' own marks: a red box is the exact marginal, a blue bar
// the share of the chains (longer than its box when more chains are there).
void paintBarsLegend(QPainter& painter, double left, double width, double em) {
    painter.setPen(QPen(charts::palette::kExact, 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(left, 4 + 0.2 * em, 16, 0.6 * em));
    painter.setPen(Qt::black);
    painter.drawText(QRectF(left + 20, 4, width - 20, em), Qt::AlignLeft | Qt::AlignVCenter,
                     QCoreApplication::translate("ui::animation::ChainCanvas", "exact marginal"));
    painter.fillRect(QRectF(left, 4 + em + 0.35 * em, 16, 0.3 * em),
                     charts::palette::withAlpha(charts::palette::kSampled, 190));
    painter.drawText(QRectF(left + 20, 4 + em, width - 20, em), Qt::AlignLeft | Qt::AlignVCenter,
                     QCoreApplication::translate("ui::animation::ChainCanvas", "chains"));
}

}  // namespace

void ChainCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    painter.setRenderHint(QPainter::Antialiasing);
    const auto& chains = m_view->m_chains;
    const int k = m_view->m_numClasses;
    if (!chains || k == 0 || chains->forward.empty()) {
        painter.setPen(Qt::gray);
        painter.drawText(
            rect(), Qt::AlignCenter,
            QCoreApplication::translate("ui::animation::ChainCanvas", "Sampling chains…"));
        return;
    }
    const int m = static_cast<int>(chains->nodes.size()) - 1;
    const bool forward = m_view->m_direction == Direction::Forward;
    const auto& frames = forward ? chains->forward : chains->reverse;
    const auto& exact = forward ? chains->forwardMarginals : chains->reverseMarginals;
    // Position p in steps; the frames shown are a → b with fraction f.
    const double p = std::clamp(m_view->m_position, 0.0, static_cast<double>(m));
    const int step = std::min(static_cast<int>(std::floor(p)), std::max(0, m - 1));
    const double f = m == 0 ? 0.0 : p - step;
    const int nodeA = forward ? step : m - step;
    const int nodeB = forward ? std::min(m, step + 1) : std::max(0, m - step - 1);
    const int shownNode = f < 0.5 ? nodeA : nodeB;

    if (chains->numPositions > 1) {
        const bool withPreview = !forward && !chains->preview.empty();
        paintImages(painter, frames[shownNode], withPreview ? &chains->preview[shownNode] : nullptr,
                    chains->numPositions, k, forward, p, m, chains->times[shownNode]);
        return;
    }

    // Lengths follow the font (presentation mode, exports); the bars keep a margin of their own
    // from the frame's edge, as the lanes do from the left.
    const double em = QFontMetricsF(font()).height();
    const double top = std::max(34.0, 2.2 * em + 8.0);
    const double bottom = height() - 10.0;
    const double laneHeight = (bottom - top) / k;
    const double left = 46.0;
    const double margin = std::max(32.0, 2.0 * em);
    const double barsWidth = std::min(220.0, width() * 0.25);
    const double lanesRight = width() - barsWidth - margin - 16.0;
    const double barsLeft = lanesRight + 16.0;

    // Title.
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(Qt::black);
    const double t = chains->times[shownNode];
    drawHeader(painter, QRectF(left, 2, lanesRight - left, top - 6), forward, t,
               static_cast<int>(std::round(p)), m, m_view->m_figure);
    painter.setFont(font());
    paintBarsLegend(painter, barsLeft, barsWidth + margin, em);

    // Lanes.
    for (int c = 0; c < k; ++c) {
        const QRectF lane(left, top + c * laneHeight, lanesRight - left, laneHeight);
        painter.fillRect(lane, c % 2 == 0 ? QColor(246, 247, 250) : QColor(236, 238, 243));
        if (laneHeight >= 12.0) {
            painter.setPen(Qt::darkGray);
            painter.drawText(QRectF(0, lane.top(), left - 6, laneHeight),
                             Qt::AlignRight | Qt::AlignVCenter, QString::number(c));
        }
    }

    // Dots: glide from lane a to lane b; coloured by where the chain started (forward) or
    // where it ends (reverse), so mixing is visible.
    const auto& statesA = frames[nodeA];
    const auto& statesB = frames[nodeB];
    const auto& colourStates = frames[0];  // node 0: x_0 where forward starts, reverse ends
    const int chainsCount = static_cast<int>(statesA.size());
    const double radius = std::clamp(laneHeight * 0.12, 2.0, 4.5);
    painter.setPen(Qt::NoPen);
    // Ease the glide so a step reads as a jump, not a drift.
    const double eased = f * f * (3.0 - 2.0 * f);
    for (int b = 0; b < chainsCount; ++b) {
        const double ya = top + (statesA[b] + 0.15 + 0.7 * jitter(b, 2)) * laneHeight;
        const double yb = top + (statesB[b] + 0.15 + 0.7 * jitter(b, 2)) * laneHeight;
        const double x = left + 6.0 + jitter(b, 1) * (lanesRight - left - 12.0);
        const double y = ya + (yb - ya) * eased;
        painter.setBrush(classColor(colourStates[b]));
        painter.drawEllipse(QPointF(x, y), radius, radius);
    }

    paintMarginalBars(painter, {top, laneHeight, left, lanesRight, barsLeft, barsWidth}, shownNode,
                      exact[shownNode], k);
}

ChainsView::ChainsView(QWidget* parent)
    : ViewPanel(QT_TRANSLATE_NOOP("ui::views", "Trajectories"), parent) {
    m_canvas = new ChainCanvas(this);
    m_byCommit = new QCheckBox(tr("Colour by commit step"));
    m_byCommit->setToolTip(tr("Colour each decoded position by the step that committed it (dark: "
                              "early) instead of by its value: which token when, chain by chain."));
    m_byCommit->setVisible(false);
    connect(m_byCommit, &QCheckBox::toggled, this, [this] { m_canvas->update(); });
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(8, 2, 8, 0);
    row->addWidget(m_byCommit);
    row->addStretch(1);
    layout->addLayout(row);
    layout->addWidget(m_canvas, 1);
    setBody(body);
    markControl(m_byCommit);
    setToolTip(
        tr("Each dot is one chain; its colour is the class it starts from (forward) or "
           "ends in (reverse). Red outlines: the exact marginal; blue bars: the chains."));
}

void ChainsView::setChains(std::shared_ptr<const core::project::CategoricalChains> chains,
                           int numClasses) {
    m_chains = std::move(chains);
    // The process may have more classes than the caller's K (a mask state): the marginals
    // have one entry per class of the process.
    m_maskClass = -1;
    if (m_chains && !m_chains->forwardMarginals.empty()) {
        const int process = static_cast<int>(m_chains->forwardMarginals.front().size());
        // One class more than the data's: the mask state, the last class.
        if (process == numClasses + 1) m_maskClass = numClasses;
        numClasses = std::max(numClasses, process);
    }
    m_numClasses = numClasses;
    m_byCommit->setVisible(m_maskClass >= 0 && m_chains && m_chains->numPositions > 1);
    m_position = std::clamp(m_position, 0.0, static_cast<double>(numSteps()));
    updateData();
    m_canvas->update();
}

void ChainsView::setDirection(Direction direction) {
    m_direction = direction;
    updateData();
    m_canvas->update();
}

void ChainsView::setFigureMode(bool figure) {
    m_figure = figure;
    m_canvas->update();
}

void ChainsView::setTileScale(double scale) {
    m_tileScale = std::clamp(scale, 1.0, 4.0);
    update();
}

QString ChainsView::explanationVariant() const {
    return m_chains && m_chains->numPositions > 1 ? QStringLiteral("images") : QString();
}

int ChainsView::tilesShown() const {
    // The same area for fewer samples: each tile grows by the scale.
    return std::max(1, static_cast<int>(std::lround(core::project::kPreviewChains /
                                                    (m_tileScale * m_tileScale))));
}

void ChainsView::setPosition(double position) {
    m_position = position;
    m_canvas->update();
}

void ChainsView::setColourByCommit(bool on) { m_byCommit->setChecked(on); }

bool ChainsView::colourByCommit() const {
    return m_byCommit->isChecked() && m_maskClass >= 0 && m_chains && m_chains->numPositions > 1;
}

int ChainsView::commitStep(int chain, int position) const {
    if (!m_chains || m_direction != Direction::Reverse || m_maskClass < 0) return 0;
    const int m = numSteps();
    const auto& frames = m_chains->reverse;
    const size_t at = static_cast<size_t>(chain) * m_chains->numPositions + position;
    // Play step j shows node m − j; walk back while the position stays unmasked.
    const int now = m - currentFrame();
    const auto unmasked = [&](int j) {
        const auto& frame = frames[static_cast<size_t>(m - j)];
        return at < frame.size() && frame[at] != m_maskClass;
    };
    if (!unmasked(now)) return 0;
    int j = now;
    while (j > 0 && unmasked(j - 1)) --j;
    return std::max(j, 1);
}

int ChainsView::numSteps() const {
    return m_chains ? std::max(0, static_cast<int>(m_chains->nodes.size()) - 1) : 0;
}

int ChainsView::currentFrame() const {
    const int m = numSteps();
    const int step = static_cast<int>(std::lround(std::clamp(m_position, 0.0, double(m))));
    return m_direction == Direction::Forward ? step : m - step;
}

std::vector<double> ChainsView::histogram(int node) const {
    std::vector<double> counts(static_cast<size_t>(m_numClasses), 0.0);
    if (!m_chains) {
        return counts;
    }
    const auto& frames = m_direction == Direction::Forward ? m_chains->forward : m_chains->reverse;
    if (node < 0 || node >= static_cast<int>(frames.size()) || frames[node].empty()) {
        return counts;
    }
    for (int s : frames[node]) {
        if (s >= 0 && s < m_numClasses) {
            counts[s] += 1.0;
        }
    }
    for (double& c : counts) {
        c /= static_cast<double>(frames[node].size());
    }
    return counts;
}

void ChainsView::updateData() {
    if (!m_chains) {
        return;
    }
    // Per node and class: the exact marginal and the chains' frequency.
    charts::ChartData data;
    data.header = {"node", "t", "class", "exact", "chains"};
    data.columns.assign(5, {});
    const auto& exact =
        m_direction == Direction::Forward ? m_chains->forwardMarginals : m_chains->reverseMarginals;
    for (size_t n = 0; n < m_chains->nodes.size(); ++n) {
        const auto h = histogram(static_cast<int>(n));
        for (int c = 0; c < m_numClasses; ++c) {
            data.columns[0].push_back(m_chains->nodes[n]);
            data.columns[1].push_back(m_chains->times[n]);
            data.columns[2].push_back(c);
            data.columns[3].push_back(exact[n][c]);
            data.columns[4].push_back(h[c]);
        }
    }
    setData(std::move(data));
}

}  // namespace ui::animation
