# `lessons check` runs every lesson headless and passes; a malformed lesson exits 2 naming file and line while
# the others still run; an unsatisfiable check exits 1; `lessons list` lists the fifteen lessons.
set -e
. "$(dirname "$0")/lib.bash"
fixtures="$src/tests/fixtures/lessons"

# The lessons of the source tree (the default folder): every check passes. This is how a lesson the
# program can no longer satisfy fails the build.
run lessons check
[ "$rc" -eq 0 ] || fail "lessons check: exit $rc: $(grep -E 'FAIL|ERROR' "$tmp/out" | head -20) $(cat "$tmp/err")"
grep -Eq '^15 lesson\(s\), [0-9]+ checks: [0-9]+ passed, 0 failed; 0 lesson\(s\) failed, 0 malformed' "$tmp/out" ||
    fail "lessons check summary: $(tail -1 "$tmp/out")"
! grep -q 'FAIL' "$tmp/out" || fail "a FAIL line in: $(grep FAIL "$tmp/out" | head)"
# Lesson 3 reproduces seed 000's table step by step.
grep -q 'figure  Normal pagesets with batch 7 / high 42: paper 512, simulated 512' "$tmp/out" || fail "lesson 3 off table"
grep -q 'figure  pagesets with batch 63 / high 378: paper 768, simulated 768' "$tmp/out" || fail "lesson 3 on table"
# Lesson 14 sets the refill's time at the default scale beside Yafang Shao's funclatency average.
grep -q "figure  a refill's time: its mean hold + the mean zone->lock wait: paper 449.8 us, simulated" "$tmp/out" \
    || fail "lesson 14: no refill time beside 449.8 us"

run lessons list
[ "$rc" -eq 0 ] || fail "lessons list: exit $rc"
[ "$(wc -l <"$tmp/out")" -eq 15 ] || fail "lessons list: $(cat "$tmp/out")"
grep -Eq '^03-seed-000-\S+ +000 ' "$tmp/out" || fail "lessons list: lesson 3 line"
grep -Eq '^09-free-high-threshold +005 ' "$tmp/out" || fail "lessons list: lesson 9 line (scenario 005)"
grep -Eq '^10-remote-drain +006 ' "$tmp/out" || fail "lessons list: lesson 10 line (scenario 006)"
grep -Eq '^11-rmqueue-bulk-fallback-mode +007 ' "$tmp/out" || fail "lessons list: lesson 11 line (scenario 007)"
grep -Eq '^12-alloc-pages-nolock +008 ' "$tmp/out" || fail "lessons list: lesson 12 line (scenario 008)"
grep -Eq '^13-pcp-buddy +009 ' "$tmp/out" || fail "lessons list: lesson 13 line (scenario 009)"
grep -Eq '^14-pcp-batch-scale-max +011 ' "$tmp/out" || fail "lessons list: lesson 14 line (scenario 011, a sysctl)"
grep -Eq '^15-pcp-lock-irqs-enabled +010 ' "$tmp/out" || fail "lessons list: lesson 15 line (scenario 010)"

# Malformed lessons: exit 2, FILE:LINE:COL on stderr for each, and the good lesson beside them still runs.
run lessons check "$fixtures/mixed"
[ "$rc" -eq 2 ] || fail "mixed: exit $rc, expected 2"
for f in 10-unknown-key.md:10 11-bad-expression.md:10 12-unknown-preset.md:9 13-unknown-view.md:10 \
    14-unknown-switch.md:10 15-missing-answer.md:10 16-truncated-block.md:8; do
    grep -q "mixed/$f:" "$tmp/err" || fail "mixed: no error for $f: $(cat "$tmp/err")"
done
[ "$(wc -l <"$tmp/err")" -eq 7 ] || fail "mixed: expected 7 error lines: $(cat "$tmp/err")"
grep -q '^00-good ' "$tmp/out" || fail "mixed: the good lesson did not run"
grep -q '1 loaded, 7 malformed' "$tmp/out" || fail "mixed: $(head -1 "$tmp/out")"

# A well-formed lesson whose check fails: exit 1 with the failing values.
run lessons check "$fixtures/failing"
[ "$rc" -eq 1 ] || fail "failing: exit $rc, expected 1"
grep -q 'FAIL  all(pagesets where zone == "DMA", batch == 2)' "$tmp/out" || fail "failing: $(cat "$tmp/out")"
grep -q 'all: 0 of ' "$tmp/out" || fail "failing: no values in $(cat "$tmp/out")"

usage_error "unknown subcommand" lessons frobnicate
usage_error "check or list" lessons
usage_error "no lesson matches" lessons check --only 99

finish
