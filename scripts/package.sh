#!/usr/bin/env bash
# Builds the Debian package: installs what is missing (help2man included: the package is not built without its
# man pages), builds without tests or sanitizers into build-package/ ($PCPLAB_BUILD_DIR overrides it) and runs
# cpack -G DEB there. Prints the package's path; install it with
#   sudo apt install ./build-package/pcplab_*.deb
# Arguments go to cmake (e.g. -DPCPLAB_SCREENSHOT_URL=https://... for the AppStream screenshot).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${PCPLAB_BUILD_DIR:-$here/build-package}"
"$here/scripts/install-deps.sh"
PCPLAB_BUILD_DIR="$build" "$here/scripts/build.sh" -DPCPLAB_BUILD_TESTS=OFF -DPCPLAB_BUILD_BENCH=OFF \
  -DPCPLAB_SANITIZE= -DPCPLAB_MAN_PAGES=ON "$@"
rm -f "$build"/pcplab_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
ls "$build"/pcplab_*.deb
