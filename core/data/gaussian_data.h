// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

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
//   mixture:w,mx,my,s;…     an inline 2-D mixture of isotropic components (parseMixtureSpec);
//   csv:FILE                the empirical distribution of the file's rows;
//   toy:NAME[,n=,seed=]     the empirical distribution of a 2-D toy (core/data/toys.h);
//   digits[:train|test]     the 8×8 digits on [−1, 1] (64 dimensions), the training split by
//                           default; needs `digits` (the caller owns where they come from).
Result<std::shared_ptr<model::GaussianOracle>> gaussianOracleFromSpec(
    const std::string& spec, const Digits* digits = nullptr);

// One component of an inline 2-D mixture: w·N((mx, my), s²I).
struct MixtureComponent2d {
    double weight = 1.0;  // w > 0, relative: the mixture divides by the sum of the weights
    double meanX = 0.0;   // mx
    double meanY = 0.0;   // my
    double stddev = 1.0;  // s > 0, the same in both directions
    bool operator==(const MixtureComponent2d&) const = default;
};
inline constexpr int kMaxMixtureComponents = 16;

// Parses `mixture:w,mx,my,s;w,mx,my,s;…`: 1 to kMaxMixtureComponents components of four finite
// numbers each (blanks around a number are allowed). Weights need not sum to 1; they are
// normalised, so `mixture:2,0,0,1;2,1,0,1` is the same distribution as `mixture:1,0,0,1;1,1,0,1`.
// Errors name the component (0-based) and the field: "data mixture[1].s".
Result<std::vector<MixtureComponent2d>> parseMixtureSpec(const std::string& spec);

// The spec of `components` with the shortest digits that read back to the same doubles
// (std::to_chars), so parseMixtureSpec(formatMixtureSpec(c)) == c exactly.
std::string formatMixtureSpec(std::span<const MixtureComponent2d> components);

// Whether the spec is of the `mixture:` kind (it may still be invalid).
bool isMixtureSpec(const std::string& spec);

// The exact oracle of valid components (as parseMixtureSpec returns them).
Result<std::shared_ptr<model::GaussianMixtureOracle>> mixtureOracle(
    std::span<const MixtureComponent2d> components);

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
