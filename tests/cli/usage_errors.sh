# Bad command lines exit 2 with one line that names the flag or file, and write nothing to stdout.
set -e
. "$(dirname "$0")/lib.bash"

usage_error "frobnicate" frobnicate
usage_error "--bogus" --bogus
usage_error "--bogus" zoneinfo --preset classroom --bogus
usage_error "--json" zoneinfo --preset classroom --json
usage_error "--at" zoneinfo --preset classroom --at later
usage_error "--at" buddyinfo --preset classroom --at
usage_error "--era" pagesets --preset classroom --era
usage_error "--era" pagesets --preset classroom --era five
usage_error "--init-threads" zoneinfo --preset classroom --init-threads 0
usage_error "--init-threads" zoneinfo --preset classroom --init-threads x
usage_error "--init-threads" zoneinfo --preset classroom --era v5.4 --init-threads 4
usage_error "foo" pagesets --preset classroom --patch foo=on
usage_error "maybe" pagesets --preset classroom --patch batched-bulk-free=maybe
usage_error "--patch" pagesets --preset classroom --patch pcp-update-after-deferred-init=on --era v6.7
usage_error "--preset" zoneinfo --preset no-such-preset
usage_error "--preset" zoneinfo --era v5.4
usage_error "--cpus-per-node" check-zoneinfo "$src/tests/fixtures/zoneinfo/linux-6.18-kvm-1node-2cpu.txt" --cpus-per-node 2,x
usage_error "--era" check-zoneinfo "$src/tests/fixtures/zoneinfo/linux-6.18-kvm-1node-2cpu.txt" --era
usage_error "$tmp/missing.txt" check-zoneinfo "$tmp/missing.txt"
usage_error "FILE" check-zoneinfo
usage_error "unexpected" presets extra
usage_error "nosuch" help nosuch

# Help and version succeed and say something useful.
for args in "--help" "help" "help pagesets" "pagesets --help"; do
    run $args
    [ "$rc" -eq 0 ] || fail "'$args': exit $rc"
    grep -q "Usage: pcplab-cli" "$tmp/out" || fail "'$args': no usage line"
done
run help zoneinfo
grep -q -- "--init-threads" "$tmp/out" || fail "help zoneinfo does not list --init-threads"
# help --all (what the man page is made of): every command's help under its heading.
run help --all
[ "$rc" -eq 0 ] || fail "help --all: exit $rc"
for c in presets zoneinfo buddyinfo pagesets check-zoneinfo demo costs run patches lessons compare export; do
    grep -qx "pcplab-cli $c:" "$tmp/out" || fail "help --all: no heading for $c"
done
grep -q -- "--record-holds" "$tmp/out" || fail "help --all: no run options"
run --version
[ "$rc" -eq 0 ] || fail "--version: exit $rc"
grep -Eq '^pcplab-cli [0-9]+\.[0-9]+' "$tmp/out" || fail "--version: $(cat "$tmp/out")"

finish
