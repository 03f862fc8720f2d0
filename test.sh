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

echo "== ASan + UBSan build"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DDIFFUSCOPE_ENABLE_ASAN=ON -DDIFFUSCOPE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-asan -j"$jobs"
echo "== Tests (ASan + UBSan)"
ctest --test-dir build-asan -j"$jobs" --output-on-failure
