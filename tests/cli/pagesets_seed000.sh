# Seed 000 on its own machine (epyc2-256, era v5.4): Mel Gorman's batch/high breakdown without and
# with pcp-update-after-deferred-init.
set -e
. "$(dirname "$0")/lib.bash"

run pagesets --preset epyc2-256 --era v5.4 --patch pcp-update-after-deferred-init=off --json
[ "$rc" -eq 0 ] || fail "off: exit $rc: $(cat "$tmp/err")"
json_equal "$tmp/out" '{"batch":{"1":256,"63":256,"7":512},"high":{"0":256,"378":256,"42":512}}' ||
    fail "off: $(cat "$tmp/out")"

run pagesets --preset epyc2-256 --era v5.4 --patch pcp-update-after-deferred-init=on --json
[ "$rc" -eq 0 ] || fail "on: exit $rc: $(cat "$tmp/err")"
json_equal "$tmp/out" '{"batch":{"1":256,"63":768},"high":{"0":256,"378":768}}' || fail "on: $(cat "$tmp/out")"

# Right after setup_per_cpu_pageset the limits are the stale ones, in the layout of his mail.
run pagesets --preset epyc2-256 --era 5.4.0-rc3 --at setup
[ "$rc" -eq 0 ] || fail "setup: exit $rc: $(cat "$tmp/err")"
cat >"$tmp/mel.txt" <<'MEL'
    256               batch: 1
    256               batch: 63
    512               batch: 7

    256               high:  0
    256               high:  378
    512               high:  42
MEL
diff -u "$tmp/mel.txt" "$tmp/out" >&2 || fail "setup breakdown differs from the seed's listing"
grep -q "v5.4-rc3 modelled as era v5.4" "$tmp/err" || fail "no era note on stderr: $(cat "$tmp/err")"

finish
