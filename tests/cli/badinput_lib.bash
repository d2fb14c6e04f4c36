# Table-driven bad-input checks for the tests/cli/badinput_*.sh (named .bash so ctest does not run it).
# A table row is: EXIT<TAB>INPUT<TAB>PROBLEM<TAB>ARGS
#   EXIT     the expected exit status (2: bad input, see the README's exit codes)
#   INPUT    text stderr must contain: the file or flag at fault
#   PROBLEM  text stderr must contain: what is wrong with it
#   ARGS     the pcplab-cli arguments, as shell words ($tmp and $src expand)
# Every row must also: finish within $badinput_timeout seconds, write nothing to stdout, write exactly one
# line to stderr, and show no crash (signal, sanitizer report, "internal error").
. "$(dirname "$0")/lib.bash"
badinput_timeout="${PCPLAB_BADINPUT_TIMEOUT:-60}"
rows=0

check_row() {
    local want="$1" input="$2" problem="$3" args="$4"
    local -a argv
    eval "argv=($args)"
    rows=$((rows + 1))
    set +e
    timeout "$badinput_timeout" "$cli" "${argv[@]}" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    set -e
    local what="pcplab-cli ${argv[*]}"
    if [ "$rc" -eq 124 ]; then
        fail "$what: still running after ${badinput_timeout}s (hang?)"
        return
    fi
    if [ "$rc" -ge 128 ]; then fail "$what: killed by signal $((rc - 128)): $(head -c 400 "$tmp/err")"; fi
    if grep -qE 'Sanitizer|runtime error:|internal error' "$tmp/err"; then
        fail "$what: crashed: $(head -c 600 "$tmp/err")"
        return
    fi
    [ "$rc" -eq "$want" ] || fail "$what: exit $rc, expected $want: $(head -c 300 "$tmp/err")"
    [ -s "$tmp/out" ] && fail "$what: wrote to stdout on failure: $(head -c 200 "$tmp/out")"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: expected one line on stderr, got: $(head -c 400 "$tmp/err")"
    grep -qF -- "$input" "$tmp/err" || fail "$what: stderr does not name '$input': $(cat "$tmp/err")"
    grep -qF -- "$problem" "$tmp/err" || fail "$what: stderr does not say '$problem': $(cat "$tmp/err")"
}

# check_table < TABLE : every row (blank lines and lines starting with # are skipped)
check_table() {
    local want input problem args
    while IFS=$'\t' read -r want input problem args; do
        [ -z "$want" ] || [ "${want:0:1}" = "#" ] && continue
        check_row "$want" "$(eval "echo \"$input\"")" "$problem" "$args"
    done
}

finish_table() {
    [ "$rows" -gt 0 ] || fail "no rows were checked"
    echo "$rows rows"
    finish
}
