# The installed program. Builds the .deb of this build tree with CPack, unpacks it into a scratch root with dpkg -x
# (the files apt would put under /) and runs both programs from there: pcplab-cli seeds --only 000 --quick and a
# screenshot of the window. The data must be found from the programs' own folder, not from the source tree they
# were built from: a preset and a lesson added to the unpacked tree alone are found, with $PCPLAB_RESOURCES unset.
# In a sanitizer build it packages the sanitized programs (the package depends on the sanitizer runtimes and says
# so in its version) and runs them under the sanitizer options the suite runs with.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -u
build="$1"
src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
unset PCPLAB_RESOURCES PCPLAB_LESSONS
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
# run NAME COMMAND... : runs it, leaving $tmp/NAME.out, $tmp/NAME.err and $rc
run() {
    local name="$1"
    shift
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
}

# The package, as scripts/package.sh builds it (but from this build tree, into the scratch folder).
start=$SECONDS
run cpack bash -c "cd '$build' && cpack -G DEB -B '$tmp/cpack'"
if [ "$rc" -ne 0 ]; then
    cat "$tmp/cpack.out" "$tmp/cpack.err" >&2
    echo "FAIL: cpack -G DEB: exit $rc" >&2
    exit 1
fi
deb=$(ls "$tmp"/cpack/pcplab_*.deb)
echo "cpack: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB, $((SECONDS - start)) s"

# Its fields: the runtime dependencies are the Debian packages of the libraries the programs link.
depends=$(dpkg-deb -f "$deb" Depends)
for p in libqt6widgets6 libqt6svg6 libqcustomplot2.1-qt6 libsqlite3-0 libstdc++6 qt6-qpa-plugins; do
    grep -q "\b$p\b" <<<"$depends" || fail "Depends lacks $p: $depends"
done
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$tmp/files"
for f in /usr/bin/pcplab /usr/bin/pcplab-cli /usr/share/applications/pcplab.desktop \
    /usr/share/metainfo/pcplab.metainfo.xml /usr/share/icons/hicolor/scalable/apps/pcplab.svg \
    /usr/share/man/man1/pcplab.1.gz /usr/share/man/man1/pcplab-cli.1.gz /usr/share/doc/pcplab/README.md \
    /usr/share/doc/pcplab/docs/recording-schema.md; do
    grep -qx "$f" "$tmp/files" && continue
    case "$f" in
    *.1.gz) fail "the package has no $f (was help2man installed when this build was configured?)" ;;
    *) fail "the package has no $f" ;;
    esac
done
for f in "$src"/resources/presets/*.json "$src"/lessons/*.md; do
    case "$f" in
    */presets/*) want=/usr/share/pcplab/presets/$(basename "$f") ;;
    *) want=/usr/share/pcplab/lessons/$(basename "$f") ;;
    esac
    grep -qx "$want" "$tmp/files" || fail "the package has no $want"
done

root="$tmp/root"
dpkg -x "$deb" "$root" || {
    echo "FAIL: dpkg -x" >&2
    exit 1
}
cli="$root/usr/bin/pcplab-cli"
gui="$root/usr/bin/pcplab"

# Found from the program's folder: what only the unpacked tree has.
cp "$root/usr/share/pcplab/presets/classroom.json" "$root/usr/share/pcplab/presets/unpacked-only.json"
cp "$root/usr/share/pcplab/lessons/01-buddy-allocator.md" "$root/usr/share/pcplab/lessons/99-unpacked-only.md"
run presets "$cli" presets
[ "$rc" -eq 0 ] || fail "pcplab-cli presets: exit $rc: $(cat "$tmp/presets.err")"
grep -q '^unpacked-only ' "$tmp/presets.out" || fail "pcplab-cli presets does not list the unpacked tree's preset"
run lessons "$cli" lessons list
[ "$rc" -eq 0 ] || fail "pcplab-cli lessons list: exit $rc: $(cat "$tmp/lessons.err")"
grep -q '99-unpacked-only' "$tmp/lessons.out" || fail "pcplab-cli lessons list: not the unpacked tree's lessons"

# The seed-000 scenario, off and on.
run seeds "$cli" seeds --only 000 --quick
[ "$rc" -eq 0 ] || fail "pcplab-cli seeds --only 000 --quick: exit $rc: $(cat "$tmp/seeds.err")"
grep -q '000' "$tmp/seeds.out" || fail "seeds: no seed 000 in: $(head -c 400 "$tmp/seeds.out")"

# The window, offscreen, on the unpacked tree's preset and lesson.
run window env QT_QPA_PLATFORM=offscreen "$gui" --screenshot "$tmp/window.png" --run-for 100ms --size 800x600 \
    --preset unpacked-only --lesson 99-unpacked-only
[ "$rc" -eq 0 ] || fail "pcplab --screenshot: exit $rc: $(cat "$tmp/window.err")"
[ "$(head -c 8 "$tmp/window.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    fail "pcplab --screenshot wrote no PNG"

# --version: the version and the commit, the same as the build tree's programs, and in the man pages' headers.
for p in pcplab pcplab-cli; do
    case "$p" in
    pcplab) built="$build/app/gui/pcplab" ;;
    *) built="$build/app/pcplab-cli" ;;
    esac
    run version "$root/usr/bin/$p" --version
    line=$(head -1 "$tmp/version.out")
    [ "$line" = "$("$built" --version | head -1)" ] || fail "$p --version: '$line', the build tree's: '$("$built" --version)'"
    grep -Eq "^$p [0-9]+\.[0-9]+\.[0-9]+ \((commit [0-9a-f]+(-dirty)?|unknown commit)\)$" <<<"$line" ||
        fail "$p --version: '$line'"
    version=${line#"$p "}
    page="$root/usr/share/man/man1/$p.1.gz"
    if [ -f "$page" ]; then
        zcat "$page" | grep -q "^\.TH .*\"$p ${version//./\\.}\"" || fail "$p.1: .TH does not carry '$version': $(zcat "$page" | grep '^\.TH')"
        if command -v man >/dev/null; then
            MANWIDTH=100 man -l "$page" >"$tmp/man.out" 2>"$tmp/man.err" || fail "man -l $p.1: $(cat "$tmp/man.err")"
            grep -q -- "--version" "$tmp/man.out" || fail "man $p: no --version in the page"
        fi
    fi
done
package_version=$(dpkg-deb -f "$deb" Version)
[ "${package_version%%+*}" = "$(sed -E 's/ .*//' <<<"$version")" ] ||
    fail "package version $package_version, programs' $version"

# The desktop entry starts a program the package has, under the icon it has.
grep -qx 'Exec=pcplab' "$root/usr/share/applications/pcplab.desktop" || fail "desktop entry: Exec"
[ -x "$gui" ] || fail "no executable /usr/bin/pcplab"

echo "all: $((SECONDS - start)) s"
if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo ok
