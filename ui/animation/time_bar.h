// SPDX-License-Identifier: MIT
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <array>
#include <vector>

class QComboBox;
class QHBoxLayout;
class QSlider;
class QSpinBox;
class QToolButton;
class QLabel;

// The time slider with play/pause, step, speed, direction and seed.
// It owns the animation clock: a 60 Hz timer advances a fractional position in steps, so dots
// glide between lanes; the slider scrubs to any step at once. Positions are emitted, the views
// replay recorded frames and never recompute.
namespace ui::animation {

class TimeBar : public QWidget {
    Q_OBJECT
public:
    explicit TimeBar(QWidget* parent = nullptr);
    QSize minimumSizeHint() const override;

    void setNumSteps(int steps);
    void setSeed(qulonglong seed);
    double position() const { return m_position; }
    bool isPlaying() const { return m_timer.isActive(); }
    bool reverseDirection() const;
    // Reverse (π → data) or forward (data → π); emits directionChanged when it changes.
    void setReverseDirection(bool reverse);

public slots:
    void togglePlay();
    void stepForward();
    void stepBackward();
    void setPosition(double position);

signals:
    void positionChanged(double position);
    void directionChanged(bool reverse);
    void seedEdited(qulonglong seed);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void onTick();
    void updateLabel();
    // The player's line: step buttons, slider and step label (the settings may join it).
    std::array<const QWidget*, 5> playerWidgets() const;

    int m_steps = 0;
    double m_position = 0.0;
    QTimer m_timer;
    QElapsedTimer m_clock;
    QToolButton* m_play;
    QToolButton* m_back;
    QToolButton* m_forward;
    QSlider* m_slider;
    QLabel* m_label;
    QComboBox* m_speed;
    QComboBox* m_direction;
    QSpinBox* m_seed;
    QHBoxLayout* m_playerRow;
    QHBoxLayout* m_settingsRow;        // the settings when the player's line is too narrow
    std::vector<QWidget*> m_settings;  // speed, direction and seed with their labels
    bool m_oneLine = true;
};

}  // namespace ui::animation
