# tests/reliability/lib.sh - build helpers shared by scripts/reliability.sh and
# scripts/fuzz.sh (sourced, bash).
#
# Sanitized builds of libcadence.so go to their own SwiftPM scratch paths
# under $REL_BUILD (never .build, which is the normal build's):
#   asan   release, -sanitize=address and libFuzzer coverage (inline 8-bit
#          counters, PC table, comparison tracing): for the fuzzer and the
#          ASan/UBSan runs of the tests (.build-asan-rel);
#   tsan   debug, -sanitize=thread: for the thread stress test;
#   rel    release, for memory, numbers, determinism and valgrind, only when
#          no up-to-date .build/release/libcadence.so exists (CADENCE_LIB
#          overrides).
# Swift has no UndefinedBehaviorSanitizer (its own checks trap on overflow and
# out-of-bounds access); UBSan instruments the C side (fuzz harness, tests).
#
# Builds run from a snapshot of Package.swift, Package.resolved, Sources and Tests in
# $REL_BUILD/.build-snapshot, refreshed file by file: edits made to the tree during a
# build cannot break it, and unchanged files keep their timestamps so SwiftPM
# rebuilds only what changed. Each configuration keeps one scratch path and
# one set of flags (SwiftPM does not rebuild dependencies when -Xswiftc flags
# change, so flags must never change under a scratch path).
#
# REL_BUILD defaults to the repository (.build-asan, .build-tsan, ... are
# git-ignored); when CI=true (the clean clone of .ci/run) it defaults to
# ~/.cache/cadence-reliability so that the dependencies are built once per
# machine, not once per run.

REL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if [ -z "${REL_BUILD:-}" ]; then
  if [ "${CI:-}" = "true" ]; then
    REL_BUILD="${XDG_CACHE_HOME:-$HOME/.cache}/cadence-reliability"
  else
    REL_BUILD="$REL_ROOT"
  fi
fi
mkdir -p "$REL_BUILD"
REL_OUT="$REL_BUILD/.build-reliability"   # test binaries, logs, fuzz work dirs
mkdir -p "$REL_OUT"

# The clang of the Swift toolchain: its sanitizer runtimes match swiftc's.
SWIFT_BIN="$(dirname "$(readlink -f "$(command -v swift)")")"
REL_CLANG="${REL_CLANG:-$SWIFT_BIN/clang}"
[ -x "$REL_CLANG" ] || REL_CLANG=clang
REL_TRIPLE="$(uname -m)-unknown-linux-gnu"

rel_log() { printf '[reliability] %s\n' "$*" >&2; }
rel_die() { printf '[reliability] error: %s\n' "$*" >&2; exit 1; }

# sync_tree SRC DST: DST becomes a copy of SRC; only differing files are copied.
sync_tree() {
  local src=$1 dst=$2 f
  mkdir -p "$dst"
  (cd "$src" && find . -type d) | while IFS= read -r f; do mkdir -p "$dst/$f"; done
  (cd "$src" && find . -type f) | while IFS= read -r f; do
    cmp -s "$src/$f" "$dst/$f" || cp -p "$src/$f" "$dst/$f"
  done
  # (ZZTSan*: the TSan build's own addition, see rel_snapshot_tsan)
  (cd "$dst" && find . -type f ! -name 'ZZTSan*') | while IFS= read -r f; do [ -e "$src/$f" ] || rm -f "$dst/$f"; done
}

rel_snapshot() {
  local snap="$REL_BUILD/.build-snapshot"
  mkdir -p "$snap"
  rel_snapshot_into "$snap"
  echo "$snap"
}

# The TSan build's snapshot: the same sources plus tests/reliability/tsan/MutexShim.swift
# (a pthread-based Mutex that shadows Synchronization.Mutex in CadenceABI; see that file).
rel_snapshot_tsan() {
  local snap="$REL_BUILD/.build-snapshot-tsan"
  mkdir -p "$snap"
  rel_snapshot_into "$snap"
  cmp -s "$REL_ROOT/tests/reliability/tsan/MutexShim.swift" "$snap/Sources/CadenceABI/ZZTSanMutexShim.swift" ||
    cp -p "$REL_ROOT/tests/reliability/tsan/MutexShim.swift" "$snap/Sources/CadenceABI/ZZTSanMutexShim.swift"
  echo "$snap"
}

rel_snapshot_into() {
  local snap=$1
  sync_tree "$REL_ROOT/Sources" "$snap/Sources"
  # Package.swift declares the test target too: its sources must exist.
  [ -d "$REL_ROOT/Tests" ] && sync_tree "$REL_ROOT/Tests" "$snap/Tests"
  local f
  for f in Package.swift Package.resolved; do
    [ -f "$REL_ROOT/$f" ] || continue
    cmp -s "$REL_ROOT/$f" "$snap/$f" || cp -p "$REL_ROOT/$f" "$snap/$f"
  done
}

# Each configuration: its scratch directory, build mode and flags. Never change
# the flags of a scratch directory (name a new one instead).
rel_scratch() {
  case "$1" in
    asan) echo "$REL_BUILD/.build-asan-rel" ;;
    *) echo "$REL_BUILD/.build-$1" ;;
  esac
}
rel_mode() { case "$1" in tsan) echo debug ;; *) echo release ;; esac; }
rel_flags() {
  case "$1" in
    # release: the fuzzer runs ~10x faster than on a debug build (bounds and
    # overflow checks stay on in Swift's -O)
    asan) echo "-c release -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -g" ;;
    tsan) echo "-c debug -Xswiftc -sanitize=thread -Xswiftc -g" ;;
    rel)  echo "-c release" ;;
    *) rel_die "unknown configuration $1" ;;
  esac
}

rel_libdir() { echo "$(rel_scratch "$1")/$REL_TRIPLE/$(rel_mode "$1")"; }

# rel_build_lib CFG: builds libcadence.so for CFG; prints nothing, logs to $REL_OUT/build-CFG.log.
rel_build_lib() {
  local cfg=$1 snap log try
  # (REL_SNAPSHOT_READY=1: the caller refreshed it, e.g. before parallel builds)
  if [ "$cfg" = tsan ]; then snap="$REL_BUILD/.build-snapshot-tsan"; else snap="$REL_BUILD/.build-snapshot"; fi
  if [ "${REL_SNAPSHOT_READY:-0}" != 1 ]; then
    if [ "$cfg" = tsan ]; then rel_snapshot_tsan >/dev/null; else rel_snapshot >/dev/null; fi
  fi
  log="$REL_OUT/build-$cfg.log"
  for try in 1 2; do
    # shellcheck disable=SC2046
    if (cd "$snap" && swift build --product cadence --scratch-path "$(rel_scratch "$cfg")" $(rel_flags "$cfg")) >"$log" 2>&1; then
      [ -f "$(rel_libdir "$cfg")/libcadence.so" ] || rel_die "build $cfg: no libcadence.so (see $log)"
      # hosts linked with rel_cc record DT_NEEDED libcadence.so.1 (the SONAME)
      sh "$REL_ROOT/scripts/link_soname.sh" "$(rel_libdir "$cfg")" || rel_die "build $cfg: could not link the SONAME"
      return 0
    fi
    rel_log "build $cfg failed (attempt $try), see $log:"
    grep -E "error:" "$log" | head -5 >&2 || true
  done
  rel_die "could not build the $cfg library"
}

# The release library for the unsanitized tests: $CADENCE_LIB (through a
# private link directory: its own directory may not be ours to write), or the
# normal build's when it is newer than every source, or our own release build.
# The directory printed holds libcadence.so and its SONAME link.
rel_release_libdir() {
  if [ -n "${CADENCE_LIB:-}" ]; then
    sh "$REL_ROOT/scripts/link_soname.sh" "$CADENCE_LIB" "$REL_OUT/cadence-lib" || return 1
    echo "$REL_OUT/cadence-lib"
    return
  fi
  local lib="$REL_ROOT/.build/release/libcadence.so"
  if [ -f "$lib" ] && [ -z "$(find "$REL_ROOT/Sources" "$REL_ROOT/Package.swift" -newer "$lib" -print -quit)" ]; then
    sh "$REL_ROOT/scripts/link_soname.sh" "$(dirname "$(readlink -f "$lib")")" || return 1
    dirname "$(readlink -f "$lib")"
    return
  fi
  rel_build_lib rel
  rel_libdir rel
}

# rel_cc OUT SANITIZERS LIBDIR SOURCES... : compiles a C test or harness with
# the toolchain's clang against libcadence.so in LIBDIR (rpath), sanitizers
# given as a -fsanitize list ("" for none).
rel_cc() {
  local out=$1 san=$2 libdir=$3
  shift 3
  # (-gdwarf-4: valgrind 3.19 does not read clang 21's DWARF 5)
  local flags=(-std=gnu11 -g -gdwarf-4 -O1 -Wall -Wextra -Werror -fno-omit-frame-pointer -I"$REL_ROOT/include")
  [ -n "$san" ] && flags+=(-fsanitize="$san" -fno-sanitize-recover=undefined)
  local extra=()
  # The toolchain's TSan runtime carries libdispatch interceptors: link libdispatch and BlocksRuntime.
  if [[ "$san" == *thread* ]]; then
    local sl="$SWIFT_BIN/../lib/swift/linux"
    extra+=(-L"$sl" -Wl,-rpath,"$sl" -ldispatch -lBlocksRuntime)
  fi
  mkdir -p "$(dirname "$out")"
  "$REL_CLANG" -fuse-ld=lld "${flags[@]}" "$@" -L"$libdir" -Wl,-rpath,"$libdir" -lcadence "${extra[@]}" -lm -lpthread \
    -o "$out" 2> >(grep -v "Cannot export local symbol" >&2)
}

# Runtime options: abort on the first report, keep going otherwise as tests expect.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:history_size=4:suppressions=$REL_ROOT/tests/reliability/tsan/suppressions.txt}"
export CADENCE_KNOWN_FAILURES="$REL_ROOT/tests/reliability/known_failures.txt"
# Fuzz oracles switched off while their known engine bug is open ("fuzz-oracle:<id>" lines).
CADENCE_FUZZ_IGNORE="$( (grep -oE '^fuzz-oracle:[a-z0-9-]+' "$CADENCE_KNOWN_FAILURES" || true) | cut -d: -f2 | paste -sd, -)"
export CADENCE_FUZZ_IGNORE

# rel_known NAME: true if NAME is listed in known_failures.txt.
rel_known() { grep -qE "^$1([[:space:]]|\$)" "$CADENCE_KNOWN_FAILURES"; }

# rel_api_coverage FUZZER DIR...: runs the inputs once with libFuzzer's coverage
# report and lists the functions of include/cadence.h that no input executed.
rel_api_coverage() {
  local fuzzer=$1 log="$REL_OUT/api-coverage.log"
  shift
  "$fuzzer" -runs=0 -print_coverage=1 -timeout=60 -rss_limit_mb=4096 "$@" >"$log" 2>&1 || return 1
  local missing
  missing=$(comm -23 <(grep -oE '\bcad_[a-z0-9_]+\(' "$REL_ROOT/include/cadence.h" | tr -d '(' | sort -u) \
                     <(grep -oE 'COVERED_FUNC: .* cad_[a-z0-9_]+ ' "$log" | awk '{print $(NF)}' | sort -u))
  if [ -n "$missing" ]; then
    echo "functions of cadence.h never executed by $*: $(echo $missing)"
    return 1
  fi
  echo "all $(grep -oE '\bcad_[a-z0-9_]+\(' "$REL_ROOT/include/cadence.h" | sort -u | wc -l) functions of cadence.h executed by $*"
}
