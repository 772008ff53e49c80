#!/bin/sh
# benchmarks/run.sh - builds and runs every Cadence benchmark, then writes
# benchmarks/results.json, docs/performance.md and docs/img/scaling.png.
#
#   benchmarks/run.sh [--quick]
#
# Environment:
#   LIBDIR=/dir        use the libcadence.so in /dir (no Swift build)
#   SWIFT_SCRATCH=/dir build with `swift build --scratch-path /dir` (default: the repo's .build)
#   BENCH_CPU=1        the CPU to pin to with taskset (default 1; BENCH_CPU= to not pin)
#   SKIP_PYTHON=1      skip the Python-host benchmark
#   CHECK_REFERENCE=1  also cross-check the timing-function reference against mpmath (slow)
#
# Exit status: 0 = done, no heap allocation in any measured frame; 1 = some
# measured frame allocated (the scenes are named on stderr; the documents are
# still written); 2 = a build or a benchmark failed. Ratios that miss their goal
# are reported as FAIL in docs/performance.md and do not change the exit status.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
OUT="$HERE/build"
QUICK=""
for a in "$@"; do
  case "$a" in
    --quick) QUICK="--quick" ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
mkdir -p "$OUT"
# numpy and matplotlib live in python3, or in the checkout's .venv where python3
# refuses pip installs (PEP 668; scripts/python_env.sh, made by scripts/setup.sh)
PYTHON=$(cd "$REPO" && . scripts/python_env.sh && printf '%s' "$PYTHON")
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3

# ---- the library ----------------------------------------------------------------
if [ -z "${LIBDIR:-}" ]; then
  echo "== swift build -c release --product cadence" >&2
  if [ -n "${SWIFT_SCRATCH:-}" ]; then
    (cd "$REPO" && swift build -c release --product cadence --scratch-path "$SWIFT_SCRATCH") || exit 2
    LIBDIR="$SWIFT_SCRATCH/release"
  else
    (cd "$REPO" && swift build -c release --product cadence) || exit 2
    LIBDIR="$REPO/.build/release"
  fi
  # hosts linked against the build dir record DT_NEEDED libcadence.so.1 (the SONAME)
  sh "$REPO/scripts/link_soname.sh" "$LIBDIR" || exit 2
fi
LIBDIR=$(cd "$LIBDIR" && pwd -P) || exit 2
[ -f "$LIBDIR/libcadence.so" ] || { echo "run.sh: no libcadence.so in $LIBDIR" >&2; exit 2; }
echo "== library: $LIBDIR/libcadence.so" >&2

# ---- pinning ----------------------------------------------------------------------
PIN=""
CPU="${BENCH_CPU-1}"
if [ -n "$CPU" ] && command -v taskset >/dev/null 2>&1; then
  if taskset -c "$CPU" true 2>/dev/null; then PIN="taskset -c $CPU"; else CPU=""; fi
else
  CPU=""
fi
echo "== pinned to: ${CPU:-not pinned}" >&2
LOADAVG=$(cat /proc/loadavg 2>/dev/null || echo "")

# ---- C benchmarks ------------------------------------------------------------------
make -s -C "$HERE/c" LIBDIR="$LIBDIR" BUILDDIR="$OUT/c" >&2 || exit 2

echo "== bench (scenes A, B, C, jitter, scaling)" >&2
$PIN "$OUT/c/bench" --scene all $QUICK --json "$OUT/c.json"
C_RC=$?
if [ $C_RC -ne 0 ] && [ $C_RC -ne 1 ]; then echo "run.sh: bench failed ($C_RC)" >&2; exit 2; fi

echo "== bezier_bench" >&2
$PIN "$OUT/c/bezier_bench" $QUICK --json "$OUT/bezier.json" --dump-reference "$OUT/bezier_reference.txt" || exit 2
if [ -n "${CHECK_REFERENCE:-}" ]; then
  "$PYTHON" "$HERE/tools/check_reference.py" "$OUT/bezier_reference.txt" || exit 2
fi

# ---- Python benchmark -------------------------------------------------------------
PY_JSON=""
if [ -z "${SKIP_PYTHON:-}" ]; then
  if "$PYTHON" -c "import numpy" 2>/dev/null; then
    echo "== python bench" >&2
    if $PIN "$PYTHON" "$HERE/python/bench.py" --libdir "$LIBDIR" $QUICK --build-dir "$OUT/python" --json "$OUT/python.json"; then
      PY_JSON="$OUT/python.json"
    else
      echo "run.sh: the Python benchmark failed (reported as not measured)" >&2
    fi
  else
    echo "run.sh: numpy missing, Python benchmark skipped (pip install numpy)" >&2
  fi
fi

# ---- report -----------------------------------------------------------------------
if ! "$PYTHON" -c "import matplotlib" 2>/dev/null; then
  echo "== installing matplotlib for the scaling plot" >&2
  "$PYTHON" -m pip install --quiet matplotlib >&2 || echo "run.sh: matplotlib unavailable, no plot" >&2
fi
"$PYTHON" "$HERE/report.py" --c "$OUT/c.json" --bezier "$OUT/bezier.json" ${PY_JSON:+--python "$PY_JSON"} \
  --results "$HERE/results.json" --doc "$REPO/docs/performance.md" --plot "$REPO/docs/img/scaling.png" \
  --libdir "$LIBDIR" --loadavg "$LOADAVG" --pinned "${CPU:-}" || exit 2

if [ $C_RC -eq 1 ]; then
  echo "run.sh: FAIL: heap allocations in measured frames (see above and docs/performance.md)" >&2
  exit 1
fi
exit 0
