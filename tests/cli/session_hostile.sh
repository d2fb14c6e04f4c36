# Recordings and exports under hostile conditions (issue 22): runs cut off, different workloads, a full disk
# while recording and while exporting, a -wal file lost, damaged pages, a read-only folder, Qt's noise.
set -e
. "$(dirname "$0")/lib.bash"

db_value() {
    python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$1" "$2"
}

# A finished recording is one file in rollback-journal mode: readable from a read-only folder, where a WAL
# database cannot be opened (its -shm file cannot be made there).
run run --preset classroom --workload kernbench --duration 20ms --repeat 3 --record "$tmp/k.db"
[ "$rc" -eq 0 ] || fail "record: exit $rc: $(cat "$tmp/err")"
[ "$(od -An -tu1 -j18 -N2 "$tmp/k.db" | tr -s ' ')" = " 1 1" ] || fail "k.db is not in rollback-journal mode"
[ ! -e "$tmp/k.db-wal" ] && [ ! -e "$tmp/k.db-shm" ] || fail "k.db left a -wal or -shm file beside it"
run export "$tmp/k.db" --format csv --series allocs
[ "$rc" -eq 0 ] || fail "export k.db: exit $rc: $(cat "$tmp/err")"

# compare: a run cut off (finished = 0: killed) is left out with a note, not averaged in as it stood.
cp "$tmp/k.db" "$tmp/cut.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE runs SET finished = 0 WHERE run = 2"); c.commit()' "$tmp/cut.db"
run compare "$tmp/k.db" "$tmp/cut.db" --format json
[ "$rc" -eq 0 ] || fail "compare cut.db: exit $rc: $(cat "$tmp/err")"
python3 - "$tmp/out" "$tmp/cut.db" <<'PY' || fail "compare cut.db: $(head -c 600 "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert [c["runs"] for c in d["columns"]] == [3, 2], d["columns"]
assert any(sys.argv[2] + ": run 2 (seed 2) was cut off before its end (finished = 0) and is left out" == n
           for n in d["notes"]), d["notes"]
PY
# ... and different workloads are said to be different.
run run --preset classroom --workload stress-vm --duration 20ms --repeat 2 --record "$tmp/s.db"
[ "$rc" -eq 0 ] || fail "record s.db: exit $rc: $(cat "$tmp/err")"
run compare "$tmp/k.db" "$tmp/s.db"
[ "$rc" -eq 0 ] || fail "compare k s: exit $rc: $(cat "$tmp/err")"
grep -q "Note: the columns ran different workloads (k ran kernbench, s ran stress-vm)" "$tmp/out" ||
    fail "compare k s: no note on the workloads: $(tail -5 "$tmp/out")"

# A file killed mid-run whose -wal file is then lost is still a recording (its identity is in the file from
# the start), not "an SQLite database of another program".
# (page-fault1 runs on until killed: the kill comes mid-run, not during the checkpoint of a finished recording.)
"$cli" run --preset classroom --workload page-fault1 --duration 60s --record "$tmp/killed.db" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
    [ "$(stat -c %s "$tmp/killed.db-wal" 2>/dev/null || echo 0)" -gt 200000 ] && break
    sleep 0.05
done
{
    kill -9 "$pid"
    wait "$pid"
} 2>/dev/null || true
rm -f "$tmp/killed.db-wal" "$tmp/killed.db-shm"
run export "$tmp/killed.db" --format csv
grep -q "another program" "$tmp/err" && fail "killed.db without its -wal: $(cat "$tmp/err")"
[ "$(db_value "$tmp/killed.db" "SELECT value FROM meta WHERE key = 'format'")" = "pcplab-recording" ] ||
    fail "killed.db without its -wal has no meta"

# A full disk while recording (RLIMIT_FSIZE: every write past 600 KiB fails with EFBIG, which SQLite reports as a
# disk I/O error): the run stops at the first failed commit instead of running to its end, the summary of what
# ran is shown, the error says how much the file keeps, and the file's counts are what it holds.
set +e
(
    trap '' XFSZ
    ulimit -f 1200
    exec timeout 300 "$cli" run --preset classroom --workload page-fault1 --duration 60s --record "$tmp/full.db"
) >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "full disk: exit $rc: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "full disk: not one line: $(cat "$tmp/err")"
grep -q -- "--record $tmp/full.db: cannot be written (disk I/O error.*); recording stopped there, and the file keeps run 1: [0-9]* snapshot" \
    "$tmp/err" || fail "full disk: $(cat "$tmp/err")"
grep -q "stopped: recording failed" "$tmp/out" || fail "full disk: no summary: $(head -c 300 "$tmp/out")"
grep -q "^virtual time [0-9.]* s (stopped" "$tmp/out" && grep -q "^virtual time 60.000 s" "$tmp/out" &&
    fail "full disk: the run went on to its end"
kept=$(db_value "$tmp/full.db" "SELECT count(*) FROM snapshots")
[ "$(db_value "$tmp/full.db" "SELECT snapshots_written FROM runs")" = "$kept" ] ||
    fail "full disk: runs.snapshots_written $(db_value "$tmp/full.db" "SELECT snapshots_written FROM runs") for $kept snapshots"
grep -q "run 1: $kept snapshot" "$tmp/err" || fail "full disk: the message's count is not the file's ($kept)"
[ "$(db_value "$tmp/full.db" "PRAGMA integrity_check")" = "ok" ] || fail "full disk: the file is damaged"

# A recording that fails SQLite's integrity check is refused, never exported with other values.
python3 - "$tmp/k.db" "$tmp/damaged.db" <<'PY' || fail "could not make a damaged recording"
import sqlite3, sys
good = open(sys.argv[1], "rb").read()
page = 16384
for off in range(2 * page, len(good), 997):
    b = bytearray(good)
    b[off] ^= 0x10
    open(sys.argv[2], "wb").write(b)
    try:
        r = sqlite3.connect(sys.argv[2]).execute("PRAGMA integrity_check(1)").fetchone()[0]
    except sqlite3.DatabaseError:
        continue
    if r != "ok":
        sys.exit(0)
sys.exit(1)
PY
usage_error "damaged recording (SQLite's integrity check: " export "$tmp/damaged.db" --format csv
usage_error "damaged recording" compare "$tmp/damaged.db" "$tmp/k.db"

# An export to a full disk says why and leaves the earlier file as it was, with no part file beside it.
echo "earlier" >"$tmp/out.csv"
set +e
(
    trap '' XFSZ
    ulimit -f 2
    exec "$cli" export "$tmp/k.db" --format csv --out "$tmp/out.csv"
) >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "export to a full disk: exit $rc"
grep -q -- "--out $tmp/out.csv: cannot be written (File too large)" "$tmp/err" || fail "export full: $(cat "$tmp/err")"
[ "$(cat "$tmp/out.csv")" = "earlier" ] || fail "export to a full disk changed the earlier file"
ls "$tmp" | grep -q "out.csv.part" && fail "export to a full disk left a part file: $(ls "$tmp")"
set +e
(
    trap '' XFSZ
    ulimit -f 2
    exec "$cli" export "$tmp/k.db" --format png --series allocs --out "$tmp/f.png"
) >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "f.png: cannot be written (File too large)" "$tmp/err" || fail "png full: $rc $(cat "$tmp/err")"
[ ! -e "$tmp/f.png" ] || fail "png to a full disk left a file"

# A figure export says nothing on stderr (Qt's "XDG_RUNTIME_DIR not set" line went there).
set +e
env -u XDG_RUNTIME_DIR "$cli" export "$tmp/k.db" --format svg --series allocs --out "$tmp/a.svg" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "svg export: exit $rc: $(cat "$tmp/err")"
[ ! -s "$tmp/err" ] || fail "svg export wrote to stderr: $(cat "$tmp/err")"

finish
