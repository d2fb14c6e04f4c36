# `presets` lists every preset the seeds rely on, one line each, with CPUs, nodes, memory and era.
set -e
. "$(dirname "$0")/lib.bash"

run presets
[ "$rc" -eq 0 ] || fail "presets: exit $rc: $(cat "$tmp/err")"
for name in epyc2-256 broadwell-2s skylake-2s broadwell-4s skylake-4s intel-2s-224 meta-1t-316 meta-250g-176 \
    xeon-88-503g xeon-8s-288-1t classroom; do
    n=$(grep -c "^$name " "$tmp/out" || true)
    [ "$n" -eq 1 ] || fail "preset $name listed $n times"
done
# The seed-000 machine: 256 CPUs on 2 nodes.
grep -Eq '^epyc2-256 +256 +2 ' "$tmp/out" || fail "epyc2-256 line: $(grep '^epyc2-256' "$tmp/out")"
grep -Eq '^xeon-8s-288-1t +288 +8 ' "$tmp/out" || fail "xeon-8s-288-1t line: $(grep '^xeon-8s-288-1t' "$tmp/out")"

finish
