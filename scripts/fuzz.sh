#!/usr/bin/env bash
# scripts/fuzz.sh - fuzz libcadence with libFuzzer (ASan + UBSan) for N minutes.
#
#   scripts/fuzz.sh [MINUTES]            fuzz for MINUTES (default 10; fractions allowed: 0.5)
#   scripts/fuzz.sh MINUTES --jobs N     N parallel fuzzing processes (libFuzzer -fork=N)
#   scripts/fuzz.sh --seconds S          fuzz for S seconds (what CI uses)
#   scripts/fuzz.sh --replay             only replay the corpus and the regressions
#   scripts/fuzz.sh --merge              merge what the work corpus found into fuzz/corpus
#                                        (minimised set; review and commit)
#   scripts/fuzz.sh --minimize FILE      minimise a crashing input and print its call trace
#
# It builds the ASan library and the fuzz target (tests/reliability/lib.sh),
# checks that the harness calls every function declared in include/cadence.h,
# replays fuzz/regressions/ (every past crash) and the seed corpus, then fuzzes
# from the seeds plus a work corpus kept in .build-reliability/fuzz-corpus (so
# successive runs build on each other). At the end it prints executions,
# executions per second, corpus size, and the crashes found (saved under
# .build-reliability/fuzz-artifacts/); it appends the figures to
# .build-reliability/fuzz-history.log. Exit status: 0 when no crash was found.
#
# A crash: minimise it (--minimize), copy the minimised input to
# fuzz/regressions/<name>.bin (it is then replayed by every run and by CI), and
# see docs/reliability.md for turning it into a C reproducer.
set -euo pipefail
# shellcheck source=../tests/reliability/lib.sh
. "$(dirname "$0")/../tests/reliability/lib.sh"
cd "$REL_ROOT"

minutes=10
seconds=""
jobs=1
mode=fuzz
target=""
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs=$2; shift ;;
    --seconds) seconds=$2; shift ;;
    --replay) mode=replay ;;
    --merge) mode=merge ;;
    --minimize) mode=minimize; target=$2; shift ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    [0-9]*) minutes=$1 ;;
    *) rel_die "unknown argument $1" ;;
  esac
  shift
done
[ -n "$seconds" ] || seconds=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')

FUZZER="$REL_OUT/cadence_fuzz"
WORK="$REL_OUT/fuzz-corpus"
ART="$REL_OUT/fuzz-artifacts"
mkdir -p "$WORK" "$ART"

# ---- every exported function is exercised ----------------------------------
check_api_coverage() {
  local missing=()
  local fn
  for fn in $(grep -oE '\bcad_[a-z0-9_]+\(' include/cadence.h | tr -d '(' | sort -u); do
    grep -qE "\b$fn\b" fuzz/cadence_fuzz.c || missing+=("$fn")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    rel_log "the fuzz harness never calls: ${missing[*]}"
    rel_log "add them to fuzz/cadence_fuzz.c"
    return 1
  fi
  rel_log "fuzz harness covers all $(grep -oE '\bcad_[a-z0-9_]+\(' include/cadence.h | sort -u | wc -l) functions of include/cadence.h"
}

build() {
  rel_log "building the ASan library (log: $REL_OUT/build-asan.log)"
  rel_build_lib asan
  local lib
  lib="$(rel_libdir asan)"
  rel_log "building the fuzz target"
  rel_cc "$FUZZER" fuzzer,address,undefined "$lib" fuzz/cadence_fuzz.c
}

# Replays the committed inputs; any crash fails.
replay() {
  # Regressions whose engine bug is still open (known_failures.txt) are left out.
  mkdir -p "$REL_OUT/regressions-bin"
  rm -f "$REL_OUT/regressions-bin/"*
  local f
  for f in fuzz/regressions/*.bin; do
    [ -e "$f" ] || continue
    rel_known "regression.$(basename "$f" .bin)" && continue
    cp "$f" "$REL_OUT/regressions-bin/"
  done
  rel_log "replaying fuzz/corpus and fuzz/regressions"
  "$FUZZER" -runs=0 -timeout=60 -rss_limit_mb=4096 fuzz/corpus "$REL_OUT/regressions-bin" >"$REL_OUT/fuzz-replay.log" 2>&1 || {
    tail -n 60 "$REL_OUT/fuzz-replay.log" >&2
    rel_die "a committed fuzz input crashes (log: $REL_OUT/fuzz-replay.log)"
  }
  rel_api_coverage "$FUZZER" fuzz/corpus >&2 || rel_die "the corpus does not reach every function"
}

fuzz() {
  local log="$REL_OUT/fuzz-run.log" before_art after_art start end status=0
  before_art=$(find "$ART" -type f ! -name 'slow-unit-*' | wc -l)
  local before_slow
  before_slow=$(find "$ART" -type f -name 'slow-unit-*' | wc -l)
  local before_corpus
  before_corpus=$(find "$WORK" -type f | wc -l)
  # Fork mode, even with one job: a crash is saved and fuzzing goes on.
  local args=(-max_total_time="$seconds" -print_final_stats=1 -timeout=25 -rss_limit_mb=4096
              -artifact_prefix="$ART/" -dict=fuzz/cadence.dict -max_len=4096
              -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  rel_log "fuzzing for ${seconds}s with $jobs process(es) (log: $log)"
  start=$(date +%s)
  "$FUZZER" "${args[@]}" "$WORK" fuzz/corpus >"$log" 2>&1 || status=$?
  end=$(date +%s)
  after_art=$(find "$ART" -type f ! -name 'slow-unit-*' | wc -l)
  local slow=$(( $(find "$ART" -type f -name 'slow-unit-*' | wc -l) - before_slow ))
  local execs rate corpus newc
  # fork mode: the last status line "#N: cov: ... oom/timeout/crash: a/b/c ..."
  execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  [ -n "$execs" ] || execs=0
  rate=$(( execs / ( (end - start) > 0 ? (end - start) : 1 ) ))
  corpus=$(find "$WORK" -type f | wc -l)
  newc=$(( corpus - before_corpus ))
  local crashes=$(( after_art - before_art ))
  local kinds
  kinds=$( (grep -oE 'oom/timeout/crash: [0-9]+/[0-9]+/[0-9]+' "$log" || true) | tail -1 | awk '{print $2}')
  [ -n "$kinds" ] || kinds="0/0/0"
  local line
  line="$(date -u +%Y-%m-%dT%H:%M:%SZ) seconds=$((end - start)) jobs=$jobs executions=$execs exec_per_s=$rate corpus=$corpus new_units=$newc artifacts=$crashes slow_inputs=$slow oom/timeout/crash=$kinds status=$status known_bugs_ignored=${CADENCE_FUZZ_IGNORE:-none}"
  echo "$line" >> "$REL_OUT/fuzz-history.log"
  echo "$line" > "$REL_OUT/fuzz-last-run.txt"
  printf '\nfuzz: %ss, %s executions (%s/s), corpus %s files (+%s), new crash/timeout/oom inputs: %s (oom/timeout/crash %s)\n' \
    "$((end - start))" "$execs" "$rate" "$corpus" "$newc" "$crashes" "$kinds"
  if [ "$slow" -gt 0 ]; then
    rel_log "$slow input(s) ran longer than 10 s (a hang in the making? time them):"
    find "$ART" -type f -name 'slow-unit-*' -newermt "@$start" -printf '  slow input: %p\n' >&2
  fi
  if [ "$crashes" -gt 0 ] || [ "$status" -ne 0 ]; then
    grep -E "ERROR|SUMMARY|oracle violation|Test unit written|deadly signal|ALARM" "$log" | sort | uniq -c | sort -rn | head -20 >&2 || true
    find "$ART" -type f ! -name 'slow-unit-*' -newermt "@$start" -printf '  crash input: %p\n' >&2
    rel_log "minimise with: scripts/fuzz.sh --minimize <crash input>"
    return 1
  fi
}

# Adds to fuzz/corpus the smallest set of work-corpus inputs that covers the
# edges it does not (edge coverage only: -use_counters=0 keeps the set small;
# ~1000 files of ~250 bytes cover what 5000 do with counters).
merge() {
  local tmp="$REL_OUT/merge-corpus"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  cp fuzz/corpus/* "$tmp/"
  "$FUZZER" -merge=1 -use_counters=0 -timeout=60 -rss_limit_mb=4096 -artifact_prefix="$ART/" "$tmp" "$WORK" \
    >"$REL_OUT/fuzz-merge.log" 2>&1
  local added=0 f
  for f in "$tmp"/*; do
    [ -e "fuzz/corpus/$(basename "$f")" ] && continue
    cp "$f" fuzz/corpus/
    added=$((added + 1))
  done
  rel_log "merged $added input(s) into fuzz/corpus ($(ls fuzz/corpus | wc -l) files)"
}

minimize() {
  [ -f "$target" ] || rel_die "no such file: $target"
  local out="$REL_OUT/minimized-$(basename "$target")"
  # every oracle on: the input may be about a bug that is listed as known
  CADENCE_FUZZ_IGNORE="" "$FUZZER" -minimize_crash=1 -max_total_time=120 -exact_artifact_path="$out" "$target" \
    >"$REL_OUT/fuzz-minimize.log" 2>&1 || true
  [ -f "$out" ] || out="$target"
  rel_log "minimised input: $out ($(wc -c < "$out") bytes); its calls:"
  CADENCE_FUZZ_IGNORE="" CADENCE_FUZZ_TRACE=1 "$FUZZER" -runs=1 -artifact_prefix="$ART/" "$out" 2>&1 | tail -n 120
}

check_api_coverage
build
case "$mode" in
  replay) replay ;;
  merge) merge ;;
  minimize) minimize ;;
  fuzz) replay; fuzz ;;
esac
