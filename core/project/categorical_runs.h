// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/categorical/information.h"
#include "core/categorical/masked_elbo.h"
#include "core/categorical/sampler.h"
#include "core/util/progress.h"
#include "core/util/result.h"
#include "core/project/categorical_setup.h"

// The categorical process's heavy computations on a set-up: the step costs with the DP path, and
// the forward and reverse chains with their exact marginals. Plain functions that the GUI's jobs
// run off its thread (and tests call directly); each takes the Progress token of its job.
namespace core::project {

struct CategoricalCosts {
    // J(a, b) for every a < b on the N-step grid when dpAvailable; otherwise only the
    // consecutive J(n − 1, n), Monte Carlo estimates (K^D too large to enumerate).
    categorical::StepCosts costs;
    bool dpAvailable = true;
    int64_t samples = 0;                 // Monte Carlo samples per step cost (0: exact)
    uint64_t seed = 0;                   // … and their key (params.seed)
    std::vector<int> evenNodes;          // the even K-step path
    std::vector<int> dpNodes;            // the least-cost K-step path
    double elboEven = 0.0;               // negative ELBO of the even path (nats)
    double elboDp = 0.0;                 // … of the DP path
    double elboFull = 0.0;               // … of the full N-step grid
    // Masked diffusion (π absorbing; docs/categorical.md#masked-diffusion): the continuous-time
    // negative ELBO, and with exact costs the full-grid negative ELBO at a ladder of N (1, 2, 5,
    // 10, …, 1000, as far as affordable) approaching it. Empty when π is not absorbing; when
    // refused, maskedNote says why.
    std::optional<categorical::ContinuousElbo> continuousElbo;
    std::vector<std::pair<int, double>> elboByN;
    std::string maskedNote;
};

// Step costs for all pairs, the DP path with params.pathSteps steps and the ELBOs
// (docs/categorical.md#step-costs, docs/conventions.md#dp-cost); O(N² K³) for D = 1. When K^D is
// beyond enumeration (the digits) only the consecutive costs are estimated by Monte Carlo, and the
// DP is not available. `samples` > 0 asks for Monte Carlo estimates with that many samples,
// keyed by params.seed, for the step costs (every pair when the DP is available) and the
// continuous ELBO. Without `withDp` only the consecutive costs are computed (O(N) instead of
// O(N²)) and the DP path and the even path's ELBO are left out (dpNodes = evenNodes, NaN).
// Fails when cancelled.
struct CategoricalCostOptions {
    // 2^D mask patterns × rows at most for the exact continuous ELBO (beyond: refused).
    int64_t continuousEnumeration = 100000;
    bool elboLadder = true;  // the N-step ELBOs of elboByN
};
Result<CategoricalCosts> computeCategoricalCosts(const CategoricalSetup& setup,
                                                 Progress& progress,
                                                 int numThreads,
                                                 int64_t samples = 0,
                                                 bool withDp = true,
                                                 const CategoricalCostOptions& extra = {});

// Work estimate of computeCategoricalCosts, in kernel evaluations (for refusing hopeless sizes).
double categoricalCostWork(const CategoricalParams& params);

// What `categorical` reports of a set-up and its costs: the information curves and the data's
// entropy for the condition scored, each step's cost J(n − 1, n) with its standard error, the
// full grid's negative ELBO with its standard error (the columns' estimates are independent),
// the DP path as times when `withDp`, and with an absorbing π the continuous ELBO or why not.
struct CategoricalReport {
    categorical::InformationCurves curves;
    categorical::DataEntropy entropy;  // H(X₀|C) and Σ_d H(X₀,d|C)
    std::vector<double> stepCosts, stepErrors;
    double elbo = 0.0, elboStderr = 0.0;
    bool monteCarlo = false;
    int64_t samples = 0;
    uint64_t seed = 0;
    int dpSteps = 0;                   // K of the DP path (0: none)
    std::vector<int> dpNodes;          // grid nodes of the DP path
    std::vector<double> dpTimes;       // … and their times
    double dpCost = 0.0;
    bool absorbing = false;
    std::optional<categorical::ContinuousElbo> continuousElbo;
    std::string continuousElboRefused;
};
CategoricalReport categoricalReport(const CategoricalSetup& setup, const CategoricalCosts& costs,
                                    bool withDp);

struct CategoricalChains {
    std::vector<int> nodes;                                   // trajectory (grid nodes)
    std::vector<double> times;                                // t at each node
    std::vector<std::vector<int>> forward;                    // [node] → B states, data → π
    std::vector<std::vector<int>> reverse;                    // [node] → B states, π → data
    int numPositions = 1;                                     // D (frames hold B × D states)
    int position = 0;                                         // position of the marginals
    std::vector<Vector> forwardMarginals;               // exact p_t at each node
    std::vector<Vector> reverseMarginals;               // exact reverse marginal
    // D > 1: [node] → the first kPreviewChains reverse chains' x̂_0 = E[X_0 | x_t] per
    // position under the denoiser (classes as real numbers), what the image grid shows beside
    // each sample.
    std::vector<std::vector<float>> preview;
};

constexpr int kPreviewChains = 64;

// Samples params.numChains forward chains (x_0 from the data of the selected condition; refused
// for kAllConditions) and as
// many reverse chains (x_1 from π, the chosen kernel and the exact denoiser) along the
// trajectory, recording every node; deterministic for the seed.
Result<CategoricalChains> sampleCategoricalChains(const CategoricalSetup& setup,
                                                        const std::vector<int>& trajectory,
                                                        Progress& progress);

// The forward half alone (forward, forwardMarginals, nodes, times): what a decoding sampler's
// animation plays forward, since decoding has no forward process of its own (the forward
// process of masked diffusion masks each token independently). The same draws as
// sampleCategoricalChains' forward chains.
Result<CategoricalChains> sampleForwardChains(const CategoricalSetup& setup,
                                              const std::vector<int>& trajectory,
                                              Progress& progress);

// The reverse kernel q(x_s | x_t) of one step (`kernel`): K × K, row j = q(X_s = · | X_t = j),
// for the prior π (parsePrior's spec; errors name `piField`), β_s ≤ β_t and the denoiser rows
// read from `denoiserPath`: K rows of K numbers, no header, row j = F(· | j), each normalised.
Result<Matrix> reverseKernelOf(const std::string& piSpec, const std::string& piField,
                               double betaS, double betaT, categorical::KernelForm form,
                               const std::string& denoiserPath);

// The digits a categorical network with a mask state was trained on (its data_set
// "digits:levels=L"), as parameters: L levels, the mask state, the network as the model, its
// schedule, every condition averaged. Otherwise an error naming `field` and what the file holds.
Result<CategoricalParams> digitsParamsOfNetwork(const std::string& path, const std::string& field);

// The Kernel comparison view's computation: where reverse sampling ends along `trajectory`
// (grid nodes), propagated exactly from π with the set-up's denoiser of its one condition and
// position, under the closed-form kernel and under the D3PM-style one, against the data's
// marginal. Errors: every condition averaged (field "condition": the denoiser is a condition's).
struct KernelComparison {
    Vector data;        // P(X₀ | C) at the set-up's position
    Vector closedForm;  // where the closed form ends
    Vector d3pm;        // where the D3PM-style kernel ends
    double klClosed = 0.0;  // KL(data ‖ closed form), nats
    double klD3pm = 0.0;    // KL(data ‖ D3PM-style)
    int numSteps = 0;       // reverse steps taken
};
Result<KernelComparison> kernelComparison(const CategoricalSetup& setup,
                                          const std::vector<int>& trajectory);

}  // namespace core::project
