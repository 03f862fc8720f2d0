// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <memory>
#include <vector>

#include "core/categorical/time_grid.h"
#include "core/data/categorical_table.h"
#include "core/model/categorical_oracles.h"
#include "core/schedule/beta_curve.h"
#include "core/util/eigen_types.h"
#include "core/util/result.h"
#include "ui/document/categorical_params.h"

// The core objects that the categorical parameters describe, built once per edit and shared
// (read-only) by the views and the jobs: π, the β(t) curve, the N-step grid, the data table
// and its exact oracle.
namespace ui::document {

struct CategoricalSetup {
    CategoricalParams params;                  // what this was built from
    core::Vector pi;                           // K
    core::schedule::BetaCurve curve;           // β(t)
    core::categorical::TimeGrid grid;          // t_n = n/N, n = 0..N
    core::data::CategoricalTable table;        // the data: D positions, rows per condition
    // The exact F for the table: for D > 1 each position's marginal of the joint posterior.
    std::shared_ptr<const core::model::TableOracle> oracle;
    // A factorised model for the per-position views (matrices, kernel comparison): for D = 1
    // the same as `oracle`; for D > 1 each position on its own.
    std::shared_ptr<const core::model::TableOracle> positionOracle;
    // The denoiser F the samplers and step costs use: the network of params.model when it
    // loads and fits the data, else `oracle` (then modelError says why).
    std::shared_ptr<const core::model::CategoricalDenoiser> denoiser;
    bool usesNetwork = false;
    QString modelError;
    int position = 0;                          // the position those views show
    core::Vector dataMarginal;                 // p_0(· | selected condition) at `position`

    int numPositions() const { return table.numPositions; }
    // Whether exact step costs over every pair are affordable (D = 1, or K^D ≤ 10⁶).
    bool exactCosts() const;

    // Builds everything; fails with the parameter's error if the params are invalid.
    static core::Result<std::shared_ptr<const CategoricalSetup>> build(const CategoricalParams& p);

    // The trajectory nodes for the even or typed choice (0 = τ_0 < … < τ_K = N); the DP path
    // comes from a job, so for Dp this returns the even path as a placeholder until it is known.
    std::vector<int> nominalTrajectory() const;
};

}  // namespace ui::document
