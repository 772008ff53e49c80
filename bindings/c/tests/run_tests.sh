#!/bin/sh
# run_tests.sh DIR... - runs every test binary (DIR/test_*) and sums up.
#
# Each binary prints one line per test (ok / FAIL / XFAIL / XPASS) and a
# SUMMARY line. This script shows failures and known failures in full, one
# line per binary otherwise (VERBOSE=1 shows everything), keeps the logs next
# to the binaries, and exits 1 if any test failed or any binary did not finish.

status=0
total_pass=0; total_fail=0; total_xfail=0; total_xpass=0; binaries=0

for dir in "$@"; do
  mode=$(basename "$(dirname "$dir")")
  for t in "$dir"/test_*; do
    [ -x "$t" ] || continue
    binaries=$((binaries + 1))
    log="$t.log"
    "$t" > "$log" 2>&1
    rc=$?
    summary=$(grep '^SUMMARY ' "$log" | tail -n 1)
    if [ -z "$summary" ]; then
      echo "FAIL    [$mode] $(basename "$t"): exited with status $rc and no SUMMARY"
      cat "$log"
      status=1
      total_fail=$((total_fail + 1))
      continue
    fi
    p=$(echo "$summary" | sed -n 's/.* pass=\([0-9]*\).*/\1/p')
    f=$(echo "$summary" | sed -n 's/.* fail=\([0-9]*\).*/\1/p')
    x=$(echo "$summary" | sed -n 's/.* xfail=\([0-9]*\).*/\1/p')
    xp=$(echo "$summary" | sed -n 's/.* xpass=\([0-9]*\).*/\1/p')
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
    total_xfail=$((total_xfail + x)); total_xpass=$((total_xpass + xp))
    if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then status=1; fi
    if [ -n "$VERBOSE" ] || [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
      sed "s/^/[$mode] /" "$log"
    else
      # known failures and unexpected passes are always shown
      grep -A1 '^XFAIL ' "$log" | grep -v '^--$' | sed "s/^/[$mode] /"
      grep '^XPASS ' "$log" | sed "s/^/[$mode] /"
      echo "[$mode] $summary"
    fi
  done
done

echo "TOTAL binaries=$binaries pass=$total_pass fail=$total_fail xfail=$total_xfail xpass=$total_xpass"
if [ "$binaries" -eq 0 ]; then
  echo "no test binaries found in: $*" >&2
  exit 1
fi
exit $status
