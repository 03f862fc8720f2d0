#!/usr/bin/env bash
# Installs what is missing, builds Release, runs every test; then the same tests under
# AddressSanitizer + UndefinedBehaviorSanitizer in a second build directory.
set -euo pipefail
cd "$(dirname "$0")"
source .ci/deps.sh
diffuscope_install_deps

jobs=$(nproc 2>/dev/null || echo 2)
export QT_QPA_PLATFORM=offscreen

echo "== Release build"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
echo "== Tests (Release)"
ctest --test-dir build -j"$jobs" --output-on-failure

echo "== Fuzz: the readers (safetensors, CSV, Γ, JSON), 10^6 libFuzzer executions or 75 s each (clang)"
tests/fuzz/run_fuzz.sh -max_total_time=75 2>&1 | grep -v '^\['

echo "== ASan + UBSan build"
# -O1 with line tables only: sanitizer reports keep file:line, and the build stays quick.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" \
    -DDIFFUSCOPE_ENABLE_ASAN=ON -DDIFFUSCOPE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-asan -j"$jobs"
echo "== Tests (ASan + UBSan)"
ctest --test-dir build-asan -j"$jobs" --output-on-failure
