// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/schedule/gaussian_schedule.h"

// How much a Gaussian forward process x_n = √ᾱ_n x_0 + √β̄_n ε (docs/gaussian.md#forward-process)
// leaves of its data, per dimension, for the Compare view: the Gaussian channel's mutual
// information.
namespace core::gaussian {

// I(n) = Σ_i ½ log(1 + ᾱ_n v_i/β̄_n) in nats for n = 0..N, with v_i the data's variance in
// dimension i: the mutual information between x_0,i and x_n,i when x_0,i is Gaussian with
// variance v_i (Cover & Thomas, Elements of Information Theory, §9.1), and an upper bound for
// any x_0,i with that variance (Gaussian inputs maximise it). Entry 0 is +inf (x_0 itself).
// Non-positive variances add 0.
std::vector<double> gaussianChannelInformation(const schedule::GaussianSchedule& schedule,
                                               const std::vector<double>& variances);

// The fraction of the data's information the channel can still carry at n = 0..N:
// Σ_i min(½ log(1 + ᾱ_n v_i/β̄_n), H_i) / Σ_i H_i, with H_i the entropy of dimension i of discrete
// data (nats). For discrete x_0,i, I(x_0,i; x_n,i) ≤ H_i, and for any x_0,i of variance v_i it is
// at most the Gaussian-channel value, so each term bounds the true information from above.
// Entry 0 is 1 (infinite SNR); it falls to about ᾱ_N v/(2β̄_N H) at n = N. 0 when Σ H_i = 0.
std::vector<double> gaussianInformationFraction(const schedule::GaussianSchedule& schedule,
                                                const std::vector<double>& variances,
                                                const std::vector<double>& entropies);

// The signal-to-noise ratio ᾱ_n/β̄_n for n = 0..N (entry 0 is +inf).
std::vector<double> signalToNoise(const schedule::GaussianSchedule& schedule);

}  // namespace core::gaussian
