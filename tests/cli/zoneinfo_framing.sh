# check-zoneinfo reads what the project itself writes and what editors leave (issue 22): a UTF-8 byte-order
# mark, mmtests' monitor framing (time: lines between captures, as export --format zoneinfo writes); a FIFO
# that no program writes to, as a capture or as a preset, is refused at once instead of waited on forever.
set -e
. "$(dirname "$0")/lib.bash"

fixture="$src/tests/fixtures/zoneinfo/linux-6.18-kvm-1node-2cpu.txt"
run check-zoneinfo "$fixture"
[ "$rc" -eq 0 ] || fail "the fixture: exit $rc: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/plain.out"
{
    printf '\xef\xbb\xbf'
    cat "$fixture"
} >"$tmp/bom.txt"
run check-zoneinfo "$tmp/bom.txt"
[ "$rc" -eq 0 ] || fail "with a BOM: exit $rc: $(cat "$tmp/err")"
cmp -s "$tmp/out" "$tmp/plain.out" || fail "with a BOM the report differs"

# Two captures in monitor framing: each is checked, under a line that says which.
{
    echo "time: 1700000000"
    cat "$fixture"
    echo "time: 1700000005"
    cat "$fixture"
} >"$tmp/framed.txt"
run check-zoneinfo "$tmp/framed.txt"
[ "$rc" -eq 0 ] || fail "framed: exit $rc: $(cat "$tmp/err")"
grep -q "^capture 1 of 2 (time: 1700000000), from line 2:" "$tmp/out" || fail "framed: $(head -3 "$tmp/out")"
grep -q "^capture 2 of 2 (time: 1700000005)" "$tmp/out" || fail "framed: no second capture"
# A mistake in the second capture is reported at its line in the file.
lines=$(wc -l <"$fixture")
sed "$((lines + 4))s/.*/  pages free     many/" "$tmp/framed.txt" >"$tmp/framed_bad.txt"
usage_error "framed_bad.txt:$((lines + 4)):" check-zoneinfo "$tmp/framed_bad.txt"

# What export --format zoneinfo writes is read back.
run run --preset classroom --workload kernbench --duration 20ms --record "$tmp/r.db"
[ "$rc" -eq 0 ] || fail "record: exit $rc: $(cat "$tmp/err")"
run export "$tmp/r.db" --format zoneinfo --out "$tmp/r.zoneinfo"
[ "$rc" -eq 0 ] || fail "export zoneinfo: exit $rc: $(cat "$tmp/err")"
run check-zoneinfo "$tmp/r.zoneinfo" --cpus-per-node 4,4
[ "$rc" -ne 2 ] || fail "check-zoneinfo of an exported recording: $(cat "$tmp/err")"
grep -q "^capture 1 of " "$tmp/out" || fail "exported recording: $(head -3 "$tmp/out")"

# FIFOs that no program writes to.
mkfifo "$tmp/zi.fifo" "$tmp/preset.json"
for args in "check-zoneinfo $tmp/zi.fifo" "run --preset $tmp/preset.json --workload kernbench --duration 1ms" \
    "zoneinfo --preset $tmp/preset.json"; do
    set +e
    # shellcheck disable=SC2086
    timeout 20 "$cli" $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
    set -e
    [ "$rc" -eq 2 ] || fail "'$args': exit $rc (124: it waited for a writer)"
    grep -q "is a FIFO (named pipe) that no program writes to" "$tmp/err" || fail "'$args': $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] || fail "'$args' wrote to stdout"
done
# A pipe with a writer is read as before.
run check-zoneinfo <(cat "$fixture")
[ "$rc" -eq 0 ] || fail "a pipe with a writer: exit $rc: $(cat "$tmp/err")"

finish
