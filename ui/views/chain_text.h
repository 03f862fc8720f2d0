// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QWidget>
#include <vector>

#include "core/project/chain_decoding.h"

// Decoded text for one sampler at one N on a Markov chain: the first sequences, each letter on
// a cell coloured by the step that unmasked it (early dark, late bright, as the commit raster),
// the positions still masked after the step shown as a neutral dot. Rows wrap at the width, so
// every letter is drawn at any size; sequences that do not fit the height are left out (when none
// fits, it asks to be enlarged).
namespace ui::views {

class ChainText : public QWidget {
    Q_OBJECT
public:
    explicit ChainText(QWidget* parent = nullptr);

    // `states` names the chain's letters; the sequences' commit steps are in 1..numSteps.
    void setSequences(QStringList states, std::vector<core::project::ChainShownSequence> sequences,
                      int numSteps, const QString& caption);
    void clear(const QString& message);
    // Letters unmasked after more steps than `step` are drawn masked (numSteps: the output).
    void setShownStep(int step);
    int shownStep() const { return m_step; }
    int numSteps() const { return m_steps; }
    // The sequences drawn at the current size (as many as fit, in order), and each as the text it
    // shows (masked: "·").
    int shownSequences() const;
    QString sequenceText(int index) const;
    // The caption and the colour bar's words.
    QStringList texts() const;

    QSize sizeHint() const override { return {600, 220}; }
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Layout {
        double cell = 0.0;       // a letter's cell, width
        double lineHeight = 0.0;
        int perLine = 1;         // letters per line
        int linesPerSequence = 1;
        double captionHeight = 0.0;
        double top = 0.0;        // the first sequence's line
        double barLeft = 0.0;    // the colour bar's line
        double barTop = 0.0;
        int sequences = 0;       // that fit
    };
    Layout layout() const;
    QString captionText() const;
    double barWidth() const;
    QString letter(int state) const;

    QStringList m_states;
    std::vector<core::project::ChainShownSequence> m_sequences;
    int m_steps = 0;
    int m_step = 0;
    QString m_caption;
    QString m_message;
};

}  // namespace ui::views
