# `seeds --quick --only 004`: the boot of the seed-004 machine with parallel-deferred-init off and on, the
# modelled deferred-init time from the engine next to the published 5860 ms -> 613 ms (9.56x).
set -e
. "$(dirname "$0")/lib.bash"

usage_error --only seeds --only 099
usage_error --only seeds --only 000,,001
usage_error --bogus seeds --bogus

run seeds --quick --only 004
[ "$rc" -eq 0 ] || fail "seeds --quick --only 004: exit $rc: $(cat "$tmp/err")"
for word in "scenario 004" "5860 ms -> 613 ms" "9.56x" "max deferred-init time per node" "xeon-88-503g" "ratio"; do
    grep -qF -- "$word" "$tmp/out" || fail "seeds text lacks '$word'"
done
grep -q "scenario 00[0-3]" "$tmp/out" && fail "--only 004 ran other seeds"

run seeds --quick --only 4 --json
[ "$rc" -eq 0 ] || fail "seeds --json: exit $rc: $(cat "$tmp/err")"
python3 - "$tmp/out" <<'EOF' || fail "seeds --json: $(head -c 400 "$tmp/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert [s["id"] for s in j["seeds"]] == ["004"]
s = j["seeds"][0]
f = s["figures"][0]
assert f["key"] == "deferred_init_max_ms"
assert f["published"]["off"] == 5860 and f["published"]["on"] == 613 and f["published"]["change"] == 9.56
# The simulated figures are the engine's boot report: the slowest node of each run.
off = max(b["modelled_ms"] for b in s["runs"]["off"]["boot"])
on = max(b["modelled_ms"] for b in s["runs"]["on"]["boot"])
assert f["simulated"]["off"] == off and f["simulated"]["on"] == on, (f["simulated"], off, on)
assert off > on > 0
assert abs(f["simulated"]["change"] - off / on) < 1e-9
assert abs(f["ratio"] - (off / on) / 9.56) < 1e-9
# Off: one pgdatinit thread per node; on (4.15-rc2, the RFC): a quarter of the node's 44 CPUs, fewer only
# where a node has fewer 128 MiB sections to hand out.
assert all(b["threads"] == 1 for b in s["runs"]["off"]["boot"])
assert all(1 < b["threads"] <= 11 for b in s["runs"]["on"]["boot"])
assert max(s["runs"]["on"]["boot"], key=lambda b: b["pages"])["threads"] == 11
assert s["runs"]["off"]["patches"]["parallel-deferred-init"] is False
assert s["runs"]["on"]["patches"]["parallel-deferred-init"] is True
assert f["agrees"] == (f["disagreement"] == "")
EOF

run seeds --help
[ "$rc" -eq 0 ] && grep -q "Usage: pcplab-cli patches" "$tmp/out" || fail "seeds --help: exit $rc, $(head -1 "$tmp/out")"

# `patches` is the command's name now, `seeds` its first: the same output, but for the host's wall time.
run seeds --quick --only 004
sed 's/wall [0-9.]* ms/wall - ms/' "$tmp/out" >"$tmp/seeds.out"
run patches --quick --only 004
sed 's/wall [0-9.]* ms/wall - ms/' "$tmp/out" >"$tmp/patches.out"
[ "$rc" -eq 0 ] && cmp -s "$tmp/patches.out" "$tmp/seeds.out" || fail "patches and seeds differ for --only 004"
# The help lists every scenario from the table the runs use, so a patch added there is listed without an edit.
run patches --help
for id in 000 001 002 003 004 005 006 007 008 009 010; do
    grep -q "^  $id  " "$tmp/out" || fail "patches --help does not list scenario $id"
done
grep -q "^  004  parallel-deferred-init (Daniel Jordan, 2018 RFC): boot on xeon-88-503g (4.15-rc2)$" "$tmp/out" \
    || fail "patches --help: scenario 004's line is not its table entry: $(grep '^  004' "$tmp/out")"
usage_error --only patches --only 009x

finish
