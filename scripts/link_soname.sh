#!/bin/sh
# scripts/link_soname.sh - make a libcadence.so loadable by its SONAME.
#
# libcadence.so's DT_SONAME is libcadence.so.<CAD_ABI_VERSION> (Package.swift),
# so a host linked with -lcadence records DT_NEEDED libcadence.so.1, and the
# loader looks for that name, not for libcadence.so.
#
#   scripts/link_soname.sh LIBDIR
#       For a build directory (after `swift build`): LIBDIR/libcadence.so.1 ->
#       libcadence.so, a relative symlink, so that hosts linked with
#       -L LIBDIR -lcadence -Wl,-rpath,LIBDIR run.
#   scripts/link_soname.sh LIBDIR|LIB LINKDIR
#       For a library we must not write next to (a user's LIBDIR): a private
#       link directory holding LINKDIR/libcadence.so and LINKDIR/libcadence.so.1,
#       both -> LIB (LIBDIR/libcadence.so, absolute). Hosts link with
#       -L LINKDIR -lcadence -Wl,-rpath,LINKDIR.
#   scripts/link_soname.sh --soname LIB
#       Prints LIB's SONAME (nothing when it has none); for scripts/install.sh.
#
# The SONAME is read from the library itself (readelf -d, or objdump -p), so it
# follows Package.swift; a library without one needs no .so.N link. Links that
# are already right are left alone; wrong ones are replaced atomically.
set -eu

die() {
  echo "link_soname.sh: $*" >&2
  exit 1
}

print=0
if [ "${1:-}" = --soname ]; then print=1; shift; fi
case "$print$#" in
  11|01|02) ;;
  *) die "usage: scripts/link_soname.sh LIBDIR | LIBDIR|LIB LINKDIR | --soname LIB" ;;
esac
[ "$print$#" != 01 ] || [ -d "$1" ] || die "$1 is not a directory"

if [ -d "$1" ]; then lib="$1/libcadence.so"; else lib=$1; fi
[ -f "$lib" ] || die "no library at $lib"

if command -v readelf >/dev/null 2>&1; then
  soname=$(LC_ALL=C readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
elif command -v objdump >/dev/null 2>&1; then
  soname=$(LC_ALL=C objdump -p "$lib" | sed -n 's/^ *SONAME  *\([^ ]*\).*/\1/p')
else
  die "neither readelf nor objdump found (install binutils) to read the SONAME of $lib"
fi

# link TARGET NAME: NAME -> TARGET unless it already is
link() {
  [ -L "$2" ] && [ "$(readlink "$2")" = "$1" ] && return 0
  ln -s "$1" "$2.tmp.$$"
  mv -f "$2.tmp.$$" "$2"
}

case "$soname" in */*) die "the SONAME of $lib is a path: $soname" ;; esac
if [ "$print" = 1 ]; then
  [ -z "$soname" ] || printf '%s\n' "$soname"
  exit 0
fi

if [ $# -eq 1 ]; then
  so="$1/$soname"
  case "$soname" in
    ''|libcadence.so) ;;   # hosts record the file name itself
    *)
      if [ -e "$so" ] && [ "$lib" -ef "$so" ] && { [ ! -L "$so" ] || [ -L "$lib" ]; }; then
        :   # libcadence.so leads to it (an installed layout): a link back would loop
      elif [ -e "$so" ] && [ ! -L "$so" ]; then
        echo "link_soname.sh: warning: $so is a file, not $lib; left alone" >&2
      else
        link libcadence.so "$so"
      fi ;;
  esac
else
  case "$lib" in /*) ;; *) lib="$(pwd)/$lib" ;; esac
  mkdir -p "$2"
  link "$lib" "$2/libcadence.so"
  case "$soname" in
    ''|libcadence.so) ;;
    *) link "$lib" "$2/$soname" ;;
  esac
fi
