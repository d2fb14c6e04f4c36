# Helpers for the CLI tests, sourced by each tests/cli/*.sh (named .bash so that ctest does not run it).
# Every test gets: $cli (the binary), $src (the source tree), $tmp (a scratch dir removed on exit).
set -u
cli="$1"
src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run ARGS... : runs the CLI, leaving $tmp/out, $tmp/err and $rc
run() {
    set +e
    "$cli" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    set -e
}

# usage_error WORD ARGS... : exit 2, nothing on stdout, one line on stderr that contains WORD
usage_error() {
    local word="$1"
    shift
    run "$@"
    if [ "$rc" -ne 2 ]; then fail "'$*': exit $rc, expected 2"; fi
    if [ -s "$tmp/out" ]; then fail "'$*': wrote to stdout on failure: $(head -c 200 "$tmp/out")"; fi
    if ! grep -qF -- "$word" "$tmp/err"; then fail "'$*': stderr does not name '$word': $(cat "$tmp/err")"; fi
    if [ "$(wc -l <"$tmp/err")" -ne 1 ]; then fail "'$*': expected one line on stderr, got: $(cat "$tmp/err")"; fi
}

# json_equal FILE JSON : the parsed JSON in FILE equals JSON
json_equal() {
    python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1])) == json.loads(sys.argv[2]) else 1)' "$1" "$2"
}

finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed" >&2
        exit 1
    fi
    echo "ok"
}
