#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs work with 1 and with 2 threads, quiet and beside busy processes, and prints for every
case the ratio of its 2-thread time to its 1-thread time (below 1: the second thread helps;
above 1: it hurts).

    tests/bench/contention.py --cli build/app/diffuscope
    tests/bench/contention.py build/tests/bench_gaussian --filter ScheduleChange
    tests/bench/contention.py build/tests/bench_categorical --filter 'Dp|Forward|Reverse'

--cli runs the program's own subcommands (the DP, Γ, the samplers, training) with --threads 1
and 2, each the median of --repeats runs, and fails when 2 threads beside one busy loop take
more than --limit times as long as 1. Otherwise BINARY is a Google Benchmark binary whose last
argument is the thread count.

Loads: "quiet"; "1 busy loop" (one process spinning, as a browser tab or an export would);
"2 busy loops" (every core taken). The busy loops are this script's own child processes and end
with it.
"""
import argparse
import json
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def spin():
    while True:
        pass


def run(binary, pattern, min_time, repetitions):
    """Each case's time; with repetitions > 1 the median of that many runs, the cases' runs
    interleaved so that a noisy moment of a shared machine does not fall on one case alone."""
    command = [binary, f"--benchmark_filter={pattern}", f"--benchmark_min_time={min_time}",
               "--benchmark_format=json"]
    if repetitions > 1:
        command += [f"--benchmark_repetitions={repetitions}", "--benchmark_enable_random_interleaving=true"]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        wanted = "median" if repetitions > 1 else None
        if wanted is not None:
            if b.get("aggregate_name") != wanted:
                continue
            b = dict(b, name=b["run_name"])
        elif b.get("run_type", "iteration") != "iteration":
            continue
        name = re.sub(r"(/iterations:\d+|/real_time|/manual_time)+$", "", b["name"])
        times[name] = b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
    return times


# The subcommands of --cli: a name and the arguments ({dir}: a scratch folder; {gamma}: a Γ file
# at N = 4000, {table}: a categorical table, both written there first). Each takes one to three
# seconds on one thread, so that the program's start (20 ms) does not hide what threads do.
MIXTURE = "mixture:0.5,-0.5,0,0.2;0.5,0.5,0,0.2"
CLI_CASES = [
    ("DP: variance, dp:200 at N = 4000 (cost matrix + DP)",
     ["variance", "--steps", "4000", "--gamma", "{gamma}", "--trajectory", "dp:200"]),
    ("Γ: gamma, 2-D mixture oracle, M = 2500, N = 1000",
     ["gamma", "--data", MIXTURE, "--samples", "2500", "--out", "{dir}/g.csv"]),
    ("sampler: sample analytic-ddpm, 50 000 × 100 steps",
     ["sample", "--data", MIXTURE, "--trajectory", "even:100", "--count", "50000",
      "--gamma-samples", "20", "--out", "{dir}/s.csv"]),
    ("categorical Monte Carlo step costs, M = 100 000",
     ["categorical", "--table", "{table}", "--pi", "uniform:3", "--schedule", "linear",
      "--steps", "20", "--samples", "100000"]),
    ("training: train gaussian MLP, 200 steps",
     ["train", "--process", "gaussian", "--data", MIXTURE, "--steps", "200", "--batch", "256",
      "--warmup", "20", "--eval-every", "200", "--out", "{dir}/m.safetensors"]),
]


def prepare(binary, folder):
    """The inputs the cases read: a Γ file at N = 4000 and a small categorical table."""
    gamma = os.path.join(folder, "gamma4000.csv")
    subprocess.run([binary, "gamma", "--data", "gaussian:d=2,s=0.5", "--steps", "4000",
                    "--samples", "20", "--out", gamma], check=True, capture_output=True)
    table = os.path.join(folder, "table.csv")
    with open(table, "w") as f:
        f.write("x1,x2,p\n")
        for i in range(3):
            for j in range(3):
                f.write(f"{i},{j},{0.2855 if i == j else (1 - 3 * 0.2855) / 6}\n")
    return {"dir": folder, "gamma": gamma, "table": table}


def run_cli(binary, fills, repeats, pattern):
    times = {}
    for name, arguments in CLI_CASES:
        if not re.search(pattern, name):
            continue
        for threads in (1, 2):
            command = [binary] + [a.format(**fills) for a in arguments] + ["--threads", str(threads)]
            runs = []
            for _ in range(repeats):
                start = time.perf_counter()
                subprocess.run(command, check=True, capture_output=True)
                runs.append((time.perf_counter() - start) * 1e3)
            times[f"{name}/{threads}"] = statistics.median(runs)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", nargs="?")
    parser.add_argument("--cli", metavar="DIFFUSCOPE", help="the diffuscope program")
    parser.add_argument("--filter", default=".", help="the cases to run (a regular expression)")
    parser.add_argument("--two-busy", action="store_true",
                        help="--cli: also beside two busy loops (every core taken)")
    parser.add_argument("--min-time", default="0.5")
    parser.add_argument("--repeats", type=int, default=3, help="--cli: runs per case (median)")
    parser.add_argument("--repetitions", type=int, default=1,
                        help="a benchmark binary: runs per case, interleaved (median)")
    parser.add_argument("--limit", type=float, default=1.05,
                        help="--cli: the largest 2-thread / 1-thread ratio beside one busy loop")
    args = parser.parse_args()
    if (args.binary is None) == (args.cli is None):
        parser.error("give a benchmark binary or --cli DIFFUSCOPE")
    loads = [("quiet", 0), ("1 busy loop", 1), ("2 busy loops", 2)]
    scratch = None
    if args.cli:
        loads = loads if args.two_busy else loads[:2]
        scratch = tempfile.TemporaryDirectory()
        fills = prepare(args.cli, scratch.name)
    results = {}
    for label, busy in loads:
        spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(busy)]
        for s in spinners:
            s.start()
        try:
            if args.cli:
                results[label] = run_cli(args.cli, fills, args.repeats, args.filter)
            else:
                results[label] = run(args.binary, args.filter, args.min_time, args.repetitions)
        finally:
            for s in spinners:
                s.terminate()
    natural = lambda name: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]
    cases = sorted({re.sub(r"/[12]$", "", n) for n in results["quiet"]},
                   key=(lambda n: [c[0] for c in CLI_CASES].index(n)) if args.cli else natural)
    width = max(44, max(len(c) for c in cases) + 2)
    print(f"{'case':{width}s}" + "".join(f"{label:>32s}" for label, _ in loads))
    print(f"{'':{width}s}" + "".join(f"{'1 thread / 2 threads, ratio':>32s}" for _ in loads))
    worst = {label: 0.0 for label, _ in loads}
    for case in cases:
        row = f"{case:{width}s}"
        for label, _ in loads:
            one = results[label].get(case + "/1")
            two = results[label].get(case + "/2")
            if one is None or two is None:
                row += f"{'—':>32s}"
                continue
            worst[label] = max(worst[label], two / one)
            row += f"{one:10.1f} / {two:8.1f} ms  {two / one:5.2f}"
        print(row)
    for label, _ in loads:
        print(f"worst 2-thread / 1-thread ratio, {label}: {worst[label]:.2f}")
    if args.cli and worst["1 busy loop"] > args.limit:
        print(f"2 threads beside one busy loop took more than {args.limit} times as long as 1")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
