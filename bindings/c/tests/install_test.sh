#!/bin/sh
# install_test.sh - scripts/install.sh into a temporary prefix, then build and
# run a tiny host against the installed files:
#   (a) cc host.c $(pkg-config --cflags --libs cadence)   (PKG_CONFIG_PATH into the prefix)
#   (b) CMake: find_package(Cadence REQUIRED) + target_link_libraries(host Cadence::cadence)
#   (c) plain cc -I/-L/-l, and an install with --libdir lib64 (CMake through the
#       -DCadence_DIR hint install.sh prints)
#   (d) CMake from a moved and from a copied prefix (the package is relocatable),
#       with a multi-component --libdir and with an absolute --includedir; the
#       NOT FOUND message when the library is missing
# and checks that installing twice changes nothing, that the installed library
# is stripped (unless --no-strip / CADENCE_NO_STRIP=1) with the same exports,
# and CMake version requests, single and ranges (find_package(Cadence 0.0...1.0)).
#
# Environment:
#   LIB     the libcadence.so to install (default: <repo>/.build/release/libcadence.so)
#   HEADER  the cadence.h to install (default: <repo>/include/cadence.h)
#   CC      C compiler (default cc)
#   CI      when set, a missing pkg-config or cmake is a failure; otherwise
#           that part is skipped with a "SKIP" message (exit 0).
#   KEEP=1  keep the temporary directory
set -eu

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
repo=$(CDPATH= cd -- "$here/../../.." && pwd)
LIB=${LIB:-$repo/.build/release/libcadence.so}
HEADER=${HEADER:-$repo/include/cadence.h}
CC=${CC:-cc}
install_sh="$repo/scripts/install.sh"
# the default install strips; the opt-outs are tested explicitly below
unset CADENCE_NO_STRIP

fail() {
  echo "install_test: FAIL: $*" >&2
  exit 1
}
skipped=""
skip_or_fail() {
  if [ -n "${CI:-}" ]; then
    fail "$1 not found, and CI is set (install it: apt-get install -y $2)"
  fi
  echo "install_test: SKIP ($1 part): $1 not found (install it: apt-get install -y $2)"
  skipped="$skipped $1"
}

[ -f "$LIB" ] || fail "no library at $LIB (set LIB=/path/to/libcadence.so)"
[ -f "$HEADER" ] || fail "no header at $HEADER"
command -v "$CC" >/dev/null 2>&1 || fail "C compiler '$CC' not found"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cadence-install-test.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
  echo "install_test: keeping $tmp"
else
  trap 'rm -rf "$tmp"' EXIT INT TERM
fi
prefix="$tmp/prefix"
version=$(sed -n 's/^#define CAD_VERSION_STRING "\([^"]*\)".*/\1/p' "$HEADER")

# ---- install, twice -------------------------------------------------------
sh "$install_sh" --prefix "$prefix" --lib "$LIB" --header "$HEADER" >"$tmp/install1.log" 2>&1 ||
  { cat "$tmp/install1.log" >&2; fail "install.sh failed"; }
for f in lib/libcadence.so include/cadence.h lib/pkgconfig/cadence.pc \
         lib/cmake/Cadence/CadenceConfig.cmake lib/cmake/Cadence/CadenceConfigVersion.cmake; do
  [ -f "$prefix/$f" ] || fail "install.sh did not install $f"
done
cmp -s "$HEADER" "$prefix/include/cadence.h" || fail "installed header differs from $HEADER"
[ -x "$prefix/lib/libcadence.so" ] || fail "installed library is not executable (mode 0755)"
grep -q "^prefix=$prefix\$" "$prefix/lib/pkgconfig/cadence.pc" || fail "cadence.pc does not name the prefix"
# relocatable: the CMake files compute their paths from their own location
if grep -n "$prefix" "$prefix"/lib/cmake/Cadence/*.cmake; then
  fail "the CMake package has the absolute install prefix written in (not relocatable)"
fi
if grep -n '@[A-Z_]*@' "$prefix/lib/pkgconfig/cadence.pc" "$prefix"/lib/cmake/Cadence/*.cmake; then
  fail "unsubstituted placeholders"
fi

# ---- the installed library is stripped, with the same exports -----------------
exports() {
  nm -D --defined-only "$1" | awk '$3 ~ /^cad_/ {print $2, $3}' | sort
}
has_debug() {
  readelf -S -W "$1" | grep -qE ' \.(debug_[a-z]+|symtab) '
}
if command -v strip >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; then
  if has_debug "$LIB"; then
    has_debug "$prefix/lib/libcadence.so" && fail "the installed library still has .debug_* / .symtab sections (not stripped)"
    [ "$(wc -c < "$prefix/lib/libcadence.so")" -lt "$(wc -c < "$LIB")" ] || fail "the installed library is not smaller than $LIB"
  fi
  exports "$LIB" >"$tmp/exports.lib"
  exports "$prefix/lib/libcadence.so" >"$tmp/exports.installed"
  [ "$(wc -l < "$tmp/exports.lib")" -ge 50 ] || fail "found only $(wc -l < "$tmp/exports.lib") cad_ exports in $LIB"
  cmp -s "$tmp/exports.lib" "$tmp/exports.installed" ||
    { diff "$tmp/exports.lib" "$tmp/exports.installed" >&2; fail "stripping changed the exported cad_ functions"; }
  # the opt-outs install the library as it is
  CADENCE_NO_STRIP=1 sh "$install_sh" --quiet --prefix "$tmp/nostrip-env" --lib "$LIB" --header "$HEADER" ||
    fail "CADENCE_NO_STRIP=1 install.sh failed"
  cmp -s "$LIB" "$tmp/nostrip-env/lib/libcadence.so" || fail "with CADENCE_NO_STRIP=1 the installed library differs from $LIB"
  sh "$install_sh" --quiet --no-strip --prefix "$tmp/nostrip-flag" --lib "$LIB" --header "$HEADER" ||
    fail "install.sh --no-strip failed"
  cmp -s "$LIB" "$tmp/nostrip-flag/lib/libcadence.so" || fail "with --no-strip the installed library differs from $LIB"
  echo "install_test: ok  installed library stripped ($(wc -c < "$LIB") -> $(wc -c < "$prefix/lib/libcadence.so") bytes, same cad_ exports); --no-strip and CADENCE_NO_STRIP=1 install it unchanged"
else
  cmp -s "$LIB" "$prefix/lib/libcadence.so" || fail "installed library differs from $LIB (and strip is not available)"
  echo "install_test: SKIP (strip part): strip, readelf or nm not found"
fi

snapshot() {
  (cd "$prefix" && find . -type f -exec ls -l --time-style=+%s.%N {} + | awk '{print $1, $5, $6, $7}' | sort)
}
snapshot >"$tmp/before"
sh "$install_sh" --prefix "$prefix/" --lib "$LIB" --header "$HEADER" >"$tmp/install2.log" 2>&1 ||
  { cat "$tmp/install2.log" >&2; fail "second install.sh failed"; }
snapshot >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || { diff "$tmp/before" "$tmp/after" >&2; fail "installing twice changed files"; }
echo "install_test: ok  install.sh into $prefix (twice, idempotent)"

# ---- (a) pkg-config -------------------------------------------------------
if command -v pkg-config >/dev/null 2>&1; then
  PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
  export PKG_CONFIG_PATH
  pkg-config --exists cadence || fail "pkg-config does not find cadence in $PKG_CONFIG_PATH"
  got=$(pkg-config --modversion cadence)
  [ "$got" = "$version" ] || fail "pkg-config --modversion gives '$got', header says '$version'"
  [ "$(pkg-config --variable=libdir cadence)" = "$prefix/lib" ] || fail "pkg-config libdir is wrong"
  # shellcheck disable=SC2046
  "$CC" -std=c99 -Wall -Wextra -Werror -pedantic "$here/install/host.c" \
    $(pkg-config --cflags --libs cadence) -o "$tmp/host_pkgconfig" ||
    fail "building the host with pkg-config failed"
  LD_LIBRARY_PATH="$prefix/lib" "$tmp/host_pkgconfig" || fail "the pkg-config host failed"
  # the executable must use the installed library
  LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/host_pkgconfig" 2>/dev/null | grep -q "$prefix/lib/libcadence.so" ||
    fail "the pkg-config host does not load $prefix/lib/libcadence.so"
  echo "install_test: ok  (a) cc \$(pkg-config --cflags --libs cadence)"
  unset PKG_CONFIG_PATH
else
  skip_or_fail pkg-config pkg-config
fi

# ---- (b) CMake find_package ---------------------------------------------
if command -v cmake >/dev/null 2>&1; then
  cmake -S "$here/install" -B "$tmp/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$(command -v "$CC")" >"$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log" >&2; fail "cmake configure with find_package(Cadence) failed"; }
  grep -q "Found Cadence $version at $prefix" "$tmp/cmake.log" ||
    { cat "$tmp/cmake.log" >&2; fail "find_package(Cadence) did not report the installed prefix"; }
  cmake --build "$tmp/cmake-build" >"$tmp/cmake-build.log" 2>&1 ||
    { cat "$tmp/cmake-build.log" >&2; fail "cmake build failed"; }
  # no LD_LIBRARY_PATH: CMake's build-tree rpath must find the library
  "$tmp/cmake-build/host" || fail "the CMake host failed"
  echo "install_test: ok  (b) CMake find_package(Cadence) + Cadence::cadence"

  # a version this install cannot satisfy is refused
  mkdir -p "$tmp/cmake-too-new"
  cat >"$tmp/cmake-too-new/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.10)
project(too_new C)
find_package(Cadence 99.0 QUIET)
if(Cadence_FOUND)
  message(FATAL_ERROR "find_package(Cadence 99.0) accepted version ${Cadence_VERSION}")
endif()
find_package(Cadence REQUIRED)
EOF
  cmake -S "$tmp/cmake-too-new" -B "$tmp/cmake-too-new/build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$(command -v "$CC")" >"$tmp/cmake2.log" 2>&1 ||
    { cat "$tmp/cmake2.log" >&2; fail "the version check of CadenceConfigVersion.cmake is wrong"; }
  echo "install_test: ok  (b) find_package(Cadence 99.0) refuses $version"

  # version requests, single and ranges (ranges need CMake >= 3.19)
  cmake_ver=$(cmake --version | sed -n 's/^cmake version \([0-9]*\.[0-9]*\).*/\1/p')
  maj=${version%%.*}; rest=${version#*.}; min=${rest%%.*}
  next_min="$maj.$((min + 1))"
  next_maj="$((maj + 1)).0"
  accept="$maj.$min $maj.$min...$next_maj 0.0...$next_maj $maj.$min...<$next_min $maj...<$next_maj"
  refuse="$next_min $next_maj 99.0 $next_min...$next_maj 0.0...<$maj.$min $next_maj...99.0"
  if [ "$maj" -eq 0 ] && [ "$min" -gt 0 ]; then
    refuse="$refuse 0.$((min - 1))"   # the 0.x policy: 0.(m-1) does not accept 0.m
  fi
  case "$cmake_ver" in
    [0-2].*|3.[0-9]|3.1[0-8])
      accept=$(echo "$accept" | tr ' ' '\n' | grep -v '\.\.\.' | tr '\n' ' ')
      refuse=$(echo "$refuse" | tr ' ' '\n' | grep -v '\.\.\.' | tr '\n' ' ')
      echo "install_test: note: cmake $cmake_ver has no version ranges; testing single versions only" ;;
  esac
  mkdir -p "$tmp/cmake-versions"
  {
    echo 'cmake_minimum_required(VERSION 3.10)'
    echo 'project(versions C)'
    for v in $accept; do
      echo "unset(Cadence_FOUND)"
      echo "find_package(Cadence $v QUIET)"
      echo "if(NOT Cadence_FOUND)"
      echo "  message(SEND_ERROR \"find_package(Cadence $v) refused version $version\")"
      echo "endif()"
    done
    for v in $refuse; do
      echo "unset(Cadence_FOUND)"
      echo "find_package(Cadence $v QUIET)"
      echo "if(Cadence_FOUND)"
      echo "  message(SEND_ERROR \"find_package(Cadence $v) accepted version $version\")"
      echo "endif()"
    done
  } >"$tmp/cmake-versions/CMakeLists.txt"
  cmake -S "$tmp/cmake-versions" -B "$tmp/cmake-versions/build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$(command -v "$CC")" >"$tmp/cmake-versions.log" 2>&1 ||
    { grep -A2 'CMake Error' "$tmp/cmake-versions.log" >&2 || true; fail "CadenceConfigVersion.cmake answers version requests wrongly"; }
  echo "install_test: ok  (b) version requests: $version accepted by" $accept "; refused by" $refuse
else
  skip_or_fail cmake cmake
fi

# ---- (c) plain cc, and --libdir ---------------------------------------------
"$CC" -std=c99 -Wall -Wextra -Werror -pedantic "$here/install/host.c" -I"$prefix/include" \
  -L"$prefix/lib" -lcadence -Wl,-rpath,"$prefix/lib" -o "$tmp/host_plain" ||
  fail "building the host with plain cc failed"
"$tmp/host_plain" >/dev/null || fail "the plain cc host failed"
echo "install_test: ok  (c) cc -I -L -lcadence -Wl,-rpath"

prefix2="$tmp/prefix2"
sh "$install_sh" --prefix "$prefix2" --libdir lib64 --lib "$LIB" --header "$HEADER" >"$tmp/install-lib64.log" 2>&1 ||
  { cat "$tmp/install-lib64.log" >&2; fail "install.sh --libdir lib64 failed"; }
[ -f "$prefix2/lib64/libcadence.so" ] && [ -f "$prefix2/lib64/pkgconfig/cadence.pc" ] &&
  [ -f "$prefix2/lib64/cmake/Cadence/CadenceConfig.cmake" ] || fail "--libdir lib64 layout is wrong"
grep -q '^libdir=${prefix}/lib64$' "$prefix2/lib64/pkgconfig/cadence.pc" || fail "--libdir not in cadence.pc"
if command -v pkg-config >/dev/null 2>&1; then
  # shellcheck disable=SC2046
  "$CC" -std=c99 "$here/install/host.c" $(PKG_CONFIG_PATH="$prefix2/lib64/pkgconfig" pkg-config --cflags --libs cadence) \
    -Wl,-rpath,"$prefix2/lib64" -o "$tmp/host_lib64" || fail "building against --libdir lib64 failed"
  "$tmp/host_lib64" >/dev/null || fail "the lib64 host failed"
fi
hint=""
if command -v cmake >/dev/null 2>&1; then
  # CMake does not search PREFIX/lib64 on Debian-like systems: the hint that
  # install.sh prints must work anyway
  hint=$(sed -n 's/.*\(-DCadence_DIR=[^ ;,)]*\).*/\1/p' "$tmp/install-lib64.log" | head -n 1)
  [ "$hint" = "-DCadence_DIR=$prefix2/lib64/cmake/Cadence" ] ||
    { cat "$tmp/install-lib64.log" >&2; fail "install.sh --libdir lib64 does not print -DCadence_DIR=$prefix2/lib64/cmake/Cadence"; }
  cmake -S "$here/install" -B "$tmp/cmake-lib64" "$hint" -DCMAKE_C_COMPILER="$(command -v "$CC")" \
    >"$tmp/cmake-lib64.log" 2>&1 || { cat "$tmp/cmake-lib64.log" >&2; fail "cmake with the printed hint $hint failed"; }
  grep -q "Found Cadence $version at $prefix2 ($prefix2/lib64/libcadence.so" "$tmp/cmake-lib64.log" ||
    { cat "$tmp/cmake-lib64.log" >&2; fail "find_package(Cadence) with $hint did not find the lib64 install"; }
  cmake --build "$tmp/cmake-lib64" >"$tmp/cmake-lib64-build.log" 2>&1 ||
    { cat "$tmp/cmake-lib64-build.log" >&2; fail "cmake build against the lib64 install failed"; }
  "$tmp/cmake-lib64/host" >/dev/null || fail "the CMake lib64 host failed"
  hint=", and CMake with the printed $hint"
fi
echo "install_test: ok  (c) install.sh --libdir lib64 (pkg-config$hint)"

# ---- (d) relocation ---------------------------------------------------------------
# cmake_host NAME PREFIX LIBDIR INCLUDEDIR CMAKE-ARG: configure, build and run the
# CMake host; find_package must report PREFIX, LIBDIR/libcadence.so and INCLUDEDIR,
# and the host must load LIBDIR/libcadence.so.
cmake_host() {
  cmake -S "$here/install" -B "$tmp/cmake-$1" "$5" -DCMAKE_C_COMPILER="$(command -v "$CC")" \
    >"$tmp/cmake-$1.log" 2>&1 || { cat "$tmp/cmake-$1.log" >&2; fail "($1) cmake configure failed"; }
  grep -qF "Found Cadence $version at $2 ($3/libcadence.so; include $4)" "$tmp/cmake-$1.log" ||
    { grep 'Found Cadence' "$tmp/cmake-$1.log" >&2 || true; fail "($1) find_package(Cadence) did not report $2, $3/libcadence.so and $4"; }
  cmake --build "$tmp/cmake-$1" >"$tmp/cmake-$1-build.log" 2>&1 ||
    { cat "$tmp/cmake-$1-build.log" >&2; fail "($1) cmake build failed"; }
  "$tmp/cmake-$1/host" >/dev/null || fail "($1) the CMake host failed"
  ldd "$tmp/cmake-$1/host" 2>/dev/null | grep -qF "$3/libcadence.so" || fail "($1) the host does not load $3/libcadence.so"
}
if command -v cmake >/dev/null 2>&1; then
  r="$tmp/reloc"
  mkdir -p "$r"
  sh "$install_sh" --quiet --prefix "$r/orig" --lib "$LIB" --header "$HEADER" || fail "install.sh into $r/orig failed"
  # a copy must use its own files, not the original's
  cp -R "$r/orig" "$r/copy"
  cmake_host copy "$r/copy" "$r/copy/lib" "$r/copy/include" -DCMAKE_PREFIX_PATH="$r/copy"
  # a moved prefix must still be found
  mv "$r/orig" "$r/moved"
  cmake_host moved "$r/moved" "$r/moved/lib" "$r/moved/include" -DCMAKE_PREFIX_PATH="$r/moved"
  # a multi-component libdir, moved, found through Cadence_DIR
  sh "$install_sh" --quiet --prefix "$r/multi" --libdir lib/x86_64-linux-gnu --lib "$LIB" --header "$HEADER" ||
    fail "install.sh --libdir lib/x86_64-linux-gnu failed"
  mv "$r/multi" "$r/multi-moved"
  cmake_host multi "$r/multi-moved" "$r/multi-moved/lib/x86_64-linux-gnu" "$r/multi-moved/include" \
    -DCadence_DIR="$r/multi-moved/lib/x86_64-linux-gnu/cmake/Cadence"
  # an absolute includedir outside the prefix stays absolute; the rest moves
  sh "$install_sh" --quiet --prefix "$r/absinc" --includedir "$r/absinc-headers" --lib "$LIB" --header "$HEADER" ||
    fail "install.sh --includedir ABSOLUTE failed"
  grep -qF "$r/absinc-headers" "$r/absinc/lib/cmake/Cadence/CadenceConfig.cmake" ||
    fail "CadenceConfig.cmake does not name the absolute --includedir"
  mv "$r/absinc" "$r/absinc-moved"
  cmake_host absinc "$r/absinc-moved" "$r/absinc-moved/lib" "$r/absinc-headers" -DCMAKE_PREFIX_PATH="$r/absinc-moved"
  echo "install_test: ok  (d) CMake package relocatable: copied prefix, moved prefix, moved --libdir lib/x86_64-linux-gnu, absolute --includedir"

  # a missing library: NOT FOUND, with a readable reason naming the missing file
  rm "$r/copy/lib/libcadence.so"
  mkdir -p "$tmp/cmake-broken"
  {
    echo 'cmake_minimum_required(VERSION 3.10)'
    echo 'project(broken C)'
    echo 'find_package(Cadence QUIET)'
    echo 'message(STATUS "Cadence_FOUND=[${Cadence_FOUND}]")'
    echo 'message(STATUS "reason=[${Cadence_NOT_FOUND_MESSAGE}]")'
  } >"$tmp/cmake-broken/CMakeLists.txt"
  cmake -S "$tmp/cmake-broken" -B "$tmp/cmake-broken/build" -DCMAKE_PREFIX_PATH="$r/copy" \
    -DCMAKE_C_COMPILER="$(command -v "$CC")" >"$tmp/cmake-broken.log" 2>&1 ||
    { cat "$tmp/cmake-broken.log" >&2; fail "cmake configure of the broken-install project failed"; }
  grep -qE 'Cadence_FOUND=\[(FALSE|0|)\]' "$tmp/cmake-broken.log" ||
    { grep 'Cadence_FOUND' "$tmp/cmake-broken.log" >&2 || true; fail "find_package(Cadence) found an install whose library is missing"; }
  reason=$(sed -n 's/.*reason=\[\(.*\)\]$/\1/p' "$tmp/cmake-broken.log")
  case "$reason" in
    *";"*) fail "the NOT FOUND message has a stray ';': $reason" ;;
    *"$r/copy/lib/libcadence.so"*) ;;
    *) fail "the NOT FOUND message does not name $r/copy/lib/libcadence.so: $reason" ;;
  esac
  echo "install_test: ok  (d) a missing library gives NOT FOUND: $reason"
fi

if [ -n "$skipped" ]; then
  echo "install_test: SKIP parts:$skipped (everything else passed)"
else
  echo "install_test: all passed"
fi
exit 0
