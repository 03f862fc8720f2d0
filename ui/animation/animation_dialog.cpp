// SPDX-License-Identifier: MIT
#include "ui/animation/animation_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

namespace ui::animation {
namespace {
const char* kGroup = "animationExport";
}  // namespace

AnimationDialog::AnimationDialog(const AnimationSource& source,
                                 const QString& viewTitle,
                                 QWidget* parent)
    : QDialog(parent),
      m_source(source),
      m_width(new QSpinBox),
      m_height(new QSpinBox),
      m_fps(new QSpinBox),
      m_perStep(new QSpinBox),
      m_hold(new QDoubleSpinBox),
      m_format(new QComboBox),
      m_preview(new QLabel) {
    setWindowTitle(tr("Export animation: %1").arg(viewTitle));
    QSettings settings;
    settings.beginGroup(kGroup);
    const AnimationExportOptions defaults;
    for (QSpinBox* box : {m_width, m_height}) {
        box->setRange(16, 4096);
        box->setSuffix(tr(" px"));
    }
    m_width->setValue(settings.value("width", defaults.size.width()).toInt());
    m_height->setValue(settings.value("height", defaults.size.height()).toInt());
    m_fps->setRange(1, 50);
    m_fps->setSuffix(tr(" frames/s"));
    m_fps->setValue(settings.value("fps", defaults.fps).toInt());
    m_perStep->setRange(1, 30);
    m_perStep->setValue(settings.value("framesPerStep", defaults.framesPerStep).toInt());
    m_perStep->setEnabled(source.glides);
    m_perStep->setToolTip(source.glides
                              ? tr("Frames drawn per step of the trajectory: the chains glide "
                                   "between steps; more frames make a smoother, longer film.")
                              : tr("This view's frames are the sampler's steps: one frame each."));
    m_hold->setRange(0.0, 20.0);
    m_hold->setDecimals(1);
    m_hold->setSingleStep(0.5);
    m_hold->setSuffix(tr(" s"));
    m_hold->setValue(settings.value("holdSeconds", defaults.holdLastMs / 1000.0).toDouble());
    m_hold->setToolTip(
        tr("How long the last frame stays before the animation starts again, "
           "so an audience can read the end."));
    m_format->addItem(tr("Animated GIF"));
    m_format->addItem(tr("PNG frame sequence (for video tools)"));
    m_format->setCurrentIndex(settings.value("pngSequence", false).toBool() ? 1 : 0);

    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel("×"));
    sizeRow->addWidget(m_height);
    auto* form = new QFormLayout;
    form->addRow(tr("Size"), sizeRow);
    form->addRow(tr("Frame rate"), m_fps);
    form->addRow(tr("Frames per step"), m_perStep);
    form->addRow(tr("Hold the last frame"), m_hold);
    form->addRow(tr("Format"), m_format);
    form->addRow(tr("Length"), m_preview);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Choose file…"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);

    for (QSpinBox* box : {m_width, m_height, m_fps, m_perStep}) {
        connect(box, &QSpinBox::valueChanged, this, &AnimationDialog::refresh);
    }
    connect(m_hold, &QDoubleSpinBox::valueChanged, this, &AnimationDialog::refresh);
    refresh();
}

AnimationExportOptions AnimationDialog::options() const {
    AnimationExportOptions o;
    o.size = QSize(m_width->value(), m_height->value());
    o.fps = m_fps->value();
    o.framesPerStep = m_perStep->value();
    o.holdLastMs = static_cast<int>(std::lround(m_hold->value() * 1000.0));
    return o;
}

bool AnimationDialog::pngSequence() const { return m_format->currentIndex() == 1; }

QString AnimationDialog::preview() const {
    const AnimationExportOptions o = options();
    if (const QString problem = checkAnimationOptions(m_source, o); !problem.isEmpty()) {
        return problem;
    }
    const AnimationLength length = animationLength(m_source, o);
    return tr("%1 frames · %2 s (the last frame held %3 s)")
        .arg(length.frames)
        .arg(length.seconds, 0, 'f', 1)
        .arg(m_hold->value(), 0, 'f', 1);
}

void AnimationDialog::remember() const {
    QSettings settings;
    settings.beginGroup(kGroup);
    const AnimationExportOptions o = options();
    settings.setValue("width", o.size.width());
    settings.setValue("height", o.size.height());
    settings.setValue("fps", o.fps);
    settings.setValue("framesPerStep", o.framesPerStep);
    settings.setValue("holdSeconds", m_hold->value());
    settings.setValue("pngSequence", pngSequence());
}

void AnimationDialog::refresh() {
    m_preview->setText(preview());
    m_ok->setEnabled(checkAnimationOptions(m_source, options()).isEmpty());
}

}  // namespace ui::animation
