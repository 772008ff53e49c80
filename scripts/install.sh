#!/bin/sh
# scripts/install.sh - install libcadence for C hosts.
#
# Installs, under a prefix (default /usr/local):
#   LIBDIR/libcadence.so                      the library (default LIBDIR = PREFIX/lib)
#   INCLUDEDIR/cadence.h                      the header  (default INCLUDEDIR = PREFIX/include)
#   LIBDIR/pkgconfig/cadence.pc               for pkg-config
#   LIBDIR/cmake/Cadence/CadenceConfig.cmake  for CMake's find_package(Cadence)
#   LIBDIR/cmake/Cadence/CadenceConfigVersion.cmake
#
# The pkg-config and CMake files are made from the templates in bindings/c/
# with the chosen paths substituted. Running it again with the same arguments
# changes nothing (files whose content is unchanged are left alone). DESTDIR,
# if set, is prepended to every destination (for staged packaging) but not
# written into the generated files.
#
# Usage: scripts/install.sh [--prefix DIR] [--libdir DIR] [--includedir DIR]
#                           [--lib PATH] [--header PATH] [--quiet]
#   --prefix DIR      installation prefix (default /usr/local)
#   --libdir DIR      library directory, absolute or relative to the prefix
#                     (default lib; e.g. lib64 or lib/x86_64-linux-gnu)
#   --includedir DIR  header directory, absolute or relative to the prefix (default include)
#   --lib PATH        the libcadence.so to install (default: the repository's
#                     .build/release/libcadence.so, from `swift build -c release`)
#   --header PATH     the cadence.h to install (default: the repository's include/cadence.h)
#   --quiet           print nothing on success
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
    --quiet|-q) quiet=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done

say() {
  [ "$quiet" -eq 1 ] || echo "$@"
}

# absolute, without trailing slashes
absolute() {
  case "$1" in
    /*) p=$1 ;;
    *) p="$(pwd)/$1" ;;
  esac
  while [ "${#p}" -gt 1 ] && [ "${p%/}" != "$p" ]; do p=${p%/}; done
  printf '%s' "$p"
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

# pkg-config paths relative to ${prefix} when they are under it (so that
# `pkg-config --define-prefix` can relocate the install)
case "$libdir" in
  "$prefix"/*) pc_libdir="\${prefix}/${libdir#"$prefix"/}" ;;
  *) pc_libdir=$libdir ;;
esac
case "$includedir" in
  "$prefix"/*) pc_includedir="\${prefix}/${includedir#"$prefix"/}" ;;
  *) pc_includedir=$includedir ;;
esac

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
      -e "s|@VERSION@|$(sed_escape "$version")|g" \
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

say "Installing Cadence $version into $dest$prefix"
put_file "$lib" "$dest$libdir/libcadence.so" 0755
put_file "$header" "$dest$includedir/cadence.h" 0644

substitute "$templates/cadence.pc.in" > "$work/cadence.pc"
put_file "$work/cadence.pc" "$dest$libdir/pkgconfig/cadence.pc" 0644

substitute "$templates/CadenceConfig.cmake.in" > "$work/CadenceConfig.cmake"
substitute "$templates/CadenceConfigVersion.cmake.in" > "$work/CadenceConfigVersion.cmake"
put_file "$work/CadenceConfig.cmake" "$dest$libdir/cmake/Cadence/CadenceConfig.cmake" 0644
put_file "$work/CadenceConfigVersion.cmake" "$dest$libdir/cmake/Cadence/CadenceConfigVersion.cmake" 0644

if grep -l '@[A-Z_]*@' "$work/cadence.pc" "$work/CadenceConfig.cmake" "$work/CadenceConfigVersion.cmake" >/dev/null 2>&1; then
  die "a template placeholder was left unsubstituted"
fi

say "Done. Build a host with:"
say "  cc host.c \$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs cadence) -Wl,-rpath,$libdir"
say "  or in CMake: find_package(Cadence REQUIRED) + target_link_libraries(host Cadence::cadence)"
say "              (with -DCMAKE_PREFIX_PATH=$prefix if the prefix is not searched by default)"
