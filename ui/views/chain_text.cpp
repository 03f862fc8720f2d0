// SPDX-License-Identifier: MIT
#include "ui/views/chain_text.h"

#include <QFontDatabase>
#include <QLinearGradient>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "ui/charts/palette.h"
#include "ui/views/heatmap_widget.h"

namespace ui::views {

namespace {
// Shown for a masked position: a neutral mark, not a letter of any chain.
const QString kMaskMark = QStringLiteral("·");
// The colour bar's gradient, in pixels.
constexpr double kBarWidth = 120.0;
}  // namespace

ChainText::ChainText(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void ChainText::setSequences(QStringList states, std::vector<core::project::ChainShownSequence> sequences,
                             int numSteps, const QString& caption) {
    m_states = std::move(states);
    m_sequences = std::move(sequences);
    m_steps = std::max(1, numSteps);
    m_step = m_steps;
    m_caption = caption;
    m_message.clear();
    updateGeometry();
    update();
}

void ChainText::clear(const QString& message) {
    m_sequences.clear();
    m_caption.clear();
    m_message = message;
    m_steps = 0;
    m_step = 0;
    update();
}

void ChainText::setShownStep(int step) {
    m_step = std::clamp(step, 0, m_steps);
    update();
}

QString ChainText::letter(int state) const {
    if (state < 0 || state >= m_states.size()) return kMaskMark;
    const QString& name = m_states[state];
    // One cell a letter: a chain whose states have longer names shows their first characters.
    return name.isEmpty() ? QStringLiteral("?") : name.left(1);
}

QString ChainText::captionText() const {
    if (m_sequences.empty()) return m_caption;
    return tr("%1, after step %2 of %3").arg(m_caption).arg(m_step).arg(m_steps);
}

QStringList ChainText::texts() const {
    if (m_sequences.empty()) return {};
    return {captionText(), tr("unmasked at step"), QStringLiteral("1"), QString::number(m_steps),
            tr("masked")};
}

double ChainText::barWidth() const {
    const QFontMetricsF fm(font());
    return fm.horizontalAdvance(tr("unmasked at step")) + 6.0 + fm.horizontalAdvance(QStringLiteral("1")) + 4.0 +
           kBarWidth + 4.0 + fm.horizontalAdvance(QString::number(m_steps)) + 2.0 * fm.height() +
           fm.horizontalAdvance(kMaskMark) + 4.0 + fm.horizontalAdvance(tr("masked"));
}

ChainText::Layout ChainText::layout() const {
    Layout out;
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(font().pointSizeF());
    const QFontMetricsF fm(mono);
    const QFontMetricsF text(font());
    out.cell = std::max(fm.horizontalAdvance(QLatin1Char('M')), fm.horizontalAdvance(kMaskMark)) + 2.0;
    out.lineHeight = fm.height() + 2.0;
    const double available = std::max(1.0, width() - 8.0);
    // The caption, and the colour bar beside it where the line has room, else under it.
    const QString caption = captionText();
    const double besideWidth = text.horizontalAdvance(caption) + 2.0 * text.height() + barWidth();
    if (besideWidth <= available) {
        out.captionHeight = text.height();
        out.barLeft = 4.0 + available - barWidth();
        out.barTop = 4.0;
        out.top = 4.0 + text.height() + 6.0;
    } else {
        out.captionHeight = text.boundingRect(QRectF(0, 0, available, 10000), Qt::TextWordWrap, caption).height();
        out.barLeft = 4.0;
        out.barTop = 4.0 + out.captionHeight + 2.0;
        out.top = out.barTop + text.height() + 6.0;
    }
    out.perLine = std::max(1, static_cast<int>(std::floor(available / out.cell)));
    const int length = m_sequences.empty() ? 1 : static_cast<int>(m_sequences.front().states.size());
    out.linesPerSequence = (length + out.perLine - 1) / out.perLine;
    const double gap = out.lineHeight * 0.5;
    const double perSequence = out.linesPerSequence * out.lineHeight + gap;
    out.sequences = std::clamp(static_cast<int>(std::floor((height() - 2.0 - out.top + gap) / perSequence)), 0,
                               static_cast<int>(m_sequences.size()));
    return out;
}

int ChainText::shownSequences() const { return layout().sequences; }

QString ChainText::sequenceText(int index) const {
    if (index < 0 || index >= static_cast<int>(m_sequences.size())) return {};
    const auto& s = m_sequences[static_cast<size_t>(index)];
    QString out;
    for (size_t p = 0; p < s.states.size(); ++p) {
        const bool masked = s.commitStep[p] <= 0 || s.commitStep[p] > m_step;
        out += masked ? kMaskMark : letter(s.states[p]);
    }
    return out;
}

QSize ChainText::minimumSizeHint() const {
    const QFontMetrics fm = fontMetrics();
    const int em = fm.height();
    // The caption's longest word and the colour bar's words; the caption, a sequence of two lines
    // and the colour bar.
    int word = fm.horizontalAdvance(tr("unmasked at step")) + fm.horizontalAdvance(tr("masked")) + 10 * em;
    for (const QString& w : m_caption.split(' ', Qt::SkipEmptyParts)) word = std::max(word, fm.horizontalAdvance(w));
    return {word, 6 * em};
}

void ChainText::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    painter.setPen(Qt::black);
    if (m_sequences.empty()) {
        painter.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    const Layout l = layout();
    painter.drawText(QRectF(4, 4, width() - 8, l.captionHeight + 2), Qt::TextWordWrap | Qt::AlignLeft, captionText());
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setPointSizeF(font().pointSizeF());
    painter.setFont(mono);
    const double span = std::max(1, m_steps - 1);
    double y = l.top;
    if (l.sequences == 0) {
        painter.setPen(charts::palette::kGrey);
        painter.drawText(QRectF(4, l.top, width() - 8, height() - l.top), Qt::TextWordWrap | Qt::AlignLeft,
                         tr("Enlarge the view to read the text."));
    }
    for (int i = 0; i < l.sequences; ++i) {
        const auto& s = m_sequences[static_cast<size_t>(i)];
        for (size_t p = 0; p < s.states.size(); ++p) {
            const int line = static_cast<int>(p) / l.perLine;
            const int column = static_cast<int>(p) % l.perLine;
            const QRectF cell(4.0 + column * l.cell, y + line * l.lineHeight, l.cell - 1.0, l.lineHeight - 1.0);
            const int step = s.commitStep[p];
            if (step <= 0 || step > m_step) {
                painter.setPen(charts::palette::kGrey);
                painter.drawText(cell, Qt::AlignCenter, kMaskMark);
                continue;
            }
            const QColor colour = heatColor((step - 1) / span);
            painter.fillRect(cell, colour);
            painter.setPen(colour.lightnessF() < 0.5 ? Qt::white : Qt::black);
            painter.drawText(cell, Qt::AlignCenter, letter(s.states[p]));
        }
        y += l.linesPerSequence * l.lineHeight + l.lineHeight * 0.5;
    }
    // The colour bar: which step unmasked a letter, and the masked mark.
    painter.setFont(font());
    const QFontMetricsF fm(font());
    double x = l.barLeft;
    const double barY = l.barTop;
    const double barHeight = fm.height();
    const QString label = tr("unmasked at step");
    painter.setPen(Qt::black);
    painter.drawText(QPointF(x, barY + fm.ascent()), label);
    x += fm.horizontalAdvance(label) + 6.0;
    painter.drawText(QPointF(x, barY + fm.ascent()), QStringLiteral("1"));
    x += fm.horizontalAdvance(QStringLiteral("1")) + 4.0;
    QLinearGradient gradient(x, 0, x + kBarWidth, 0);
    for (int i = 0; i <= 4; ++i) gradient.setColorAt(i / 4.0, heatColor(i / 4.0));
    painter.fillRect(QRectF(x, barY, kBarWidth, barHeight), gradient);
    x += kBarWidth + 4.0;
    painter.drawText(QPointF(x, barY + fm.ascent()), QString::number(m_steps));
    x += fm.horizontalAdvance(QString::number(m_steps)) + 2.0 * fm.height();
    painter.setPen(charts::palette::kGrey);
    painter.drawText(QPointF(x, barY + fm.ascent()), kMaskMark);
    x += fm.horizontalAdvance(kMaskMark) + 4.0;
    painter.setPen(Qt::black);
    painter.drawText(QPointF(x, barY + fm.ascent()), tr("masked"));
}

}  // namespace ui::views
