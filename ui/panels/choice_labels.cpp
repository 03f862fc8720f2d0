// SPDX-License-Identifier: MIT
// The labels of the core's tables of choices (core/project), English there as the command line
// shows them; listed here so that lupdate offers them for translation. addChoices() shows them
// translated.
#include <QtGlobal>

namespace ui::panels {

[[maybe_unused]] const char* const kChoiceLabels[] = {
    QT_TRANSLATE_NOOP("ui::panels::choices", "linear: β = t"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "cosine"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "power: β = tᵖ"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "custom (drag points)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "information-linear"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "even"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "DP-optimal"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "typed list"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "table (edit below)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "8×8 digits"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "table file (CSV)…"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "quadratic"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "linspace (diffusers)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "leading (diffusers)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "trailing (diffusers)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "uniform log-SNR (DPM-Solver)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "Karras σ (EDM)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "Align Your Steps (SD 1.5)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "Align Your Steps (SDXL)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "clipped cost (default)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "segmented (paper code)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "analytic-ddpm"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "analytic-ddim"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "ddpm"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "ddim"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "dpm-solver-1"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "dpm-solver++(2M)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "dpm-solver++(3M)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "low-variance (default)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "score ‖ε_θ‖²/d (paper)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "denoising (exact oracle only)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "error 1 − ‖ε_θ − ε‖²/d"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "linear"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "scaled-linear"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "sigmoid"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "linear, zero terminal SNR"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "cosine, zero terminal SNR"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "scaled-linear, zero terminal SNR"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "sigmoid, zero terminal SNR"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "two moons"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "checkerboard"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "swiss roll"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "ring"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "Gaussian N(0, 0.5² I), d = 2"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "8×8 digits (64-D, training split)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "Gaussian mixture (drag on the plane)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "β̃ (small)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "β (large)"),
    QT_TRANSLATE_NOOP("ui::panels::choices", "analytic optimum"),
};

}  // namespace ui::panels
