#!/usr/bin/env bash
# Configures and builds pcplab into build/ (or $PCPLAB_BUILD_DIR). Used by run.sh and test.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${PCPLAB_BUILD_DIR:-$here/build}"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${PCPLAB_BUILD_TYPE:-RelWithDebInfo}" "$@" >/dev/null
cmake --build "$build" --parallel "$(nproc)"
