# `export`: CSV of a series, figures (PNG, SVG, PDF at the asked size, with axis titles), a Perfetto trace,
# zoneinfo/buddyinfo in mmtests framing, a lock_stat summary; errors name the flag.
set -e
. "$(dirname "$0")/lib.bash"

run run --preset classroom --workload kernbench --duration 10ms --record "$tmp/r.db"
[ "$rc" -eq 0 ] || fail "record: exit $rc: $(cat "$tmp/err")"

run export "$tmp/r.db" --format csv --series high
[ "$rc" -eq 0 ] || fail "export csv: exit $rc: $(cat "$tmp/err")"
head -1 "$tmp/out" | grep -qx "run,t_ns,Node 0 DMA,Node 0 DMA32,Node 0 Normal,Node 1 Normal" || fail "csv header: $(head -1 "$tmp/out")"
[ "$(wc -l <"$tmp/out")" -gt 100 ] || fail "csv: too few rows"

run export "$tmp/r.db" --format perfetto --out "$tmp/trace.json"
[ "$rc" -eq 0 ] || fail "export perfetto: exit $rc: $(cat "$tmp/err")"
python3 - "$tmp/trace.json" <<'PY' || fail "perfetto: structure"
import json, sys
j = json.load(open(sys.argv[1]))
ph = {}
for e in j["traceEvents"]:
    for k in ("ph", "name", "pid", "tid"):
        assert k in e, (k, e)
    ph[e["ph"]] = ph.get(e["ph"], 0) + 1
    if e["ph"] == "X":
        assert e["dur"] >= 0 and e["ts"] >= 0
assert ph.get("X", 0) > 0 and ph.get("C", 0) > 0 and ph.get("M", 0) > 0, ph
PY

# A sampled hold rule: written into the file (and the trace's header), and fewer lock-hold slices than
# with every hold kept (the run is the same: same preset, workload, seed and duration).
run run --preset classroom --workload kernbench --duration 10ms --record "$tmp/s.db" --record-holds 1/10+over:50us
[ "$rc" -eq 0 ] || fail "record sampled: exit $rc: $(cat "$tmp/err")"
run export "$tmp/s.db" --format perfetto --out "$tmp/sampled.json"
[ "$rc" -eq 0 ] || fail "export perfetto (sampled): exit $rc: $(cat "$tmp/err")"
python3 - "$tmp/trace.json" "$tmp/sampled.json" <<'PY' || fail "sampled holds: rule or count"
import json, sys
def lock_slices(path):
    j = json.load(open(path))
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in j["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
    n = sum(1 for e in j["traceEvents"] if e["ph"] == "X" and names.get((e["pid"], e["tid"]), "").startswith("zone->lock"))
    return j["otherData"]["holds_rule"], n
all_rule, all_n = lock_slices(sys.argv[1])
rule, n = lock_slices(sys.argv[2])
assert all_rule == "zone" and rule == "1/10+over:50us", (all_rule, rule)
assert 0 < n < all_n / 5, (n, all_n)
PY

# The default rule (zone) leaves out the uncontended local pcp->lock holds and keeps every zone->lock hold;
# `all` keeps them too (one per PCP allocation and free from v6.0). Same run, so the zone->lock holds agree.
run run --preset classroom --era v6.7 --workload kernbench --duration 10ms --record "$tmp/z.db"
[ "$rc" -eq 0 ] || fail "record v6.7: exit $rc: $(cat "$tmp/err")"
run run --preset classroom --era v6.7 --workload kernbench --duration 10ms --record "$tmp/a.db" --record-holds all
[ "$rc" -eq 0 ] || fail "record all: exit $rc: $(cat "$tmp/err")"
python3 - "$tmp/z.db" "$tmp/a.db" <<'PY' || fail "default hold rule: counts"
import sqlite3, sys
def counts(path):
    db = sqlite3.connect(path)
    q = lambda sql: db.execute(sql).fetchone()[0]
    return (q("SELECT value FROM meta WHERE key = 'holds_rule'"),
            q("SELECT count(*) FROM lock_holds WHERE kind = 0"),
            q("SELECT count(*) FROM lock_holds WHERE kind = 1 AND wait_ns = 0 AND owner = cpu"))
zone, all_ = counts(sys.argv[1]), counts(sys.argv[2])
assert zone[0] == "zone" and all_[0] == "all", (zone, all_)
assert zone[1] == all_[1] > 0, (zone, all_)
assert zone[2] == 0 and all_[2] > 10 * all_[1], (zone, all_)
PY

run export "$tmp/r.db" --format zoneinfo
head -1 "$tmp/out" | grep -qE "^time: [0-9]+$" || fail "zoneinfo: no time: line"
sed -n 2p "$tmp/out" | grep -q "^Node 0, zone      DMA" || fail "zoneinfo: not a zoneinfo after time:"
run export "$tmp/r.db" --format buddyinfo
sed -n 2p "$tmp/out" | grep -q "^Node 0, zone      DMA" || fail "buddyinfo: not a buddyinfo after time:"
run export "$tmp/r.db" --format lockstat
head -1 "$tmp/out" | grep -qx "lock_stat version 0.4" || fail "lockstat: header"
grep -q "&zone->lock/N0-Normal:" "$tmp/out" || fail "lockstat: no Node 0 Normal line"

run export "$tmp/r.db" --format png --series contention_pct_recent --out "$tmp/c.png" --size 640x400
[ "$rc" -eq 0 ] || fail "export png: exit $rc: $(cat "$tmp/err")"
python3 - "$tmp/c.png" <<'PY' || fail "png: not a 640x400 PNG"
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n"
w, h = struct.unpack(">II", b[16:24])
assert (w, h) == (640, 400), (w, h)
PY
run export "$tmp/r.db" --format svg --series high --out "$tmp/h.svg"
grep -q "virtual time (s)" "$tmp/h.svg" || fail "svg: no x axis title"
grep -q "pcp-&gt;high\|pcp->high" "$tmp/h.svg" || fail "svg: no y axis title"
run export "$tmp/r.db" --format pdf --series count --out "$tmp/n.pdf"
head -c 4 "$tmp/n.pdf" | grep -q "%PDF" || fail "pdf: not a PDF"
run export "$tmp/r.db" --format svg --out "$tmp/figs"
[ "$(ls "$tmp/figs" | wc -l)" -ge 30 ] || fail "svg of every series: $(ls "$tmp/figs" | wc -l) files"
[ -s "$tmp/figs/batch.svg" ] || fail "svg of every series: no batch.svg"

usage_error "--format" export "$tmp/r.db" --format bmp
usage_error "--format" export "$tmp/r.db"
usage_error "--series" export "$tmp/r.db" --format csv --series nope
usage_error "--out" export "$tmp/r.db" --format png
usage_error "--size" export "$tmp/r.db" --format png --out "$tmp/x.png" --size 10x10
usage_error "--size" export "$tmp/r.db" --format png --out "$tmp/x.png" --size big
usage_error "run 9" export "$tmp/r.db" --format lockstat --run 9
finish
