// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/categorical/time_grid.h"
#include "core/data/categorical_table.h"
#include "core/model/categorical_oracles.h"
#include "core/project/categorical_params.h"
#include "core/project/setup_sources.h"
#include "core/schedule/beta_curve.h"
#include "core/util/eigen_types.h"
#include "core/util/result.h"

// The core objects that the categorical parameters describe, built once per edit and shared
// (read-only) by the views, the jobs and the command line: π, the β(t) curve, the N-step grid,
// the data table and its exact oracle, and the denoiser.
namespace core::project {

// CategoricalParams::condition scoring all conditions averaged with equal weights (the command
// line's default); the chains need one condition.
inline constexpr int kAllConditions = -1;

struct CategoricalSetup {
    CategoricalParams params;                  // what this was built from
    Vector pi;                                 // K (K + 1 with params.maskState)
    schedule::BetaCurve curve;                 // β(t)
    categorical::TimeGrid grid;                // t_n = n/N, n = 0..N
    data::CategoricalTable table;              // the data: D positions, rows per condition
    // The exact F for the table: for D > 1 each position's marginal of the joint posterior.
    std::shared_ptr<const model::TableOracle> oracle;
    // A factorised model for the per-position views (matrices, kernel comparison): for D = 1
    // the same as `oracle`; for D > 1 each position on its own.
    std::shared_ptr<const model::TableOracle> positionOracle;
    // The denoiser F the samplers and step costs use: the network of params.model when it
    // loads and fits the data, else `oracle` (then modelError says why).
    std::shared_ptr<const model::CategoricalDenoiser> denoiser;
    bool usesNetwork = false;
    std::string modelError;
    int position = 0;                          // the position those views show
    Vector dataMarginal;                       // p_0(· | selected condition) at `position`

    int numPositions() const { return table.numPositions; }
    // The classes of the process (π's size): params.numClasses, plus 1 with the mask state.
    int numClasses() const { return table.numClasses; }
    // Whether exact step costs over every pair are affordable (D = 1, or K^D ≤ 10⁶).
    bool exactCosts() const;

    // Builds everything; fails with the parameter's error if the params are invalid. A model
    // that cannot be used is an error when `strictModel` (the command line), else it leaves the
    // exact oracle in place with modelError set (a project whose model moved still opens).
    static Result<std::shared_ptr<const CategoricalSetup>> build(const CategoricalParams& p,
                                                                const SetupSources& sources,
                                                                bool strictModel = false);

    // The trajectory nodes for the even or typed choice (0 = τ_0 < … < τ_K = N); the DP path
    // comes from a job, so for Dp this returns the even path as a placeholder until it is known.
    std::vector<int> nominalTrajectory() const;
};

}  // namespace core::project
