#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/fuzz_*.cpp; clang, ASan+UBSan) into build-fuzz/ and runs each one.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     each target for SECONDS (default 60); all targets by default
#   PCPLAB_FUZZ_RUNS=1000000 scripts/fuzz.sh  stop each target after that many executions instead
#
# Each target starts from its seed corpus (fuzz/corpus/TARGET plus the project's fixtures) and keeps what it
# learns in build-fuzz/corpus/TARGET. A crash, leak, hang (-timeout) or memory blow-up (-rss_limit_mb) stops
# that target and leaves its input in build-fuzz/findings/TARGET/; copy it to
# tests/fixtures/fuzz-regressions/TARGET/ and fix the parser. Exit status 1 when any target found something.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${PCPLAB_FUZZ_BUILD_DIR:-$here/build-fuzz}"
seconds="${1:-60}"
shift || true

"$here/scripts/install-deps.sh"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DPCPLAB_FUZZ=ON -DPCPLAB_BUILD_TESTS=OFF >/dev/null
all=()
for src in "$here"/fuzz/fuzz_*.cpp; do all+=("$(basename "$src" .cpp)"); done
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}"

# Seeds beyond fuzz/corpus/TARGET: the fixtures each parser is tested with.
extra_seeds() {
  case "$1" in
    fuzz_zoneinfo) echo "$here/tests/fixtures/zoneinfo" ;;
    fuzz_preset) echo "$here/resources/presets $here/tests/fixtures/presets/bad" ;;
    fuzz_lesson) echo "$here/lessons" ;;
  esac
}

# The longest input worth mutating (libFuzzer's default is the largest seed: the 100 KB hostile seeds in
# fuzz-regressions would slow every execution down to a crawl).
max_len() {
  case "$1" in
    fuzz_recording) echo 65536 ;;
    fuzz_lesson) echo 16384 ;;
    *) echo 8192 ;;
  esac
}

export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
status=0
summary=()
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  findings="$build/findings/$t"
  mkdir -p "$corpus" "$findings"
  seeds=()
  [ -d "$here/fuzz/corpus/$t" ] && seeds+=("$here/fuzz/corpus/$t")
  for d in $(extra_seeds "$t"); do [ -d "$d" ] && seeds+=("$d"); done
  [ -d "$here/tests/fixtures/fuzz-regressions/$t" ] && seeds+=("$here/tests/fixtures/fuzz-regressions/$t")
  opts=(-timeout=30 -rss_limit_mb=2048 -print_final_stats=1 "-max_len=$(max_len "$t")" "-artifact_prefix=$findings/")
  [ -f "$here/fuzz/$t.dict" ] && opts+=("-dict=$here/fuzz/$t.dict")
  if [ -n "${PCPLAB_FUZZ_RUNS:-}" ]; then opts+=("-runs=$PCPLAB_FUZZ_RUNS"); else opts+=("-max_total_time=$seconds"); fi
  log="$build/findings/$t.log"
  echo "fuzz: $t (${PCPLAB_FUZZ_RUNS:-$seconds s}${PCPLAB_FUZZ_RUNS:+ runs}); log in $log" >&2
  if "$build/fuzz/$t" "${opts[@]}" "$corpus" "${seeds[@]}" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
    summary+=("$t: ${runs:-?} executions, clean")
  else
    status=1
    summary+=("$t: FOUND A PROBLEM after $(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1) executions: see $log and $findings/")
    tail -n 40 "$log" >&2
  fi
done
printf '%s\n' "${summary[@]}"
exit $status
