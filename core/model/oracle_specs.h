// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <span>
#include <string>

#include "core/data/digits.h"
#include "core/data/gaussian_data.h"
#include "core/model/gaussian_oracles.h"
#include "core/util/eigen_types.h"
#include "core/util/result.h"

// The exact oracles and training sets that a data spec (core/data/gaussian_data.h) describes.
// They live with the models, not the data, so that data/ depends on nothing in model/.
namespace core::model {

// The exact oracle for a data spec:
//   gaussian:d=D,s=S[,m=M]  N(M·1, S²I) in D dimensions (M defaults to 0);
//   gmm:FILE.json           a Gaussian mixture (GaussianMixtureOracle::fromJsonFile);
//   mixture:w,mx,my,s;…     an inline 2-D mixture of isotropic components (parseMixtureSpec);
//   csv:FILE                the empirical distribution of the file's rows;
//   toy:NAME[,n=,seed=]     the empirical distribution of a 2-D toy (core/data/toys.h);
//   digits[:train|test]     the 8×8 digits on [−1, 1] (64 dimensions), the training split by
//                           default; needs `digits` (the caller owns where they come from).
Result<std::shared_ptr<GaussianOracle>> gaussianOracleFromSpec(
    const std::string& spec, const data::Digits* digits = nullptr);

// The exact oracle of valid components (as parseMixtureSpec returns them).
Result<std::shared_ptr<GaussianMixtureOracle>> mixtureOracle(
    std::span<const data::MixtureComponent2d> components);

// Training data for a Gaussian denoiser (d×M train and held-out points) from a data spec:
// digits → the fixed train/test split; toy:… → its points, held out: the same toy under another
// seed (a tenth as many); anything else → `count` points drawn from the spec's distribution and
// count/10 more under another key. Deterministic.
struct GaussianTrainingData {
    Matrix train;
    Matrix heldOut;
};
Result<GaussianTrainingData> gaussianTrainingData(const std::string& spec,
                                                  int count,
                                                  const data::Digits* digits = nullptr);

}  // namespace core::model
