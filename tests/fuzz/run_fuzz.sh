#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the reader fuzzers with clang in build-fuzz (only them: no Qt; Eigen headers) and runs
# each in turn: by default 10^6 executions from its seed corpus, bounded by 300 s per target.
#   tests/fuzz/run_fuzz.sh                          # every target, -runs=1000000
#   tests/fuzz/run_fuzz.sh -max_total_time=60       # every target, at most 60 s each
#   tests/fuzz/run_fuzz.sh csv json -max_total_time=600 -runs=-1    # some, longer, on demand
# Targets: safetensors csv gamma json project torch specs. Extra arguments go to libFuzzer. Each target's grown
# corpus stays in build-fuzz/corpus/<target>, its log in build-fuzz/<target>.log, and a crash
# input in build-fuzz/<target>-crash-…; the script fails if any target fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build-fuzz"
fuzz="$root/tests/fuzz"
targets=()
while [[ $# -gt 0 && $1 != -* ]]; do
    targets+=("$1")
    shift
done
[[ ${#targets[@]} -gt 0 ]] || targets=(safetensors csv gamma json project torch specs)
command -v clang++ >/dev/null || { echo "clang++ is missing (apt-get install clang)" >&2; exit 2; }
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$fuzz" -B "$build" "${generator[@]}" -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=None >/dev/null
cmake --build "$build" --target "${targets[@]/#/fuzz_}" -j"$(nproc 2>/dev/null || echo 2)"

failed=0
for target in "${targets[@]}"; do
    case "$target" in
        safetensors) seeds="$root/tests/data/safetensors_corpus" dict="$fuzz/safetensors.dict" ;;
        gamma) seeds="$fuzz/seeds/gamma" dict="$fuzz/npy.dict" ;;
        *) seeds="$fuzz/seeds/$target" dict="$fuzz/$target.dict" ;;
    esac
    mkdir -p "$build/corpus/$target"
    log="$build/$target.log"
    rc=0
    "$build/fuzz_$target" "$build/corpus/$target" "$seeds" -dict="$dict" -runs=1000000 \
        -max_total_time=300 -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -artifact_prefix="$build/$target-" -print_final_stats=1 "$@" >"$log" 2>&1 || rc=$?
    runs=$(grep -o 'number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    speed=$(grep -o 'average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    seconds=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' || echo "?")
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 || true)
    if [[ $rc -eq 0 ]]; then
        echo "fuzz_$target: $runs executions in ${seconds} s ($speed/s), $coverage, no failure"
    else
        failed=1
        echo "fuzz_$target: FAILED (exit $rc) after $runs executions; log $log"
        grep -E 'ERROR|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -n 20 || tail -n 30 "$log"
    fi
done
exit $failed
