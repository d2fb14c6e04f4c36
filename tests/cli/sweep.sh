# pcplab-cli sweep: a small grid on two processes, the table and figure, resuming, shards and their merge, bad input.
set -e
. "$(dirname "$0")/lib.bash"

grid=(--preset classroom --workload boot --duration 2ms --patch pcp-update-after-deferred-init=off,on --seeds 1..2)

run sweep "${grid[@]}" --jobs 2 --out "$tmp/all"
[ "$rc" -eq 0 ] || fail "sweep: exit $rc: $(cat "$tmp/err")"
[ "$(ls "$tmp/all/points/"*.db | wc -l)" -eq 4 ] || fail "sweep: expected 4 recordings: $(ls "$tmp/all/points")"
[ "$(ls "$tmp/all/points/"*.json | wc -l)" -eq 4 ] || fail "sweep: expected 4 summaries"
grep -q "pcp-update-after-deferred-init=off" "$tmp/out" || fail "sweep: the table has no off column: $(cat "$tmp/out")"
grep -q "pcp-update-after-deferred-init=on" "$tmp/out" || fail "sweep: the table has no on column: $(cat "$tmp/out")"
grep -q "Amean" "$tmp/out" || fail "sweep: no Amean rows: $(cat "$tmp/out")"
grep -q "\[4/4\]" "$tmp/err" || fail "sweep: no progress line for the 4th point: $(cat "$tmp/err")"
grep -q "<svg" "$tmp/all/sweep.svg" || fail "sweep: no figure"
cp "$tmp/out" "$tmp/table-all"
# The seeds of a column are its runs: two per column.
run sweep merge "$tmp/all" --format json
python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))
assert [c["runs"] for c in t["columns"]] == [2, 2], t["columns"]
' "$tmp/out" || fail "sweep merge --format json: columns do not hold two runs each: $(head -c 400 "$tmp/out")"

# Run again: every point is done, nothing is started, the table is the same.
run sweep "${grid[@]}" --jobs 2 --out "$tmp/all"
[ "$rc" -eq 0 ] || fail "sweep again: exit $rc: $(cat "$tmp/err")"
grep -q "4 already done, 0 to run" "$tmp/err" || fail "sweep again: ran points again: $(cat "$tmp/err")"
cmp -s "$tmp/out" "$tmp/table-all" || fail "sweep again: a different table"

# Two shards in two folders, merged: the same table as the whole sweep (the runs are deterministic).
run sweep "${grid[@]}" --jobs 1 --shard 0/2 --out "$tmp/s0"
[ "$rc" -eq 0 ] || fail "shard 0/2: exit $rc: $(cat "$tmp/err")"
grep -q "2 of 4 points have no result" "$tmp/err" || fail "shard 0/2 does not say what is missing: $(cat "$tmp/err")"
run sweep "${grid[@]}" --jobs 1 --shard 1/2 --out "$tmp/s1"
[ "$rc" -eq 0 ] || fail "shard 1/2: exit $rc: $(cat "$tmp/err")"
[ "$(ls "$tmp/s0/points/"*.db "$tmp/s1/points/"*.db | wc -l)" -eq 4 ] || fail "the shards did not run 4 points in all"
run sweep merge "$tmp/s0" "$tmp/s1" --plot "$tmp/merged.png"
[ "$rc" -eq 0 ] || fail "merge: exit $rc: $(cat "$tmp/err")"
cmp -s "$tmp/out" "$tmp/table-all" || fail "merge: not the table of the whole sweep: $(diff "$tmp/out" "$tmp/table-all")"
[ -s "$tmp/merged.png" ] || fail "merge: no PNG figure"

# A failing point (its recording's path is taken by a folder): exit 1, the other point still in the table.
mkdir -p "$tmp/other/points/p0001.db"
run sweep --preset classroom --workload boot --duration 2ms --seeds 1..2 --out "$tmp/other"
[ "$rc" -eq 1 ] || fail "a sweep with a failing point: exit $rc, expected 1: $(cat "$tmp/err")"
grep -q "p0001 .* FAILED" "$tmp/err" || fail "the failed point is not named: $(cat "$tmp/err")"
grep -q "is a directory" "$tmp/err" || fail "the failed point's reason is not shown: $(cat "$tmp/err")"
grep -q "1 of 2 points failed" "$tmp/err" || fail "no failure count: $(cat "$tmp/err")"
grep -q "Amean" "$tmp/out" || fail "no table for the point that ran: $(cat "$tmp/out")"

# Bad input: nothing is started, one line, exit 2.
usage_error "--shard: '2/2' is not I/N" sweep "${grid[@]}" --shard 2/2 --out "$tmp/bad"
usage_error "--patch no-such-switch=on: unknown switch" sweep --preset classroom --workload boot --patch no-such-switch=on --out "$tmp/bad"
usage_error "--patch pcp-update-after-deferred-init=maybe" sweep --preset classroom --workload boot --patch pcp-update-after-deferred-init=maybe --out "$tmp/bad"
usage_error "--sysctl vm.percpu_pagelist_fraction=8 on" sweep --preset classroom --era v6.7 --workload boot --sysctl vm.percpu_pagelist_fraction=8 --out "$tmp/bad"
usage_error "--out: required" sweep --preset classroom --workload boot
usage_error "holds another sweep" sweep --preset classroom --workload boot --duration 2ms --seeds 1..3 --out "$tmp/all"
usage_error "holds another sweep" sweep merge "$tmp/all" "$tmp/other"
usage_error "--seeds 5..1: the range ends before it starts" sweep --preset classroom --workload boot --seeds 5..1 --out "$tmp/bad"
[ ! -e "$tmp/bad/points" ] || [ -z "$(ls "$tmp/bad/points")" ] || fail "a refused sweep started points"

# run --sysctl: boots with the value (watermarks follow watermark_scale_factor), refuses what the era lacks.
high_wmark() {
    run export "$1" --format zoneinfo
    awk '/zone +Normal/ {n = 1} n && $1 == "high" {print $2; exit}' "$tmp/out"
}
run run --preset classroom --workload page-fault1 --duration 1ms --record "$tmp/wsf10.db"
run run --preset classroom --workload page-fault1 --duration 1ms --sysctl vm.watermark_scale_factor=1000 --record "$tmp/wsf1000.db"
[ "$rc" -eq 0 ] || fail "run --sysctl: exit $rc: $(cat "$tmp/err")"
h10=$(high_wmark "$tmp/wsf10.db")
h1000=$(high_wmark "$tmp/wsf1000.db")
[ -n "$h10" ] && [ -n "$h1000" ] && [ "$h1000" -gt $((h10 * 5)) ] \
    || fail "run --sysctl vm.watermark_scale_factor=1000: Normal's high watermark $h1000, with the default $h10"
usage_error "--sysctl vm.percpu_pagelist_high_fraction=8: vm.percpu_pagelist_high_fraction does not exist on era v5.4 (added in v5.14" \
    run --preset classroom --era v5.4 --workload boot --duration 1ms --sysctl vm.percpu_pagelist_high_fraction=8
usage_error "--sysctl vm.nope=1: unknown sysctl 'vm.nope'" run --preset classroom --workload boot --sysctl vm.nope=1
usage_error "--sysctl vm.min_free_kbytes=x: 'x' is not a whole number" run --preset classroom --workload boot --sysctl vm.min_free_kbytes=x
finish
