#!/usr/bin/env bash
# Installs what is missing, builds, and starts pcplab. Until the GUI lands this is the CLI's default demo.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh"
exec "${PCPLAB_BUILD_DIR:-$here/build}/app/pcplab-cli" demo "$@"
