// SPDX-License-Identifier: MIT
#include "ui/animation/time_bar.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>

namespace ui::animation {
namespace {
// The slider has this many ticks per step, so scrubbing can stop between steps.
constexpr int kTicksPerStep = 20;
// At 1× a whole animation takes about this long, whatever its number of steps.
constexpr double kSecondsPerAnimation = 8.0;
}  // namespace

TimeBar::TimeBar(QWidget* parent)
    : QWidget(parent),
      m_play(new QToolButton),
      m_back(new QToolButton),
      m_forward(new QToolButton),
      m_slider(new QSlider(Qt::Horizontal)),
      m_label(new QLabel),
      m_speed(new QComboBox),
      m_direction(new QComboBox),
      m_seed(new QSpinBox) {
    auto* rows = new QVBoxLayout(this);
    rows->setContentsMargins(6, 2, 6, 2);
    rows->setSpacing(2);
    // The bar's minimum is that of its two-line arrangement (minimumSizeHint), whichever it
    // shows: the one-line layout's larger minimum held the window wider than it had been after
    // presentation mode, and the bar never got narrow enough to go back to two lines.
    rows->setSizeConstraint(QLayout::SetNoConstraint);
    m_playerRow = new QHBoxLayout;
    m_settingsRow = new QHBoxLayout;
    rows->addLayout(m_playerRow);
    rows->addLayout(m_settingsRow);
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_play->setToolTip(tr("Play / pause (Space)"));
    m_back->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    m_back->setToolTip(tr("One step back (Left)"));
    m_forward->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    m_forward->setToolTip(tr("One step forward (Right)"));
    m_slider->setToolTip(tr("Scrub through the recorded steps"));
    for (double s : {0.25, 0.5, 1.0, 2.0, 4.0}) {
        m_speed->addItem(QString("%1×").arg(s), s);
    }
    m_speed->setCurrentIndex(2);
    m_speed->setToolTip(tr("Playback speed"));
    m_direction->addItem(tr("Reverse: π → data"), true);
    m_direction->addItem(tr("Forward: data → π"), false);
    m_direction->setToolTip(tr("Which process the Trajectories view plays"));
    m_seed->setRange(0, 2147483647);
    m_seed->setToolTip(tr("Random seed of the samplers (results are identical for a given seed)"));
    m_playerRow->addWidget(m_back);
    m_playerRow->addWidget(m_play);
    m_playerRow->addWidget(m_forward);
    m_playerRow->addWidget(m_slider, 1);
    m_playerRow->addWidget(m_label);
    m_settings = {new QLabel(tr("speed")), m_speed, m_direction, new QLabel(tr("seed")), m_seed};
    for (QWidget* widget : m_settings) m_playerRow->addWidget(widget);
    m_settingsRow->addStretch(1);

    m_timer.setInterval(16);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &TimeBar::onTick);
    connect(m_play, &QToolButton::clicked, this, &TimeBar::togglePlay);
    connect(m_back, &QToolButton::clicked, this, &TimeBar::stepBackward);
    connect(m_forward, &QToolButton::clicked, this, &TimeBar::stepForward);
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        if (std::lround(m_position * kTicksPerStep) != value) {
            setPosition(static_cast<double>(value) / kTicksPerStep);
        }
    });
    connect(m_direction, &QComboBox::currentIndexChanged, this, [this] {
        emit directionChanged(reverseDirection());
        setPosition(0.0);
    });
    connect(m_seed, &QSpinBox::editingFinished, this,
            [this] { emit seedEdited(static_cast<qulonglong>(m_seed->value())); });
    updateLabel();
}

bool TimeBar::reverseDirection() const { return m_direction->currentData().toBool(); }

void TimeBar::setReverseDirection(bool reverse) {
    const int index = m_direction->findData(reverse);
    if (index >= 0) m_direction->setCurrentIndex(index);
}

// The settings beside the player while the slider keeps room to scrub (kMinSliderWidth), else
// on a line of their own below it: with the Explanation open on a 1280 × 720 projector the
// slider had shrunk to a stub.
void TimeBar::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    constexpr int kMinSliderWidth = 200;
    const int spacing = std::max(0, m_playerRow->spacing());
    int needed = contentsMargins().left() + contentsMargins().right() + kMinSliderWidth;
    for (const QWidget* widget : playerWidgets()) {
        if (widget != m_slider) needed += widget->sizeHint().width() + spacing;
    }
    for (QWidget* widget : m_settings) needed += widget->sizeHint().width() + spacing;
    const bool oneLine = width() >= needed;
    if (oneLine == m_oneLine) return;
    m_oneLine = oneLine;
    updateGeometry();  // one line or two: another height
    for (QWidget* widget : m_settings) {
        m_playerRow->removeWidget(widget);
        m_settingsRow->removeWidget(widget);
    }
    for (int i = 0; i < static_cast<int>(m_settings.size()); ++i) {
        if (oneLine) {
            m_playerRow->addWidget(m_settings[static_cast<size_t>(i)]);
        } else {
            m_settingsRow->insertWidget(i, m_settings[static_cast<size_t>(i)]);
        }
    }
}

std::array<const QWidget*, 5> TimeBar::playerWidgets() const {
    return {m_back, m_play, m_forward, m_slider, m_label};
}

QSize TimeBar::minimumSizeHint() const {
    const auto widthOf = [](const QWidget* w) {
        return std::max(w->minimumWidth(), w->minimumSizeHint().width());
    };
    const int spacing = std::max(0, m_playerRow->spacing());
    int player = 0;
    for (const QWidget* w : playerWidgets()) player += widthOf(w) + spacing;
    int settings = 0;
    for (const QWidget* w : m_settings) settings += widthOf(w) + spacing;
    const QMargins margins = contentsMargins();
    return {margins.left() + margins.right() + std::max(player, settings),
            layout()->minimumSize().height()};
}

void TimeBar::setNumSteps(int steps) {
    m_steps = std::max(0, steps);
    m_slider->setRange(0, m_steps * kTicksPerStep);
    setPosition(std::min(m_position, static_cast<double>(m_steps)));
}

void TimeBar::setSeed(qulonglong seed) {
    QSignalBlocker block(m_seed);
    m_seed->setValue(static_cast<int>(std::min<qulonglong>(seed, 2147483647)));
}

void TimeBar::togglePlay() {
    if (m_timer.isActive()) {
        m_timer.stop();
        m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
        setPosition(std::round(m_position));  // come to rest on a step
        return;
    }
    if (m_position >= m_steps) {
        setPosition(0.0);
    }
    m_clock.start();
    m_timer.start();
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
}

void TimeBar::stepForward() { setPosition(std::floor(m_position + 1e-9) + 1.0); }

void TimeBar::stepBackward() { setPosition(std::ceil(m_position - 1e-9) - 1.0); }

void TimeBar::setPosition(double position) {
    m_position = std::clamp(position, 0.0, static_cast<double>(m_steps));
    {
        QSignalBlocker block(m_slider);
        m_slider->setValue(static_cast<int>(std::lround(m_position * kTicksPerStep)));
    }
    updateLabel();
    emit positionChanged(m_position);
}

void TimeBar::onTick() {
    // Advance by wall-clock time so the speed holds even when a frame is late.
    const double seconds = m_clock.restart() / 1000.0;
    const double stepsPerSecond =
        std::max(1.0, m_steps / kSecondsPerAnimation) * m_speed->currentData().toDouble();
    const double next = m_position + seconds * stepsPerSecond;
    if (next >= m_steps) {
        setPosition(m_steps);
        togglePlay();
        return;
    }
    setPosition(next);
}

void TimeBar::updateLabel() {
    m_label->setText(
        tr("step %1 of %2").arg(static_cast<int>(std::round(m_position))).arg(m_steps));
    // As wide as its widest text at the font in use, so that it neither jitters while playing
    // nor runs into "speed" in presentation mode (a fixed 90 px did: "step 0 of 64speed").
    // The bar's own font, which the label inherits: a font change reaches the bar before it.
    m_label->setMinimumWidth(static_cast<int>(std::ceil(
        fontMetrics().horizontalAdvance(tr("step %1 of %2").arg(m_steps).arg(m_steps)) + 8)));
}

void TimeBar::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) updateLabel();
}

}  // namespace ui::animation
