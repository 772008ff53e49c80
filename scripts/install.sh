#!/bin/sh
# scripts/install.sh - install libcadence for C hosts.
#
# Installs, under a prefix (default /usr/local):
#   LIBDIR/libcadence.so.1                    the library (default LIBDIR = PREFIX/lib)
#   LIBDIR/libcadence.so -> libcadence.so.1   the development link (relative symlink)
#   INCLUDEDIR/cadence.h                      the header  (default INCLUDEDIR = PREFIX/include)
#   LIBDIR/pkgconfig/cadence.pc               for pkg-config
#   LIBDIR/cmake/Cadence/CadenceConfig.cmake  for CMake's find_package(Cadence)
#   LIBDIR/cmake/Cadence/CadenceConfigVersion.cmake
#   PREFIX/share/cadence/valgrind/cadence.supp  valgrind suppressions for hosts
#
# The library is installed under its SONAME, libcadence.so.<CAD_ABI_VERSION>
# (read from the library and checked against the header's CAD_ABI_VERSION):
# hosts record that name (DT_NEEDED), and it changes only when the C ABI breaks;
# the package version is cad_version_string() at run time. The loader needs only the
# .so.1 file (a runtime package ships just that); linking with -lcadence finds
# the libcadence.so link (a development package). A libcadence.so left as a
# regular file by an older install is replaced by the link.
#
# The pkg-config and CMake files are made from the templates in bindings/c/.
# The CMake package is relocatable: it finds the library and the header
# relative to its own directory, so the installed tree may be moved or copied
# (only an --includedir or --libdir outside the prefix is written in as an
# absolute path). cadence.pc names the prefix but writes libdir and includedir
# relative to ${prefix}, for `pkg-config --define-prefix`. The installed
# library is a stripped copy (strip --strip-unneeded: no debug info or
# symbol table; the exported cad_* functions are unchanged).
# Running it again with the same arguments changes nothing (files whose
# content is unchanged, and a link already pointing right, are left alone).
# DESTDIR, if set, is prepended to every destination (for staged packaging)
# but not written into the generated files.
# The loader finds a library in a configured directory of its search path
# (/etc/ld.so.conf, e.g. /usr/local/lib on Debian) through its cache, which only
# ldconfig updates: when LIBDIR is such a directory and the cache does not list
# the installed file yet, the script ends with a hint to run ldconfig as root.
# It does not run it itself (not even as root): a distro package runs it from
# its maintainer scripts, and a DESTDIR install (no hint) is not the live system.
#
# Usage: scripts/install.sh [--prefix DIR] [--libdir DIR] [--includedir DIR]
#                           [--lib PATH] [--header PATH] [--no-strip] [--quiet]
#   --prefix DIR      installation prefix (default /usr/local)
#   --libdir DIR      library directory, absolute or relative to the prefix
#                     (default lib; e.g. lib64 or lib/x86_64-linux-gnu)
#   --includedir DIR  header directory, absolute or relative to the prefix (default include)
#   --lib PATH        the libcadence.so to install (default: the repository's
#                     .build/release/libcadence.so, from `swift build -c release`)
#   --header PATH     the cadence.h to install (default: the repository's include/cadence.h)
#   --no-strip        install the library as built, with its debug info
#                     (also: CADENCE_NO_STRIP=1 in the environment)
#   --quiet           print nothing on success
# Environment: DESTDIR (staging root), CADENCE_NO_STRIP=1 (as --no-strip),
#   STRIP (the strip program, default strip; without one the library is
#   installed unstripped), LDCONFIG (the ldconfig asked for the loader's
#   directories and cache, default ldconfig, /sbin/ldconfig or /usr/sbin/ldconfig;
#   without one there is no hint).
set -eu

script_dir=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
repo=$(dirname -- "$script_dir")
templates="$repo/bindings/c"

prefix=/usr/local
libdir=lib
includedir=include
lib="$repo/.build/release/libcadence.so"
header="$repo/include/cadence.h"
quiet=0
strip_lib=1
case "${CADENCE_NO_STRIP:-}" in
  ''|0) ;;
  *) strip_lib=0 ;;
esac

usage() {
  sed -n '/^# Usage:/,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//'
}

die() {
  echo "install.sh: $*" >&2
  exit 1
}

need_arg() {
  [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value (see --help)"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) need_arg "$@"; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --libdir) need_arg "$@"; libdir=$2; shift 2 ;;
    --libdir=*) libdir=${1#*=}; shift ;;
    --includedir) need_arg "$@"; includedir=$2; shift 2 ;;
    --includedir=*) includedir=${1#*=}; shift ;;
    --lib) need_arg "$@"; lib=$2; shift 2 ;;
    --lib=*) lib=${1#*=}; shift ;;
    --header) need_arg "$@"; header=$2; shift 2 ;;
    --header=*) header=${1#*=}; shift ;;
    --no-strip) strip_lib=0; shift ;;
    --quiet|-q) quiet=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

say() {
  [ "$quiet" -eq 1 ] || echo "$@"
}

# absolute and lexically normal: no trailing, repeated or "." components, ".." resolved
absolute() {
  case "$1" in
    /*) p=$1 ;;
    *) p="$(pwd)/$1" ;;
  esac
  out=""
  old_ifs=$IFS
  IFS=/
  set -f
  for c in $p; do
    case "$c" in
      ''|.) ;;
      ..) out=${out%/*} ;;
      *) out="$out/$c" ;;
    esac
  done
  set +f
  IFS=$old_ifs
  printf '%s' "${out:-/}"
}

# relative_to_prefix DIR: DIR relative to the prefix ("." for the prefix
# itself); fails when DIR is not under the prefix
relative_to_prefix() {
  [ "$1" != "$prefix" ] || { printf '.'; return 0; }
  case "$prefix" in /) base="" ;; *) base=$prefix ;; esac
  case "$1" in
    "$base"/*) printf '%s' "${1#"$base"/}" ;;
    *) return 1 ;;
  esac
}

prefix=$(absolute "$prefix")
case "$libdir" in /*) ;; *) libdir="$prefix/$libdir" ;; esac
case "$includedir" in /*) ;; *) includedir="$prefix/$includedir" ;; esac
libdir=$(absolute "$libdir")
includedir=$(absolute "$includedir")

[ -f "$lib" ] || die "no library at $lib (build it with 'swift build -c release' or pass --lib PATH)"
[ -f "$header" ] || die "no header at $header (pass --header PATH)"
for t in cadence.pc.in CadenceConfig.cmake.in CadenceConfigVersion.cmake.in; do
  [ -f "$templates/$t" ] || die "template $templates/$t is missing"
done

version=$(sed -n 's/^#define CAD_VERSION_STRING "\([^"]*\)".*/\1/p' "$header")
[ -n "$version" ] || die "could not read CAD_VERSION_STRING from $header"
abi=$(sed -n 's/^#define CAD_ABI_VERSION \([0-9][0-9]*\).*/\1/p' "$header")
[ -n "$abi" ] || die "could not read CAD_ABI_VERSION from $header"

# the installed file's name is the library's SONAME, which must be the header's ABI
soname=$(sh "$script_dir/link_soname.sh" --soname "$lib") || die "could not read the SONAME of $lib"
[ -n "$soname" ] || die "$lib has no SONAME (built before libcadence.so.$abi; rebuild it with 'swift build -c release')"
[ "$soname" = "libcadence.so.$abi" ] ||
  die "the SONAME of $lib is $soname but $header has CAD_ABI_VERSION $abi (want libcadence.so.$abi): library and header from different builds?"

# a path for the inside of a CMake quoted argument
cmake_quote() {
  printf '%s' "$1" | sed -e 's/[\\"$]/\\&/g'
}

# pkg-config paths relative to ${prefix} when they are under it (so that
# `pkg-config --define-prefix` can relocate the install)
pc_path() {
  case "$prefix:$2" in
    /:*) printf '%s' "$1" ;;   # prefix=/ : no "${prefix}/lib" = "//lib"
    *:.) printf '%s' '${prefix}' ;;
    *) printf '%s' "\${prefix}/$2" ;;
  esac
}
if rel_libdir=$(relative_to_prefix "$libdir"); then
  pc_libdir=$(pc_path "$libdir" "$rel_libdir")
else
  rel_libdir=""
  pc_libdir=$libdir
fi
if rel_includedir=$(relative_to_prefix "$includedir"); then
  pc_includedir=$(pc_path "$includedir" "$rel_includedir")
else
  rel_includedir=""
  pc_includedir=$includedir
fi

# CMake paths relative to the config file's directory, LIBDIR/cmake/Cadence:
# the library is always two levels up; the prefix is reached by going up
# through LIBDIR when LIBDIR is under it (otherwise it is written in); the
# header directory is PREFIX/INCLUDEDIR when under the prefix, else absolute.
if [ -n "$rel_libdir" ]; then
  cmake_prefix='${CMAKE_CURRENT_LIST_DIR}/../..'
  if [ "$rel_libdir" != . ]; then
    rest=$rel_libdir
    while [ -n "$rest" ]; do
      cmake_prefix="$cmake_prefix/.."
      case "$rest" in */*) rest=${rest#*/} ;; *) rest="" ;; esac
    done
  fi
else
  cmake_prefix=$(cmake_quote "$prefix")
fi
if [ -n "$rel_includedir" ]; then
  case "$rel_includedir" in
    .) cmake_includedir='${Cadence_PREFIX}' ;;
    *) cmake_includedir="\${Cadence_PREFIX}/$(cmake_quote "$rel_includedir")" ;;
  esac
else
  cmake_includedir=$(cmake_quote "$includedir")
fi

# escape a value for the right-hand side of a sed s||| command
sed_escape() {
  printf '%s' "$1" | sed -e 's/[\\&|]/\\&/g'
}

substitute() {
  sed -e "s|@PREFIX@|$(sed_escape "$prefix")|g" \
      -e "s|@LIBDIR@|$(sed_escape "$libdir")|g" \
      -e "s|@INCLUDEDIR@|$(sed_escape "$includedir")|g" \
      -e "s|@PC_LIBDIR@|$(sed_escape "$pc_libdir")|g" \
      -e "s|@PC_INCLUDEDIR@|$(sed_escape "$pc_includedir")|g" \
      -e "s|@CMAKE_PREFIX@|$(sed_escape "$cmake_prefix")|g" \
      -e "s|@CMAKE_INCLUDEDIR@|$(sed_escape "$cmake_includedir")|g" \
      -e "s|@VERSION@|$(sed_escape "$version")|g" \
      -e "s|@SONAME@|$(sed_escape "$soname")|g" \
      "$1"
}

dest=${DESTDIR:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/cadence-install.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# put_file SRC DST MODE: install SRC as DST unless DST already has that content
put_file() {
  if [ -f "$2" ] && cmp -s "$1" "$2"; then
    chmod "$3" "$2"
    say "  unchanged  $2"
  else
    mkdir -p "$(dirname -- "$2")"
    # copy next to the target, then rename: never a half-written library
    cp "$1" "$2.tmp.$$"
    chmod "$3" "$2.tmp.$$"
    mv -f "$2.tmp.$$" "$2"
    say "  installed  $2"
  fi
}

# put_link TARGET DST: DST becomes the symlink -> TARGET unless it already is
# (a regular file left by an older install is replaced, atomically)
put_link() {
  if [ -L "$2" ] && [ "$(readlink "$2")" = "$1" ]; then
    say "  unchanged  $2 -> $1"
  else
    mkdir -p "$(dirname -- "$2")"
    rm -f "$2.tmp.$$"
    ln -s "$1" "$2.tmp.$$"
    mv -f "$2.tmp.$$" "$2"
    say "  linked     $2 -> $1"
  fi
}

# the library to install: a stripped copy unless --no-strip / CADENCE_NO_STRIP=1
install_lib=$lib
strip_note="not stripped: --no-strip or CADENCE_NO_STRIP"
if [ "$strip_lib" -eq 1 ]; then
  strip_prog=${STRIP:-strip}
  if command -v "$strip_prog" >/dev/null 2>&1; then
    cp "$lib" "$work/libcadence.so"
    if "$strip_prog" --strip-unneeded "$work/libcadence.so" 2>"$work/strip.log"; then
      install_lib="$work/libcadence.so"
      strip_note="stripped with $strip_prog --strip-unneeded: $(wc -c < "$lib" | tr -d ' ') -> $(wc -c < "$install_lib" | tr -d ' ') bytes; --no-strip keeps the debug info"
    else
      strip_msg=$(head -n 1 "$work/strip.log")
      echo "install.sh: warning: '$strip_prog --strip-unneeded' failed, installing the library unstripped${strip_msg:+: $strip_msg}" >&2
      strip_note="not stripped: $strip_prog failed"
    fi
  else
    strip_note="not stripped: no '$strip_prog' found (set STRIP=...)"
  fi
fi

say "Installing Cadence $version into $dest$prefix"
# the file first, then the link to it: the link never dangles
put_file "$install_lib" "$dest$libdir/$soname" 0755
say "             ($strip_note)"
put_link "$soname" "$dest$libdir/libcadence.so"
put_file "$header" "$dest$includedir/cadence.h" 0644

substitute "$templates/cadence.pc.in" > "$work/cadence.pc"
put_file "$work/cadence.pc" "$dest$libdir/pkgconfig/cadence.pc" 0644

substitute "$templates/CadenceConfig.cmake.in" > "$work/CadenceConfig.cmake"
substitute "$templates/CadenceConfigVersion.cmake.in" > "$work/CadenceConfigVersion.cmake"
put_file "$work/CadenceConfig.cmake" "$dest$libdir/cmake/Cadence/CadenceConfig.cmake" 0644
put_file "$work/CadenceConfigVersion.cmake" "$dest$libdir/cmake/Cadence/CadenceConfigVersion.cmake" 0644
put_file "$templates/valgrind/cadence.supp" "$dest$prefix/share/cadence/valgrind/cadence.supp" 0644

if grep -l '@[A-Z_]*@' "$work/cadence.pc" "$work/CadenceConfig.cmake" "$work/CadenceConfigVersion.cmake" >/dev/null 2>&1; then
  die "a template placeholder was left unsubstituted"
fi

say "Done. Build a host with:"
say "  cc host.c \$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs cadence) -Wl,-rpath,$libdir"
say "  or in CMake: find_package(Cadence REQUIRED) + target_link_libraries(host Cadence::cadence)"
if [ "$libdir" = "$prefix/lib" ]; then
  say "              (with -DCMAKE_PREFIX_PATH=$prefix if the prefix is not searched by default,"
  say "              or -DCadence_DIR=$libdir/cmake/Cadence)"
else
  # CMake's prefix search looks in PREFIX/lib, PREFIX/lib/<arch> and share, and
  # in lib64 only where the platform says so (not on Debian and Ubuntu)
  say "              configured with -DCadence_DIR=$libdir/cmake/Cadence"
  say "              (-DCMAKE_PREFIX_PATH=$prefix finds it only where CMake searches"
  say "              $libdir: not lib64 on Debian and Ubuntu)"
fi

# the loader's cache: a library new in a configured directory loads only after ldconfig
ldconfig_prog=${LDCONFIG:-}
if [ -z "$ldconfig_prog" ]; then
  for p in ldconfig /sbin/ldconfig /usr/sbin/ldconfig; do
    if command -v "$p" >/dev/null 2>&1; then ldconfig_prog=$p; break; fi
  done
fi
if [ -z "$dest" ] && [ -n "$ldconfig_prog" ]; then
  # -v -N -X lists the directories it would cache and changes nothing (no root
  # needed); the trusted <builtin> ones (/lib, /usr/lib) are searched without a cache
  in_path=0
  for d in $("$ldconfig_prog" -v -N -X 2>/dev/null | sed -n '/<builtin>/d; s|^\(/[^:]*\):.*|\1|p'); do
    if [ "$d" -ef "$libdir" ]; then in_path=1; break; fi
  done
  cached=0
  if [ "$in_path" -eq 1 ]; then
    so_re=$(printf '%s' "$soname" | sed 's/[.]/\\./g')
    for f in $("$ldconfig_prog" -p 2>/dev/null | sed -n "s|^[[:space:]]*$so_re (.*) => \(/.*\)\$|\1|p"); do
      if [ "$f" -ef "$libdir/$soname" ]; then cached=1; break; fi
    done
  fi
  if [ "$in_path" -eq 1 ] && [ "$cached" -eq 0 ]; then
    say ""
    say "Run 'sudo ldconfig' (as root: 'ldconfig') now: $libdir is in the loader's search path,"
    say "but its cache does not list $soname there yet, so hosts linked without an rpath"
    say "and Python's 'import cadence' cannot load it until ldconfig has run."
  fi
fi
