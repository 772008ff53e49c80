#!/usr/bin/env bash
# scripts/reliability.sh - the reliability checks of Cadence (docs/reliability.md).
#
#   scripts/reliability.sh --ci        the fast set (scripts/test.sh runs it): ~3-4 min on 2 cores
#   scripts/reliability.sh             the long set (tens of minutes)
#   scripts/reliability.sh --only NAME[,NAME...]   some steps only (names below)
#   scripts/reliability.sh --list      the steps
#
# Steps (each prints PASS/FAIL and its time; the run fails if any failed):
#   build       sanitized libraries (ASan+coverage, TSan) and the test binaries
#   regressions every input in fuzz/regressions/ through the fuzz target (ASan+UBSan),
#               every C reproducer fuzz/regressions/*.c built and run under ASan+UBSan
#   fuzz        libFuzzer on the corpus for a fixed time (CI 60 s, long 10 min)
#   asan-tests  the reliability tests (determinism, numbers, host) and the C unit
#               tests of bindings/c under ASan+UBSan (+ the Swift tests, long set)
#   threads     tests/reliability/thread_stress.c and the C unit tests under
#               ThreadSanitizer (+ the Swift tests under TSan, long set)
#   memory      tests/reliability/memory_churn.c and frame_allocs.c (no heap allocation in
#               warm frames with callbacks and nested ticks) (release library)
#   numbers     tests/reliability/numeric_props.c (release library)
#   determinism tests/reliability/determinism.c, twice in two processes; outputs compared
#   valgrind    valgrind memcheck on tests/reliability/host_smoke.c and the C example host
#
# Known engine bugs (checks that fail until the engine is fixed) are listed in
# tests/reliability/known_failures.txt: they report XFAIL and do not fail the run.
# The figures of the run go to .build-reliability/last-run.txt.
set -uo pipefail
# shellcheck source=../tests/reliability/lib.sh
. "$(dirname "$0")/../tests/reliability/lib.sh"
cd "$REL_ROOT"
# shellcheck source=python_env.sh
. scripts/python_env.sh   # PYTHON: python3, or the .venv setup.sh made for a PEP 668 system Python
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3   # no .venv yet: make_seeds.py needs only the stdlib

ci=0
only=""
ALL_STEPS="build regressions fuzz asan-tests threads memory numbers determinism valgrind"
while [ $# -gt 0 ]; do
  case "$1" in
    --ci) ci=1 ;;
    --only) only=",$2,"; shift ;;
    --list) echo "$ALL_STEPS"; exit 0 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) rel_die "unknown argument $1" ;;
  esac
  shift
done

# Sizes of the fast (CI) and long sets.
if [ "$ci" = 1 ]; then
  FUZZ_SECONDS=${FUZZ_SECONDS:-60}
  STRESS_OPS=3000 STRESS_THREADS=4 STRESS_ENGINES=4 STRESS_STEPS=150
  MEMORY_SCALE=1
  NUMERIC_SEEDS=24 NUMERIC_STEPS=200
  DET_SEEDS=12 DET_STEPS=300
else
  FUZZ_SECONDS=${FUZZ_SECONDS:-600}
  STRESS_OPS=50000 STRESS_THREADS=8 STRESS_ENGINES=8 STRESS_STEPS=1000
  MEMORY_SCALE=1
  NUMERIC_SEEDS=256 NUMERIC_STEPS=500
  DET_SEEDS=64 DET_STEPS=1000
fi

BIN="$REL_OUT/bin"
mkdir -p "$BIN"
SUMMARY="$REL_OUT/last-run.txt"
: > "$SUMMARY.tmp"
failed=()
T0=$(date +%s)

# (the build step always runs: it builds what the selected steps need)
want() { [ -z "$only" ] || [ "$1" = build ] || [[ "$only" == *",$1,"* ]]; }

# run_step NAME FUNCTION: runs it, records PASS/FAIL and the time.
run_step() {
  local name=$1 fn=$2 start end status
  want "$name" || return 0
  printf '\n---- reliability: %s ----\n' "$name"
  start=$(date +%s)
  "$fn"
  status=$?
  end=$(date +%s)
  if [ "$status" -eq 0 ]; then
    printf -- '---- %s: PASS (%ss)\n' "$name" "$((end - start))"
    echo "$name PASS $((end - start))s" >> "$SUMMARY.tmp"
  else
    printf -- '---- %s: FAIL (%ss)\n' "$name" "$((end - start))"
    echo "$name FAIL $((end - start))s" >> "$SUMMARY.tmp"
    failed+=("$name")
  fi
}

REL_TESTS=(determinism numeric_props host_smoke thread_stress memory_churn)

# ---- build ------------------------------------------------------------------
ASAN_LIB="" TSAN_LIB="" REL_LIB=""
step_build() {
  local pids=() st=0
  # The two sanitized builds are mostly latency-bound: run them side by side.
  rel_log "building the ASan and TSan libraries (logs in $REL_OUT)"
  rel_snapshot >/dev/null
  rel_snapshot_tsan >/dev/null
  export REL_SNAPSHOT_READY=1
  if want regressions || want fuzz || want asan-tests; then (rel_build_lib asan) & pids+=($!); fi
  if want threads; then (rel_build_lib tsan) & pids+=($!); fi
  local p
  for p in "${pids[@]}"; do wait "$p" || st=1; done
  [ "$st" -eq 0 ] || return 1
  if want memory || want numbers || want determinism || want valgrind; then
    REL_LIB="$(rel_release_libdir)" || return 1
    rel_log "release library: $REL_LIB/libcadence.so"
  fi
  ASAN_LIB="$(rel_libdir asan)"
  TSAN_LIB="$(rel_libdir tsan)"
  local t
  if want regressions || want fuzz; then
    rel_cc "$BIN/cadence_fuzz" fuzzer,address,undefined "$ASAN_LIB" fuzz/cadence_fuzz.c || return 1
    rel_cc "$BIN/cadence_replay" address,undefined "$ASAN_LIB" fuzz/cadence_fuzz.c fuzz/replay_main.c || return 1
  fi
  if want asan-tests; then
    for t in determinism numeric_props host_smoke; do
      rel_cc "$BIN/${t}_asan" address,undefined "$ASAN_LIB" "tests/reliability/$t.c" || return 1
    done
  fi
  if want threads; then
    rel_cc "$BIN/thread_stress_tsan" thread "$TSAN_LIB" tests/reliability/thread_stress.c || return 1
  fi
  if [ -n "$REL_LIB" ]; then
    for t in "${REL_TESTS[@]}"; do
      rel_cc "$BIN/$t" "" "$REL_LIB" "tests/reliability/$t.c" || return 1
    done
    rel_cc "$BIN/frame_allocs" "" "$REL_LIB" tests/reliability/frame_allocs.c benchmarks/c/alloc_count.c -ldl || return 1
  fi
}

# ---- regressions ----------------------------------------------------------------
step_regressions() {
  local st=0 f n=0
  # The harness must call every function of the header.
  local missing=()
  for f in $(grep -oE '\bcad_[a-z0-9_]+\(' include/cadence.h | tr -d '(' | sort -u); do
    grep -qE "\b$f\b" fuzz/cadence_fuzz.c || missing+=("$f")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "the fuzz harness never calls: ${missing[*]}"
    st=1
  fi
  # Seeds up to date with the harness's encoding.
  "$PYTHON" fuzz/make_seeds.py --check || { echo "fuzz/corpus/seed-* are out of date: python3 fuzz/make_seeds.py"; st=1; }
  # Every committed input, through the replay driver (ASan+UBSan, no libFuzzer).
  "$BIN/cadence_replay" fuzz/corpus || st=1
  # ... and they execute every function of the header (libFuzzer's coverage report).
  rel_api_coverage "$BIN/cadence_fuzz" fuzz/corpus || st=1
  for f in fuzz/regressions/*.bin; do
    [ -e "$f" ] || continue
    local check="regression.$(basename "$f" .bin)"
    # every oracle on: the bug of this input must show while it is listed as known
    if CADENCE_FUZZ_IGNORE="" "$BIN/cadence_replay" "$f" >"$BIN/replay.log" 2>&1; then
      if rel_known "$check"; then echo "XPASS $f (delete $check from known_failures.txt)"; else echo "PASS  $f"; fi
    elif rel_known "$check"; then
      echo "XFAIL $f (known engine bug: $check)"
    else
      echo "FAIL  $f"; tail -n 40 "$BIN/replay.log"; st=1
    fi
  done
  # C reproducers.
  for f in fuzz/regressions/*.c; do
    [ -e "$f" ] || continue
    n=$((n + 1))
    local exe="$BIN/regression_$(basename "$f" .c)"
    if ! rel_cc "$exe" address,undefined "$ASAN_LIB" "$f"; then st=1; continue; fi
    local check="regression.$(basename "$f" .c)"
    # (abort_on_error=0: a report exits with status 1 instead of SIGABRT)
    if ASAN_OPTIONS="${ASAN_OPTIONS/abort_on_error=1/abort_on_error=0}" "$exe" >"$exe.log" 2>&1; then
      if rel_known "$check"; then echo "XPASS $f (delete $check from known_failures.txt)"; else echo "PASS  $f"; fi
    elif rel_known "$check"; then
      echo "XFAIL $f (known engine bug: $check)"
    else
      echo "FAIL  $f"; tail -n 40 "$exe.log"; st=1
    fi
  done
  echo "regressions: $(ls fuzz/regressions/*.bin 2>/dev/null | wc -l) input(s), $n C reproducer(s), $(ls fuzz/corpus | wc -l) corpus inputs"
  return $st
}

# ---- fuzz ---------------------------------------------------------------------
step_fuzz() {
  local work="$REL_OUT/fuzz-ci-corpus" art="$REL_OUT/fuzz-artifacts" log="$REL_OUT/fuzz-ci.log" st=0
  rm -rf "$work"
  mkdir -p "$work" "$art"
  local start end
  start=$(date +%s)
  "$BIN/cadence_fuzz" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 -timeout=25 -rss_limit_mb=4096 \
    -artifact_prefix="$art/" -dict=fuzz/cadence.dict -max_len=4096 "$work" fuzz/corpus >"$log" 2>&1 || st=$?
  end=$(date +%s)
  local execs
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  echo "fuzz: ${FUZZ_SECONDS}s, $execs executions, corpus $(ls "$work" | wc -l) files"
  echo "fuzz executions=$execs seconds=$((end - start))" >> "$SUMMARY.tmp"
  if [ "$st" -ne 0 ]; then
    grep -E "ERROR|SUMMARY|oracle violation|Test unit written|deadly signal" "$log" | head -20
    tail -n 60 "$log"
    echo "crash input saved under $art; minimise it with scripts/fuzz.sh --minimize <file>"
  fi
  return $st
}

# ---- sanitizer runs of the test suites -----------------------------------------------

# run_c_unit_tests NAME LIBDIR FLAGS: the C unit tests of bindings/c, built by the
# toolchain's clang with FLAGS against LIBDIR. A failing test listed in
# known_failures.txt as c-NAME:<feature/test> is reported XFAIL.
run_c_unit_tests() {
  local name=$1 lib=$2 flags=$3 clog="$REL_OUT/c-tests-$1.log"
  [ -f bindings/c/Makefile ] || return 0
  if make -s -C bindings/c unit MODES=clang RUN_MODES=clang LIBDIR="$lib" BUILDDIR="$REL_OUT/c-tests-$name" \
       CC_CLANG="$REL_CLANG -fuse-ld=lld -Wno-unused-command-line-argument $flags" >"$clog" 2>&1; then
    echo "C unit tests under $name: $(grep -oE 'TOTAL .*' "$clog" | tail -1)"
    return 0
  fi
  local t unknown=0
  for t in $(grep -oE '^\[clang\] FAIL +[^ ]+' "$clog" | awk '{print $3}' | sort -u); do
    if rel_known "c-$name:$t"; then
      echo "XFAIL C unit test under $name: $t (known, see known_failures.txt)"
    else
      echo "FAIL  C unit test under $name: $t"
      unknown=1
    fi
  done
  if [ "$unknown" = 1 ] || ! grep -qE '^\[clang\] FAIL' "$clog"; then
    grep -vE '^\[clang\] ok ' "$clog" | tail -n 60
    return 1
  fi
  echo "C unit tests under $name: $(grep -oE 'TOTAL .*' "$clog" | tail -1) (the failures are known)"
}
step_asan_tests() {
  local st=0
  "$BIN/determinism_asan" 4 200 >/dev/null || st=1
  "$BIN/numeric_props_asan" 8 150 || st=1
  "$BIN/host_smoke_asan" || st=1
  # The C unit tests of bindings/c, built with clang + ASan/UBSan against the ASan library.
  run_c_unit_tests asan "$ASAN_LIB" "-fsanitize=address,undefined -fno-sanitize-recover=undefined" || st=1
  if [ "$ci" = 0 ]; then
    # The Swift tests under ASan (own scratch path: never .build).
    local snap
    snap="$(rel_snapshot)"
    # (detect_leaks=0: XCTest itself leaks at exit; leaks are checked by the C tests,
    #  the fuzzer and valgrind. SWIFT_BACKTRACE off: its crash handler can spin after a report.)
    (cd "$snap" && ASAN_OPTIONS="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}" SWIFT_BACKTRACE=enable=no \
       swift test --scratch-path "$REL_BUILD/.build-asan-tests" --sanitize=address) \
      >"$REL_OUT/swift-test-asan.log" 2>&1 || { tail -n 40 "$REL_OUT/swift-test-asan.log"; st=1; }
    grep -E "Executed .* tests|Test run with" "$REL_OUT/swift-test-asan.log" | tail -3
  fi
  return $st
}

step_threads() {
  local st=0
  CADENCE_STRESS_ENGINES=$STRESS_ENGINES CADENCE_STRESS_SCENE_STEPS=$STRESS_STEPS \
    "$BIN/thread_stress_tsan" "$STRESS_OPS" "$STRESS_THREADS" || st=1
  # The C unit tests of bindings/c (their "threads" feature included) under TSan.
  local sl="$SWIFT_BIN/../lib/swift/linux"
  run_c_unit_tests tsan "$TSAN_LIB" "-fsanitize=thread -L$sl -Wl,-rpath,$sl -ldispatch -lBlocksRuntime" || st=1
  if [ "$ci" = 0 ]; then
    local snap
    snap="$(rel_snapshot)"
    (cd "$snap" && SWIFT_BACKTRACE=enable=no swift test --scratch-path "$REL_BUILD/.build-tsan-tests" --sanitize=thread) \
      >"$REL_OUT/swift-test-tsan.log" 2>&1 || { tail -n 40 "$REL_OUT/swift-test-tsan.log"; st=1; }
    grep -E "Executed .* tests|Test run with" "$REL_OUT/swift-test-tsan.log" | tail -3
    # and the uninstrumented build with more operations (timing differs from TSan's)
    "$BIN/thread_stress" $((STRESS_OPS * 4)) "$STRESS_THREADS" || st=1
  fi
  return $st
}

step_memory() { "$BIN/memory_churn" "$MEMORY_SCALE" && "$BIN/frame_allocs"; }

step_numbers() { "$BIN/numeric_props" "$NUMERIC_SEEDS" "$NUMERIC_STEPS"; }

step_determinism() {
  local a="$REL_OUT/determinism-1.txt" b="$REL_OUT/determinism-2.txt"
  "$BIN/determinism" "$DET_SEEDS" "$DET_STEPS" >"$a" || return 1
  # a second process: different address-space layout, different allocation history
  MALLOC_PERTURB_=165 "$BIN/determinism" "$DET_SEEDS" "$DET_STEPS" >"$b" || return 1
  if ! cmp -s "$a" "$b"; then
    echo "determinism: two runs of the same scenes differ:"
    diff "$a" "$b" | head -20
    return 1
  fi
  echo "determinism: two processes gave identical hashes ($(tail -1 "$a"))"
}

step_valgrind() {
  if ! command -v valgrind >/dev/null; then echo "valgrind is not installed"; return 1; fi
  # Every leak kind a host's default valgrind counts (definite, indirect,
  # possible), with the suppressions Cadence ships for hosts: only the Swift
  # runtime's metadata caches, which memcheck reaches through interior
  # pointers ("possible").
  local st=0 vg=(valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible
                 --show-leak-kinds=definite,indirect,possible --suppressions="$REL_ROOT/bindings/c/valgrind/cadence.supp"
                 --track-origins=yes --quiet)
  "${vg[@]}" "$BIN/host_smoke" || st=1
  # The C example host of bindings/c, when it is a real one.
  if [ -f bindings/c/examples/host.c ] && [ "$(wc -l < bindings/c/examples/host.c)" -gt 5 ]; then
    if cc -std=c99 -O1 -g -Iinclude bindings/c/examples/host.c -L"$REL_LIB" -Wl,-rpath,"$REL_LIB" -lcadence -lm \
         -o "$BIN/example_host" 2>"$BIN/example_host.log"; then
      (cd "$BIN" && "${vg[@]}" ./example_host >/dev/null) && echo "valgrind: bindings/c/examples/host.c clean" || st=1
    else
      echo "bindings/c/examples/host.c does not build on its own (see $BIN/example_host.log); skipped"
    fi
  else
    echo "bindings/c/examples/host.c is absent or a stub: only host_smoke checked"
  fi
  if [ "$ci" = 0 ]; then
    "${vg[@]}" "$BIN/determinism" 2 200 >/dev/null || st=1
  fi
  [ $st -eq 0 ] && echo "valgrind memcheck: no errors, no definite, indirect or possible leaks (bindings/c/valgrind/cadence.supp)"
  return $st
}

run_step build step_build
if [ ${#failed[@]} -gt 0 ]; then
  rel_log "build failed: nothing else can run"
else
  run_step regressions step_regressions
  run_step fuzz step_fuzz
  run_step asan-tests step_asan_tests
  run_step threads step_threads
  run_step memory step_memory
  run_step numbers step_numbers
  run_step determinism step_determinism
  run_step valgrind step_valgrind
fi

T1=$(date +%s)
{
  echo "reliability run $(date -u +%Y-%m-%dT%H:%M:%SZ) mode=$([ "$ci" = 1 ] && echo ci || echo long) total=$((T1 - T0))s"
  cat "$SUMMARY.tmp"
} > "$SUMMARY"
rm -f "$SUMMARY.tmp"
printf '\n==== reliability (%s set): %ss ====\n' "$([ "$ci" = 1 ] && echo fast || echo long)" "$((T1 - T0))"
sed 1d "$SUMMARY"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[*]}"
  exit 1
fi
echo "all reliability checks passed"
