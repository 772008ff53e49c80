#!/bin/sh
# install_test.sh - scripts/install.sh into a temporary prefix, then build and
# run a tiny host against the installed files. The layout: the library as
# LIBDIR/libcadence.so.<CAD_ABI_VERSION> (its SONAME) and the relative link
# LIBDIR/libcadence.so -> it; every host records DT_NEEDED libcadence.so.<ABI>
# and runs with only the installed libdir, the pkg-config one also with only
# the .so.<ABI> file (a runtime package). The hosts:
#   (a) cc host.c $(pkg-config --cflags --libs cadence)   (PKG_CONFIG_PATH into the prefix)
#   (b) CMake: find_package(Cadence REQUIRED) + target_link_libraries(host Cadence::cadence)
#   (c) plain cc -I/-L/-l, and an install with --libdir lib64 (CMake through the
#       -DCadence_DIR hint install.sh prints)
#   (d) CMake from a moved and from a copied prefix (the package is relocatable),
#       with a multi-component --libdir and with an absolute --includedir; the
#       NOT FOUND message when the library is missing
# and checks that installing twice changes nothing (an existing right link
# included), that a libcadence.so file left by an older install becomes the
# link, DESTDIR staging, that a library whose SONAME does not match the
# header's ABI (or has none) is refused, that the installed library is stripped
# (unless --no-strip / CADENCE_NO_STRIP=1) with the same exports, that the
# ldconfig hint comes exactly when the loader's cache must learn the file (a
# fake ldconfig), and CMake version requests, single and ranges
# (find_package(Cadence 0.0...1.0)).
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
abi=$(sed -n 's/^#define CAD_ABI_VERSION \([0-9][0-9]*\).*/\1/p' "$HEADER")
[ -n "$abi" ] || fail "no CAD_ABI_VERSION in $HEADER"
so="libcadence.so.$abi"   # the SONAME, and the installed file's name

# dt_needed FILE: the DT_NEEDED entries of FILE, one per line
dt_needed() {
  readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p'
}
# needs_soname WHAT FILE: FILE records libcadence by its SONAME only
needs_soname() {
  command -v readelf >/dev/null 2>&1 || return 0
  got=$(dt_needed "$2" | grep cadence || true)
  [ "$got" = "$so" ] || fail "$1 records DT_NEEDED '$(echo $got)', not $so"
}
# layout_ok LIBDIR: LIBDIR/$so is a real file, LIBDIR/libcadence.so the relative link to it
layout_ok() {
  [ -f "$1/$so" ] && [ ! -L "$1/$so" ] || fail "$1/$so is not a regular file"
  [ -L "$1/libcadence.so" ] || fail "$1/libcadence.so is not a symlink"
  [ "$(readlink "$1/libcadence.so")" = "$so" ] ||
    fail "$1/libcadence.so -> $(readlink "$1/libcadence.so"), not the relative $so"
}

# ---- install, twice -------------------------------------------------------
sh "$install_sh" --prefix "$prefix" --lib "$LIB" --header "$HEADER" >"$tmp/install1.log" 2>&1 ||
  { cat "$tmp/install1.log" >&2; fail "install.sh failed"; }
for f in "lib/$so" include/cadence.h lib/pkgconfig/cadence.pc \
         lib/cmake/Cadence/CadenceConfig.cmake lib/cmake/Cadence/CadenceConfigVersion.cmake \
         share/cadence/valgrind/cadence.supp; do
  [ -f "$prefix/$f" ] || fail "install.sh did not install $f"
done
layout_ok "$prefix/lib"
if command -v readelf >/dev/null 2>&1; then
  got=$(readelf -d "$prefix/lib/$so" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
  [ "$got" = "$so" ] || fail "the installed library's SONAME is '$got', not $so"
fi
cmp -s "$HEADER" "$prefix/include/cadence.h" || fail "installed header differs from $HEADER"
[ -x "$prefix/lib/$so" ] || fail "installed library is not executable (mode 0755)"
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
    has_debug "$prefix/lib/$so" && fail "the installed library still has .debug_* / .symtab sections (not stripped)"
    [ "$(wc -c < "$prefix/lib/$so")" -lt "$(wc -c < "$LIB")" ] || fail "the installed library is not smaller than $LIB"
  fi
  exports "$LIB" >"$tmp/exports.lib"
  exports "$prefix/lib/$so" >"$tmp/exports.installed"
  [ "$(wc -l < "$tmp/exports.lib")" -ge 50 ] || fail "found only $(wc -l < "$tmp/exports.lib") cad_ exports in $LIB"
  cmp -s "$tmp/exports.lib" "$tmp/exports.installed" ||
    { diff "$tmp/exports.lib" "$tmp/exports.installed" >&2; fail "stripping changed the exported cad_ functions"; }
  # the opt-outs install the library as it is
  CADENCE_NO_STRIP=1 sh "$install_sh" --quiet --prefix "$tmp/nostrip-env" --lib "$LIB" --header "$HEADER" ||
    fail "CADENCE_NO_STRIP=1 install.sh failed"
  cmp -s "$LIB" "$tmp/nostrip-env/lib/$so" || fail "with CADENCE_NO_STRIP=1 the installed library differs from $LIB"
  sh "$install_sh" --quiet --no-strip --prefix "$tmp/nostrip-flag" --lib "$LIB" --header "$HEADER" ||
    fail "install.sh --no-strip failed"
  cmp -s "$LIB" "$tmp/nostrip-flag/lib/$so" || fail "with --no-strip the installed library differs from $LIB"
  layout_ok "$tmp/nostrip-flag/lib"
  echo "install_test: ok  installed library stripped ($(wc -c < "$LIB") -> $(wc -c < "$prefix/lib/$so") bytes, same cad_ exports); --no-strip and CADENCE_NO_STRIP=1 install it unchanged"
else
  cmp -s "$LIB" "$prefix/lib/$so" || fail "installed library differs from $LIB (and strip is not available)"
  echo "install_test: SKIP (strip part): strip, readelf or nm not found"
fi

# files and links: mode, size, mtime (a link's own), path, link target
snapshot() {
  (cd "${1:-$prefix}" && find . \( -type f -o -type l \) -printf '%M %s %T@ %p %l\n' | sort)
}
snapshot >"$tmp/before"
sh "$install_sh" --prefix "$prefix/" --lib "$LIB" --header "$HEADER" >"$tmp/install2.log" 2>&1 ||
  { cat "$tmp/install2.log" >&2; fail "second install.sh failed"; }
snapshot >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || { diff "$tmp/before" "$tmp/after" >&2; fail "installing twice changed files"; }
grep -q "unchanged  $prefix/lib/libcadence.so -> $so" "$tmp/install2.log" ||
  { cat "$tmp/install2.log" >&2; fail "the second install does not report the link unchanged"; }
echo "install_test: ok  install.sh into $prefix (twice, idempotent): lib/$so and the link lib/libcadence.so -> $so"

# an older install left libcadence.so as a regular file; or the link points elsewhere
up="$tmp/upgrade"
sh "$install_sh" --quiet --prefix "$up" --lib "$LIB" --header "$HEADER" || fail "install.sh into $up failed"
rm "$up/lib/libcadence.so"
cp "$LIB" "$up/lib/libcadence.so"
sh "$install_sh" --quiet --prefix "$up" --lib "$LIB" --header "$HEADER" || fail "install.sh over an older install failed"
layout_ok "$up/lib"
ln -sfn libcadence.so.0 "$up/lib/libcadence.so"
sh "$install_sh" --quiet --prefix "$up" --lib "$LIB" --header "$HEADER" || fail "install.sh over a wrong link failed"
layout_ok "$up/lib"
echo "install_test: ok  a libcadence.so file from an older install, or a wrong link, becomes the link -> $so"

# DESTDIR: everything under the staging root, nothing of it written into the files
stage="$tmp/stage"
DESTDIR="$stage" sh "$install_sh" --quiet --prefix /opt/cadence --lib "$LIB" --header "$HEADER" ||
  fail "DESTDIR=$stage install.sh failed"
layout_ok "$stage/opt/cadence/lib"
grep -q '^prefix=/opt/cadence$' "$stage/opt/cadence/lib/pkgconfig/cadence.pc" || fail "DESTDIR: cadence.pc does not name /opt/cadence"
if grep -rn "$stage" "$stage/opt/cadence/lib/pkgconfig" "$stage/opt/cadence/lib/cmake"; then
  fail "DESTDIR was written into the installed files"
fi
snapshot "$stage" >"$tmp/stage.before"
DESTDIR="$stage" sh "$install_sh" --quiet --prefix /opt/cadence --lib "$LIB" --header "$HEADER" ||
  fail "the second DESTDIR install failed"
snapshot "$stage" >"$tmp/stage.after"
cmp -s "$tmp/stage.before" "$tmp/stage.after" || { diff "$tmp/stage.before" "$tmp/stage.after" >&2; fail "installing twice into DESTDIR changed files"; }
echo "install_test: ok  DESTDIR=$stage --prefix /opt/cadence (staged, idempotent)"

# the ldconfig hint: only for a configured loader directory whose cache lacks the
# file, never under DESTDIR; a fake ldconfig plays the loader's configuration
cat >"$tmp/fake-ldconfig" <<'EOF'
#!/bin/sh
case "$1" in
  -p) echo "2 libs found in cache \`/etc/ld.so.cache'"
      [ -z "${FAKE_CACHED:-}" ] || printf '\t%s (libc6,x86-64) => %s\n' "$FAKE_SO" "$FAKE_CACHED"
      printf '\tlibz.so.1 (libc6,x86-64) => /lib/libz.so.1\n' ;;
  *)  [ -z "${FAKE_DIR:-}" ] || printf '%s: (from /etc/ld.so.conf.d/libc.conf:2)\n' "$FAKE_DIR"
      [ -z "${FAKE_BUILTIN:-}" ] || printf '%s: (from <builtin>:0)\n' "$FAKE_BUILTIN"
      printf '\tlibz.so.1 -> libz.so.1.2.13\n' ;;
esac
EOF
chmod +x "$tmp/fake-ldconfig"
# hint_run NAME [VAR=value ...]: install into $tmp/ldc-NAME with the fake ldconfig
hint_run() {
  n=$1; shift
  env LDCONFIG="$tmp/fake-ldconfig" FAKE_SO="$so" "$@" \
    sh "$install_sh" --prefix "$tmp/ldc-$n" --lib "$LIB" --header "$HEADER" >"$tmp/ldc-$n.log" 2>&1 ||
    { cat "$tmp/ldc-$n.log" >&2; fail "install.sh with a fake ldconfig ($n) failed"; }
}
hint_run conf FAKE_DIR="$tmp/ldc-conf/lib"
grep -q "sudo ldconfig" "$tmp/ldc-conf.log" || { cat "$tmp/ldc-conf.log" >&2; fail "no ldconfig hint for a configured loader directory"; }
hint_run cached FAKE_DIR="$tmp/ldc-cached/lib" FAKE_CACHED="$tmp/ldc-cached/lib/$so"
hint_run other FAKE_DIR=/usr/local/lib
hint_run builtin FAKE_BUILTIN="$tmp/ldc-builtin/lib"
mkdir -p "$tmp/ldc-staged/lib"   # the live directory exists and is configured: DESTDIR alone keeps the hint away
hint_run staged DESTDIR="$tmp/ldc-stage" FAKE_DIR="$tmp/ldc-staged/lib"
for n in cached other builtin staged; do
  if grep -q ldconfig "$tmp/ldc-$n.log"; then cat "$tmp/ldc-$n.log" >&2; fail "an ldconfig hint where none is due ($n)"; fi
done
echo "install_test: ok  the ldconfig hint for a configured loader directory not yet in the cache (none when cached, elsewhere, trusted or DESTDIR)"

# a header of another ABI, or a library without a SONAME, is refused
sed "s/^#define CAD_ABI_VERSION [0-9]*/#define CAD_ABI_VERSION $((abi + 1))/" "$HEADER" >"$tmp/other-abi.h"
if sh "$install_sh" --quiet --prefix "$tmp/refused" --lib "$LIB" --header "$tmp/other-abi.h" 2>"$tmp/refused.log"; then
  fail "install.sh accepted a library with SONAME $so and a header with CAD_ABI_VERSION $((abi + 1))"
fi
grep -q "libcadence.so.$((abi + 1))" "$tmp/refused.log" || { cat "$tmp/refused.log" >&2; fail "the refusal does not name libcadence.so.$((abi + 1))"; }
echo 'int cadence_stub;' >"$tmp/stub.c"
if "$CC" -shared -fPIC "$tmp/stub.c" -o "$tmp/libnosoname.so" 2>/dev/null; then
  if sh "$install_sh" --quiet --prefix "$tmp/refused" --lib "$tmp/libnosoname.so" --header "$HEADER" 2>"$tmp/refused2.log"; then
    fail "install.sh accepted a library without a SONAME"
  fi
  grep -q "no SONAME" "$tmp/refused2.log" || { cat "$tmp/refused2.log" >&2; fail "the refusal does not say the library has no SONAME"; }
fi
[ ! -e "$tmp/refused/lib" ] || fail "a refused install wrote files"
echo "install_test: ok  a library whose SONAME is not libcadence.so.<CAD_ABI_VERSION> is refused"

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
  needs_soname "the pkg-config host" "$tmp/host_pkgconfig"
  LD_LIBRARY_PATH="$prefix/lib" "$tmp/host_pkgconfig" || fail "the pkg-config host failed"
  # the executable must use the installed library, by its SONAME
  LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/host_pkgconfig" 2>/dev/null | grep -qF "$so => $prefix/lib/$so " ||
    fail "the pkg-config host does not load $prefix/lib/$so"
  # a runtime package ships only the .so.<ABI> file: enough to run
  mkdir -p "$tmp/runtime-only"
  cp "$prefix/lib/$so" "$tmp/runtime-only/"
  LD_LIBRARY_PATH="$tmp/runtime-only" "$tmp/host_pkgconfig" >/dev/null ||
    fail "the pkg-config host does not run with only $so (no libcadence.so link) in LD_LIBRARY_PATH"
  echo "install_test: ok  (a) cc \$(pkg-config --cflags --libs cadence): DT_NEEDED $so, runs with only lib/$so"
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
  grep -qF "Cadence::cadence IMPORTED_LOCATION=$prefix/lib/$so IMPORTED_SONAME=$so" "$tmp/cmake.log" ||
    { grep 'Cadence::cadence' "$tmp/cmake.log" >&2 || true; fail "Cadence::cadence does not have IMPORTED_LOCATION $prefix/lib/$so and IMPORTED_SONAME $so"; }
  cmake --build "$tmp/cmake-build" >"$tmp/cmake-build.log" 2>&1 ||
    { cat "$tmp/cmake-build.log" >&2; fail "cmake build failed"; }
  needs_soname "the CMake host" "$tmp/cmake-build/host"
  # no LD_LIBRARY_PATH: CMake's build-tree rpath must find the library
  "$tmp/cmake-build/host" || fail "the CMake host failed"
  ldd "$tmp/cmake-build/host" 2>/dev/null | grep -qF "$so => $prefix/lib/$so " ||
    fail "the CMake host does not load $prefix/lib/$so"
  echo "install_test: ok  (b) CMake find_package(Cadence) + Cadence::cadence (IMPORTED_LOCATION lib/$so, IMPORTED_SONAME $so; DT_NEEDED $so)"

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
needs_soname "the plain cc host" "$tmp/host_plain"
"$tmp/host_plain" >/dev/null || fail "the plain cc host failed"
echo "install_test: ok  (c) cc -I -L -lcadence -Wl,-rpath"

prefix2="$tmp/prefix2"
sh "$install_sh" --prefix "$prefix2" --libdir lib64 --lib "$LIB" --header "$HEADER" >"$tmp/install-lib64.log" 2>&1 ||
  { cat "$tmp/install-lib64.log" >&2; fail "install.sh --libdir lib64 failed"; }
layout_ok "$prefix2/lib64"
[ -f "$prefix2/lib64/pkgconfig/cadence.pc" ] &&
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
# the imported target LIBDIR/$so, and the host must load LIBDIR/$so.
cmake_host() {
  cmake -S "$here/install" -B "$tmp/cmake-$1" "$5" -DCMAKE_C_COMPILER="$(command -v "$CC")" \
    >"$tmp/cmake-$1.log" 2>&1 || { cat "$tmp/cmake-$1.log" >&2; fail "($1) cmake configure failed"; }
  grep -qF "Found Cadence $version at $2 ($3/libcadence.so; include $4)" "$tmp/cmake-$1.log" ||
    { grep 'Found Cadence' "$tmp/cmake-$1.log" >&2 || true; fail "($1) find_package(Cadence) did not report $2, $3/libcadence.so and $4"; }
  grep -qF "Cadence::cadence IMPORTED_LOCATION=$3/$so IMPORTED_SONAME=$so" "$tmp/cmake-$1.log" ||
    { grep 'Cadence::cadence' "$tmp/cmake-$1.log" >&2 || true; fail "($1) the imported target is not $3/$so"; }
  cmake --build "$tmp/cmake-$1" >"$tmp/cmake-$1-build.log" 2>&1 ||
    { cat "$tmp/cmake-$1-build.log" >&2; fail "($1) cmake build failed"; }
  "$tmp/cmake-$1/host" >/dev/null || fail "($1) the CMake host failed"
  ldd "$tmp/cmake-$1/host" 2>/dev/null | grep -qF "$so => $3/$so " || fail "($1) the host does not load $3/$so"
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

  # a missing library: NOT FOUND, with a readable reason naming the missing files.
  # broken_install NAME PREFIX WANT: find_package(Cadence) in PREFIX must fail
  # with a reason that contains WANT (NAME: a word, for the scratch files)
  mkdir -p "$tmp/cmake-broken"
  {
    echo 'cmake_minimum_required(VERSION 3.10)'
    echo 'project(broken C)'
    echo 'find_package(Cadence QUIET)'
    echo 'message(STATUS "Cadence_FOUND=[${Cadence_FOUND}]")'
    echo 'message(STATUS "reason=[${Cadence_NOT_FOUND_MESSAGE}]")'
  } >"$tmp/cmake-broken/CMakeLists.txt"
  broken_install() {
    cmake -S "$tmp/cmake-broken" -B "$tmp/cmake-broken/build-$1" -DCMAKE_PREFIX_PATH="$2" \
      -DCMAKE_C_COMPILER="$(command -v "$CC")" >"$tmp/cmake-broken-$1.log" 2>&1 ||
      { cat "$tmp/cmake-broken-$1.log" >&2; fail "($1) cmake configure of the broken-install project failed"; }
    grep -qE 'Cadence_FOUND=\[(FALSE|0|)\]' "$tmp/cmake-broken-$1.log" ||
      { grep 'Cadence_FOUND' "$tmp/cmake-broken-$1.log" >&2 || true; fail "($1) find_package(Cadence) found an install whose library is missing"; }
    reason=$(sed -n 's/.*reason=\[\(.*\)\]$/\1/p' "$tmp/cmake-broken-$1.log")
    case "$reason" in
      *";"*) fail "($1) the NOT FOUND message has a stray ';': $reason" ;;
      *"$3"*) ;;
      *) fail "($1) the NOT FOUND message does not say '$3': $reason" ;;
    esac
    echo "install_test: ok  (d) an install missing a file gives NOT FOUND ($1): $reason"
  }
  # the development link gone
  rm "$r/copy/lib/libcadence.so"
  broken_install no-link "$r/copy" "$r/copy/lib/libcadence.so is missing"
  # the real file gone (the link dangles)
  rm "$r/moved/lib/$so"
  broken_install no-file "$r/moved" "$r/moved/lib/$so and $r/moved/lib/libcadence.so are missing"
fi

if [ -n "$skipped" ]; then
  echo "install_test: SKIP parts:$skipped (everything else passed)"
else
  echo "install_test: all passed"
fi
exit 0
