#!/usr/bin/env bash
# Installs what the demo and the tests need on a fresh machine (idempotent).
# Debian packages: cmake, pkg-config (C host packaging tests), libsdl2-dev and
# xvfb (the SDL2 host and its screenshot test). Python: the packages of
# requirements-dev.txt, into $PYTHON (scripts/python_env.sh): python3, or where
# that is a system Python refusing pip installs (PEP 668, Debian 12's
# /usr/bin/python3) the checkout's virtual environment .venv/, created here.
# Swift packages resolve from the machine's mirror.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_install() {
  echo "setup: installing Debian packages: $*"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

need_apt=()
for pkg in cmake pkg-config libsdl2-dev xvfb xauth valgrind; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
# Debian's python3 refuses pip installs, so it comes with venv (pip then comes from the venv)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3 python3-venv)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt_install "${need_apt[@]}"
fi

# shellcheck source=python_env.sh
. scripts/python_env.sh
if [ "$CADENCE_VENV" = 1 ] && ! "$PYTHON" -m pip --version >/dev/null 2>&1; then
  echo "setup: $(command -v python3) refuses pip installs (PEP 668) or has no pip: using a virtual environment, .venv/"
  # without python3-venv Debian's venv has no ensurepip; creating over a failed attempt is fine
  python3 -m venv .venv >/dev/null 2>&1 || { apt_install python3-venv; python3 -m venv .venv; }
fi

"$PYTHON" -m pip install -q --disable-pip-version-check -r requirements-dev.txt
