// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/util/eigen_types.h"
#include "core/util/result.h"

// 2-D toy data sets for the Gaussian process, scaled to about [−1, 1]². Point i is
// drawn from CounterRng(seed, i, ·) alone, so a data set is deterministic per seed and the
// first m points of a larger set are the set of m points.
namespace core::data {

enum class Toy { Moons, Checkerboard, SwissRoll, Ring };

// "moons", "checkerboard", "swissroll" (or "swiss-roll"), "ring".
Result<Toy> parseToy(const std::string& name);
const char* toyName(Toy toy);
const std::vector<Toy>& allToys();

// count points as a 2×count matrix (one point per column).
Matrix makeToy(Toy toy, int count, uint64_t seed);

// "toy:NAME[,n=COUNT][,seed=S]" → the points (n defaults to 2000, seed to 0).
Result<Matrix> toyFromSpec(const std::string& spec);

}  // namespace core::data
