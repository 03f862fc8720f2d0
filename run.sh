#!/usr/bin/env bash
# Installs what is missing, builds Release and starts Diffuscope with its example project.
set -euo pipefail
cd "$(dirname "$0")"
source .ci/deps.sh
diffuscope_install_deps

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs" --target diffuscope

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    echo "No display found (DISPLAY is not set). Either run with a virtual one:" >&2
    echo "    QT_QPA_PLATFORM=offscreen ./run.sh      (renders offscreen, shows nothing)" >&2
    echo "    xvfb-run -a ./run.sh                    (a virtual X server)" >&2
    echo "or use the command line: build/app/diffuscope help" >&2
    exit 1
fi
exec build/app/diffuscope "$@"
