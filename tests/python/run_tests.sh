#!/usr/bin/env bash
# Runs the Python tests of python/diffuscope_torch (unittest discovery) with the system Python,
# which carries torch and numpy. Usable as a ctest command; the exit code is unittest's.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
cd "$root"
exec /usr/bin/python3 -m unittest discover -s "$here" -t "$here" "$@"
