# check-zoneinfo on a real capture: every pageset matches; broken input is reported with file:line.
set -e
. "$(dirname "$0")/lib.bash"
fixture="$src/tests/fixtures/zoneinfo/linux-6.18-kvm-1node-2cpu.txt"

run check-zoneinfo "$fixture"
[ "$rc" -eq 0 ] || fail "fixture: exit $rc: $(cat "$tmp/err")"
grep -q "6/6 pagesets match" "$tmp/out" || fail "fixture: no '6/6 pagesets match' in: $(cat "$tmp/out")"

run check-zoneinfo "$fixture" --cpus-per-node 2
[ "$rc" -eq 0 ] || fail "fixture with --cpus-per-node 2: exit $rc"

# A pageset whose batch was tampered with cannot be matched: exit 1.
awk '/batch:/ && !done { sub(/batch: *[0-9]+/, "batch: 5"); done = 1 } { print }' "$fixture" >"$tmp/tampered.txt"
cmp -s "$fixture" "$tmp/tampered.txt" && fail "tampering changed nothing"
run check-zoneinfo "$tmp/tampered.txt"
[ "$rc" -eq 1 ] || fail "tampered file: exit $rc, expected 1"

# A malformed file: the parser's file:line message, exit 2.
head -n 60 "$fixture" >"$tmp/broken.txt"
echo "        managed  lots" >>"$tmp/broken.txt"
usage_error "$tmp/broken.txt:" check-zoneinfo "$tmp/broken.txt"

finish
