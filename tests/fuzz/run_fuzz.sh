#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the safetensors libFuzzer target with clang in build-fuzz (only that target: no Qt,
# no Eigen) and runs it: by default 10^6 executions from the seed corpus, bounded by 300 s.
#   tests/fuzz/run_fuzz.sh                 # -runs=1000000
#   tests/fuzz/run_fuzz.sh -max_total_time=600 -runs=-1    # longer, on demand
# Extra arguments go to libFuzzer. The grown corpus stays in build-fuzz/corpus.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build-fuzz"
command -v clang++ >/dev/null || { echo "clang++ is missing (apt-get install clang)" >&2; exit 2; }
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root/tests/fuzz" -B "$build" "${generator[@]}" -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=None >/dev/null
cmake --build "$build" --target fuzz_safetensors -j1
mkdir -p "$build/corpus"
exec "$build/fuzz_safetensors" "$build/corpus" "$root/tests/data/safetensors_corpus" \
    -dict="$root/tests/fuzz/safetensors.dict" -runs=1000000 -max_total_time=300 \
    -timeout=10 -rss_limit_mb=2048 -max_len=4096 -artifact_prefix="$build/" \
    -print_final_stats=1 "$@"
