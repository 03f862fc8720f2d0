// SPDX-License-Identifier: MIT
#include "core/util/alias_table.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace core {
namespace {

__extension__ using Wide = unsigned __int128;
constexpr Wide kColumn = static_cast<Wide>(1) << 64;  // one column's capacity, 2⁶⁴

}  // namespace

void buildAliasTable(std::span<const double> p, std::span<AliasEntry> table, int fallback) {
    const int numClasses = static_cast<int>(p.size());
    assert(numClasses >= 1 && table.size() == p.size());
    double total = 0.0;
    for (double v : p) {
        total += v > 0.0 ? v : 0.0;
    }
    if (!(total > 0.0) || !std::isfinite(total)) {
        for (int k = 0; k < numClasses; ++k) {
            table[k] = {0, fallback};
        }
        return;
    }
    // Masses in units of 2⁻⁶⁴ of a column: Σ m_k = K·2⁶⁴ exactly after the largest absorbs the
    // rounding (a few units).
    std::vector<Wide> mass(static_cast<size_t>(numClasses));
    const double scale = std::ldexp(static_cast<double>(numClasses), 64);
    Wide sum = 0;
    int largest = 0;
    for (int k = 0; k < numClasses; ++k) {
        const double share = p[k] > 0.0 ? p[k] / total : 0.0;
        mass[k] = static_cast<Wide>(std::min(share, 1.0) * scale);
        sum += mass[k];
        if (p[k] > p[largest]) {
            largest = k;
        }
    }
    const Wide target = static_cast<Wide>(numClasses) * kColumn;
    mass[largest] = mass[largest] + target - sum;  // wraps correctly in either direction
    std::vector<int> small;
    std::vector<int> large;
    for (int k = 0; k < numClasses; ++k) {
        (mass[k] < kColumn ? small : large).push_back(k);
    }
    while (!small.empty() && !large.empty()) {
        const int s = small.back();
        small.pop_back();
        const int l = large.back();
        table[s] = {static_cast<uint64_t>(mass[s]), l};
        mass[l] -= kColumn - mass[s];
        if (mass[l] < kColumn) {
            large.pop_back();
            small.push_back(l);
        }
    }
    // Exact arithmetic: what remains is full columns (mass exactly 2⁶⁴), drawn as themselves.
    for (int k : large) {
        assert(mass[k] == kColumn);
        table[k] = {~uint64_t{0}, k};
    }
    for (int k : small) {
        assert(false && "alias table: a small column left over");
        table[k] = {~uint64_t{0}, k};
    }
}

std::vector<double> aliasProbabilities(std::span<const AliasEntry> table) {
    const int numClasses = static_cast<int>(table.size());
    std::vector<Wide> mass(table.size(), 0);
    for (int c = 0; c < numClasses; ++c) {
        if (table[c].alias == c) {
            mass[c] += kColumn;
            continue;
        }
        mass[c] += table[c].threshold;
        mass[table[c].alias] += kColumn - table[c].threshold;
    }
    std::vector<double> p(table.size());
    for (int k = 0; k < numClasses; ++k) {
        p[k] = static_cast<double>(mass[k]) / std::ldexp(static_cast<double>(numClasses), 64);
    }
    return p;
}

}  // namespace core
