#!/usr/bin/env bash
# Installs what the demo and the tests need on a fresh machine (idempotent).
# Debian packages: cmake, pkg-config (C host packaging tests), libsdl2-dev and
# xvfb (the SDL2 host and its screenshot test). Python: the packages of
# requirements-dev.txt. Swift packages resolve from the machine's mirror.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
for pkg in cmake pkg-config libsdl2-dev xvfb xauth valgrind; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

python3 -m pip install -q --disable-pip-version-check -r requirements-dev.txt
