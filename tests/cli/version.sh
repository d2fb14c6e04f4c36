# --version says the project's version (project() in CMakeLists.txt) and the commit the source tree was at when the
# program was built (`git describe --always --dirty`), or "unknown commit" for a tree without git. A tree changed
# since the build (an edit, a commit) makes this fail until the program is rebuilt: the commit is the build's.
set -e
. "$(dirname "$0")/lib.bash"

version=$(sed -nE 's/^project\(pcplab VERSION ([0-9]+\.[0-9]+\.[0-9]+).*/\1/p' "$src/CMakeLists.txt")
[ -n "$version" ] || fail "no VERSION in $src/CMakeLists.txt's project()"
commit="unknown commit"
if top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null) && [ "$(realpath "$top")" = "$(realpath "$src")" ]; then
    commit="commit $(git -C "$src" describe --always --dirty)"
fi
for flag in --version -V; do
    run $flag
    [ "$rc" -eq 0 ] || fail "$flag: exit $rc"
    [ "$(cat "$tmp/out")" = "pcplab-cli $version ($commit)" ] ||
        fail "$flag: '$(cat "$tmp/out")', expected 'pcplab-cli $version ($commit)' (rebuilt since the last change?)"
    [ ! -s "$tmp/err" ] || fail "$flag: wrote to stderr: $(cat "$tmp/err")"
done

finish
