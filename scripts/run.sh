#!/usr/bin/env bash
# Installs what is missing, builds, and starts pcplab (the window, on the classroom preset). Arguments go to
# pcplab (e.g. ./scripts/run.sh --preset epyc2-256 --era 5.4.0-rc3). Without any display (no $DISPLAY, no
# $WAYLAND_DISPLAY and no QT_QPA_PLATFORM chosen) the window cannot open, so it runs the command-line demo.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${PCPLAB_BUILD_DIR:-$here/build}"
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "pcplab: no display (\$DISPLAY and \$WAYLAND_DISPLAY unset), so the window cannot open;" \
       "running the command-line demo instead (pcplab-cli demo)." >&2
  echo "pcplab: for a picture of the window without a display:" \
       "$build/app/gui/pcplab --screenshot pcplab.png" >&2
  exec "$build/app/pcplab-cli" demo
fi
exec "$build/app/gui/pcplab" "$@"
