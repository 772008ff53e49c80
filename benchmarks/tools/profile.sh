#!/bin/sh
# benchmarks/tools/profile.sh - callgrind profile of the measured frames of one scene.
#
#   benchmarks/tools/profile.sh [A|B|C] [layers] [frames]     (default: A 10000 5)
#
# Builds benchmarks/c (LIBDIR as for run.sh, default the repo's .build/release),
# runs the scene under valgrind --tool=callgrind collecting only inside
# cad_engine_tick and cad_engine_render_list (plus cad_layer_set for scene C),
# and prints the top functions by inclusive and self cost, demangled.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH=$(dirname "$HERE")
REPO=$(dirname "$BENCH")
SCENE=${1:-A}
LAYERS=${2:-10000}
FRAMES=${3:-5}
LIBDIR=${LIBDIR:-$REPO/.build/release}
OUT="$BENCH/build"
mkdir -p "$OUT"
make -s -C "$BENCH/c" LIBDIR="$LIBDIR" BUILDDIR="$OUT/c" >&2
case "$SCENE" in
  A) LFLAG="--layers-a" ;;
  B) LFLAG="--layers-b" ;;
  C) LFLAG="--layers-c" ;;
  *) echo "profile.sh: scene A, B or C" >&2; exit 2 ;;
esac
EXTRA=""
[ "$SCENE" = C ] && EXTRA="--toggle-collect=cad_layer_set"
valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.$SCENE.out" --collect-atstart=no \
  --toggle-collect=cad_engine_tick --toggle-collect=cad_engine_render_list $EXTRA \
  "$OUT/c/bench" --scene "$SCENE" "$LFLAG" "$LAYERS" --warmup 3 --frames "$FRAMES" --quiet || true
python3 "$HERE/callgrind_top.py" "$OUT/callgrind.$SCENE.out" -n 15
