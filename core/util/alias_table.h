// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <vector>

// Walker's alias method (Vose's construction) for drawing from a fixed distribution over K
// classes in O(1): column c = ⌊wK/2⁶⁴⌋ of a uniform 64-bit word w is kept with probability
// threshold[c]/2⁶⁴ (decided by the low 64 bits of wK) and otherwise replaced by alias[c].
// The construction runs in 128-bit integers on the masses m_k = p_k·K·2⁶⁴ (the rounding of p_k
// to a multiple of 2⁻⁶⁴ is the only error), so each class's probability is exactly its mass;
// a class of probability 0 is never drawn.
namespace core {

struct AliasEntry {
    uint64_t threshold = 0;  // keep the column with probability threshold/2⁶⁴
    int alias = 0;           // the class drawn otherwise
};

// Fills table[0..K) for the probabilities p (K = p.size() ≥ 1, entries ≥ 0, need not sum to 1).
// If p has no positive mass the table draws `fallback` always.
void buildAliasTable(std::span<const double> p, std::span<AliasEntry> table, int fallback = 0);

// The class the table draws for the 64-bit word w.
inline int drawAlias(const AliasEntry* table, int numClasses, uint64_t w) {
    __extension__ using Wide = unsigned __int128;
    const Wide product = static_cast<Wide>(w) * static_cast<unsigned>(numClasses);
    const int column = static_cast<int>(product >> 64);
    return static_cast<uint64_t>(product) < table[column].threshold ? column : table[column].alias;
}

// The probability with which the table draws each class (for tests): Σ over columns of the
// column's own share threshold/2⁶⁴ and its alias's share, divided by K.
std::vector<double> aliasProbabilities(std::span<const AliasEntry> table);

}  // namespace core
