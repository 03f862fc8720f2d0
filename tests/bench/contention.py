#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a Google Benchmark binary whose last argument is the thread count, quiet and beside
busy processes, and prints for every case the ratio of its 2-thread time to its 1-thread time
(below 1: the second thread helps; above 1: it hurts).

    tests/bench/contention.py build/tests/bench_gaussian --filter ScheduleChange
    tests/bench/contention.py build/tests/bench_categorical --filter 'Dp|Forward|Reverse'

Loads: "quiet"; "1 busy loop" (one process spinning, as a browser tab or an export would);
"2 busy loops" (every core taken). The busy loops are this script's own child processes and end
with it.
"""
import argparse
import json
import multiprocessing
import os
import re
import subprocess
import sys


def spin():
    while True:
        pass


def run(binary, pattern, min_time):
    out = subprocess.run(
        [binary, f"--benchmark_filter={pattern}", f"--benchmark_min_time={min_time}",
         "--benchmark_format=json"],
        check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = re.sub(r"(/iterations:\d+|/real_time|/manual_time)+$", "", b["name"])
        times[name] = b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--filter", default=".")
    parser.add_argument("--min-time", default="0.5")
    args = parser.parse_args()
    loads = [("quiet", 0), ("1 busy loop", 1), ("2 busy loops", 2)]
    results = {}
    for label, busy in loads:
        spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(busy)]
        for s in spinners:
            s.start()
        try:
            results[label] = run(args.binary, args.filter, args.min_time)
        finally:
            for s in spinners:
                s.terminate()
    natural = lambda name: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]
    cases = sorted({re.sub(r"/[12]$", "", n) for n in results["quiet"]}, key=natural)
    print(f"{'case':44s}" + "".join(f"{label:>32s}" for label, _ in loads))
    print(f"{'':44s}" + "".join(f"{'1 thread / 2 threads, ratio':>32s}" for _ in loads))
    worst = 0.0
    for case in cases:
        row = f"{case:44s}"
        for label, _ in loads:
            one = results[label].get(case + "/1")
            two = results[label].get(case + "/2")
            if one is None or two is None:
                row += f"{'—':>32s}"
                continue
            worst = max(worst, two / one)
            row += f"{one:10.1f} / {two:8.1f} ms  {two / one:5.2f}"
        print(row)
    print(f"worst 2-thread / 1-thread ratio: {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
