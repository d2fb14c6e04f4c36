#!/usr/bin/env bash
# Reads a Perfetto/Chrome JSON trace written by `pcplab-cli export FILE --format perfetto` with Chrome
# DevTools' trace engine (an independent reader of the format) and checks every lock hold and CPU slice
# arrived. Needs node and npm (Debian: nodejs, npm) and the network once, to fetch the engine into
# build/trace-check. Not part of the test command: the tests check the trace's structure themselves.
#   scripts/check-trace.sh TRACE.json
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
[[ $# -eq 1 && -f "$1" ]] || { echo "usage: scripts/check-trace.sh TRACE.json (an existing file)" >&2; exit 2; }
dir="$here/build/trace-check"
if [[ ! -d "$dir/node_modules/@paulirish/trace_engine" ]]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund @paulirish/trace_engine@0.0.65 >/dev/null
fi
TRACE_ENGINE_DIR="$dir" node "$here/scripts/trace-check/check_trace.mjs" "$1"
