#!/usr/bin/env bash
# The Cadence demo in one command: installs what it needs, builds the release
# library, installs the Python binding and plays the classic Core Animation
# examples through the engine, headless, into an animated GIF and PNG frames.
#
#   scripts/demo.sh                    # -> out/demo/demo.gif, out/demo/frames/*.png
#   scripts/demo.sh --seconds 1        # extra arguments go to examples/demo/demo.py
#
# Environment:
#   CADENCE_SKIP_BUILD=1     use an existing library instead of `swift build`
#                            (then set CADENCE_LIBRARY=/path/to/libcadence.so)
#   CADENCE_SKIP_SETUP=1     skip scripts/setup.sh (Debian and pip packages)
#   PYTHON=...               the interpreter (default: python3, or .venv/bin/python
#                            where python3 refuses pip installs; scripts/python_env.sh)
#   CADENCE_LIBRARY=...      the library to load with CADENCE_SKIP_BUILD=1 (a build uses its own)
#   DEMO_OUT=dir             output directory (default out/demo)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
step() { printf '\n==== %s ====\n' "$*"; }
start=$(date +%s)

if [ "${CADENCE_SKIP_SETUP:-0}" != "1" ]; then
  step "set-up (scripts/setup.sh)"
  scripts/setup.sh
fi
# shellcheck source=python_env.sh
. scripts/python_env.sh   # PYTHON: python3, or the .venv setup.sh made for a PEP 668 system Python
cadence_python_ready demo

if [ "${CADENCE_SKIP_BUILD:-0}" != "1" ]; then
  step "build libcadence.so (swift build -c release --product cadence)"
  command -v swift >/dev/null 2>&1 || {
    echo "demo: swift is not installed; install Swift, or use a built library:" >&2
    echo "      CADENCE_SKIP_BUILD=1 CADENCE_LIBRARY=/path/to/libcadence.so scripts/demo.sh" >&2
    exit 1
  }
  set +e
  swift build -c release --product cadence 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]'
  status=${PIPESTATUS[0]}
  set -e
  [ "$status" -eq 0 ] || { echo "demo: swift build failed (status $status)" >&2; exit 1; }
  test -f .build/release/libcadence.so || { echo "demo: the build did not produce .build/release/libcadence.so" >&2; exit 1; }
  scripts/link_soname.sh .build/release   # libcadence.so.1 -> libcadence.so, for C hosts linked against the build
  export CADENCE_LIBRARY="$ROOT/.build/release/libcadence.so"   # the library just built
else
  if [ -z "${CADENCE_LIBRARY:-}" ] && [ -f .build/release/libcadence.so ]; then
    export CADENCE_LIBRARY="$ROOT/.build/release/libcadence.so"
  fi
  echo "demo: CADENCE_SKIP_BUILD=1, using ${CADENCE_LIBRARY:-the library the binding finds}"
fi

step "install the Python binding (pip install ./bindings/python into $PYTHON)"
"$PYTHON" -m pip install -q --disable-pip-version-check ./bindings/python

step "play the examples (examples/demo/demo.py)"
OUT="${DEMO_OUT:-out/demo}"
"$PYTHON" examples/demo/demo.py --out "$OUT" "$@"

printf '\ndemo: done in %ss. Open %s/demo.gif (all scenes) or the PNG frames in %s/frames/.\n' \
  "$(( $(date +%s) - start ))" "$OUT" "$OUT"
if [ "$CADENCE_VENV" = 1 ]; then
  echo "demo: cadence and the demo's packages are in .venv/ (python3 refuses pip installs): use .venv/bin/python, or '. .venv/bin/activate'"
fi
