// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>

// The one palette of every view: Okabe and Ito's colour-blind-safe colours, each with a meaning
// that is the same everywhere (a DP trajectory is vermillion in the Trajectory view, the step
// costs and the particles' pane B alike is the sampler being compared). Views take colours
// from here by what they show, never by hue.
namespace ui::charts::palette {

// Okabe & Ito (2008), "Color Universal Design".
inline const QColor kBlue{0x00, 0x72, 0xB2};
inline const QColor kVermillion{0xD5, 0x5E, 0x00};
inline const QColor kBluishGreen{0x00, 0x9E, 0x73};
inline const QColor kOrange{0xE6, 0x9F, 0x00};
inline const QColor kSkyBlue{0x56, 0xB4, 0xE9};
inline const QColor kReddishPurple{0xCC, 0x79, 0xA7};
inline const QColor kGrey{0x80, 0x80, 0x80};

// Trajectories: the same colour in the tick rows, the step costs and the NLL curves.
inline const QColor kEven = kBlue;
inline const QColor kDp = kVermillion;
inline const QColor kQuadratic = kBluishGreen;
inline const QColor kTypedList = kReddishPurple;

// What is exact or given (the data, an oracle's value) against what is computed from it.
inline const QColor kData = kGrey;
inline const QColor kExact = kVermillion;     // the exact marginal, the exact posterior variance
inline const QColor kSampled = kBlue;         // chains, particles, Monte Carlo estimates
inline const QColor kSamplerA = kBlue;        // the Particles view's pane A
inline const QColor kSamplerB = kVermillion;  // and pane B

// Schedules and information.
inline const QColor kBeta = kBlue;
inline const QColor kKeep = kSkyBlue;  // 1 − β
inline const QColor kInformation = kVermillion;
inline const QColor kImpurity = kBluishGreen;
inline const QColor kCategorical = kReddishPurple;  // the categorical process beside the Gaussian
inline const QColor kGaussian = kOrange;

// Reverse variances: the analytic optimum, the bounds around it, DDPM's two choices.
inline const QColor kAnalytic = kVermillion;
inline const QColor kBounds = kBlue;
inline const QColor kSmallVariance = kBluishGreen;  // β̃
inline const QColor kLargeVariance = kGrey;         // β

// Kernels: the closed form against the D3PM-style one.
inline const QColor kClosedForm = kBlue;
inline const QColor kD3pm = kOrange;

// The given colour with an alpha (bands, fills).
inline QColor withAlpha(QColor colour, int alpha) {
    colour.setAlpha(alpha);
    return colour;
}

}  // namespace ui::charts::palette
