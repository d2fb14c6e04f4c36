# `run --record` and `compare`: recording leaves the run's figures unchanged; --repeat K stores K runs; the
# sqlite3 shell can query the file; compare prints the mmtests layout (two header lines per column, Amean /
# Hmean, Stddev, CoeffVar, Min, Max rows, "value (  pct%)" cells, the Duration block) and the same table as
# markdown, CSV and JSON.
set -e
. "$(dirname "$0")/lib.bash"

base=(run --preset classroom --workload kernbench --duration 10ms)

# Recording does not change what the run computes: the same JSON but for the host's wall-clock figures.
run "${base[@]}" --seed 4 --json
cp "$tmp/out" "$tmp/plain.json"
run "${base[@]}" --seed 4 --json --record "$tmp/one.db"
[ "$rc" -eq 0 ] || fail "run --record: exit $rc: $(cat "$tmp/err")"
python3 - "$tmp/plain.json" "$tmp/out" <<'PY' || fail "run --record changed the run's figures"
import json, sys
def figures(o):  # drop wall_ns and the deferred-init host_ms: they measure the host, not the run
    if isinstance(o, dict): return {k: figures(v) for k, v in o.items() if k not in ("wall_ns", "host_ms")}
    if isinstance(o, list): return [figures(v) for v in o]
    return o
a, b = (figures(json.load(open(p))) for p in sys.argv[1:3])
assert a == b, [k for k in a if a[k] != b.get(k)]
PY
[ -s "$tmp/one.db" ] || fail "run --record wrote no file"

# Off and on, three runs each.
run "${base[@]}" --repeat 3 --patch pcp-update-after-deferred-init=off --record "$tmp/off.db"
[ "$rc" -eq 0 ] || fail "record off: exit $rc: $(cat "$tmp/err")"
run "${base[@]}" --repeat 3 --record "$tmp/on.db"
[ "$rc" -eq 0 ] || fail "record on: exit $rc: $(cat "$tmp/err")"

# The file answers plain SQL.
if command -v sqlite3 >/dev/null; then
    [ "$(sqlite3 "$tmp/off.db" 'SELECT count(*) FROM runs')" = 3 ] || fail "off.db: not 3 runs"
    [ "$(sqlite3 "$tmp/off.db" 'SELECT group_concat(seed) FROM runs')" = "1,2,3" ] || fail "off.db: seeds"
    [ "$(sqlite3 "$tmp/off.db" "SELECT json_extract(switches, '$.\"pcp-update-after-deferred-init\"') FROM runs LIMIT 1")" = 0 ] \
        || fail "off.db: the switch is not recorded as off"
    [ "$(sqlite3 "$tmp/off.db" 'SELECT count(*) > 0 FROM zone_samples WHERE zone = 2')" = 1 ] || fail "off.db: no zone rows"
    [ "$(sqlite3 "$tmp/off.db" 'PRAGMA user_version')" = 2 ] || fail "off.db: schema version"
    # Lock holds one row each through the view, as many as the runs say they kept, and joined with their names.
    kept=$(sqlite3 "$tmp/off.db" 'SELECT sum(holds_written) FROM runs')
    [ "$kept" -gt 0 ] || fail "off.db: no lock holds kept"
    [ "$(sqlite3 "$tmp/off.db" 'SELECT count(*) FROM lock_holds')" = "$kept" ] || fail "off.db: lock_holds view count"
    [ "$(sqlite3 "$tmp/off.db" 'SELECT count(*) FROM lock_holds h JOIN lock_callers c USING (caller)')" = "$kept" ] \
        || fail "off.db: lock_holds do not join lock_callers"
    [ "$(sqlite3 "$tmp/off.db" 'SELECT min(finished) FROM runs')" = 1 ] || fail "off.db: a run is not finished"
fi

# The text table.
run compare "$tmp/off.db" "$tmp/on.db"
[ "$rc" -eq 0 ] || fail "compare: exit $rc: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/table.txt"
python3 - "$tmp/table.txt" <<'PY' || fail "compare: layout wrong: $(cat "$tmp/table.txt")"
import re, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[0] == "kernbench", lines[0]
# Header: era, then the tag, right-aligned over 23-character columns after the row labels.
assert lines[1].split() == ["v5.4", "v5.4"], lines[1]
assert lines[2].split() == ["off", "on"], lines[2]
assert lines[1].endswith("v5.4") and len(lines[1]) == len(lines[2])
cell = r"\s+-?[0-9]+\.[0-9]{2} [(*]\s*-?[0-9]+\.[0-9]{2}%[)*]"
rows = [l for l in lines[3:] if l and not l.startswith("Duration") and not l.startswith(" ")]
stats = {}
for l in rows:
    m = re.match(r"^(Amean|Hmean|Stddev|CoeffVar|Min|Max)\s+(\S+)(" + cell + "){2}$", l)
    assert m, "row: " + l
    stats.setdefault(m.group(1), []).append(m.group(2))
    assert "(   0.00%)" in l, "baseline not 0%: " + l
for s in ["Amean", "Hmean", "Stddev", "CoeffVar", "Min", "Max"]:
    assert s in stats, s
# A run of 10 ms shows its times in milliseconds (kernbench's names with -ms-).
assert "elsp-ms-8" in stats["Amean"] and "score" in stats["Hmean"], stats
assert any(l.startswith("Duration User ") for l in lines)
assert any(l.startswith("Duration Elapsed") for l in lines)
PY

# The same cells as JSON, CSV and markdown.
run compare "$tmp/off.db" "$tmp/on.db" --format json
python3 - "$tmp/out" "$tmp/table.txt" <<'PY' || fail "compare --format json: wrong"
import json, sys
j = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
assert [c["tag"] for c in j["columns"]] == ["off", "on"]
assert all(c["runs"] == 3 for c in j["columns"])
row = next(r for r in j["rows"] if r["stat"] == "Amean" and r["metric"] == "syst-ms-8")
# positive = better: lower system time than the baseline gives a positive percentage
a, b = row["cells"][0]["value"], row["cells"][1]["value"]
assert (b < a) == (row["cells"][1]["pct"] > 0) or a == b, row
line = next(l for l in text.split("\n") if l.startswith("Amean") and " syst-ms-8 " in l)
assert "%.2f" % b in line and "%.2f" % abs(row["cells"][1]["pct"]) in line, (line, row)
assert ("*" in line) == row["cells"][1]["significant"], (line, row)
PY
run compare "$tmp/off.db" "$tmp/on.db" --format csv
head -1 "$tmp/out" | grep -qx "stat,metric,column,era,tag,value,pct,significant" || fail "compare --format csv: header"
grep -q "^Duration,Elapsed,1,v5.4,on," "$tmp/out" || fail "compare --format csv: no Duration rows"
run compare "$tmp/off.db" "$tmp/on.db" --format markdown
grep -q "^| Amean elsp-ms-8 |" "$tmp/out" || fail "compare --format markdown: no Amean row"
grep -q "v5.4<br>off" "$tmp/out" || fail "compare --format markdown: header"

# Usage errors.
usage_error "--format" compare "$tmp/off.db" "$tmp/on.db" --format html
usage_error "two or more" compare
usage_error "two or more" compare "$tmp/off.db"
usage_error "--record" "${base[@]}" --record "$tmp/no-such-dir/x.db"
finish
