# `costs` prints the cost model's assumptions: every parameter with what it prices and its source, the preset's
# overrides marked as such, and the derived rates with their formulas.
set -e
. "$(dirname "$0")/lib.bash"

run costs --preset epyc2-256
[ "$rc" -eq 0 ] || fail "costs --preset epyc2-256: exit $rc: $(cat "$tmp/err")"
grep -q '^class: amd_rome_2s ' "$tmp/out" || fail "epyc2-256 class: $(grep '^class' "$tmp/out")"
# A parameter line with its value, and its source line citing the document's row.
grep -Eq '^  dram_ns\.local +122  idle DRAM' "$tmp/out" || fail "dram_ns.local line missing"
grep -q 'source: preset (= class default; §5b: \[M5\] H' "$tmp/out" || fail "dram_ns.local source missing"
# A class default the preset does not set keeps its row ID (the L2 size is not in the preset).
grep -q 'source: §5b: E: 512 KiB L2' "$tmp/out" || fail "cache.l2_kib source missing"
grep -Eq '^  handover_socket_ns +187\.5  = lock_ns\.handover_factor x c2c_ns\.same_socket_other_ccx' "$tmp/out" \
    || fail "handover_socket_ns rate: $(grep handover_socket_ns "$tmp/out")"

# JSON: every parameter has key, value, what and source; the classroom preset uses the generic class.
run costs --preset classroom --json
[ "$rc" -eq 0 ] || fail "costs --preset classroom --json: exit $rc: $(cat "$tmp/err")"
python3 - "$tmp/out" <<'EOF' || fail "classroom JSON: $(head -c 300 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["preset"] == "classroom" and d["class"] == "generic_desktop", d["class"]
assert len(d["params"]) > 15
for p in d["params"]:
    assert set(p) == {"key", "value", "what", "source"}, p
    assert p["source"] and p["what"], p
rates = {r["name"]: r for r in d["rates"]}
assert rates["lock_ns"]["value"] == 15.6 and "irqsave" in rates["lock_ns"]["formula"], rates["lock_ns"]
assert abs(rates["clear_page_ns"]["value"] - 4096 / 16) < 1e-9
assert "unrecognised_keys" not in d
EOF

# A preset's override shows as "preset" and wins.
cat >"$tmp/custom.json" <<'EOF'
{"description": "test machine", "era": "v6.7", "sockets": 1,
 "nodes": [{"cpus": 4, "memory_gib": 4}],
 "cost_model": {"dram_ns.local": 77, "page_ns.struct_page_miss": 77}}
EOF
run costs --preset "$tmp/custom.json" --json
[ "$rc" -eq 0 ] || fail "costs custom: exit $rc: $(cat "$tmp/err")"
python3 - "$tmp/out" <<'EOF' || fail "custom JSON: $(head -c 300 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
p = {x["key"]: x for x in d["params"]}
assert p["page_ns.struct_page_miss"]["value"] == 77 and p["page_ns.struct_page_miss"]["source"].startswith("preset (class default 80")
assert {r["name"]: r["value"] for r in d["rates"]}["page_miss_local_ns"] == 77
EOF

# A key no class defines and no rate reads is a typo: every command that loads the preset refuses it.
sed 's/"dram_ns.local": 77/"dram_ns.locla": 77/' "$tmp/custom.json" >"$tmp/typo.json"
usage_error "cost_model.dram_ns.locla" costs --preset "$tmp/typo.json"
usage_error "cost_model.dram_ns.locla" run --preset "$tmp/typo.json" --workload kernbench --duration 1ms

run costs --class intel_hsx_ex_8s
[ "$rc" -eq 0 ] || fail "costs --class: exit $rc: $(cat "$tmp/err")"
grep -q 'source: §5h: \[D4\] H' "$tmp/out" || fail "hsx D4 source missing"

run costs --help
[ "$rc" -eq 0 ] && grep -q 'Usage: pcplab-cli costs' "$tmp/out" || fail "costs --help"

usage_error "--preset" costs
usage_error "no-such-preset" costs --preset no-such-preset
usage_error "--class" costs --class nope
usage_error "--class" costs --preset classroom --class generic_desktop
usage_error "--bogus" costs --preset classroom --bogus

finish
