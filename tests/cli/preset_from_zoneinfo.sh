# preset-from-zoneinfo (issue 21, item 5): every real capture gives a preset that boots to its batch, high and
# watermarks (--check, exit 0); --out writes a preset that run and zoneinfo load; what cannot be a target or a
# source is refused with exit 2 and one line, and an earlier preset at the target is left whole.
set -e
. "$(dirname "$0")/lib.bash"
dir="$src/tests/fixtures/zoneinfo"
fixture="$dir/linux-6.18-kvm-1node-2cpu.txt"

n=0
for f in "$dir"/*.txt; do
    run preset-from-zoneinfo "$f" --check
    [ "$rc" -eq 0 ] || fail "$(basename "$f"): --check exit $rc: $(cat "$tmp/out") $(cat "$tmp/err")"
    grep -q "^round trip: .* all equal" "$tmp/out" || fail "$(basename "$f"): $(cat "$tmp/out")"
    n=$((n + 1))
done
[ "$n" -ge 16 ] || fail "only $n captures in $dir"

# Without --out and --check: the preset on stdout, which the preset loader takes.
run preset-from-zoneinfo "$fixture"
[ "$rc" -eq 0 ] || fail "stdout: exit $rc: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/stdout.json"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/stdout.json" || fail "stdout is not JSON"

# --out: the same preset in a file, which run boots and zoneinfo prints with the capture's batch.
run preset-from-zoneinfo "$fixture" --out "$tmp/machine.json"
[ "$rc" -eq 0 ] || fail "--out: exit $rc: $(cat "$tmp/err")"
grep -q "^wrote $tmp/machine.json" "$tmp/out" || fail "--out: $(cat "$tmp/out")"
cmp -s "$tmp/machine.json" "$tmp/stdout.json" || fail "--out wrote another preset than stdout"
run zoneinfo --preset "$tmp/machine.json"
[ "$rc" -eq 0 ] || fail "zoneinfo --preset: exit $rc: $(cat "$tmp/err")"
grep -q "high_max: *48307" "$tmp/out" || fail "booted DMA32 high_max is not the capture's 48307"
run run --preset "$tmp/machine.json" --workload kernbench --duration 1ms
[ "$rc" -eq 0 ] || fail "run --preset: exit $rc: $(cat "$tmp/err")"

# A target that is not a regular file is refused and left as it was.
mkfifo "$tmp/fifo.json"
usage_error "is not a regular file" preset-from-zoneinfo "$fixture" --out "$tmp/fifo.json"
[ -p "$tmp/fifo.json" ] || fail "the FIFO was replaced"
ln -s "$tmp/machine.json" "$tmp/link.json"
usage_error "is not a regular file" preset-from-zoneinfo "$fixture" --out "$tmp/link.json"
[ -L "$tmp/link.json" ] || fail "the link was replaced"

# A file of several captures (mmtests' framing) may hold several machines: refused, nothing written.
{
    echo "time: 1700000000"
    cat "$fixture"
    echo "time: 1700000005"
    cat "$fixture"
} >"$tmp/framed.txt"
usage_error "holds 2 captures" preset-from-zoneinfo "$tmp/framed.txt" --out "$tmp/framed.json"
[ ! -e "$tmp/framed.json" ] || fail "a preset was written for a file of two captures"

# A malformed number: the file and line, nothing written.
head -n 60 "$fixture" >"$tmp/broken.txt"
echo "        managed  lots" >>"$tmp/broken.txt"
usage_error "$tmp/broken.txt:61:" preset-from-zoneinfo "$tmp/broken.txt" --out "$tmp/broken.json"
[ ! -e "$tmp/broken.json" ] || fail "a preset was written for a malformed capture"

finish
