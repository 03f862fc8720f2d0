// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

// Mathematics in the window's rich text (explanations, tooltips): a subscript that Unicode has
// no character for (ε_θ, Σ_d, t_(k−1)) is written with an underscore in the translatable text
// and shown as a real subscript here, never as the underscore of code.
namespace ui::charts {

// `html` (already escaped) with each x_y and x_(…) as x<sub>y</sub>; the parentheses of a
// grouped subscript are dropped.
QString withSubscripts(const QString& html);

// Plain text as the rich text of a tooltip or label: escaped, with subscripts, in a paragraph
// (so that Qt takes it as rich text and wraps it).
QString richMathText(const QString& plain);

}  // namespace ui::charts
