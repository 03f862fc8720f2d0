// SPDX-License-Identifier: MIT
#include "ui/views/particles_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <array>
#include <cmath>

#include "ui/charts/palette.h"

namespace ui::views {
namespace {

const QColor kPaneColors[2] = {charts::palette::kSamplerA, charts::palette::kSamplerB};
// A loop over all frames lasts about this long, whatever K.
constexpr int kLoopMs = 6000;

double niceStep(double range) {
    const double raw = range / 3.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * magnitude >= raw) return m * magnitude;
    }
    return 10.0 * magnitude;
}

}  // namespace

// Paints the panes; all state lives in the view.
class ParticleCanvas : public QWidget {
public:
    explicit ParticleCanvas(ParticlesView* view) : QWidget(view), m_view(view) {
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        setMinimumSize(320, 200);
    }
    QSize sizeHint() const override { return {900, 520}; }

    // Zoom and pan of the scatter panes, as on every chart: Ctrl+wheel zooms about the cursor,
    // Shift+drag or a middle-button drag pans, a double-click shows everything again; the view
    // never leaves the axes' full range. Positions are in canvas pixels.
    void zoomAbout(const QPointF& at, double factor);
    void panBy(const QPointF& pixels);
    void resetZoom();
    void setZoom(double zoom, const QPointF& centre) {
        m_zoom = std::clamp(zoom, 1.0, 64.0);
        m_centre = centre;
        m_centre = window().center();
        update();
    }
    double zoom() const { return m_zoom; }
    // The nearest particle under a position ("A: x = …, y = …"), empty when none is near.
    QString readoutAt(const QPointF& at) const;
    // The data window shown, [xmin, xmax] × [ymin, ymax] as a rectangle (y up).
    QRectF window() const;

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    void paintScatter(QPainter& painter, const QRectF& area, const core::Matrix& x, int pane);
    void paintImages(QPainter& painter, const QRectF& area, const core::Matrix& x);
    int paneAt(const QPointF& at) const;

    ParticlesView* m_view;
    double m_zoom = 1.0;
    QPointF m_centre;                 // of the window, data coordinates
    std::array<QRectF, 2> m_plots{};  // where each pane's plot was last painted
    bool m_panning = false;
    QPointF m_panFrom;
};

QRectF ParticleCanvas::window() const {
    const double r = m_view->m_frames ? m_view->m_frames->range : 3.0;
    const double h = r / m_zoom;
    const double cx = std::clamp(m_centre.x(), -r + h, r - h);
    const double cy = std::clamp(m_centre.y(), -r + h, r - h);
    return {cx - h, cy - h, 2 * h, 2 * h};
}

int ParticleCanvas::paneAt(const QPointF& at) const {
    for (int pane = 0; pane < 2; ++pane) {
        if (m_plots[static_cast<size_t>(pane)].contains(at)) return pane;
    }
    return -1;
}

void ParticleCanvas::zoomAbout(const QPointF& at, double factor) {
    const int pane = paneAt(at);
    if (pane < 0 || !(factor > 0.0) || !m_view->m_frames || m_view->m_frames->images) return;
    const QRectF plot = m_plots[static_cast<size_t>(pane)];
    const QRectF w = window();
    const QPointF d(w.left() + (at.x() - plot.left()) / plot.width() * w.width(),
                    w.top() + (plot.bottom() - at.y()) / plot.height() * w.height());
    const double zoom = std::clamp(m_zoom * factor, 1.0, 64.0);
    const double shrink = m_zoom / zoom;  // the new window's size over the old one's
    m_centre = QPointF(d.x() - (d.x() - w.center().x()) * shrink,
                       d.y() - (d.y() - w.center().y()) * shrink);
    m_zoom = zoom;
    m_centre = window().center();  // inside the full range
    update();
}

void ParticleCanvas::panBy(const QPointF& pixels) {
    const QRectF plot = m_plots[0];
    if (plot.isEmpty()) return;
    const QRectF w = window();
    const double perPixel = w.width() / plot.width();
    m_centre =
        QPointF(w.center().x() - pixels.x() * perPixel, w.center().y() + pixels.y() * perPixel);
    m_centre = window().center();
    update();
}

void ParticleCanvas::resetZoom() {
    m_zoom = 1.0;
    m_centre = QPointF();
    update();
}

QString ParticleCanvas::readoutAt(const QPointF& at) const {
    const int pane = paneAt(at);
    if (pane < 0 || !m_view->m_frames || m_view->m_frames->images) return {};
    const core::Matrix* x = m_view->particles(pane, m_view->m_frame);
    if (x == nullptr || x->cols() == 0) return {};
    const QRectF plot = m_plots[static_cast<size_t>(pane)];
    const QRectF w = window();
    double best = 12.0 * 12.0;
    Eigen::Index found = -1;
    for (Eigen::Index b = 0; b < x->cols(); ++b) {
        const double u = (*x)(0, b), v = x->rows() > 1 ? (*x)(1, b) : 0.0;
        const QPointF p(plot.left() + (u - w.left()) / w.width() * plot.width(),
                        plot.bottom() - (v - w.top()) / w.height() * plot.height());
        const double d = (p.x() - at.x()) * (p.x() - at.x()) + (p.y() - at.y()) * (p.y() - at.y());
        if (d < best) {
            best = d;
            found = b;
        }
    }
    if (found < 0) return {};
    const auto& f = *m_view->m_frames;
    return QString("%1 (%2), particle %3\nx = %4,  y = %5")
        .arg(pane == 0 ? "A" : "B", QString::fromStdString(pane == 0 ? f.samplerA : f.samplerB))
        .arg(found)
        .arg((*x)(0, found), 0, 'g', 4)
        .arg(x->rows() > 1 ? (*x)(1, found) : 0.0, 0, 'g', 4);
}

bool ParticleCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = readoutAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;  // the readout, never the view's long explanation over the plot
    }
    return QWidget::event(event);
}

void ParticleCanvas::wheelEvent(QWheelEvent* event) {
    if (!(event->modifiers() & Qt::ControlModifier)) {
        event->ignore();
        return;
    }
    const int steps = event->angleDelta().y() / 120;
    if (steps != 0) zoomAbout(event->position(), std::pow(1.25, steps));
    event->accept();
}

void ParticleCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::MiddleButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier))) {
        m_panning = true;
        m_panFrom = event->position();
        setCursor(Qt::ClosedHandCursor);
        return;
    }
    QWidget::mousePressEvent(event);
}

void ParticleCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (m_panning) {
        panBy(event->position() - m_panFrom);
        m_panFrom = event->position();
        return;
    }
    const QString text = readoutAt(event->position());
    if (text.isEmpty()) {
        QToolTip::hideText();
    } else {
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
    }
}

void ParticleCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (m_panning) {
        m_panning = false;
        unsetCursor();
        return;
    }
    QWidget::mouseReleaseEvent(event);
}

void ParticleCanvas::mouseDoubleClickEvent(QMouseEvent*) { resetZoom(); }

void ParticleCanvas::paintScatter(QPainter& painter,
                                  const QRectF& area,
                                  const core::Matrix& x,
                                  int pane) {
    const jobs::ParticleFrames& f = *m_view->m_frames;
    const double r = f.range;
    const QRectF w = window();  // the zoomed part of [−r, r]²
    // Ticks at multiples of the step inside the window, for x (axis 0) and for y: labels stay
    // round when zoomed.
    const double step = niceStep(w.width() / 2.0);
    std::array<std::vector<std::pair<double, QString>>, 2> ticks;
    for (int axis = 0; axis < 2; ++axis) {
        const double low = axis == 0 ? w.left() : w.top();
        const double high = axis == 0 ? w.right() : w.bottom();
        for (long long i = static_cast<long long>(std::ceil(low / step - 1e-9));
             i <= static_cast<long long>(std::floor(high / step + 1e-9)); ++i) {
            const double v = static_cast<double>(i) * step;
            ticks[axis].emplace_back(v,
                                     QString::number(std::abs(v) < 1e-12 * step ? 0.0 : v, 'g', 3));
        }
    }
    // Room for the widest tick label at the font in use (presentation mode enlarges it): a
    // fixed 28 px cut the minus sign off "−0.5".
    const QFontMetricsF metrics(painter.font());
    const double em = metrics.height();
    double labelWidth = metrics.horizontalAdvance("0");
    for (const auto& axisTicks : ticks) {
        for (const auto& tick : axisTicks) {
            labelWidth = std::max(labelWidth, metrics.horizontalAdvance(tick.second));
        }
    }
    const double leftRoom = labelWidth + 10.0;
    const double side =
        std::max(10.0, std::min(area.width() - leftRoom - 6.0, area.height() - em - 10.0));
    const QRectF plot(area.left() + leftRoom + (area.width() - leftRoom - 6.0 - side) / 2.0,
                      area.top(), side, side);
    m_plots[static_cast<size_t>(pane)] = plot;
    auto map = [&](double u, double v) {
        return QPointF(plot.left() + (u - w.left()) / w.width() * plot.width(),
                       plot.bottom() - (v - w.top()) / w.height() * plot.height());
    };
    if (!m_view->m_density.isNull()) {
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        // The image covers [−r, r]² with its top row at y = +r.
        const double bins = m_view->m_density.width();
        const QRectF source((w.left() + r) / (2 * r) * bins, (r - w.bottom()) / (2 * r) * bins,
                            w.width() / (2 * r) * bins, w.height() / (2 * r) * bins);
        painter.drawImage(plot, m_view->m_density, source);
    }
    // Axes: a box with ticks at round values.
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(QColor(150, 150, 155));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
    for (int axis = 0; axis < 2; ++axis) {
        for (const auto& [v, text] : ticks[axis]) {
            if (axis == 0) {
                const QPointF px = map(v, w.top());
                painter.drawLine(px, px + QPointF(0, 4));
                painter.drawText(QRectF(px.x() - labelWidth, px.y() + 4, 2 * labelWidth, em),
                                 Qt::AlignCenter, text);
            } else {
                const QPointF py = map(w.left(), v);
                painter.drawLine(py, py - QPointF(4, 0));
                painter.drawText(
                    QRectF(plot.left() - leftRoom, py.y() - em / 2, leftRoom - 6.0, em),
                    Qt::AlignRight | Qt::AlignVCenter, text);
            }
        }
    }
    // Points, not ellipses: 20000 particles still paint in a few ms.
    QColor colour = kPaneColors[pane];
    colour.setAlpha(x.cols() > 2000 ? 90 : 170);
    painter.setRenderHint(QPainter::Antialiasing, true);
    // Larger in presentation mode (the tile scale), so a lecture hall sees them; smaller in a
    // small plot (a figure of a paper's column), where 4 px dots hid the grey density beneath.
    const double plotScale = std::clamp(side / 300.0, 0.5, 1.0);
    painter.setPen(QPen(colour, (x.cols() > 2000 ? 2.5 : 4.0) * m_view->m_tileScale * plotScale,
                        Qt::SolidLine, Qt::RoundCap));
    painter.setClipRect(plot);
    QList<QPointF> points;
    points.reserve(x.cols());
    for (Eigen::Index b = 0; b < x.cols(); ++b) {
        points.append(map(x(0, b), x.rows() > 1 ? x(1, b) : 0.0));
    }
    painter.drawPoints(points.constData(), static_cast<int>(points.size()));
    painter.setClipping(false);
}

void ParticleCanvas::paintImages(QPainter& painter, const QRectF& area, const core::Matrix& x) {
    const auto& frames = *m_view->m_frames;
    const int channels = frames.channels;
    const int rows = std::max(1, frames.imageHeight);
    const int columns = std::max(1, frames.imageWidth);
    const int plane = rows * columns;
    const int shown = static_cast<int>(std::min<Eigen::Index>(x.cols(), m_view->tilesShown()));
    const int perRow = std::max(1, static_cast<int>(std::ceil(std::sqrt(shown))));
    const int gridRows = (shown + perRow - 1) / perRow;
    const double cell = std::min(area.width() / perRow, area.height() / std::max(1, gridRows));
    const double pixel = std::max(1.0, (cell - 6.0) / std::max(rows, columns));
    const double left = area.left() + (area.width() - cell * perRow) / 2.0;
    painter.setRenderHint(QPainter::Antialiasing, false);
    const auto level = [](double v) {  // [−1, 1] to 0..255
        return static_cast<int>(std::lround(127.5 * (std::clamp(v, -1.0, 1.0) + 1.0)));
    };
    for (int b = 0; b < shown; ++b) {
        const double x0 = left + (b % perRow) * cell + 3.0;
        const double y0 = area.top() + (b / perRow) * cell + 3.0;
        for (int i = 0; i < plane && i < x.rows(); ++i) {
            QColor colour;
            if (channels == 3 && 3 * plane <= x.rows()) {
                // Colour images as the data have them: channel c at rows c·H·W + i.
                colour = QColor(level(x(i, b)), level(x(plane + i, b)), level(x(2 * plane + i, b)));
            } else {
                // Values in [−1, 1]: −1 is paper (white), +1 ink (black), as the categorical
                // digits.
                const int grey =
                    static_cast<int>(std::lround(127.5 * (1.0 - std::clamp(x(i, b), -1.0, 1.0))));
                colour = QColor(grey, grey, grey);
            }
            painter.fillRect(QRectF(x0 + (i % columns) * pixel, y0 + (i / columns) * pixel,
                                    pixel + 0.5, pixel + 0.5),
                             colour);
        }
        painter.setPen(QColor(200, 200, 205));
        painter.drawRect(QRectF(x0 - 1, y0 - 1, pixel * columns + 1, pixel * rows + 1));
    }
}

void ParticleCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    const auto& frames = m_view->m_frames;
    if (!frames || m_view->frameCount() == 0) {
        painter.setPen(Qt::gray);
        painter.drawText(
            rect(), Qt::AlignCenter,
            QCoreApplication::translate("ui::views::ParticleCanvas", "Sampling particles…"));
        return;
    }
    const int panes = m_view->comparing() ? 2 : 1;
    const double width = (this->width() - 16.0) / panes;
    QFont bold = font();
    bold.setBold(true);
    // Square scatter plots, centred vertically with the caption line under them, so a tall
    // view has no empty band; images use the whole height.
    constexpr double kTitle = 26.0, kTicks = 24.0, kCaption = 20.0;
    const double side =
        std::max(10.0, std::min(width - 48.0, height() - 8.0 - kTitle - kTicks - kCaption));
    const double block = frames->images ? height() - 8.0 - kCaption : kTitle + side + kTicks;
    const double top = std::max(4.0, (height() - kCaption - block) / 2.0);
    for (int pane = 0; pane < panes; ++pane) {
        const QRectF area(8.0 + pane * width, top, width - 8.0, block);
        const std::string& name = pane == 0 ? frames->samplerA : frames->samplerB;
        painter.setFont(bold);
        painter.setPen(kPaneColors[pane]);
        painter.drawText(
            QRectF(area.left(), area.top(), area.width(), 22), Qt::AlignCenter,
            QString("%1: %2").arg(pane == 0 ? "A" : "B", QString::fromStdString(name)));
        painter.setFont(font());
        const core::Matrix* x = m_view->particles(pane, m_view->m_frame);
        if (x == nullptr) continue;
        const QRectF body(area.left(), area.top() + 26.0, area.width(), area.height() - 26.0);
        if (frames->images) {
            paintImages(painter, body, *x);
        } else {
            paintScatter(painter, body, *x, pane);
        }
    }
    // Which step this is, in the figure itself (the controls, with the player's frame count,
    // are not exported).
    painter.setPen(QColor(80, 80, 85));
    painter.drawText(
        QRectF(8.0, top + block, this->width() - 16.0, kCaption), Qt::AlignCenter,
        m_view->frameLabel() +
            (frames->images ? QString()
                            : QCoreApplication::translate("ui::views::ParticleCanvas",
                                                          "   ·   grey: the data density")));
}

ParticlesView::ParticlesView(QWidget* parent)
    : ViewPanel(QT_TRANSLATE_NOOP("ui::views", "Particles"), parent) {
    auto* body = new QWidget;
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(0, 0, 0, 4);
    m_canvas = new ParticleCanvas(this);
    layout->addWidget(m_canvas, 1);
    auto* controlRow = new QWidget;
    auto* controls = new QHBoxLayout(controlRow);
    controls->setContentsMargins(8, 0, 8, 0);
    m_play = new QPushButton(tr("Play"));
    m_play->setToolTip(
        tr("Play or pause the particles: forward process, then reverse "
           "sampling (Space, Play menu)."));
    m_back = new QToolButton;
    m_back->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    m_back->setToolTip(tr("One frame back (Left)"));
    m_back->setAutoRepeat(true);
    m_forward = new QToolButton;
    m_forward->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    m_forward->setToolTip(tr("One frame on (Right)"));
    m_forward->setAutoRepeat(true);
    m_speed = new QComboBox;
    for (double s : {0.25, 0.5, 1.0, 2.0, 4.0}) m_speed->addItem(QString("%1×").arg(s), s);
    m_speed->setCurrentIndex(2);
    m_speed->setToolTip(tr("Playback speed: 1× plays all frames in about 6 s"));
    m_loop = new QCheckBox(tr("loop"));
    m_loop->setChecked(true);
    m_loop->setToolTip(tr("Start again after the last frame; off: stop on it"));
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setToolTip(
        tr("The frame: forward from x_0 to the last timestep, then reverse back to x_0."));
    m_label = new QLabel;
    m_label->setMinimumWidth(190);
    controls->addWidget(m_back);
    controls->addWidget(m_play);
    controls->addWidget(m_forward);
    controls->addWidget(m_slider, 1);
    controls->addWidget(m_label);
    controls->addWidget(new QLabel(tr("speed")));
    controls->addWidget(m_speed);
    controls->addWidget(m_loop);
    layout->addWidget(controlRow);
    markControl(controlRow);
    setBody(body);
    setToolTip(
        tr("Particles under the forward process, then under two reverse samplers started "
           "from the same noise; grey beneath: the data density."));
    connect(m_play, &QPushButton::clicked, this, [this] { setPlaying(!isPlaying()); });
    connect(m_back, &QToolButton::clicked, this, [this] { stepBy(-1); });
    connect(m_forward, &QToolButton::clicked, this, [this] { stepBy(1); });
    connect(m_speed, &QComboBox::currentIndexChanged, this, [this] {
        if (isPlaying()) setPlaying(true);  // the new interval
    });
    connect(m_slider, &QSlider::valueChanged, this, &ParticlesView::setFrame);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        const int count = frameCount();
        if (count == 0) return;
        if (m_frame + 1 >= count && !m_loop->isChecked()) {
            setPlaying(false);
            return;
        }
        setFrame((m_frame + 1) % count);
    });
    updateControls();
}

void ParticlesView::setFrames(std::shared_ptr<const jobs::ParticleFrames> frames) {
    const bool atEnd = m_frames == nullptr || m_frame >= frameCount() - 1;
    m_frames = std::move(frames);
    m_density = QImage();
    if (m_frames && m_frames->densityBins > 0) {
        const int bins = m_frames->densityBins;
        m_density = QImage(bins, bins, QImage::Format_Grayscale8);
        for (int row = 0; row < bins; ++row) {
            uchar* line = m_density.scanLine(bins - 1 - row);  // image rows run top-down
            for (int col = 0; col < bins; ++col) {
                // sqrt lifts thin tails into view; the darkest grey stays light under the dots.
                const double v =
                    std::sqrt(m_frames->density[static_cast<size_t>(row) * bins + col]);
                line[col] = static_cast<uchar>(std::lround(255.0 - 140.0 * v));
            }
        }
    }
    const int count = frameCount();
    m_frame = atEnd ? std::max(0, count - 1) : std::clamp(m_frame, 0, std::max(0, count - 1));
    // The final samples of both samplers: a row per (pane, sample), a column per dimension.
    charts::ChartData data;
    if (m_frames) {
        const int d = m_frames->dimension;
        data.textHeader = {"pane", "sampler"};
        data.text.assign(2, {});
        data.header = {"sample"};
        for (int i = 0; i < d; ++i) {
            data.header.push_back(d == 2 ? (i == 0 ? "x" : "y") : "x" + std::to_string(i + 1));
        }
        data.columns.assign(static_cast<size_t>(d) + 1, {});
        auto add = [&](const char* pane, const std::string& name, const core::Matrix& samples) {
            for (Eigen::Index b = 0; b < samples.cols(); ++b) {
                data.text[0].push_back(pane);
                data.text[1].push_back(name);
                data.columns[0].push_back(static_cast<double>(b));
                for (int i = 0; i < d; ++i)
                    data.columns[static_cast<size_t>(i) + 1].push_back(samples(i, b));
            }
        };
        add("A", m_frames->samplerA, m_frames->reverseA.samples);
        if (!m_frames->samplerB.empty()) add("B", m_frames->samplerB, m_frames->reverseB.samples);
        QString note = tr("%1 particles, %2 timesteps")
                           .arg(m_frames->count)
                           .arg(m_frames->forward.frameSteps.size() - 1);
        if (m_frames->count < m_frames->requested) {
            note += tr(" (%1 requested: %2)")
                        .arg(m_frames->requested)
                        .arg(m_frames->images ? tr("the first images are shown")
                                              : tr("fewer fit in memory at this number of steps"));
        }
        setMessage(note + ".");
    }
    setData(std::move(data));
    updateControls();
    if (m_tileScale > 1.0) fitToData();  // presentation mode: the new data's extent
    m_canvas->update();
}

void ParticlesView::clear(const QString& reason) {
    setPlaying(false);
    m_frames.reset();
    m_density = QImage();
    m_frame = 0;
    setData({});
    setMessage(reason, !reason.isEmpty());
    updateControls();
    m_canvas->update();
}

int ParticlesView::frameCount() const {
    if (!m_frames) return 0;
    return static_cast<int>(m_frames->forward.frames.size() + m_frames->reverseA.frames.size());
}

void ParticlesView::setFrame(int frame) {
    const int clamped = std::clamp(frame, 0, std::max(0, frameCount() - 1));
    if (clamped == m_frame && m_slider->value() == clamped) return;
    m_frame = clamped;
    updateControls();
    m_canvas->update();
}

QString ParticlesView::frameLabel() const {
    if (!m_frames || frameCount() == 0) return {};
    const int forward = static_cast<int>(m_frames->forward.frames.size());
    if (m_frame < forward) {
        return tr("forward n = %1").arg(m_frames->forward.frameSteps[m_frame]);
    }
    return tr("reverse n = %1").arg(m_frames->reverseA.frameSteps[m_frame - forward]);
}

const core::Matrix* ParticlesView::particles(int pane, int frame) const {
    if (!m_frames || frame < 0 || frame >= frameCount() || (pane == 1 && !comparing())) {
        return nullptr;
    }
    const size_t forward = m_frames->forward.frames.size();
    if (static_cast<size_t>(frame) < forward) {
        return &m_frames->forward.frames[frame];
    }
    const auto& reverse = pane == 0 ? m_frames->reverseA : m_frames->reverseB;
    const size_t r = frame - forward;
    return r < reverse.frames.size() ? &reverse.frames[r] : nullptr;
}

bool ParticlesView::comparing() const { return m_frames && !m_frames->samplerB.empty(); }

QWidget* ParticlesView::canvas() const { return m_canvas; }
void ParticlesView::zoomAbout(const QPointF& at, double factor) { m_canvas->zoomAbout(at, factor); }
void ParticlesView::panBy(const QPointF& pixels) { m_canvas->panBy(pixels); }
void ParticlesView::resetZoom() { m_canvas->resetZoom(); }
void ParticlesView::setZoom(double zoom, const QPointF& centre) { m_canvas->setZoom(zoom, centre); }
QRectF ParticlesView::visibleWindow() const { return m_canvas->window(); }
QString ParticlesView::readoutAt(const QPointF& at) const { return m_canvas->readoutAt(at); }

bool ParticlesView::showsImages() const { return m_frames && m_frames->images; }

void ParticlesView::setPlaying(bool playing) {
    if (playing && frameCount() > 1) {
        if (!isPlaying() && m_frame + 1 >= frameCount()) setFrame(0);  // play again from the start
        m_timer.start(std::clamp(static_cast<int>(kLoopMs / frameCount() / speed()), 15, 1600));
    } else {
        m_timer.stop();
    }
    m_play->setText(isPlaying() ? tr("Pause") : tr("Play"));
}

void ParticlesView::setTileScale(double scale) {
    m_tileScale = std::clamp(scale, 1.0, 4.0);
    // A lecture hall sees the data, not the noise's ±range: presentation mode fits the axes to
    // the data (the first frame's points), and leaving it shows everything again.
    if (m_tileScale > 1.0) {
        fitToData();
    } else {
        m_canvas->resetZoom();
    }
    m_canvas->update();
}

void ParticlesView::fitToData() {
    const core::Matrix* x = particles(0, 0);
    if (x == nullptr || x->cols() == 0 || !m_frames || m_frames->images) return;
    double extent = 0.0;
    for (Eigen::Index b = 0; b < x->cols(); ++b) {
        for (Eigen::Index r = 0; r < std::min<Eigen::Index>(2, x->rows()); ++r) {
            if (std::isfinite((*x)(r, b))) extent = std::max(extent, std::abs((*x)(r, b)));
        }
    }
    if (extent > 0.0) m_canvas->setZoom(m_frames->range / (1.15 * extent), {});
}

int ParticlesView::tilesShown() const {
    return std::max(
        1, static_cast<int>(std::lround(jobs::kMaxParticleImages / (m_tileScale * m_tileScale))));
}

void ParticlesView::stepBy(int frames) {
    const int count = frameCount();
    if (count == 0) return;
    setPlaying(false);
    setFrame(std::clamp(m_frame + frames, 0, count - 1));
}

void ParticlesView::setSpeed(double speed) {
    const int index = m_speed->findData(speed);
    if (index >= 0) m_speed->setCurrentIndex(index);
}

double ParticlesView::speed() const { return m_speed->currentData().toDouble(); }

void ParticlesView::setLooping(bool loop) { m_loop->setChecked(loop); }

void ParticlesView::updateControls() {
    const int count = frameCount();
    const QSignalBlocker block(m_slider);
    m_slider->setRange(0, std::max(0, count - 1));
    m_slider->setValue(m_frame);
    m_slider->setEnabled(count > 1);
    m_play->setEnabled(count > 1);
    m_back->setEnabled(count > 1 && m_frame > 0);
    m_forward->setEnabled(count > 1 && m_frame + 1 < count);
    if (count <= 1) setPlaying(false);
    const QString label = frameLabel();
    m_label->setText(label.isEmpty()
                         ? QString()
                         : tr("%1   (frame %2 of %3)").arg(label).arg(m_frame + 1).arg(count));
}

}  // namespace ui::views
