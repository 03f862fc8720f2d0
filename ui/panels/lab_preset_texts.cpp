// SPDX-License-Identifier: MIT
// The titles and explanations of the lab's presets (core/project/lab_settings.cpp), English there
// as the command line shows them; listed here so that lupdate offers them for translation.
#include <QtGlobal>

namespace ui::panels {

[[maybe_unused]] const char* const kLabPresetTexts[] = {
    QT_TRANSLATE_NOOP("ui::labPresets", "Leading spacing without zero SNR"),
    QT_TRANSLATE_NOOP(
        "ui::labPresets",
        "Leading spacing stops short of the last timestep, so sampling starts from pure noise at a "
        "step where the data still leave a trace, and the NLL's prior term says what that costs; "
        "trailing spacing reaches the last step but then leaves its first steps out, so its "
        "decoder reads a noisier x, and zero terminal SNR makes the start exact."),
    QT_TRANSLATE_NOOP("ui::labPresets", "DDPM's β̃ with few steps"),
    QT_TRANSLATE_NOOP(
        "ui::labPresets",
        "With few steps the DDPM reverse variance β̃ is far too small and the likelihood bound "
        "explodes; β is much better and the analytic variance, fitted to the model, better still. "
        "The gap closes as the number of steps grows."),
    QT_TRANSLATE_NOOP("ui::labPresets", "Karras spacing on a linear-β model"),
    QT_TRANSLATE_NOOP("ui::labPresets",
                      "Karras spacing places the steps evenly in σ to the power 1/ρ, a rule made "
                      "for models whose noise level spans a huge range; here it runs on a linear-β "
                      "schedule, next to uniform log-SNR, even spacing and the DP optimum, to see "
                      "where it puts its steps and what they cost."),
};

}  // namespace ui::panels
