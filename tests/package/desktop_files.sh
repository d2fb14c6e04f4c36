# The desktop entry and the AppStream metadata pass their own validators (desktop-file-validate from
# desktop-file-utils, appstreamcli from appstream; scripts/install-deps.sh installs both).
# Usage: desktop_files.sh BUILD_DIR SOURCE_DIR
set -u
build="$1"
src="$2"
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
for tool in desktop-file-validate appstreamcli; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (scripts/install-deps.sh installs it)"
done
[ "$failures" -eq 0 ] || exit 1

desktop="$src/resources/desktop/pcplab.desktop"
out=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate: $out"
# It prints hints and warnings without failing: none are expected.
[ -z "$out" ] || fail "desktop-file-validate $desktop: $out"

# The metainfo as cmake --install writes it. The id is not a reverse domain name (the project has no domain yet,
# so the id stays the program's name): that one warning is shown as information, every other finding counts.
metainfo="$build/desktop/pcplab.metainfo.xml"
[ -f "$metainfo" ] || fail "no $metainfo (cmake/install.cmake writes it at configure time)"
out=$(appstreamcli validate --no-net --override=cid-desktopapp-is-not-rdns=info "$metainfo" 2>&1) ||
    fail "appstreamcli validate $metainfo: $out"

# The three name one another: the metainfo launches the desktop entry, which names the icon and the program.
grep -q '<launchable type="desktop-id">pcplab.desktop</launchable>' "$metainfo" || fail "metainfo: launchable"
grep -qx 'Icon=pcplab' "$desktop" || fail "desktop entry: Icon"
grep -qx 'Exec=pcplab' "$desktop" || fail "desktop entry: Exec"
[ -f "$src/resources/icons/pcplab.svg" ] || fail "no resources/icons/pcplab.svg"

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo ok
