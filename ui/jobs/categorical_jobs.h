// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

#include "core/categorical/information.h"
#include "core/categorical/sampler.h"
#include "core/util/progress.h"
#include "core/util/result.h"
#include "ui/document/project_model.h"

// The categorical explorer's heavy computations, as plain functions a JobRunner runs off the
// GUI thread (and tests call directly). Each takes the Progress token of its job.
namespace ui::jobs {

struct CategoricalCosts {
    // J(a, b) for every a < b on the N-step grid when dpAvailable; otherwise only the
    // consecutive J(n − 1, n), Monte Carlo estimates (K^D too large to enumerate).
    core::categorical::StepCosts costs;
    bool dpAvailable = true;
    std::vector<int> evenNodes;          // the even K-step path
    std::vector<int> dpNodes;            // the least-cost K-step path
    double elboEven = 0.0;               // negative ELBO of the even path (nats)
    double elboDp = 0.0;                 // … of the DP path
    double elboFull = 0.0;               // … of the full N-step grid
};

// Step costs for all pairs, the DP path with params.pathSteps steps and the ELBOs
// (docs/categorical.md#step-costs, docs/conventions.md#dp-cost); O(N² K³) for D = 1. When K^D is
// beyond enumeration (the digits) only the consecutive costs are estimated by Monte Carlo, and the
// DP is not available. Fails when cancelled.
core::Result<CategoricalCosts> computeCategoricalCosts(const document::CategoricalSetup& setup,
                                                       core::Progress& progress,
                                                       int numThreads);

// Work estimate of computeCategoricalCosts, in kernel evaluations (for refusing hopeless sizes).
double categoricalCostWork(const document::CategoricalParams& params);

struct CategoricalChains {
    std::vector<int> nodes;                                   // trajectory (grid nodes)
    std::vector<double> times;                                // t at each node
    std::vector<std::vector<int>> forward;                    // [node] → B states, data → π
    std::vector<std::vector<int>> reverse;                    // [node] → B states, π → data
    int numPositions = 1;                                     // D (frames hold B × D states)
    int position = 0;                                         // position of the marginals
    std::vector<core::Vector> forwardMarginals;               // exact p_t at each node
    std::vector<core::Vector> reverseMarginals;               // exact reverse marginal
    // D > 1: [node] → the first kPreviewChains reverse chains' x̂_0 = E[X_0 | x_t] per
    // position under the denoiser (classes as real numbers), what the image grid shows beside
    // each sample.
    std::vector<std::vector<float>> preview;
};

constexpr int kPreviewChains = 64;

// Samples params.numChains forward chains (x_0 from the data of the selected condition) and as
// many reverse chains (x_1 from π, the chosen kernel and the exact denoiser) along the
// trajectory, recording every node; deterministic for the seed.
core::Result<CategoricalChains> sampleCategoricalChains(const document::CategoricalSetup& setup,
                                                        const std::vector<int>& trajectory,
                                                        core::Progress& progress);

}  // namespace ui::jobs
