// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

#include "ui/animation/animation_export.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

// File ▸ Export animation's options: size, frame rate, frames per step (for views whose
// frames glide), how long the last frame stays, and the format, with the resulting number of
// frames and play time shown as they change. The values of the last export are remembered.
namespace ui::animation {

class AnimationDialog : public QDialog {
    Q_OBJECT
public:
    AnimationDialog(const AnimationSource& source,
                    const QString& viewTitle,
                    QWidget* parent = nullptr);

    AnimationExportOptions options() const;
    bool pngSequence() const;  // else an animated GIF
    // "84 frames · 4.9 s (…)" or the options' problem.
    QString preview() const;
    // Saves the values for the next export (the caller does it once the file is chosen).
    void remember() const;

    QSpinBox* fpsBox() const { return m_fps; }
    QSpinBox* framesPerStepBox() const { return m_perStep; }
    QDoubleSpinBox* holdBox() const { return m_hold; }

private:
    void refresh();

    AnimationSource m_source;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QSpinBox* m_fps;
    QSpinBox* m_perStep;
    QDoubleSpinBox* m_hold;
    QComboBox* m_format;
    QLabel* m_preview;
    QPushButton* m_ok = nullptr;
};

}  // namespace ui::animation
