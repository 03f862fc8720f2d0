#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The least-cost-path DP of core/trajectory/least_cost_path.h in vectorised NumPy, the yardstick
bench_gaussian measures ours against (it runs this script and prints the ratio):

    numpy_dp.py COST_FILE N EDGES [--repeat R]

COST_FILE holds the N×N cost matrix as float64 in column-major order (Eigen's), entry (s, t)
the cost of the edge s → t. One layer per step: every sum best[s] + cost[s, t] at once and the
first argmin down each column, so ties go to the smallest predecessor and the sums are the same
IEEE operations as ours. Prints the best time of R runs in seconds, the cost as a hexadecimal
float and the path's nodes.
"""
import argparse
import sys
import time

import numpy as np


def solve(cost, edges):
    m = cost.shape[0]
    best = np.full(m, np.inf)
    best[0] = 0.0
    columns = np.arange(m)
    froms = np.empty((edges + 1, m), dtype=np.int64)
    for k in range(1, edges + 1):
        sums = best[:, None] + cost
        froms[k] = np.argmin(sums, axis=0)
        best = sums[froms[k], columns]
    nodes = [m - 1]
    for k in range(edges, 0, -1):
        nodes.append(int(froms[k][nodes[-1]]))
    return float(best[m - 1]), nodes[::-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cost_file")
    parser.add_argument("n", type=int)
    parser.add_argument("edges", type=int)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cost = np.fromfile(args.cost_file, dtype=np.float64).reshape((args.n, args.n), order="F")
    # Only s < t is an edge; the rest is read as forbidden, as the C++ never reads it.
    cost = np.where(np.triu(np.ones((args.n, args.n), dtype=bool), k=1), cost, np.inf)
    cost = np.ascontiguousarray(cost)
    seconds = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        total, nodes = solve(cost, args.edges)
        seconds = min(seconds, time.perf_counter() - start)
    print(f"seconds {seconds!r}")
    print(f"cost {total.hex()}")
    print("nodes " + " ".join(map(str, nodes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
