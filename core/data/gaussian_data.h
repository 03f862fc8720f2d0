// SPDX-License-Identifier: MIT
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/data/digits.h"
#include "core/util/eigen_types.h"
#include "core/util/result.h"

// Data sets for the Gaussian engine and the spec strings the CLI and projects use for them.
namespace core::data {

// Reads a CSV of data points, one row per point, all columns numeric. A first line that is
// not numeric is taken as a header. Returns d×P (one point per column); errors name file:line.
Result<Matrix> readGaussianPointsCsv(const std::string& path);

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

// Whether the spec is a digits spec (so the caller knows to supply the digits).
bool isDigitsSpec(const std::string& spec);

// The digits of one split on [−1, 1]: 64×M, one image per column (row-major pixels).
Matrix digitsPoints(const Digits& digits, bool trainSplit);

}  // namespace core::data
