// SPDX-License-Identifier: MIT
#include "ui/charts/math_text.h"

#include <QRegularExpression>

namespace ui::charts {

QString withSubscripts(const QString& html) {
    // A one-letter symbol (not the end of a longer name such as scheduler_config) followed by
    // "_(k−1)" or by a run of letters and digits.
    static const QRegularExpression subscript(
        R"((?<![\p{L}\p{N}_])(\p{L})_(?:\(([^()\s]+)\)|([\p{L}\p{N}]+)))");
    QString out;
    qsizetype last = 0;
    for (auto it = subscript.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += html.mid(last, m.capturedStart() - last);
        out += m.captured(1) + "<sub>" + (m.captured(2).isEmpty() ? m.captured(3) : m.captured(2)) +
               "</sub>";
        last = m.capturedEnd();
    }
    return out + html.mid(last);
}

QString richMathText(const QString& plain) {
    return "<p>" + withSubscripts(plain.toHtmlEscaped()) + "</p>";
}

}  // namespace ui::charts
