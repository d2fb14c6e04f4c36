# `run` inside its documented limits (issue 22): settings that ask for more than the machine has or that would
# change nothing are refused with one line; the figures say what ran; stdout that cannot be written fails.
set -e
. "$(dirname "$0")/lib.bash"

# stress-vm: one worker maps at most the machine's memory (vm_mib=16777215 overflowed a 32-bit page count and
# crashed after taking 16.8 GB). In a subshell whose memory is limited, so that a regression cannot take the host
# with it: by the address space, or, for an AddressSanitizer build (which reserves terabytes of shadow address space
# at start and so cannot run under ulimit -v), by ASan's own resident-memory limit.
(
    if ldd "$cli" 2>/dev/null | grep -q libasan; then
        export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}hard_rss_limit_mb=4000"
    else
        ulimit -v 4000000
    fi
    usage_error "vm_mib=16777215: 16384.0 GiB per worker, more than the machine's" \
        run --preset classroom --workload stress-vm --duration 10ms --param vm_mib=16777215
    [ "$failures" -eq 0 ] || exit 1
)
usage_error "vm_mib=8000000: " run --preset classroom --workload stress-vm --duration 10ms --param vm_mib=8000000
usage_error "vm_mib=1024 x intensity 100: 100.0 GiB per worker" \
    run --preset classroom --workload stress-vm --duration 10ms --param vm_mib=1024 --intensity 100
usage_error "workers=100: more than the 8 CPUs it runs on" \
    run --preset classroom --workload stress-vm --duration 1ms --param workers=100
run run --preset classroom --workload stress-vm --duration 2ms --param vm_mib=1024
[ "$rc" -eq 0 ] || fail "stress-vm vm_mib=1024: exit $rc: $(cat "$tmp/err")"

# Settings that would change nothing.
usage_error "intensity 2: at most one job per CPU" run --preset classroom --workload kernbench --duration 1ms --intensity 2
usage_error "intensity 2: at most one task per CPU" \
    run --preset classroom --workload page-fault1 --duration 1ms --intensity 2
usage_error "changes nothing beside slots=4" \
    run --preset classroom --workload kernbench --duration 1ms --intensity 0.5 --param slots=4
usage_error "slots=9: more than the 8 CPUs" run --preset classroom --workload kernbench --duration 1ms --param slots=9
usage_error "--patch pcp-update-after-deferred-init: given twice (off, then on)" \
    run --preset classroom --workload kernbench --duration 1ms \
    --patch pcp-update-after-deferred-init=off --patch pcp-update-after-deferred-init=on
usage_error "--param jobs: given twice" run --preset classroom --workload kernbench --duration 1ms \
    --param jobs=3 --param jobs=4

# An unknown parameter lists the workload's keys once.
usage_error "unknown parameter bogus" run --preset classroom --workload kernbench --duration 1ms --param bogus=3
[ "$(grep -o "job_ms_max" "$tmp/err" | wc -l)" -eq 1 ] || fail "the keys are listed more than once: $(cat "$tmp/err")"

# A seed beyond 2^53 prints as itself, not through a double.
run run --preset classroom --workload kernbench --duration 1ms --seed 9007199254740993
[ "$rc" -eq 0 ] || fail "--seed 2^53+1: exit $rc: $(cat "$tmp/err")"
grep -q "seed 9007199254740993$" "$tmp/out" || fail "--seed 2^53+1 printed as: $(head -1 "$tmp/out")"
run run --preset classroom --workload kernbench --duration 1ms --seed 9007199254740993 --json
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["seed"] == 9007199254740993' "$tmp/out" ||
    fail "--json seed: $(head -c 300 "$tmp/out")"

# The run stops at its end: a bursty machine whose CPUs all sit in long idle periods ran to 4.65 ms for
# --duration 1ms (a period was one step), and its figures counted the whole periods.
run run --preset classroom --workload bursty --duration 1ms --json
[ "$rc" -eq 0 ] || fail "bursty 1ms: exit $rc: $(cat "$tmp/err")"
python3 - "$tmp/out" <<'PY' || fail "bursty 1ms: $(head -c 400 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["sim_time_ns"] == 1000000, d["sim_time_ns"]
t = d["totals"]
# 8 CPUs for 1 ms: every CPU's user, system and idle time together is that, and no more.
assert t["user_ns"] + t["sys_ns"] + t["idle_ns"] <= 8 * 1000000, t
PY

# Output that cannot be written is an error, not exit 0 (/dev/full: every write fails with ENOSPC).
for args in "presets" "zoneinfo --preset classroom" "run --preset classroom --workload kernbench --duration 1ms --json" \
    "demo"; do
    set +e
    # shellcheck disable=SC2086
    "$cli" $args >/dev/full 2>"$tmp/err"
    rc=$?
    set -e
    [ "$rc" -eq 2 ] || fail "'$args' into /dev/full: exit $rc"
    grep -q "standard output: cannot be written (No space left on device)" "$tmp/err" ||
        fail "'$args' into /dev/full: $(cat "$tmp/err")"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "'$args' into /dev/full: more than one line: $(cat "$tmp/err")"
done

finish
