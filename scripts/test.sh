#!/usr/bin/env bash
# Runs every test: header drift check, Swift core tests, ABI export check,
# C tests (gcc and clang, C99 and C++17, install/pkg-config/CMake),
# Python tests through the installed package, and the reliability checks
# that fit in CI. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
step() { printf '\n==== %s ====\n' "$*"; }

step "set-up"
scripts/setup.sh
# shellcheck source=python_env.sh
. scripts/python_env.sh   # PYTHON: python3, or the .venv setup.sh made for a PEP 668 system Python
cadence_python_ready test

step "header and binding tables are up to date (scripts/gen_header.py --check)"
"$PYTHON" scripts/gen_header.py --check

# the spec ships as docs/spec/, a verbatim copy; a clean clone has no ../shared/spec to compare
if compgen -G "../shared/spec/*.md" >/dev/null; then
  step "docs/spec/ is a verbatim copy of ../shared/spec/"
  for f in ../shared/spec/*.md; do
    cmp -s "$f" "docs/spec/${f##*/}" ||
      { echo "test: docs/spec/${f##*/} differs from $f: copy it (cp $f docs/spec/)" >&2; exit 1; }
  done
fi

step "build libcadence.so (release)"
swift build -c release --product cadence 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' || true
test -f .build/release/libcadence.so
# hosts linked against the build dir record DT_NEEDED libcadence.so.1 (the SONAME)
scripts/link_soname.sh .build/release
LIB="$ROOT/.build/release/libcadence.so"

step "exported symbols match the header; library is self-contained"
"$PYTHON" scripts/check_abi.py "$LIB"

step "Swift tests"
swift test 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]|^Test Case .* (started|passed)|^◇|^↳' | tail -n 30
test "${PIPESTATUS[0]}" -eq 0

step "C tests"
make -s -C bindings/c test LIBDIR="$ROOT/.build/release" INCDIR="$ROOT/include"

step "Python tests"
# into $PYTHON only: the .venv when python3 refuses pip installs, never the python3 around it
"$PYTHON" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps ./bindings/python
( cd /tmp && CADENCE_LIBRARY="$LIB" "$PYTHON" -m pytest -q -p no:cacheprovider "$ROOT/bindings/python/tests" )

step "render-loop hosts: SDL2 (C) and pygame (Python) screenshots, demo and docs snippets"
make -s -C examples/sdl test LIBDIR="$ROOT/.build/release" INCDIR="$ROOT/include"
( cd /tmp && CADENCE_LIBRARY="$LIB" "$PYTHON" -m pytest -q -p no:cacheprovider "$ROOT/examples/pygame" "$ROOT/examples/demo" )

if [ -x scripts/reliability.sh ]; then
  step "reliability (fast set)"
  scripts/reliability.sh --ci
fi

printf '\nall tests passed\n'
