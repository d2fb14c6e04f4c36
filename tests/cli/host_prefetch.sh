# The engine's host prefetch hints are compiled in. GCC 12 once deleted every call of an out-of-line
# prefetch_struct_page (a prefetch has no side effects to its pure-const analysis), silently: results stay
# the same, only the engine runs a fifth slower. The binary then held 2 prefetch instructions; it holds 10.
set -e
. "$(dirname "$0")/lib.bash"

case "$(uname -m)" in
x86_64) insn='prefetch' ;;
aarch64) insn='prfm' ;;
*)
    fail "no prefetch instruction name known for $(uname -m)"
    exit 1
    ;;
esac
command -v objdump >/dev/null || { fail "objdump not found (binutils, installed with g++)"; exit 1; }
n=$(objdump -d --no-show-raw-insn "$cli" | grep -c "$insn" || true)
[ "$n" -ge 8 ] || fail "$n $insn instructions in $cli; at least 8 expected (struct_page_touch.hpp, machine.hpp)"
finish
