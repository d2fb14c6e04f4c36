# Every class of bad recording gets one line that names the file and the problem, exit 2, never a crash.
set -e
. "$(dirname "$0")/lib.bash"

run run --preset classroom --workload kernbench --duration 5ms --record "$tmp/good.db"
[ "$rc" -eq 0 ] || fail "record: exit $rc: $(cat "$tmp/err")"

# bad_file WORDS FILE: compare and export both refuse FILE with WORDS in their one line.
bad_file() {
    local words="$1" file="$2"
    usage_error "$file: $words" compare "$file" "$tmp/good.db"
    usage_error "$file: $words" export "$file" --format csv
}

bad_file "no such file" "$tmp/missing.db"
: >"$tmp/empty.db"
bad_file "empty file" "$tmp/empty.db"
printf 'time: 1700000000\nNode 0, zone DMA\n' >"$tmp/text.db"
bad_file "not a pcplab recording (not an SQLite database)" "$tmp/text.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE t(x)"); c.commit()' "$tmp/foreign.db"
bad_file "not a pcplab recording (an SQLite database of another program)" "$tmp/foreign.db"
cp "$tmp/good.db" "$tmp/newer.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version = 99"); c.commit()' "$tmp/newer.db"
bad_file "recording schema version 99 is newer than this pcplab reads (2)" "$tmp/newer.db"
size=$(wc -c <"$tmp/good.db")
head -c $((size / 2)) "$tmp/good.db" >"$tmp/cut.db"
bad_file "truncated recording" "$tmp/cut.db"
python3 - "$tmp/good.db" "$tmp/corrupt.db" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
for i in range(len(b) // 3, 2 * len(b) // 3):
    b[i] = (i * 37) & 0xff
open(sys.argv[2], "wb").write(b)
PY
usage_error "$tmp/corrupt.db: " export "$tmp/corrupt.db" --format csv
usage_error "$tmp/corrupt.db: " export "$tmp/corrupt.db" --format perfetto

# The good file still works (the checks above are about the files, not the commands).
run export "$tmp/good.db" --format csv --series batch
[ "$rc" -eq 0 ] || fail "good.db: exit $rc: $(cat "$tmp/err")"

# A file that is not a recording is never overwritten by --record.
echo "my notes" >"$tmp/notes.txt"
usage_error "not overwriting" run --preset classroom --workload kernbench --duration 1ms --record "$tmp/notes.txt"
[ "$(cat "$tmp/notes.txt")" = "my notes" ] || fail "--record overwrote a text file"

# Nor is anything that is not a regular file (as root, --record /dev/null used to replace the device node with a
# database), and an empty path is refused instead of recording to SQLite's temporary database.
mkfifo "$tmp/fifo"
usage_error "--record $tmp/fifo: is a FIFO (named pipe), not a regular file; not overwriting it" \
    run --preset classroom --workload boot --duration 1ms --record "$tmp/fifo"
[ -p "$tmp/fifo" ] || fail "--record replaced a FIFO"
ln -s "$tmp/good.db" "$tmp/link.db"
usage_error "is a symbolic link, not a regular file" run --preset classroom --workload boot --duration 1ms --record "$tmp/link.db"
[ -L "$tmp/link.db" ] || fail "--record replaced a symbolic link"
usage_error "--record: needs a file name, not an empty string" run --preset classroom --workload boot --duration 1ms --record ""

# Two writers, one file: the second is refused while the first records, and the file holds the first run whole.
"$cli" run --preset classroom --workload page-fault1 --duration 300ms --record "$tmp/two.db" >"$tmp/first.out" 2>&1 &
first=$!
for _ in $(seq 100); do [ -s "$tmp/two.db" ] && break; sleep 0.05; done
usage_error "is being recorded by another process" run --preset classroom --workload boot --duration 1ms --record "$tmp/two.db"
wait "$first" || fail "the first writer failed: $(cat "$tmp/first.out")"
runs=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(
    "SELECT COUNT(*), MAX(workload), MIN(finished) FROM runs").fetchone())' "$tmp/two.db")
[ "$runs" = "(1, 'page-fault1', 1)" ] || fail "two.db does not hold the first run whole: $runs"
finish
