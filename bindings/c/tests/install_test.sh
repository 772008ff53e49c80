#!/bin/sh
# install_test.sh - scripts/install.sh into a temporary prefix, then build and
# run a tiny host against the installed files:
#   (a) cc host.c $(pkg-config --cflags --libs cadence)   (PKG_CONFIG_PATH into the prefix)
#   (b) CMake: find_package(Cadence REQUIRED) + target_link_libraries(host Cadence::cadence)
#   (c) plain cc -I/-L/-l, and an install with --libdir lib64
# and checks that installing twice changes nothing.
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
cmp -s "$LIB" "$prefix/lib/libcadence.so" || fail "installed library differs from $LIB"
cmp -s "$HEADER" "$prefix/include/cadence.h" || fail "installed header differs from $HEADER"
[ -x "$prefix/lib/libcadence.so" ] || fail "installed library is not executable (mode 0755)"
grep -q "^prefix=$prefix\$" "$prefix/lib/pkgconfig/cadence.pc" || fail "cadence.pc does not name the prefix"
grep -q "$prefix/include" "$prefix/lib/cmake/Cadence/CadenceConfig.cmake" ||
  fail "CadenceConfig.cmake does not name the prefix"
if grep -n '@[A-Z_]*@' "$prefix/lib/pkgconfig/cadence.pc" "$prefix"/lib/cmake/Cadence/*.cmake; then
  fail "unsubstituted placeholders"
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
sh "$install_sh" --quiet --prefix "$prefix2" --libdir lib64 --lib "$LIB" --header "$HEADER" ||
  fail "install.sh --libdir lib64 failed"
[ -f "$prefix2/lib64/libcadence.so" ] && [ -f "$prefix2/lib64/pkgconfig/cadence.pc" ] &&
  [ -f "$prefix2/lib64/cmake/Cadence/CadenceConfig.cmake" ] || fail "--libdir lib64 layout is wrong"
grep -q '^libdir=${prefix}/lib64$' "$prefix2/lib64/pkgconfig/cadence.pc" || fail "--libdir not in cadence.pc"
if command -v pkg-config >/dev/null 2>&1; then
  # shellcheck disable=SC2046
  "$CC" -std=c99 "$here/install/host.c" $(PKG_CONFIG_PATH="$prefix2/lib64/pkgconfig" pkg-config --cflags --libs cadence) \
    -Wl,-rpath,"$prefix2/lib64" -o "$tmp/host_lib64" || fail "building against --libdir lib64 failed"
  "$tmp/host_lib64" >/dev/null || fail "the lib64 host failed"
fi
echo "install_test: ok  (c) install.sh --libdir lib64"

if [ -n "$skipped" ]; then
  echo "install_test: SKIP parts:$skipped (everything else passed)"
else
  echo "install_test: all passed"
fi
exit 0
