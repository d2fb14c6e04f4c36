# zoneinfo / buddyinfo of the classroom preset, and the default demo.
set -e
. "$(dirname "$0")/lib.bash"

run zoneinfo --preset classroom
[ "$rc" -eq 0 ] || fail "zoneinfo: exit $rc: $(cat "$tmp/err")"
head -n 1 "$tmp/out" | grep -q "^Node 0, zone      DMA$" || fail "zoneinfo first line: $(head -n 1 "$tmp/out")"
grep -q "^  pagesets$" "$tmp/out" || fail "zoneinfo has no pagesets"

# Before deferred init the highest zone manages far fewer pages than after.
run zoneinfo --preset classroom --at setup
[ "$rc" -eq 0 ] || fail "zoneinfo --at setup: exit $rc"
cp "$tmp/out" "$tmp/setup.txt"
run zoneinfo --preset classroom --at after-init
cmp -s "$tmp/setup.txt" "$tmp/out" && fail "zoneinfo at setup and after-init are identical"

run buddyinfo --preset classroom
[ "$rc" -eq 0 ] || fail "buddyinfo: exit $rc"
grep -Eq '^Node 0, zone +DMA( +[0-9]+){11} *$' "$tmp/out" || fail "buddyinfo: $(cat "$tmp/out")"

start=$(date +%s)
run demo
[ "$rc" -eq 0 ] || fail "demo: exit $rc: $(cat "$tmp/err")"
[ $(($(date +%s) - start)) -le 30 ] || fail "demo took more than 30 s"
grep -q "pcp-update-after-deferred-init=off" "$tmp/out" || fail "demo does not show the switch off"
grep -q "pcp-update-after-deferred-init=on" "$tmp/out" || fail "demo does not show the switch on"
grep -Eq '^ +[0-9]+               batch: [0-9]+$' "$tmp/out" || fail "demo shows no pageset breakdown"
grep -q "pgdatinit node 0" "$tmp/out" || fail "demo shows no deferred init"
grep -q "^Node 0, zone" "$tmp/out" || fail "demo shows no buddyinfo"

finish
