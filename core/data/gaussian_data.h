// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include "core/data/digits.h"
#include "core/model/gaussian_oracles.h"
#include "core/util/eigen_types.h"
#include "core/util/result.h"

// Data sets for the Gaussian engine and the spec strings the CLI and projects use for them.
namespace core::data {

// Reads a CSV of data points, one row per point, all columns numeric. A first line that is
// not numeric is taken as a header. Returns d×P (one point per column); errors name file:line.
Result<Matrix> readGaussianPointsCsv(const std::string& path);

// The exact oracle for a data spec:
//   gaussian:d=D,s=S[,m=M]  N(M·1, S²I) in D dimensions (M defaults to 0);
//   gmm:FILE.json           a Gaussian mixture (GaussianMixtureOracle::fromJsonFile);
//   csv:FILE                the empirical distribution of the file's rows;
//   toy:NAME[,n=,seed=]     the empirical distribution of a 2-D toy (core/data/toys.h);
//   digits[:train|test]     the 8×8 digits on [−1, 1] (64 dimensions), the training split by
//                           default; needs `digits` (the caller owns where they come from).
Result<std::shared_ptr<model::GaussianOracle>> gaussianOracleFromSpec(
    const std::string& spec, const Digits* digits = nullptr);

// Training data for a Gaussian denoiser (d×M train and held-out points) from a data spec:
// digits → the fixed train/test split; toy:… → its points, held out: the same toy under another
// seed (a tenth as many); anything else → `count` points drawn from the spec's distribution and
// count/10 more under another key. Deterministic.
struct GaussianTrainingData {
    Matrix train;
    Matrix heldOut;
};
Result<GaussianTrainingData> gaussianTrainingData(const std::string& spec, int count,
                                                  const Digits* digits = nullptr);

// Whether the spec is a digits spec (so the caller knows to supply the digits).
bool isDigitsSpec(const std::string& spec);

// The digits of one split on [−1, 1]: 64×M, one image per column (row-major pixels).
Matrix digitsPoints(const Digits& digits, bool trainSplit);

}  // namespace core::data
