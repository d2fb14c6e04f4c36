# Lessons under hostile input (issue 22): a deep expression, settings that mean nothing on the machine, a folder
# with no lessons, a lesson given as a file, a FIFO where a lesson should be.
set -e
. "$(dirname "$0")/lib.bash"

# lesson NAME SETUP... : a one-step lesson in $tmp/NAME/01-t.md whose block holds the lines given.
lesson() {
    local name="$1"
    shift
    mkdir -p "$tmp/$name"
    {
        printf -- '---\ntitle: T\nsummary: S\n---\n\n## s\n\n```step\npreset: classroom\nnode_gib: 1\nera: v5.4\n'
        printf 'workload: kernbench\nrun: 2ms\n'
        printf '%s\n' "$@"
        printf '```\n'
    } >"$tmp/$name/01-t.md"
}

# malformed WORDS DIR: `lessons check DIR` reports the lesson as malformed (exit 2), the problem on stderr with
# the file's line (the summary on stdout says 1 malformed, as for any malformed lesson).
malformed() {
    local words="$1"
    shift
    run lessons check "$@"
    [ "$rc" -eq 2 ] || fail "'lessons check $*': exit $rc, expected 2"
    grep -qF -- "$words" "$tmp/err" || fail "'lessons check $*': stderr does not name '$words': $(cat "$tmp/err")"
    grep -q "1 malformed" "$tmp/out" || fail "'lessons check $*': $(cat "$tmp/out")"
}

# 30,000 terms in a chain: the evaluator recursed once per operator and overflowed the stack.
lesson deep "check: $(python3 -c 'print(" + ".join(["1"] * 30000))') > 0"
malformed "more than 100 operations deep" "$tmp/deep"
# The limit: 100 levels pass, as nested parentheses did.
lesson chain "check: $(python3 -c 'print(" + ".join(["1"] * 99))') == 99"
run lessons check "$tmp/chain"
[ "$rc" -eq 0 ] || fail "a 99-term chain: exit $rc: $(cat "$tmp/out" "$tmp/err")"

# A number the language cannot go on with is an error of the check, never a pass.
lesson nan "check: round(1.5, 1e9) != 3"
run lessons check "$tmp/nan"
[ "$rc" -eq 1 ] || fail "round(1.5, 1e9): exit $rc: $(cat "$tmp/out" "$tmp/err")"
grep -q "round(): the decimal places must be a whole number from -15 to 15, not 1000000000" "$tmp/out" ||
    fail "round(1.5, 1e9): $(cat "$tmp/out")"
lesson inf "check: 1e308 * 10 > 0"
run lessons check "$tmp/inf"
[ "$rc" -eq 1 ] && grep -q "'\*' gives inf, not a finite number" "$tmp/out" || fail "1e308 * 10: $(cat "$tmp/out")"

# Settings the machine cannot honour are refused when the lesson loads, as the CLI refuses them.
lesson flip "flip: pcp-high-autotune=on"
malformed "pcp-high-autotune needs v5.14+" "$tmp/flip"
lesson big "sysctl: vm.min_free_kbytes=99999999999999"
malformed "vm.min_free_kbytes: 99999999999999 is invalid (0 .. 2147483647)" "$tmp/big"
lesson sysctl "sysctl: vm.min_free_kbytes=2147483648"
malformed "vm.min_free_kbytes: 2147483648 is invalid (0 .. 2147483647)" "$tmp/sysctl"
lesson gib
sed -i 's/^node_gib: 1$/node_gib: 16384/' "$tmp/gib/01-t.md"
malformed "node_gib 16384: more than the preset's largest node" "$tmp/gib"
lesson intensity "intensity: 2"
malformed "intensity 2: at most one job per CPU" "$tmp/intensity"

# A folder without lessons checks nothing: that is an error, not a pass; a lesson file is checked on its own.
mkdir -p "$tmp/empty"
usage_error "$tmp/empty: no lesson files (*.md) in this folder" lessons check "$tmp/empty"
usage_error "$tmp/missing: cannot read the lessons folder: No such file or directory" lessons check "$tmp/missing"
run lessons check "$tmp/chain/01-t.md"
[ "$rc" -eq 0 ] && grep -q "1 lesson(s)" "$tmp/out" || fail "a lesson file: exit $rc: $(cat "$tmp/out" "$tmp/err")"

# A FIFO that no program writes to is refused at once, not waited on forever.
mkdir -p "$tmp/fifo"
mkfifo "$tmp/fifo/01-x.md"
set +e
timeout 20 "$cli" lessons check "$tmp/fifo" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "a FIFO lesson: exit $rc"
grep -q "is a FIFO (named pipe) that no program writes to" "$tmp/err" || fail "a FIFO lesson: $(cat "$tmp/err")"

finish
