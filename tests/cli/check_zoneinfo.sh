# check-zoneinfo on the real captures: every one is read and every pageset matched or explained (exit 0);
# a tampered value is a mismatch (exit 1); a malformed number is reported with file:line (exit 2).
set -e
. "$(dirname "$0")/lib.bash"
dir="$src/tests/fixtures/zoneinfo"
fixture="$dir/linux-6.18-kvm-1node-2cpu.txt"

n=0
for f in "$dir"/*.txt; do
    run check-zoneinfo "$f"
    [ "$rc" -eq 0 ] || fail "$(basename "$f"): exit $rc: $(tail -3 "$tmp/out") $(cat "$tmp/err")"
    grep -q "^formulas: " "$tmp/out" || fail "$(basename "$f"): no 'formulas:' line"
    n=$((n + 1))
done
[ "$n" -ge 16 ] || fail "only $n captures in $dir"

run check-zoneinfo "$fixture"
grep -q "6/6 pagesets match" "$tmp/out" || fail "fixture: no '6/6 pagesets match' in: $(cat "$tmp/out")"

run check-zoneinfo "$fixture" --cpus-per-node 2
[ "$rc" -eq 0 ] || fail "fixture with --cpus-per-node 2: exit $rc"

# --explain: the derivation with the capture's own numbers.
run check-zoneinfo "$fixture" --explain
[ "$rc" -eq 0 ] || fail "--explain: exit $rc"
grep -q "rounddown_pow_of_two(64 + 32 = 96) - 1 = 63" "$tmp/out" || fail "--explain: no batch derivation"

# The 64 KiB ppc64 capture: inferred, or given; as 4 KiB pages it cannot match.
run check-zoneinfo "$dir/linux-4.11-rc5-ppc64-64k-hotplug-1cpu.txt"
grep -q "page size 64 KiB (inferred from the numbers)" "$tmp/out" || fail "64 KiB not inferred: $(cat "$tmp/out")"
run check-zoneinfo "$dir/linux-4.11-rc5-ppc64-64k-hotplug-1cpu.txt" --page-size 4
[ "$rc" -eq 1 ] || fail "64 KiB capture read as 4 KiB: exit $rc, expected 1"

# A pageset whose batch was tampered with cannot be matched: exit 1.
awk '/batch:/ && !done { sub(/batch: *[0-9]+/, "batch: 5"); done = 1 } { print }' "$fixture" >"$tmp/tampered.txt"
cmp -s "$fixture" "$tmp/tampered.txt" && fail "tampering changed nothing"
run check-zoneinfo "$tmp/tampered.txt"
[ "$rc" -eq 1 ] || fail "tampered file: exit $rc, expected 1"

# A malformed file: the parser's file:line message, exit 2.
head -n 60 "$fixture" >"$tmp/broken.txt"
echo "        managed  lots" >>"$tmp/broken.txt"
usage_error "$tmp/broken.txt:61:" check-zoneinfo "$tmp/broken.txt"

finish
