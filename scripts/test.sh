#!/usr/bin/env bash
# Installs what is missing, builds with AddressSanitizer + UndefinedBehaviorSanitizer into build-asan/, and
# runs every test (ctest) there: a memory error, a leak or undefined behaviour fails the test that hit it.
# PCPLAB_SANITIZE picks other sanitizers (scripts/test-tsan.sh: thread; empty: none), PCPLAB_BUILD_DIR the
# build directory; arguments go to ctest (e.g. -R engine).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
sanitize="${PCPLAB_SANITIZE-address,undefined}"
case "$sanitize" in
  thread) default_dir="$here/build-tsan" ;;
  "") default_dir="$here/build" ;;
  *) default_dir="$here/build-asan" ;;
esac
build="${PCPLAB_BUILD_DIR:-$default_dir}"
"$here/scripts/install-deps.sh"
# The benchmarks are not tests (ctest never runs them): a sanitizer build leaves them out.
bench=ON
flags=()
if [ -n "$sanitize" ]; then
  bench=OFF
  # -O1 with line tables only, as the sanitizers' documentation advises: with -O2 -g the build took 22 of the
  # 28 minutes of a CI run on 2 cores. Stack traces keep their file:line.
  flags=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG")
fi
PCPLAB_BUILD_DIR="$build" "$here/scripts/build.sh" -DPCPLAB_SANITIZE="$sanitize" -DPCPLAB_BUILD_BENCH="$bench" "${flags[@]}"

# A finding ends the process with a status no test expects (1 and 2 are the CLI's own exit codes).
supp="$here/tests/robust/sanitizer"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:exitcode=86:check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=87${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export TSAN_OPTIONS="halt_on_error=1:exitcode=88:second_deadlock_stack=1:suppressions=$supp/tsan.supp${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

cd "$build"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$(nproc)" "$@"
