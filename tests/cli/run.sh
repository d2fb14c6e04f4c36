# `run`: usage errors exit 2 naming the flag; --json has every documented key; the same seed gives the same
# figures (wall-clock fields aside); --repeat reports mean and standard deviation over consecutive seeds.
set -e
. "$(dirname "$0")/lib.bash"

base=(run --preset classroom --workload kernbench)

usage_error --workload run --preset classroom
usage_error --workload run --preset classroom --workload nosuch
usage_error --preset run --workload kernbench
usage_error --preset run --preset nosuch-preset --workload kernbench
usage_error --duration "${base[@]}" --duration 10x
usage_error --duration "${base[@]}" --duration 0ms
usage_error --duration "${base[@]}" --duration ms
usage_error --work "${base[@]}" --duration 1s --work 10
usage_error --work "${base[@]}" --work -3
usage_error --seed "${base[@]}" --seed -1
usage_error --seed "${base[@]}" --seed 99999999999999999999999
usage_error --repeat "${base[@]}" --repeat 0
usage_error --repeat "${base[@]}" --repeat two
usage_error --intensity "${base[@]}" --intensity 0
usage_error --intensity "${base[@]}" --intensity lots
usage_error --hold-threshold "${base[@]}" --hold-threshold 1parsec
usage_error --patch "${base[@]}" --patch no-such-switch=on
usage_error --patch "${base[@]}" --patch pcp-high-autotune=maybe
usage_error --era "${base[@]}" --era not-a-version
usage_error --init-threads "${base[@]}" --init-threads 0
usage_error --param "${base[@]}" --param no_such_knob=3
usage_error --param "${base[@]}" --param jobs
usage_error --at "${base[@]}" --at setup
usage_error --bogus "${base[@]}" --bogus

# The required keys, with values that say the run really happened.
run "${base[@]}" --duration 20ms --seed 3 --json
[ "$rc" -eq 0 ] || fail "run --json: exit $rc: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/a.json"
python3 - "$tmp/a.json" <<'EOF' || fail "run --json: keys or values wrong"
import json, sys
j = json.load(open(sys.argv[1]))
for k in ["preset", "era", "patches", "seed", "sim_time_ns", "totals", "zones", "workload"]:
    assert k in j, k
assert j["preset"] == "classroom" and j["era"] == "v5.4" and j["seed"] == 3, j
assert j["patches"]["pcp-update-after-deferred-init"] is True
t = j["totals"]
for k in ["allocs", "frees", "pcp_hits", "zone_allocs", "free_high_drains", "pcp_resident_pages", "sys_ns",
          "user_ns", "elapsed_ns", "score"]:
    assert k in t, k
assert t["allocs"] > 0 and t["sys_ns"] > 0 and t["user_ns"] > 0, t
assert j["sim_time_ns"] >= 20_000_000, j["sim_time_ns"]
assert len(j["zones"]) == 4, len(j["zones"])  # classroom: DMA, DMA32, Normal on node 0; Normal on node 1
for z in j["zones"]:
    for k in ["node", "zone", "managed_pages", "batch", "high", "lock", "contention_pct"]:
        assert k in z, k
    for k in ["acquisitions", "contended", "wait_ns_total", "wait_ns_max", "hold_ns_total", "hold_ns_max",
              "hold_ns_p99", "max_pages_per_hold", "holds_over_threshold"]:
        assert k in z["lock"], k
    assert "high_min" not in z  # v5.4 has no auto-tuned high
    assert 0 <= z["contention_pct"] <= 100
assert sum(z["lock"]["acquisitions"] for z in j["zones"]) > 0
EOF

# v6.7 with pcp-high-autotune: high_min and high_max appear.
run "${base[@]}" --era v6.7 --duration 5ms --json
python3 -c 'import json,sys; z=json.load(open(sys.argv[1]))["zones"]; assert all("high_min" in x and "high_max" in x for x in z)' \
    "$tmp/out" || fail "v6.7: zones lack high_min/high_max: $(head -c 300 "$tmp/out")"

# Determinism: the same seed twice gives the same JSON except wall-clock fields; another seed differs.
strip='import json, sys
def s(o):
    if isinstance(o, dict): return {k: s(v) for k, v in o.items() if not (k.startswith("wall") or k.startswith("host"))}
    if isinstance(o, list): return [s(v) for v in o]
    return o
print(json.dumps(s(json.load(open(sys.argv[1]))), sort_keys=True))'
run "${base[@]}" --duration 20ms --seed 3 --json
cp "$tmp/out" "$tmp/b.json"
run "${base[@]}" --duration 20ms --seed 4 --json
cp "$tmp/out" "$tmp/c.json"
[ "$(python3 -c "$strip" "$tmp/a.json")" = "$(python3 -c "$strip" "$tmp/b.json")" ] || fail "same seed, different figures"
[ "$(python3 -c "$strip" "$tmp/a.json")" != "$(python3 -c "$strip" "$tmp/c.json")" ] || fail "seed 3 and 4 gave the same figures"

# The boot on the time axis: deferred init starts after the early part, the workload after deferred init;
# --duration counts the workload's time only.
python3 - "$tmp/a.json" <<'EOF' || fail "run --json: boot_times wrong"
import json, sys
j = json.load(open(sys.argv[1]))
b = j["boot_times"]
assert 0 < b["deferred_init_start_ns"] < b["init_end_ns"] == b["workload_start_ns"], b
assert all(b["deferred_init_start_ns"] < n["done_at_ns"] <= b["init_end_ns"] for n in j["boot"]), j["boot"]
# the workload's 20 ms (the slowest CPU ends its action past it), not the boot's 37 ms on top
assert 20_000_000 <= j["sim_time_ns"] < b["workload_start_ns"], (j["sim_time_ns"], b)
assert "rounds" not in j
EOF

# --continuous: a short kernbench finishes and builds again on the same machine until the duration.
run "${base[@]}" --param jobs=8 --duration 2s --continuous --json
[ "$rc" -eq 0 ] || fail "run --continuous: exit $rc: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/cont.json"
run "${base[@]}" --param jobs=8 --duration 2s --json
python3 - "$tmp/cont.json" "$tmp/out" <<'EOF' || fail "run --continuous: no new rounds"
import json, sys
c, once = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert once["stop_reason"] == "finished", once["stop_reason"]
assert c["stop_reason"] == "duration" and c["rounds"] >= 2, (c["stop_reason"], c.get("rounds"))
assert c["sim_time_ns"] >= 2_000_000_000 > once["sim_time_ns"], (c["sim_time_ns"], once["sim_time_ns"])
assert c["work_units"] > once["work_units"], (c["work_units"], once["work_units"])
EOF

# --work stops once the workload has done that much.
run run --preset classroom --workload page-fault1 --work 1000 --json
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["stop_reason"] == "work" and j["work_units"] >= 1000, j["stop_reason"]' \
    "$tmp/out" || fail "--work: $(head -c 300 "$tmp/out") $(cat "$tmp/err")"

# --repeat 3: seeds 3, 4, 5; mean and stddev of the figures; the mean is the mean of the single runs.
run "${base[@]}" --duration 20ms --seed 3 --repeat 3 --json
[ "$rc" -eq 0 ] || fail "--repeat: exit $rc: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/r.json"
run "${base[@]}" --duration 20ms --seed 5 --json
cp "$tmp/out" "$tmp/d.json"
python3 - "$tmp/r.json" "$tmp/a.json" "$tmp/c.json" "$tmp/d.json" <<'EOF' || fail "--repeat 3: wrong mean/stddev"
import json, sys, statistics
r = json.load(open(sys.argv[1]))
singles = [json.load(open(f)) for f in sys.argv[2:]]
assert r["repeat"] == 3 and r["seeds"] == [3, 4, 5], (r["repeat"], r["seeds"])
assert r["seed"] == 3 and r["preset"] == "classroom"
for key in ["allocs", "sys_ns", "zone_allocs"]:
    xs = [s["totals"][key] for s in singles]
    m = r["totals"][key]
    assert abs(m["mean"] - statistics.mean(xs)) <= 1e-6 * max(1, abs(m["mean"])), (key, m, xs)
    assert abs(m["stddev"] - statistics.stdev(xs)) <= 1e-6 * max(1, m["stddev"]), (key, m, xs)
z = r["zones"][2]["lock"]["acquisitions"]
assert set(z) == {"mean", "stddev"}, z
assert r["zones"][2]["node"] == 0
EOF

# The readable summary: totals, the zone table, the score.
run "${base[@]}" --duration 10ms
[ "$rc" -eq 0 ] || fail "run: exit $rc"
for word in "preset classroom" "totals" "Node 1 Normal" "contention" "jobs per virtual second" "deferred struct-page init"; do
    grep -qF -- "$word" "$tmp/out" || fail "run text lacks '$word'"
done
run "${base[@]}" --duration 10ms --repeat 2
grep -qF -- "±" "$tmp/out" || fail "run --repeat 2 text lacks mean ± stddev"

# Help: the usage line and every flag of the command line above.
run help run
[ "$rc" -eq 0 ] || fail "help run: exit $rc"
for flag in --preset --workload --duration --work --continuous --seed --era --patch --init-threads --repeat \
    --json --hold-threshold --intensity --param kernbench stress-vm "after the boot"; do
    grep -qF -- "$flag" "$tmp/out" || fail "help run does not mention $flag"
done

finish
