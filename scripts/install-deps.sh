#!/usr/bin/env bash
# Installs the Debian 12 packages pcplab needs to build, test and run (only those missing).
set -euo pipefail
PKGS=(build-essential cmake ninja-build nlohmann-json3-dev catch2 libsqlite3-dev
      qt6-base-dev libqt6sql6-sqlite qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6
      xvfb xauth
      help2man desktop-file-utils appstream # the man pages (help2man); checking the desktop entry and metainfo
      clang libclang-rt-14-dev) # clang: the libFuzzer targets (scripts/fuzz.sh)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "pcplab: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
