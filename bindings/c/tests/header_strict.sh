#!/bin/sh
# header_strict.sh - the header checks beyond header_check.c (run by `make header-check`):
#   1. cadence.h is pure ASCII (MSVC without /utf-8 warns C4819 on other bytes);
#   2. every function declaration carries CAD_API, and CAD_API can be overridden;
#   3. header_strict.c (which expands CAD_CHECK_LAYOUT()) compiles without a
#      warning in C89..C2x (gcc, clang) and C++98..C++23 (g++, clang++) under
#      -Wall -Wextra -Werror -pedantic plus -Wconversion -Wsign-conversion
#      -Wold-style-cast -Wuseless-cast (g++) and more, then links and runs;
#   4. a plugin that includes cadence.h under `#pragma GCC visibility push(hidden)`
#      and -fvisibility=hidden links against libcadence.so and runs (gcc, clang, g++).
# A standard the compiler does not know is skipped with a note.
#
# Environment: INCDIR, LIBDIR (directories of cadence.h and of libcadence.so with
# its SONAME link libcadence.so.1: the Makefile passes its link directory),
# OUT (scratch directory), CC_GCC, CC_CLANG, CXX_GCC, CXX_CLANG.
set -u

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
INCDIR=${INCDIR:?INCDIR must name the directory of cadence.h}
LIBDIR=${LIBDIR:?LIBDIR must name the directory of libcadence.so}
OUT=${OUT:-${TMPDIR:-/tmp}/cadence-header-strict}
CC_GCC=${CC_GCC:-gcc}
CC_CLANG=${CC_CLANG:-clang}
CXX_GCC=${CXX_GCC:-g++}
CXX_CLANG=${CXX_CLANG:-clang++}
header="$INCDIR/cadence.h"
mkdir -p "$OUT"
status=0

fail() {
  echo "header-check: FAIL: $*" >&2
  status=1
}

# ---- 1. ASCII only ----------------------------------------------------------
nonascii=$(LC_ALL=C tr -d '\000-\177' < "$header" | wc -c | tr -d ' ')
if [ "$nonascii" -ne 0 ]; then
  fail "cadence.h has $nonascii non-ASCII bytes (MSVC without /utf-8 warns C4819); transliterate them in scripts/gen_header.py:"
  LC_ALL=C grep -n "$(printf '[\200-\377]')" "$header" | head -n 5 >&2
fi

# ---- 2. CAD_API ---------------------------------------------------------------
decls=$(grep -cE '^[A-Za-z_][A-Za-z0-9_ ]*[ *]cad_[a-z0-9_]+\(' "$header")
bare=$(grep -E '^[A-Za-z_][A-Za-z0-9_ ]*[ *]cad_[a-z0-9_]+\(' "$header" | grep -v '^CAD_API ')
if [ "$decls" -lt 50 ]; then
  fail "found only $decls function declarations in cadence.h"
elif [ -n "$bare" ]; then
  fail "function declarations without CAD_API:"
  echo "$bare" | head -n 5 >&2
fi
printf '#include "cadence.h"\n#ifndef CAD_API\n#error "cadence.h does not define CAD_API"\n#endif\nint main(void) { return 0; }\n' >"$OUT/api_defined.c"
"$CC_GCC" -std=c99 -Wall -Wextra -Werror -pedantic -I"$INCDIR" -c "$OUT/api_defined.c" -o "$OUT/api_defined.o" ||
  fail "CAD_API is not defined by cadence.h"
for def in "-DCAD_API=" "-DCAD_API=extern"; do
  "$CC_GCC" -std=c99 -Wall -Wextra -Werror -pedantic "$def" -I"$INCDIR" -c "$here/header_strict.c" \
    -o "$OUT/api_override.o" || fail "cadence.h does not compile with $def"
done

# ---- 3. strict warnings in every standard -------------------------------------
COMMON="-Wall -Wextra -Werror -pedantic -Wconversion -Wsign-conversion -Wshadow -Wundef -Wcast-qual -Wcast-align -Wredundant-decls -Wmissing-declarations"
CSTRICT="$COMMON -Wstrict-prototypes -Wmissing-prototypes -Wold-style-definition -Wdeclaration-after-statement -Wc++-compat"
XSTRICT="$COMMON -Wold-style-cast -Wzero-as-null-pointer-constant"

passed=""
skipped=""
# strict LABEL COMPILER LANG STD FLAGS...
strict() {
  label=$1 cc=$2 lang=$3 std=$4
  shift 4
  if ! command -v "$cc" >/dev/null 2>&1; then
    skipped="$skipped $label(no $cc)"
    return
  fi
  if ! echo 'int hs_probe;' | "$cc" -x "$lang" -std="$std" -fsyntax-only - >/dev/null 2>&1; then
    skipped="$skipped $label"
    return
  fi
  obj="$OUT/strict_$label.o"
  exe="$OUT/strict_$label"
  if ! "$cc" -x "$lang" -std="$std" "$@" -I"$INCDIR" -c "$here/header_strict.c" -o "$obj" >"$OUT/strict_$label.log" 2>&1; then
    fail "cadence.h is not warning-free with $cc -std=$std $*:"
    head -n 8 "$OUT/strict_$label.log" >&2
    return
  fi
  if ! "$cc" "$obj" -o "$exe" -L"$LIBDIR" -Wl,-rpath,"$LIBDIR" -lcadence >>"$OUT/strict_$label.log" 2>&1; then
    fail "linking header_strict.c ($label) failed:"
    head -n 8 "$OUT/strict_$label.log" >&2
    return
  fi
  "$exe" || { fail "header_strict ($label) returned $?"; return; }
  passed="$passed $label"
}

for std in c89 c99 c11 c17 c2x; do
  strict "gcc-$std" "$CC_GCC" c "$std" $CSTRICT
  strict "clang-$std" "$CC_CLANG" c "$std" $CSTRICT
done
for std in c++98 c++11 c++14 c++17 c++20 c++23; do
  strict "g++-$std" "$CXX_GCC" c++ "$std" $XSTRICT -Wuseless-cast
  strict "clang++-$std" "$CXX_CLANG" c++ "$std" $XSTRICT
done

# ---- 4. visibility-hidden plugin --------------------------------------------------
plugins=""
for spec in "gcc:$CC_GCC:c" "clang:$CC_CLANG:c" "g++:$CXX_GCC:c++"; do
  name=${spec%%:*}; rest=${spec#*:}; cc=${rest%:*}; lang=${rest##*:}
  command -v "$cc" >/dev/null 2>&1 || { skipped="$skipped plugin-$name(no $cc)"; continue; }
  so="$OUT/libhsplugin_$name.so"
  rm -f "$so"
  if ! "$cc" -x "$lang" -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden -I"$INCDIR" \
       "$here/header_plugin.c" -Wl,-soname,"libhsplugin_$name.so" \
       -L"$LIBDIR" -Wl,-rpath,"$LIBDIR" -lcadence -o "$so" >"$OUT/plugin_$name.log" 2>&1; then
    fail "a plugin including cadence.h under '#pragma GCC visibility push(hidden)' does not link ($name):"
    grep -m 3 -E 'error|hidden' "$OUT/plugin_$name.log" >&2
    continue
  fi
  if ! "$CC_GCC" -std=c99 -Wall -Wextra -Werror "$here/header_plugin_host.c" "$so" -Wl,-rpath,"$OUT" \
       -o "$OUT/plugin_host_$name" >>"$OUT/plugin_$name.log" 2>&1; then
    fail "linking the plugin host ($name) failed:"
    head -n 5 "$OUT/plugin_$name.log" >&2
    continue
  fi
  "$OUT/plugin_host_$name" || { fail "the visibility-hidden plugin ($name) failed"; continue; }
  plugins="$plugins $name"
done

if [ "$status" -eq 0 ]; then
  echo "header-check: cadence.h is ASCII; $decls declarations carry CAD_API; warning-free under strict flags in:$passed"
  echo "header-check: visibility-hidden plugin links and runs:$plugins"
  [ -z "$skipped" ] || echo "header-check: note: skipped (compiler or standard not available):$skipped"
fi
exit "$status"
