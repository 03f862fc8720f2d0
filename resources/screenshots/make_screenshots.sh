#!/usr/bin/env bash
# Makes the README's screenshots and its animation from the program itself, so they never go
# stale: build first (./run.sh or ./test.sh), then run this from anywhere. Uses a virtual X
# display (xvfb-run) when there is none, so the fonts and widgets are those of a real window.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:-$root/build}"
run() {
    if [ -z "${DISPLAY:-}" ]; then
        xvfb-run -a -s "-screen 0 1920x1080x24" "$@"
    else
        "$@"
    fi
}
export QT_QPA_PLATFORM=xcb
run "$build/app/diffuscope_screenshots" "$here"
# The animation: 300 reverse chains of the first example bringing π back to the data.
run "$build/app/diffuscope" export --example 1 --view animation --width 720 --height 420 \
    --fps 12 --hold 1.5 --out "$here/reverse-chains.gif"
ls -l "$here"
